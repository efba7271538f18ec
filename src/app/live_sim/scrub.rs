//! The timeline over the live simulation: scrubbing the recorded run (the viewport shows the
//! recorded pose while the world waits at the end of the run), and branches: the exact state
//! at a recorded moment, restored from the tape, continued with the current document.

use super::{LiveSim, PlotData, Tape};
use crate::app::timeline_panel::{Request, TimelineView};
use crate::document::Document;
use crate::sim::Simulation;

/// The first run and the last five branches.
pub const MAX_RUNS: usize = 6;

/// A run that is not the active one, kept whole.
struct Stored {
    sim: Simulation,
    tape: Tape,
    plot: PlotData,
}

/// One run of the branch list.
struct Run {
    label: String,
    /// None for the active run (it lives in the [`LiveSim`] itself).
    stored: Option<Stored>,
}

/// The scrubbed moment and the branches.
#[derive(Default)]
pub struct Timeline {
    /// The recorded step shown instead of the live world.
    pub cursor: Option<u64>,
    runs: Vec<Run>,
    active: usize,
    /// The run whose plots are drawn over the active one's.
    compare: Option<usize>,
    /// What the timeline shows, as of the last settled state.
    view: Option<TimelineView>,
}

impl PlotData {
    fn bytes(&self) -> usize {
        (self.times.len() * (3 + self.joint_error.len())) * std::mem::size_of::<f64>()
    }

    /// Forgets the samples after `step` at `time_s` (a branch continues from there).
    fn truncate_after(&mut self, step: u64, time_s: f64) {
        let keep = self.times.partition_point(|&t| t <= time_s + 1e-9);
        self.times.truncate(keep);
        self.tilt.truncate(keep);
        self.com.truncate(keep);
        for e in &mut self.joint_error {
            e.truncate(keep);
        }
        self.last_step = Some(step);
        self.at_step = step;
    }
}

impl LiveSim {
    /// What the timeline shows (kept up to date without taking the world back).
    pub(super) fn timeline_view(&self) -> Option<&TimelineView> {
        self.timeline.view.as_ref()
    }

    /// Refreshes [`Self::timeline_view`] from the settled world.
    pub(super) fn refresh_timeline(&mut self) {
        let Some(tape) = self.tape.get_mut().as_ref() else {
            self.timeline.view = None;
            return;
        };
        let rec = &tape.recording;
        let (Some(first), Some(last)) = (rec.frame(0), rec.len().checked_sub(1)) else {
            self.timeline.view = None;
            return;
        };
        let last = rec.frame(last).unwrap_or(first);
        let tl = &self.timeline;
        let cursor = tl.cursor.and_then(|s| rec.index_of_step(s));
        let at = cursor.and_then(|i| rec.frame(i)).unwrap_or(last);
        let stored: usize = tl
            .runs
            .iter()
            .filter_map(|r| r.stored.as_ref())
            .map(|s| s.tape.bytes() + s.plot.bytes())
            .sum();
        self.timeline.view = Some(TimelineView {
            start_s: first.time_s,
            end_s: last.time_s,
            cursor_s: cursor.and(Some(at.time_s)),
            frames: rec.len(),
            bytes: tape.bytes() + self.plot.bytes() + stored,
            runs: tl.runs.iter().map(|r| r.label.clone()).collect(),
            active: tl.active,
            compare: tl.compare,
            can_branch: tape.can_restore(at.step),
        });
    }

    /// Carries out what the timeline asked for; says why when it could not.
    pub(super) fn timeline_request(&mut self, doc: &Document, req: Request) -> Result<(), String> {
        self.settle();
        let result = match req {
            Request::Scrub(t) => self.scrub_near(t),
            Request::Frames(n) => self.scrub_frames(n),
            Request::Live => {
                self.timeline.cursor = None;
                self.update_pose();
                Ok(())
            }
            Request::Resimulate(label) => self.resimulate(doc, label),
            Request::Select(i) => self.select_run(i),
            Request::Compare(i) => {
                let ok = i.is_none_or(|i| {
                    self.timeline
                        .runs
                        .get(i)
                        .is_some_and(|r| r.stored.is_some())
                });
                self.timeline.compare = i.filter(|_| ok);
                Ok(())
            }
        };
        self.refresh_timeline();
        result
    }

    /// Shows the recorded frame `index` (the oldest held is 0).
    fn scrub_to(&mut self, index: usize) -> Result<(), String> {
        let tape = self.tape.get_mut().take().ok_or("nothing is recorded")?;
        let shown = tape.recording.frame(index).map(|f| {
            let bodies = tape
                .recording
                .bones()
                .iter()
                .copied()
                .zip(f.poses.iter().copied());
            (f.step, self.pose_of(bodies))
        });
        *self.tape.get_mut() = Some(tape);
        let (step, pose) = shown.ok_or("no such recorded frame")?;
        self.timeline.cursor = Some(step);
        self.pose = pose;
        Ok(())
    }

