//! `simulate`: run the document's ragdoll headless and report how it did.
//! Exit 0 when the run completes (fallen or not), 1 when the stability guard paused it.

use super::poses::PoseWriter;
use crate::document::{Document, UriPolicy};
use crate::sim::{ClipDriver, RootMode, SimSettings, Simulation};
use crate::timeline::{self, BakeOptions, Recording};
use anyhow::{anyhow, Context};
use glam::Vec3;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The options of one `simulate` run.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SimulateArgs {
    /// Simulated seconds.
    #[arg(long, default_value_t = 10.0)]
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
        super::edit::apply_sets(doc, self.sets)?;
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
    doc.write_to(out)?;
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

/// The external assist: null without an upright joint (not measured, never a made-up 0).
fn assist_report(sim: &Simulation) -> serde_json::Value {
    let e = sim.telemetry().effort;
    if !sim.assist_measured() {
        return serde_json::Value::Null;
    }
    json!({
        "peak_torque_n_m": r(e.assist_peak_n_m as f64, 2),
        "impulse_n_m_s": r(e.assist_impulse_n_m_s, 3),
        "share": e.assist_share().map(|x| r(x, 4)),
        "ankle_impulse_n_m_s": r(e.ankle_impulse_n_m_s, 3),
        "drive_impulse_n_m_s": r(e.drive_impulse_n_m_s, 3),
    })
}

fn assist_text(sim: &Simulation) -> String {
    let e = sim.telemetry().effort;
    if !sim.assist_measured() {
        return "external assist: not measured (no upright joint)".into();
    }
    format!(
        "external assist: peak {:.1} N·m, impulse {:.2} N·m·s, {} of all corrective torque",
        e.assist_peak_n_m,
        e.assist_impulse_n_m_s,
        e.assist_share().map_or_else(
            || "no share (no corrective torque)".into(),
            |x| format!("{:.1}%", x * 100.0)
        )
    )
}

fn r(x: f64, digits: i32) -> f64 {
    let k = 10f64.powi(digits);
    (x * k).round() / k
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
    let mut branch = match a.branch_at {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(anyhow!(
                "--branch-at must be a non-negative number of seconds"
            ))
        }
        Some(at_s) => Some(Branch {
            at_s,
            sets: &a.sets,
            done: false,
        }),
        None => {
            super::edit::apply_sets(&mut doc, &a.sets)
                .with_context(|| format!("{}", file.display()))?;
            None
        }
    };
    let pushes: Vec<Push> = a
        .pushes
        .iter()
        .map(|p| parse_push(p))
        .collect::<anyhow::Result<_>>()?;
    if !(a.seconds.is_finite() && a.seconds >= 0.0) {
        return Err(anyhow!("--seconds must be a non-negative number"));
    }
    let mut settings = SimSettings {
        balance: !(a.no_balance || a.passive),
        drives: !a.passive,
        ..SimSettings::default()
    };
    if a.csv.is_some() {
        settings.telemetry_seconds = settings.telemetry_seconds.max(a.seconds as f32 + 1.0);
    }
    let mut sim = Simulation::new(&doc, settings).with_context(|| format!("{}", file.display()))?;
    for p in &pushes {
        if sim.body_handle(&p.bone).is_none() {
            return Err(anyhow!("--push: no bone named '{}' has a body", p.bone));
        }
        if let Some(b) = branch.as_ref().filter(|b| p.at_s < b.at_s) {
            return Err(anyhow!(
                "--push at {} s comes before --branch-at {} s: a branch's pushes come at or after it",
                p.at_s,
                b.at_s
            ));
        }
    }
    let driver = clip_driver(&doc, a)?;
    let seconds = match (&driver, a.loops) {
        (Some(d), Some(n)) if n.is_finite() && n > 0.0 => {
            n * d.clip.duration_s as f64 / d.playback.speed.max(1e-6) as f64
        }
        (_, Some(n)) if !(n.is_finite() && n > 0.0) => {
            return Err(anyhow!("--loops must be a positive number"))
        }
        _ => a.seconds,
    };
    if let Some(b) = branch.as_ref().filter(|b| b.at_s > seconds) {
        return Err(anyhow!(
            "--branch-at {} s is after the end of the run ({seconds} s)",
            b.at_s
        ));
    }
    if driver
        .as_ref()
        .is_some_and(|d| d.root == RootMode::Kinematic)
    {
        // The root follows the clip: the balance controller has nothing to hold.
        sim.settings_mut().balance = false;
    }
    let steps = (seconds / sim.settings().dt_s as f64).round() as u64;
    let (clip_name, root_mode) = (
        driver.as_ref().map(|d| d.clip.name.clone()),
        driver
            .as_ref()
            .map(|d| format!("{:?}", d.root).to_lowercase()),
    );
    sim.set_clip(driver)
        .with_context(|| format!("{}", file.display()))?;
    let mut pushed = vec![false; pushes.len()];
    let t0 = Instant::now();
    let mut pause = None;
    let mut poses = a.poses.as_deref().map(PoseWriter::create).transpose()?;
    if let Some(w) = &mut poses {
        w.write(&doc, &sim)?;
    }
    let mut rec = a
        .bake
        .as_ref()
        .map(|_| Recording::new(&sim, seconds + f64::from(sim.settings().dt_s)));
    if let Some(r) = &mut rec {
        r.push(&sim);
    }
    while sim.steps() < steps {
        if let Some(b) = &mut branch {
            b.take(&mut doc, &mut sim)?;
        }
        for (p, done) in pushes.iter().zip(pushed.iter_mut()) {
            if !*done && sim.time_s() >= p.at_s - 1e-6 {
                sim.apply_impulse(&p.bone, p.impulse_n_s)?;
                *done = true;
            }
        }
        if let Err(p) = sim.step() {
            pause = Some(p);
            break;
        }
        if let Some(w) = &mut poses {
            w.write(&doc, &sim)?;
        }
        if let Some(r) = &mut rec {
            r.push(&sim);
        }
    }
    if let Some(w) = poses {
        w.finish()?;
    }
    if let (Some(r), Some(out)) = (&rec, &a.output) {
        bake_to_file(&mut doc, r, a, out)?;
    }
    let wall_ms = t0.elapsed().as_secs_f64() * 1e3;
    let t = sim.telemetry();
    let joints: Vec<serde_json::Value> = t
        .joint_names
        .iter()
        .zip(&t.joint_stats)
        .map(|(name, s)| {
            json!({
                "name": name,
                "rms_error_deg": r(s.rms_error_deg() as f64, 3),
                "max_error_deg": r(s.max_error_deg as f64, 3),
                "max_limit_violation_deg": r(s.max_violation_deg as f64, 3),
            })
        })
        .collect();
    // Not measured (null) when no balance bone was resolved: never a made-up 0.
    let min_pelvis = (sim.falls_measured() && t.min_pelvis_height_ratio.is_finite())
        .then_some(t.min_pelvis_height_ratio as f64);
    let max_tilt = sim.tilt_measured().then_some(t.max_torso_tilt_deg as f64);
    let fell = sim.falls_measured().then_some(sim.fell_at_s().is_some());
    let balance = sim.balance_bones().clone();
    let note = (!sim.falls_measured()).then(|| {
        format!(
            "{}: no balance settings and no pelvis or feet found by role: torso tilt, pelvis height and falls are not measured",
            file.display()
        )
    });
    let assist = assist_report(&sim);
    let report = json!({
        "seconds": r(sim.time_s(), 4),
        "steps": sim.steps(),
        "fell": fell,
        "fell_at_s": sim.fell_at_s().map(|x| r(x, 4)),
        "max_torso_tilt_deg": max_tilt.map(|x| r(x, 3)),
        "min_pelvis_height_ratio": min_pelvis.map(|x| r(x, 4)),
        "balance_bones": balance,
        "external_assist": assist,
        "clip": clip_name,
        "root": root_mode,
        "joints": joints,
        "paused": pause.as_ref().map(|p| p.to_string()),
        "wall_ms": r(wall_ms, 1),
    });
    if let Some(path) = &a.csv {
        let f =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        t.write_csv(std::io::BufWriter::new(f))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(n) = &note {
        eprintln!("warning: {n}");
    }
    if a.json {
        println!("{report}");
    } else {
        let not_measured = || "not measured".to_string();
        println!(
            "{:.2} s ({} steps) in {:.0} ms: {}; max torso tilt {}, min pelvis height {}",
            sim.time_s(),
            sim.steps(),
            wall_ms,
            match (fell, sim.fell_at_s()) {
                (None, _) => "falls not measured".into(),
                (_, Some(x)) => format!("fell at {x:.2} s"),
                _ => "stayed up".into(),
            },
            max_tilt.map_or_else(not_measured, |x| format!("{x:.1} deg")),
            min_pelvis.map_or_else(not_measured, |x| format!("{:.0}% of rest", x * 100.0))
        );
        println!("{}", assist_text(&sim));
        println!(
            "{:<14} {:>9} {:>9} {:>14}",
            "joint", "rms err", "max err", "max violation"
        );
        for (name, s) in t.joint_names.iter().zip(&t.joint_stats) {
            println!(
                "{name:<14} {:>9.2} {:>9.2} {:>14.2}",
                s.rms_error_deg(),
                s.max_error_deg,
                s.max_violation_deg
            );
        }
    }
    if let Some(p) = pause {
        eprintln!("{}: {p}", file.display());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
