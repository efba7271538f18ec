//! A joint's frame and its resolved parent, from the document: the one place that decides
//! which bodies a constraint joins and which axes its angles are measured about.
//!
//! The joint frame lives in the child bone's space at rest, at the bone's origin:
//! - ball socket: X = the bone's primary axis ([`Document::primary_axis`]); Y = `swing_y_axis`
//!   made perpendicular to X; by default (or when it is within a degree of X) bone-space +Z
//!   made perpendicular to X, or bone-space +X when +Z is within a degree of X; Z = X x Y.
//! - hinge: X = `hinge_axis`; Y = the primary axis made perpendicular to X (the zero-angle
//!   direction); Z = X x Y.
//!
//! At rest the parent-side frame coincides with it, so every angle is zero.

use super::limits::JointLimits;
use super::SwingBoundary;
use crate::document::{BoneId, ConstraintKind, Document};
use glam::{DMat3, DMat4, DQuat, DVec3};

/// A constraint the solver builds: both sides have a body, the frame and limits resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct JointDef {
    pub bone: BoneId,
    /// The parent body's bone (named by `parent_bone`, or defaulted when the file reads).
    pub parent: BoneId,
    pub limits: JointLimits,
    /// Rotation taking joint-frame vectors into the child bone's space.
    pub bone_from_joint: DQuat,
}

fn has_collider(doc: &Document, id: BoneId) -> bool {
    doc.bone(id).collider().is_some()
}

/// The body a bone's constraint joins it to: its `parent_bone` (the document fills in the
/// default when the file omits it), when that bone exists, is not the bone itself and has a
/// collider, and the bone has one too. None: the solver has no joint here.
pub fn constraint_parent(doc: &Document, id: BoneId) -> Option<BoneId> {
    let c = doc.bone(id).physics.as_ref()?.constraint.as_ref()?;
    let parent = doc.bone_by_name(c.parent_bone.as_deref()?)?;
    (parent != id && has_collider(doc, id) && has_collider(doc, parent)).then_some(parent)
}

/// A unit vector perpendicular to unit `x`: the first of `hints` not (within a degree)
/// parallel to it, made perpendicular; any perpendicular when all are.
pub fn perpendicular(x: DVec3, hints: &[DVec3]) -> DVec3 {
    for h in hints {
        let h = h.normalize_or_zero();
        let p = h - x * h.dot(x);
        if p.length() > 0.017 {
            return p.normalize();
        }
    }
    x.any_orthonormal_vector()
}

/// The rotation whose columns are X, Y (the first usable hint made perpendicular) and X x Y.
pub fn frame_rotation(x: DVec3, y_hints: &[DVec3]) -> DQuat {
    let x = x.normalize_or(DVec3::X);
    let y = perpendicular(x, y_hints);
    DQuat::from_mat3(&DMat3::from_cols(x, y, x.cross(y))).normalize()
}

fn deg(a: f64) -> f64 {
    a.to_radians()
}

/// The limits of a constraint kind in radians (ranges ordered, extents clamped to 0..175).
pub fn limits_of(kind: &ConstraintKind) -> JointLimits {
    match kind {
        ConstraintKind::BallSocket {
            swing_limit_deg,
            twist_limit_deg,
            ..
        } => {
            let (lo, hi) = (twist_limit_deg.min_deg, twist_limit_deg.max_deg);
            JointLimits::Ball {
                swing: SwingBoundary::new(swing_limit_deg.to_array().map(deg)),
                twist_min_rad: deg(lo.min(hi).clamp(-180.0, 180.0)),
                twist_max_rad: deg(hi.max(lo).clamp(-180.0, 180.0)),
            }
        }
        ConstraintKind::Hinge {
            limit_min_deg,
            limit_max_deg,
            ..
        } => {
            let (lo, hi) = (*limit_min_deg, *limit_max_deg);
            JointLimits::Hinge {
                min_rad: deg(lo.min(hi).clamp(-180.0, 180.0)),
                max_rad: deg(hi.max(lo).clamp(-180.0, 180.0)),
            }
        }
    }
}

