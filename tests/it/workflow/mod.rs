//! Artist workflow in the real editor (egui_kittest) and on real files: symmetric editing,
//! multi-select with mixed values, the mirror commands and presets, each one undo step.

use crate::common;
use crate::editor::harness;
use egui_kittest::kittest::Queryable;
use ragdoll_tuner::app::state::EditorState;
use ragdoll_tuner::document::{ConstraintKind, Document, Edit, UriPolicy};
use ragdoll_tuner::mirror::Direction;
use serde_json::json;

mod presets;

fn hinge(doc: &Document, bone: &str) -> (f64, f64) {
    let id = doc.bone_by_name(bone).expect("bone exists");
    match doc
        .bone(id)
        .physics
        .as_ref()
        .and_then(|p| p.constraint.as_ref())
        .map(|c| &c.kind)
    {
        Some(ConstraintKind::Hinge {
            limit_min_deg,
            limit_max_deg,
            ..
        }) => (*limit_min_deg, *limit_max_deg),
        other => panic!("{bone} is not a hinge: {other:?}"),
    }
}

fn mannequin_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mannequin.glb");
    std::fs::copy(common::mannequin(), &path).expect("copy fixture");
    (dir, path)
}

/// A generated CesiumMan (the arms' bone axes differ left to right).
fn cesium_with_ragdoll() -> Document {
    let mut doc = Document::open(common::cesium_man()).expect("CesiumMan opens");
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generates");
    doc.apply(&g.edit).expect("generated ragdoll applies");
    doc
}

#[test]
fn symmetric_editing_reaches_the_twin_as_one_undo_step() {
    let (_dir, path) = mannequin_copy();
    let mut h = harness(&path);
    h.run_steps(3);
    assert!(
        h.state().state.symmetric,
        "on by default: the mannequin has twins"
    );
    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    let gen0 = h.state().state.doc_gen();
    h.get_by_label("Max angle").set_value_accesskit(120.0);
    h.run_steps(3);
    let doc = &h.state().state.doc;
    assert_eq!(hinge(doc, "forearm_l").1, 120.0);
    assert_eq!(hinge(doc, "forearm_r").1, 120.0, "the twin follows");
    assert!(
        h.state().state.doc_gen() != gen0,
        "the simulation and viewport see the change"
    );
    match h
        .state()
        .simulation()
        .and_then(|s| s.joint_limits("forearm_r"))
    {
        Some(ragdoll_tuner::sim::JointLimits::Hinge { max_rad, .. }) => {
            assert!(
                (max_rad.to_degrees() - 120.0).abs() < 1e-3,
                "the solver enforces the twin's new limit"
            )
        }
        other => panic!("the live simulation has no hinge at forearm_r: {other:?}"),
    }

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    let doc = &h.state().state.doc;
    assert_eq!(
        hinge(doc, "forearm_l").1,
        145.0,
        "one undo restores the edited side"
    );
    assert_eq!(
        hinge(doc, "forearm_r").1,
        145.0,
        "and the twin, in the same step"
    );

    // Off (the inspector's toggle): only the edited side changes.
    h.get_by_label("Symmetric").click();
    h.run_steps(3);
    assert!(!h.state().state.symmetric);
    h.get_by_label("Max angle").set_value_accesskit(110.0);
    h.run_steps(3);
    let doc = &h.state().state.doc;
    assert_eq!(hinge(doc, "forearm_l").1, 110.0);
    assert_eq!(hinge(doc, "forearm_r").1, 145.0);
}

#[test]
fn symmetric_edit_on_cesium_man_is_the_mirror_of_the_edited_bone() {
    let doc = cesium_with_ragdoll();
    let pairs = ragdoll_tuner::mirror::twins(&doc);
    let (l, r) = *pairs
        .iter()
        .find(|(l, _)| {
            doc.bone(*l)
                .physics
                .as_ref()
                .and_then(|p| p.constraint.as_ref())
                .is_some_and(|c| matches!(c.kind, ConstraintKind::BallSocket { .. }))
        })
        .expect("a ball-socket pair");
    let mut st = EditorState::new(doc, UriPolicy::default());
    assert!(st.symmetric);
    st.select_only(Some(l));
    let before = st.doc.json().clone();
    let target = st.doc.bone_target(l);
    let swing = json!({"pos_y": 70.0, "neg_y": 20.0, "pos_z": 50.0, "neg_z": 10.0});
    st.edit(target, "constraint.swing_limit_deg", swing.clone(), None);
    assert!(st.status.is_empty(), "{}", st.status);
    // The twin holds exactly what mirroring the edited bone gives.
    let expected = ragdoll_tuner::mirror::mirror_bone(&st.doc, l, r, &pairs);
    let mut check = st.doc.clone();
    check.apply(&Edit::Group(expected)).expect("mirror applies");
    assert_eq!(
        check.json(),
        st.doc.json(),
        "the twin is already the mirror image"
    );
    let rp = st
        .doc
        .bone(r)
        .physics
        .as_ref()
        .and_then(|p| p.constraint.as_ref());
    match rp.map(|c| &c.kind) {
        Some(ConstraintKind::BallSocket {
            swing_limit_deg: s, ..
        }) => {
            // Reflection swaps the +Z and -Z extents.
            assert_eq!(
                (s.pos_y, s.neg_y, s.pos_z, s.neg_z),
                (70.0, 20.0, 10.0, 50.0)
            );
        }
        other => panic!("twin is not a ball socket: {other:?}"),
    }
    st.undo();
    assert_eq!(
        st.doc.json(),
        &before,
        "one undo step restores both sides exactly"
    );
    st.redo();
    assert_eq!(check.json(), st.doc.json(), "redo gives the same result");
}

