//! The stepping strategy (off unless `step_gain` > 0): when the capture point (`hip.rs`) lies
//! outside the grounded feet by more than `step_margin` leg lengths, one foot steps toward it,
//! as capture-point stepping (Pratt et al. 2006) with SIMBICON's placement feedback (Yin et
//! al. 2007):
//! - the swing foot is the foot nearest the capture point, grounded or lifted off the ground
//!   by the body's motion (not the one that stepped last), with another foot grounded to stand
//!   on; ties go to the lower index;
//! - over a swing time of √(leg / g) its ankle is carried from where it lifted to
//!   `com + step_gain · (capture point − com)` on the ground (plus its own offset across
//!   the push, followed until the swing time is up, then fixed), lifted by a share of the
//!   leg length on the way, the reach clamped to the leg; with `step_catch_dv` > 0, the step
//!   is at most as long as one to `step_gain` × that push's capture point (Δv·√(h / g) out
//!   from the centre of mass along the push, as it was when the foot lifted), so a step
//!   catches a small push and not a large one, nor chases the body in steps;
//! - the hip, knee and ankle follow through their own drives: the targets come from a
//!   two-bone placement (knee toward the character's forward), so every torque is internal;
//! - it lands on contact after half the swing (or at a timeout) and then holds the landed
//!   pose (the other legs hold theirs), every hip holding its thigh under an upright hip
//!   parent, so a trunk tilted by the push is brought back upright through the hips rather
//!   than held tilted: the ankle strategy works on the larger support region. The trigger
//!   reads the convex hull of the grounded feet (`support.rs`), so a staggered stance that
//!   leaves the capture point off its diagonal steps again. At most
//!   six steps per event; an event ends when the capture point has stayed inside the feet
//!   for a while.
//!
//! Before any step, standing still on every foot, the ankles lean the body until the centre of
//! mass is a fifth of the feet's depth inside their heel and toe edges (`stance.rs`): a rest
//! pose that stands on its heels otherwise falls back from the smallest push.
//!
//! Lengths come from the character's own legs (the anatomy's leg chains), so a 0.2 m and a
//! 15 m character step alike.

mod landing;
mod leg;
mod stance;
mod start;
mod support;

use super::balance::BalanceRig;
use super::hip::{capture_point, SupportBox};
use super::joints::{self, JointRec};
use super::settings::SimSettings;
use super::world::BodyRec;
use crate::anatomy::Anatomy;
use crate::document::Document;
use glam::{Quat, Vec3};
use landing::within;
use leg::StepLeg;
use rapier3d::prelude::*;
use stance::{Depth, Stance};
use support::SupportHull;

/// Steps per event at most (a backward push on the mannequin takes three: back, then the
/// staggered stance is squared up). Six, not four (session 21): the tuned bundled mannequin,
/// pushed back, had stepped four times when it drifted sideways and fell; with six it stands,
/// and `tools/robustness.py` meets the goals on 12 of 15 humanoids and quadrupeds against 10.
const MAX_STEPS: u32 = 6;
/// Lift of the swing ankle at mid-swing, per leg length.
const CLEARANCE_PER_LEG: f32 = 0.12;
/// Past the swing time, the ankle is aimed this far below the ground (per leg length) until
/// the foot touches.
const PRESS_PER_LEG: f32 = 0.05;
/// Standing still, for the stance's lean: the centre of mass slower than this share of
/// √(g · leg).
const STILL_FROUDE: f32 = 0.05;
/// The swing time, per √(leg / g).
const SWING_TIMES: f32 = 1.0;
/// A landing waits this long (per swing time) before the next step may start.
const SETTLE_SWINGS: f32 = 0.5;
/// The capture point inside the feet this long (per swing time) ends the event.
const QUIET_SWINGS: f32 = 4.0;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Idle,
    /// Leg `leg` swinging for `t_s`: its ankle lifted at `from`, with `across` its horizontal
    /// offset from the centre of mass across the push.
    Swing {
        leg: usize,
        t_s: f32,
        from: Vec3,
        across: Vec3,
        /// Where the ankle lands (horizontal), followed until the swing time is up.
        landing: Vec3,
        /// How far from `from` it may land (horizontal; infinite without `step_catch_dv`).
        max_step: f32,
    },
    /// Landed `t_s` ago; the landed pose is held.
    Landed {
        t_s: f32,
    },
}

