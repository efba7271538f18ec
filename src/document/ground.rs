//! Where the ground lies: the plane the character's rest pose stands on.
//!
//! Most files stand their character on the plane y = 0 of the scene. Some do not: a rig
//! whose root sits at the hips puts the feet below it, and a character placed on a stage or
//! a shelf stands above it. Simulated on y = 0, such a character sank into the ground and
//! was thrown out of it, or dropped onto it from its height. The rest pose is the evidence
//! the file carries: the ground is the plane y = 0 when the rest pose's colliders reach it
//! within [`GROUND_TOLERANCE`] of their height (every file authored standing on it, which
//! therefore simulates exactly as before), else the plane through their lowest point.

use super::schema::ColliderShape;
use super::{BoneId, Document};
use glam::{DMat4, DQuat, DVec3};

/// How far (as a share of the colliders' vertical extent at rest) the rest pose's lowest
/// collider may lie above or below y = 0 and still stand on that plane. Generated colliders
/// fit a skin that stands on the plane only so closely: measured on 39 generated characters,
/// the zoo rat's body reaches 7.0% of its extent below it, a Mixamo lizard's lowest collider
/// 16.0% above it (its toes have none); a rig whose root is at the hips is off by half its
/// height.
pub const GROUND_TOLERANCE: f64 = 0.25;

/// The lowest and highest world heights a collider reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerticalReach {
    pub lowest: f64,
    pub highest: f64,
}

impl Document {
    /// Every bone's world matrix at rest (identity for a bone whose node is missing).
    pub fn rest_world_from_bone(&self) -> Vec<DMat4> {
        self.bones
            .iter()
            .map(|b| {
                self.skeleton
                    .nodes
                    .get(b.node)
                    .map_or(DMat4::IDENTITY, |n| n.world_from_node)
            })
            .collect()
    }

    /// How low and how high bone `id`'s collider reaches in `world_from_bone` (one world
    /// matrix per bone); None without a collider or a matrix.
    pub fn collider_reach_y(&self, id: BoneId, world_from_bone: &[DMat4]) -> Option<VerticalReach> {
        let c = self.bone(id).physics.as_ref()?.collider.as_ref()?;
        let m = world_from_bone.get(id.index())?;
        let place = self.collider_placement(id, c);
        let scale = m.x_axis.truncate().length();
        let center = m.transform_point3(place.translation);
        let (_, r, _) = m.to_scale_rotation_translation();
        let rot: DQuat = r * place.rotation;
        let along_y = |axis: DVec3| (rot * axis).y.abs();
        let reach = match c.shape {
            ColliderShape::Sphere { radius } => radius,
            ColliderShape::Capsule {
                radius,
                half_height,
            } => radius + half_height * along_y(DVec3::Y),
            ColliderShape::Box { half_extents: h } => {
                h[0] * along_y(DVec3::X) + h[1] * along_y(DVec3::Y) + h[2] * along_y(DVec3::Z)
            }
        } * scale;
        Some(VerticalReach {
            lowest: center.y - reach,
            highest: center.y + reach,
        })
    }

    /// Lowest world height any collider reaches in `world_from_bone`; None without colliders.
    pub fn lowest_collider_y(&self, world_from_bone: &[DMat4]) -> Option<f64> {
        self.bone_ids()
            .filter_map(|id| self.collider_reach_y(id, world_from_bone))
            .map(|r| r.lowest)
            .reduce(f64::min)
    }

    /// The height (world y) of the ground plane the rest pose stands on: 0 when its colliders
    /// reach y = 0 within [`GROUND_TOLERANCE`] of their vertical extent, or when it has no
    /// colliders; else their lowest point.
    pub fn ground_y(&self) -> f64 {
        let rest = self.rest_world_from_bone();
        let reach = self
            .bone_ids()
            .filter_map(|id| self.collider_reach_y(id, &rest))
            .reduce(|a, b| VerticalReach {
                lowest: a.lowest.min(b.lowest),
                highest: a.highest.max(b.highest),
            });
        match reach {
            Some(r) if r.lowest.is_finite() && r.highest.is_finite() => {
                let tolerance = GROUND_TOLERANCE * (r.highest - r.lowest);
                if r.lowest.abs() <= tolerance {
                    0.0
                } else {
                    r.lowest
                }
            }
            _ => 0.0,
        }
    }
}
