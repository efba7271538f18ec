//! Where a collider sits in bone space: the file's `offset`, or the documented default:
//! centred halfway from the bone's origin to its first child, local +Y along the bone.
//! A capsule on a bone with no child starts at the origin and runs along +Y.

use super::schema::{Collider, ColliderShape};
use super::{BoneId, Document};
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

impl Document {
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
        if let Some(c) = bone.physics.as_ref().and_then(|p| p.collider.as_ref()) {
            return self.collider_placement(id, c).axis();
        }
        self.bone_to_child(id).map_or(DVec3::Y, DVec3::normalize)
    }
}
