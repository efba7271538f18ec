//! `bench`: N = 1, 10, 100 default mannequins stepped at 120 Hz under the editor's settings
//! and Rapier's defaults (`crowd`), the editor's simulation (drives, balance, telemetry of
//! ragdoll 0 as the editor plots it, guard) side by side with the same bodies and joints stepped by bare Rapier: in this
//! binary (the hooks' overhead), and with `--bare-rapier` in a build of its own
//! ([`super::bench_bare`]). Rates are steps per second of the stepping thread's CPU time
//! ([`thread_cpu_s`]), so the waits of a machine shared with other work do not count.

use super::bench_bare;
use super::bench_process::{take_turns, WorldProcess};
use super::bench_window::{self, World};
use crate::sim::scene::WorldCounts;
use crate::sim::{SimSettings, Simulation};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// What `bench` measures.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Wall-clock seconds measured per case (split between editor and bare).
    #[arg(long, default_value_t = 2.0, value_parser = measure_seconds)]
    pub seconds_per_case: f64,
    /// Ragdoll counts to measure (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1usize, 10, 100], value_parser = ragdoll_count)]
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
    /// Step one world of the first case alone for `--seconds-per-case` (`editor`,
    /// `untraced`: the editor without telemetry, `bare`: hooked, `unhooked`) and print its
    /// rate: for profilers.
    #[arg(long)]
    pub solo: Option<String>,
    /// Serve one world of the first case on stdin/stdout (`bench` runs each world in a
    /// process of its own this way; [`super::bench_serve`]).
    #[arg(long, hide = true)]
    pub serve: Option<String>,
    /// With `--solo`: exactly this many steps after the warm-up instead of a time budget
    /// (for instruction counts, e.g. under `valgrind --tool=callgrind`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=MAX_SOLO_STEPS))]
    pub steps: Option<u64>,
}

/// The longest a benchmark measures one case (wall-clock seconds).
pub const MAX_MEASURE_S: f64 = 600.0;
/// The most ragdolls a case steps (the issue measures 100).
pub const MAX_RAGDOLLS: usize = 1000;
/// The most steps `--solo --steps` takes.
pub const MAX_SOLO_STEPS: u64 = 10_000_000;

/// Wall-clock seconds to measure: a number in (0, [`MAX_MEASURE_S`]] (NaN had run as 0.1 s,
/// 1e12 for ever).
pub fn measure_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= MAX_MEASURE_S => Ok(v),
        _ => Err(format!(
            "'{s}' is not a number of seconds above 0 and at most {MAX_MEASURE_S}"
        )),
    }
}

/// A count of ragdolls from 1 to [`MAX_RAGDOLLS`] (0 had run as 1).
fn ragdoll_count(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_RAGDOLLS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{s}' is not a count of ragdolls from 1 to {MAX_RAGDOLLS}"
        )),
    }
}

