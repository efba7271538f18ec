//! The document-level balance gains.

use super::state::EditorState;
use super::widgets::{self, GainRow};
use crate::document::fields::Key;
use crate::document::{BalanceSettings, EditTarget};
use serde_json::Value;

/// Shown for a balance bone the file leaves to the default (found by the simulation).
const DEFAULT_BY_ROLE: &str = "(default)";

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState) {
    let b = st.doc.balance.clone();
    let t = EditTarget::Document;
    let mut enabled = b.enabled;
    if ui.checkbox(&mut enabled, "Balance enabled").changed() {
        st.edit(t, Key::BalanceEnabled.path(), Value::Bool(enabled), None);
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
                Key::TorsoBone.path(),
                b.torso_bone.as_deref().unwrap_or(DEFAULT_BY_ROLE),
                &bones,
            );
            widgets::choice(
                ui,
                st,
                t,
                "Pelvis bone",
                Key::PelvisBone.path(),
                b.pelvis_bone.as_deref().unwrap_or(DEFAULT_BY_ROLE),
                &bones,
            );
            widgets::gains(ui, st, t, &controller_rows(&b));
            widgets::gains(ui, st, t, &strategy_rows(&b));
            super::natural::balance(ui, st);
        });
}

/// The upright and ankle controllers' gains, with their units.
fn controller_rows(b: &BalanceSettings) -> [GainRow<'_>; 6] {
    [
        (
            "Upright kp",
            b.upright_kp,
            Key::UprightKp.path(),
            "N·m/rad",
            10.0,
        ),
        (
            "Upright kd",
            b.upright_kd,
            Key::UprightKd.path(),
            "N·m·s/rad",
            1.0,
        ),
        (
            "Upright max torque",
            b.upright_max_torque,
            Key::UprightMaxTorque.path(),
            "N·m",
            5.0,
        ),
        ("Ankle kp", b.ankle_kp, Key::AnkleKp.path(), "N·m/rad", 5.0),
        (
            "Ankle kd",
            b.ankle_kd,
            Key::AnkleKd.path(),
            "N·m·s/rad",
            0.5,
        ),
        (
            "Ankle max torque",
            b.ankle_max_torque,
            Key::AnkleMaxTorque.path(),
            "N·m",
            1.0,
        ),
    ]
}

/// The hip and stepping strategies' settings and the knock-out (each off at 0).
fn strategy_rows(b: &BalanceSettings) -> [GainRow<'_>; 7] {
    [
        (
            "Hip kp (0: off)",
            b.hip_kp,
            Key::HipKp.path(),
            "N·m/m",
            50.0,
        ),
        (
            "Hip max torque",
            b.hip_max_torque,
            Key::HipMaxTorque.path(),
            "N·m",
            1.0,
        ),
        (
            "Step gain (0: off)",
            b.step_gain,
            Key::StepGain.path(),
            "× capture point",
            0.01,
        ),
        (
            "Step margin",
            b.step_margin,
            Key::StepMargin.path(),
            "leg lengths",
            0.005,
        ),
        (
            "Step catches up to (0: any)",
            b.step_catch_dv,
            Key::StepCatchDv.path(),
            "m/s",
            0.01,
        ),
        (
            "Steps square the stance (0-1)",
            b.step_rest_stance,
            Key::StepRestStance.path(),
            "of rest stance",
            0.01,
        ),
        (
            "Knocked out above (0: never)",
            b.knockout_dv,
            Key::KnockoutDv.path(),
            "m/s",
            0.01,
        ),
    ]
}
