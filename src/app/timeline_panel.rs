//! The timeline under the plots: the recorded run as a slider (drag to scrub: the simulation
//! pauses, the viewport shows the recorded pose, the plots a cursor), a frame back and
//! forward (`,` and `.`, commands of the table), playing the recording forward or in
//! reverse, looping a range, "Resimulate from here" and the list of branches (the first run
//! and the last five), one of which can be drawn over the plots to compare.

use super::sim_link::Simulation;
use super::EditorApp;

/// The recorded run and its branches, as the timeline shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineView {
    /// The oldest and newest recorded moments (s).
    pub start_s: f64,
    pub end_s: f64,
    /// The moment shown instead of the live world, if scrubbed.
    pub cursor_s: Option<f64>,
    pub frames: usize,
    /// Memory of the recordings, snapshots and plotted telemetry of every run kept.
    pub bytes: usize,
    /// The runs: the first run and the branches, each labelled with what changed.
    pub runs: Vec<String>,
    pub active: usize,
    /// The run drawn over the active one in the plots.
    pub compare: Option<usize>,
    /// Whether the moment shown can be resimulated (a snapshot reaches back to it).
    pub can_branch: bool,
}

/// What the timeline asks of the simulation.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Show the recorded frame nearest this time (s).
    Scrub(f64),
    /// Move the cursor by this many recorded frames (from the live end without one).
    Frames(i64),
    /// Back to the live world.
    Live,
    /// Restart from the exact state at the cursor with the current document; the label
    /// names the branch.
    Resimulate(String),
    /// Make this run the active one.
    Select(usize),
    /// Draw this run over the active one in the plots (None: no overlay).
    Compare(Option<usize>),
}

/// The timeline's own state: requests waiting, playback, the edits made since the last branch.
#[derive(Default)]
pub struct TimelinePanel {
    pub pending: Vec<Request>,
    /// A "Resimulate from here" waiting for its label.
    resimulate: bool,
    /// Playing the recording: +1 forward, -1 in reverse.
    playing: Option<f64>,
    /// Loop playback between these times (s).
    pub loop_range: Option<(f64, f64)>,
    /// The document's physics as of the last branch (or the start): what changed since
    /// labels the next branch.
    base: Option<Physics>,
    /// The skeleton `base` was taken of (`EditorState::bones_gen`).
    base_bones: u64,
    /// The "Bake to clip…" window.
    pub bake: super::bake_dialog::BakeDialog,
}

/// Every bone's physics and the document's balance settings.
#[derive(Clone, PartialEq)]
struct Physics {
    bones: Vec<(String, Option<crate::document::BonePhysics>)>,
    balance: crate::document::BalanceSettings,
}

impl Physics {
    fn of(doc: &crate::document::Document) -> Self {
        Self {
            bones: doc
                .bones
                .iter()
                .map(|b| (b.name.clone(), b.physics.clone()))
                .collect(),
            balance: doc.balance.clone(),
        }
    }

    /// What differs in `now`: "forearm_l limits", "balance settings"… (at most four named).
    fn changes(&self, now: &Physics) -> Vec<String> {
        let mut out = Vec::new();
        if now.bones.len() != self.bones.len() {
            return vec!["bones".into()];
        }
        for ((name, a), (_, b)) in self.bones.iter().zip(&now.bones) {
            let parts = match (a, b) {
                (Some(a), Some(b)) => [
                    (a.collider != b.collider, "collider shape"),
                    (a.mass != b.mass, "body mass"),
                    (a.constraint != b.constraint, "limits"),
                    (a.drive != b.drive, "drive gains"),
                    (a.material != b.material, "material"),
                    (
                        a.collision_group != b.collision_group
                            || a.collision_mask != b.collision_mask
                            || a.collision_pairs != b.collision_pairs,
                        "collision",
                    ),
                ]
                .iter()
                .filter(|(d, _)| *d)
                .map(|(_, p)| *p)
                .collect::<Vec<_>>()
                .join(", "),
                (a, b) if a != b => "physics added or removed".to_string(),
                _ => continue,
            };
            if !parts.is_empty() {
                out.push(format!("{name} {parts}"));
            }
        }
        if self.balance != now.balance {
            out.push("balance settings".into());
        }
        if out.len() > 4 {
            let more = out.len() - 3;
            out.truncate(3);
            out.push(format!("{more} more"));
        }
        out
    }
}

