//! The Presets menu: the built-in reference humanoid by role, to the selection or all bones;
//! the user's presets (named JSON files in the config folder) listed and applied to the
//! selection; the selection's limits and gains saved as a new preset. Each application is
//! one undo step.

use super::state::EditorState;
use crate::document::BoneId;
use crate::presets::{self, store, Applied, PresetError};

impl EditorState {
    fn report_preset(&mut self, name: &str, res: Result<Applied, PresetError>) {
        match res {
            Ok(a) if a.edits.is_empty() => {
                self.status = format!(
                    "preset {name}: nothing to apply ({} joint(s) without a match)",
                    a.skipped
                )
            }
            Ok(a) => {
                let done = format!(
                    "applied preset {name} to {} bone(s) ({} without a match)",
                    a.bones, a.skipped
                );
                self.apply_command(a.edits, done);
            }
            Err(e) => self.status = format!("preset {name}: {e}"),
        }
    }

    /// Applies a preset (built-in name, user preset name or file) to the selection, or to
    /// every bone when `all`.
    pub fn apply_preset(&mut self, name: &str, all: bool) {
        let scope: Vec<BoneId> = if all {
            self.doc.bone_ids().collect()
        } else {
            self.selected_bones()
        };
        let res = presets::apply_named(&self.doc, name, &scope, None);
        self.report_preset(name, res);
    }

    /// Saves the selected bones' limits and gains as the user preset `name`.
    pub fn save_preset(&mut self, name: &str) {
        let preset = presets::capture(&self.doc, name.trim(), &self.selected_bones());
        if preset.joints.is_empty() {
            self.status = "select jointed bones to save as a preset".into();
            return;
        }
        let res = store::user_dir()
            .ok_or(PresetError::NoDir)
            .and_then(|d| store::save(&d, &preset));
        self.status = match res {
            Ok(p) => format!(
                "saved preset {} ({} joint(s)) to {}",
                preset.name,
                preset.joints.len(),
                p.display()
            ),
            Err(e) => format!("preset not saved: {e}"),
        };
    }
}

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState) {
    let has_sel = st.selection.is_some();
    ui.strong("Reference humanoid");
    if ui
        .add_enabled(has_sel, egui::Button::new("Humanoid limits to selection"))
        .on_hover_text("The reference humanoid ranges by role (shoulder, elbow, hip, knee, spine…)")
        .clicked()
    {
        st.apply_preset(presets::BUILTIN_HUMANOID, false);
    }
    if ui.button("Humanoid limits to all bones").clicked() {
        st.apply_preset(presets::BUILTIN_HUMANOID, true);
    }
    ui.separator();
    ui.strong("User presets");
    let dir = store::user_dir();
    let names = match dir.as_deref().map(store::list) {
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            ui.weak(e.to_string());
            Vec::new()
        }
        None => Vec::new(),
    };
    if names.is_empty() {
        ui.weak("(none saved)");
    }
    for n in names {
        if ui
            .add_enabled(has_sel, egui::Button::new(format!("Apply {n}")))
            .on_hover_text("Apply to the selected bones: by bone name, else by role and side")
            .clicked()
        {
            st.apply_preset(&n, false);
        }
    }
    ui.separator();
    ui.horizontal(|ui| {
        let l = ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut st.preset_name).desired_width(120.0))
            .labelled_by(l.id);
    });
    let name = st.preset_name.clone();
    if ui
        .add_enabled(
            has_sel && !name.trim().is_empty(),
            egui::Button::new("Save selection as preset"),
        )
        .clicked()
    {
        st.save_preset(&name);
    }
    if let Some(d) = dir {
        ui.weak(format!("folder: {}", d.display()));
    }
}
