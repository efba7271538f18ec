//! The Rapier simulation of `crate::sim`, driven by the editor: the controls become sim
//! settings, edits reach the running world through `Simulation::sync`, the bodies pose the
//! viewport, and the telemetry rings feed the plots.

mod plot_data;
mod scrub;

use plot_data::{series_of, PlotData};

use super::clip_link::{clip_clock, ClipLink};
use super::plot::Series;
use super::sim_link::{SimControls, Simulation as Live};
use super::step_rate::StepRate;
use crate::anatomy::Anatomy;
use crate::document::{BoneId, Document};
use crate::render::{Carriage, Pose};
use crate::sim::{SimError, SimSettings, Simulation};
use crate::timeline::Tape;
use glam::{DQuat, DVec3, Vec3};
use std::cell::RefCell;
use std::sync::mpsc;
use std::time::Instant;

/// At most this many fixed steps per frame, so a slow frame does not snowball.
const MAX_STEPS_PER_FRAME: usize = 16;

use crate::timeline::RECORD_SECONDS;

/// A world and its tape handed to the stepping thread: advance it by dt seconds, send them
/// back.
type Job = (Simulation, Option<Tape>, f64, mpsc::Sender<Returned>);

/// A world and its tape back from the stepping thread.
type Returned = (Simulation, Option<Tape>);

/// Advances the world by `dt` seconds, recording every step on its tape when it has one. A
/// pause of the stability guard is kept in the world and shown from there.
fn advance(sim: &mut Simulation, tape: Option<&mut Tape>, dt: f64) {
    let paused = match tape {
        Some(t) => t.advance(sim, dt, MAX_STEPS_PER_FRAME).err(),
        None => sim.advance(dt, MAX_STEPS_PER_FRAME).err(),
    };
    debug_assert_eq!(paused.is_some(), sim.paused().is_some());
}

/// Starts the thread that steps worlds between frames; returns its job queue.
fn spawn_stepper() -> Option<mpsc::Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("sim-step".into())
        .spawn(move || {
            for (mut sim, mut tape, dt, back) in rx {
                advance(&mut sim, tape.as_mut(), dt);
                if back.send((sim, tape)).is_err() {
                    break;
                }
            }
        })
        .ok()?;
    Some(tx)
}

/// The simulation as the editor sees it.
///
/// While it plays, the world is stepped on its own thread during the rest of the frame
/// (UI, painting, presenting) and taken back at the start of the next one, so Rapier's
/// time stays off the UI thread; what a frame shows is the state the previous frame asked
/// for. Anything that reads or changes the world takes it back first ([`Self::settle`]).
pub struct LiveSim {
    sim: RefCell<Option<Simulation>>,
    /// The run on tape (travels with the world to the stepping thread).
    tape: RefCell<Option<Tape>>,
    /// The world while the stepping thread has it.
    away: RefCell<Option<mpsc::Receiver<Returned>>>,
    /// Set when the stepping thread died with the world (a panic inside Rapier).
    lost: std::cell::Cell<bool>,
    stepper: Option<mpsc::Sender<Job>>,
    /// Simulated seconds and the stability guard's message, as of the last settled state.
    time_s: f64,
    paused: Option<String>,
    /// Why the world could not be built, shown in the status bar.
    error: Option<String>,
    /// When the character was knocked out and by what impact, shown in the status bar.
    knocked_out: Option<String>,
    pose: Pose,
    /// How the bodies' poses carry the bones without a body.
    carriage: Carriage,
    pinned: Option<BoneId>,
    rate: StepRate,
    plot: PlotData,
    /// The document's clips and the clip controls last applied.
    clip: ClipLink,
    /// The playing clip's clock and target pose as of the last settled state (read without
    /// taking the world back from the stepping thread).
    clip_clock: Option<(f32, f32)>,
    ghost: Option<Pose>,
    /// The controls last applied (a change is announced to the tape).
    controls_seen: Option<SimControls>,
    /// The timeline: the scrubbed moment, the branches.
    timeline: scrub::Timeline,
}

