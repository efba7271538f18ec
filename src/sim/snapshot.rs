//! Snapshots of the whole simulation state, for branching a run at any moment: the Rapier
//! world's sets (bodies, colliders, joints, islands, broad and narrow phase with their contact
//! caches) and everything the simulation layer keeps beside them (drives, balance, clip,
//! telemetry, guard, clock). The pipelines are workspaces rebuilt each step, so a restored
//! snapshot steps exactly as the original would (tested bit for bit).

use super::Simulation;
use rapier3d::prelude::*;

/// A copy of a world: its state, with fresh workspaces.
fn clone_world(w: &PhysicsWorld) -> PhysicsWorld {
    PhysicsWorld {
        gravity: w.gravity,
        integration_parameters: w.integration_parameters,
        physics_pipeline: PhysicsPipeline::new(),
        collision_pipeline: CollisionPipeline::new(),
        islands: w.islands.clone(),
        broad_phase: w.broad_phase.clone(),
        narrow_phase: w.narrow_phase.clone(),
        bodies: w.bodies.clone(),
        colliders: w.colliders.clone(),
        impulse_joints: w.impulse_joints.clone(),
        multibody_joints: w.multibody_joints.clone(),
        soft_bodies: w.soft_bodies.clone(),
        ccd_solver: w.ccd_solver.clone(),
    }
}

impl Clone for Simulation {
    /// A snapshot: stepping the copy gives exactly what stepping the original would.
    fn clone(&self) -> Self {
        Simulation {
            world: clone_world(&self.world),
            ground: self.ground,
            hooks: self.hooks.clone(),
            groups: self.groups.clone(),
            dolls: self.dolls.clone(),
            settings: self.settings.clone(),
            applied: self.applied.clone(),
            time_s: self.time_s,
            steps: self.steps,
            paused: self.paused.clone(),
            check_before_step: self.check_before_step,
            accumulator_s: self.accumulator_s,
            clip: self.clip.clone(),
        }
    }
}