impl TimelinePanel {
    /// "Resimulate from here" (the command and the button).
    pub fn request_resimulate(&mut self) {
        self.resimulate = true;
    }

    /// The branch label: the moment and what changed since the last branch; `doc`
    /// becomes the base of the next label.
    fn label(&mut self, at_s: f64, doc: &crate::document::Document) -> String {
        let now = Physics::of(doc);
        let changes = self
            .base
            .as_ref()
            .map(|b| b.changes(&now))
            .unwrap_or_default();
        self.base = Some(now);
        let what = if changes.is_empty() {
            "no change".to_string()
        } else {
            changes.join("; ")
        };
        format!("{at_s:.2} s: {what}")
    }

    /// The next cursor time while the recording plays, or None at its end (playback stops).
    fn play_step(&mut self, view: &TimelineView, dt: f64) -> Option<f64> {
        let dir = self.playing?;
        let (lo, hi) = self
            .loop_range
            .map_or((view.start_s, view.end_s), |(a, b)| (a.min(b), a.max(b)));
        let now = view.cursor_s.unwrap_or(if dir > 0.0 { lo } else { hi });
        let t = now + dir * dt;
        if (lo..=hi).contains(&t) {
            return Some(t);
        }
        if self.loop_range.is_some() {
            return Some(if dir > 0.0 { lo } else { hi });
        }
        self.playing = None;
        Some(t.clamp(view.start_s, view.end_s))
    }
}

/// Bytes as the status bar shows them.
pub fn megabytes(bytes: usize) -> String {
    format!("rec {:.1} MB", bytes as f64 / 1e6)
}

impl EditorApp {
    /// The plots' timeline cursor (s), where one is drawn.
    pub fn plot_cursor(&self) -> Option<f64> {
        self.plot.cursor
    }

    /// The value range (`[min, max]`) the plot of `kind` showed in the last frame.
    pub fn plot_values_shown(&self, kind: super::plot::PlotKind) -> Option<[f64; 2]> {
        self.plot.values_shown(kind)
    }

    /// The plot lines drawn in the last frame, by legend name.
    pub fn plot_lines(&self) -> &[String] {
        &self.plot.lines
    }

    /// The `--branch-at` hook, after `--sim-seconds until_s`: scrubs to `at_s`, makes the
    /// `sets` edits (BONE.KEY=VALUE), resimulates from there as the button does, runs the
    /// branch to `until_s` and overlays the first run in the plots.
    pub fn branch_and_compare(&mut self, at_s: f64, sets: &[String], until_s: f64) {
        self.timeline.pending.push(Request::Scrub(at_s));
        self.run_pending();
        for s in sets {
            self.apply_typed("--branch-set", s);
        }
        self.state.skip_autosave();
        if let Some(sim) = self.simulation.as_deref_mut() {
            sim.apply_edit(&self.state.doc);
            self.sim_seen = (self.state.bones_gen, self.state.doc_gen());
        }
        self.timeline.request_resimulate();
        self.run_pending();
        self.fast_forward((until_s - at_s).max(0.0));
        self.timeline.pending.push(Request::Compare(Some(0)));
        self.run_pending();
    }

    /// Carries out the waiting requests now (no frame needed), as [`Self::drive_timeline`]
    /// does.
    fn run_pending(&mut self) {
        let (st, tl) = (&mut self.state, &mut self.timeline);
        let Some(sim) = self.simulation.as_deref_mut() else {
            return;
        };
        if tl.base.is_none() || tl.base_bones != st.bones_gen {
            tl.base = Some(Physics::of(&st.doc));
            tl.base_bones = st.bones_gen;
        }
        let end = sim.timeline().map(|v| v.cursor_s.unwrap_or(v.end_s));
        if let (true, Some(at)) = (std::mem::take(&mut tl.resimulate), end) {
            let label = tl.label(at, &st.doc);
            tl.pending.push(Request::Resimulate(label));
        }
        for req in std::mem::take(&mut tl.pending) {
            run(sim, tl, st, &mut self.sim, req);
        }
        self.viewport.set_pose(sim.pose().clone());
        self.plot.cursor = sim.timeline().and_then(|v| v.cursor_s);
    }

