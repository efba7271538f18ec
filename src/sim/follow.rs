//! Playing an animation clip on the simulation: before each step, every joint's drive target
//! is the clip's pose at the time the step ends ([`crate::anim`]), and in kinematic-root mode
//! the root bodies follow the clip's root motion exactly while the limbs are simulated.

use super::{SimError, Simulation};
use crate::anim::{clip_time_s, Follower, Playback};
use crate::document::{Clip, Document};
use glam::{DMat4, DQuat};
use rapier3d::prelude::Pose;

/// How the character's root moves while a clip plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RootMode {
    /// The root bodies follow the clip's root motion kinematically (the default).
    #[default]
    Kinematic,
    /// The root is simulated; balance holds the character (idle-like clips).
    Free,
}

/// A clip driving one simulation.
#[derive(Debug, Clone)]
pub struct ClipDriver {
    follower: Follower,
    pub clip: Clip,
    pub playback: Playback,
    pub root: RootMode,
}

fn pose_of(m: &DMat4) -> Pose {
    let (_, r, t) = m.to_scale_rotation_translation();
    let r = if r.is_finite() { r.normalize() } else { DQuat::IDENTITY };
    Pose::from_parts(t.as_vec3(), r.as_quat())
}

impl ClipDriver {
    pub fn new(doc: &Document, clip: Clip, playback: Playback, root: RootMode) -> Self {
        Self {
            follower: Follower::new(doc),
            clip,
            playback,
            root,
        }
    }

    /// The clip time (s) at simulation time `t_s`.
    pub fn clip_time_s(&self, t_s: f64) -> f32 {
        clip_time_s(&self.clip, &self.playback, t_s)
    }

    /// Every bone's world matrix in the clip at simulation time `t_s` (the ghost skeleton).
    pub fn target_pose(&self, t_s: f64) -> Vec<DMat4> {
        self.follower.bone_pose(&self.clip, self.clip_time_s(t_s))
    }

    /// Sets the targets (and the kinematic root) for the step that is about to run.
    pub fn before_step(&self, sim: &mut Simulation) -> Result<(), SimError> {
        let t_end = sim.time_s() + sim.settings().dt_s as f64;
        let pose = self.target_pose(t_end);
        let targets: Vec<_> = self
            .follower
            .targets(&pose)
            .into_iter()
            .map(|t| (t.bone, Some(t.relative)))
            .collect();
        sim.set_joint_targets(&targets);
        if self.root == RootMode::Kinematic {
            for &root in &self.follower.roots {
                if let Some(m) = pose.get(root.index()) {
                    sim.drive_kinematic(root, pose_of(m))?;
                }
            }
        }
        Ok(())
    }

    /// Stops following: drives back to the rest pose, root bodies dynamic again.
    pub fn release(&self, sim: &mut Simulation) -> Result<(), SimError> {
        sim.clear_joint_targets();
        for &root in &self.follower.roots {
            sim.set_pinned(root, false)?;
        }
        Ok(())
    }
}
