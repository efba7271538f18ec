//! Simulation settings: solver, gravity, pacing and switches. The defaults are the tuned
//! editor settings (see the module docs); [`SimSettings::crowd`] is Rapier's own solver
//! defaults at the same rate.

use crate::document::Document;
use glam::Vec3;
use rapier3d::prelude::IntegrationParameters;

/// The height of the reference character `length_unit` 1 stands for (m), in the
/// simulation's f32 ([`crate::joint::inertia::REFERENCE_HEIGHT_M`]).
pub const REFERENCE_HEIGHT_M: f32 = crate::joint::inertia::REFERENCE_HEIGHT_M as f32;
/// The mass of the reference character `mass_unit` 1 stands for (kg), in f32.
pub const REFERENCE_MASS_KG: f32 = crate::joint::inertia::REFERENCE_MASS_KG as f32;
/// Within this factor of the reference size either way, contacts keep their tuned stiffness
/// ([`SimSettings::contact_time_scale`]).
pub const CONTACT_TUNED_SIZES: f32 = 3.0;

/// The character's mass relative to [`REFERENCE_MASS_KG`]: the sum of its bodies' masses,
/// clamped to 1e-12..1e15; 1 without any.
pub fn mass_unit_for(doc: &Document) -> f32 {
    let total: f64 = doc
        .bones
        .iter()
        .filter_map(|b| b.physics.as_ref())
        .filter(|p| p.collider.is_some() && p.mass.is_finite() && p.mass > 0.0)
        .map(|p| p.mass)
        .sum();
    if total.is_finite() && total > 0.0 {
        ((total as f32) / REFERENCE_MASS_KG).clamp(1e-12, 1e15)
    } else {
        1.0
    }
}

/// The character's size relative to [`REFERENCE_HEIGHT_M`]: the vertical extent of its
/// colliders at rest (bounding spheres, world units), clamped to 1e-3..1e3; 1 without any.
pub fn length_unit_for(doc: &Document) -> f32 {
    let spheres = doc.bone_ids().filter_map(|id| {
        let c = doc.bone(id).collider()?;
        let r = crate::joint::inertia::bounding_radius(&doc.world_shape(id, &c.shape));
        let place = doc.body_from_collider(id, c);
        let world = doc.skeleton.nodes[doc.bone(id).node].world_from_node;
        let (_, rot, pos) = world.to_scale_rotation_translation();
        Some(((pos + rot * place.translation).y, r))
    });
    crate::joint::inertia::length_unit(spheres, f64::from(REFERENCE_HEIGHT_M)) as f32
}

/// A rag doll's body is quiet while no point of it moves faster than this share of the
/// character's height per second (see [`SimSettings::let_sleep`]). It is the doctor's bar for
/// a body at rest (1% of the height per second, issue 17), taken at the body's farthest point,
/// which moves at least as fast as its origin: a ragdoll sleeps only once every body of it is
/// at rest by that bar, so sleeping never stops a motion the bar would count. Rapier's default
/// (0.1 m/s at the farthest point of a 1.75 m character, 5.7% of its height per second) and
/// Jolt's (0.03 m/s, 1.7%) are looser. Measured on the zoo's passive runs
/// (`tests/it/doctor.rs`): at 1% all 13 sleep by 8.6 s but the lumberjack, whose arms jitter
/// at 0.7-0.8%; at Jolt's 1.7% it sleeps too (7.2 s) and the others up to 0.6 s sooner, but
/// a body still moving at 1-1.7% could be frozen.
pub const SLEEP_SPEED_SHARE: f32 = 0.01;
/// A rag doll sleeps once every body of its island has been quiet this long (s): Rapier's
/// and Jolt's default `time_until_sleep` / `mTimeBeforeSleep`.
pub const SLEEP_AFTER_S: f32 = 0.5;

/// Under this length unit (a character under half the reference height) the step holds
/// contacts as at the reference size only with more help: it gets at least
/// [`SMALL_STABILIZATION_ITERATIONS`], and (under the reference size already) its
/// corrective-velocity cap shrinks with its size rather than with natural speeds. The step
/// stays 1/120 s, and a small character gets at most 8 times the substeps where its natural
/// time is 10 times shorter (x0.01): lying still, the zoo's rag dolls at 2 cm slid on the
/// ground at 1% of their height per second and never slept (`tools/settle_ensemble.py`, K = 8, the zoo x0.01: 51 of 104 runs over
/// the bar after 5 s, 34 with these).
pub const SMALL_UNIT: f32 = 0.5;
/// Stabilization iterations per substep under [`SMALL_UNIT`] (Rapier's default is 1).
pub const SMALL_STABILIZATION_ITERATIONS: usize = 4;

