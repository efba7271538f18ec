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
            may_sleep: self.may_sleep,
        }
    }
}

/// Telemetry with its statistics but rings of `capacity` frames (empty).
fn resized(t: &super::Telemetry, capacity: usize) -> super::Telemetry {
    super::Telemetry {
        joints: super::FrameRing::new(t.joint_names.len(), capacity),
        body: super::FrameRing::new(1, capacity),
        joint_names: t.joint_names.clone(),
        foot_names: t.foot_names.clone(),
        joint_stats: t.joint_stats.clone(),
        max_torso_tilt_deg: t.max_torso_tilt_deg,
        min_pelvis_height_ratio: t.min_pelvis_height_ratio,
        effort: t.effort,
    }
}

impl Simulation {
    /// A snapshot without the telemetry history (rings of one frame): what a timeline keeps
    /// many of. Telemetry is only written by stepping, never read, so the copy steps exactly
    /// as the original; give it full rings again with [`Self::regrow_telemetry`] before use.
    pub fn snapshot_light(&mut self) -> Simulation {
        // The rings are set aside while copying (not copied and dropped), then put back.
        let kept: Vec<_> = self
            .dolls
            .iter_mut()
            .map(|d| {
                let light = resized(&d.telemetry, 1);
                std::mem::replace(&mut d.telemetry, light)
            })
            .collect();
        let copy = self.clone();
        for (d, t) in self.dolls.iter_mut().zip(kept) {
            d.telemetry = t;
        }
        copy
    }

    /// Full-size (empty) telemetry rings for a copy made by [`Self::snapshot_light`].
    pub fn regrow_telemetry(&mut self) {
        let cap = self.settings.telemetry_capacity();
        for d in &mut self.dolls {
            if d.telemetry.body.capacity() < cap {
                d.telemetry = resized(&d.telemetry, cap);
            }
        }
    }
}