#[test]
fn a_drag_on_both_sides_is_one_undo_step() {
    let (_dir, path) = mannequin_copy();
    let doc = Document::open(&path).expect("opens");
    let mut st = EditorState::new(doc, UriPolicy::default());
    let l = st.doc.bone_by_name("shin_l").expect("shin_l");
    st.select_only(Some(l));
    let before = st.doc.json().clone();
    let target = st.doc.bone_target(l);
    let drag = Some(egui::Id::NULL.with("drag"));
    for v in [100.0, 105.0, 110.0] {
        st.edit(target, "constraint.limit_max_deg", json!(v), drag);
    }
    st.history.end_drag_unless(None);
    assert_eq!(hinge(&st.doc, "shin_r").1, 110.0);
    st.undo();
    assert_eq!(
        st.doc.json(),
        &before,
        "the whole drag, both sides, is one step"
    );
    assert!(!st.history.can_undo());
}

#[test]
fn multi_select_edits_shared_fields_at_once_and_shows_mixed_values() {
    let (_dir, path) = mannequin_copy();
    let mut h = harness(&path);
    h.run_steps(3);
    h.state_mut().state.symmetric = false;
    h.get_by_label("shin_l").click();
    h.run_steps(3);
    h.get_by_label("forearm_l")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.run_steps(3);
    let st = &h.state().state;
    let names: Vec<&str> = st
        .selected_bones()
        .iter()
        .map(|&b| st.doc.bone(b).name.as_str())
        .collect();
    assert_eq!(
        names,
        ["forearm_l", "shin_l"],
        "Ctrl-click adds, the clicked bone is primary"
    );
    let shin0 = hinge(&st.doc, "shin_l");
    let fore0 = hinge(&st.doc, "forearm_l");
    assert_ne!(shin0.1, fore0.1, "fixture: the two maxima differ");
    assert!(st.is_mixed("constraint.limit_max_deg"));
    let shown = h.get_by_label("Max angle").value().unwrap_or_default();
    assert!(
        shown.contains('—'),
        "a mixed value shows as mixed, got {shown:?}"
    );

    h.get_by_label("Max angle").set_value_accesskit(100.0);
    h.run_steps(3);
    let st = &h.state().state;
    assert_eq!(hinge(&st.doc, "shin_l").1, 100.0);
    assert_eq!(hinge(&st.doc, "forearm_l").1, 100.0);
    assert!(!st.is_mixed("constraint.limit_max_deg"));
    assert_eq!(
        hinge(&st.doc, "shin_l").0,
        shin0.0,
        "other fields keep their own values"
    );
    assert!(st.is_mixed("collision_group"), "fixture: arm_l and leg_l");
    let group = h
        .get_by_label("Collision group")
        .value()
        .unwrap_or_default();
    assert!(
        group.is_empty(),
        "a mixed text starts empty (hint —), got {group:?}"
    );

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    let st = &h.state().state;
    assert_eq!(
        hinge(&st.doc, "shin_l"),
        shin0,
        "one undo step for the whole selection"
    );
    assert_eq!(hinge(&st.doc, "forearm_l"), fore0);

    // Ctrl-click again removes; a plain click selects one bone.
    h.get_by_label("shin_l")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.run_steps(3);
    assert_eq!(h.state().state.selected_bones().len(), 1);
    h.get_by_label("thigh_l").click();
    h.run_steps(3);
    assert_eq!(h.state().state.selected_bones().len(), 1);
}

#[test]
fn shift_click_selects_a_range_of_outliner_rows() {
    let (_dir, path) = mannequin_copy();
    let mut h = harness(&path);
    h.run_steps(3);
    h.get_by_label("thigh_l").click();
    h.run_steps(3);
    h.get_by_label("foot_l")
        .click_modifiers(egui::Modifiers::SHIFT);
    h.run_steps(3);
    let st = &h.state().state;
    let mut names: Vec<&str> = st
        .selected_bones()
        .iter()
        .map(|&b| st.doc.bone(b).name.as_str())
        .collect();
    assert_eq!(names[0], "foot_l", "the clicked end is primary");
    names.sort();
    assert_eq!(names, ["foot_l", "shin_l", "thigh_l"]);
}

