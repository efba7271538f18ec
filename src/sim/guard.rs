//! The stability guard: a body with a non-finite pose or velocity, or a runaway velocity,
//! pauses the simulation with a message naming its bone. Nothing panics. The speed limits
//! scale with the character's size ([`SimSettings::max_linear_speed`]).

use super::settings::SimSettings;
use super::world::BodyRec;
use rapier3d::prelude::*;

/// The first bad body, as (bone name, reason).
pub(crate) fn check(
    world: &PhysicsWorld,
    bodies: &[BodyRec],
    s: &SimSettings,
) -> Option<(String, String)> {
    for b in bodies {
        let Some(rb) = world.bodies.get(b.body) else {
            continue;
        };
        let p = rb.position();
        let (v, w) = (rb.linvel(), rb.angvel());
        let reason = if !(p.translation.is_finite() && p.rotation.is_finite()) {
            format!("non-finite pose (position {:?})", p.translation)
        } else if !(v.is_finite() && w.is_finite()) {
            format!("non-finite velocity (linear {v:?}, angular {w:?})")
        } else if v.length() > s.max_linear_speed() {
            format!(
                "runaway linear velocity {:.1} m/s (limit {:.1} m/s at this size)",
                v.length(),
                s.max_linear_speed()
            )
        } else if w.length() > s.max_angular_speed() {
            format!(
                "runaway angular velocity {:.1} rad/s (limit {:.1} rad/s at this size)",
                w.length(),
                s.max_angular_speed()
            )
        } else {
            continue;
        };
        return Some((b.name.clone(), reason));
    }
    None
}
