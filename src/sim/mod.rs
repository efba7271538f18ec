//! The live simulation: a Rapier world built from a [`Document`], updated in place by edits
//! ([`Simulation::sync`]), stepped at a fixed timestep, with PD drives, active balance,
//! per-joint telemetry and a stability guard. No UI here.
//!
//! Units and frames: Rapier works in f32 metres, kilograms, seconds and radians; the
//! document's degrees are converted at this boundary (`_deg` / `_rad` in names).
//! Collision groups: see [`world`]. Defaults: see [`SimSettings`].

mod balance;
mod contact_order;
pub mod effort;
mod error;
mod fall;
pub mod follow;
mod guard;
mod hip;
mod interact;
mod joints;
mod knockout;
pub use knockout::{knockout_floor_m_s, KNOCKOUT_FLOOR_M_S};
mod pairs;
mod pause;
mod ragdoll;
pub mod scene;
mod settings;
mod settle;
mod sleep;
mod snapshot;
mod spin;
mod step;
pub mod telemetry;
pub mod world;

pub use crate::joint::JointLimits;
pub use balance::{BalanceBones, BalanceSource, FELL_PELVIS_RATIO, FELL_TILT_DEG};
pub use follow::{ClipDriver, RootMode};
pub use settings::{
    length_unit_for, mass_unit_for, SimSettings, SolverPreset, CONTACT_TUNED_SIZES,
    REFERENCE_HEIGHT_M, REFERENCE_MASS_KG, SLEEP_AFTER_S, SLEEP_SPEED_SHARE,
};
pub use telemetry::{BodySample, FrameRing, JointSample, JointStats, Telemetry};
pub use world::GroupMap;
pub use {
    effort::Effort,
    error::{SimError, SimPause},
};

use crate::document::{BoneId, Document};
use glam::Vec3;
use ragdoll::Ragdoll;
use rapier3d::prelude::*;

/// A running simulation of one (or, for benchmarks, several) copies of a document's ragdoll.
pub struct Simulation {
    world: PhysicsWorld,
    ground: ColliderHandle,
    /// Solves mirrored contacts in mirrored order (see [`contact_order`]) and filters
    /// explicit collision pairs (see [`pairs`]).
    hooks: pairs::Hooks,
    groups: GroupMap,
    dolls: Vec<Ragdoll>,
    settings: SimSettings,
    applied: SimSettings,
    time_s: f64,
    steps: u64,
    paused: Option<SimPause>,
    /// Set by external changes (impulses, velocities): check bodies before the next step.
    check_before_step: bool,
    accumulator_s: f64,
    /// The animation clip the drives follow, if one plays.
    clip: Option<ClipDriver>,
    /// Whether the bodies were last given the activation of bodies that may sleep.
    may_sleep: bool,
}

impl Simulation {
    /// One ragdoll at its rest pose on the ground plane.
    pub fn new(doc: &Document, settings: SimSettings) -> Result<Self, SimError> {
        Self::with_copies(doc, settings, 1)
    }

    /// `count` copies of the ragdoll on a 3 m grid (benchmarks, crowds).
    pub fn with_copies(
        doc: &Document,
        settings: SimSettings,
        count: usize,
    ) -> Result<Self, SimError> {
        let settings = with_document_units(doc, settings);
        let mut world = PhysicsWorld::new();
        world.integration_parameters = settings.integration_parameters(false);
        world.gravity = settings.gravity_m_s2;
        let ground_y = doc.ground_y() as f32;
        let ground = world::insert_ground(&mut world, &settings, ground_y);
        let groups = GroupMap::from_document(doc)?;
        let side = (count as f32).sqrt().ceil().max(1.0) as usize;
        let (axis, mid) = crate::mirror::mid_plane(doc);
        let contact_order = contact_order::MirrorContactOrder::new(axis.as_vec3(), settings.unit());
        let explicit = crate::document::pairs::explicit_pairs(doc);
        let mut filter = pairs::PairFilter::new(explicit.clone());
        let mut dolls = Vec::with_capacity(count);
        for i in 0..count {
            let offset = copy_offset(i, side, &settings);
            let placed = ragdoll::Placement {
                offset,
                mirror: contact_order,
                ground_y,
            };
            let doll = Ragdoll::build(&mut world, doc, (&groups, &explicit), &settings, placed)?;
            let mid = mid as f32 + offset.dot(contact_order.axis());
            tag_copy(&mut world, &doll, mid, i, &groups, &mut filter);
            dolls.push(doll);
        }
        let mut sim = Simulation {
            world,
            ground,
            hooks: pairs::Hooks {
                order: contact_order,
                pairs: filter,
            },
            groups,
            dolls,
            applied: settings.clone(),
            settings,
            time_s: 0.0,
            steps: 0,
            paused: None,
            check_before_step: false,
            accumulator_s: 0.0,
            clip: None,
            may_sleep: false,
        };
        sim.apply_sleep(true);
        sim.measure_initial_state();
        Ok(sim)
    }

