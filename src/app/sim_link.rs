//! Where the simulation plugs in: [`SimControls`] holds the user's settings and [`Simulation`]
//! is what the editor drives (implemented over `crate::sim` by `live_sim::LiveSim`).

use super::plot::Series;
use crate::document::Document;
use crate::render::Pose;

/// What the editor needs from a running simulation.
pub trait Simulation {
    /// Advances by `dt` seconds of simulated time (already scaled).
    fn step(&mut self, doc: &Document, controls: &SimControls, dt: f64);
    /// Like [`Self::step`], but the stepping may happen while the rest of the frame is
    /// built and painted: what is shown (pose, telemetry, time) may lag by one frame.
    fn step_in_background(&mut self, doc: &Document, controls: &SimControls, dt: f64) {
        self.step(doc, controls, dt);
    }
    /// Applies the controls without stepping (a clip picked or scrubbed while paused).
    fn sync_controls(&mut self, _doc: &Document, _controls: &SimControls) {}
    /// Advances exactly one fixed step (the Step button).
    fn single_step(&mut self, doc: &Document, controls: &SimControls);
    /// Back to the rest pose, time 0.
    fn reset(&mut self, doc: &Document);
    /// The document changed (an edit, undo or redo): update limits and gains in place.
    fn apply_edit(&mut self, doc: &Document);
    /// World transform per bone.
    fn pose(&self) -> &Pose;
    /// Simulated seconds since the last reset.
    fn time(&self) -> f64;
    /// Steps per second of wall time while the simulation last ran (see
    /// [`super::step_rate::StepRate`]); None before anything was measured.
    fn steps_per_second(&self) -> Option<f64>;
    /// Set when the stability guard paused the simulation.
    fn guard_message(&self) -> Option<String>;
    /// Set once the character was knocked out (`balance.knockout_dv`): when, and the impact.
    fn knocked_out(&self) -> Option<String> {
        None
    }
    /// Applies an impulse (N*s, world frame) to a bone's body; says why when it could not
    /// (no body for the bone, no world, the simulation paused by the stability guard).
    fn push(
        &mut self,
        doc: &Document,
        bone: crate::document::BoneId,
        impulse_n_s: glam::Vec3,
    ) -> Result<(), String>;
    /// The limits the running solver enforces on a bone's joint, if it has one.
    fn joint_limits(&self, bone: &str) -> Option<crate::sim::JointLimits>;
    /// Telemetry: joint angle errors (deg), torso tilt (deg), centre-of-mass height (m).
    fn series(&self) -> Vec<Series<'_>>;
    /// The document's animation clips: (name, duration s) each, and problems reading them.
    fn clips(&self) -> (Vec<(String, f32)>, Vec<String>) {
        (Vec::new(), Vec::new())
    }
    /// (clip time, duration) of the clip the drives follow, if one plays.
    fn clip_clock(&self) -> Option<(f32, f32)> {
        None
    }
    /// The playing clip's pose now (world transform per bone), drawn as a ghost.
    fn target_pose(&self) -> Option<Pose> {
        None
    }
    /// The recorded run and its branches, as the timeline shows them.
    fn timeline(&self) -> Option<&super::timeline_panel::TimelineView> {
        None
    }
    /// Scrubs, steps frames, branches (see [`super::timeline_panel::Request`]).
    fn timeline_request(
        &mut self,
        _doc: &Document,
        _req: super::timeline_panel::Request,
    ) -> Result<(), String> {
        Err("this simulation records nothing".into())
    }
    /// Bakes the active run's recording into a clip (see `crate::timeline::bake`).
    fn bake(
        &mut self,
        _doc: &Document,
        _o: &crate::timeline::BakeOptions,
    ) -> Result<crate::timeline::Baked, String> {
        Err("this simulation records nothing".into())
    }
}

/// The settings of the simulation controls panel.
#[derive(Debug, Clone, PartialEq)]
pub struct SimControls {
    pub playing: bool,
    pub step_once: bool,
    pub reset: bool,
    pub time_scale: f64,
    pub gravity: bool,
    pub balance: bool,
    pub drives: bool,
    pub pin_pelvis: bool,
    /// A fallen rag doll drains its last slow creep and sleeps (`sim::SimSettings::settle`).
    pub settle: bool,
    /// The animation clip the drives follow.
    pub clip: super::clip_link::ClipControls,
}

impl Default for SimControls {
    fn default() -> Self {
        Self {
            playing: false,
            step_once: false,
            reset: false,
            time_scale: 1.0,
            gravity: true,
            balance: true,
            drives: true,
            pin_pelvis: false,
            settle: true,
            clip: super::clip_link::ClipControls::default(),
        }
    }
}

impl SimControls {
    pub fn ui(&mut self, ui: &mut egui::Ui, connected: bool) {
        if !connected {
            ui.weak("No simulation (rest pose shown).");
        }
        ui.horizontal(|ui| {
            let play = if self.playing { "Pause" } else { "Play" };
            if ui.button(play).clicked() {
                self.playing = !self.playing;
            }
            if ui.button("Step").clicked() {
                self.step_once = true;
            }
            if ui.button("Reset").clicked() {
                self.reset = true;
                self.playing = false;
            }
        });
        let l = ui.label("Time scale");
        ui.add(
            egui::Slider::new(&mut self.time_scale, 0.05..=2.0)
                .suffix(" ×")
                .logarithmic(true),
        )
        .labelled_by(l.id);
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.gravity, "Gravity");
            ui.checkbox(&mut self.balance, "Balance");
            ui.checkbox(&mut self.drives, "Drives");
            ui.checkbox(&mut self.pin_pelvis, "Pin pelvis");
            ui.checkbox(&mut self.settle, "Settle").on_hover_text(
                "A rag doll (balance and drives off) that has fallen drains its last slow \
                 creep and comes to rest, as PhysX's stabilization does. Off: Rapier alone.",
            );
        });
    }
}
