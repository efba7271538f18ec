//! Spin friction at a round body's one ground contact, part of settling.
//!
//! A ball resting on the ground touches it at one point, and Rapier resists spin about the
//! contact normal only for manifolds of two points or more (its twist friction), so a round
//! head or neck lying on the ground turns as on ice: the zoo rat's neck sphere turned 40 deg
//! about the vertical from 3 s to 6.5 s of a passive run and swung its head round on the
//! ground, the last motion of its collapse. A real contact is a patch: MuJoCo gives every
//! contact a torsional friction of 0.005 m by default. Here, after each step of a rag doll that
//! settles, a ball touching the ground loses spin about the contact normal, at most its
//! friction x ([`PATCH_SHARE`] x its radius) x the step's normal impulse, never past zero.
//!
//! Balls only: with capsules too (session 36's probe) the zoo settled better but outside
//! characters' collapses ending near 5 s were held up by feet and hands that no longer pivot
//! on their contact (3 of 92 runs over the bar after 5 s became 10). Balls alone, measured with
//! `tools/settle_ensemble.py` (passive 10 s runs over 1% of the height per second after 5 s):
//! the zoo 6 of 208 -> 3 (the same three at a patch share of 0.03, 0.05 and 0.1), the rat 2 of
//! 16 -> 0; 17 Mixamo characters and 6 Quaternius animals 3 of 92 -> 3 (the same three).

use super::world::BodyRec;
use rapier3d::prelude::*;

/// The contact patch's radius as a share of the ball's (MuJoCo's 0.005 m on a 0.1 m head).
pub const PATCH_SHARE: f32 = 0.05;

/// After a step: each ball of `bodies` touching `ground` loses spin about the contact normal
/// (see the module).
pub(crate) fn resist_spin(world: &mut PhysicsWorld, bodies: &[BodyRec], ground: ColliderHandle) {
    let substeps = world.integration_parameters.num_solver_iterations.max(1) as f32;
    for b in bodies {
        let Some((normal, impulse, friction, radius)) = ball_contact(world, b, ground) else {
            continue;
        };
        let Some(rb) = world.bodies.get_mut(b.body) else {
            continue;
        };
        let w = rb.angvel();
        let spin = w.dot(normal);
        let inv_inertia = rb.mass_properties().effective_world_inv_inertia;
        let per_impulse = normal.dot(inv_inertia * normal);
        // The impulses read are the last substep's: the step's is about `substeps` times that.
        let cut = friction * PATCH_SHARE * radius * impulse * substeps * per_impulse;
        let kept = spin.signum() * (spin.abs() - cut).max(0.0);
        if kept != spin {
            rb.set_angvel(w + normal * (kept - spin), false);
        }
    }
}

/// A ball collider's contact with the ground: (normal, normal impulse, friction, radius), or
/// None when the body is not a ball or does not press on the ground.
fn ball_contact(
    world: &PhysicsWorld,
    b: &BodyRec,
    ground: ColliderHandle,
) -> Option<(Vec3, f32, f32, f32)> {
    let col = world.colliders.get(b.collider)?;
    let radius = col.shape().as_ball()?.radius;
    let pair = world.narrow_phase.contact_pair(b.collider, ground)?;
    let (mut impulse, mut normal) = (0.0f32, None);
    for m in pair.manifolds() {
        for p in m.points.iter().filter(|p| p.data.impulse > 0.0) {
            impulse += p.data.impulse;
            normal = Some(m.data.normal);
        }
    }
    Some((normal?, impulse, col.friction(), radius))
}