/// Which solver parameters a world steps with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverPreset {
    /// The editor's own: `substeps`, `solver_iterations`, `stabilization_iterations`,
    /// joint warm-starting and `max_corrective_velocity` from these settings.
    Editor,
    /// Rapier's `IntegrationParameters::default()` with this settings' `dt_s`.
    RapierDefault,
}

/// Everything about how the world steps that is not in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct SimSettings {
    /// Fixed timestep (s). Default 1/120.
    pub dt_s: f32,
    /// Solver substeps per step (Rapier `num_solver_iterations`). Default 16: with 8, ragdolls
    /// lying on the ground crept on (legs folding, arms toppling at a steady 1-12% of their
    /// height per second, 5-10 s into a passive run) on 4 of the 13 zoo characters, whatever
    /// the damping, friction, PGS iterations or contact settings; the sequential solver's
    /// error under a sustained load is what gave way. With 16 none of those four does (the
    /// runs are chaotic: over damping 2-8/s, 3-6 characters moved in their last second with
    /// 8 substeps, 0-4 with 16). It costs twice the solver work per step.
    pub substeps: usize,
    /// PGS iterations per substep (`num_internal_pgs_iterations`). Default 8.
    pub solver_iterations: usize,
    /// Stabilization iterations per substep. Default 1.
    pub stabilization_iterations: usize,
    /// Warm-start joint impulses across steps. Default true.
    pub warmstart_joints: bool,
    /// Rapier's `normalized_max_corrective_velocity`. Default 20.
    pub max_corrective_velocity: f32,
    pub preset: SolverPreset,
    /// Gravity in the world frame (m/s^2). Default (0, -9.81, 0).
    pub gravity_m_s2: Vec3,
    /// Simulated seconds per wall-clock second in [`super::Simulation::advance`]. Default 1.
    /// The timestep stays fixed; only how many steps run per wall second changes.
    pub time_scale: f32,
    /// PD drives toward the target pose. Default on.
    pub drives: bool,
    /// Active balance (also needs the document's `balance.enabled`). Default on.
    pub balance: bool,
    /// Multiplies every joint's drive stiffness and damping. Default 1.
    pub gain_multiplier: f32,
    /// Friction coefficient of every collider and the ground. Default 0.8.
    pub friction: f32,
    /// Floor on each principal moment of inertia (kg*m^2); masses are unchanged. Default 0.02.
    /// This is the mass-ratio handling: light hands and feet on heavy limbs stay stiff.
    pub inertia_floor_kg_m2: f32,
    /// A body faster than this pauses the simulation (m/s). Default 100.
    pub max_linear_speed_m_s: f32,
    /// A body spinning faster than this pauses the simulation (rad/s). Default 1000.
    pub max_angular_speed_rad_s: f32,
    /// Seconds of telemetry kept in the ring buffers (at least 20). Default 20.
    pub telemetry_seconds: f32,
    /// Record per-joint and whole-body telemetry every step. Default on.
    pub telemetry: bool,
    /// The character's size relative to a 1.75 m human (Rapier's `length_unit` is this in
    /// metres). The guard's speed limits, the inertia floor, the balance controller's
    /// distances and the editor's push strength scale with it. Default 1.
    pub length_unit: f32,
    /// The character's mass relative to a 70 kg human. With `length_unit` it sizes the
    /// inertia floor: a root scaled by 10 over unchanged masses is 10 times longer, not 1000
    /// times heavier. Default 1.
    pub mass_unit: f32,
    /// Set `length_unit` and `mass_unit` from the document's character when a simulation is
    /// built. Default on.
    pub auto_length_unit: bool,
    /// Let a rag doll (drives and balance off, no clip) sleep once its island is quiet, as
    /// Rapier, Jolt, PhysX and Unity do by default (see [`SimSettings::let_sleep`]).
    /// Default on.
    pub sleep: bool,
    /// Let a rag doll that has come down drain its last slow motion so that it comes to rest
    /// (PhysX's stabilization; see [`super::settle`]). Only where it may sleep. Default on.
    pub settle: bool,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self {
            dt_s: 1.0 / 120.0,
            substeps: 16,
            solver_iterations: 8,
            stabilization_iterations: 1,
            warmstart_joints: true,
            max_corrective_velocity: 20.0,
            preset: SolverPreset::Editor,
            gravity_m_s2: Vec3::new(0.0, -9.81, 0.0),
            time_scale: 1.0,
            drives: true,
            balance: true,
            gain_multiplier: 1.0,
            friction: 0.8,
            inertia_floor_kg_m2: 0.02,
            max_linear_speed_m_s: 100.0,
            max_angular_speed_rad_s: 1000.0,
            telemetry_seconds: 20.0,
            telemetry: true,
            length_unit: 1.0,
            mass_unit: 1.0,
            auto_length_unit: true,
            sleep: true,
            settle: true,
        }
    }
}

