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
    /// Added to the clip's root motion (world units): in kinematic-root mode the lift that
    /// keeps the clip's feet out of the floor ([`Follower::grounding_lift`]).
    pub root_offset: glam::DVec3,
    /// The roots' horizontal travel over one loop, added once per loop played.
    loop_travel: glam::DVec3,
    /// The stability guard's speed limits while this clip plays are at least this (linear,
    /// angular): [`GUARD_MARGIN`] times the fastest body motion the clip itself asks for.
    pub guard_floor: (f32, f32),
}

/// How much faster than the clip's own fastest motion a body may move before the guard
/// calls it a runaway.
pub const GUARD_MARGIN: f32 = 3.0;

fn pose_of(m: &DMat4) -> Pose {
    let (_, r, t) = m.to_scale_rotation_translation();
    let r = if r.is_finite() {
        r.normalize()
    } else {
        DQuat::IDENTITY
    };
    Pose::from_parts(t.as_vec3(), r.as_quat())
}

/// The velocities (origin's linear, angular; world frame) that move `a` to `b` in `dt_s`.
fn velocities(a: &Pose, b: &Pose, dt_s: f32) -> (glam::Vec3, glam::Vec3) {
    let lin = (b.translation - a.translation) / dt_s;
    let d = b.rotation * a.rotation.inverse();
    let d = if d.w < 0.0 { -d } else { d };
    let (axis, angle) = d.to_axis_angle();
    (lin, axis * (angle / dt_s))
}

impl ClipDriver {
    pub fn new(doc: &Document, clip: Clip, playback: Playback, root: RootMode) -> Self {
        let follower = Follower::new(doc);
        let lift = match root {
            RootMode::Kinematic => follower.grounding_lift(doc, &clip, 64, doc.ground_y()),
            RootMode::Free => 0.0,
        };
        let loop_travel = follower.loop_travel(&clip);
        let mut d = Self {
            follower,
            clip,
            playback,
            root,
            root_offset: glam::DVec3::Y * lift,
            loop_travel,
            guard_floor: (0.0, 0.0),
        };
        let (lin, ang) = d.fastest_motion();
        d.guard_floor = (lin * GUARD_MARGIN, ang * GUARD_MARGIN);
        d
    }

    /// The fastest linear (world units/s) and angular (rad/s) speed of any bone in the
    /// clamped target pose, over one pass of the clip sampled at 120 Hz.
    fn fastest_motion(&self) -> (f32, f32) {
        let dt = 1.0 / 120.0;
        let n = ((self.clip.duration_s as f64 / dt).ceil() as usize).clamp(2, 2400);
        let speed = self.playback.speed.abs().max(1e-3) as f64;
        let mut prev = self
            .follower
            .clamped_pose(&self.follower.bone_pose(&self.clip, 0.0));
        let (mut lin, mut ang) = (0.0f64, 0.0f64);
        for i in 1..n {
            let t = (i as f64 * dt).min(self.clip.duration_s as f64) as f32;
            let pose = self
                .follower
                .clamped_pose(&self.follower.bone_pose(&self.clip, t));
            for (a, b) in prev.iter().zip(&pose) {
                let (_, ra, ta) = a.to_scale_rotation_translation();
                let (_, rb, tb) = b.to_scale_rotation_translation();
                lin = lin.max(ta.distance(tb) / dt * speed);
                ang = ang.max(ra.angle_between(rb) / dt * speed);
            }
            prev = pose;
        }
        (lin as f32, ang as f32)
    }

    /// The clip time (s) at simulation time `t_s`.
    pub fn clip_time_s(&self, t_s: f64) -> f32 {
        clip_time_s(&self.clip, &self.playback, t_s)
    }

    /// Every bone's world matrix in the clip at simulation time `t_s`, as authored (the
    /// root offset applied).
    pub fn clip_pose(&self, t_s: f64) -> Vec<DMat4> {
        let loops = crate::anim::loops_done(&self.clip, &self.playback, t_s);
        let shift = DMat4::from_translation(self.root_offset + self.loop_travel * loops);
        let pose = self.follower.bone_pose(&self.clip, self.clip_time_s(t_s));
        pose.into_iter().map(|m| shift * m).collect()
    }

    /// The pose the drives aim at: the clip clamped into the joint limits (the ghost).
    pub fn target_pose(&self, t_s: f64) -> Vec<DMat4> {
        self.follower.clamped_pose(&self.clip_pose(t_s))
    }

    /// Sets the targets (and the kinematic root) for the step that is about to run.
    pub fn before_step(&self, sim: &mut Simulation) -> Result<(), SimError> {
        let t_end = sim.time_s() + sim.settings().dt_s as f64;
        let pose = self.clip_pose(t_end);
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

    /// Places every body at the clip's pose for the current time, moving as the clip moves
    /// it, and points the drives there, so the clip starts from its own first frame rather
    /// than pulling the rest pose into it. Started at rest with its drives held still, a
    /// body fell one step behind the clip at once, and the drives' damping (which follows
    /// the target's velocity) took back that lag only at their stiffness over damping: the
    /// generated Fox's front paw started 6.6° behind and was still 3.1° behind at the end
    /// of its 0.71 s walk.
    pub fn start(&self, sim: &mut Simulation) -> Result<(), SimError> {
        let t = sim.time_s();
        let dt = sim.settings().dt_s as f64;
        let (pose, next) = (self.target_pose(t), self.target_pose(t + dt));
        // Across the clip's end the pose jumps back: no velocity from that.
        let wraps = self.clip_time_s(t + dt) < self.clip_time_s(t);
        let bodies: Vec<_> = sim.body_poses().map(|(id, _)| id).collect();
        for id in bodies {
            let Some(m) = pose.get(id.index()) else {
                continue;
            };
            let (now, then) = (pose_of(m), next.get(id.index()).map(pose_of));
            let motion = match then {
                Some(p) if !wraps => velocities(&now, &p, dt as f32),
                _ => (glam::Vec3::ZERO, glam::Vec3::ZERO),
            };
            sim.set_body_motion_of(id, now, motion)?;
        }
        let targets: Vec<_> = self
            .follower
            .targets(&self.clip_pose(t))
            .into_iter()
            .map(|t| (t.bone, Some(t.relative)))
            .collect();
        sim.set_joint_targets(&targets);
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