    /// Whole-body state of every copy before the first step (no telemetry recorded).
    fn measure_initial_state(&mut self) {
        for d in &mut self.dolls {
            // Before the first step no guard: a bad start is caught by the check before it.
            d.read_bodies(&self.world, None);
            d.measure(&self.world, self.ground, 0, 0.0, &self.settings, false);
        }
    }

    /// Advances one fixed step: settings changes, controllers, Rapier, guard, telemetry.
    /// While paused nothing moves and the pause is returned.
    pub fn step(&mut self) -> Result<(), SimPause> {
        if let Some(p) = &self.paused {
            return Err(p.clone());
        }
        self.apply_settings();
        self.apply_sleep(false);
        if self.check_before_step {
            self.check_before_step = false;
            self.guard()?;
        }
        if let Some(driver) = self.clip.take() {
            let followed = driver.before_step(self);
            self.clip = Some(driver);
            if let Err(e) = followed {
                let p = SimPause {
                    step: self.steps,
                    time_s: self.time_s,
                    bone: String::new(),
                    reason: format!("the clip could not be followed: {e}"),
                };
                self.paused = Some(p.clone());
                return Err(p);
            }
        }
        let clip = self.clip.is_some();
        for d in &mut self.dolls {
            d.control(&mut self.world, &self.settings, clip);
        }
        self.world.step_with_events(&self.hooks, &());
        for d in &mut self.dolls {
            d.cap_angular_speed(&mut self.world);
            if self.may_sleep && self.settings.settle {
                spin::resist_spin(&mut self.world, &d.bodies, self.ground);
                d.settle.damp(&mut self.world, &d.bodies, &self.settings);
            }
        }
        self.time_s += self.settings.dt_s as f64;
        self.steps += 1;
        self.read_bodies()?;
        // Only ragdoll 0's telemetry is read (the editor's plots, the reports, `tune`): the
        // copies of a crowd measure what their controllers and falls need and record nothing.
        for (i, d) in self.dolls.iter_mut().enumerate() {
            let record = i == 0 && self.settings.telemetry;
            let (step, t) = (self.steps, self.time_s);
            d.measure(&self.world, self.ground, step, t, &self.settings, record);
        }
        Ok(())
    }

    /// Steps Rapier alone, with none of this layer's work (benchmarks' bare baseline). The
    /// ground's contact order is part of the world, as its joints are: without it the bare
    /// world would move differently and cost differently.
    pub fn step_bare(&mut self) {
        self.world.step_with_events(&self.hooks, &());
        self.time_s += self.settings.dt_s as f64;
        self.steps += 1;
    }

    /// Runs as many fixed steps as `wall_s` of real time asks for at `time_scale`
    /// (at most `max_steps`). Returns the steps taken.
    pub fn advance(&mut self, wall_s: f64, max_steps: usize) -> Result<usize, SimPause> {
        self.accumulator_s += wall_s * self.settings.time_scale as f64;
        let dt = self.settings.dt_s as f64;
        let mut n = 0;
        while self.accumulator_s >= dt && n < max_steps {
            self.step()?;
            self.accumulator_s -= dt;
            n += 1;
        }
        if n == max_steps {
            self.accumulator_s = self.accumulator_s.min(dt);
        }
        Ok(n)
    }

