//! Presets in the real editor and on real files: the built-in humanoid by role, user presets
//! saved, listed and applied, and `edit --preset`, each one undo step.

use super::*;

fn limits_json(doc: &Document, bone: &str) -> serde_json::Value {
    let id = doc.bone_by_name(bone).expect("bone exists");
    doc.json()["nodes"][doc.bone(id).node]["extras"]["physics"]["constraint"].clone()
}

/// A generated CesiumMan whose left knee (a hinge) was then loosened by hand.
fn cesium_with_loose_knee() -> (Document, String, serde_json::Value) {
    let mut doc = cesium_with_ragdoll();
    let knee = doc
        .bone_ids()
        .find(|&id| {
            let n = doc.bone(id).name.to_lowercase();
            n.contains("leg")
                && n.contains("_l")
                && doc
                    .bone(id)
                    .physics
                    .as_ref()
                    .and_then(|p| p.constraint.as_ref())
                    .is_some_and(|c| matches!(c.kind, ConstraintKind::Hinge { .. }))
        })
        .expect("CesiumMan's generated left knee is a hinge");
    let name = doc.bone(knee).name.clone();
    let generated = limits_json(&doc, &name);
    let t = doc.bone_target(knee);
    doc.apply(&Edit::Set {
        target: t,
        key: "constraint.limit_max_deg".into(),
        value: json!(179.0),
    })
    .expect("edit");
    doc.apply(&Edit::Set {
        target: t,
        key: "constraint.limit_min_deg".into(),
        value: json!(-90.0),
    })
    .expect("edit");
    (doc, name, generated)
}

#[test]
fn humanoid_preset_restores_reference_limits_by_role_with_one_undo() {
    let (doc, knee, generated) = cesium_with_loose_knee();
    let mut st = EditorState::new(doc, UriPolicy::default());
    let id = st.doc.bone_by_name(&knee).expect("knee");
    st.select_only(Some(id));
    let before = st.doc.json().clone();
    st.apply_preset(ragdoll_tuner::presets::BUILTIN_HUMANOID, false);
    assert!(
        st.status.starts_with("applied preset humanoid to 1 bone"),
        "{}",
        st.status
    );
    assert_eq!(
        limits_json(&st.doc, &knee),
        generated,
        "the reference range for a knee"
    );
    st.undo();
    assert_eq!(st.doc.json(), &before, "one undo step");

    // To all bones: every generated joint is what the generator gives for its role.
    st.apply_preset(ragdoll_tuner::presets::BUILTIN_HUMANOID, true);
    assert_eq!(limits_json(&st.doc, &knee), generated);
    assert!(st
        .doc
        .diagnostics
        .iter()
        .all(|d| d.severity != ragdoll_tuner::document::Severity::Error));
}

#[test]
fn humanoid_preset_on_a_hand_made_ragdoll_gives_no_errors() {
    let (_dir, path) = mannequin_copy();
    let doc = Document::open(&path).expect("opens");
    let mut st = EditorState::new(doc, UriPolicy::default());
    st.apply_preset(ragdoll_tuner::presets::BUILTIN_HUMANOID, true);
    assert!(
        st.status.starts_with("applied preset humanoid to 17 bone"),
        "{}",
        st.status
    );
    let errors: Vec<String> = st
        .doc
        .diagnostics
        .iter()
        .filter(|d| d.severity == ragdoll_tuner::document::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // The knee is a hinge flexing backward by the reference range (0..135 about rest).
    let (lo, hi) = hinge(&st.doc, "shin_l");
    assert!(
        hi - lo >= 120.0 && hi - lo <= 150.0,
        "knee range {lo}..{hi}"
    );
}

#[test]
fn user_presets_are_saved_listed_and_applied_by_name_role_and_side() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The only test that reads the presets folder from the environment.
    std::env::set_var(ragdoll_tuner::presets::store::DIR_ENV, dir.path());
    let (_d, path) = mannequin_copy();
    let mut st = EditorState::new(Document::open(&path).expect("opens"), UriPolicy::default());
    st.symmetric = false;
    let fore = st.doc.bone_by_name("forearm_l").expect("forearm_l");
    let shin = st.doc.bone_by_name("shin_l").expect("shin_l");
    st.set_selected(vec![fore, shin]);
    st.edit(
        st.doc.bone_target(fore),
        "constraint.limit_max_deg",
        json!(101.0),
        None,
    );
    st.select_only(Some(fore));
    st.edit(
        st.doc.bone_target(fore),
        "drive.stiffness",
        json!(77.0),
        None,
    );
    st.set_selected(vec![fore, shin]);
    st.save_preset("stiff arms");
    assert!(
        st.status
            .starts_with("saved preset stiff arms (2 joint(s))"),
        "{}",
        st.status
    );
    let listed = ragdoll_tuner::presets::store::list(dir.path()).expect("lists");
    assert_eq!(listed, ["stiff arms"]);
    st.save_preset("../escape");
    assert!(st.status.starts_with("preset not saved"), "{}", st.status);

    // A fresh copy: apply to the left forearm (by name) and the right one (by role and side).
    let mut st = EditorState::new(Document::open(&path).expect("opens"), UriPolicy::default());
    st.symmetric = false;
    let fr = st.doc.bone_by_name("forearm_r").expect("forearm_r");
    let fl = st.doc.bone_by_name("forearm_l").expect("forearm_l");
    st.set_selected(vec![fl, fr]);
    let before = st.doc.json().clone();
    st.apply_preset("stiff arms", false);
    assert!(
        st.status.starts_with("applied preset stiff arms to 2 bone"),
        "{}",
        st.status
    );
    for b in ["forearm_l", "forearm_r"] {
        assert_eq!(hinge(&st.doc, b).1, 101.0, "{b}");
        let id = st.doc.bone_by_name(b).expect("bone");
        let d = st.doc.bone(id).physics.as_ref().and_then(|p| p.drive);
        assert_eq!(d.map(|d| d.stiffness), Some(77.0), "{b}");
    }
    assert_ne!(
        hinge(&st.doc, "shin_r").1,
        101.0,
        "bones outside the selection stay"
    );
    st.undo();
    assert_eq!(st.doc.json(), &before, "one undo step");
    std::env::remove_var(ragdoll_tuner::presets::store::DIR_ENV);
}

