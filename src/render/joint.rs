//! Joint angles and limit frames, in glam (no GL). The convention the gizmos draw:
//! `delta = rest_rel⁻¹ · cur_rel` is the bone's rotation away from its rest pose, in its own rest
//! frame (`rel` = parent⁻¹ · bone). A ball socket's swing is the angle between the primary axis
//! `a` and `delta·a`; its twist is the swing-twist angle of `delta` about `a`. A hinge's angle is
//! the twist of `delta` about the hinge axis (right-handed, degrees).

use crate::document::{BoneId, ConstraintKind, Document};
use glam::{DMat4, DQuat, DVec3};

/// The relative rotation `parent⁻¹ · bone` of two world transforms.
pub fn relative_rotation(world_parent: &DMat4, world_bone: &DMat4) -> DQuat {
    let (_, rp, _) = world_parent.to_scale_rotation_translation();
    let (_, rb, _) = world_bone.to_scale_rotation_translation();
    (rp.inverse() * rb).normalize()
}

/// The angle (radians, in -pi..pi) of the twist part of `q` about the unit `axis`.
pub fn twist_angle(q: DQuat, axis: DVec3) -> f64 {
    let q = if q.w < 0.0 { -q } else { q };
    let p = DVec3::new(q.x, q.y, q.z).dot(axis);
    let a = 2.0 * p.atan2(q.w);
    if a > std::f64::consts::PI {
        a - std::f64::consts::TAU
    } else {
        a
    }
}

/// The angle (radians) between `axis` and `q·axis`.
pub fn swing_angle(q: DQuat, axis: DVec3) -> f64 {
    axis.angle_between(q * axis)
}

/// A unit vector perpendicular to `axis`, preferring `hint` projected onto its plane.
pub fn perpendicular(axis: DVec3, hint: DVec3) -> DVec3 {
    let p = hint - axis * hint.dot(axis);
    if p.length_squared() > 1e-8 {
        return p.normalize();
    }
    axis.any_orthonormal_vector()
}

/// A joint's current state against its limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointState {
    Ball {
        swing_deg: f64,
        twist_deg: f64,
        swing_limit_deg: f64,
        twist_limit_deg: f64,
    },
    Hinge {
        angle_deg: f64,
        min_deg: f64,
        max_deg: f64,
    },
}

impl JointState {
    /// 0 when far from every limit, 1 at (or past) a limit.
    pub fn nearness(&self) -> f64 {
        match *self {
            JointState::Ball {
                swing_deg,
                twist_deg,
                swing_limit_deg,
                twist_limit_deg,
            } => {
                let s = swing_deg / swing_limit_deg.max(1e-3);
                let t = twist_deg.abs() / twist_limit_deg.max(1e-3);
                s.max(t).clamp(0.0, 1.0)
            }
            JointState::Hinge {
                angle_deg,
                min_deg,
                max_deg,
            } => {
                let half = ((max_deg - min_deg) * 0.5).max(1e-3);
                let dist = (angle_deg - min_deg).min(max_deg - angle_deg);
                (1.0 - dist / half).clamp(0.0, 1.0)
            }
        }
    }

    /// True when the state lies inside the limits (what the solver must enforce).
    pub fn within_limits(&self) -> bool {
        match *self {
            JointState::Ball {
                swing_deg,
                twist_deg,
                swing_limit_deg,
                twist_limit_deg,
            } => swing_deg <= swing_limit_deg + 1e-9 && twist_deg.abs() <= twist_limit_deg + 1e-9,
            JointState::Hinge {
                angle_deg,
                min_deg,
                max_deg,
            } => angle_deg >= min_deg - 1e-9 && angle_deg <= max_deg + 1e-9,
        }
    }
}

/// Everything needed to draw one joint's limits, in world space.
#[derive(Debug, Clone)]
pub struct JointFrame {
    pub bone: BoneId,
    pub parent: BoneId,
    /// Joint origin: the child bone's origin.
    pub origin: DVec3,
    /// Where the bone's rest frame would be under the current parent (limits live here).
    pub reference: DQuat,
    /// The bone's current world rotation.
    pub current: DQuat,
    /// Twist axis (ball socket) or hinge axis, in bone space.
    pub axis: DVec3,
    /// Zero-angle direction in bone space (perpendicular to `axis`).
    pub zero: DVec3,
    pub kind: ConstraintKind,
    pub state: JointState,
    /// Bone length used to size the gizmo (m).
    pub size: f64,
}

/// The constraint parent of a bone: the named `parent_bone`, else the skeleton parent.
pub fn constraint_parent(doc: &Document, id: BoneId) -> Option<BoneId> {
    let c = doc.bone(id).physics.as_ref()?.constraint.as_ref()?;
    c.parent_bone
        .as_deref()
        .and_then(|n| doc.bone_by_name(n))
        .or(doc.bone(id).parent)
}

/// The joint frame of a constrained bone under `pose` (world_from_bone per bone), given the
/// rest pose `rest`. None for a bone without a constraint or parent.
pub fn joint_frame(
    doc: &Document,
    id: BoneId,
    rest: &[DMat4],
    pose: &[DMat4],
) -> Option<JointFrame> {
    let kind = doc
        .bone(id)
        .physics
        .as_ref()?
        .constraint
        .as_ref()?
        .kind
        .clone();
    let parent = constraint_parent(doc, id)?;
    let (i, p) = (id.index(), parent.index());
    let (rest_b, rest_p, cur_b, cur_p) = (rest.get(i)?, rest.get(p)?, pose.get(i)?, pose.get(p)?);
    let rest_rel = relative_rotation(rest_p, rest_b);
    let cur_rel = relative_rotation(cur_p, cur_b);
    let delta = (rest_rel.inverse() * cur_rel).normalize();
    let (_, parent_rot, _) = cur_p.to_scale_rotation_translation();
    let (_, current, origin) = cur_b.to_scale_rotation_translation();
    let primary = doc.primary_axis(id).normalize_or(DVec3::Y);
    let size = doc
        .bone_to_child(id)
        .map_or(0.1, |d| d.length())
        .clamp(0.06, 0.4);
    let (axis, zero, state) = match kind {
        ConstraintKind::BallSocket {
            swing_limit_deg,
            twist_limit_deg,
        } => {
            let zero = perpendicular(primary, DVec3::Z);
            let state = JointState::Ball {
                swing_deg: swing_angle(delta, primary).to_degrees(),
                twist_deg: twist_angle(delta, primary).to_degrees(),
                swing_limit_deg,
                twist_limit_deg,
            };
            (primary, zero, state)
        }
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => {
            let axis = DVec3::from_array(hinge_axis).normalize_or(DVec3::Z);
            let zero = perpendicular(axis, primary);
            let state = JointState::Hinge {
                angle_deg: twist_angle(delta, axis).to_degrees(),
                min_deg: limit_min_deg,
                max_deg: limit_max_deg,
            };
            (axis, zero, state)
        }
    };
    Some(JointFrame {
        bone: id,
        parent,
        origin,
        reference: (parent_rot * rest_rel).normalize(),
        current,
        axis,
        zero,
        kind,
        state,
        size,
    })
}
