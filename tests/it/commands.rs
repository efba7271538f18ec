//! The command table: the menus and shortcuts come from it, a shortcut shown is the one that
//! works, and a disabled command's shortcut is taken without running anything else.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use ragdoll_tuner::app::commands::{shortcut_order, Command};
use ragdoll_tuner::document::ConstraintKind;

fn max_limit(h: &egui_kittest::Harness<'static, ragdoll_tuner::app::EditorApp>) -> f64 {
    let doc = &h.state().state.doc;
    let id = doc.bone_by_name("forearm_l").expect("bone");
    match doc.bone(id).constraint().map(|c| &c.kind) {
        Some(ConstraintKind::Hinge { limit_max_deg, .. }) => *limit_max_deg,
        other => panic!("not a hinge: {other:?}"),
    }
}

#[test]
fn the_table_has_one_label_per_command_and_egui_formats_its_shortcuts() {
    let mut labels: Vec<&str> = Command::ALL.iter().map(|c| c.label()).collect();
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), Command::ALL.len(), "labels are unique");
    let ctx = egui::Context::default();
    assert_eq!(
        Command::Save.shortcut_text(&ctx),
        ctx.format_shortcut(&Command::Save.shortcuts()[0])
    );
    assert_eq!(Command::Quit.shortcut_text(&ctx), "");
    // Ctrl+Shift+Z is matched before Ctrl+Z can take it.
    let order = shortcut_order();
    let at = |c: Command| {
        order
            .iter()
            .position(|(x, s)| *x == c && s.logical_key == egui::Key::Z)
    };
    assert!(at(Command::Redo) < at(Command::Undo), "{order:?}");
}

/// The Edit menu's items are the table's; clicking Undo undoes; Ctrl+Shift+Z with nothing to
/// redo changes nothing (it must not undo).
#[test]
fn menus_and_shortcuts_run_the_tables_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("m.glb");
    std::fs::copy(mannequin(), &path).expect("copy");
    let mut h = crate::editor::harness(&path);
    h.run_steps(3);
    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    h.get_by_label("Max angle").set_value_accesskit(120.0);
    h.run_steps(3);
    assert_eq!(max_limit(&h), 120.0);
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(3);
    assert_eq!(
        max_limit(&h),
        120.0,
        "a redo shortcut with nothing to redo undid the edit"
    );
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains(Command::Undo.label()).click();
    h.run_steps(3);
    assert_eq!(max_limit(&h), 145.0, "the menu's Undo undoes");
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains(Command::Redo.label()).click();
    h.run_steps(3);
    assert_eq!(max_limit(&h), 120.0, "the menu's Redo redoes");
}