/// The joint frame of a constraint kind on bone `id`, as bone_from_joint.
pub fn bone_from_joint(doc: &Document, id: BoneId, kind: &ConstraintKind) -> DQuat {
    let primary = doc.primary_axis(id).normalize_or(DVec3::Y);
    match kind {
        ConstraintKind::BallSocket { swing_y_axis, .. } => {
            let given = swing_y_axis.map_or(DVec3::ZERO, DVec3::from_array);
            frame_rotation(primary, &[given, DVec3::Z, DVec3::X])
        }
        ConstraintKind::Hinge { hinge_axis, .. } => {
            let axis = DVec3::from_array(*hinge_axis).normalize_or(DVec3::Z);
            frame_rotation(axis, &[primary, DVec3::Y, DVec3::Z])
        }
    }
}

/// The joint of bone `id`, if the solver has one.
pub fn resolve(doc: &Document, id: BoneId) -> Option<JointDef> {
    let parent = constraint_parent(doc, id)?;
    let c = doc.bone(id).physics.as_ref()?.constraint.as_ref()?;
    Some(JointDef {
        bone: id,
        parent,
        limits: limits_of(&c.kind),
        bone_from_joint: bone_from_joint(doc, id, &c.kind),
    })
}

/// The rotation of a world matrix (scale dropped; identity when it has none to give).
pub fn rotation_of(m: &DMat4) -> DQuat {
    let (_, r, _) = m.to_scale_rotation_translation();
    if r.is_finite() && r.length_squared() > 0.0 {
        r.normalize()
    } else {
        DQuat::IDENTITY
    }
}

impl JointDef {
    /// The joint frame in the parent bone's space, from both bones' rest rotations.
    pub fn parent_from_joint(&self, world_from_parent: DQuat, world_from_bone: DQuat) -> DQuat {
        (world_from_parent.inverse() * world_from_bone * self.bone_from_joint).normalize()
    }

    /// The relative rotation (parent joint frame to child joint frame) of a pose, given the
    /// rest rotations: what the limits are measured on.
    pub fn relative(
        &self,
        parent_from_joint: DQuat,
        world_from_parent: DQuat,
        world_from_bone: DQuat,
    ) -> DQuat {
        let parent_joint = world_from_parent * parent_from_joint;
        let child_joint = world_from_bone * self.bone_from_joint;
        (parent_joint.inverse() * child_joint).normalize()
    }

    /// [`Self::relative`] from world matrices (scale dropped): rest pose, then current pose.
    pub fn relative_from_matrices(
        &self,
        rest_parent: &DMat4,
        rest_bone: &DMat4,
        parent: &DMat4,
        bone: &DMat4,
    ) -> DQuat {
        let pfj = self.parent_from_joint(rotation_of(rest_parent), rotation_of(rest_bone));
        self.relative(pfj, rotation_of(parent), rotation_of(bone))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_columns_are_orthonormal_and_x_first() {
        let q = frame_rotation(DVec3::new(0.0, -1.0, 0.2), &[DVec3::Z, DVec3::X]);
        let x = q * DVec3::X;
        assert!((x - DVec3::new(0.0, -1.0, 0.2).normalize()).length() < 1e-12);
        let y = q * DVec3::Y;
        assert!(x.dot(y).abs() < 1e-12 && y.z > 0.9);
    }

    #[test]
    fn rest_pose_is_identity_relative() {
        let doc_free = JointDef {
            bone: BoneId(1),
            parent: BoneId(0),
            limits: JointLimits::Hinge {
                min_rad: 0.0,
                max_rad: 1.0,
            },
            bone_from_joint: DQuat::from_rotation_y(0.4),
        };
        let (wp, wb) = (DQuat::from_rotation_z(0.3), DQuat::from_rotation_x(1.1));
        let pfj = doc_free.parent_from_joint(wp, wb);
        let q = doc_free.relative(pfj, wp, wb);
        assert!(q.angle_between(DQuat::IDENTITY) < 1e-9);
    }
}
