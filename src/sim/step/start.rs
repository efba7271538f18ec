//! A rest pose that cannot stand: its centre of mass outside its feet. A character modelled
//! standing on its toes (a digitigrade werewolf from Mixamo's auto-rigger: its centre of mass
//! 5 cm behind the heel edge of its toe-pad feet) falls from its first step at assist 0,
//! with stepping or without: the ankles cannot push a body whose weight is off the feet, and a
//! step backward lands it no better. Before anything else, the ankles lean the body over
//! the feet (the stance's lean, `stance.rs`, set at once), until the centre of mass lies the
//! stance's margin inside the nearer edge; no step starts while it settles. A rest pose whose
//! centre of mass is over its feet, as every character's of the corpus, is untouched.

use super::super::balance::BalanceRig;
use super::super::joints::JointRec;
use super::super::world::BodyRec;
use super::leg::{sole_height, StepLeg};
use super::support::SupportHull;
use glam::{Quat, Vec3};
use rapier3d::prelude::*;

/// The largest lean the start sets (degrees).
pub(super) const MAX_START_LEAN_DEG: f32 = 15.0;
/// No step starts for this many swing times after a start lean.
pub(super) const START_SWINGS: f32 = 2.0;

/// The whole body's centre of mass in the rest pose (world).
pub(super) fn rest_com(world: &PhysicsWorld, bodies: &[BodyRec]) -> Option<Vec3> {
    let (mut m, mut c) = (0.0f32, Vec3::ZERO);
    for b in bodies {
        let rb = world.bodies.get(b.body)?;
        let local = rb.mass_properties().local_mprops.local_com;
        c += (b.world_from_body_rest * local) * b.mass_kg;
        m += b.mass_kg;
    }
    (m > 0.0).then(|| c / m).filter(|c| c.is_finite())
}

/// Whether the rest pose's centre of mass lies outside the box (world axes) of every foot's
/// collider at rest: a test that needs no heading, passed by every standing rest pose.
pub(super) fn outside_feet_box(
    world: &PhysicsWorld,
    bodies: &[BodyRec],
    balance: &BalanceRig,
    com: Vec3,
) -> bool {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for (c, at) in balance
        .feet
        .iter()
        .filter_map(|&f| bodies[f].rest_collider(world))
    {
        let b = c.shape().compute_aabb(&at);
        (lo, hi) = (lo.min(b.mins), hi.max(b.maxs));
    }
    lo.x <= hi.x && (com.x < lo.x || com.x > hi.x || com.z < lo.z || com.z > hi.z)
}

/// The lean (radians, positive toward `forward`) that brings the rest pose's centre of mass
/// `margin` of the feet's depth inside their nearer edge, pivoting at the feet's height; None
/// when it already lies over the feet along `forward`.
pub(super) fn lean_rad(
    world: &PhysicsWorld,
    bodies: &[BodyRec],
    feet: &[usize],
    (com, forward, margin): (Vec3, Vec3, f32),
) -> Option<f32> {
    let hull = SupportHull::at_rest(world, bodies, feet, forward)?;
    let (heel, toe) = hull.extent_along(forward);
    let at = forward.dot(Vec3::new(com.x, 0.0, com.z));
    let depth = toe - heel;
    let want = match at {
        a if a < heel => heel + margin * depth,
        a if a > toe => toe - margin * depth,
        _ => return None,
    };
    let sole = feet
        .iter()
        .filter_map(|&f| sole_height(world, bodies, f))
        .fold(f32::INFINITY, f32::min);
    let h = com.y - sole;
    let max = MAX_START_LEAN_DEG.to_radians();
    (h > 0.0 && depth > 0.0).then(|| (want - at).atan2(h).clamp(-max, max))
}

/// Turns every body but the feet and what hangs below them by `lean_rad` about the lateral
/// axis (`Y x forward`) through the ankles' midpoint at rest: the rest pose leaned over the
/// feet, from which the simulation starts.
pub(super) fn lean_pose(
    world: &mut PhysicsWorld,
    (bodies, joints): (&[BodyRec], &[JointRec]),
    legs: &[StepLeg],
    (lean_rad, forward): (f32, Vec3),
) {
    let mut below: Vec<usize> = legs.iter().map(|l| l.foot).collect();
    while let Some(j) = joints
        .iter()
        .find(|j| below.contains(&j.spec.parent) && !below.contains(&j.spec.child))
    {
        below.push(j.spec.child);
    }
    let pivot = legs.iter().map(|l| l.end_rest).sum::<Vec3>() / legs.len() as f32;
    let lateral = Vec3::Y.cross(forward).normalize_or(Vec3::X);
    let turn = Quat::from_axis_angle(lateral, lean_rad);
    for (k, b) in bodies.iter().enumerate() {
        if below.contains(&k) {
            continue;
        }
        let Some(rb) = world.bodies.get_mut(b.body) else {
            continue;
        };
        let rest = b.world_from_body_rest;
        let at = Pose::from_parts(
            pivot + turn * (rest.translation - pivot),
            (turn * rest.rotation).normalize(),
        );
        rb.set_position(at, true);
    }
}