/// The stepping controller of one ragdoll.
#[derive(Debug, Clone)]
pub(crate) struct StepRig {
    legs: Vec<StepLeg>,
    /// The character's forward at rest (the anatomy's), toward which knees bend.
    forward_rest: Vec3,
    phase: Phase,
    steps: u32,
    last_leg: Option<usize>,
    quiet_s: f32,
    /// Joints (indices) that hold a step's target.
    held: Vec<usize>,
    /// The document's `step_gain` this step.
    gain: f32,
    /// The document's `step_catch_dv` this step (m/s; 0: no limit).
    catch_dv: f32,
    /// The lean the ankles hold while standing before any step (`stance.rs`).
    stance: Stance,
    /// Time since a start lean was set (`start.rs`), while no step may start.
    start_s: Option<f32>,
    /// Per leg, its foot's horizontal offset from the centre of mass at rest, and the
    /// document's `step_rest_stance` this step (`landing.rs`).
    rest_offsets: Vec<Vec3>,
    rest_stance: f32,
}

/// The whole body's state the controller reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyState {
    pub com: Vec3,
    pub vcom: Vec3,
    pub grounded: u32,
}

impl StepRig {
    /// The stepping legs of the balance rig's feet; none (nothing to do, nothing measured)
    /// while the document's `step_gain` is 0.
    pub fn new(
        world: &PhysicsWorld,
        doc: &Document,
        bodies: &[BodyRec],
        joints: &[JointRec],
        balance: &BalanceRig,
    ) -> Self {
        let mut rig = Self {
            legs: Vec::new(),
            forward_rest: Vec3::Z,
            phase: Phase::Idle,
            steps: 0,
            last_leg: None,
            quiet_s: 0.0,
            held: Vec::new(),
            gain: 0.0,
            catch_dv: 0.0,
            stance: Stance::default(),
            start_s: None,
            rest_offsets: Vec::new(),
            rest_stance: 0.0,
        };
        let com = start::rest_com(world, bodies);
        let outside = com.is_some_and(|c| start::outside_feet_box(world, bodies, balance, c));
        if doc.balance.step_gain <= 0.0 && !outside {
            return rig;
        }
        let anatomy = Anatomy::of(doc);
        rig.forward_rest = anatomy.forward().as_vec3();
        rig.legs = balance
            .feet
            .iter()
            .enumerate()
            .filter_map(|(i, &f)| StepLeg::of(world, doc, &anatomy, bodies, joints, (i, f)))
            .collect();
        if rig.legs.len() < 2 {
            rig.legs.clear();
        }
        if let Some(c) = com {
            rig.rest_offsets = landing::rest_offsets(bodies, &rig.legs, c);
        }
        if let Some(com) = com.filter(|_| outside && !rig.legs.is_empty()) {
            let feet: Vec<usize> = rig.legs.iter().map(|l| l.foot).collect();
            let f = rig.forward_rest;
            let forward = Vec3::new(f.x, 0.0, f.z).normalize_or(Vec3::Z);
            let at = (com, forward, stance::MARGIN);
            if let Some(lean) = start::lean_rad(world, bodies, &feet, at) {
                rig.stance.start(lean);
                rig.start_s = Some(0.0);
            }
        }
        rig
    }