    fn apply_settings(&mut self) {
        if self.settings == self.applied {
            return;
        }
        let (s, old) = (self.settings.clone(), self.applied.clone());
        self.set_integration_parameters();
        self.world.gravity = s.gravity_m_s2;
        if s.drives != old.drives || s.gain_multiplier != old.gain_multiplier {
            for d in &mut self.dolls {
                d.regain(&mut self.world, &s);
            }
        }
        if s.friction != old.friction || s.inertia_floor() != old.inertia_floor() {
            for d in &mut self.dolls {
                for b in &d.bodies {
                    let Some(col) = self.world.colliders.get_mut(b.collider) else {
                        continue;
                    };
                    col.set_friction(world::friction(&b.built.material, &s));
                    let (shape, built) = (col.shared_shape(), &b.built);
                    if let Ok(mp) =
                        world::mass_properties(&b.name, shape, built.mass_kg, &built.material, &s)
                    {
                        col.set_mass_properties(mp);
                    }
                }
            }
        }
        self.applied = s;
        self.wake_all();
        self.apply_sleep(true);
    }

    /// Applies the document's current physics to the running world in place: limits, axes,
    /// gains, masses, collider sizes and offsets, groups and balance settings. Body handles
    /// and time continue. Adding or removing a body is refused with [`SimError::NeedsRebuild`].
    /// Returns how many bodies, joints or rigs changed.
    pub fn sync(&mut self, doc: &Document) -> Result<usize, SimError> {
        let groups = GroupMap::from_document(doc)?;
        let groups_changed = groups != self.groups;
        let ground_y = doc.ground_y() as f32;
        let mut changed = 0;
        for d in &mut self.dolls {
            changed += d.sync(
                &mut self.world,
                doc,
                &groups,
                groups_changed,
                (&self.settings, ground_y),
            )?;
        }
        changed += self.place_ground(ground_y) as usize;
        self.groups = groups;
        if changed > 0 {
            self.wake_all();
        }
        Ok(changed)
    }

    /// The height (world y) of the ground plane ([`Document::ground_y`] when built or synced).
    pub fn ground_y(&self) -> f32 {
        self.dolls[0].fall.ground_y()
    }

    /// Moves the ground plane to `ground_y` (an edit moved the rest pose's lowest collider off
    /// the plane, or back). Returns whether it moved.
    fn place_ground(&mut self, ground_y: f32) -> bool {
        let Some(body) = self
            .world
            .colliders
            .get(self.ground)
            .and_then(|c| c.parent())
        else {
            return false;
        };
        let Some(rb) = self.world.bodies.get_mut(body) else {
            return false;
        };
        if rb.translation().y == ground_y {
            return false;
        }
        rb.set_translation(Vec3::new(0.0, ground_y, 0.0), true);
        true
    }

    /// The settings; changes through [`Simulation::settings_mut`] apply at the next step.
    pub fn settings(&self) -> &SimSettings {
        &self.settings
    }

    pub fn settings_mut(&mut self) -> &mut SimSettings {
        &mut self.settings
    }

