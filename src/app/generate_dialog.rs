//! "Generate ragdoll…": the generator's options in a window; Generate applies the result as
//! one undo step (one [`Edit::Group`] through the history), and the live simulation picks it
//! up at once (the document generation changes, so it re-syncs or rebuilds).

use super::state::EditorState;
use crate::generate::{self, CharacterKind, Options};

/// The dialog's state: open or not, and the options being edited.
#[derive(Debug, Clone, Default)]
pub struct GenerateDialog {
    pub open: bool,
    pub options: Options,
    /// Total mass typed by the user (kg); 0 means "from size".
    mass_kg: f64,
    /// The last run's one-line summary.
    pub last: Option<String>,
}

impl GenerateDialog {
    /// Opens the dialog (from the menu).
    pub fn open(&mut self) {
        self.open = true;
    }

    /// Draws the window while open.
    pub fn show(&mut self, ctx: &egui::Context, st: &mut EditorState) {
        if !self.open {
            return;
        }
        let mut open = true;
        let mut go = false;
        egui::Window::new("Generate ragdoll")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                self.options_ui(ui);
                ui.separator();
                ui.horizontal(|ui| {
                    go = ui.button("Generate").clicked();
                    if ui.button("Cancel").clicked() {
                        self.open = false;
                    }
                });
                if let Some(l) = &self.last {
                    ui.weak(l);
                }
            });
        if go {
            self.run(st);
        }
        self.open &= open;
    }

    fn options_ui(&mut self, ui: &mut egui::Ui) {
        let o = &mut self.options;
        ui.checkbox(&mut o.keep_existing, "Keep existing physics");
        ui.horizontal(|ui| {
            let l = ui.label("Minimum bone size (share of height)");
            ui.add(
                egui::DragValue::new(&mut o.min_bone_size)
                    .range(0.0..=0.3)
                    .speed(0.002),
            )
            .labelled_by(l.id);
        });
        ui.checkbox(&mut o.fingers, "Fingers");
        ui.checkbox(&mut o.toes, "Toes");
        ui.checkbox(&mut o.tail, "Tail");
        ui.checkbox(&mut o.twist, "Twist bones");
        ui.checkbox(&mut o.cloth, "Hair and clothing")
            .on_hover_text("Bodies for chains named as hair or clothing (off: left to the skin)");
        ui.checkbox(&mut o.hinge_wrists_ankles, "Wrists and ankles as hinges");
        ui.checkbox(
            &mut o.keep_appendages,
            "Fit the trunk and head to tails, wings, capes and antlers",
        )
        .on_hover_text(
            "Off: vertices far off a humanoid's pelvis, spine and chest (a tail, wings or a \
                 cape without bones of their own) and far, thin ones off a head (antlers, \
                 horns) are left out of their shapes",
        );
        ui.horizontal(|ui| {
            let l = ui.label("Total mass (kg, 0 = from size)");
            ui.add(
                egui::DragValue::new(&mut self.mass_kg)
                    .range(0.0..=1e6)
                    .speed(0.5),
            )
            .labelled_by(l.id);
        });
        o.total_mass_kg = (self.mass_kg > 0.0).then_some(self.mass_kg);
        ui.horizontal(|ui| {
            let l = ui.label("Character type");
            egui::ComboBox::from_id_salt("generate_kind")
                .selected_text(kind_name(o.kind))
                .show_ui(ui, |ui| {
                    for k in [
                        None,
                        Some(CharacterKind::Humanoid),
                        Some(CharacterKind::Quadruped),
                        Some(CharacterKind::Other),
                    ] {
                        ui.selectable_value(&mut o.kind, k, kind_name(k));
                    }
                })
                .response
                .labelled_by(l.id);
        });
    }

    /// Generates and applies as one undo step; the outcome goes to the status bar.
    pub fn run(&mut self, st: &mut EditorState) {
        let result = generate::generate(&st.doc, &self.options);
        let msg = match result {
            Err(e) => format!("generate: {e}"),
            Ok(g) => match st.execute(g.edit, None, "generated") {
                Err(e) => format!("generate refused: {e}"),
                Ok(()) => {
                    let r = &g.report;
                    let cov = r
                        .coverage
                        .median
                        .map_or("not measured".to_string(), |c| format!("{c:.2}"));
                    self.open = false;
                    format!(
                        "generated a {} ragdoll: {} bodies, {:.1} kg, coverage median {cov}; {} warning(s) (Ctrl+Z undoes)",
                        kind_name(Some(r.character_type)),
                        r.body_count,
                        r.total_mass_kg,
                        g.diagnostics.len()
                    )
                }
            },
        };
        self.last = Some(msg.clone());
        st.status = msg;
    }
}

fn kind_name(k: Option<CharacterKind>) -> &'static str {
    match k {
        None => "detect",
        Some(CharacterKind::Humanoid) => "humanoid",
        Some(CharacterKind::Quadruped) => "quadruped",
        Some(CharacterKind::Other) => "other",
    }
}
