//! Settling: a rag doll that has come down drains the last of its motion, so that it comes
//! to rest instead of creeping (PhysX's scene stabilization, which damps bodies near
//! sleep; Rapier has none).
//!
//! A passive rag doll that has fallen often ends on poses that hold almost still: a leg
//! leaning on its knee sinking slowly against the bodies' own damping, a round head
//! turning about its one contact point, where Rapier's friction does not resist spin. They
//! move at 1-5% of the height per second for seconds, above the sleep bar (1%), so the rag
//! doll never sleeps. Once a rag doll has moved (some body faster than [`MOVED_SHARE`] of
//! the sleep bar) and then every body of it is slower than [`SLOW_SHARE`] times the sleep
//! bar, each body's velocity is damped at [`SETTLE_RATE`] natural frequencies below
//! [`FULL_SHARE`] bars, fading to none at [`SLOW_SHARE`]: a creep under twice the bar
//! loses a third of its speed a step, and the rag doll sleeps. A body faster than three
//! bars (a limb still falling) ends the damping for all until everything is slow again, so
//! a motion the bar would count runs as before. A standing rag doll that has not moved yet
//! is never damped: its tip-over starts from rest.
//!
//! Measured (release builds; each zoo file and 17 Mixamo-rigged characters from outside
//! turned about the vertical by k x 0.7 deg, generated, passive 10 s; runs with a body
//! faster than 1% of the height per second after 5 s): the zoo 12 of 208 without, 6 with
//! (in the last second 2 and 0); the outside characters 12 of 68 and 4 (the Blood Hound's
//! leg, whose creep no damping slows: the solver drives it each step).
//!
//! Only rag dolls that may sleep (drives and balance off, no clip) settle; a balanced or
//! driven character is left to its controllers. Settling also gives a ball's one ground
//! contact the torsional friction of a contact patch ([`super::spin`]).

use super::settings::REFERENCE_HEIGHT_M;
use super::world::BodyRec;
use super::SimSettings;
use rapier3d::prelude::*;

/// A rag doll has moved once a body's farthest point went this many times the sleep bar.
pub const MOVED_SHARE: f32 = 10.0;
/// Every body slower than this many times the sleep bar: the rag doll is settling.
pub const SLOW_SHARE: f32 = 3.0;
/// Bodies slower than this many times the sleep bar are damped at the full rate.
pub const FULL_SHARE: f32 = 2.0;
/// The full damping rate, in the character's natural frequencies (sqrt(g / L), L its
/// height): 47/s at 1.75 m, a third of a body's speed per 1/120 s step.
pub const SETTLE_RATE: f32 = 20.0;

/// Per rag doll: whether it has moved since it became a rag doll.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settling {
    moved: bool,
}

impl Settling {
    /// Forget the motion seen: it has just become a rag doll, and must be free to fall.
    pub fn reset(&mut self) {
        self.moved = false;
    }

    /// After a step: damps every awake body of a slow rag doll that has moved. The speeds
    /// are read twice rather than kept: nothing is allocated per step, and the second read
    /// happens only while settling.
    pub fn damp(&mut self, world: &mut PhysicsWorld, bodies: &[BodyRec], s: &SimSettings) {
        let height = s.unit() * REFERENCE_HEIGHT_M;
        let bar = s.sleep_speed_share() * height;
        let fastest = bodies
            .iter()
            .filter_map(|b| farthest_speed(world, b))
            .fold(0.0f32, f32::max);
        if fastest > MOVED_SHARE * bar {
            self.moved = true;
        }
        if !self.moved || fastest >= SLOW_SHARE * bar {
            return;
        }
        let rate = SETTLE_RATE * (s.gravity_m_s2.length() / height).sqrt();
        for b in bodies {
            let Some(v) = farthest_speed(world, b) else {
                continue;
            };
            // The full rate up to FULL_SHARE bars, none at SLOW_SHARE: no jump at the edge.
            let weight = (SLOW_SHARE - v / bar) / (SLOW_SHARE - FULL_SHARE);
            if weight <= 0.0 {
                // Left alone: a body written is a body modified (Rapier then rebuilds the
                // joint assembly).
                continue;
            }
            let keep = (-rate * weight.min(1.0) * s.dt_s).exp();
            if let Some(rb) = world.bodies.get_mut(b.body) {
                rb.set_linvel(rb.linvel() * keep, false);
                rb.set_angvel(rb.angvel() * keep, false);
            }
        }
    }
}

/// An awake body's fastest point speed, at most: the speed of its collider's bounding
/// sphere's centre plus its spin times that sphere's radius (None: asleep or gone).
fn farthest_speed(world: &PhysicsWorld, b: &BodyRec) -> Option<f32> {
    let rb = world.bodies.get(b.body)?;
    if rb.is_sleeping() {
        return None;
    }
    let (w, com) = (rb.angvel(), rb.center_of_mass());
    let v = world
        .colliders
        .get(b.collider)
        .map_or(rb.linvel().length(), |c| {
            let sphere = c.shape().compute_bounding_sphere(c.position());
            (rb.linvel() + w.cross(sphere.center - com)).length() + w.length() * sphere.radius
        });
    v.is_finite().then_some(v)
}
