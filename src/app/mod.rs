//! The editor GUI (eframe + egui, glow renderer). One module per panel; [`EditorApp`] lays them
//! out and owns the shared [`state::EditorState`].

mod anatomy_cache;
pub mod anatomy_panel;
pub mod autosave;
mod bake_dialog;
mod balance;
mod clip_link;
mod clip_panel;
pub mod commands;
mod diagnostics;
mod doctor_view;
mod empty_state;
pub mod files;
pub mod generate_dialog;
mod headless;
pub mod history;
mod inspector;
mod layout;
mod limits_panel;
mod live_sim;
mod loader;
mod material_panel;
mod menu;
mod natural;
mod outliner;
pub mod pair_view;
pub mod plot;
mod plot_line;
mod presets_menu;
pub mod selection;
pub mod sim_link;
pub mod state;
mod step_rate;
pub mod symmetry;
pub mod timeline_panel;
pub mod tune_dialog;
pub mod view_settings;
mod viewport;
mod widgets;
mod window;

use crate::document::{Document, UriPolicy};
use files::{Files, Pending};
use headless::{Hook, Outcome};
use sim_link::SimControls;
use std::path::PathBuf;
use std::time::Instant;
pub use window::run;

/// Command-line options of the editor.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub file: Option<PathBuf>,
    pub screenshot: Option<PathBuf>,
    pub select: Option<String>,
    pub sim_seconds: Option<f64>,
    /// After `sim_seconds`, the recorded moment (s) to scrub the timeline back to.
    pub scrub: Option<f64>,
    /// After `sim_seconds`, the recorded moment (s) to branch from with the `branch_set`
    /// edits; the branch runs to `sim_seconds` and the plots overlay the first run.
    pub branch_at: Option<f64>,
    pub branch_set: Vec<String>,
    pub bench_frames: Option<usize>,
    /// A clip (name or index) to play from the start.
    pub clip: Option<String>,
    /// `BONE.KEY=VALUE` edits made one per frame after start, as the inspector makes them
    /// (tests of what happens after an edit, such as autosave in an idle window).
    pub apply: Vec<String>,
    /// Commands of the command table run at the first frame, as if picked from the menu
    /// (a screenshot of a dialog: `--command auto-tune`).
    pub commands: Vec<commands::Command>,
    pub policy: UriPolicy,
}

/// The editor application.
pub struct EditorApp {
    pub state: state::EditorState,
    viewport: viewport::Viewport,
    outliner: outliner::Outliner,
    files: Files,
    generate: generate_dialog::GenerateDialog,
    tune: tune_dialog::TuneDialog,
    plot: plot::PlotPanel,
    sim: sim_link::SimControls,
    /// The clip controls last handed to the simulation.
    clip_seen: Option<clip_link::ClipControls>,
    /// The running simulation, once one is plugged in (see [`sim_link`]).
    simulation: Option<Box<dyn sim_link::Simulation>>,
    /// (bones_gen, doc_gen) the simulation last saw.
    sim_seen: (u64, u64),
    hook: Option<Hook>,
    outcome: Outcome,
    title: String,
    last_frame: Option<Instant>,
    frame_ms: f64,
    /// When the viewport last got a pose from the running simulation.
    last_pose: Option<Instant>,
    /// The view as last laid out (toggles, plot window, panel sizes), stored on exit.
    view: view_settings::ViewSettings,
    /// Edits given with `--apply`, made one per frame as if typed.
    scripted: std::collections::VecDeque<String>,
    /// Commands given with `--command`, run at the first frame.
    start_commands: Vec<commands::Command>,
    pub timeline: timeline_panel::TimelinePanel,
}

/// While the simulation runs, the viewport takes a new pose at most this often (about the
/// display rate), and frames are requested at this rate: re-posing costs gizmo rebuilding,
/// skinning and a 3D render.
const POSE_INTERVAL: std::time::Duration = std::time::Duration::from_millis(16);

impl EditorApp {
    /// Builds the app around a loaded document. `cc.gl` is None under tests: no 3D then.
    pub fn new(cc: &eframe::CreationContext<'_>, doc: Document, opts: &Options) -> Self {
        Self::with_storage(cc, cc.storage, doc, opts)
    }