pub(super) fn mannequin() -> anyhow::Result<crate::document::Document> {
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

/// This thread's CPU time (s): the clock the rates are measured with. On a machine shared
/// with other work, wall time also counts the slices in which this thread waited for a core,
/// which differ from world to world by 10% or more; CPU time does not.
/// NaN where the clock is not available.
pub(crate) fn thread_cpu_s() -> f64 {
    crate::tune::timing::thread_cpu_s().unwrap_or(f64::NAN)
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

/// Alternating rounds of several worlds: each world's steps and CPU seconds per round.
pub(super) struct Rounds {
    /// `[world][round]`: (steps, CPU seconds).
    pub runs: Vec<Vec<(u64, f64)>>,
}

/// Rounds each world takes in turn within a case's budget: many short rounds, so that a
/// burst of load from other work lands on all worlds alike, and the per-round ratios'
/// median leaves the rounds it still hits unevenly out.
pub(super) const ROUNDS: u32 = 24;

impl Rounds {
    pub fn new(worlds: usize) -> Self {
        Self {
            runs: vec![Vec::new(); worlds],
        }
    }

    /// World `w`'s steps per CPU second over all rounds.
    pub fn rate(&self, w: usize) -> f64 {
        let (n, t) = self.runs[w]
            .iter()
            .fold((0u64, 0.0), |a, r| (a.0 + r.0, a.1 + r.1));
        n as f64 / t
    }

    /// The rounds of worlds taken as one world each: `groups[k]` lists the worlds whose
    /// steps and CPU seconds make world `k`'s, round by round.
    pub fn merged(&self, groups: &[Vec<usize>]) -> Rounds {
        let runs = groups
            .iter()
            .map(|g| {
                (0..self.runs[g[0]].len())
                    .map(|r| {
                        g.iter().fold((0u64, 0.0), |a, &w| {
                            (a.0 + self.runs[w][r].0, a.1 + self.runs[w][r].1)
                        })
                    })
                    .collect()
            })
            .collect();
        Rounds { runs }
    }

    /// The median over rounds of world `a`'s rate over world `b`'s.
    pub fn median_ratio(&self, a: usize, b: usize) -> f64 {
        let mut r: Vec<f64> = self.runs[a]
            .iter()
            .zip(&self.runs[b])
            .map(|(x, y)| (x.0 as f64 / x.1) / (y.0 as f64 / y.1))
            .filter(|x| x.is_finite())
            .collect();
        r.sort_by(f64::total_cmp);
        match r.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => r[n / 2],
            n => 0.5 * (r[n / 2 - 1] + r[n / 2]),
        }
    }
}

/// Steps `f` for `slice` of wall time (at least once): (steps, CPU seconds).
pub(super) fn time_slice(
    f: &mut dyn FnMut() -> anyhow::Result<()>,
    slice: Duration,
) -> anyhow::Result<(u64, f64)> {
    let (start, cpu) = (Instant::now(), thread_cpu_s());
    let mut k = 0u64;
    while k == 0 || start.elapsed() < slice {
        f()?;
        k += 1;
    }
    Ok((k, thread_cpu_s() - cpu))
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The kinds of our worlds a case measures, in the order of its figures.
const KINDS: [World; 4] = [World::Editor, World::Untraced, World::Bare, World::Unhooked];

/// The processes of kind `k` (an index into [`KINDS`]) in [`our_worlds`]' order.
fn processes_of(k: usize) -> [usize; 2] {
    [k, 2 * KINDS.len() - 1 - k]
}

/// Our worlds of a case, each in a process of its own ([`super::bench_serve`]) and warmed
/// up there by [`bench_bare::CHECK_STEPS`] steps; each is rewound to that state once past
/// the window ([`bench_window`]). Two processes of each kind, started in the order of
/// [`KINDS`] and then in reverse ([`processes_of`]), so every kind's mean start is the same:
/// the first process started stepped slower than the same world started later (crowd x100,
/// the editor world started first: 11.8% and 11.3% under the bare world; started last: 3.3%
/// and 4.2%).
fn our_worlds(label: &str, n: usize) -> anyhow::Result<Vec<WorldProcess>> {
    let exe = std::env::current_exe()?;
    let order = KINDS.iter().chain(KINDS.iter().rev());
    order
        .map(|w| {
            let mut command = Command::new(&exe);
            command.args(["bench", "--serve", w.name(), "--settings", label]);
            command.args(["--ragdolls", &n.to_string()]);
            WorldProcess::spawn(&format!("the {} world", w.name()), command)
        })
        .collect()
}

/// One case: the editor against the bare world of this build, and (with `exe`) against the
/// bare Rapier build, all in one alternation.
fn case(
    doc: &crate::document::Document,
    (label, settings): (&str, &SimSettings),
    n: usize,
    budget: Duration,
    exe: Option<&std::path::Path>,
) -> anyhow::Result<(Value, String)> {
    let mut ours = our_worlds(label, n)?;
    let mut ext = match exe {
        Some(exe) => Some(bare_build(doc, settings, n, exe)?),
        None => None,
    };
    // Merged, world `k` is kind `k`'s two processes and the bare build is the last.
    let mut groups: Vec<Vec<usize>> = (0..KINDS.len()).map(|k| processes_of(k).to_vec()).collect();
    groups.extend(ext.is_some().then(|| vec![ours.len()]));
    let mut worlds: Vec<&mut WorldProcess> = ours
        .iter_mut()
        .chain(ext.as_mut().map(|e| &mut e.0))
        .collect();
    let rates = take_turns(budget, &mut worlds)?.merged(&groups);
    let [sps, untraced_sps, bare_sps, unhooked_sps] = [0, 1, 2, 3].map(|w| rates.rate(w));
    // Costs as the median over rounds of the ratio of two worlds' rates.
    let overhead = (rates.median_ratio(2, 0) - 1.0) * 100.0;
    let telemetry = (rates.median_ratio(1, 0) - 1.0) * 100.0;
    let hooks = (rates.median_ratio(3, 2) - 1.0) * 100.0;
    let mut out = json!({
        "ragdolls": n,
        "settings": label,
        "clock": "thread CPU time",
        "worlds": "one process each",
        "rounds": ROUNDS,
        "steps_per_sec": round1(sps),
        "bare_steps_per_sec": round1(bare_sps),
        "overhead_pct": round1(overhead),
        "no_telemetry_steps_per_sec": round1(untraced_sps),
        "telemetry_cost_pct": round1(telemetry),
        "unhooked_steps_per_sec": round1(unhooked_sps),
        "contact_order_cost_pct": round1(hooks),
        "window_s": bench_window::WINDOW_S,
        "rewinds": processes_of(0).iter().map(|&p| ours[p].rewinds()).sum::<anyhow::Result<u64>>()?,
    });
    let mut line = format!(
        "{label:>8} x{n:<4} editor {sps:>8.1} steps/s  bare {bare_sps:>8.1}  overhead {overhead:>5.1}% (telemetry {telemetry:>5.1}%)  no hooks {unhooked_sps:>8.1}: contact order {hooks:>5.1}%"
    );
    if let Some((_, [ours_counts, theirs])) = ext {
        let build = KINDS.len();
        let ext_sps = rates.rate(build);
        let (ratio, own) = (rates.median_ratio(0, build), rates.median_ratio(3, build));
        line +=
            &format!("  | bare build {ext_sps:>8.1}: {ratio:.3}x (our unhooked world {own:.3}x)");
        out["bare_build"] = json!({
            "bare_build_steps_per_sec": round1(ext_sps),
            "ratio": (ratio * 1000.0).round() / 1000.0,
            "unhooked_ratio": (own * 1000.0).round() / 1000.0,
            "check_after_steps": bench_bare::CHECK_STEPS,
            "counts_ours": ours_counts,
            "counts_bare_build": theirs,
        });
    }
    Ok((out, line))
}

/// The bare Rapier build `exe` stepping the scene of `n` copies of `doc`, checked against
/// ours ([`bench_bare::check`]) and windowed as our worlds are; with both worlds' counts.
fn bare_build(
    doc: &crate::document::Document,
    settings: &SimSettings,
    n: usize,
    exe: &std::path::Path,
) -> anyhow::Result<(WorldProcess, [WorldCounts; 2])> {
    let mut fresh = Simulation::with_copies(doc, settings.clone(), n)?;
    let file = std::env::temp_dir().join(format!(
        "ragdoll-tuner-scene-{}-{n}.json",
        std::process::id()
    ));
    std::fs::write(&file, serde_json::to_vec(&fresh.export_scene())?)?;
    fresh.drop_hooks();
    let ext = bench_bare::spawn(exe, &file);
    // The scene is read once the process is ready; a file left behind is only clutter.
    let _ = std::fs::remove_file(&file);
    let mut ext = ext?;
    let counts = bench_bare::check(&mut fresh, &mut ext)?;
    ext.window(bench_window::window_steps(fresh.settings().dt_s))?;
    Ok((ext, counts))
}

/// How long [`solo`] steps.
enum Run {
    For(Duration),
    Steps(u64),
}

/// One world stepped alone (after the same warm-up as [`case`]), for a profiler.
fn solo(
    doc: &crate::document::Document,
    (label, settings): (&str, &SimSettings),
    n: usize,
    length: Run,
    world: &str,
) -> anyhow::Result<ExitCode> {
    let mut w = World::named(world)?.warmed(doc, settings, n)?;
    let (t, cpu, mut k) = (Instant::now(), thread_cpu_s(), 0u64);
    while match length {
        Run::For(budget) => k == 0 || t.elapsed() < budget,
        Run::Steps(n) => k < n,
    } {
        w.step_unwindowed()?;
        k += 1;
    }
    let sps = k as f64 / (thread_cpu_s() - cpu);
    println!("{label:>8} x{n:<4} {world} alone: {k} steps, {sps:>9.1} steps/s (CPU time)");
    Ok(ExitCode::SUCCESS)
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
    if let Some(world) = &args.serve {
        let label = args.settings.first().map_or("default", String::as_str);
        let n = args.ragdolls.first().copied().unwrap_or(1).max(1);
        return super::bench_serve::serve(&doc, &settings_named(label)?, n, world);
    }
    if let Some(world) = &args.solo {
        let label = args.settings.first().map_or("default", String::as_str);
        let n = args.ragdolls.first().copied().unwrap_or(1).max(1);
        let length = args.steps.map_or(Run::For(budget), Run::Steps);
        return solo(&doc, (label, &settings_named(label)?), n, length, world);
    }
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
