//! A run on tape: its [`Recording`] (every body's pose at every step) and light snapshots of
//! the whole simulation about every second, so any recorded moment can be restored exactly:
//! the nearest snapshot at or before it, stepped forward to it (stepping is deterministic).
//!
//! Anything that changes the world from outside between steps (an edit, a push, a control)
//! must be announced with [`Tape::mark_changed`]: the next step then snapshots first, so no
//! replay ever steps over a change it cannot repeat.

use super::Recording;
use crate::sim::{SimPause, Simulation};
use std::collections::VecDeque;

/// A run's recording and its snapshots.
#[derive(Clone)]
pub struct Tape {
    pub recording: Recording,
    /// Light snapshots (no telemetry history), oldest first, in step order.
    snapshots: VecDeque<Simulation>,
    /// A periodic snapshot every this many steps.
    every: u64,
    max_snapshots: usize,
    snap_next: bool,
    /// Wall-clock seconds not yet stepped (as `Simulation::advance` keeps them).
    accumulator_s: f64,
    /// Estimated bytes of one snapshot.
    snapshot_bytes: usize,
}

/// Estimated heap of one light snapshot: a fixed part (the world's sets, pair maps,
/// settings) and a part per body (its rigid body, collider, limit and drive joints, broad
/// and narrow phase entries, the simulation layer's records). Measured with a counting
/// allocator after 2 s of simulation: 117,140 bytes for the 18-body mannequin, 251,118 for
/// the dense 51-body character.
const SNAPSHOT_BYTES_FIXED: usize = 44_000;
const SNAPSHOT_BYTES_PER_BODY: usize = 4_100;

impl Tape {
    /// A tape of `sim`'s run holding the last `seconds`; records the current state.
    pub fn new(sim: &Simulation, seconds: f64) -> Self {
        let dt = f64::from(sim.settings().dt_s).max(1e-6);
        let mut recording = Recording::new(sim, seconds);
        recording.push(sim);
        let periodic = seconds.ceil() as usize + 1;
        Self {
            snapshot_bytes: SNAPSHOT_BYTES_FIXED
                + recording.bones().len() * SNAPSHOT_BYTES_PER_BODY,
            recording,
            snapshots: VecDeque::new(),
            every: (1.0 / dt).round().max(1.0) as u64,
            // Room for a changed world now and then beside the periodic ones.
            max_snapshots: 2 * periodic + 16,
            snap_next: true,
            accumulator_s: 0.0,
        }
    }

    /// The world was changed from outside (an edit, a push, a setting): the next step
    /// snapshots first.
    pub fn mark_changed(&mut self) {
        self.snap_next = true;
    }

    /// One fixed step of `sim`, recorded.
    pub fn step(&mut self, sim: &mut Simulation) -> Result<(), SimPause> {
        let due = self
            .snapshots
            .back()
            .is_none_or(|s| sim.steps() >= s.steps() + self.every);
        if self.snap_next || due {
            self.snapshot(sim);
        }
        sim.step()?;
        self.recording.push(sim);
        Ok(())
    }

    /// As `Simulation::advance`: as many fixed steps as `wall_s` asks for (at most
    /// `max_steps`), each recorded. Returns the steps taken.
    pub fn advance(
        &mut self,
        sim: &mut Simulation,
        wall_s: f64,
        max_steps: usize,
    ) -> Result<usize, SimPause> {
        self.accumulator_s += wall_s;
        let dt = f64::from(sim.settings().dt_s);
        let mut n = 0;
        while self.accumulator_s >= dt && n < max_steps {
            self.step(sim)?;
            self.accumulator_s -= dt;
            n += 1;
        }
        if n == max_steps {
            self.accumulator_s = self.accumulator_s.min(dt);
        }
        Ok(n)
    }

    fn snapshot(&mut self, sim: &mut Simulation) {
        self.snap_next = false;
        if self
            .snapshots
            .back()
            .is_some_and(|s| s.steps() == sim.steps())
        {
            self.snapshots.pop_back();
        }
        self.snapshots.push_back(sim.snapshot_light());
        let oldest = self.recording.frame(0).map_or(0, |f| f.step);
        while self.snapshots.len() > self.max_snapshots
            || self.snapshots.get(1).is_some_and(|s| s.steps() <= oldest)
        {
            self.snapshots.pop_front();
        }
    }

    /// The exact state at recorded `step`: the nearest snapshot at or before it, stepped
    /// forward. None when no snapshot reaches back that far (or the steps failed).
    pub fn restore(&self, step: u64) -> Option<Simulation> {
        let snap = self.snapshots.iter().rev().find(|s| s.steps() <= step)?;
        let mut sim = snap.clone();
        sim.regrow_telemetry();
        while sim.steps() < step {
            sim.step().ok()?;
        }
        Some(sim)
    }

    /// Whether `step` can be restored.
    pub fn can_restore(&self, step: u64) -> bool {
        self.snapshots.front().is_some_and(|s| s.steps() <= step)
    }

    /// Forgets everything after `step` (a branch continues from there): the frames, the
    /// snapshots, and the time not yet stepped.
    pub fn truncate_after(&mut self, step: u64) {
        self.recording.truncate_after(step);
        while self.snapshots.back().is_some_and(|s| s.steps() > step) {
            self.snapshots.pop_back();
        }
        self.accumulator_s = 0.0;
        self.snap_next = true;
    }

    /// Snapshots held.
    pub fn snapshots(&self) -> usize {
        self.snapshots.len()
    }

    /// Memory held: the recording's ring and the snapshots (estimated, see
    /// [`SNAPSHOT_BYTES_PER_BODY`]).
    pub fn bytes(&self) -> usize {
        self.recording.bytes() + self.snapshots.len() * self.snapshot_bytes
    }
}