    /// Like [`Self::new`], with the settings read from `storage` instead of `cc.storage`.
    pub fn with_storage(
        cc: &eframe::CreationContext<'_>,
        storage: Option<&dyn eframe::Storage>,
        doc: Document,
        opts: &Options,
    ) -> Self {
        let mut state = initial_state(doc, storage, opts);
        let view = view_settings::ViewSettings::load(storage);
        let mut viewport = viewport::Viewport::new(cc.gl.is_some());
        viewport.show_mesh = view.show_mesh;
        viewport.show_colliders = view.show_colliders;
        viewport.all_joints = view.all_joints;
        viewport.sync(&mut state);
        let mut plot = plot::PlotPanel {
            window: view.plot_window_s,
            all_joints: view.plot_all_joints,
            ..Default::default()
        };
        let hook = headless_hook(opts, &mut plot);
        if hook.is_some() {
            // A headless run shows the file as it is: it offers no crash recovery (the
            // sidecar stays for the next interactive session).
            state.recovery = None;
        }
        let simulation: Box<dyn sim_link::Simulation> =
            Box::new(live_sim::LiveSim::new(&state.doc));
        Self {
            state,
            viewport,
            outliner: outliner::Outliner::default(),
            files: Files::default(),
            generate: generate_dialog::GenerateDialog::default(),
            tune: tune_dialog::TuneDialog::default(),
            plot,
            sim: sim_link::SimControls::default(),
            clip_seen: None,
            simulation: Some(simulation),
            sim_seen: (0, 0),
            hook,
            outcome: Outcome::default(),
            title: String::new(),
            last_frame: None,
            frame_ms: 0.0,
            last_pose: None,
            view,
            scripted: opts.apply.iter().cloned().collect(),
            start_commands: opts.commands.clone(),
            timeline: Default::default(),
        }
    }

    /// The view settings as they would be stored now.
    pub fn view_settings(&self) -> view_settings::ViewSettings {
        view_settings::ViewSettings {
            show_mesh: self.viewport.show_mesh,
            show_colliders: self.viewport.show_colliders,
            all_joints: self.viewport.all_joints,
            plot_window_s: self.plot.window,
            plot_all_joints: self.plot.all_joints,
            ..self.view.clone()
        }
    }

