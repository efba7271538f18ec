//! `simulate`: run the document's ragdoll headless and report how it did.
//! Exit 0 when the run completes (fallen or not), 1 when the stability guard paused it.

use super::poses::PoseWriter;
use crate::document::{Document, UriPolicy};
use crate::sim::{ClipDriver, RootMode, SimPause, SimSettings, Simulation};
use crate::timeline::{self, BakeOptions, Recording};
use anyhow::{anyhow, Context};
use glam::Vec3;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

mod report;

/// The options of one `simulate` run.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SimulateArgs {
    /// Simulated seconds (0 to 3600).
    #[arg(long, default_value_t = 10.0, value_parser = run_length)]
    pub seconds: f64,
    /// Balance off, drives on.
    #[arg(long)]
    pub no_balance: bool,
    /// Drives and balance off.
    #[arg(long)]
    pub passive: bool,
    /// BONE:X,Y,Z@T: an impulse in N*s (world frame) at time T seconds, e.g. spine_upper:150,0,0@2.
    #[arg(long = "push", value_name = "BONE:X,Y,Z@T")]
    pub pushes: Vec<String>,
    /// BONE.KEY=VALUE edits applied before the run (as in `edit`; nothing is saved).
    #[arg(long = "set", value_name = "BONE.KEY=VALUE")]
    pub sets: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the per-step telemetry as CSV.
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Play an animation clip (name or index) as the drive targets; the errors reported are
    /// the tracking errors to the clip's pose.
    #[arg(long, value_name = "NAME|INDEX")]
    pub clip: Option<String>,
    /// With --clip: the root follows the clip kinematically (default), or is simulated and
    /// held by balance.
    #[arg(long, value_enum, default_value_t = RootMode::Kinematic)]
    pub root: RootMode,
    /// With --clip: play this many loops of the clip (instead of --seconds).
    #[arg(long)]
    pub loops: Option<f64>,
    /// Write every body's world pose at every step as CSV
    /// (`step,time_s,bone,px,py,pz,qx,qy,qz,qw`).
    #[arg(long, value_name = "OUT")]
    pub poses: Option<PathBuf>,
    /// Branch the run at T seconds: run to T, snapshot the simulation, apply the --set edits
    /// there (pushes must come at T or later), and continue from the snapshot.
    #[arg(long, value_name = "T")]
    pub branch_at: Option<f64>,
    /// Bake the run into a new animation clip NAME (a rotation channel per body, translation
    /// for the root), added to the document written to -o OUT.
    #[arg(long, value_name = "NAME", requires = "output")]
    pub bake: Option<String>,
    /// With --bake: where to write the document with the baked clip.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// With --bake: the first key's simulation time (s); default the start.
    #[arg(long = "from", value_name = "S")]
    pub bake_from: Option<f64>,
    /// With --bake: the last key's simulation time (s); default the end.
    #[arg(long = "to", value_name = "S")]
    pub bake_to: Option<f64>,
    /// With --bake: keys per second; default one key per simulation step.
    #[arg(long, value_name = "N")]
    pub fps: Option<f64>,
}

/// The branch of a run: the --set edits applied to a snapshot at `at_s`.
struct Branch<'a> {
    at_s: f64,
    file: &'a Path,
    sets: &'a [String],
    done: bool,
}

impl Branch<'_> {
    /// At the branch time: the run continues from a snapshot, with the edits applied to the
    /// document and to the snapshot's world.
    fn take(&mut self, doc: &mut Document, sim: &mut Simulation) -> anyhow::Result<()> {
        if self.done || sim.time_s() < self.at_s - 1e-9 {
            return Ok(());
        }
        self.done = true;
        let mut snapshot = sim.clone();
        apply_sets_naming_errors(doc, self.file, self.sets)?;
        snapshot
            .sync(doc)
            .with_context(|| format!("--branch-at {}", self.at_s))?;
        *sim = snapshot;
        Ok(())
    }
}