impl LiveSim {
    pub fn new(doc: &Document) -> Self {
        let mut s = Self {
            sim: RefCell::new(None),
            tape: RefCell::new(None),
            away: RefCell::new(None),
            lost: std::cell::Cell::new(false),
            stepper: None,
            time_s: 0.0,
            paused: None,
            error: None,
            knocked_out: None,
            pose: Pose::rest(doc),
            carriage: Carriage::default(),
            pinned: None,
            rate: StepRate::default(),
            plot: PlotData::default(),
            clip: ClipLink::load(doc),
            clip_clock: None,
            ghost: None,
            controls_seen: None,
            timeline: scrub::Timeline::default(),
        };
        s.reset(doc);
        s
    }

    /// Takes the world back from the stepping thread, if it is there (waiting for it).
    fn settle(&self) {
        if let Some(rx) = self.away.borrow_mut().take() {
            // A closed channel means the stepping thread died with the world: none is left.
            let (sim, tape) = rx.recv().ok().unzip();
            self.lost.set(sim.is_none());
            *self.sim.borrow_mut() = sim;
            *self.tape.borrow_mut() = tape.flatten();
        }
    }

    fn apply_controls(&mut self, doc: &Document, c: &SimControls) {
        self.settle();
        let Some(sim) = self.sim.get_mut() else {
            return;
        };
        if self.controls_seen.as_ref() != Some(c) {
            self.controls_seen = Some(c.clone());
            if let Some(t) = self.tape.get_mut() {
                t.mark_changed();
            }
        }
        let s = sim.settings_mut();
        s.gravity_m_s2 = if c.gravity {
            Vec3::new(0.0, -9.81, 0.0)
        } else {
            Vec3::ZERO
        };
        s.balance = c.balance;
        s.drives = c.drives;
        s.settle = c.settle;
        s.time_scale = 1.0; // The editor scales the frame time itself.
        let pelvis = sim
            .balance_bones()
            .pelvis_bone
            .clone()
            .and_then(|p| doc.bone_by_name(&p));
        let want = if c.pin_pelvis { pelvis } else { None };
        if want != self.pinned {
            if let Some(b) = self.pinned {
                let _ = sim.set_pinned(b, false);
            }
            if let Some(b) = want {
                let _ = sim.set_pinned(b, true);
            }
            self.pinned = want;
        }
        if let Err(e) = self.clip.apply(sim, doc, &c.clip) {
            self.error = Some(format!("clip: {e}"));
        }
    }

    /// World transforms of every bone: bodies where there are bodies, the rest of the
    /// skeleton carried along by the bone each hangs from ([`Carriage`]).
    fn update_pose(&mut self) {
        let sim = self.sim.borrow();
        let Some(pose) = sim.as_ref().map(|s| self.pose_of(s.body_poses())) else {
            return;
        };
        drop(sim);
        self.pose = pose;
    }

    /// World transforms of every bone from the bodies' poses.
    fn pose_of(&self, bodies: impl Iterator<Item = (BoneId, rapier3d::prelude::Pose)>) -> Pose {
        self.carriage.pose(bodies.map(|(id, p)| {
            let r = p.rotation;
            let t = p.translation;
            let rot = DQuat::from_xyzw(r.x as f64, r.y as f64, r.z as f64, r.w as f64);
            (id, rot, DVec3::new(t.x as f64, t.y as f64, t.z as f64))
        }))
    }

    /// Steps-per-second estimate, pose and plot buffers after the world moved.
    fn after_steps(&mut self, doc: &Document) {
        self.settle();
        let Some(sim) = self.sim.get_mut() else {
            return;
        };
        self.rate.record(sim.steps(), Instant::now());
        self.update_pose();
        self.update_plot(doc);
        self.refresh_status();
    }

    /// Copies the time, the guard's message and the clip's clock and target out of the
    /// (settled) world.
    fn refresh_status(&mut self) {
        let sim = self.sim.get_mut();
        self.time_s = sim.as_ref().map_or(0.0, Simulation::time_s);
        self.clip_clock = sim.as_ref().and_then(clip_clock);
        self.ghost = sim.as_ref().and_then(|s| {
            let d = s.clip()?;
            Some(Pose {
                world_from_bone: d.target_pose(s.time_s()),
            })
        });
        self.paused = sim
            .as_ref()
            .and_then(|s| s.paused())
            .map(|p| format!("{p}; edit the bone, then Reset"));
        self.knocked_out = sim.as_ref().and_then(|s| {
            let t = s.knocked_out_at_s()?;
            let dv = s.peak_impact_dv();
            Some(format!(
                "knocked out at {t:.2} s (impact {dv:.2} m/s); Reset to stand again"
            ))
        });
        self.refresh_timeline();
    }
}

