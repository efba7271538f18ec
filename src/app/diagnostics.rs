//! The diagnostics panel: every problem of the document, every implausible fact of its
//! anatomy or ragdoll, then the stability doctor's findings (the same list `validate` prints)
//! and the last Stabilize report; clicking one selects its bone.

use super::state::EditorState;
use super::widgets::{DIAGNOSTIC_MARKER, ERROR_MARKER};
use crate::document::Severity;

/// The document's diagnostics, the anatomy's plausibility warnings and the doctor's findings.
pub fn all(st: &mut EditorState) -> Vec<crate::document::Diagnostic> {
    let gen = st.doc_gen();
    let checks = st.anatomy.checks(&st.doc, st.bones_gen, gen);
    st.doc
        .diagnostics
        .iter()
        .chain(checks)
        .chain(&st.doctor.diagnostics)
        .cloned()
        .chain(st.doctor.live.iter().flat_map(|w| w.diagnostics(&st.doc)))
        .collect()
}

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState, list: &[crate::document::Diagnostic]) {
    report(ui, st);
    if list.is_empty() {
        ui.weak("No problems found.");
        return;
    }
    let mut select = None;
    egui::ScrollArea::vertical()
        .id_salt("diagnostics")
        .max_height(160.0)
        .show(ui, |ui| {
            for d in list {
                let (icon, color) = match d.severity {
                    Severity::Error => (ERROR_MARKER, egui::Color32::from_rgb(240, 90, 80)),
                    Severity::Warning => (DIAGNOSTIC_MARKER, egui::Color32::from_rgb(240, 170, 40)),
                };
                let text = format!("{icon} {}: {}: {}", d.bone, d.key, d.message);
                let resp = ui.add(
                    egui::Label::new(egui::RichText::new(text).color(color))
                        .sense(egui::Sense::click()),
                );
                if resp.clicked() {
                    select = d.node.and_then(|n| st.doc.bone_of_node(n));
                }
            }
        });
    if select.is_some() {
        st.selection = select;
    }
}

/// What the last Stabilize changed.
fn report(ui: &mut egui::Ui, st: &EditorState) {
    if st.doctor.report.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Stabilize changed ({})", st.doctor.report.len()))
        .id_salt("stabilize report")
        .show(ui, |ui| {
            for c in &st.doctor.report {
                ui.label(c);
            }
        });
}