/// Bakes the recording into `doc` and writes it to `out`.
fn bake_to_file(
    doc: &mut Document,
    rec: &Recording,
    a: &SimulateArgs,
    out: &Path,
) -> anyhow::Result<()> {
    let name = a.bake.clone().unwrap_or_default();
    let opts = BakeOptions {
        name: name.clone(),
        from_s: a.bake_from,
        to_s: a.bake_to,
        fps: a.fps,
    };
    let baked = timeline::bake(doc, rec, &opts).with_context(|| format!("--bake {name}"))?;
    doc.apply(&timeline::append_edit(doc, &baked, &name))
        .with_context(|| format!("--bake {name}"))?;
    super::write_out(doc, out)?;
    eprintln!(
        "baked '{name}': {} keys, {} rotation and {} translation channels, into {}",
        baked.times_s.len(),
        baked.rotations.len(),
        baked.translations.len(),
        out.display()
    );
    Ok(())
}

/// A timed impulse: `BONE:X,Y,Z@T` (N*s, world frame, seconds).
#[derive(Debug, Clone, PartialEq)]
pub struct Push {
    pub bone: String,
    pub impulse_n_s: Vec3,
    pub at_s: f64,
}

pub fn parse_push(text: &str) -> anyhow::Result<Push> {
    let bad = || {
        anyhow!("--push {text}: expected BONE:X,Y,Z@T (impulse in N*s, world frame, at T seconds)")
    };
    let (lhs, at) = text.rsplit_once('@').ok_or_else(bad)?;
    let (bone, vec) = lhs.rsplit_once(':').ok_or_else(bad)?;
    let at_s: f64 = at.trim().parse().map_err(|_| bad())?;
    let parts: Vec<f32> = vec
        .split(',')
        .map(|x| x.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let [x, y, z] = parts[..] else {
        return Err(bad());
    };
    let impulse_n_s = Vec3::new(x, y, z);
    if bone.is_empty() || !impulse_n_s.is_finite() || !at_s.is_finite() || at_s < 0.0 {
        return Err(bad());
    }
    Ok(Push {
        bone: bone.to_string(),
        impulse_n_s,
        at_s,
    })
}

/// The clip driver `--clip` asks for, if any.
fn clip_driver(
    doc: &crate::document::Document,
    a: &SimulateArgs,
) -> anyhow::Result<Option<ClipDriver>> {
    let Some(name) = &a.clip else {
        return Ok(None);
    };
    let anims = doc.load_animations()?;
    for d in &anims.diagnostics {
        eprintln!("{}: {d}", doc.path.display());
    }
    let Some(clip) = anims.find(name).cloned() else {
        return Err(anyhow!(
            "{}: no animation '{name}'; the file has: {}",
            doc.path.display(),
            anims.listing()
        ));
    };
    let playback = crate::anim::Playback::default();
    Ok(Some(ClipDriver::new(doc, clip, playback, a.root)))
}

pub fn run(file: &Path, a: &SimulateArgs, policy: UriPolicy) -> anyhow::Result<ExitCode> {
    let mut doc = super::open(file, policy)?;
    let mut branch = branch_or_apply_sets(&mut doc, file, a)?;
    let mut pushes = PushSchedule::parse(&a.pushes)?;
    let mut sim =
        Simulation::new(&doc, sim_settings(a)).with_context(|| format!("{}", file.display()))?;
    pushes.check(&sim, branch.as_ref())?;
    let driver = clip_driver(&doc, a)?;
    let seconds = run_seconds(driver.as_ref(), a)?;
    if let Some(b) = branch.as_ref().filter(|b| b.at_s > seconds) {
        return Err(anyhow!(
            "--branch-at {} s is after the end of the run ({seconds} s)",
            b.at_s
        ));
    }
    let clip = attach_clip(&mut sim, driver, file)?;
    let steps = (seconds / sim.settings().dt_s as f64).round() as u64;
    let t0 = Instant::now();
    let mut outputs = StepOutputs::open(&doc, &sim, a, seconds)?;
    let pause = step_to(
        steps,
        &mut doc,
        &mut sim,
        &mut branch,
        &mut pushes,
        &mut outputs,
    )?;
    if let Some(w) = outputs.poses {
        w.finish()?;
    }
    if let (Some(r), Some(out)) = (&outputs.recording, &a.output) {
        bake_to_file(&mut doc, r, a, out)?;
    }
    let outcome = report::Outcome {
        file,
        sim: &sim,
        clip,
        pause,
        wall_ms: t0.elapsed().as_secs_f64() * 1e3,
    };
    outcome.report(a)
}

/// With --branch-at: the branch to take (the --set edits wait for it); without: the --set
/// edits applied now.
fn branch_or_apply_sets<'a>(
    doc: &mut Document,
    file: &'a Path,
    a: &'a SimulateArgs,
) -> anyhow::Result<Option<Branch<'a>>> {
    match a.branch_at {
        Some(t) if !(t.is_finite() && t >= 0.0) => Err(anyhow!(
            "--branch-at must be a non-negative number of seconds"
        )),
        Some(at_s) => Ok(Some(Branch {
            at_s,
            file,
            sets: &a.sets,
            done: false,
        })),
        None => {
            apply_sets_naming_errors(doc, file, &a.sets)?;
            Ok(None)
        }
    }
}

