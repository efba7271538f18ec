//! A world stepped in a process of its own that answers `bench`'s line protocol: one of our
//! worlds (`bench --serve WORLD`, [`super::bench_serve`]) or the bare Rapier build
//! (`tools/bare-rapier --serve`). Worlds take turns in rounds, so all see the same machine
//! load, and each reports the CPU time of its own stepping thread.

use super::bench::Rounds;
use crate::sim::scene::WorldCounts;
use anyhow::{anyhow, bail, Context};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// A running world server.
pub struct WorldProcess {
    /// What it is, for messages (`bare-rapier`, `editor world`).
    label: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Its counts when it had built its world.
    pub built: WorldCounts,
}

/// One line of `label`'s answers; an error once it has exited.
fn read_line(label: &str, stdout: &mut BufReader<ChildStdout>) -> anyhow::Result<String> {
    let mut line = String::new();
    if stdout.read_line(&mut line)? == 0 {
        bail!("{label} exited (see its error above)");
    }
    Ok(line)
}

fn parse_counts(label: &str, line: &str) -> anyhow::Result<WorldCounts> {
    let v: serde_json::Value =
        serde_json::from_str(line.trim()).with_context(|| format!("{label} answered {line:?}"))?;
    let n = |k: &str| -> anyhow::Result<usize> {
        v[k].as_u64()
            .map(|x| x as usize)
            .ok_or_else(|| anyhow!("{label}'s counts lack {k}: {line}"))
    };
    Ok(WorldCounts {
        bodies: n("bodies")?,
        colliders: n("colliders")?,
        joints: n("joints")?,
        touching_pairs: n("touching_pairs")?,
        contact_points: n("contact_points")?,
    })
}

impl WorldProcess {
    /// Starts `command` (whose stdin and stdout it takes) and waits for its `ready` line.
    pub fn spawn(label: &str, mut command: Command) -> anyhow::Result<Self> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {label} ({command:?})"))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin"))?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?);
        let line = read_line(label, &mut stdout)?;
        let counts = line
            .strip_prefix("ready ")
            .ok_or_else(|| anyhow!("{label} did not start: {line:?}"))?;
        Ok(Self {
            built: parse_counts(label, counts)?,
            label: label.to_string(),
            child,
            stdin,
            stdout,
        })
    }

    fn read_line(&mut self) -> anyhow::Result<String> {
        read_line(&self.label, &mut self.stdout)
    }

    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        writeln!(self.stdin, "{command}")?;
        self.stdin.flush()?;
        self.read_line()
    }

    fn ok(&mut self, command: &str) -> anyhow::Result<()> {
        let a = self.ask(command)?;
        if a.trim() != "ok" {
            bail!("{} answered {a:?} to {command} (rebuild it?)", self.label);
        }
        Ok(())
    }

    pub fn step(&mut self, n: u64) -> anyhow::Result<()> {
        self.ok(&format!("step {n}"))
    }

    /// From now on it steps within `window_steps` of its world as it is now, and goes back to
    /// it when past ([`super::bench_window`]).
    pub fn window(&mut self, window_steps: u64) -> anyhow::Result<()> {
        self.ok(&format!("window {window_steps}"))
    }

    pub fn counts(&mut self) -> anyhow::Result<WorldCounts> {
        let line = self.ask("counts")?;
        parse_counts(&self.label, &line)
    }

    /// Times it went back to its window's start (our own worlds only).
    pub fn rewinds(&mut self) -> anyhow::Result<u64> {
        let a = self.ask("rewinds")?;
        a.trim()
            .parse()
            .map_err(|_| anyhow!("{} answered {a:?} to rewinds", self.label))
    }

    /// Steps for `slice` of wall time; returns (steps, CPU seconds its thread spent).
    pub fn run(&mut self, slice: Duration) -> anyhow::Result<(u64, f64)> {
        let a = self.ask(&format!("run {}", slice.as_secs_f64()))?;
        let mut w = a.split_whitespace();
        let n = w.next().and_then(|x| x.parse().ok());
        let cpu = w.nth(1).and_then(|x| x.parse().ok());
        n.zip(cpu).ok_or_else(|| {
            anyhow!(
                "{} answered {a:?} to run (rebuild it: it must report CPU time)",
                self.label
            )
        })
    }
}

impl Drop for WorldProcess {
    fn drop(&mut self) {
        // Best effort: a server that has already exited has nothing left to stop.
        if writeln!(self.stdin, "quit").is_err() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Each world in turn for [`super::bench::ROUNDS`] rounds within `budget` of wall time:
/// steps and CPU seconds of its stepping thread, per round.
pub fn take_turns(budget: Duration, worlds: &mut [&mut WorldProcess]) -> anyhow::Result<Rounds> {
    let rounds = super::bench::ROUNDS;
    let slice = budget / (worlds.len() as u32 * rounds);
    let mut out = Rounds::new(worlds.len());
    let mut order: Vec<usize> = (0..worlds.len()).collect();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..rounds {
        // A new order each round: a world that always ran after the same one stepped up to
        // 5% slower than its twin (crowd x100 after the bare build's process).
        shuffle(&mut order, &mut seed);
        for &k in &order {
            out.runs[k].push(worlds[k].run(slice)?);
        }
    }
    Ok(out)
}

/// Fisher-Yates with xorshift64 from `seed`: the same orders every run.
fn shuffle(order: &mut [usize], seed: &mut u64) {
    for i in (1..order.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        order.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}