impl Live for LiveSim {
    fn step(&mut self, doc: &Document, controls: &SimControls, dt: f64) {
        self.apply_controls(doc, controls);
        let Some(sim) = self.sim.get_mut() else {
            return;
        };
        if sim.paused().is_some() {
            return;
        }
        // The rate's window starts before these steps (a lone fast-forward is measured too).
        self.rate.record(sim.steps(), Instant::now());
        advance(sim, self.tape.get_mut().as_mut(), dt);
        self.timeline.cursor = None;
        self.after_steps(doc);
    }

    fn step_in_background(&mut self, doc: &Document, controls: &SimControls, dt: f64) {
        // Show what the stepping thread made of the last frame's request...
        self.after_steps(doc);
        self.apply_controls(doc, controls);
        let Some(sim) = self.sim.get_mut().take_if(|s| s.paused().is_none()) else {
            return;
        };
        self.timeline.cursor = None;
        let tape = self.tape.get_mut().take();
        // ...and hand it this frame's.
        if self.stepper.is_none() {
            self.stepper = spawn_stepper();
        }
        let (back, rx) = mpsc::channel();
        let job = match &self.stepper {
            Some(stepper) => match stepper.send((sim, tape, dt, back)) {
                Ok(()) => {
                    *self.away.get_mut() = Some(rx);
                    return;
                }
                Err(mpsc::SendError(job)) => job,
            },
            None => (sim, tape, dt, back),
        };
        // No stepping thread (it could not start, or died): step here, try again next frame.
        self.stepper = None;
        let (mut sim, mut tape, dt, _) = job;
        advance(&mut sim, tape.as_mut(), dt);
        *self.sim.get_mut() = Some(sim);
        *self.tape.get_mut() = tape;
    }

    fn single_step(&mut self, doc: &Document, controls: &SimControls) {
        self.apply_controls(doc, controls);
        if let Some(sim) = self.sim.get_mut() {
            // A pause of the stability guard stays in the world and is shown from there.
            let stepped = match self.tape.get_mut() {
                Some(t) => t.step(sim),
                None => sim.step(),
            };
            debug_assert_eq!(stepped.is_err(), sim.paused().is_some());
        }
        self.timeline.cursor = None;
        self.after_steps(doc);
    }
    fn reset(&mut self, doc: &Document) {
        let anatomy = Anatomy::of(doc);
        self.carriage = Carriage::new(doc, |id| anatomy.hangs_from(id));
        self.pose = Pose::rest(doc);
        self.pinned = None;
        self.plot = PlotData::default();
        self.clip.reset();
        self.settle();
        self.lost.set(false);
        self.timeline = scrub::Timeline::default();
        self.controls_seen = None;
        match Simulation::new(doc, SimSettings::default()) {
            Ok(sim) => {
                self.rate = StepRate::default();
                *self.tape.get_mut() = Some(Tape::new(&sim, RECORD_SECONDS));
                *self.sim.get_mut() = Some(sim);
                self.error = None;
                self.update_plot(doc);
                self.refresh_status();
            }
            Err(e) => {
                *self.sim.get_mut() = None;
                *self.tape.get_mut() = None;
                self.refresh_status();
                self.error = Some(format!("no simulation: {e}"));
            }
        }
    }

    fn apply_edit(&mut self, doc: &Document) {
        self.settle();
        let result = match self.sim.get_mut() {
            Some(sim) => sim.sync(doc).map(|_| ()),
            None => Err(SimError::Empty),
        };
        if self.clip.is_stale(doc) {
            // Clips were added or removed (a bake, its undo): the clip panel lists them.
            self.clip = ClipLink::load(doc);
        }
        match result {
            Ok(()) => {
                if let Some(t) = self.tape.get_mut() {
                    t.mark_changed();
                }
                self.plot.at_step = u64::MAX; // Limit lines may have moved.
                self.update_plot(doc);
                self.refresh_status();
            }
            // Bodies appeared or vanished (or the world never built): start over.
            Err(_) => self.reset(doc),
        }
    }