/// Applies the --set edits (now or at the branch), then names on stderr every error they
/// introduce, as `edit` does; the run goes on with what the document holds.
fn apply_sets_naming_errors(
    doc: &mut Document,
    file: &Path,
    sets: &[String],
) -> anyhow::Result<()> {
    let before = doc.diagnostics.clone();
    super::edit::apply_sets(doc, sets).with_context(|| format!("{}", file.display()))?;
    let errors = super::edit::report_new_errors(file, &before, doc).len();
    if errors > 0 {
        eprintln!(
            "{}: simulating anyway: the --set edits introduce {errors} error(s) (above)",
            file.display()
        );
    }
    Ok(())
}

/// The simulation settings of the flags: balance and drives, and telemetry kept for the
/// whole run when it is written as CSV.
fn sim_settings(a: &SimulateArgs) -> SimSettings {
    let mut settings = SimSettings {
        balance: !(a.no_balance || a.passive),
        drives: !a.passive,
        ..SimSettings::default()
    };
    if a.csv.is_some() {
        settings.telemetry_seconds = settings.telemetry_seconds.max(a.seconds as f32 + 1.0);
    }
    settings
}

/// The longest run `simulate` takes (simulated seconds): an hour, 432,000 steps. Asked for
/// 1e12 s, it ran on without an answer; with `--csv` it sizes its telemetry for the whole run.
pub const MAX_RUN_S: f64 = 3600.0;

/// Seconds of a simulated run, 0 to [`MAX_RUN_S`], for `--seconds` and the editor's
/// `--sim-seconds`, `--scrub` and `--branch-at` (NaN had run as none, 1e12 for ever).
pub fn run_length(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=MAX_RUN_S).contains(&v) => Ok(v),
        _ => Err(format!(
            "'{s}' is not a number of seconds from 0 to {MAX_RUN_S} s"
        )),
    }
}

/// The simulated seconds: --loops of the clip, or --seconds.
fn run_seconds(driver: Option<&ClipDriver>, a: &SimulateArgs) -> anyhow::Result<f64> {
    match (driver, a.loops) {
        (Some(d), Some(n)) if n.is_finite() && n > 0.0 => {
            let s = n * d.clip.duration_s as f64 / d.playback.speed.max(1e-6) as f64;
            if s > MAX_RUN_S {
                return Err(anyhow!(
                    "--loops {n}: {s:.0} s is longer than a run can be ({MAX_RUN_S} s of \
                     simulated time)"
                ));
            }
            Ok(s)
        }
        (_, Some(n)) if !(n.is_finite() && n > 0.0) => {
            Err(anyhow!("--loops must be a positive number"))
        }
        _ => Ok(a.seconds),
    }
}

