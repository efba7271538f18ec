//! `bench`: N = 1, 10, 100 default mannequins stepped at 120 Hz under the editor's settings
//! and Rapier's defaults (`crowd`), the editor's simulation (drives, balance, telemetry,
//! guard) side by side with the same bodies and joints stepped by bare Rapier: in this
//! binary (the hooks' overhead), and with `--bare-rapier` in a build of its own
//! ([`super::bench_bare`]).

use super::bench_bare::{self, BareRapier};
use crate::sim::{SimSettings, Simulation};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What `bench` measures.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Wall-clock seconds measured per case (split between editor and bare).
    #[arg(long, default_value_t = 2.0)]
    pub seconds_per_case: f64,
    /// Ragdoll counts to measure (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1usize, 10, 100])]
    pub ragdolls: Vec<usize>,
    /// Settings to measure: `default`, `crowd` (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = ["default".to_string(), "crowd".to_string()])]
    pub settings: Vec<String>,
    /// Also step each case in this bare Rapier program (`tools/bare-rapier`, built with
    /// Rapier's default features on its own), side by side, and print the ratio.
    #[arg(long)]
    pub bare_rapier: Option<PathBuf>,
    /// Write the world of the first case as a scene for `tools/bare-rapier` and exit.
    #[arg(long)]
    pub export_scene: Option<PathBuf>,
}

fn mannequin() -> anyhow::Result<crate::document::Document> {
    let path = std::path::Path::new(crate::mannequin::ASSET_PATH);
    Ok(crate::document::Document::from_bytes(
        path,
        crate::mannequin::EMBEDDED_GLB,
        Default::default(),
    )?)
}

fn settings_named(name: &str) -> anyhow::Result<SimSettings> {
    match name {
        "default" => Ok(SimSettings::default()),
        "crowd" => Ok(SimSettings::crowd()),
        _ => anyhow::bail!("unknown settings {name:?} (default, crowd)"),
    }
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

/// Rates of several step functions, each run in turn for 6 rounds within `budget`.
fn alternate_many(
    budget: Duration,
    fs: &mut [&mut dyn FnMut() -> anyhow::Result<()>],
) -> anyhow::Result<Vec<f64>> {
    let rounds = 6;
    let slice = budget / (fs.len() as u32 * rounds);
    let mut tot = vec![(0u64, Duration::ZERO); fs.len()];
    for _ in 0..rounds {
        for (f, (n, t)) in fs.iter_mut().zip(tot.iter_mut()) {
            let start = Instant::now();
            while *n == 0 || start.elapsed() < slice {
                f()?;
                *n += 1;
            }
            *t += start.elapsed();
        }
    }
    Ok(tot
        .iter()
        .map(|(n, t)| *n as f64 / t.as_secs_f64())
        .collect())
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// One case: the editor against the bare world of this build, then (with `exe`) against
/// the bare Rapier build.
fn case(
    doc: &crate::document::Document,
    (label, settings): (&str, &SimSettings),
    n: usize,
    budget: Duration,
    exe: Option<&std::path::Path>,
) -> anyhow::Result<(Value, String)> {
    let mut editor = Simulation::with_copies(doc, settings.clone(), n)?;
    let mut bare = Simulation::with_copies(doc, settings.clone(), n)?;
    for _ in 0..bench_bare::CHECK_STEPS {
        editor.step()?;
        bare.step_bare();
    }
    let mut unhooked = Simulation::with_copies(doc, settings.clone(), n)?;
    for _ in 0..bench_bare::CHECK_STEPS {
        unhooked.step_unhooked();
    }
    let rates = alternate_many(
        budget,
        &mut [
            &mut || Ok(editor.step()?),
            &mut || {
                bare.step_bare();
                Ok(())
            },
            &mut || {
                unhooked.step_unhooked();
                Ok(())
            },
        ],
    )?;
    let (sps, bare_sps, unhooked_sps) = (rates[0], rates[1], rates[2]);
    let overhead = (bare_sps / sps - 1.0) * 100.0;
    let hooks = (unhooked_sps / bare_sps - 1.0) * 100.0;
    let mut out = json!({
        "ragdolls": n,
        "settings": label,
        "steps_per_sec": round1(sps),
        "bare_steps_per_sec": round1(bare_sps),
        "overhead_pct": round1(overhead),
        "unhooked_steps_per_sec": round1(unhooked_sps),
        "contact_order_cost_pct": round1(hooks),
    });
    let mut line = format!(
        "{label:>8} x{n:<4} editor {sps:>9.1} steps/s  bare {bare_sps:>9.1} steps/s  overhead {overhead:>5.1}%  (no hooks {unhooked_sps:>9.1}: contact order {hooks:>5.1}%)"
    );
    if let Some(exe) = exe {
        let mut fresh = Simulation::with_copies(doc, settings.clone(), n)?;
        let file = std::env::temp_dir().join(format!(
            "ragdoll-tuner-scene-{}-{label}-{n}.json",
            std::process::id()
        ));
        std::fs::write(&file, serde_json::to_vec(&fresh.export_scene())?)?;
        let mut ext = BareRapier::spawn(exe, &file)?;
        let _ = std::fs::remove_file(&file);
        let [ours, theirs] = bench_bare::check(&mut fresh, &mut ext)?;
        let rates = bench_bare::alternate(
            budget,
            &mut [&mut || Ok(editor.step()?), &mut || {
                unhooked.step_unhooked();
                Ok(())
            }],
            &mut ext,
        )?;
        let (sps2, own_sps, ext_sps) = (rates[0], rates[1], rates[2]);
        let ratio = sps2 / ext_sps;
        let own = own_sps / ext_sps;
        line += &format!(
            "  | editor {sps2:>9.1} vs bare build {ext_sps:>9.1}: {ratio:.3}x (our unhooked world {own:.3}x)"
        );
        out["bare_build"] = json!({
            "steps_per_sec": round1(sps2),
            "bare_build_steps_per_sec": round1(ext_sps),
            "ratio": (ratio * 1000.0).round() / 1000.0,
            "unhooked_ratio": (own * 1000.0).round() / 1000.0,
            "check_after_steps": bench_bare::CHECK_STEPS,
            "counts_ours": ours,
            "counts_bare_build": theirs,
        });
    }
    Ok((out, line))
}

pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let doc = mannequin()?;
    if let Some(path) = &args.export_scene {
        let label = args.settings.first().map_or("default", String::as_str);
        let n = args.ragdolls.first().copied().unwrap_or(1);
        let sim = Simulation::with_copies(&doc, settings_named(label)?, n)?;
        std::fs::write(path, serde_json::to_vec_pretty(&sim.export_scene())?)?;
        eprintln!("wrote {} ({label}, {n} ragdolls)", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let budget = Duration::from_secs_f64(args.seconds_per_case.max(0.1));
    let mut cases = Vec::new();
    for label in &args.settings {
        let settings = settings_named(label)?;
        for &n in &args.ragdolls {
            let exe = args.bare_rapier.as_deref();
            let (out, line) = case(&doc, (label, &settings), n.max(1), budget, exe)?;
            if !args.json {
                println!("{line}");
            }
            cases.push(out);
        }
    }
    if args.json {
        println!(
            "{}",
            json!({ "rate_hz": 120, "threads": 1, "cases": cases })
        );
    }
    Ok(ExitCode::SUCCESS)
}
