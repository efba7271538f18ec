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

/// Every command has a command-line name (`--command`) that names it back, and a name that is
/// no command is refused with the list of names.
#[test]
fn each_command_has_a_name_for_the_command_line() {
    for &c in Command::ALL {
        assert_eq!(Command::parse_id(&c.id()), Ok(c), "{c:?}");
    }
    assert_eq!(Command::AutoTune.id(), "auto-tune");
    assert_eq!(Command::BakeClip.id(), "bake-to-clip");
    let err = Command::parse_id("tune").expect_err("not a command");
    assert!(
        err.contains("auto-tune") && err.contains("bake-to-clip"),
        "{err}"
    );
    let out = ragdoll_tuner()
        .args(["--command", "tune", "--screenshot", "never.png"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no command 'tune'"), "{stderr}");
}

/// `--command` runs commands at the first frame, as the menu does: each dialog opens (and
/// passes the harness's accessibility check: every widget has a name).
#[test]
fn a_command_given_at_start_runs_as_if_picked() {
    let cases = [
        (Command::AutoTune, "Time budget (s)"),
        (Command::GenerateRagdoll, "Keep existing physics"),
    ];
    for (cmd, widget) in cases {
        let doc = ragdoll_tuner::document::Document::open(mannequin()).expect("mannequin");
        let opts = ragdoll_tuner::app::Options {
            commands: vec![cmd],
            ..Default::default()
        };
        let mut h = egui_kittest::Harness::builder()
            .with_size([1280.0, 800.0])
            .build_eframe(move |cc| ragdoll_tuner::app::EditorApp::new(cc, doc, &opts));
        h.run_steps(3);
        h.get_by_label(widget);
    }
}