    fn scrub_near(&mut self, time_s: f64) -> Result<(), String> {
        let i = self
            .tape
            .get_mut()
            .as_ref()
            .and_then(|t| t.recording.index_near(time_s));
        self.scrub_to(i.ok_or("nothing is recorded")?)
    }

    fn scrub_frames(&mut self, n: i64) -> Result<(), String> {
        let tape = self.tape.get_mut().as_ref().ok_or("nothing is recorded")?;
        let rec = &tape.recording;
        let last = rec.len().saturating_sub(1);
        let now = match self.timeline.cursor {
            Some(s) => rec.index_of_step(s).unwrap_or(last),
            None => last,
        };
        let to = (now as i64 + n).clamp(0, last as i64) as usize;
        self.scrub_to(to)
    }

    /// Restarts from the exact state at the cursor (the live end without one) with `doc`'s
    /// settings; the run it leaves is kept in the branch list.
    fn resimulate(&mut self, doc: &Document, label: String) -> Result<(), String> {
        let tape = self.tape.get_mut().as_ref().ok_or("nothing is recorded")?;
        let sim = self
            .sim
            .get_mut()
            .as_ref()
            .ok_or("there is no simulation")?;
        let step = self.timeline.cursor.unwrap_or(sim.steps());
        let time_s = tape
            .recording
            .index_of_step(step)
            .and_then(|i| tape.recording.frame(i))
            .map(|f| f.time_s)
            .ok_or("that moment is no longer recorded")?;
        let mut restored = tape
            .restore(step)
            .ok_or("that moment is older than the oldest snapshot kept")?;
        restored
            .sync(doc)
            .map_err(|e| format!("the branch cannot take the current document: {e}"))?;
        let mut branch_tape = tape.clone();
        branch_tape.truncate_after(step);
        let mut plot = self.plot.clone();
        plot.truncate_after(step, time_s);
        self.park_active();
        self.timeline.runs.push(Run {
            label,
            stored: None,
        });
        self.timeline.active = self.timeline.runs.len() - 1;
        self.make_active(restored, branch_tape, plot);
        self.forget_old_runs();
        self.timeline.cursor = None;
        self.update_pose();
        self.refresh_status();
        Ok(())
    }

    /// Moves the active run into its place in the list (the first run gets one).
    fn park_active(&mut self) {
        if self.timeline.runs.is_empty() {
            self.timeline.runs.push(Run {
                label: "first run".into(),
                stored: None,
            });
            self.timeline.active = 0;
        }
        let (Some(sim), Some(tape)) = (self.sim.get_mut().take(), self.tape.get_mut().take())
        else {
            return;
        };
        let plot = std::mem::take(&mut self.plot);
        self.timeline.runs[self.timeline.active].stored = Some(Stored { sim, tape, plot });
    }

    fn make_active(&mut self, sim: Simulation, mut tape: Tape, plot: PlotData) {
        tape.mark_changed();
        *self.sim.get_mut() = Some(sim);
        *self.tape.get_mut() = Some(tape);
        self.plot = plot;
        self.controls_seen = None;
        self.lost.set(false);
    }

    /// Keeps at most [`MAX_RUNS`], dropping the oldest that is not active.
    fn forget_old_runs(&mut self) {
        let tl = &mut self.timeline;
        while tl.runs.len() > MAX_RUNS {
            let drop = usize::from(tl.active == 0);
            tl.runs.remove(drop);
            tl.active -= usize::from(tl.active > drop);
            tl.compare = match tl.compare {
                Some(c) if c == drop => None,
                Some(c) => Some(c - usize::from(c > drop)),
                None => None,
            };
        }
    }

    /// Makes run `i` the active one (its world, recording and plots).
    fn select_run(&mut self, i: usize) -> Result<(), String> {
        if i == self.timeline.active {
            return Ok(());
        }
        let stored = self
            .timeline
            .runs
            .get_mut(i)
            .and_then(|r| r.stored.take())
            .ok_or("no such branch")?;
        self.park_active();
        self.timeline.active = i;
        if self.timeline.compare == Some(i) {
            self.timeline.compare = None;
        }
        self.make_active(stored.sim, stored.tape, stored.plot);
        self.timeline.cursor = None;
        self.update_pose();
        self.refresh_status();
        Ok(())
    }

    /// The compared run's plot buffers and label.
    pub(super) fn compared(&self) -> Option<(&PlotData, &str)> {
        let r = self.timeline.runs.get(self.timeline.compare?)?;
        Some((&r.stored.as_ref()?.plot, r.label.as_str()))
    }
}
