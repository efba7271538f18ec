//! Colliders placed in the world under a pose, and ray picking against them (pure glam).

use super::pose::Pose;
use crate::document::{BoneId, ColliderShape, Document};
use glam::{DMat4, Mat4, Vec3};

/// One collider in world space.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedCollider {
    pub bone: BoneId,
    pub shape: ColliderShape,
    pub world_from_collider: Mat4,
}

/// Every bone's collider under `pose`.
pub fn placed_colliders(doc: &Document, pose: &Pose) -> Vec<PlacedCollider> {
    doc.bone_ids()
        .filter_map(|id| {
            let c = doc.bone(id).physics.as_ref()?.collider.as_ref()?;
            let pl = doc.collider_placement(id, c);
            let bone_from_collider = DMat4::from_rotation_translation(pl.rotation, pl.translation);
            let world = *pose.get(id)? * bone_from_collider;
            Some(PlacedCollider {
                bone: id,
                shape: c.shape.clone(),
                world_from_collider: world.as_mat4(),
            })
        })
        .collect()
}

/// Distance along the ray (collider space) to a hit, if any.
fn hit_local(shape: &ColliderShape, o: Vec3, d: Vec3) -> Option<f32> {
    match *shape {
        ColliderShape::Sphere { radius } => ray_sphere(o, d, Vec3::ZERO, radius as f32),
        ColliderShape::Capsule {
            radius,
            half_height,
        } => {
            let (r, h) = (radius as f32, half_height as f32);
            // Closest approach of the ray to the segment (0,-h,0)..(0,h,0).
            let best = (0..=16)
                .filter_map(|i| {
                    ray_sphere(o, d, Vec3::new(0.0, -h + 2.0 * h * i as f32 / 16.0, 0.0), r)
                })
                .fold(f32::INFINITY, f32::min);
            best.is_finite().then_some(best)
        }
        ColliderShape::Box { half_extents } => {
            let e = Vec3::new(
                half_extents[0] as f32,
                half_extents[1] as f32,
                half_extents[2] as f32,
            );
            let inv = d.recip();
            let t1 = (-e - o) * inv;
            let t2 = (e - o) * inv;
            let tmin = t1.min(t2).max_element();
            let tmax = t1.max(t2).min_element();
            (tmax >= tmin.max(0.0)).then_some(tmin.max(0.0))
        }
    }
}

fn ray_sphere(o: Vec3, d: Vec3, c: Vec3, r: f32) -> Option<f32> {
    let oc = o - c;
    let b = oc.dot(d);
    let cc = oc.length_squared() - r * r;
    let disc = b * b - cc * d.length_squared();
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / d.length_squared();
    let t = if t < 0.0 {
        (-b + disc.sqrt()) / d.length_squared()
    } else {
        t
    };
    (t >= 0.0).then_some(t)
}

/// The bone whose collider the world ray (origin, direction) hits first.
pub fn pick(colliders: &[PlacedCollider], origin: Vec3, dir: Vec3) -> Option<BoneId> {
    let mut best: Option<(f32, BoneId)> = None;
    for c in colliders {
        let inv = c.world_from_collider.inverse();
        let (o, d) = (inv.transform_point3(origin), inv.transform_vector3(dir));
        if let Some(t) = hit_local(&c.shape, o, d) {
            let world_t = (c.world_from_collider.transform_point3(o + d * t) - origin).length();
            if best.is_none_or(|(bt, _)| world_t < bt) {
                best = Some((world_t, c.bone));
            }
        }
    }
    best.map(|(_, b)| b)
}

/// Centre and radius of a bounding sphere of a bone's collider (or its origin).
pub fn bone_bounds(colliders: &[PlacedCollider], pose: &Pose, id: BoneId) -> Option<(Vec3, f32)> {
    if let Some(c) = colliders.iter().find(|c| c.bone == id) {
        let r = match c.shape {
            ColliderShape::Sphere { radius } => radius,
            ColliderShape::Capsule {
                radius,
                half_height,
            } => radius + half_height,
            ColliderShape::Box { half_extents } => glam::DVec3::from_array(half_extents).length(),
        } as f32;
        return Some((c.world_from_collider.transform_point3(Vec3::ZERO), r * 1.6));
    }
    pose.get(id).map(|m| (m.w_axis.truncate().as_vec3(), 0.3))
}
