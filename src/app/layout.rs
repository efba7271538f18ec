//! The editor window's layout: the menu bar, the status bar, the left panel (outliner and
//! diagnostics), the right panel (inspector, anatomy, pairs, simulation), the plots and the
//! timeline under the viewport, and the viewport in the centre.

use super::*;

/// The widest the left panel grows, as a share of the window: long bone names (a Maya
/// export's `Dog_l_FrontLeg_AnkleSHJnt_2`) widened the side panels until the viewport was a
/// strip 110 px wide.
const MAX_LEFT_SHARE: f32 = 0.3;
/// The widest the right panel grows, as a share of what the left panel leaves.
const MAX_RIGHT_SHARE: f32 = 0.5;

impl EditorApp {
    pub(super) fn panels(&mut self, ui: &mut egui::Ui, frame: &eframe::Frame) {
        self.menu_bar(ui);
        self.status_bar(ui);
        self.left_panel(ui);
        self.right_panel(ui);
        self.plot_panel(ui);
        self.central_panel(ui, frame);
        if let Some((bone, impulse)) = self.viewport.pending_push.take() {
            self.push(bone, impulse);
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.state;
        egui::Panel::top("menu")
            .frame(unfilled_side(ui))
            .show(ui, |ui| {
                let egui = ui.ctx().clone();
                let mut cx = commands::Context {
                    st,
                    files: &mut self.files,
                    generate: &mut self.generate,
                    tune: &mut self.tune,
                    egui: &egui,
                    timeline: &mut self.timeline,
                };
                menu::bar(ui, &mut cx)
            });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status")
            .frame(unfilled_side(ui))
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    self.simulation_status(ui);
                    ui.label(format!("frame {:.1} ms", self.frame_ms));
                    ui.separator();
                    if let Some(l) = &self.state.loading {
                        ui.spinner();
                        ui.label(format!(
                            "loading {} ({:.1} s)",
                            l.path.display(),
                            l.started.elapsed().as_secs_f64()
                        ));
                        ui.separator();
                    }
                    ui.label(&self.state.status);
                });
            });
    }

    /// The status bar's simulation part: time, step rate, timeline memory, guard message.
    fn simulation_status(&self, ui: &mut egui::Ui) {
        let Some(sim) = &self.simulation else {
            ui.weak("simulation not connected");
            ui.separator();
            return;
        };
        ui.label(format!("sim {:.2} s", sim.time()));
        ui.separator();
        ui.label(match sim.steps_per_second() {
            Some(r) => format!("{r:.0} steps/s"),
            None => "– steps/s".into(),
        });
        ui.separator();
        if let Some(t) = sim.timeline() {
            ui.label(timeline_panel::megabytes(t.bytes))
                .on_hover_text("Memory of the recorded runs (last 60 s each)");
            ui.separator();
        }
        if let Some(m) = sim.guard_message() {
            ui.colored_label(egui::Color32::from_rgb(240, 170, 40), m);
            ui.separator();
        }
        if let Some(m) = sim.knocked_out() {
            ui.label(m);
            ui.separator();
        }
    }

    fn left_panel(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.state;
        let view = &mut self.view;
        let left = egui::Panel::left("left")
            .frame(unfilled_side(ui))
            .resizable(true)
            .max_size(MAX_LEFT_SHARE * ui.available_width())
            .default_size(view.left_panel_w)
            .show(ui, |ui| {
                let diag = egui::Panel::bottom("diagnostics")
                    .frame(unfilled_side(ui))
                    .resizable(true)
                    .default_size(view.diagnostics_panel_h)
                    .show(ui, |ui| {
                        st.refresh_doctor();
                        let list = diagnostics::all(st);
                        ui.strong(format!("Diagnostics ({})", list.len()));
                        diagnostics::ui(ui, st, &list);
                    });
                view.diagnostics_panel_h = diag.response.rect.height();
                ui.strong("Outliner");
                self.outliner.ui(ui, st);
            });
        view.left_panel_w = left.response.rect.width();
    }

    fn right_panel(&mut self, ui: &mut egui::Ui) {
        let right = egui::Panel::right("right")
            .frame(unfilled_side(ui))
            .resizable(true)
            .max_size(MAX_RIGHT_SHARE * ui.available_width())
            .default_size(self.view.right_panel_w)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("right_scroll")
                    .show(ui, |ui| self.right_sections(ui));
            });
        self.view.right_panel_w = right.response.rect.width();
    }

    /// The right panel's contents: the inspector, then the collapsing sections.
    fn right_sections(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.state;
        if st.selection.is_none() && empty_state::is_empty(st) {
            empty_state::inspector(ui, st);
        } else {
            inspector::ui(ui, st);
        }
        ui.separator();
        egui::CollapsingHeader::new("Anatomy")
            .default_open(true)
            .show(ui, |ui| anatomy_panel::ui(ui, st));
        egui::CollapsingHeader::new("Collision pairs")
            .default_open(false)
            .show(ui, |ui| pair_view::ui(ui, st));
        egui::CollapsingHeader::new("Balance")
            .default_open(false)
            .show(ui, |ui| balance::ui(ui, st));
        egui::CollapsingHeader::new("Simulation")
            .default_open(true)
            .show(ui, |ui| self.sim.ui(ui, self.simulation.is_some()));
        egui::CollapsingHeader::new("Animation")
            .default_open(true)
            .show(ui, |ui| self.animation_section(ui));
    }

    fn animation_section(&mut self, ui: &mut egui::Ui) {
        let (clips, problems) = self
            .simulation
            .as_ref()
            .map(|s| s.clips())
            .unwrap_or_default();
        let clock = self.simulation.as_ref().and_then(|s| s.clip_clock());
        let view = clip_panel::ClipView {
            clips: &clips,
            problems: &problems,
            clock,
        };
        clip_panel::ui(ui, &mut self.sim.clip, &view);
    }

    fn plot_panel(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.state;
        let plots = egui::Panel::bottom("plots")
            .frame(unfilled_side(ui))
            .resizable(true)
            .default_size(self.view.plot_panel_h)
            .show(ui, |ui| {
                let view = self.simulation.as_ref().and_then(|s| s.timeline());
                egui::Panel::bottom("timeline")
                    .frame(unfilled_side(ui))
                    .show(ui, |ui| timeline_panel::ui(ui, &mut self.timeline, view));
                let (series, now) = match &self.simulation {
                    Some(sim) => (sim.series(), sim.time()),
                    None => (Vec::new(), 0.0),
                };
                let selected = st.selection.map(|id| st.doc.bone(id).name.clone());
                if let Some(csv) = self.plot.ui(ui, &series, now, selected.as_deref()) {
                    self.files.csv = Some(csv);
                    self.files.ask(files::PathAction::ExportCsv, st);
                }
            });
        self.view.plot_panel_h = plots.response.rect.height();
    }

    fn central_panel(&mut self, ui: &mut egui::Ui, frame: &eframe::Frame) {
        let st = &mut self.state;
        let central = egui::Frame::central_panel(ui.style()).fill(egui::Color32::TRANSPARENT);
        egui::CentralPanel::default().frame(central).show(ui, |ui| {
            self.viewport.toolbar(ui, st);
            let rect = ui.available_rect_before_wrap();
            self.viewport.ui(ui, st, frame);
            if empty_state::is_empty(st) {
                empty_state::viewport(ui, rect, st);
            }
        });
    }
}