    /// The "Bake to clip…" window, while open; a bake refused says why in it.
    pub(super) fn bake_window(&mut self, ctx: &egui::Context) {
        let tl = &mut self.timeline;
        if !tl.bake.open {
            return;
        }
        let view = self.simulation.as_deref().and_then(|s| s.timeline());
        let recorded = view.map(|v| (v.start_s, v.end_s));
        tl.bake.fill_from(recorded, tl.loop_range, &self.state);
        if !tl.bake.show(ctx) {
            return;
        }
        let o = tl.bake.options();
        let result = match self.simulation.as_deref_mut() {
            Some(sim) => sim
                .bake(&self.state.doc, &o)
                .and_then(|baked| super::bake_dialog::add_clip(&mut self.state, &baked, &o)),
            None => Err("no simulation is connected".into()),
        };
        match result {
            Ok(_) => tl.bake = Default::default(),
            Err(e) => {
                self.state.status = format!("bake: {e}");
                tl.bake.error = Some(e);
            }
        }
    }

    /// Carries out the timeline's requests (the panel's, the commands', a click in a plot,
    /// playback) before the frame is laid out, and shows their result in the viewport.
    pub(super) fn drive_timeline(&mut self, ctx: &egui::Context) {
        let st = &mut self.state;
        let tl = &mut self.timeline;
        if tl.base.is_none() || tl.base_bones != st.bones_gen {
            // A new skeleton (a file opened, a reset of the bones): the runs start over.
            tl.base = Some(Physics::of(&st.doc));
            tl.base_bones = st.bones_gen;
        }
        let Some(sim) = self.simulation.as_deref_mut() else {
            return;
        };
        let Some(view) = sim.timeline().cloned() else {
            return;
        };
        if let Some(t) = self.plot.clicked_at.take() {
            tl.pending.push(Request::Scrub(t));
        }
        if self.sim.playing && (view.cursor_s.is_some() || tl.playing.is_some()) {
            // Play in the simulation controls: back to the live world.
            tl.playing = None;
            tl.pending.push(Request::Live);
        } else if let Some(t) = tl.play_step(&view, f64::from(ctx.input(|i| i.stable_dt))) {
            tl.pending.push(Request::Scrub(t));
            ctx.request_repaint();
        }
        if std::mem::take(&mut tl.resimulate) {
            let label = tl.label(view.cursor_s.unwrap_or(view.end_s), &st.doc);
            tl.pending.push(Request::Resimulate(label));
        }
        let shown = !tl.pending.is_empty();
        for req in std::mem::take(&mut tl.pending) {
            run(sim, tl, st, &mut self.sim, req);
        }
        if shown {
            self.viewport.set_pose(sim.pose().clone());
            ctx.request_repaint();
        }
        self.plot.cursor = sim.timeline().and_then(|v| v.cursor_s);
    }
}

/// One request, its outcome in the status bar when it fails or branches.
fn run(
    sim: &mut dyn Simulation,
    tl: &mut TimelinePanel,
    st: &mut super::state::EditorState,
    controls: &mut super::sim_link::SimControls,
    req: Request,
) {
    let branch = match &req {
        Request::Resimulate(label) => Some(label.clone()),
        _ => None,
    };
    if matches!(req, Request::Scrub(_) | Request::Frames(_)) {
        controls.playing = false;
    }
    match sim.timeline_request(&st.doc, req) {
        Ok(()) => {
            if let Some(label) = branch {
                tl.playing = None;
                st.status = format!("branched at {label}; press Play to run it");
            }
        }
        Err(e) => st.status = format!("timeline: {e}"),
    }
}

