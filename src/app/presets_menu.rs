//! The Presets menu (filled in below).

use super::state::EditorState;

pub fn ui(ui: &mut egui::Ui, _st: &mut EditorState) {
    ui.weak("(none)");
}
