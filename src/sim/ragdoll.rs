//! One ragdoll in the world: its bodies, joints, balance rig and telemetry, built from the
//! document and kept in step with it. The BoneId -> Rapier handle map lives here only.

use super::balance::BalanceRig;
use super::contact_order::MirrorContactOrder;
use super::error::SimError;
use super::fall::FallGauge;
use super::guard;
use super::joints::{self, JointRec, JointSpec};
use super::knockout::{self, KnockWatch};
use super::settings::SimSettings;
use super::settle::Settling;
use super::step::{BodyState, StepRig};
use super::telemetry::{measure_joint, BodySample, Telemetry};
use super::world::{self, BodyRec, GroupMap};
use crate::document::pairs::ExplicitPairs;
use crate::document::{BoneId, Document};
use glam::{Quat, Vec3};
use rapier3d::prelude::*;

/// A body whose document values changed: its new values and collider, applied by `sync`.
struct BodyUpdate {
    /// Index into `Ragdoll::bodies`.
    index: usize,
    built: world::BuiltBody,
    collider: Collider,
}

/// The joint spec of every jointed bone, in bone order.
fn joint_specs(
    doc: &Document,
    bodies: &[BodyRec],
    (mirror, pairs): (MirrorContactOrder, &ExplicitPairs),
) -> Result<Vec<JointSpec>, SimError> {
    let mut specs = Vec::new();
    for id in doc.bone_ids() {
        if let Some(spec) = joints::joint_spec(doc, id, bodies, (mirror, pairs))? {
            specs.push(spec);
        }
    }
    Ok(specs)
}

/// Where a ragdoll is built: its offset from the document's rest pose (a crowd's copies), its
/// mirror order, and the height of the ground it stands on (world y).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placement {
    pub offset: Vec3,
    pub mirror: MirrorContactOrder,
    pub ground_y: f32,
}

#[derive(Debug, Clone)]
pub(crate) struct Ragdoll {
    pub bodies: Vec<BodyRec>,
    pub joints: Vec<JointRec>,
    pub balance: BalanceRig,
    /// The stepping strategy (idle unless the document's `step_gain` > 0).
    pub step: StepRig,
    /// What falls are measured from (the character's own rest pose).
    pub fall: FallGauge,
    pub telemetry: Telemetry,
    pub total_mass_kg: f32,
    pub fell_at_s: Option<f64>,
    /// Latest whole-body state (after the last step), used by the controller.
    pub com: Vec3,
    pub vcom: Vec3,
    pub grounded: u32,
    /// The character's mirror order (joint limit cones are inserted in it).
    pub mirror: MirrorContactOrder,
    /// The explicit collision pairs it was built with (a change needs a rebuild).
    pub pairs: ExplicitPairs,
    /// Whether it has moved, for settling once it is slow again.
    pub settle: Settling,
    /// Impacts read so far, and the knock-out they caused.
    pub knock: KnockWatch,
}