/// The timeline: transport buttons and the slider, then the branch controls and the runs.
pub fn ui(ui: &mut egui::Ui, tl: &mut TimelinePanel, view: Option<&TimelineView>) {
    let Some(v) = view else {
        ui.weak("Nothing recorded (no simulation).");
        return;
    };
    ui.horizontal(|ui| {
        transport(ui, tl, v);
        let mut t = v.cursor_s.unwrap_or(v.end_s);
        let l = ui.label("Recorded moment");
        ui.spacing_mut().slider_width = (ui.available_width() - 110.0).max(120.0);
        let r = ui
            .add(
                egui::Slider::new(&mut t, v.start_s..=v.end_s.max(v.start_s + 1e-6))
                    .custom_formatter(|x, _| format!("{x:.3}"))
                    .suffix(" s")
                    .smart_aim(false),
            )
            .labelled_by(l.id);
        if r.changed() {
            tl.pending.push(Request::Scrub(t));
        }
    });
    ui.horizontal_wrapped(|ui| {
        let branch = egui::Button::new("Resimulate from here");
        if ui
            .add_enabled(v.can_branch, branch)
            .on_hover_text(
                "Restart from the exact state at this moment with the current settings; \
                 the run it leaves stays in the branch list",
            )
            .clicked()
        {
            tl.request_resimulate();
        }
        if ui
            .add_enabled(v.cursor_s.is_some(), egui::Button::new("Live"))
            .on_hover_text("Back to the running simulation's latest state")
            .clicked()
        {
            tl.playing = None;
            tl.pending.push(Request::Live);
        }
        loop_toggle(ui, tl, v);
        if !v.runs.is_empty() {
            ui.separator();
            runs(ui, tl, v);
        }
    });
}

fn transport(ui: &mut egui::Ui, tl: &mut TimelinePanel, v: &TimelineView) {
    let hint = |ui: &egui::Ui, cmd: super::commands::Command| {
        format!("{} ({})", cmd.label(), cmd.shortcut_text(ui.ctx()))
    };
    let back = hint(ui, super::commands::Command::FrameBack);
    if ui.button("‹").on_hover_text(back).clicked() {
        tl.pending.push(Request::Frames(-1));
    }
    for (dir, text, help) in [
        (-1.0, "Reverse", "Play the recording backwards"),
        (1.0, "Replay", "Play the recording forwards"),
    ] {
        let on = tl.playing == Some(dir);
        if ui.selectable_label(on, text).on_hover_text(help).clicked() {
            tl.playing = (!on).then_some(dir);
            if !on && v.cursor_s.is_none() {
                let start = if dir > 0.0 { v.start_s } else { v.end_s };
                tl.pending.push(Request::Scrub(start));
            }
        }
    }
    let fwd = hint(ui, super::commands::Command::FrameForward);
    if ui.button("›").on_hover_text(fwd).clicked() {
        tl.pending.push(Request::Frames(1));
    }
}

/// "Loop": playback loops between the moment shown when it was ticked and the end (or the
/// other way round when that moment is the end).
fn loop_toggle(ui: &mut egui::Ui, tl: &mut TimelinePanel, v: &TimelineView) {
    let mut on = tl.loop_range.is_some();
    let r = ui.checkbox(&mut on, "Loop").on_hover_text(
        "Loop playback over the range from the moment shown when ticked to the end of the run",
    );
    if r.changed() {
        let from = v.cursor_s.unwrap_or(v.start_s);
        let to = if from >= v.end_s { v.start_s } else { v.end_s };
        tl.loop_range = on.then_some((from, to));
    }
    if let Some((a, b)) = tl.loop_range {
        ui.weak(format!("{:.2}–{:.2} s", a.min(b), a.max(b)));
    }
}

/// The runs, the active one highlighted, and which one the plots overlay.
fn runs(ui: &mut egui::Ui, tl: &mut TimelinePanel, v: &TimelineView) {
    {
        ui.label("Runs:");
        for (i, label) in v.runs.iter().enumerate() {
            let short: String = label.chars().take(36).collect();
            let text = if short.len() < label.len() {
                format!("{short}…")
            } else {
                short
            };
            let r = ui
                .selectable_label(i == v.active, text)
                .on_hover_text(label);
            if r.clicked() && i != v.active {
                tl.pending.push(Request::Select(i));
            }
        }
        ui.separator();
        let name = |i: Option<usize>| {
            i.and_then(|i| v.runs.get(i))
                .map_or("none".to_string(), |l| l.chars().take(24).collect())
        };
        let mut pick = v.compare;
        egui::ComboBox::from_label("Overlay in plots")
            .selected_text(name(pick))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut pick, None, "none");
                for i in (0..v.runs.len()).filter(|&i| i != v.active) {
                    ui.selectable_value(&mut pick, Some(i), name(Some(i)));
                }
            });
        if pick != v.compare {
            tl.pending.push(Request::Compare(pick));
        }
    }
}
