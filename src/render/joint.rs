//! What a joint gizmo draws, from the shared joint math ([`crate::joint`]): the same frame,
//! parent and limits the solver builds, and the same measurement telemetry records.

use crate::document::{BoneId, Document};
use crate::joint::{self, JointLimits, JointMeasure};
use glam::{DMat4, DQuat, DVec3};

/// Everything needed to draw one joint's limits, in world space.
#[derive(Debug, Clone)]
pub struct JointGizmo {
    pub bone: BoneId,
    pub parent: BoneId,
    /// Joint origin: the child bone's origin.
    pub origin: DVec3,
    /// World rotation of the parent-side joint frame now: the limits live in it.
    pub world_from_parent_joint: DQuat,
    /// World rotation of the child-side joint frame now (its X is the bone's primary axis).
    pub world_from_child_joint: DQuat,
    pub limits: JointLimits,
    pub measure: JointMeasure,
    /// Bone length used to size the gizmo (m).
    pub size: f64,
}

use crate::joint::frame::rotation_of;

/// The gizmo of a bone's joint under `pose` (world_from_bone per bone), given the rest pose.
/// None where the solver has no joint.
pub fn joint_gizmo(
    doc: &Document,
    id: BoneId,
    rest: &[DMat4],
    pose: &[DMat4],
) -> Option<JointGizmo> {
    let def = joint::resolve(doc, id)?;
    let (i, p) = (id.index(), def.parent.index());
    let (rest_b, rest_p, cur_b, cur_p) = (rest.get(i)?, rest.get(p)?, pose.get(i)?, pose.get(p)?);
    let pfj = def.parent_from_joint(rotation_of(rest_p), rotation_of(rest_b));
    let q = def.relative(pfj, rotation_of(cur_p), rotation_of(cur_b));
    let size = doc
        .bone_to_child(id)
        .map_or(0.1, |d| d.length())
        .clamp(0.06, 0.4);
    Some(JointGizmo {
        bone: id,
        parent: def.parent,
        origin: cur_b.w_axis.truncate(),
        world_from_parent_joint: (rotation_of(cur_p) * pfj).normalize(),
        world_from_child_joint: (rotation_of(cur_b) * def.bone_from_joint).normalize(),
        measure: def.limits.measure(q),
        limits: def.limits,
        size,
    })
}

/// A direction at `tilt` and azimuth `psi` (radians) in a joint frame.
pub fn joint_direction(tilt: f64, psi: f64) -> DVec3 {
    DVec3::new(tilt.cos(), tilt.sin() * psi.cos(), tilt.sin() * psi.sin())
}