impl Ragdoll {
    pub fn build(
        world: &mut PhysicsWorld,
        doc: &Document,
        (groups, pairs): (&GroupMap, &ExplicitPairs),
        s: &SimSettings,
        placed: Placement,
    ) -> Result<Self, SimError> {
        let Placement {
            offset,
            mirror,
            ground_y,
        } = placed;
        let bodies = world::insert_bodies(world, doc, groups, s, offset, pairs)?;
        if bodies.is_empty() {
            return Err(SimError::Empty);
        }
        let specs = joint_specs(doc, &bodies, (mirror, pairs))?;
        // Inserted leaves first: Rapier's solver visits joints in insertion order, and a limit
        // solved after its children's holds better when a limb slams into it.
        let mut joints: Vec<JointRec> = specs
            .into_iter()
            .rev()
            .map(|spec| {
                let name = doc.bone(spec.bone).name.clone();
                let gains = joints::motor_gains(&spec.drive, s.drives, s.gain_multiplier, false);
                joints::insert(world, &bodies, spec, name, gains)
            })
            .collect();
        joints.reverse();
        let balance = BalanceRig::new(world, doc, &bodies);
        let step = StepRig::new(world, doc, &bodies, &joints, &balance);
        if s.balance && balance.built.enabled {
            step.pose_start(world, (&bodies, &joints));
        }
        let fall = FallGauge::new(world, &bodies, &balance, ground_y);
        let telemetry = Telemetry::new(
            joints.iter().map(|j| j.name.clone()).collect(),
            balance.foot_names.clone(),
            s.telemetry_capacity(),
        );
        let total_mass_kg = bodies.iter().map(|b| b.mass_kg).sum();
        let mut r = Ragdoll {
            bodies,
            joints,
            balance,
            step,
            fall,
            telemetry,
            total_mass_kg,
            fell_at_s: None,
            com: Vec3::ZERO,
            vcom: Vec3::ZERO,
            grounded: 0,
            mirror,
            pairs: pairs.clone(),
            settle: Settling::default(),
            knock: KnockWatch::default(),
        };
        r.balance
            .set_upright(world, s.balance && r.balance.built.enabled);
        Ok(r)
    }

    /// Clamps each body's angular speed to its `max_angular_speed` (bodies without one are
    /// left alone).
    pub fn cap_angular_speed(&self, world: &mut PhysicsWorld) {
        for b in &self.bodies {
            let Some(cap) = b.built.material.max_angular_speed else {
                continue;
            };
            // Read first: `get_mut` alone marks the body modified, and a modified jointed
            // body makes Rapier rebuild its joint assembly for the next step.
            let Some(w) = world.bodies.get(b.body).map(|rb| rb.angvel()) else {
                continue;
            };
            let n = w.length();
            if n > cap as f32 && n.is_finite() {
                if let Some(rb) = world.bodies.get_mut(b.body) {
                    rb.set_angvel(w * (cap as f32 / n), false);
                }
            }
        }
    }

    /// Controller work before a step. `clip`: an animation clip drives the joints' targets
    /// (the stepping strategy stays out of its way).
    pub fn control(&mut self, world: &mut PhysicsWorld, s: &SimSettings, clip: bool) {
        if self.knock.knocked_out() && !self.knock.limp {
            self.go_limp(world, s);
        }
        let down = self.fell_at_s.is_some() || self.knock.knocked_out();
        let on = self.balance.active(s.balance, down);
        self.balance.set_upright(world, on);
        self.balance.length_unit = s.unit();
        self.balance.gravity = s.gravity_m_s2.length();
        self.balance
            .ankle_torque(world, &self.bodies, self.com, self.vcom, self.grounded, on);
        if on && !clip {
            let state = BodyState {
                com: self.com,
                vcom: self.vcom,
                grounded: self.grounded,
            };
            let parts = (&self.bodies[..], &mut self.joints[..]);
            self.step.control(world, parts, &self.balance, state, s);
        }
    }

    /// Knocked out: the step under way given up, every drive let go (the balance lets go with
    /// it: [`Self::control`]).
    fn go_limp(&mut self, world: &mut PhysicsWorld, s: &SimSettings) {
        if self.step.engaged() {
            self.step.release(world, &mut self.joints, s);
        }
        self.knock.limp = true;
        self.regain(world, s);
    }

    /// Whether the drives run: the settings' switch, and not knocked out.
    fn drives_on(&self, s: &SimSettings) -> bool {
        s.drives && !self.knock.limp
    }

