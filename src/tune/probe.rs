//! One simulated trial: a push from one direction, standing still, or following a clip with a
//! kinematic root, on the real [`Simulation`], measured as `simulate` measures it (falls and
//! tilt from the simulation's own gauge, limit violations and tracking errors from its
//! telemetry, the external assist from its effort meter) plus the work the motors do.

use crate::document::{Clip, Document};
use crate::sim::{ClipDriver, RootMode, SimError, SimSettings, Simulation};
use glam::Vec3;
use rapier3d::prelude::*;

/// Within this much of upright (degrees) counts as recovered. Upright is the stance the
/// character stood in when the push landed (`Simulation::stance_up_in_torso`), not its rest pose: the zoo rat stands
/// at assist 0 with its torso 5.6° from its rest pose (its legs give a little under it), so
/// against the rest pose it missed the goal after every push, however small, and the search
/// spent its few evaluations on a lean no gains remove.
pub const UPRIGHT_DEG: f32 = 5.0;
/// ... within this long after a push (s).
pub const RECOVER_S: f64 = 2.0;
/// When pushes land: after the character has settled on its feet (s).
pub const PUSH_AT_S: f64 = 1.0;

// Every trial time here (these, a push's run, standing) is a person's: a trial runs it times
// the character's [`SimSettings::natural_time_scale`] (1 within three times a person's size
// either way), so a giant, which falls slower, gets the time to fall a person gets, and a tiny
// character, which falls faster, no more than it needs.

/// How many times a person's trial times `sim`'s character's trials run.
pub fn time_scale(sim: &Simulation) -> f64 {
    f64::from(sim.settings().natural_time_scale())
}

/// The fixed steps of `person_s` trial seconds in `sim`'s world.
pub fn trial_steps(sim: &Simulation, person_s: f64) -> u64 {
    (person_s * time_scale(sim) / sim.settings().dt_s as f64).round() as u64
}

/// What one trial measured.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Trial {
    /// None: falls are not measured for this character.
    pub fell: Option<bool>,
    /// Seconds from the push (or start) to the fall.
    pub fell_after_s: Option<f64>,
    /// Largest torso tilt over the trial (degrees); NaN when not measured.
    pub max_tilt_deg: f32,
    /// Largest torso tilt from [`RECOVER_S`] (times the time scale) after the push to the end,
    /// from the stance the push landed on (degrees; see [`UPRIGHT_DEG`]).
    pub late_tilt_deg: f32,
    pub max_violation_deg: f32,
    /// None without an upright joint.
    pub assist_peak_n_m: Option<f32>,
    /// ∫|τ·ω| dt over the motors (J).
    pub work_j: f64,
    /// The stability guard stopped the run.
    pub paused: bool,
    /// Fixed steps simulated after the push (a fall ends a trial early): what it cost.
    pub steps: u64,
    /// Fixed steps the trial would have simulated had it run its full length.
    pub planned_steps: u64,
    /// The largest sudden horizontal speed change of the whole body while it stood, the
    /// settling included (world units/s; what `balance.knockout_dv` is compared with).
    pub peak_impact_dv: f32,
}

/// The work meter: |τ·ω_rel| of every joint motor over the last step (the solver's motor
/// impulse over the last substep as the torque, about the joint frame's axes).
fn motor_power_w(world: &PhysicsWorld, dt_sub: f32) -> f64 {
    let mut p = 0.0f64;
    for (_, j) in world.impulse_joints.iter() {
        let m = &j.data.motors;
        let local = Vec3::new(m[3].impulse, m[4].impulse, m[5].impulse);
        if local == Vec3::ZERO {
            continue;
        }
        let (Some(b1), Some(b2)) = (world.bodies.get(j.body1()), world.bodies.get(j.body2()))
        else {
            continue;
        };
        let frame = b1.rotation() * j.data.local_frame1.rotation;
        let tau = frame * local / dt_sub;
        let w = b2.angvel() - b1.angvel();
        p += tau.dot(w).abs() as f64;
    }
    p
}