#[test]
fn mirror_commands_are_one_undo_step_each() {
    let doc = cesium_with_ragdoll();
    let pairs = ragdoll_tuner::mirror::twins(&doc);
    let (l, r) = pairs[0];
    let mut st = EditorState::new(doc, UriPolicy::default());
    st.symmetric = false;
    st.select_only(Some(l));
    let t = st.doc.bone_target(l);
    st.edit(t, "mass", json!(7.25), None);
    let edited = st.doc.json().clone();
    assert_ne!(st.doc.bone(r).physics.as_ref().map(|p| p.mass), Some(7.25));

    st.mirror_selection();
    assert_eq!(
        st.doc.bone(r).physics.as_ref().map(|p| p.mass),
        Some(7.25),
        "{}",
        st.status
    );
    st.undo();
    assert_eq!(
        st.doc.json(),
        &edited,
        "Mirror to other side undoes in one step"
    );

    st.mirror_whole_side(Direction::LeftToRight);
    let mut expected = Document::clone(&st.doc);
    expected
        .apply(&Edit::Group(ragdoll_tuner::mirror::mirror_side(
            &expected.clone(),
            Direction::LeftToRight,
            None,
        )))
        .expect("applies");
    assert_eq!(st.doc.bone(r).physics.as_ref().map(|p| p.mass), Some(7.25));
    assert_eq!(
        expected.json(),
        st.doc.json(),
        "mirroring twice changes nothing more"
    );
    st.undo();
    assert_eq!(
        st.doc.json(),
        &edited,
        "Mirror side L to R undoes in one step"
    );

    st.mirror_whole_side(Direction::RightToLeft);
    assert_ne!(
        st.doc.bone(l).physics.as_ref().map(|p| p.mass),
        Some(7.25),
        "R to L overwrites the left"
    );
    st.undo();
    assert_eq!(st.doc.json(), &edited);
}

#[test]
fn mirror_to_other_side_from_the_menu() {
    let (_dir, path) = mannequin_copy();
    let mut h = harness(&path);
    h.run_steps(3);
    h.state_mut().state.symmetric = false;
    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    h.get_by_label("Max angle").set_value_accesskit(99.0);
    h.run_steps(3);
    assert_eq!(hinge(&h.state().state.doc, "forearm_r").1, 145.0);
    h.get_by_label("Symmetry").click();
    h.run_steps(3);
    h.get_by_label("Mirror to other side").click();
    h.run_steps(3);
    assert_eq!(
        hinge(&h.state().state.doc, "forearm_r").1,
        99.0,
        "{}",
        h.state().state.status
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(hinge(&h.state().state.doc, "forearm_r").1, 145.0);
    assert_eq!(
        hinge(&h.state().state.doc, "forearm_l").1,
        99.0,
        "only the mirror was undone"
    );
}

/// Clicks at `pos` with `modifiers`, as a mouse would.
fn click_at(
    h: &mut egui_kittest::Harness<'static, ragdoll_tuner::app::EditorApp>,
    pos: egui::Pos2,
    modifiers: egui::Modifiers,
) {
    h.event(egui::Event::ModifiersChanged(modifiers));
    h.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers,
        });
    }
    h.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    h.run_steps(3);
}

#[test]
fn ctrl_click_in_the_viewport_adds_to_the_selection() {
    let (_dir, path) = mannequin_copy();
    let mut h = harness(&path);
    h.run_steps(3);
    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    // Find a body on screen with plain clicks over the 3D view (below its toolbar).
    let bar = h.get_by_label("Frame selection (F)").rect();
    let left = h.get_by_label("Mesh").rect().left();
    let fore = h.state().state.doc.bone_by_name("forearm_l");
    let mut hit = None;
    'scan: for dy in (2..20).map(|k| k as f32 * 25.0) {
        for dx in (0..24).map(|k| k as f32 * 25.0) {
            let p = egui::pos2(left + dx, bar.bottom() + dy);
            click_at(&mut h, p, egui::Modifiers::NONE);
            let sel = h.state().state.selection;
            if sel.is_some() && sel != fore {
                hit = Some(p);
                break 'scan;
            }
        }
    }
    let centre = hit.expect("a body is under some point of the 3D view");
    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    click_at(&mut h, centre, egui::Modifiers::COMMAND);
    let st = &h.state().state;
    let names: Vec<String> = st
        .selected_bones()
        .iter()
        .map(|&b| st.doc.bone(b).name.clone())
        .collect();
    assert_eq!(
        names.len(),
        2,
        "Ctrl-click adds the body under the pointer: {names:?}"
    );
    assert_eq!(names[1], "forearm_l", "{names:?}");
    click_at(&mut h, centre, egui::Modifiers::NONE);
    assert_eq!(
        h.state().state.selected_bones().len(),
        1,
        "a plain click selects one bone"
    );
}