impl SimSettings {
    /// Rapier's default solver settings, one step per 1/120 s (the `crowd` bench case).
    pub fn crowd() -> Self {
        Self {
            preset: SolverPreset::RapierDefault,
            ..Self::default()
        }
    }

    /// No drives and no balance: a rag doll.
    pub fn passive() -> Self {
        Self {
            drives: false,
            balance: false,
            ..Self::default()
        }
    }

    /// Rapier's parameters for these settings; `following_clip` picks the substeps
    /// ([`SimSettings::substeps_following_clip`] or [`SimSettings::substeps_at_size`]).
    pub fn integration_parameters(&self, following_clip: bool) -> IntegrationParameters {
        let mut p = IntegrationParameters {
            dt: self.dt_s,
            length_unit: self.unit(),
            ..IntegrationParameters::default()
        };
        if self.preset == SolverPreset::Editor {
            p.num_solver_iterations = match following_clip {
                true => self.substeps_following_clip(),
                false => self.substeps_at_size(),
            };
            p.num_internal_pgs_iterations = self.solver_iterations.max(1);
            p.num_internal_stabilization_iterations = self.stabilization_iterations_at_size();
            p.warmstart_joints = self.warmstart_joints;
            // Rapier multiplies this by length_unit; natural speeds scale with its square root.
            // Under the reference size the cap shrinks with the size itself (`SMALL_UNIT`).
            p.normalized_max_corrective_velocity =
                self.max_corrective_velocity / self.unit().sqrt().max(1.0);
            let by_size = self.contact_time_scale();
            p.contact_softness.natural_frequency /= by_size;
            p.static_contact_softness.natural_frequency /= by_size;
        }
        p
    }

    /// Stabilization iterations per substep at the character's size: at least
    /// [`SMALL_STABILIZATION_ITERATIONS`] under [`SMALL_UNIT`].
    pub fn stabilization_iterations_at_size(&self) -> usize {
        if self.unit() < SMALL_UNIT {
            self.stabilization_iterations
                .max(SMALL_STABILIZATION_ITERATIONS)
        } else {
            self.stabilization_iterations
        }
    }

    /// How much slower than at the reference size the contacts respond: the character's
    /// [`SimSettings::natural_time_scale`]. Contacts soften like its own natural frequencies
    /// (sqrt(g/L)) beyond
    /// [`CONTACT_TUNED_SIZES`] times the reference size either way, within which they keep
    /// the 30 Hz the shipped characters were tuned with (continuous at its ends). At a fixed
    /// 30 Hz a 3.5 cm dragon sank through its landing and fell (tilt 39°), and a 221 m rat
    /// stood on contacts ten times stiffer than at its size (tilt 16°); scaled all the way
    /// down to 1, the mannequin's 1.1% softer contacts moved its limit-violation tests past
    /// their bounds, and from 2x the 4.8 m horse's 17% softer contacts kept it moving.
    pub fn contact_time_scale(&self) -> f32 {
        self.natural_time_scale()
    }

    /// Ring-buffer capacity in steps: `telemetry_seconds` (at least 20 s) at the step rate.
    pub fn telemetry_capacity(&self) -> usize {
        let secs = self.telemetry_seconds.max(20.0);
        (secs / self.dt_s.max(1e-6)).ceil() as usize
    }

    /// `length_unit`, sanitised (1 when not a positive finite number).
    pub fn unit(&self) -> f32 {
        if self.length_unit.is_finite() && self.length_unit > 0.0 {
            self.length_unit
        } else {
            1.0
        }
    }