/// Hands the clip driver to the simulation; the clip's name and root mode, for the report.
fn attach_clip(
    sim: &mut Simulation,
    driver: Option<ClipDriver>,
    file: &Path,
) -> anyhow::Result<report::ClipLabels> {
    if driver
        .as_ref()
        .is_some_and(|d| d.root == RootMode::Kinematic)
    {
        // The root follows the clip: the balance controller has nothing to hold.
        sim.settings_mut().balance = false;
    }
    let labels = report::ClipLabels {
        name: driver.as_ref().map(|d| d.clip.name.clone()),
        root_mode: driver
            .as_ref()
            .map(|d| format!("{:?}", d.root).to_lowercase()),
    };
    sim.set_clip(driver)
        .with_context(|| format!("{}", file.display()))?;
    Ok(labels)
}

/// The --push impulses, each applied once when its time comes.
struct PushSchedule {
    pushes: Vec<Push>,
    applied: Vec<bool>,
}

impl PushSchedule {
    fn parse(texts: &[String]) -> anyhow::Result<Self> {
        let pushes: Vec<Push> = texts
            .iter()
            .map(|p| parse_push(p))
            .collect::<anyhow::Result<_>>()?;
        let applied = vec![false; pushes.len()];
        Ok(Self { pushes, applied })
    }

    /// Every push names a bone with a body, and comes at or after the branch.
    fn check(&self, sim: &Simulation, branch: Option<&Branch>) -> anyhow::Result<()> {
        for p in &self.pushes {
            if sim.body_handle(&p.bone).is_none() {
                return Err(anyhow!("--push: no bone named '{}' has a body", p.bone));
            }
            if let Some(b) = branch.filter(|b| p.at_s < b.at_s) {
                return Err(anyhow!(
                    "--push at {} s comes before --branch-at {} s: a branch's pushes come at or after it",
                    p.at_s,
                    b.at_s
                ));
            }
        }
        Ok(())
    }

    /// Applies the pushes whose time has come.
    fn apply_due(&mut self, sim: &mut Simulation) -> anyhow::Result<()> {
        for (p, done) in self.pushes.iter().zip(self.applied.iter_mut()) {
            if !*done && sim.time_s() >= p.at_s - 1e-6 {
                sim.apply_impulse(&p.bone, p.impulse_n_s)?;
                *done = true;
            }
        }
        Ok(())
    }
}

/// What a run writes as it steps: the --poses CSV and the --bake recording.
struct StepOutputs {
    poses: Option<PoseWriter>,
    recording: Option<Recording>,
}

impl StepOutputs {
    /// Opens the outputs and records the rest pose.
    fn open(
        doc: &Document,
        sim: &Simulation,
        a: &SimulateArgs,
        seconds: f64,
    ) -> anyhow::Result<Self> {
        let poses = a.poses.as_deref().map(PoseWriter::create).transpose()?;
        let recording = a
            .bake
            .as_ref()
            .map(|_| Recording::new(sim, seconds + f64::from(sim.settings().dt_s)));
        let mut outputs = Self { poses, recording };
        outputs.record(doc, sim)?;
        Ok(outputs)
    }

    fn record(&mut self, doc: &Document, sim: &Simulation) -> anyhow::Result<()> {
        if let Some(w) = &mut self.poses {
            w.write(doc, sim)?;
        }
        if let Some(r) = &mut self.recording {
            r.push(sim);
        }
        Ok(())
    }
}

/// Steps until `steps`, taking the branch and the pushes when due and recording every step;
/// the stability guard's pause if it paused the run.
fn step_to(
    steps: u64,
    doc: &mut Document,
    sim: &mut Simulation,
    branch: &mut Option<Branch>,
    pushes: &mut PushSchedule,
    outputs: &mut StepOutputs,
) -> anyhow::Result<Option<SimPause>> {
    while sim.steps() < steps {
        if let Some(b) = branch {
            b.take(doc, sim)?;
        }
        pushes.apply_due(sim)?;
        if let Err(p) = sim.step() {
            return Ok(Some(p));
        }
        outputs.record(doc, sim)?;
    }
    Ok(None)
}
