//! A person can see and correct the anatomy: roles and kind assigned by hand are stored in the
//! root's `extras.physics.anatomy`, read with diagnostics, used by the generator over every
//! other evidence and kept when generating again; `generate --role/--kind` stores them; the
//! editor's Anatomy panel reassigns a role with two clicks (one undo step); a character
//! without physics opens on an empty state; plausibility diagnostics name the bones of a
//! nonsense ragdoll.

mod diagnostics;
mod panel;

use crate::common::{path_str, ragdoll_tuner, shared_asset};
use ragdoll_tuner::anatomy::{Anatomy, Role, Side};
use ragdoll_tuner::document::{write, Document, ManualAnatomy, RoleAssignment};
use ragdoll_tuner::generate::{self, Options};
use serde_json::json;
use std::path::{Path, PathBuf};

pub(crate) fn zoo(name: &str) -> PathBuf {
    shared_asset(&format!("zoo/{name}"))
}

pub(crate) fn role(text: &str) -> RoleAssignment {
    RoleAssignment::parse(text).expect("a valid role")
}

/// The role the generator's report gives a bone.
pub(crate) fn reported_role(report: &generate::Report, bone: &str) -> Role {
    report
        .bones
        .iter()
        .find(|b| b.name == bone)
        .unwrap_or_else(|| panic!("{bone} is not in the report"))
        .role
}

/// Generates and applies; returns the report.
pub(crate) fn generate_into(doc: &mut Document) -> generate::Report {
    let g = generate::generate(doc, &Options::default()).expect("generates");
    doc.apply(&g.edit).expect("applies");
    g.report
}

fn saved(doc: &Document, dir: &Path, name: &str) -> Document {
    let out = dir.join(name);
    doc.write_to(&out).expect("writes");
    Document::open(&out).expect("reopens")
}

/// A role reassigned in the file wins over the names (here `wrist.l`, which the names call a
/// twist bone, becomes the left hand); generating again from the written file keeps it.
#[test]
fn a_role_assigned_in_the_file_drives_generate_and_survives_regeneration() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = Document::open(zoo("kaykit_mannequin.glb")).unwrap();
    let before = Anatomy::of(&doc);
    let wrist = doc.bone_by_name("wrist.l").unwrap();
    assert_ne!(
        before.role(wrist),
        Role::Hand,
        "detection calls it something else"
    );

    let mut m = ManualAnatomy::default();
    m.assign("wrist.l", role("hand:left"));
    doc.apply(&write::anatomy_edit(&m)).unwrap();
    assert_eq!(doc.manual_anatomy, m);
    let a = Anatomy::of(&doc);
    assert_eq!(
        (a.role(wrist), a.side(wrist)),
        (Role::Hand, Some(Side::Left))
    );
    assert_eq!(a.confidence(wrist), 1.0);
    let hand = doc.bone_by_name("hand.l").unwrap();
    assert_ne!(
        a.role(hand),
        Role::Hand,
        "one left hand: the assignment takes it"
    );

    let report = generate_into(&mut doc);
    assert_eq!(reported_role(&report, "wrist.l"), Role::Hand);
    let mut again = saved(&doc, dir.path(), "first.glb");
    assert_eq!(again.manual_anatomy, m, "the file keeps the assignment");
    let report = generate_into(&mut again);
    assert_eq!(
        reported_role(&report, "wrist.l"),
        Role::Hand,
        "regenerating keeps it"
    );
    assert_eq!(saved(&again, dir.path(), "second.glb").manual_anatomy, m);
}

/// A paired role without a side keeps the detected side; the kind set by hand is the kind.
#[test]
fn a_role_without_a_side_keeps_the_detected_side_and_the_kind_is_the_persons() {
    let mut doc = Document::open(zoo("kaykit_mannequin.glb")).unwrap();
    let m = ManualAnatomy {
        kind: Some(ragdoll_tuner::anatomy::Kind::Quadruped),
        roles: vec![("wrist.r".into(), role("hand"))],
    };
    doc.apply(&write::anatomy_edit(&m)).unwrap();
    let a = Anatomy::of(&doc);
    let wrist = doc.bone_by_name("wrist.r").unwrap();
    assert_eq!(
        (a.role(wrist), a.side(wrist)),
        (Role::Hand, Some(Side::Right))
    );
    assert_eq!(a.kind(), ragdoll_tuner::anatomy::Kind::Quadruped);
    assert_eq!(a.kind_confidence(), 1.0);
}

/// Every fault of the `anatomy` object is a diagnostic naming its key; the rest is read.
#[test]
fn bad_manual_anatomy_is_reported_by_key() {
    let mut gltf = crate::common::gltf_with_nodes(json!([
        {"name": "hips", "children": [1], "extras": {"physics": {"mass": 1}}},
        {"name": "spine", "translation": [0, 1, 0], "extras": {"physics": {"mass": 1}}},
    ]));
    gltf["extras"] = json!({"physics": {"anatomy": {
        "kind": "dragon",
        "roles": {"hips": "pelvis", "spine": "hip", "ghost": "head", "bad": 3},
        "extra": 1
    }}});
    let (_dir, path) = crate::common::write_gltf(&gltf);
    let doc = Document::open(&path).unwrap();
    let keys: Vec<&str> = doc.diagnostics.iter().map(|d| d.key.as_str()).collect();
    for k in [
        "anatomy.kind",
        "anatomy.roles.spine",
        "anatomy.roles.ghost",
        "anatomy.roles.bad",
        "anatomy.extra",
    ] {
        assert!(keys.contains(&k), "{k} missing from {keys:?}");
    }
    assert_eq!(doc.manual_anatomy.kind, None);
    assert_eq!(
        doc.manual_anatomy.roles,
        vec![("hips".into(), role("pelvis"))]
    );
}

/// `generate --role` and `--kind` store what they say in the written file.
#[test]
fn cli_role_and_kind_are_stored() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rat.glb");
    let st = ragdoll_tuner()
        .args([
            "generate",
            path_str(&zoo("q_rat.glb")),
            "-o",
            path_str(&out),
        ])
        .args([
            "--kind",
            "other",
            "--role",
            "Tail1=tail",
            "--role",
            "Head=head",
        ])
        .args(["--json"])
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&st.stdout).unwrap();
    assert_eq!(
        report["character_type"], "other",
        "--kind other builds the plan 'other'"
    );
    let doc = Document::open(&out).unwrap();
    assert_eq!(
        doc.manual_anatomy.kind,
        Some(ragdoll_tuner::anatomy::Kind::Other)
    );
    assert_eq!(doc.manual_anatomy.role_of("Tail1"), Some(role("tail")));
    assert_eq!(doc.manual_anatomy.role_of("Head"), Some(role("head")));
}
