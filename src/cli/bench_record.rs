//! `bench-record`: what the timeline's recording costs. The default mannequin and the dense
//! 50-body character are each stepped twice side by side at 120 Hz in alternating rounds
//! (`bench`'s own [`super::bench::alternate`]): once recorded on a [`Tape`] of the editor's
//! 60 s (every body's pose every step, a snapshot about every second), once plain. Then
//! 60 s of the dense character are recorded and the memory reported: the tape's own account
//! and the process's resident memory grown by recording (measured, beside a plain run).

use crate::document::{Document, UriPolicy};
use crate::sim::{SimSettings, Simulation};
use crate::timeline::{Tape, RECORD_SECONDS};
use anyhow::anyhow;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// The two characters measured: (label, document).
fn characters() -> anyhow::Result<Vec<(&'static str, Document)>> {
    let mannequin = Document::from_bytes(
        Path::new(crate::mannequin::ASSET_PATH),
        crate::mannequin::EMBEDDED_GLB,
        UriPolicy::default(),
    )?;
    let dense_glb = crate::mannequin::dense::generate().map_err(anyhow::Error::msg)?;
    let dense = Document::from_bytes(
        Path::new("dense-mannequin.glb"),
        &dense_glb,
        UriPolicy::default(),
    )?;
    Ok(vec![("mannequin", mannequin), ("dense", dense)])
}

/// Calls of [`super::bench::alternate`] per character, each a short one (its six rounds of
/// tens of milliseconds per side), so both sides share the machine's load closely. The
/// overhead reported is that of the mean rates over all calls (a snapshot every second is a
/// lumpy cost that a median of short calls would miss), beside the calls' quartiles.
const REPEATS: usize = 25;

/// What one character's measurement gives.
struct Rates {
    bodies: usize,
    /// (recorded, plain) steps per second, per repeat.
    rounds: Vec<(f64, f64)>,
}

impl Rates {
    /// The overhead of each repeat (%), sorted.
    fn overheads(&self) -> Vec<f64> {
        let mut o: Vec<f64> = self
            .rounds
            .iter()
            .map(|(r, p)| (p / r - 1.0) * 100.0)
            .collect();
        o.sort_by(f64::total_cmp);
        o
    }

    /// The overhead at quantile `q` of the calls (%).
    fn overhead_at(&self, q: f64) -> f64 {
        let o = self.overheads();
        o[((o.len() - 1) as f64 * q).round() as usize]
    }

    /// Mean steps per second over the repeats: (recorded, plain).
    fn mean(&self) -> (f64, f64) {
        let n = self.rounds.len() as f64;
        let (r, p) = self
            .rounds
            .iter()
            .fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
        (r / n, p / n)
    }
}

/// Steps per second recorded and plain, measured in alternating rounds within `budget`.
fn rates(doc: &Document, budget: Duration) -> anyhow::Result<Rates> {
    let mut recorded = Simulation::new(doc, SimSettings::default())?;
    let mut plain = Simulation::new(doc, SimSettings::default())?;
    let bodies = recorded.body_poses().count();
    let mut tape = Tape::new(&recorded, RECORD_SECONDS);
    for _ in 0..10 {
        tape.step(&mut recorded).map_err(|p| anyhow!("{p}"))?;
        plain.step().map_err(|p| anyhow!("{p}"))?;
    }
    let mut rounds = Vec::with_capacity(REPEATS);
    for _ in 0..REPEATS {
        rounds.push(super::bench::alternate(
            budget / REPEATS as u32,
            || tape.step(&mut recorded).map_err(|p| anyhow!("{p}")),
            || plain.step().map_err(|p| anyhow!("{p}")),
        )?);
    }
    Ok(Rates { bodies, rounds })
}

/// Resident memory of this process (bytes), from /proc; None where it cannot be read.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Memory of `seconds` of `doc` recorded: (the tape's account, resident growth of the
/// recorded run minus that of a plain run of the same length). The plain run goes first,
/// so the allocator's reuse favours neither.
fn memory(doc: &Document, seconds: f64) -> anyhow::Result<(usize, Option<i64>, usize)> {
    let steps = |sim: &Simulation| (seconds / f64::from(sim.settings().dt_s)).round() as u64;
    let before = resident_bytes();
    let mut plain = Simulation::new(doc, SimSettings::default())?;
    for _ in 0..steps(&plain) {
        plain.step().map_err(|p| anyhow!("{p}"))?;
    }
    let plain_growth = resident_bytes()
        .zip(before)
        .map(|(a, b)| a as i64 - b as i64);
    let before = resident_bytes();
    let mut sim = Simulation::new(doc, SimSettings::default())?;
    let mut tape = Tape::new(&sim, RECORD_SECONDS);
    for _ in 0..steps(&sim) {
        tape.step(&mut sim).map_err(|p| anyhow!("{p}"))?;
    }
    let growth = resident_bytes()
        .zip(before)
        .map(|(a, b)| a as i64 - b as i64);
    let measured = growth.zip(plain_growth).map(|(r, p)| r - p);
    drop(plain);
    Ok((tape.bytes(), measured, tape.recording.len()))
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub fn run(as_json: bool, seconds_per_case: f64) -> anyhow::Result<ExitCode> {
    let mut cases = Vec::new();
    let chars = characters()?;
    let budget = Duration::from_secs_f64(seconds_per_case.max(0.2));
    for (label, doc) in &chars {
        let r = rates(doc, budget)?;
        let (rec, plain) = r.mean();
        let overhead = (plain / rec - 1.0) * 100.0;
        let [q1, q3] = [0.25, 0.75].map(|q| r.overhead_at(q));
        if !as_json {
            println!(
                "{label:>10} ({} bodies)  recorded {rec:>8.1} steps/s  plain {plain:>8.1} steps/s  overhead {overhead:>5.1}% ({REPEATS} calls; quartiles {q1:.1}% to {q3:.1}%)",
                r.bodies
            );
        }
        cases.push(json!({
            "character": label,
            "bodies": r.bodies,
            "recorded_steps_per_sec": round1(rec),
            "plain_steps_per_sec": round1(plain),
            "overhead_pct": round1(overhead),
            "overhead_pct_quartiles": [round1(q1), round1(q3)],
        }));
    }
    let dense = &chars.last().ok_or_else(|| anyhow!("no dense character"))?.1;
    let (tape_bytes, resident, frames) = memory(dense, RECORD_SECONDS)?;
    let mb = |b: f64| round1(b / 1e6);
    if !as_json {
        let shown = resident.map_or("not measured".into(), |r| format!("{} MB", mb(r as f64)));
        println!(
            "{RECORD_SECONDS} s of the dense character: {frames} frames, tape {} MB, resident growth over a plain run {shown}",
            mb(tape_bytes as f64)
        );
    } else {
        println!(
            "{}",
            json!({
                "rate_hz": 120,
                "cases": cases,
                "memory": {
                    "character": "dense",
                    "seconds": RECORD_SECONDS,
                    "frames": frames,
                    "tape_mb": mb(tape_bytes as f64),
                    "resident_growth_mb": resident.map(|r| mb(r as f64)),
                },
            })
        );
    }
    Ok(ExitCode::SUCCESS)
}