    /// Starts the bodies leaned over the feet when the rest pose's centre of mass lies
    /// outside them (`start.rs`); nothing otherwise.
    pub fn pose_start(
        &self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &[JointRec]),
    ) {
        if self.start_s.is_some() {
            let at = (self.stance.lean_rad(), self.forward_rest);
            start::lean_pose(world, (bodies, joints), &self.legs, at);
        }
    }

    /// Whether a step is under way, its pose held, or the stance leaning.
    pub fn engaged(&self) -> bool {
        !self.held.is_empty() || self.stance.joints().next().is_some()
    }

    /// Returns every held joint to its rest target.
    pub fn release(&mut self, world: &mut PhysicsWorld, joints: &mut [JointRec], s: &SimSettings) {
        let held = std::mem::take(&mut self.held);
        let stance = std::mem::take(&mut self.stance);
        // A joint both held and leaning is released twice; the second write changes nothing.
        for i in held.into_iter().chain(stance.joints()) {
            if let Some(j) = joints.get_mut(i) {
                let gains = joints::motor_gains(&j.spec.drive, s.drives, s.gain_multiplier, false);
                joints::set_target(world, j, None, gains, None);
            }
        }
        self.phase = Phase::Idle;
    }

    /// One control step.
    pub fn control(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        balance: &BalanceRig,
        state: BodyState,
        s: &SimSettings,
    ) {
        if self.legs.is_empty() {
            return;
        }
        if self.start_s.is_some() {
            let legs = (&self.legs[..], self.forward_rest);
            self.stance.write_start(world, (bodies, joints), legs, s);
        }
        if balance.built.step_gain <= 0.0 {
            return;
        }
        let dt = s.dt_s;
        self.gain = balance.built.step_gain as f32;
        self.catch_dv = balance.built.step_catch_dv as f32;
        self.rest_stance = balance.built.step_rest_stance as f32;
        // The grounded feet's hull, square to the heading (only where it is read).
        let hull = |rig: &Self, w: &PhysicsWorld| {
            let forward = rig.forward(w, bodies, 0);
            let hull = SupportHull::of(w, bodies, &balance.feet, state.grounded, forward);
            (hull, forward)
        };
        match self.phase {
            Phase::Swing { .. } => self.swing(world, (bodies, joints), balance, state, s),
            Phase::Idle => {
                let (hull, forward) = hull(self, world);
                if self.held.is_empty() {
                    let on = (hull.as_ref(), forward);
                    self.lean(world, (bodies, joints), on, state, s);
                }
                if !self.starting(s) {
                    self.watch(world, bodies, (balance, hull.as_ref()), state, s);
                }
            }
            Phase::Landed { t_s } => {
                self.phase = Phase::Landed { t_s: t_s + dt };
                if t_s >= SETTLE_SWINGS * self.swing_s(s) {
                    let (hull, _) = hull(self, world);
                    self.watch(world, bodies, (balance, hull.as_ref()), state, s);
                }
            }
        }
    }

    /// Standing on every foot before any step, on the grounded feet's `hull` with the
    /// character's `forward` now: the stance's lean (`stance.rs`).
    fn lean(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        (hull, forward): (Option<&SupportHull>, Vec3),
        state: BodyState,
        s: &SimSettings,
    ) {
        let all = self.legs.iter().fold(0u32, |m, l| m | 1 << l.foot_index);
        let Some(hull) = hull.filter(|_| state.grounded & all == all) else {
            return;
        };
        let (heel, toe) = hull.extent_along(forward);
        let depth = Depth {
            heel,
            toe,
            com: forward.dot(Vec3::new(state.com.x, 0.0, state.com.z)),
        };
        let (g, leg) = (s.gravity_m_s2.length(), self.leg_len());
        let still = state.vcom.length() <= STILL_FROUDE * (g * leg).sqrt();
        let leg_time_s = (leg / g.max(1e-6)).sqrt();
        let legs = (&self.legs[..], self.forward_rest);
        self.stance
            .adapt(world, (bodies, joints), legs, (depth, still, leg_time_s), s);
    }

    /// While a start lean settles (`start.rs`), no step starts; counts the time.
    fn starting(&mut self, s: &SimSettings) -> bool {
        let swing_s = self.swing_s(s);
        let Some(t) = self.start_s.as_mut() else {
            return false;
        };
        *t += s.dt_s;
        *t < start::START_SWINGS * swing_s
    }

    /// The swing time (s): √(leg / g) of the shortest leg.
    fn swing_s(&self, s: &SimSettings) -> f32 {
        SWING_TIMES * (self.leg_len() / s.gravity_m_s2.length().max(1e-6)).sqrt()
    }

    /// The shortest leg's length.
    fn leg_len(&self) -> f32 {
        self.legs
            .iter()
            .map(StepLeg::length)
            .fold(f32::INFINITY, f32::min)
    }

    /// Standing: starts a step when the capture point leaves the grounded feet by the margin.
    /// `hull`: the grounded feet's.
    fn watch(
        &mut self,
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        (balance, hull): (&BalanceRig, Option<&SupportHull>),
        state: BodyState,
        s: &SimSettings,
    ) {
        let Some(support) = SupportBox::of(world, bodies, &balance.feet, state.grounded) else {
            return;
        };
        let cp = self.capture(state, support.ground_y(), s);
        let e = match hull {
            Some(hull) => hull.outside(cp),
            None => support.outside(cp),
        };
        if e == Vec3::ZERO {
            self.quiet_s += s.dt_s;
            if self.quiet_s > QUIET_SWINGS * self.swing_s(s) {
                self.steps = 0;
                self.last_leg = None;
            }
            return;
        }
        self.quiet_s = 0.0;
        if self.steps >= MAX_STEPS
            || e.length() <= balance.built.step_margin as f32 * self.leg_len()
        {
            return;
        }
        let Some(leg) = self.swing_leg(world, bodies, state.grounded, cp) else {
            return;
        };
        let from = world.bodies[bodies[self.legs[leg].foot].body].translation();
        let com_g = Vec3::new(state.com.x, 0.0, state.com.z);
        let push = (cp - com_g).try_normalize().unwrap_or(Vec3::ZERO);
        let off = Vec3::new(from.x, 0.0, from.z) - com_g;
        let h = com_height(state, support.ground_y(), s);
        let f = self.forward_rest;
        let headings = (
            Vec3::new(f.x, 0.0, f.z).normalize_or(Vec3::Z),
            self.forward(world, bodies, 0),
        );
        let rest = self.rest_offsets.get(leg).copied();
        self.phase = Phase::Swing {
            leg,
            t_s: 0.0,
            from,
            across: landing::across(off, rest, headings, push, self.rest_stance),
            landing: Vec3::new(from.x, 0.0, from.z),
            max_step: landing::max_step((self.gain, self.catch_dv), off.dot(push), h, s),
        };
        self.steps += 1;
        self.last_leg = Some(leg);
        self.quiet_s = 0.0;
    }

    /// The horizontal capture point on the ground at `ground_y`.
    fn capture(&self, state: BodyState, ground_y: f32, s: &SimSettings) -> Vec3 {
        let h = com_height(state, ground_y, s);
        capture_point(state.com, state.vcom, h, s.gravity_m_s2.length())
    }

    /// The leg nearest the capture point with another foot grounded to stand on, not the leg
    /// that stepped last when another can. A foot in the air may step too: a stance leg held
    /// in its landed pose is lifted off the ground when the body moves on over the other foot,
    /// and, while only grounded feet could step, the body then fell over that foot with no step
    /// left to take (the bundled mannequin stepping at 1.3, pushed back-left at 0.5 m/s: after
    /// two steps its left foot rose 13 cm over half a second as its body moved on over the
    /// right, and it fell 3.6 s after the push; the lifted foot now steps, and it stands).
    fn swing_leg(
        &self,
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        grounded: u32,
        cp: Vec3,
    ) -> Option<usize> {
        let on = |l: &StepLeg| grounded & (1 << l.foot_index) != 0;
        let mut best: Option<(usize, f32)> = None;
        for (k, l) in self.legs.iter().enumerate() {
            let others = self
                .legs
                .iter()
                .any(|o| o.foot_index != l.foot_index && on(o));
            if !others || (self.last_leg == Some(k) && self.legs.len() > 1) {
                continue;
            }
            let at = world.bodies[bodies[l.foot].body].translation();
            let d = Vec3::new(at.x - cp.x, 0.0, at.z - cp.z).length();
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((k, d));
            }
        }
        best.map(|(k, _)| k)
    }

    /// Swinging: aims the leg at the landing point; lands on contact or at the timeout.
    fn swing(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        balance: &BalanceRig,
        state: BodyState,
        s: &SimSettings,
    ) {
        let Phase::Swing {
            leg: k,
            t_s,
            from,
            across,
            landing,
            max_step,
        } = self.phase
        else {
            return;
        };
        let t_s = t_s + s.dt_s;
        let swing_s = self.swing_s(s);
        let leg = &self.legs[k];
        let touched = state.grounded & (1 << leg.foot_index) != 0;
        let grounded_others = state.grounded & !(1 << leg.foot_index);
        let ground_y = SupportBox::of(world, bodies, &balance.feet, grounded_others)
            .map_or(from.y - leg.ankle_height, |b| b.ground_y());
        if (touched && t_s > 0.5 * swing_s) || t_s > 3.0 * swing_s {
            self.land(world, (bodies, joints), (k, ground_y), s);
            return;
        }
        let cp = self.capture(state, ground_y, s);
        let u = t_s / swing_s;
        let landing = match u < 1.0 {
            true => {
                let com_g = Vec3::new(state.com.x, 0.0, state.com.z);
                let at = com_g + (cp - com_g) * self.gain + across;
                let at = Vec3::new(at.x, 0.0, at.z);
                within(Vec3::new(from.x, 0.0, from.z), at, max_step)
            }
            false => landing,
        };
        let ankle = self.ankle_aim(k, (from, landing), ground_y, u);
        let (hip, parent) = self.hip_now(world, bodies, k);
        self.aim_leg(world, (bodies, joints), k, (hip, parent, ankle), (s, true));
        self.phase = Phase::Swing {
            leg: k,
            t_s,
            from,
            across,
            landing,
            max_step,
        };
    }

    /// Landing: the landed leg holds the pose that puts its ankle where it landed, the foot
    /// flat; the other legs hold the pose they are in, but every hip holds its thigh (on a
    /// stance leg, as it is now) under an upright hip parent (its rest orientation turned by
    /// its heading): the trunk is brought back upright through the hips, against the thighs
    /// and the feet on the ground, as SIMBICON's stance hip does, rather than held as tilted
    /// as it landed.
    fn land(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        (k, ground_y): (usize, f32),
        s: &SimSettings,
    ) {
        let leg = &self.legs[k];
        let at = world.bodies[bodies[leg.foot].body].translation();
        let ankle = Vec3::new(at.x, ground_y + leg.ankle_height, at.z);
        let hip = self.hip_now(world, bodies, k).0;
        let parent = self.upright_parent(world, bodies, k);
        self.aim_leg(world, (bodies, joints), k, (hip, parent, ankle), (s, false));
        for m in (0..self.legs.len()).filter(|&m| m != k) {
            let upright = self.upright_parent(world, bodies, m);
            let other = &self.legs[m];
            let thigh = *world.bodies[bodies[other.thigh].body].rotation();
            let (hip_joint, hip_q) = other.hip_target(joints, upright, thigh);
            for i in other.joints() {
                let j = &mut joints[i];
                let q = match i == hip_joint {
                    true => hip_q,
                    false => {
                        let now = joints::relative_rotation(world, bodies, &j.spec);
                        j.spec.limits.clamp(now.as_dquat()).as_quat()
                    }
                };
                let gains = joints::motor_gains(&j.spec.drive, s.drives, s.gain_multiplier, false);
                joints::set_target(world, j, Some(q), gains, None);
                if !self.held.contains(&i) {
                    self.held.push(i);
                }
            }
        }
        self.phase = Phase::Landed { t_s: 0.0 };
    }

    /// Leg `k`'s hip parent upright: its rest world rotation turned by its heading now.
    fn upright_parent(&self, world: &PhysicsWorld, bodies: &[BodyRec], k: usize) -> Quat {
        let p = self.legs[k].hip_parent;
        let rest = bodies[p].world_from_body_rest.rotation;
        let now = *world.bodies[bodies[p].body].rotation();
        (leg::heading(now * rest.inverse()) * rest).normalize()
    }

    /// Writes leg `k`'s drive targets for its hip at `hip` under a hip parent at `parent`,
    /// its ankle at `ankle` (world).
    fn aim_leg(
        &mut self,
        world: &mut PhysicsWorld,
        (bodies, joints): (&[BodyRec], &mut [JointRec]),
        k: usize,
        (hip, parent, ankle): (Vec3, Quat, Vec3),
        (s, moving): (&SimSettings, bool),
    ) {
        let pole = self.forward(world, bodies, k);
        let leg = &self.legs[k];
        let targets = leg.targets(bodies, joints, (hip, parent), (ankle, pole));
        for (i, q) in targets {
            let gains =
                joints::motor_gains(&joints[i].spec.drive, s.drives, s.gain_multiplier, false);
            joints::set_target(
                world,
                &mut joints[i],
                Some(q),
                gains,
                moving.then_some(s.dt_s),
            );
            if !self.held.contains(&i) {
                self.held.push(i);
            }
        }
    }

    /// Leg `k`'s hip position and its hip parent's rotation now (world).
    fn hip_now(&self, world: &PhysicsWorld, bodies: &[BodyRec], k: usize) -> (Vec3, Quat) {
        let l = &self.legs[k];
        let hip = world.bodies[bodies[l.thigh].body].translation();
        (hip, *world.bodies[bodies[l.hip_parent].body].rotation())
    }

    /// Where the swing ankle is aimed at `u` of the swing time (world).
    fn ankle_aim(&self, k: usize, (from, land): (Vec3, Vec3), ground_y: f32, u: f32) -> Vec3 {
        let leg = &self.legs[k];
        let len = leg.length();
        let w = u.clamp(0.0, 1.0);
        let smooth = w * w * (3.0 - 2.0 * w);
        let flat_from = Vec3::new(from.x, 0.0, from.z);
        let at = flat_from + (land - flat_from) * smooth;
        let lift = if u < 1.0 {
            CLEARANCE_PER_LEG * len * (std::f32::consts::PI * w).sin()
        } else {
            -PRESS_PER_LEG * len
        };
        Vec3::new(at.x, ground_y + leg.ankle_height + lift, at.z)
    }

    /// The character's forward now: its rest forward turned by the hip parent's heading.
    fn forward(&self, world: &PhysicsWorld, bodies: &[BodyRec], k: usize) -> Vec3 {
        let p = self.legs[k].hip_parent;
        let turn = *world.bodies[bodies[p].body].rotation()
            * bodies[p].world_from_body_rest.rotation.inverse();
        let f = turn * self.forward_rest;
        Vec3::new(f.x, 0.0, f.z).try_normalize().unwrap_or(Vec3::Z)
    }
}

/// The centre of mass's height over the ground at `ground_y`, as the capture point reads it.
fn com_height(state: BodyState, ground_y: f32, s: &SimSettings) -> f32 {
    (state.com.y - ground_y).max(0.3 * s.unit())
}
