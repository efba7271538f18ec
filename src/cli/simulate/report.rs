//! The report of a `simulate` run: one JSON object, or text lines; the telemetry CSV.

use super::SimulateArgs;
use crate::sim::{SimPause, Simulation};
use anyhow::Context;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// The clip a run played (`--clip`), as the report names it.
pub(super) struct ClipLabels {
    pub name: Option<String>,
    /// `kinematic` or `simulated`.
    pub root_mode: Option<String>,
}

/// A finished (or paused) run.
pub(super) struct Outcome<'a> {
    pub file: &'a Path,
    pub sim: &'a Simulation,
    pub clip: ClipLabels,
    pub pause: Option<SimPause>,
    pub wall_ms: f64,
}

/// The balance figures of a run; each None when not measured (never a made-up 0).
struct BalanceFigures {
    fell: Option<bool>,
    max_torso_tilt_deg: Option<f64>,
    min_pelvis_height_ratio: Option<f64>,
}

impl BalanceFigures {
    fn of(sim: &Simulation) -> Self {
        let t = sim.telemetry();
        // Not measured (null) when no balance bone was resolved.
        Self {
            fell: sim.falls_measured().then_some(sim.fell_at_s().is_some()),
            max_torso_tilt_deg: sim.tilt_measured().then_some(t.max_torso_tilt_deg as f64),
            min_pelvis_height_ratio: (sim.falls_measured()
                && t.min_pelvis_height_ratio.is_finite())
            .then_some(t.min_pelvis_height_ratio as f64),
        }
    }
}

impl Outcome<'_> {
    /// Writes the CSV, warns, prints the report; exit 1 when the stability guard paused the run.
    pub fn report(self, a: &SimulateArgs) -> anyhow::Result<ExitCode> {
        let figures = BalanceFigures::of(self.sim);
        let report = self.json(&figures);
        if let Some(path) = &a.csv {
            self.write_csv(path)?;
        }
        if let Some(n) = self.not_measured_note() {
            eprintln!("warning: {n}");
        }
        if a.json {
            println!("{report}");
        } else {
            self.print_text(&figures);
        }
        if let Some(p) = self.pause {
            eprintln!("{}: {p}", self.file.display());
            return Ok(ExitCode::from(1));
        }
        Ok(ExitCode::SUCCESS)
    }

    fn not_measured_note(&self) -> Option<String> {
        (!self.sim.falls_measured()).then(|| {
            format!(
                "{}: no balance settings and no pelvis or feet found by role: torso tilt, pelvis height and falls are not measured",
                self.file.display()
            )
        })
    }

    fn json(&self, figures: &BalanceFigures) -> serde_json::Value {
        let sim = self.sim;
        json!({
            "seconds": r(sim.time_s(), 4),
            "steps": sim.steps(),
            "fell": figures.fell,
            "fell_at_s": sim.fell_at_s().map(|x| r(x, 4)),
            "knocked_out_at_s": sim.knocked_out_at_s().map(|x| r(x, 4)),
            "peak_impact_dv_m_s": r(sim.peak_impact_dv() as f64, 4),
            "max_torso_tilt_deg": figures.max_torso_tilt_deg.map(|x| r(x, 3)),
            "min_pelvis_height_ratio": figures.min_pelvis_height_ratio.map(|x| r(x, 4)),
            "balance_bones": sim.balance_bones().clone(),
            "external_assist": assist_report(sim),
            "clip": self.clip.name,
            "root": self.clip.root_mode,
            "joints": joints_json(sim),
            "paused": self.pause.as_ref().map(|p| p.to_string()),
            "wall_ms": r(self.wall_ms, 1),
        })
    }

    fn write_csv(&self, path: &Path) -> anyhow::Result<()> {
        let f =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        self.sim
            .telemetry()
            .write_csv(std::io::BufWriter::new(f))
            .with_context(|| format!("writing {}", path.display()))
    }

    fn print_text(&self, figures: &BalanceFigures) {
        let sim = self.sim;
        let not_measured = || "not measured".to_string();
        println!(
            "{:.2} s ({} steps) in {:.0} ms: {}; max torso tilt {}, min pelvis height {}",
            sim.time_s(),
            sim.steps(),
            self.wall_ms,
            match (figures.fell, sim.fell_at_s()) {
                (None, _) => "falls not measured".into(),
                (_, Some(x)) => format!("fell at {x:.2} s"),
                _ => "stayed up".into(),
            },
            figures
                .max_torso_tilt_deg
                .map_or_else(not_measured, |x| format!("{x:.1} deg")),
            figures
                .min_pelvis_height_ratio
                .map_or_else(not_measured, |x| format!("{:.0}% of rest", x * 100.0))
        );
        println!("{}", impact_text(sim));
        println!("{}", assist_text(sim));
        print_joint_table(sim);
    }
}

fn joints_json(sim: &Simulation) -> Vec<serde_json::Value> {
    let t = sim.telemetry();
    t.joint_names
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
        .collect()
}

fn print_joint_table(sim: &Simulation) {
    let t = sim.telemetry();
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

/// The largest impact while it stood, and the knock-out it caused.
fn impact_text(sim: &Simulation) -> String {
    let peak = sim.peak_impact_dv();
    match sim.knocked_out_at_s() {
        Some(t) => format!("knocked out at {t:.2} s (largest impact {peak:.2} m/s)"),
        None => format!("largest impact {peak:.2} m/s (not knocked out)"),
    }
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

/// `x` rounded to `digits` decimals.
fn r(x: f64, digits: i32) -> f64 {
    let k = 10f64.powi(digits);
    (x * k).round() / k
}
