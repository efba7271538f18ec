//! "Bake to clip…": a small window asking for the clip's name, the recorded range (by default
//! the loop range if one is set, else the whole recording) and keys per second. Baking runs
//! `timeline::bake` over the active run's recording and adds the clip with
//! `timeline::append_edit` through [`EditorState::execute`], one undo step; the new clip is
//! then listed in the clip panel and plays in the editor's own player.

use super::state::EditorState;
use crate::timeline::{self, BakeOptions, Baked};

/// The dialog's fields and its last refusal.
#[derive(Debug, Clone, Default)]
pub struct BakeDialog {
    pub open: bool,
    /// Opened by the command, its fields not yet filled from the timeline.
    fill: bool,
    pub name: String,
    pub from_s: f64,
    pub to_s: f64,
    pub fps: f64,
    /// Why the last bake was refused (shown in the window).
    pub error: Option<String>,
}

/// Keys per second offered by default.
const DEFAULT_FPS: f64 = 30.0;

impl BakeDialog {
    /// The command: opens the window, its fields filled at the next frame.
    pub fn request(&mut self) {
        self.open = true;
        self.fill = true;
        self.error = None;
    }

    /// Fills the fields when just opened: a free name, the loop range (if set) or the
    /// recorded range, [`DEFAULT_FPS`].
    /// `recorded` is the recording's (first, last) moment.
    pub fn fill_from(
        &mut self,
        recorded: Option<(f64, f64)>,
        loop_range: Option<(f64, f64)>,
        st: &EditorState,
    ) {
        if !std::mem::take(&mut self.fill) {
            return;
        }
        let (from, to) = match (loop_range, recorded) {
            (Some((a, b)), _) => (a.min(b), a.max(b)),
            (None, Some(r)) => r,
            (None, None) => (0.0, 0.0),
        };
        (self.from_s, self.to_s, self.fps) = (from, to, DEFAULT_FPS);
        let taken: Vec<&str> = timeline::clip_names(&st.doc).collect();
        self.name = (1..)
            .map(|i| format!("ragdoll bake {i}"))
            .find(|n| !taken.contains(&n.as_str()))
            .unwrap_or_default();
    }

    /// The options the fields ask for.
    pub fn options(&self) -> BakeOptions {
        BakeOptions {
            name: self.name.trim().to_string(),
            from_s: Some(self.from_s),
            to_s: Some(self.to_s),
            fps: Some(self.fps),
        }
    }

    /// The window; true when "Bake" was clicked.
    pub fn show(&mut self, ctx: &egui::Context) -> bool {
        let mut open = self.open;
        let mut bake = false;
        let mut cancel = false;
        egui::Window::new("Bake to clip")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::Grid::new("bake_fields")
                    .num_columns(2)
                    .show(ui, |ui| {
                        let l = ui.label("Clip name");
                        ui.text_edit_singleline(&mut self.name).labelled_by(l.id);
                        ui.end_row();
                        for (label, v, suffix) in [
                            ("From", &mut self.from_s, " s"),
                            ("To", &mut self.to_s, " s"),
                            ("Keys per second", &mut self.fps, " fps"),
                        ] {
                            let l = ui.label(label);
                            ui.add(egui::DragValue::new(v).speed(0.01).suffix(suffix))
                                .labelled_by(l.id);
                            ui.end_row();
                        }
                    });
                if let Some(e) = &self.error {
                    ui.colored_label(egui::Color32::from_rgb(240, 110, 90), e);
                }
                ui.horizontal(|ui| {
                    bake = ui.button("Bake").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        self.open = open && !cancel;
        bake
    }
}

/// Adds `baked` (made as `o` asked) to the document as the clip `o.name`, one undo step.
/// Returns the status message, or why nothing changed.
pub fn add_clip(st: &mut EditorState, baked: &Baked, o: &BakeOptions) -> Result<String, String> {
    let edit = timeline::append_edit(&st.doc, baked, &o.name);
    let keys = baked.times_s.len();
    let done = format!(
        "baked '{}': {keys} keys from {:.2} s to {:.2} s",
        o.name,
        o.from_s.unwrap_or_default(),
        o.to_s.unwrap_or_default()
    );
    st.execute(edit, None, done.clone())
        .map_err(|e| format!("bake refused: {e}"))?;
    Ok(done)
}