/// The simulation settings of every trial: the defaults `simulate` uses.
pub fn settings() -> SimSettings {
    SimSettings::default()
}

/// Simulated seconds of `steps` fixed steps of a trial.
pub fn steps_s(steps: u64) -> f64 {
    steps as f64 * settings().dt_s as f64
}

/// What a step of a character's world costs: its dynamic bodies, its impulse joints (a ball
/// socket is several: see `sim::joints`), and its solver substeps (a small character gets
/// more: [`SimSettings::substeps_at_size`]); and how many times a person's its trial times
/// run ([`time_scale`]: a giant's trials simulate more steps, a tiny one's fewer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldSize {
    pub bodies: usize,
    pub joints: usize,
    pub substeps: usize,
    /// Solver substeps while a clip is followed (a giant's own are fewer:
    /// [`SimSettings::substeps_following_clip`]).
    pub clip_substeps: usize,
    pub time_scale: f64,
}

impl WorldSize {
    /// Simulated seconds of `person_s` trial seconds (a person's) of this character.
    pub fn trial_s(&self, person_s: f64) -> f64 {
        person_s * self.time_scale
    }

    /// The fixed steps of `person_s` trial seconds of this character.
    pub fn trial_steps(&self, person_s: f64) -> u64 {
        (self.trial_s(person_s) / settings().dt_s as f64).round() as u64
    }
}

/// `doc`'s world as the trials build it (drives on).
pub fn world_size(doc: &Document) -> Result<WorldSize, SimError> {
    let sim = Simulation::new(doc, settings())?;
    let w = sim.physics();
    Ok(WorldSize {
        bodies: w.bodies.iter().filter(|(_, b)| b.is_dynamic()).count(),
        joints: w.impulse_joints.len(),
        substeps: w.integration_parameters.num_solver_iterations,
        clip_substeps: sim.settings().substeps_following_clip(),
        time_scale: time_scale(&sim),
    })
}

/// The character built at rest and run to [`PUSH_AT_S`] (times the time scale): every trial of
/// one candidate starts from a clone of this (the settling is simulated once).
pub fn settle(doc: &Document) -> Result<Simulation, SimError> {
    let mut sim = Simulation::new(doc, settings())?;
    let steps = trial_steps(&sim, PUSH_AT_S);
    while sim.steps() < steps {
        if let Err(p) = sim.step() {
            return Err(SimError::BadInput(p.to_string()));
        }
    }
    Ok(sim)
}

/// Per joint, the furthest it strayed from its drive's target (the rest pose while
/// standing) since the world was built (degrees): how well the drives hold the pose.
pub fn pose_error_deg(sim: &Simulation) -> Vec<f32> {
    let t = sim.telemetry();
    t.joint_stats.iter().map(|s| s.max_error_deg).collect()
}

/// Whether the character fell while it settled ([`settle`]): down before any push.
pub fn fell_settling(settled: &Simulation) -> bool {
    settled.fell_at_s().is_some()
}

/// From a settled simulation: an impulse of `dv_m_s` × `mass_kg` along the horizontal unit
/// vector `dir` at the balance pelvis (none when `dv_m_s` is 0), then `after_s` seconds
/// (stopping at a fall when `stop_on_fall`).
pub fn push(
    settled: &Simulation,
    push: (Vec3, f32, f32),
    after_s: f64,
    stop_on_fall: bool,
) -> Trial {
    push_with_checkpoints(settled, push, after_s, stop_on_fall, &[]).0
}

/// A push's running figures between steps.
#[derive(Default)]
struct Running {
    trial: Trial,
    max_tilt: f32,
    late: f32,
    /// The stance the push landed on, which the recovery's tilt is measured from (the
    /// direction in the torso's frame that was vertical then; see [`UPRIGHT_DEG`]).
    stance_up_in_torso: Option<Vec3>,
    /// Simulated seconds after the push from which the tilt counts as the recovery's
    /// ([`RECOVER_S`] times the time scale).
    recover_s: f64,
}

