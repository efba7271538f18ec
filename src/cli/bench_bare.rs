//! `bench --bare-rapier PATH`: our stepping side by side with bare Rapier in a build of its
//! own (`tools/bare-rapier`: rapier3d with its default features, no hooks, no controllers).
//! Features unify within one build, so a bare world inside our binary gets whatever we
//! enable; the only fair baseline is another program. It steps the scene we export
//! ([`Simulation::export_scene`]); the two take turns in alternating rounds so both see the
//! same machine load.

use super::bench::Rounds;
use super::bench_window::Windowed;
use crate::sim::scene::WorldCounts;
use crate::sim::Simulation;
use anyhow::{anyhow, bail, Context};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// Steps both worlds take before their counts are compared (1 s at 120 Hz: standing).
pub const CHECK_STEPS: u64 = 120;

/// A running `bare-rapier --serve`.
pub struct BareRapier {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Its counts when it had built the scene.
    pub built: WorldCounts,
}

fn parse_counts(line: &str) -> anyhow::Result<WorldCounts> {
    let v: serde_json::Value = serde_json::from_str(line.trim())
        .with_context(|| format!("bare-rapier answered {line:?}"))?;
    let n = |k: &str| -> anyhow::Result<usize> {
        v[k].as_u64()
            .map(|x| x as usize)
            .ok_or_else(|| anyhow!("bare-rapier's counts lack {k}: {line}"))
    };
    Ok(WorldCounts {
        bodies: n("bodies")?,
        colliders: n("colliders")?,
        joints: n("joints")?,
        touching_pairs: n("touching_pairs")?,
        contact_points: n("contact_points")?,
    })
}

impl BareRapier {
    /// Starts `exe` on the scene `file`.
    pub fn spawn(exe: &Path, file: &Path) -> anyhow::Result<Self> {
        let mut child = Command::new(exe)
            .arg(file)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", exe.display()))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin"))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?);
        let mut me = Self {
            child,
            stdin,
            stdout,
            built: WorldCounts {
                bodies: 0,
                colliders: 0,
                joints: 0,
                touching_pairs: 0,
                contact_points: 0,
            },
        };
        let line = me.read_line()?;
        let counts = line
            .strip_prefix("ready ")
            .ok_or_else(|| anyhow!("{} did not start: {line:?}", exe.display()))?;
        me.built = parse_counts(counts)?;
        Ok(me)
    }

    fn read_line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        if self.stdout.read_line(&mut line)? == 0 {
            bail!("bare-rapier exited (see its error above)");
        }
        Ok(line)
    }

    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        writeln!(self.stdin, "{command}")?;
        self.stdin.flush()?;
        self.read_line()
    }

    pub fn step(&mut self, n: u64) -> anyhow::Result<()> {
        let a = self.ask(&format!("step {n}"))?;
        if a.trim() != "ok" {
            bail!("bare-rapier answered {a:?} to step");
        }
        Ok(())
    }

    fn ok(&mut self, command: &str) -> anyhow::Result<()> {
        let a = self.ask(command)?;
        if a.trim() != "ok" {
            bail!("bare-rapier answered {a:?} to {command} (rebuild tools/bare-rapier)");
        }
        Ok(())
    }

    /// From now on it steps within `window_steps` of its world as it is now, and goes back to
    /// it when past ([`super::bench_window`]).
    pub fn window(&mut self, window_steps: u64) -> anyhow::Result<()> {
        self.ok(&format!("window {window_steps}"))
    }

    pub fn counts(&mut self) -> anyhow::Result<WorldCounts> {
        let line = self.ask("counts")?;
        parse_counts(&line)
    }

    /// Steps for `slice` of wall time; returns (steps, CPU seconds its thread spent).
    pub fn run(&mut self, slice: Duration) -> anyhow::Result<(u64, f64)> {
        let a = self.ask(&format!("run {}", slice.as_secs_f64()))?;
        let mut w = a.split_whitespace();
        let n = w.next().and_then(|x| x.parse().ok());
        let cpu = w.nth(1).and_then(|x| x.parse().ok());
        n.zip(cpu).ok_or_else(|| {
            anyhow!("bare-rapier answered {a:?} to run (rebuild tools/bare-rapier: it must report CPU time)")
        })
    }
}

impl Drop for BareRapier {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// Whether two worlds' counts agree: bodies, colliders and joints exactly; contacts within
/// 10% (or 2): the same world stepped by two builds may differ in the last bits.
pub fn counts_agree(a: &WorldCounts, b: &WorldCounts) -> bool {
    let near = |x: usize, y: usize| x.abs_diff(y) <= 2.max(x.max(y) / 10);
    a.bodies == b.bodies
        && a.colliders == b.colliders
        && a.joints == b.joints
        && near(a.touching_pairs, b.touching_pairs)
        && near(a.contact_points, b.contact_points)
}

/// The check before timing: `fresh` (built like the timed world, stepped here without
/// controllers, as the bare program steps it) and the bare program after [`CHECK_STEPS`].
pub fn check(fresh: &mut Simulation, bare: &mut BareRapier) -> anyhow::Result<[WorldCounts; 2]> {
    let ours = fresh.world_counts();
    if !counts_agree(&ours, &bare.built) {
        bail!(
            "the exported scene differs: ours {ours:?}, bare-rapier {:?}",
            bare.built
        );
    }
    for _ in 0..CHECK_STEPS {
        fresh.step_unhooked();
    }
    bare.step(CHECK_STEPS)?;
    let (ours, theirs) = (fresh.world_counts(), bare.counts()?);
    if !counts_agree(&ours, &theirs) {
        bail!("after {CHECK_STEPS} steps the worlds differ: ours {ours:?}, bare-rapier {theirs:?}");
    }
    Ok([ours, theirs])
}

/// Each of `ours` and then the bare program (last), in turn for [`super::bench::ROUNDS`]
/// rounds within `budget` of wall time: steps and CPU seconds of the stepping thread. Every
/// world, the bare program's too, steps within its window.
pub fn alternate(
    budget: Duration,
    ours: &mut [&mut Windowed],
    bare: &mut BareRapier,
) -> anyhow::Result<Rounds> {
    let rounds = super::bench::ROUNDS;
    let slice = budget / ((ours.len() as u32 + 1) * rounds);
    let mut out = Rounds::new(ours.len() + 1);
    for _ in 0..rounds {
        for (w, runs) in ours.iter_mut().zip(out.runs.iter_mut()) {
            runs.push(super::bench::time_slice(&mut || w.step(), slice)?);
        }
        let last = out.runs.last_mut().expect("one entry per world");
        last.push(bare.run(slice)?);
    }
    Ok(out)
}