    /// Makes the next `--apply` edit, as the inspector would, and asks for another frame
    /// while more are waiting.
    fn run_script(&mut self, ctx: &egui::Context) {
        let Some(text) = self.scripted.pop_front() else {
            return;
        };
        self.apply_typed("--apply", &text);
        if !self.scripted.is_empty() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    /// Makes the edit `text` (BONE.KEY=VALUE) as the inspector would; a bad one is said in
    /// the status bar and on stderr, naming the `option` it came from.
    fn apply_typed(&mut self, option: &str, text: &str) {
        let st = &mut self.state;
        let parsed = crate::document::parse_assignment(text)
            .and_then(|(lhs, value)| Ok((st.doc.resolve_key(&lhs)?, value)));
        match parsed {
            Ok(((target, key), value)) => {
                st.edit(target, &key, value, None);
                eprintln!("applied {text}");
            }
            Err(e) => {
                st.status = format!("{option} {text}: {e}");
                eprintln!("error: {option} {text}: {e}");
            }
        }
    }

    /// The running simulation, if one is plugged in.
    pub fn simulation(&self) -> Option<&dyn sim_link::Simulation> {
        self.simulation.as_deref()
    }

    /// Plugs in a simulation: it is reset to the document and then driven by the controls.
    pub fn set_simulation(&mut self, sim: Box<dyn sim_link::Simulation>) {
        self.simulation = Some(sim);
        self.sim_seen = (0, 0);
    }

    /// Steps the simulation (if any) and hands its pose to the viewport.
    fn drive_simulation(&mut self, ctx: &egui::Context) {
        let Some(sim) = &mut self.simulation else {
            return;
        };
        let st = &self.state;
        let mut moved = false;
        let mut force = false;
        if self.sim_seen.0 != st.bones_gen || std::mem::take(&mut self.sim.reset) {
            sim.reset(&st.doc);
            moved = true;
            force = true;
        } else if self.sim_seen.1 != st.doc_gen() {
            sim.apply_edit(&st.doc);
        }
        self.sim_seen = (st.bones_gen, st.doc_gen());
        if std::mem::take(&mut self.sim.step_once) {
            sim.single_step(&st.doc, &self.sim);
            moved = true;
            force = true;
        } else if self.sim.playing {
            // A benchmark's frames advance the simulation by one display frame each, whatever
            // they took, so what it draws does not depend on the machine's load.
            let frame_s = match self.hook.as_ref().is_some_and(Hook::is_bench) {
                true => 1.0 / 60.0,
                false => (ctx.input(|i| i.stable_dt) as f64).min(0.05),
            };
            let dt = frame_s * self.sim.time_scale;
            sim.step_in_background(&st.doc, &self.sim, dt);
            moved = true;
            // The simulation needs frames at the display rate, not as fast as the CPU allows.
            ctx.request_repaint_after(POSE_INTERVAL);
        } else if self.clip_seen.as_ref() != Some(&self.sim.clip) {
            // A clip picked (or scrubbed) while paused shows at once: the character at the
            // clip's pose, the ghost over it.
            sim.sync_controls(&st.doc, &self.sim);
            moved = true;
            force = true;
        }
        self.clip_seen = Some(self.sim.clip.clone());
        let due = self.last_pose.is_none_or(|t| t.elapsed() >= POSE_INTERVAL);
        if moved && force {
            self.viewport.set_pose(sim.pose().clone());
            self.viewport.set_ghost(sim.target_pose());
            self.last_pose = Some(Instant::now());
        } else if moved && due {
            // Drawn only if it moved visibly (a balanced stand barely does).
            self.viewport
                .offer_pose(sim.pose(), sim.target_pose().as_ref());
            self.last_pose = Some(Instant::now());
        }
        let clip_playing = sim.clip_clock().is_some();
        self.state
            .observe_live(sim.time(), sim.pose(), clip_playing);
    }

    /// Picks an animation clip by name or index in the clip panel; it plays from the next
    /// simulation step (a status message when there is no such clip).
    pub fn select_clip(&mut self, name_or_index: &str) {
        let clips = self
            .simulation
            .as_ref()
            .map(|s| s.clips().0)
            .unwrap_or_default();
        let by_index = name_or_index
            .parse::<usize>()
            .ok()
            .filter(|&i| i < clips.len());
        match clips
            .iter()
            .position(|(n, _)| n == name_or_index)
            .or(by_index)
        {
            Some(i) => self.sim.clip.selected = Some(i),
            None => self.state.status = format!("no animation clip '{name_or_index}'"),
        }
    }

    /// Runs the simulation `seconds` of simulated time ahead at once (the `--sim-seconds`
    /// hook), then shows its pose; the simulation stays paused.
    pub fn fast_forward(&mut self, seconds: f64) {
        let Some(sim) = &mut self.simulation else {
            return;
        };
        let st = &self.state;
        if self.sim_seen.0 != st.bones_gen {
            sim.reset(&st.doc);
            self.sim_seen = (st.bones_gen, st.doc_gen());
        }
        let controls = SimControls {
            playing: true,
            ..self.sim.clone()
        };
        let target = sim.time() + seconds;
        while sim.time() + 1e-9 < target && sim.guard_message().is_none() {
            let before = sim.time();
            sim.step(&self.state.doc, &controls, (target - sim.time()).min(0.1));
            if sim.time() <= before {
                break;
            }
            let clip_playing = sim.clip_clock().is_some();
            self.state
                .observe_live(sim.time(), sim.pose(), clip_playing);
        }
        self.viewport.set_pose(sim.pose().clone());
        self.viewport.set_ghost(sim.target_pose());
    }

    fn timing(&mut self) {
        let now = Instant::now();
        if let Some(prev) = self.last_frame.replace(now) {
            let ms = (now - prev).as_secs_f64() * 1e3;
            self.frame_ms = if self.frame_ms == 0.0 {
                ms
            } else {
                self.frame_ms * 0.9 + ms * 0.1
            };
        }
    }

    fn close_guard(&mut self, ctx: &egui::Context) {
        if self.hook.is_none()
            && ctx.input(|i| i.viewport().close_requested())
            && self.state.doc.is_dirty()
            && !self.files.close_confirmed
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.files.pending = Some(Pending::Close);
        }
    }

