//! The stability guard: a body with a non-finite pose or velocity, or a runaway velocity,
//! pauses the simulation with a message naming its bone. Nothing panics. The speed limits
//! scale with the character's size ([`SimSettings::max_linear_speed`]).
//!
//! After each step the guard reads every body in the same pass that measures the whole
//! body's centre of mass ([`super::ragdoll::Ragdoll::read_bodies`]): a pass of its own over
//! every body after Rapier's step cost 3% of the step at 100 mannequins (crowd settings,
//! measured in CPU time; 0.2% of the instructions: the bodies' state is out of the cache by
//! then, and a second pass reads it in again).

use super::settings::SimSettings;
use super::world::BodyRec;
use rapier3d::prelude::*;

/// The speeds a body may reach before the guard pauses the run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    linear: f32,
    angular: f32,
}

impl Limits {
    /// The limits at `s`'s size, raised to `floor` (linear, angular): what a followed clip
    /// itself asks for.
    pub fn new(s: &SimSettings, floor: (f32, f32)) -> Self {
        Limits {
            linear: s.max_linear_speed().max(floor.0),
            angular: s.max_angular_speed().max(floor.1),
        }
    }
}

/// What is wrong with a body's state, or None.
pub(crate) fn fault(rb: &RigidBody, lim: Limits) -> Option<String> {
    let p = rb.position();
    let (v, w) = (rb.linvel(), rb.angvel());
    let (max_lin, max_ang) = (lim.linear, lim.angular);
    if !(p.translation.is_finite() && p.rotation.is_finite()) {
        Some(format!("non-finite pose (position {:?})", p.translation))
    } else if !(v.is_finite() && w.is_finite()) {
        Some(format!("non-finite velocity (linear {v:?}, angular {w:?})"))
    } else if v.length() > max_lin {
        Some(format!(
            "runaway linear velocity {:.1} m/s (limit {max_lin:.1} m/s at this size)",
            v.length()
        ))
    } else if w.length() > max_ang {
        Some(format!(
            "runaway angular velocity {:.1} rad/s (limit {max_ang:.1} rad/s at this size)",
            w.length()
        ))
    } else {
        None
    }
}

/// The first bad body, as (bone name, reason).
pub(crate) fn check(
    world: &PhysicsWorld,
    bodies: &[BodyRec],
    lim: Limits,
) -> Option<(String, String)> {
    bodies.iter().find_map(|b| {
        let rb = world.bodies.get(b.body)?;
        fault(rb, lim).map(|reason| (b.name.clone(), reason))
    })
}
