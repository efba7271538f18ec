//! Where a collider sits in bone space: the file's `offset`, or the documented default:
//! centred halfway from the bone's origin to its first child, local +Y along the bone.
//! A capsule on a bone with no child starts at the origin and runs along +Y.
//!
//! Units: sizes and offsets are in the bone's own coordinates, scaled by the bone's world
//! scale as a mesh on that node would be (the convention of KHR_implicit_shapes). A skeleton
//! under a node scaled by 0.01 with centimetre translations therefore stores centimetres.
//! Uniform scale is exact; a non-uniform one uses the mean of the three axes (warning).

use super::schema::{Collider, ColliderShape};
use super::{BoneId, Diagnostic, Document};
use glam::{DQuat, DVec3};

/// A rigid placement in bone space (metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneFromCollider {
    pub translation: DVec3,
    pub rotation: DQuat,
}

impl BoneFromCollider {
    /// The collider's long (local +Y) axis in bone space: the bone's primary axis.
    pub fn axis(&self) -> DVec3 {
        self.rotation * DVec3::Y
    }
}

/// A bone's world scale: the factor its sizes are multiplied by in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldScale {
    /// The mean of the three axes' scales (1 when degenerate).
    pub factor: f64,
    /// False when the axes differ by more than 1%.
    pub uniform: bool,
}

/// Non-uniform world scale beyond this relative spread gets a warning.
pub const NON_UNIFORM_TOLERANCE: f64 = 0.01;

impl Document {
    /// The world scale of a bone's node at rest.
    pub fn bone_world_scale(&self, id: BoneId) -> WorldScale {
        let m = self.skeleton.nodes[self.bone(id).node].world_from_node;
        let s = DVec3::new(
            m.x_axis.truncate().length(),
            m.y_axis.truncate().length(),
            m.z_axis.truncate().length(),
        );
        let mean = (s.x + s.y + s.z) / 3.0;
        if !(mean.is_finite() && mean > 1e-12) {
            return WorldScale {
                factor: 1.0,
                uniform: false,
            };
        }
        WorldScale {
            factor: mean,
            uniform: s.max_element() - s.min_element() <= NON_UNIFORM_TOLERANCE * mean,
        }
    }

    /// A collider's shape in world units: its sizes times the bone's world scale.
    pub fn world_shape(&self, id: BoneId, shape: &ColliderShape) -> ColliderShape {
        let k = self.bone_world_scale(id).factor;
        match *shape {
            ColliderShape::Capsule {
                radius,
                half_height,
            } => ColliderShape::Capsule {
                radius: radius * k,
                half_height: half_height * k,
            },
            ColliderShape::Sphere { radius } => ColliderShape::Sphere { radius: radius * k },
            ColliderShape::Box { half_extents } => ColliderShape::Box {
                half_extents: half_extents.map(|e| e * k),
            },
        }
    }

    /// The collider's placement in its body's frame (the bone's rest pose without scale):
    /// the bone-space offset times the world scale.
    pub fn body_from_collider(&self, id: BoneId, collider: &Collider) -> BoneFromCollider {
        let p = self.collider_placement(id, collider);
        BoneFromCollider {
            translation: p.translation * self.bone_world_scale(id).factor,
            rotation: p.rotation,
        }
    }

    /// Warnings for bones with physics whose world scale is not uniform.
    pub(crate) fn scale_diagnostics(&self) -> Vec<Diagnostic> {
        self.bone_ids()
            .filter(|&id| self.bone(id).physics.is_some() && !self.bone_world_scale(id).uniform)
            .map(|id| {
                let b = self.bone(id);
                Diagnostic::warning(
                    Some(b.node),
                    &b.name,
                    super::fields::Key::Collider.path(),
                    "the bone's world scale is not uniform: collider sizes use the mean of its three axes",
                )
            })
            .collect()
    }

    /// The first child node of a bone's node, as a bone-space offset, if it has one.
    pub fn bone_to_child(&self, id: BoneId) -> Option<DVec3> {
        let node = &self.skeleton.nodes[self.bone(id).node];
        let child = *node.children.first()?;
        let t = self.skeleton.nodes[child]
            .parent_from_node
            .w_axis
            .truncate();
        (t.length() > 1e-6).then_some(t)
    }

    /// The collider's placement in bone space, defaults applied.
    pub fn collider_placement(&self, id: BoneId, collider: &Collider) -> BoneFromCollider {
        let to_child = self.bone_to_child(id);
        let along = to_child.map_or(DQuat::IDENTITY, |d| {
            DQuat::from_rotation_arc(DVec3::Y, d.normalize())
        });
        let rotation = collider
            .offset
            .rotation
            .map_or(along, |q| DQuat::from_array(q).normalize());
        let translation = collider
            .offset
            .translation
            .map(DVec3::from_array)
            .unwrap_or_else(|| match (to_child, &collider.shape) {
                (Some(d), _) => d * 0.5,
                (
                    None,
                    ColliderShape::Capsule {
                        radius,
                        half_height,
                    },
                ) => rotation * DVec3::Y * (radius + half_height),
                (None, _) => DVec3::ZERO,
            });
        BoneFromCollider {
            translation,
            rotation,
        }
    }

    /// The bone's primary axis in bone space (twist axis of a ball socket): its collider's
    /// long axis, or the direction to its child, or +Y.
    pub fn primary_axis(&self, id: BoneId) -> DVec3 {
        let bone = self.bone(id);
        if let Some(c) = bone.collider() {
            return self.collider_placement(id, c).axis();
        }
        self.bone_to_child(id).map_or(DVec3::Y, DVec3::normalize)
    }
}