    /// Substeps at this size for the character's own motion: a character smaller than the
    /// reference moves faster (its time scale is sqrt(L/g)), so it gets proportionally more
    /// substeps (at most 8x), keeping the solver's work per unit of its own motion the same.
    /// A giant beyond [`CONTACT_TUNED_SIZES`] moves slower by its
    /// [`SimSettings::natural_time_scale`] and gets that many times fewer (at least one): its
    /// substep is then as long in its own time as a person's, and its contacts already soften
    /// by the same scale. The glTF Fox (79 units, scale 4.06) takes 4; the zoo at x100 stood
    /// and collapsed as with 16 (collapse times within 0.7 s of 2.5-18.5 s, but the rat's 10.6 ->
    /// 12.3 s of a 33.7 s budget).
    pub fn substeps_at_size(&self) -> usize {
        let slower = self.natural_time_scale();
        if slower > 1.0 {
            return ((self.substeps.max(1) as f32 / slower).round() as usize).max(1);
        }
        self.substeps_following_clip()
    }

    /// Substeps while a clip is followed: a clip moves at the speeds it was authored with,
    /// not at the character's natural pace, so a giant gets no fewer than the reference size.
    /// A file in centimetres read as metres turns its joints in its walk as fast at 79 units
    /// as at 0.79: the glTF Fox following its walk at a quarter of the substeps lagged 2.63°
    /// at its worst joint, against 1.24°.
    pub fn substeps_following_clip(&self) -> usize {
        let base = self.substeps.max(1);
        let k = (1.0 / self.unit().sqrt()).clamp(1.0, 8.0);
        ((base as f32 * k).round() as usize).max(base)
    }

    /// `mass_unit`, sanitised (1 when not a positive finite number).
    pub fn mass_scale(&self) -> f32 {
        if self.mass_unit.is_finite() && self.mass_unit > 0.0 {
            self.mass_unit
        } else {
            1.0
        }
    }

    /// The inertia floor for this character (kg*m^2): `inertia_floor_kg_m2` at the reference
    /// size and mass, scaled by [`crate::joint::inertia::inertia_floor`] (`length_unit` is
    /// measured from the colliders' extent, the mass from the file; the generator keeps its
    /// inertia ratios with the same floor).
    pub fn inertia_floor(&self) -> f32 {
        crate::joint::inertia::inertia_floor(
            self.inertia_floor_kg_m2,
            self.unit(),
            self.mass_scale(),
        )
    }

    /// The heaviest body the simulation takes at this size (kg): 1e9 kg for a 1.75 m
    /// character, scaling with its volume like the masses it is given.
    pub fn max_mass_kg(&self) -> f64 {
        1.0e9 * (self.unit() as f64).powi(3)
    }

    /// The largest inertia floor (`min_inertia_kg_m2`) the simulation takes at this size
    /// (kg * world units squared): a body of [`Self::max_mass_kg`] a character's height long.
    pub fn max_inertia_kg_m2(&self) -> f64 {
        let length = REFERENCE_HEIGHT_M as f64 * self.unit() as f64;
        self.max_mass_kg() * length * length
    }

    /// The guard's linear speed limit at this size: natural speeds scale with sqrt(g*L).
    pub fn max_linear_speed(&self) -> f32 {
        self.max_linear_speed_m_s * self.unit().sqrt()
    }

    /// The guard's angular speed limit at this size: natural rates scale with sqrt(g/L).
    pub fn max_angular_speed(&self) -> f32 {
        self.max_angular_speed_rad_s / self.unit().sqrt()
    }

    /// Gives a body the activation of one that may sleep: quiet below
    /// [`SimSettings::sleep_speed_share`] of the character's height per second at its farthest
    /// point, for [`SimSettings::sleep_after_s`]. Rapier compares half a body's farthest-point
    /// travel over a step with `normalized_linear_threshold * length_unit * dt`, and
    /// `length_unit` is the height over 1.75 m. The angular threshold only applies to bodies
    /// without a collider (ours all have one); Rapier's default is kept.
    pub fn let_sleep(&self, a: &mut rapier3d::prelude::RigidBodyActivation) {
        a.normalized_linear_threshold = self.sleep_speed_share() * REFERENCE_HEIGHT_M / 2.0;
        a.angular_threshold = rapier3d::prelude::RigidBodyActivation::default_angular_threshold();
        a.time_until_sleep = self.sleep_after_s();
    }