    pub fn time_s(&self) -> f64 {
        self.time_s
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    pub fn paused(&self) -> Option<&SimPause> {
        self.paused.as_ref()
    }

    /// Clears a pause (the bad state is still there unless something changed it).
    pub fn resume(&mut self) {
        self.paused = None;
    }

    pub fn ragdoll_count(&self) -> usize {
        self.dolls.len()
    }

    /// Telemetry of ragdoll 0.
    pub fn telemetry(&self) -> &Telemetry {
        &self.dolls[0].telemetry
    }

    /// The balance bones ragdoll 0 uses, and where they came from.
    pub fn balance_bones(&self) -> &BalanceBones {
        &self.dolls[0].balance.bones
    }

    /// True when ragdoll 0 has an upright joint, so its external assist is measured.
    pub fn assist_measured(&self) -> bool {
        self.dolls[0].balance.upright.is_some()
    }

    /// True when torso tilt is measured (a torso body was resolved).
    pub fn tilt_measured(&self) -> bool {
        self.dolls[0].fall.tilt_measured()
    }

    /// Ragdoll 0's stance now: the direction in its torso's frame that is vertical (None
    /// when no tilt is measured). [`Simulation::tilt_from_deg`] measures from it.
    pub fn stance_up_in_torso(&self) -> Option<Vec3> {
        let d = &self.dolls[0];
        d.fall.up_in_torso_now(&self.world, &d.bodies)
    }

    /// Ragdoll 0's torso tilt (degrees) from a stance ([`Simulation::stance_up_in_torso`]);
    /// NaN when not measured.
    pub fn tilt_from_deg(&self, up_in_torso: Vec3) -> f32 {
        let d = &self.dolls[0];
        d.fall.tilt_from_deg(&self.world, &d.bodies, up_in_torso)
    }

    /// True when falls are detected (a torso or pelvis body was resolved).
    pub fn falls_measured(&self) -> bool {
        self.dolls[0].fall.measured()
    }

    /// The impulse of one unit of editor push (N*s): 1 N*s for a 70 kg, 1.75 m character,
    /// scaled by mass and by the square root of the size (the speeds it gives scale so).
    pub fn push_scale(&self) -> f32 {
        let m = self.dolls[0].total_mass_kg.max(1e-9);
        m / REFERENCE_MASS_KG * self.settings.unit().sqrt()
    }

    /// When ragdoll 0 fell (pelvis below 50% of rest height or torso tilt past 60 degrees).
    pub fn fell_at_s(&self) -> Option<f64> {
        self.dolls[0].fell_at_s
    }

    /// When ragdoll 0 was knocked out (its `balance.knockout_dv` passed), if it was.
    pub fn knocked_out_at_s(&self) -> Option<f64> {
        self.dolls[0].knock.knocked_at_s
    }

    /// The largest sudden horizontal speed change of ragdoll 0's centre of mass while it stood
    /// (world units/s; what `balance.knockout_dv` is compared with).
    pub fn peak_impact_dv(&self) -> f32 {
        self.dolls[0].knock.peak_dv
    }

    pub fn groups(&self) -> &GroupMap {
        &self.groups
    }

    /// Plays an animation clip as the drive targets from the next step on (None stops it:
    /// drives back to the rest pose, root bodies dynamic again).
    pub fn set_clip(&mut self, clip: Option<ClipDriver>) -> Result<(), SimError> {
        if let Some(old) = self.clip.take() {
            old.release(self)?;
        }
        if let Some(d) = &clip {
            d.start(self)?;
        }
        self.clip = clip;
        self.set_integration_parameters();
        Ok(())
    }

    /// The world's solver parameters from the settings, with the substeps of what moves it
    /// now: the character's own pace, or a clip's ([`SimSettings::substeps_following_clip`]).
    fn set_integration_parameters(&mut self) {
        let following_clip = self.clip.is_some();
        self.world.integration_parameters = self.settings.integration_parameters(following_clip);
    }

    /// The clip being followed, if any.
    pub fn clip(&self) -> Option<&ClipDriver> {
        self.clip.as_ref()
    }

    /// The clip being followed, to change its playback (speed, loop, scrub).
    pub fn clip_mut(&mut self) -> Option<&mut ClipDriver> {
        self.clip.as_mut()
    }

    /// Sets drive targets (relative rotations, parent joint frame to child joint frame) on
    /// ragdoll 0's joints; bones not listed keep theirs. Targets are clamped into the joint's
    /// limits, so the drives never pull past them. `None` returns a joint to the rest pose.
    pub fn set_joint_targets(&mut self, targets: &[(BoneId, Option<glam::DQuat>)]) -> usize {
        let Some(d) = self.dolls.first_mut() else {
            return 0;
        };
        let clamped: Vec<(BoneId, Option<glam::Quat>)> = targets
            .iter()
            .map(|&(bone, t)| {
                let limits = d
                    .joints
                    .iter()
                    .find(|j| j.spec.bone == bone)
                    .map(|j| &j.spec.limits);
                let t = t.and_then(|q| Some(limits?.clamp(q).as_quat()));
                (bone, t)
            })
            .collect();
        d.set_targets(&mut self.world, &clamped, &self.settings)
    }

    /// Drops every drive target: all joints pull toward the rest pose again.
    pub fn clear_joint_targets(&mut self) {
        let bones: Vec<(BoneId, Option<glam::DQuat>)> = self
            .dolls
            .first()
            .map(|d| d.joints.iter().map(|j| (j.spec.bone, None)).collect())
            .unwrap_or_default();
        self.set_joint_targets(&bones);
    }

    /// Moves a pinned (kinematic) body to a world pose over the next step, so it pushes what it
    /// touches with the velocity that takes; pins it first if it is dynamic. For the root of a
    /// clip played with a kinematic root.
    pub fn drive_kinematic(&mut self, bone: BoneId, world_from_body: Pose) -> Result<(), SimError> {
        if !(world_from_body.translation.is_finite() && world_from_body.rotation.is_finite()) {
            return Err(SimError::BadInput(format!(
                "pose {world_from_body:?} is not finite"
            )));
        }
        self.set_pinned(bone, true)?;
        let rec = self.dolls[0].bodies.iter().find(|b| b.bone == bone);
        let rec = rec.ok_or_else(|| SimError::UnknownBone(format!("bone #{}", bone.0)))?;
        if let Some(body) = self.world.bodies.get_mut(rec.body) {
            body.set_next_kinematic_position(world_from_body);
        }
        Ok(())
    }

    /// Pins a bone's body in place (kinematic) or releases it (dynamic). Used to hold the
    /// pelvis while tuning limbs.
    pub fn set_pinned(&mut self, bone: BoneId, pinned: bool) -> Result<(), SimError> {
        let rec = self.dolls[0].bodies.iter().find(|b| b.bone == bone);
        let rec = rec.ok_or_else(|| SimError::UnknownBone(format!("bone #{}", bone.0)))?;
        let Some(body) = self.world.bodies.get_mut(rec.body) else {
            return Ok(());
        };
        let kind = if pinned {
            RigidBodyType::KinematicPositionBased
        } else {
            RigidBodyType::Dynamic
        };
        if body.body_type() != kind {
            body.set_body_type(kind, true);
            body.set_linvel(Vec3::ZERO, true);
            body.set_angvel(Vec3::ZERO, true);
        }
        Ok(())
    }

    /// A bone's current world pose (translation, rotation), if it has a body.
    pub fn world_from_body(&self, bone: &str) -> Option<Pose> {
        let h = self.body_of(0, bone).ok()?;
        Some(*self.world.bodies[h].position())
    }

    /// A bone's body handle (stable for the simulation's lifetime).
    pub fn body_handle(&self, bone: &str) -> Option<RigidBodyHandle> {
        self.body_of(0, bone).ok()
    }

    /// The current limits of a bone's joint, in radians.
    pub fn joint_limits(&self, bone: &str) -> Option<JointLimits> {
        self.dolls[0]
            .joints
            .iter()
            .find(|j| j.name == bone)
            .map(|j| j.spec.limits.clone())
    }

    /// Ragdoll 0's centre of mass (m, world).
    pub fn com(&self) -> Vec3 {
        self.dolls[0].com
    }

    /// A fingerprint of every body's pose, for determinism checks.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (_, rb) in self.world.bodies.iter() {
            let p = rb.position();
            for f in p
                .translation
                .to_array()
                .into_iter()
                .chain(p.rotation.to_array())
            {
                h = (h ^ f.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        h
    }

    /// The Rapier world, read only (for drawing).
    pub fn physics(&self) -> &PhysicsWorld {
        &self.world
    }
}

/// `settings` with the document's own length and mass units when it asks for them.
fn with_document_units(doc: &Document, settings: SimSettings) -> SimSettings {
    let mut settings = settings;
    if settings.auto_length_unit {
        settings.length_unit = settings::length_unit_for(doc);
        settings.mass_unit = settings::mass_unit_for(doc);
    }
    settings
}

/// Where copy `i` of a `side` x `side` grid stands (world frame, 3 character units apart).
fn copy_offset(i: usize, side: usize, settings: &SimSettings) -> Vec3 {
    let spacing = 3.0 * settings.unit();
    Vec3::new(
        (i % side) as f32 * spacing,
        0.0,
        (i / side) as f32 * spacing,
    )
}

/// Tags copy `copy`'s colliders with its mirror plane `mid` and registers its bodies in
/// explicit pairs with the pair filter.
fn tag_copy(
    world: &mut PhysicsWorld,
    doll: &Ragdoll,
    mid: f32,
    copy: usize,
    groups: &GroupMap,
    filter: &mut pairs::PairFilter,
) {
    for b in &doll.bodies {
        if let Some(c) = world.colliders.get_mut(b.collider) {
            contact_order::tag(c, mid);
        }
        if b.built.in_pair {
            let own = groups.interaction(&b.built.group, &b.built.mask);
            filter.register(b.collider, own, copy, b.bone);
        }
    }
}
