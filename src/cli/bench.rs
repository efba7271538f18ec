//! `bench`: N = 1, 10, 100 default mannequins stepped at 120 Hz under the editor's settings
//! and Rapier's defaults (`crowd`), the editor's simulation (drives, balance, telemetry,
//! guard) side by side with the same bodies and joints stepped by bare Rapier.

use crate::sim::{SimSettings, Simulation};
use serde_json::json;
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn mannequin() -> anyhow::Result<crate::document::Document> {
    let path = std::path::Path::new(crate::mannequin::ASSET_PATH);
    Ok(crate::document::Document::from_bytes(
        path,
        crate::mannequin::EMBEDDED_GLB,
        Default::default(),
    )?)
}

/// Steps per second of each world, measured in alternating rounds so both see the same
/// machine load.
fn measure(
    editor: &mut Simulation,
    bare: &mut Simulation,
    budget: Duration,
) -> anyhow::Result<(f64, f64)> {
    for _ in 0..10 {
        editor.step()?;
        bare.step_bare();
    }
    alternate(
        budget,
        || Ok(editor.step()?),
        || {
            bare.step_bare();
            Ok(())
        },
    )
}

/// Rates (calls per second) of two step functions run in 6 alternating rounds within
/// `budget`, so both see the same machine load.
pub(super) fn alternate(
    budget: Duration,
    mut a: impl FnMut() -> anyhow::Result<()>,
    mut b: impl FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<(f64, f64)> {
    let rounds = 6;
    let (mut ta, mut tb, mut na, mut nb) = (Duration::ZERO, Duration::ZERO, 0u64, 0u64);
    for _ in 0..rounds {
        let slice = budget / (2 * rounds);
        let t = Instant::now();
        while t.elapsed() < slice || na == 0 {
            a()?;
            na += 1;
        }
        ta += t.elapsed();
        let t = Instant::now();
        while t.elapsed() < slice || nb == 0 {
            b()?;
            nb += 1;
        }
        tb += t.elapsed();
    }
    Ok((na as f64 / ta.as_secs_f64(), nb as f64 / tb.as_secs_f64()))
}

pub fn run(as_json: bool, seconds_per_case: f64) -> anyhow::Result<ExitCode> {
    let doc = mannequin()?;
    let mut cases = Vec::new();
    for (label, settings) in [
        ("default", SimSettings::default()),
        ("crowd", SimSettings::crowd()),
    ] {
        for n in [1usize, 10, 100] {
            let mut editor = Simulation::with_copies(&doc, settings.clone(), n)?;
            let mut bare = Simulation::with_copies(&doc, settings.clone(), n)?;
            let budget = Duration::from_secs_f64(seconds_per_case.max(0.1));
            let (sps, bare_sps) = measure(&mut editor, &mut bare, budget)?;
            let overhead = (bare_sps / sps - 1.0) * 100.0;
            if !as_json {
                println!(
                    "{label:>8} x{n:<4} editor {sps:>9.1} steps/s  bare {bare_sps:>9.1} steps/s  overhead {overhead:>5.1}%  ({:.2}x real time at 120 Hz)",
                    sps / 120.0
                );
            }
            cases.push(json!({
                "ragdolls": n,
                "settings": label,
                "steps_per_sec": (sps * 10.0).round() / 10.0,
                "bare_steps_per_sec": (bare_sps * 10.0).round() / 10.0,
                "overhead_pct": (overhead * 10.0).round() / 10.0,
            }));
        }
    }
    if as_json {
        println!(
            "{}",
            json!({ "rate_hz": 120, "threads": 1, "cases": cases })
        );
    }
    Ok(ExitCode::SUCCESS)
}
