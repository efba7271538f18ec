//! Where a pose's colliders reach lowest: a clip played with a kinematic root is lifted so
//! its feet stay a small clearance above the floor (a clip authored a little lower
//! than its rest pose would otherwise drive the feet into the ground with an infinitely strong
//! root, and the legs would buckle against it).

use crate::document::{ColliderShape, Document};
use glam::{DMat4, DQuat, DVec3};

/// How far above the floor a kinematic root carries the feet, as a share of the character's
/// height: an in-place cycle would otherwise drag the stance foot along the floor against an
/// infinitely strong root. (Play a clip with a free root for feet that push on the floor.)
pub const CLEARANCE: f64 = 0.01;

/// The vertical extent of a pose's bone origins.
pub fn height(pose: &[DMat4]) -> f64 {
    let ys = pose.iter().map(|m| m.w_axis.y);
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    if hi > lo {
        hi - lo
    } else {
        0.0
    }
}

/// Lowest world height of any collider in `pose` (world_from_bone per bone), None without colliders.
pub fn lowest_point(doc: &Document, pose: &[DMat4]) -> Option<f64> {
    doc.bone_ids()
        .filter_map(|id| {
            let c = doc.bone(id).physics.as_ref()?.collider.as_ref()?;
            let m = pose.get(id.index())?;
            let place = doc.collider_placement(id, c);
            let scale = m.x_axis.truncate().length();
            let center = m.transform_point3(place.translation);
            let (_, r, _) = m.to_scale_rotation_translation();
            let rot: DQuat = r * place.rotation;
            let down = |axis: DVec3| (rot * axis).y.abs();
            let reach = match c.shape {
                ColliderShape::Sphere { radius } => radius,
                ColliderShape::Capsule {
                    radius,
                    half_height,
                } => radius + half_height * down(DVec3::Y),
                ColliderShape::Box { half_extents: h } => {
                    h[0] * down(DVec3::X) + h[1] * down(DVec3::Y) + h[2] * down(DVec3::Z)
                }
            };
            Some(center.y - reach * scale)
        })
        .reduce(f64::min)
}
