//! `bench --serve WORLD`: one of `bench`'s worlds in a process of its own, answering the
//! line protocol of `tools/bare-rapier --serve` on stdin/stdout, so that `bench` measures
//! every world alike, each alone in its process ([`super::bench_process`]).
//!
//! Why a process each: stepped side by side in one process, the world built first measured
//! slower than the same world built later, by as much as the hooks' cost (crowd x100, one
//! run each: the editor built first 10.3% over the bare world, the bare world built first
//! -1.6%). Where a world's memory lies depends on what was allocated and freed before it;
//! in a process of its own every world is built after the same document, as in the editor.
//!
//! Commands, one per line (answers in brackets):
//! - `step N`: N steps within the window [`ok`];
//! - `run S`: steps for S seconds of wall time, at least once [`STEPS ELAPSED_S CPU_S`, the
//!   CPU time of the stepping thread];
//! - `counts` [the world's counts as JSON];
//! - `window N`: from now on within N steps of the world as it is now [`ok`];
//! - `rewinds` [times rewound to the window's start since it was marked];
//! - `quit`.
//!
//! It first prints `ready COUNTS_JSON`.

use super::bench::time_slice;
use super::bench_window::{Windowed, World};
use crate::document::Document;
use crate::sim::SimSettings;
use anyhow::{anyhow, bail, Context};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Builds `world` (`n` copies of `doc` under `settings`, warmed up) and answers commands on
/// stdin until `quit` or the end of input.
pub fn serve(
    doc: &Document,
    settings: &SimSettings,
    n: usize,
    world: &str,
) -> anyhow::Result<ExitCode> {
    let mut w = World::named(world)?.warmed(doc, settings, n)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut say = |line: String| -> anyhow::Result<()> {
        writeln!(out, "{line}")?;
        Ok(out.flush()?)
    };
    say(format!("ready {}", counts(&w)?))?;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("step"), Some(k)) => {
                for _ in 0..number::<u64>(k)? {
                    w.step()?;
                }
                say("ok".into())?;
            }
            (Some("run"), Some(s)) => {
                let slice = Duration::try_from_secs_f64(number::<f64>(s)?)
                    .with_context(|| format!("bad seconds {s:?}"))?;
                let t = Instant::now();
                let (steps, cpu) = time_slice(&mut || w.step(), slice)?;
                say(format!("{steps} {} {cpu}", t.elapsed().as_secs_f64()))?;
            }
            (Some("counts"), _) => say(counts(&w)?)?,
            (Some("window"), Some(k)) => {
                w.mark(number::<u64>(k)?);
                say("ok".into())?;
            }
            (Some("rewinds"), _) => say(w.rewinds.to_string())?,
            (Some("quit"), _) | (None, _) => break,
            _ => bail!("unknown command {line:?}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn number<T: std::str::FromStr>(s: &str) -> anyhow::Result<T> {
    s.parse().map_err(|_| anyhow!("bad number {s:?}"))
}

fn counts(w: &Windowed) -> anyhow::Result<String> {
    Ok(serde_json::to_string(&w.sim.world_counts())?)
}