    /// The sleep threshold as a share of the height per second: [`SLEEP_SPEED_SHARE`] within
    /// [`CONTACT_TUNED_SIZES`] times the reference size; beyond, it falls like natural speeds
    /// (sqrt(g*L), continuous at 3x), so a larger character's is a smaller share of its height.
    /// A character placed standing starts still and tips over slowly (its speeds grow with g,
    /// not with its size): at 1% and 0.5 s, the passive mannequin at 10 and 100 times its size
    /// slept standing before it could fall. Scaled from 1x instead of 3x, the 4.8 m horse (2.7x)
    /// no longer slept before its neck slid at 7 s.
    pub fn sleep_speed_share(&self) -> f32 {
        SLEEP_SPEED_SHARE / self.beyond_tuned_size().sqrt()
    }

    /// How long a character must stay quiet to sleep (s): [`SLEEP_AFTER_S`] within
    /// [`CONTACT_TUNED_SIZES`] times the reference size; beyond, like natural times
    /// (sqrt(L/g)). Smaller characters keep 0.5 s, which is more of their own time.
    pub fn sleep_after_s(&self) -> f32 {
        SLEEP_AFTER_S * self.natural_time_scale().max(1.0)
    }

    /// How much longer than at the reference size this character's motions take: its natural
    /// times (sqrt(L/g)) beyond [`CONTACT_TUNED_SIZES`] times the reference size either way,
    /// 1 within (the band whose characters every time in the editor was measured on),
    /// continuous at its ends. A 150 m character falls five times slower than a 5 m one: what
    /// gives a person 5 s to fall after a push must give it 27 s; a 1.5 cm one falls six
    /// times faster than a 58 cm one.
    pub fn natural_time_scale(&self) -> f32 {
        let u = self.unit();
        let k = CONTACT_TUNED_SIZES;
        let beyond = if u > k {
            u / k
        } else if u * k < 1.0 {
            u * k
        } else {
            1.0
        };
        beyond.sqrt()
    }

    /// How many times larger than [`CONTACT_TUNED_SIZES`] times the reference the character
    /// is (1 within it or below).
    fn beyond_tuned_size(&self) -> f32 {
        (self.unit() / CONTACT_TUNED_SIZES).max(1.0)
    }

    /// Steps per simulated second.
    pub fn rate_hz(&self) -> f32 {
        1.0 / self.dt_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(length_unit: f32) -> SimSettings {
        SimSettings {
            length_unit,
            ..SimSettings::default()
        }
    }

    /// A giant beyond three times a person's size takes fewer substeps by its time scale
    /// (at least one), unless it follows a clip; a small character more either way, at most 8x.
    #[test]
    fn substeps_follow_the_pace_of_the_motion() {
        let own = |u: f32| at(u).substeps_at_size();
        let clip = |u: f32| at(u).substeps_following_clip();
        for u in [1.0, 3.0, 12.0, 300.0, 1.0e6] {
            assert_eq!(clip(u), 16, "{u}");
        }
        assert_eq!(
            (own(1.0), own(3.0), own(12.0), own(300.0), own(1.0e6)),
            (16, 16, 8, 2, 1)
        );
        for u in [0.25, 1.0 / 300.0] {
            assert_eq!(own(u), clip(u), "{u}");
        }
        assert_eq!((own(0.25), own(1.0 / 300.0)), (32, 128));
    }

    /// Times keep a person's within three times a person's size either way, and scale like
    /// a pendulum's period beyond, continuous at both ends; sleeping waits as much longer for
    /// a giant and never less than a person's 0.5 s.
    #[test]
    fn times_scale_with_the_root_of_the_size_beyond_three_times_a_persons() {
        for u in [1.0 / 3.0, 0.5, 1.0, 2.9, 3.0] {
            assert_eq!(at(u).natural_time_scale(), 1.0, "{u}");
        }
        assert!((at(12.0).natural_time_scale() - 2.0).abs() < 1e-6);
        assert!((at(300.0).natural_time_scale() - 10.0).abs() < 1e-5);
        assert!((at(3.0001).natural_time_scale() - 1.0).abs() < 1e-4);
        assert!((at(1.0 / 12.0).natural_time_scale() - 0.5).abs() < 1e-6);
        assert!((at(1.0 / 300.0).natural_time_scale() - 0.1).abs() < 1e-6);
        assert_eq!(at(300.0).sleep_after_s(), SLEEP_AFTER_S * 10.0);
        assert_eq!(at(1.0 / 300.0).sleep_after_s(), SLEEP_AFTER_S);
        assert_eq!(at(0.01).contact_time_scale(), at(0.01).natural_time_scale());
    }
}