    /// Pushes a bone's body with an impulse (N·s, world frame) and says in the status bar
    /// whether it happened.
    pub fn push(&mut self, bone: crate::document::BoneId, impulse_n_s: glam::Vec3) {
        let name = self.state.doc.bone(bone).name.clone();
        let result = match &mut self.simulation {
            Some(sim) => sim.push(&self.state.doc, bone, impulse_n_s),
            None => Err("no simulation is connected".into()),
        };
        self.state.status = match result {
            Ok(()) => format!("pushed {name} with {:.0} N·s", impulse_n_s.length()),
            Err(e) => format!("could not push {name}: {e}"),
        };
    }

    /// The pose the viewport draws (one world transform per bone of the current document).
    pub fn viewport_pose(&self) -> &crate::render::Pose {
        &self.viewport.pose
    }
}

impl eframe::App for EditorApp {
    /// The panels' colour: the panels themselves are not filled again (see `unfilled_side`).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.timing();
        if let Some(h) = &mut self.hook {
            h.frame(&ctx, &self.outcome);
            if h.bare() {
                egui::CentralPanel::default().show(ui, |_| {});
                return;
            }
        }
        let started = Instant::now();
        self.close_guard(&ctx);
        let start_commands = std::mem::take(&mut self.start_commands);
        let mut cx = commands::Context {
            st: &mut self.state,
            files: &mut self.files,
            generate: &mut self.generate,
            tune: &mut self.tune,
            egui: &ctx,
            timeline: &mut self.timeline,
        };
        commands::run_at_start(&start_commands, &mut cx);
        commands::shortcuts(&mut cx);
        if std::mem::take(&mut self.state.wants_save_as) {
            self.files.ask(files::PathAction::SaveAs, &mut self.state);
        }
        self.files.handle_drops(&ctx, &mut self.state);
        self.state.poll_loading();
        if self.state.loading.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        self.run_script(&ctx);
        self.state.autosave_tick(&ctx);
        self.state.history.end_drag_unless(ctx.dragged_id());
        self.drive_simulation(&ctx);
        self.drive_timeline(&ctx);
        self.panels(ui, frame);
        anatomy_panel::resolve_pick(&mut self.state);
        if std::mem::take(&mut self.state.wants_generate) {
            self.generate.run(&mut self.state);
        }
        self.files.windows(&ctx, &mut self.state);
        self.generate.show(&ctx, &mut self.state);
        self.bake_window(&ctx);
        self.tune.show(&ctx, &mut self.state);
        let title = self.state.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if let Some(h) = &mut self.hook {
            h.record_ui_cpu(
                started.elapsed().as_secs_f64() * 1e3,
                std::mem::take(&mut self.viewport.gl_ms),
                std::mem::take(&mut self.viewport.drew_scene),
            );
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        let recent: Vec<String> = self
            .state
            .recent
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        storage.set_string("recent", recent.join("\n"));
        self.view_settings().store(storage);
    }
}

/// The editor state of a new window: the recent files from `storage`, the bone `--select`ed.
fn initial_state(
    doc: Document,
    storage: Option<&dyn eframe::Storage>,
    opts: &Options,
) -> state::EditorState {
    let mut state = state::EditorState::new(doc, opts.policy);
    if let Some(s) = storage.and_then(|s| s.get_string("recent")) {
        state.recent = s
            .lines()
            .filter(|l| !l.is_empty())
            .map(PathBuf::from)
            .collect();
    }
    if let Some(name) = &opts.select {
        state.selection = state.doc.bone_by_name(name);
        if state.selection.is_none() {
            state.status = format!("no bone named '{name}'");
        }
    }
    state
}

/// The headless hook of `--screenshot` or `--bench-frames` (which plots every joint).
fn headless_hook(opts: &Options, plot: &mut plot::PlotPanel) -> Option<Hook> {
    match (&opts.screenshot, opts.bench_frames) {
        (Some(p), _) => Some(Hook::screenshot(p.clone())),
        (None, Some(n)) => {
            plot.all_joints = true;
            Some(Hook::bench(n))
        }
        _ => None,
    }
}

/// A side or top panel's frame without its fill. Panels are filled with `panel_fill`, the
/// colour the whole window is cleared to first (see `clear_color`), so painting it again only
/// costs time: under a software renderer the UI's price is its painted pixels.
fn unfilled_side(ui: &egui::Ui) -> egui::Frame {
    egui::Frame::side_top_panel(ui.style()).fill(egui::Color32::TRANSPARENT)
}
