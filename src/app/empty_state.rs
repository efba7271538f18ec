//! The first minute: a character without physics opens on an empty state instead of a bare
//! status line: the detected kind and how much of its anatomy was recognised, a pointer to
//! the Anatomy panel, and a Generate button in the viewport and in the inspector.

use super::state::EditorState;
use crate::anatomy::{Anatomy, Role};

/// True when no bone has physics: there is nothing to simulate yet.
pub fn is_empty(st: &EditorState) -> bool {
    !st.doc.bones.iter().any(|b| b.physics.is_some())
}

/// One line on the anatomy: "biped (detected, 95%): 16 of 16 core roles found".
pub fn summary(a: &Anatomy) -> String {
    let found: usize = Role::CORE
        .iter()
        .map(|&r| a.bones_with(r).len().min(2))
        .sum();
    let wanted: usize = Role::CORE
        .iter()
        .map(|&r| if r.is_paired() { 2 } else { 1 })
        .sum();
    let kind = format!("{} ({:.0}%)", a.kind().name(), a.kind_confidence() * 100.0);
    match a.kind() {
        crate::anatomy::Kind::Biped => {
            format!(
                "Detected: {kind}, {} of {wanted} core roles found",
                found.min(wanted)
            )
        }
        _ => format!("Detected: {kind}, {} limbs", a.limbs().len()),
    }
}

/// The empty state's text and button, shared by the viewport and the inspector.
fn body(ui: &mut egui::Ui, st: &mut EditorState, button: &str) {
    let a = st.anatomy.get(&st.doc, st.bones_gen);
    let line = summary(a);
    ui.heading("No ragdoll yet");
    ui.label(format!("{} bones. {line}.", st.doc.bones.len()));
    ui.label("Check or correct the roles in the Anatomy panel, then generate.");
    if ui
        .button(button)
        .on_hover_text(
            "Fit bodies, joints, limits, masses and drives to this character (one undo step)",
        )
        .clicked()
    {
        st.wants_generate = true;
    }
}

/// The empty state over the viewport (at the top of `rect`, above the character).
pub fn viewport(ui: &mut egui::Ui, rect: egui::Rect, st: &mut EditorState) {
    let size = egui::vec2(rect.width().min(400.0), 130.0);
    let top = egui::pos2(rect.center().x, rect.top() + 12.0 + size.y / 2.0);
    let area = egui::Rect::from_center_size(top, size);
    ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| body(ui, st, "Generate ragdoll"));
    });
}

/// The empty state in the inspector.
pub fn inspector(ui: &mut egui::Ui, st: &mut EditorState) {
    body(ui, st, "Generate a ragdoll");
}