impl Running {
    /// The trial as it stands after the last step (what a push ended here would return).
    fn snapshot(&self, sim: &Simulation, at: f64, (first, planned): (u64, u64)) -> Trial {
        let mut trial = self.trial;
        trial.steps = sim.steps() - first;
        trial.planned_steps = planned;
        finish(sim, at, &mut trial);
        if sim.tilt_measured() {
            trial.max_tilt_deg = self.max_tilt;
            trial.late_tilt_deg = self.late;
        }
        trial
    }

    /// Adds the step just taken: the motors' work, the tilt.
    fn step(&mut self, sim: &Simulation, at: f64, dt: f64) {
        self.trial.work_j += motor_power_w(sim.physics(), dt_sub(sim)) * dt;
        let tilt = sim
            .telemetry()
            .body
            .latest()
            .map_or(f32::NAN, |b| b[0].torso_tilt_deg);
        self.max_tilt = self.max_tilt.max(tilt);
        if sim.time_s() >= at + self.recover_s - 1e-9 {
            let from_stance = self.stance_up_in_torso.map(|up| sim.tilt_from_deg(up));
            self.late = self.late.max(from_stance.unwrap_or(tilt));
        }
    }
}

/// [`push`], and the same push's trial as runs of each of `checkpoints_s` (each ≤ `after_s`)
/// seconds stopping at a fall would have returned it: bit for bit the same figures, taken on
/// the way (the report's pushes give the search's shorter ones without running them again).
/// `after_s` and `checkpoints_s` are a person's trial times ([`time_scale`]).
pub fn push_with_checkpoints(
    settled: &Simulation,
    (dir, dv_m_s, mass_kg): (Vec3, f32, f32),
    after_s: f64,
    stop_on_fall: bool,
    checkpoints_s: &[f64],
) -> (Trial, Vec<Trial>) {
    let mut sim = settled.clone();
    let at = sim.time_s();
    let mut run = Running {
        stance_up_in_torso: sim.stance_up_in_torso(),
        recover_s: RECOVER_S * time_scale(&sim),
        ..Default::default()
    };
    if let (true, Some(p)) = (dv_m_s > 0.0, sim.balance_bones().pelvis_bone.clone()) {
        if sim.apply_impulse(&p, dir * dv_m_s * mass_kg).is_err() {
            run.trial.paused = true;
        }
    }
    let dt = sim.settings().dt_s as f64;
    let first = sim.steps();
    let steps = first + trial_steps(&sim, after_s);
    let checks: Vec<u64> = checkpoints_s
        .iter()
        .map(|c| first + trial_steps(&sim, *c))
        .collect();
    let mut checked: Vec<Option<Trial>> = vec![None; checks.len()];
    while sim.steps() < steps && !run.trial.paused {
        if sim.step().is_err() {
            run.trial.paused = true;
            break;
        }
        run.step(&sim, at, dt);
        let fell = sim.fell_at_s().is_some();
        for (c, out) in checks.iter().zip(checked.iter_mut()) {
            if out.is_none() && (fell || sim.steps() >= *c) {
                *out = Some(run.snapshot(&sim, at, (first, c - first)));
            }
        }
        if stop_on_fall && fell {
            break;
        }
    }
    let trial = run.snapshot(&sim, at, (first, steps - first));
    // Ended before a checkpoint (paused, or fell and stopped): the short run ends there too.
    let checked = checks
        .iter()
        .zip(checked)
        .map(|(c, out)| {
            out.unwrap_or(Trial {
                planned_steps: c - first,
                ..trial
            })
        })
        .collect();
    (trial, checked)
}

fn dt_sub(sim: &Simulation) -> f32 {
    let ip = &sim.physics().integration_parameters;
    ip.dt / ip.num_solver_iterations.max(1) as f32
}

