//! The stance of the stepping strategy. A rest pose can put the centre of mass close to the
//! heel or toe edge of the feet (X Bot and Ely from Mixamo stand with it within 10% of the
//! feet's depth from the heel), and then the smallest push that way leaves the support
//! before a step can start. While the character stands still on all its feet and has not
//! stepped, the ankles lean the body above them (each shin turned about the character's
//! lateral axis at the ankle drive's target, the foot flat) until the centre of mass lies at
//! least `MARGIN` of the feet's depth inside both edges, as a person standing keeps their
//! weight over the middle of the feet. Inside that band nothing changes, so a character that
//! already stands there keeps its trajectory bit for bit.

use super::super::joints::{self, JointRec};
use super::super::settings::SimSettings;
use super::super::world::BodyRec;
use super::leg::{joint_target, StepLeg};
use glam::{Quat, Vec3};
use rapier3d::prelude::*;

/// The share of the feet's depth (heel to toe) kept between the centre of mass and each edge.
pub(super) const MARGIN: f32 = 0.2;
/// How fast the lean follows, in degrees per √(leg / g): the body's own time, so a 9 mm and
/// a 90 m character lean alike (1.2, about 4°/s on a 0.9 m leg; at a fixed 4°/s a godot_robot
/// scaled ×100, whose body answers ten times slower, had leaned past the band to the 5° cap).
const LEAN_RATE_DEG_PER_LEG_TIME: f32 = 1.2;
/// The largest lean (degrees).
const MAX_LEAN_DEG: f32 = 5.0;
/// The targets are rewritten when the lean has moved this far (degrees): a write rebuilds
/// Rapier's joint assembly.
const WRITE_DEG: f32 = 0.05;

/// The lean the ankles hold while standing, and the ankle targets that hold it.
#[derive(Debug, Clone, Default)]
pub(super) struct Stance {
    lean_rad: f32,
    written_rad: f32,
    /// The size of the lean set at the start (`start.rs`): the lean's cap is at least this.
    start_rad: f32,
    /// Ankle joints (indices into the ragdoll's) and their targets; empty at no lean.
    targets: Vec<(usize, Quat)>,
}

/// Where the centre of mass stands along the character's forward: the feet's heel and toe
/// extents and the centre of mass, all as distances along `forward`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Depth {
    pub heel: f32,
    pub toe: f32,
    pub com: f32,
}

impl Depth {
    /// The centre of mass's share of the way from heel to toe.
    fn share(&self) -> f32 {
        (self.com - self.heel) / (self.toe - self.heel).max(f32::EPSILON)
    }
}

impl Stance {
    /// The joints whose targets the stance holds.
    pub fn joints(&self) -> impl Iterator<Item = usize> + '_ {
        self.targets.iter().map(|&(i, _)| i)
    }

    /// One control step while standing on all feet with no step taken: leans toward the band
    /// when the centre of mass is `still` and outside it. `forward_rest`: the character's
    /// forward at rest, toward which a positive lean carries the body; `leg_time_s`:
    /// √(leg / g).
    pub fn adapt(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        (legs, forward_rest): (&[StepLeg], Vec3),
        (depth, still, leg_time_s): (Depth, bool, f32),
        s: &SimSettings,
    ) {
        if !still {
            return;
        }
        let u = depth.share();
        let rate = LEAN_RATE_DEG_PER_LEG_TIME.to_radians() * s.dt_s / leg_time_s.max(1e-6);
        let d = match u {
            u if u < MARGIN => rate,
            u if u > 1.0 - MARGIN => -rate,
            _ => return,
        };
        let max = MAX_LEAN_DEG.to_radians().max(self.start_rad);
        self.lean_rad = (self.lean_rad + d).clamp(-max, max);
        if (self.lean_rad - self.written_rad).abs() < WRITE_DEG.to_radians() {
            return;
        }
        self.write(world, (bodies, joints), (legs, forward_rest), s);
    }

    /// The lean now (radians, positive toward the rest forward).
    pub fn lean_rad(&self) -> f32 {
        self.lean_rad
    }

    /// Sets the lean a rest pose outside its feet starts with (`start.rs`); written by
    /// [`Self::write_start`].
    pub fn start(&mut self, lean_rad: f32) {
        self.lean_rad = lean_rad;
        self.start_rad = lean_rad.abs();
    }

    /// Writes the start lean's targets once.
    pub fn write_start(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        (legs, forward_rest): (&[StepLeg], Vec3),
        s: &SimSettings,
    ) {
        if self.start_rad > 0.0 && self.targets.is_empty() {
            self.write(world, (bodies, joints), (legs, forward_rest), s);
        }
    }

    /// Writes the ankle targets that hold the lean now.
    fn write(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        (legs, forward_rest): (&[StepLeg], Vec3),
        s: &SimSettings,
    ) {
        self.written_rad = self.lean_rad;
        let lateral_rest = Vec3::Y.cross(forward_rest).normalize_or(Vec3::X);
        let turn = Quat::from_axis_angle(lateral_rest, self.lean_rad);
        self.targets = legs
            .iter()
            .filter_map(|l| {
                let ankle = l.ankle_joint?;
                let shin = turn * bodies[l.shin].world_from_body_rest.rotation;
                let foot = bodies[l.foot].world_from_body_rest.rotation;
                Some((ankle, joint_target(&joints[ankle], shin, foot)))
            })
            .collect();
        for &(i, q) in &self.targets {
            let gains =
                joints::motor_gains(&joints[i].spec.drive, s.drives, s.gain_multiplier, false);
            joints::set_target(world, &mut joints[i], Some(q), gains, None);
        }
    }
}