#[test]
fn cli_edit_preset_by_name_and_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (doc, knee, generated) = cesium_with_loose_knee();
    let loose = dir.path().join("loose.glb");
    doc.write_to(&loose).expect("writes");
    let out = dir.path().join("out.glb");
    common::run_ok(common::ragdoll_tuner().args([
        "edit",
        common::path_str(&loose),
        "-o",
        common::path_str(&out),
        "--preset",
        "humanoid",
    ]));
    let back = Document::open(&out).expect("reopens");
    assert_eq!(limits_json(&back, &knee), generated);

    // A preset file: one hinge joint applied to the bones given.
    let file = dir.path().join("knee.json");
    let preset = json!({"name": "knee", "joints": [{"type": "hinge", "limits": {"limit_min_deg": -2.0, "limit_max_deg": 120.0}, "gains": {"damping": 9.0}}]});
    std::fs::write(&file, preset.to_string()).expect("writes preset");
    common::run_ok(common::ragdoll_tuner().args([
        "edit",
        common::path_str(&loose),
        "-o",
        common::path_str(&out),
        "--preset",
        common::path_str(&file),
        "--bones",
        &knee,
    ]));
    let back = Document::open(&out).expect("reopens");
    let c = limits_json(&back, &knee);
    assert_eq!(
        (c["limit_min_deg"].as_f64(), c["limit_max_deg"].as_f64()),
        (Some(-2.0), Some(120.0))
    );

    // Unknown names and broken files are refused with a message, nothing written.
    let none = dir.path().join("none.glb");
    let absurd = dir.path().join("absurd.json");
    let preset =
        json!({"name": "absurd", "joints": [{"type": "hinge", "limits": {"limit_max_deg": 1e9}}]});
    std::fs::write(&absurd, preset.to_string()).expect("writes preset");
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, r#"{"name": "t", "joints": [{"type": "hin"#).expect("writes");
    for bad in [
        "no such preset",
        common::path_str(&loose),
        common::path_str(&absurd),
        common::path_str(&truncated),
    ] {
        let run = common::ragdoll_tuner()
            .args([
                "edit",
                common::path_str(&loose),
                "-o",
                common::path_str(&none),
                "--preset",
                bad,
            ])
            .env(ragdoll_tuner::presets::store::DIR_ENV, dir.path())
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            !run.status.success() && err.contains("--preset"),
            "{bad}: {err}"
        );
        assert!(!none.exists());
    }
}

#[test]
fn presets_menu_applies_the_humanoid_to_the_selection() {
    let (_dir, path) = mannequin_copy();
    let mut h = harness(&path);
    h.run_steps(3);
    h.get_by_label("shin_l").click();
    h.run_steps(3);
    let before = h.state().state.doc.json().clone();
    h.get_by_label("Presets").click();
    h.run_steps(3);
    h.get_by_label("Humanoid limits to selection").click();
    h.run_steps(3);
    let st = &h.state().state;
    assert!(
        st.status.starts_with("applied preset humanoid"),
        "{}",
        st.status
    );
    assert_ne!(st.doc.json(), &before);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.json(), &before);
}