fn finish(sim: &Simulation, at: f64, trial: &mut Trial) {
    let t = sim.telemetry();
    trial.fell = sim.falls_measured().then_some(sim.fell_at_s().is_some());
    trial.fell_after_s = sim.fell_at_s().map(|s| (s - at).max(0.0));
    trial.max_tilt_deg = f32::NAN;
    trial.late_tilt_deg = f32::NAN;
    trial.max_violation_deg = t
        .joint_stats
        .iter()
        .map(|s| s.max_violation_deg)
        .fold(0.0, f32::max);
    trial.assist_peak_n_m = sim.assist_measured().then_some(t.effort.assist_peak_n_m);
    trial.peak_impact_dv = sim.peak_impact_dv();
}

/// The whole body's mass (kg): every bone with a collider.
pub fn total_mass_kg(doc: &Document) -> f64 {
    doc.bones
        .iter()
        .filter_map(|b| b.physics.as_ref())
        .filter(|p| p.collider.is_some() && p.mass.is_finite() && p.mass > 0.0)
        .map(|p| p.mass)
        .sum()
}

/// A clip trial's tracking: each joint's RMS error (degrees) to the clip's pose.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tracking {
    pub joints: Vec<(String, f32)>,
    pub max_violation_deg: f32,
    pub work_j: f64,
    pub paused: bool,
}

/// Plays `clip` once (at most `max_s`) with a kinematic root, as `simulate --clip` does.
pub fn follow(doc: &Document, clip: &Clip, max_s: f64) -> Result<Tracking, SimError> {
    follow_with_checkpoint(doc, clip, max_s, None).map(|(t, _)| t)
}

/// [`follow`], and the tracking a follow of at most `checkpoint_s` (≤ `max_s`) seconds would
/// have returned, taken on the way: the same figures bit for bit.
pub fn follow_with_checkpoint(
    doc: &Document,
    clip: &Clip,
    max_s: f64,
    checkpoint_s: Option<f64>,
) -> Result<(Tracking, Option<Tracking>), SimError> {
    let mut sim = Simulation::new(doc, settings())?;
    let driver = ClipDriver::new(doc, clip.clone(), Default::default(), RootMode::Kinematic);
    let dt = sim.settings().dt_s as f64;
    let length_s = driver.clip.duration_s as f64 / driver.playback.speed.max(1e-6) as f64;
    let steps_for = |s: f64| (length_s.min(s).max(dt) / dt).round() as u64;
    // The root follows the clip: the balance controller has nothing to hold.
    sim.settings_mut().balance = false;
    sim.set_clip(Some(driver))?;
    let steps = steps_for(max_s);
    let check = checkpoint_s.map(steps_for);
    let mut out = Tracking::default();
    let mut checked = None;
    while sim.steps() < steps {
        if sim.step().is_err() {
            out.paused = true;
            break;
        }
        out.work_j += motor_power_w(sim.physics(), dt_sub(&sim)) * dt;
        if checked.is_none() && check.is_some_and(|c| sim.steps() >= c) {
            checked = Some(tracking_now(&sim, &out));
        }
    }
    let full = tracking_now(&sim, &out);
    // Paused before the checkpoint: the short follow stops there too.
    let checked = check.map(|_| checked.unwrap_or_else(|| full.clone()));
    Ok((full, checked))
}

/// The tracking figures after the last step, with the work and pause `run` counted so far.
fn tracking_now(sim: &Simulation, run: &Tracking) -> Tracking {
    let t = sim.telemetry();
    Tracking {
        joints: t
            .joint_names
            .iter()
            .zip(&t.joint_stats)
            .map(|(n, s)| (n.clone(), s.rms_error_deg()))
            .collect(),
        max_violation_deg: t
            .joint_stats
            .iter()
            .map(|s| s.max_violation_deg)
            .fold(0.0, f32::max),
        work_j: run.work_j,
        paused: run.paused,
    }
}