    /// Whole-body state after a step (its centre of mass read by [`Self::read_bodies`] first),
    /// and its telemetry when `record`.
    pub fn measure(
        &mut self,
        world: &PhysicsWorld,
        ground: ColliderHandle,
        step: u64,
        time_s: f64,
        s: &SimSettings,
        record: bool,
    ) {
        let grounded = self.grounded_feet(world, ground);
        self.grounded = grounded;
        // Not measured (NaN) without a torso or pelvis body: never a made-up 0.
        let tilt_deg = self.fall.tilt_deg(world, &self.bodies);
        let pelvis_ratio = self.fall.pelvis_ratio(world, &self.bodies);
        if self.fell_at_s.is_none()
            && (self.fall.fallen(pelvis_ratio, self.com.y, tilt_deg)
                || self
                    .fall
                    .on_the_ground(world, &self.bodies, (ground, grounded)))
        {
            self.fell_at_s = Some(time_s);
        }
        if self.fell_at_s.is_none() {
            self.knock.read(knockout::Reading {
                vcom: self.vcom,
                gravity: s.gravity_m_s2,
                dt_s: s.dt_s,
                window_s: knockout::WINDOW_S * s.natural_time_scale(),
                threshold: self.balance.built.knockout_dv as f32,
                time_s,
            });
        }
        if !record {
            return;
        }
        let body = BodySample {
            step,
            time_s,
            torso_tilt_deg: tilt_deg,
            com_height_m: self.com.y - self.fall.ground_y(),
            pelvis_height_ratio: pelvis_ratio,
            grounded_feet: grounded,
            assist_torque_n_m: 0.0,
        };
        self.record_telemetry(world, body, s);
    }

    /// Every body read once after a step: the whole body's centre of mass and its velocity
    /// (world frame) into `com` / `vcom`, and, with `guard`, the first body whose state is
    /// bad (bone, reason; see [`guard`] for why one pass). [`Self::measure`] reads `com`.
    pub fn read_bodies(
        &mut self,
        world: &PhysicsWorld,
        guard: Option<guard::Limits>,
    ) -> Option<(String, String)> {
        let (mut com, mut vcom) = (Vec3::ZERO, Vec3::ZERO);
        for b in &self.bodies {
            let Some(rb) = world.bodies.get(b.body) else {
                continue;
            };
            if let Some(reason) = guard.and_then(|lim| guard::fault(rb, lim)) {
                return Some((b.name.clone(), reason));
            }
            com += rb.center_of_mass() * b.mass_kg;
            vcom += rb.linvel() * b.mass_kg;
        }
        self.com = com / self.total_mass_kg;
        self.vcom = vcom / self.total_mass_kg;
        None
    }

    /// Bit i set: foot i (of the first 32) touches the ground.
    fn grounded_feet(&self, world: &PhysicsWorld, ground: ColliderHandle) -> u32 {
        let mut grounded = 0u32;
        for (i, &f) in self.balance.feet.iter().enumerate() {
            if self.bodies[f].touches(world, ground) && i < 32 {
                grounded |= 1 << i;
            }
        }
        grounded
    }

    /// Effort, one joint frame and the body sample (its assist torque filled in here).
    fn record_telemetry(&mut self, world: &PhysicsWorld, mut body: BodySample, s: &SimSettings) {
        let ip = &world.integration_parameters;
        let dt_sub = ip.dt / ip.num_solver_iterations.max(1) as f32;
        let effort = super::effort::sample(world, &self.balance, &self.joints, dt_sub);
        self.telemetry.effort.add(effort, s.dt_s);
        self.record_joint_frame(world, body.time_s);
        body.assist_torque_n_m = effort.assist_n_m;
        self.telemetry.record_body(body);
    }

    /// Pushes one frame of joint samples and folds it into the per-joint stats.
    fn record_joint_frame(&mut self, world: &PhysicsWorld, time_s: f64) {
        let t = &mut self.telemetry;
        let frame = t.joints.push_frame();
        for ((j, out), stats) in self
            .joints
            .iter()
            .zip(frame.iter_mut())
            .zip(t.joint_stats.iter_mut())
        {
            let q = joints::relative_rotation(world, &self.bodies, &j.spec);
            let (sample, off_axis) = measure_joint(q, j.target, &j.spec.limits);
            *out = sample;
            stats.samples += 1;
            stats.sum_sq_error_deg2 += (sample.error_deg as f64) * (sample.error_deg as f64);
            stats.max_error_deg = stats.max_error_deg.max(sample.error_deg);
            if sample.violation_deg > stats.max_violation_deg {
                stats.max_violation_deg = sample.violation_deg;
                stats.max_violation_time_s = time_s;
            }
            stats.max_off_axis_deg = stats.max_off_axis_deg.max(off_axis);
        }
    }

