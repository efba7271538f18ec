//! The document-level balance gains.

use super::state::EditorState;
use super::widgets;
use crate::document::EditTarget;
use serde_json::Value;

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState) {
    let b = st.doc.balance.clone();
    let t = EditTarget::Document;
    let mut enabled = b.enabled;
    if ui.checkbox(&mut enabled, "Balance enabled").changed() {
        st.edit(t, "balance.enabled", Value::Bool(enabled), None);
    }
    let bones: Vec<String> = st.doc.bones.iter().map(|b| b.name.clone()).collect();
    egui::Grid::new("balance_grid")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            widgets::choice(
                ui,
                st,
                t,
                "Torso bone",
                "balance.torso_bone",
                &b.torso_bone,
                &bones,
            );
            widgets::choice(
                ui,
                st,
                t,
                "Pelvis bone",
                "balance.pelvis_bone",
                &b.pelvis_bone,
                &bones,
            );
            let rows = [
                (
                    "Upright kp",
                    b.upright_kp,
                    "balance.upright_kp",
                    "N·m/rad",
                    10.0,
                ),
                (
                    "Upright kd",
                    b.upright_kd,
                    "balance.upright_kd",
                    "N·m·s/rad",
                    1.0,
                ),
                (
                    "Upright max torque",
                    b.upright_max_torque,
                    "balance.upright_max_torque",
                    "N·m",
                    5.0,
                ),
                ("Ankle kp", b.ankle_kp, "balance.ankle_kp", "N·m/rad", 5.0),
                ("Ankle kd", b.ankle_kd, "balance.ankle_kd", "N·m·s/rad", 0.5),
                (
                    "Ankle max torque",
                    b.ankle_max_torque,
                    "balance.ankle_max_torque",
                    "N·m",
                    1.0,
                ),
            ];
            widgets::gains(ui, st, t, &rows);
        });
}
