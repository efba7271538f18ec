//! The stability guard: a body with a non-finite pose or velocity, or a runaway velocity,
//! pauses the simulation with a message naming its bone. Nothing panics. The speed limits
//! scale with the character's size ([`SimSettings::max_linear_speed`]).

use super::settings::SimSettings;
use super::world::BodyRec;
use rapier3d::prelude::*;

/// The first bad body, as (bone name, reason).
/// `floor` raises the speed limits (linear, angular) to what a followed clip itself asks for.
pub(crate) fn check(
    world: &PhysicsWorld,
    bodies: &[BodyRec],
    s: &SimSettings,
    floor: (f32, f32),
) -> Option<(String, String)> {
    let max_lin = s.max_linear_speed().max(floor.0);
    let max_ang = s.max_angular_speed().max(floor.1);
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
        } else if v.length() > max_lin {
            format!(
                "runaway linear velocity {:.1} m/s (limit {max_lin:.1} m/s at this size)",
                v.length()
            )
        } else if w.length() > max_ang {
            format!(
                "runaway angular velocity {:.1} rad/s (limit {max_ang:.1} rad/s at this size)",
                w.length()
            )
        } else {
            continue;
        };
        return Some((b.name.clone(), reason));
    }
    None
}
