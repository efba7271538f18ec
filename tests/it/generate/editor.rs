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

/// A bone without a body is drawn moving with the bone it hangs from: for hair the file
/// leaves loose (a deform-only Rigify export hangs every chain from the armature, and hair
/// gets no body unless asked), the head the anatomy attaches it to. Drawn following its
/// parent in the file, the hair of a falling character stayed where it stood.
#[test]
fn loose_hair_is_drawn_moving_with_the_head() {
    use super::fixtures;
    let mut bones = fixtures::humanoid();
    let top = bones.len();
    bones.push(fixtures::BoneDef {
        name: "hair-pink.001.l".into(),
        parent: None,
        head: glam::Vec3::new(0.08, 1.72, -0.05),
        tail: glam::Vec3::new(0.16, 1.5, -0.1),
        radius: 0.04,
    });
    bones.push(fixtures::BoneDef {
        name: "hair-pink.002.l".into(),
        parent: Some(top),
        head: glam::Vec3::new(0.16, 1.5, -0.1),
        tail: glam::Vec3::new(0.2, 1.2, -0.12),
        radius: 0.04,
    });
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in.glb"), dir.path().join("out.glb"));
    std::fs::write(&input, fixtures::glb(&bones, fixtures::Build::default())).unwrap();
    let (code, _, stderr) = super::generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let doc = Document::open(&out).expect("opens");
    let id = |name: &str| doc.bone_by_name(name).expect(name);
    let (head, hair) = (id("mixamorig:Head"), id("hair-pink.002.l"));
    assert_eq!(
        doc.bone(id("hair-pink.001.l")).parent,
        None,
        "loose in the file"
    );
    assert!(doc.bone(hair).collider().is_none(), "hair has no body");
    let mut h = crate::editor::harness(&out);
    h.run_steps(2);
    h.state_mut().push(head, glam::Vec3::new(0.0, 0.0, 60.0));
    h.state_mut().fast_forward(0.6);
    let pose = h.state().viewport_pose().clone();
    let rest = ragdoll_tuner::render::Pose::rest(&doc);
    let at = |p: &ragdoll_tuner::render::Pose, b: ragdoll_tuner::document::BoneId| {
        p.world_from_bone[b.index()]
    };
    let moved = (at(&pose, head).w_axis - at(&rest, head).w_axis).length();
    assert!(moved > 0.05, "the head moved {moved} m");
    let hair_from_head = |p: &ragdoll_tuner::render::Pose| at(p, head).inverse() * at(p, hair);
    let (now, then) = (hair_from_head(&pose), hair_from_head(&rest));
    let off = (now.w_axis - then.w_axis).truncate().length();
    assert!(
        off < 1e-4,
        "the hair left the head by {off} m (the head moved {moved} m)"
    );
}