    /// Brings bodies, joints and balance to the document in place. Returns how many things changed.
    pub fn sync(
        &mut self,
        world: &mut PhysicsWorld,
        doc: &Document,
        groups: &GroupMap,
        groups_changed: bool,
        (s, ground_y): (&SimSettings, f32),
    ) -> Result<usize, SimError> {
        // Validate everything first, then apply: a bad edit leaves the world as it was.
        self.check_same_structure(doc)?;
        let body_updates = self.body_updates(doc, groups, groups_changed, s)?;
        let specs = joint_specs(doc, &self.bodies, (self.mirror, &self.pairs))?;
        let mut changed = self.apply_body_updates(world, body_updates);
        self.total_mass_kg = self.bodies.iter().map(|b| b.mass_kg).sum();
        changed += self.sync_joints(world, doc, specs, s);
        self.renew_telemetry_for_joints(s);
        changed += self.balance.sync(world, doc, &self.bodies) as usize;
        if changed > 0 {
            if self.step.engaged() {
                self.step.release(world, &mut self.joints, s);
            }
            self.step = StepRig::new(world, doc, &self.bodies, &self.joints, &self.balance);
        }
        self.fall = FallGauge::new(world, &self.bodies, &self.balance, ground_y);
        if self.balance.foot_names != self.telemetry.foot_names {
            self.telemetry = Telemetry::new(
                self.telemetry.joint_names.clone(),
                self.balance.foot_names.clone(),
                s.telemetry_capacity(),
            );
        }
        Ok(changed)
    }

    /// Errs with `NeedsRebuild` when the collision pairs or the set of bodies changed.
    fn check_same_structure(&self, doc: &Document) -> Result<(), SimError> {
        if crate::document::pairs::explicit_pairs(doc) != self.pairs {
            return Err(SimError::NeedsRebuild(
                crate::document::fields::Key::CollisionPairs.path().into(),
            ));
        }
        let wanted: Vec<BoneId> = doc
            .bone_ids()
            .filter(|&id| world::built_body(doc, id).is_some())
            .collect();
        let have: Vec<BoneId> = self.bodies.iter().map(|b| b.bone).collect();
        if wanted != have {
            let odd = wanted
                .iter()
                .chain(&have)
                .find(|id| !(wanted.contains(id) && have.contains(id)));
            return Err(SimError::NeedsRebuild(
                odd.map_or_else(|| "?".into(), |id| doc.bone(*id).name.clone()),
            ));
        }
        Ok(())
    }

    /// The bodies whose document values (or collision groups) changed, with their new colliders.
    fn body_updates(
        &self,
        doc: &Document,
        groups: &GroupMap,
        groups_changed: bool,
        s: &SimSettings,
    ) -> Result<Vec<BodyUpdate>, SimError> {
        let mut body_updates = Vec::new();
        for (k, b) in self.bodies.iter().enumerate() {
            let Some(mut nb) = world::built_body(doc, b.bone) else {
                continue;
            };
            nb.in_pair = b.built.in_pair;
            if nb != b.built || groups_changed {
                let c = world::build_collider(doc, b.bone, &nb, groups, s)?;
                body_updates.push(BodyUpdate {
                    index: k,
                    built: nb,
                    collider: c,
                });
            }
        }
        Ok(body_updates)
    }

