//! How a clip is grounded (where a pose's colliders reach lowest is
//! [`crate::document::Document::lowest_collider_y`]): a clip played with a kinematic root is lifted so
//! its feet stay a small clearance above the floor (a clip authored a little lower
//! than its rest pose would otherwise drive the feet into the ground with an infinitely strong
//! root, and the legs would buckle against it).

use glam::DMat4;

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