    fn push(&mut self, doc: &Document, bone: BoneId, impulse_n_s: Vec3) -> Result<(), String> {
        self.settle();
        let Some(sim) = self.sim.get_mut() else {
            return Err(self
                .error
                .clone()
                .unwrap_or_else(|| "there is no simulation".into()));
        };
        if let Some(p) = sim.paused() {
            return Err(format!("{p}; press Reset"));
        }
        let scaled = impulse_n_s * sim.push_scale();
        sim.apply_impulse(&doc.bone(bone).name, scaled)
            .map_err(|e| e.to_string())?;
        if let Some(t) = self.tape.get_mut() {
            t.mark_changed();
        }
        Ok(())
    }

    fn sync_controls(&mut self, doc: &Document, controls: &SimControls) {
        self.apply_controls(doc, controls);
        self.update_pose();
        self.refresh_status();
    }

    fn clips(&self) -> (Vec<(String, f32)>, Vec<String>) {
        let list = self
            .clip
            .clips
            .iter()
            .map(|c| (c.name.clone(), c.duration_s))
            .collect();
        (list, self.clip.problems.clone())
    }

    fn clip_clock(&self) -> Option<(f32, f32)> {
        self.clip_clock
    }

    fn target_pose(&self) -> Option<Pose> {
        self.ghost.clone()
    }

    fn joint_limits(&self, bone: &str) -> Option<crate::sim::JointLimits> {
        self.settle();
        self.sim.borrow().as_ref()?.joint_limits(bone)
    }

    fn pose(&self) -> &Pose {
        &self.pose
    }

    fn time(&self) -> f64 {
        self.time_s
    }

    fn steps_per_second(&self) -> Option<f64> {
        self.rate.per_second()
    }

    fn knocked_out(&self) -> Option<String> {
        self.knocked_out.clone()
    }

    fn guard_message(&self) -> Option<String> {
        if self.lost.get() {
            return Some("the simulation stopped unexpectedly; press Reset".into());
        }
        self.error.clone().or_else(|| self.paused.clone())
    }

    fn timeline(&self) -> Option<&super::timeline_panel::TimelineView> {
        self.timeline_view()
    }

    fn timeline_request(
        &mut self,
        doc: &Document,
        req: super::timeline_panel::Request,
    ) -> Result<(), String> {
        LiveSim::timeline_request(self, doc, req)
    }

    fn bake(
        &mut self,
        doc: &Document,
        o: &crate::timeline::BakeOptions,
    ) -> Result<crate::timeline::Baked, String> {
        self.settle();
        let tape = self.tape.get_mut().as_ref().ok_or("nothing is recorded")?;
        crate::timeline::bake(doc, &tape.recording, o).map_err(|e| e.to_string())
    }

    fn series(&self) -> Vec<Series<'_>> {
        let mut out = series_of(&self.plot, None);
        if let Some((plot, label)) = self.compared() {
            out.extend(series_of(plot, Some(label)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stepping thread runs the same fixed steps as stepping in place: after the same
    /// frames the world is in the same state, bit for bit.
    #[test]
    fn background_stepping_matches_stepping_in_place() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mannequin.glb");
        let doc = Document::open(&path).expect("mannequin opens");
        let controls = SimControls {
            playing: true,
            ..Default::default()
        };
        let (mut here, mut away) = (LiveSim::new(&doc), LiveSim::new(&doc));
        for _ in 0..40 {
            here.step(&doc, &controls, 1.0 / 60.0);
            away.step_in_background(&doc, &controls, 1.0 / 60.0);
        }
        away.after_steps(&doc);
        assert!(here.time() > 0.6, "time {}", here.time());
        assert_eq!(here.time(), away.time());
        assert_eq!(here.pose().world_from_bone, away.pose().world_from_bone);
    }

    /// The panel's Settle box reaches the simulation's setting, both ways.
    #[test]
    fn the_settle_box_sets_the_simulation_setting() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mannequin.glb");
        let doc = Document::open(&path).expect("mannequin opens");
        let mut live = LiveSim::new(&doc);
        for settle in [false, true] {
            let controls = SimControls {
                playing: true,
                settle,
                ..Default::default()
            };
            live.step(&doc, &controls, 1.0 / 60.0);
            let sim = live.sim.borrow();
            assert_eq!(sim.as_ref().expect("a world").settings().settle, settle);
        }
    }
}