    /// Applies the body updates to the world in place. Returns how many bodies changed.
    fn apply_body_updates(&mut self, world: &mut PhysicsWorld, updates: Vec<BodyUpdate>) -> usize {
        let mut changed = 0;
        for BodyUpdate {
            index: k,
            built: nb,
            collider: c,
        } in updates
        {
            let b = &mut self.bodies[k];
            if let Some(col) = world.colliders.get_mut(b.collider) {
                col.set_shape(c.shared_shape().clone());
                if let Some(p) = c.position_wrt_parent() {
                    col.set_position_wrt_parent(*p);
                }
                col.set_mass_properties(c.mass_properties());
                col.set_collision_groups(c.collision_groups());
                col.set_friction(c.friction());
                col.set_restitution(c.restitution());
            }
            if let Some(rb) = world.bodies.get_mut(b.body) {
                world::apply_body_material(rb, &nb.material);
            }
            b.mass_kg = nb.mass_kg as f32;
            b.built = nb;
            changed += 1;
        }
        changed
    }

    /// Joints: update in place, add new ones, remove dropped ones. Returns how many changed.
    fn sync_joints(
        &mut self,
        world: &mut PhysicsWorld,
        doc: &Document,
        specs: Vec<JointSpec>,
        s: &SimSettings,
    ) -> usize {
        let mut changed = 0;
        let mut kept = vec![false; self.joints.len()];
        for spec in specs {
            let following = self
                .joints
                .iter()
                .any(|j| j.spec.bone == spec.bone && j.target.is_some());
            let gains =
                joints::motor_gains(&spec.drive, self.drives_on(s), s.gain_multiplier, following);
            match self.joints.iter().position(|j| j.spec.bone == spec.bone) {
                Some(i) => {
                    kept[i] = true;
                    changed += joints::update(world, &self.bodies, &mut self.joints[i], spec, gains)
                        as usize;
                }
                None => {
                    let name = doc.bone(spec.bone).name.clone();
                    self.joints
                        .push(joints::insert(world, &self.bodies, spec, name, gains));
                    kept.push(true);
                    changed += 1;
                }
            }
        }
        for i in (0..self.joints.len()).rev() {
            if !kept[i] {
                let j = self.joints.remove(i);
                joints::remove(world, &j);
                changed += 1;
            }
        }
        changed
    }

    /// A fresh telemetry when the joint names (or foot names) no longer match it.
    fn renew_telemetry_for_joints(&mut self, s: &SimSettings) {
        let names: Vec<String> = self.joints.iter().map(|j| j.name.clone()).collect();
        if names != self.telemetry.joint_names
            || self.balance.foot_names != self.telemetry.foot_names
        {
            self.telemetry = Telemetry::new(
                names,
                self.balance.foot_names.clone(),
                s.telemetry_capacity(),
            );
        }
    }

    /// Sets the drive targets of the listed joints (None: back to the rest pose). Only joints
    /// whose target changes are touched. Returns how many changed.
    pub fn set_targets(
        &mut self,
        world: &mut PhysicsWorld,
        targets: &[(BoneId, Option<Quat>)],
        s: &SimSettings,
    ) -> usize {
        let on = self.drives_on(s);
        let mut changed = 0;
        for &(bone, target) in targets {
            let Some(j) = self.joints.iter_mut().find(|j| j.spec.bone == bone) else {
                continue;
            };
            let gains = joints::motor_gains(&j.spec.drive, on, s.gain_multiplier, target.is_some());
            changed += joints::set_target(world, j, target, gains, Some(s.dt_s)) as usize;
        }
        changed
    }

    /// Re-applies motor gains after a drives or gain-multiplier change.
    pub fn regain(&mut self, world: &mut PhysicsWorld, s: &SimSettings) {
        let on = self.drives_on(s);
        for j in &mut self.joints {
            let following = j.target.is_some();
            let gains = joints::motor_gains(&j.spec.drive, on, s.gain_multiplier, following);
            let spec = j.spec.clone();
            joints::update(world, &self.bodies, j, spec, gains);
        }
    }
}
