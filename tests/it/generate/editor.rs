//! "Generate ragdoll…" in the real editor (egui_kittest): one click generates, the live
//! simulation runs the new ragdoll at once, and one undo takes it all back.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use ragdoll_tuner::document::Document;

fn bodies(doc: &Document) -> usize {
    doc.bones
        .iter()
        .filter(|b| b.physics.as_ref().is_some_and(|p| p.collider.is_some()))
        .count()
}

#[test]
fn generate_dialog_applies_one_undo_step_and_the_sim_runs_it() {
    let mut h = crate::editor::harness(&cesium_man());
    h.run_steps(2);
    assert_eq!(bodies(&h.state().state.doc), 0);
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Generate ragdoll…").click();
    h.run_steps(2);
    h.get_by_label("Generate").click();
    h.run_steps(4);
    let n = bodies(&h.state().state.doc);
    assert!(n >= 15, "{n} bodies; status: {}", h.state().state.status);
    let knee = |h: &egui_kittest::Harness<'static, ragdoll_tuner::app::EditorApp>| {
        h.state()
            .simulation()
            .and_then(|s| s.joint_limits("leg_joint_L_2"))
    };
    assert!(
        matches!(
            knee(&h),
            Some(ragdoll_tuner::sim::JointLimits::Hinge { .. })
        ),
        "the live simulation has the generated knee hinge"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(
        bodies(&h.state().state.doc),
        0,
        "one undo removes the whole ragdoll"
    );
    assert!(knee(&h).is_none());
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(3);
    assert_eq!(bodies(&h.state().state.doc), n, "redo brings it back");
}
