//! The schema codec: files every loader reads. The seed's keys keep the seed's types in every
//! file the tool writes (read back with a loader that follows the seed's C++), the writer is
//! the exact inverse of the reader (property tests), version-1 files migrate without changing
//! a joint, and no schema key is spelled outside the field table and the codec.

mod migration;
mod roundtrip;
mod scan;
pub mod seed_loader;

use crate::common::*;
use ragdoll_tuner::app::state::EditorState;
use ragdoll_tuner::document::fields::Key;
use ragdoll_tuner::document::{Document, Edit, UriPolicy};
use ragdoll_tuner::mirror::{self, Direction};
use ragdoll_tuner::presets;
use serde_json::{json, Value};
use std::path::Path;

/// A character with a generated ragdoll (or the mannequin as it ships).
pub fn generated(path: &Path) -> Document {
    let mut doc = Document::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path != mannequin() {
        let g = ragdoll_tuner::generate::generate(&doc, &Default::default())
            .unwrap_or_else(|e| panic!("{}: generate: {e}", path.display()));
        doc.apply(&g.edit).expect("generated edits apply");
    }
    doc
}

/// Writes `doc` as a GLB into `dir` and reads it back.
fn written(doc: &Document, dir: &Path, name: &str) -> Document {
    let out = dir.join(format!("{name}.glb"));
    doc.write_to(&out)
        .unwrap_or_else(|e| panic!("{name}: write: {e}"));
    Document::open(&out).unwrap_or_else(|e| panic!("{name}: reopen: {e}"))
}

/// Every `swing_limit_deg` and `twist_limit_deg` in the file is a number.
fn seed_keys_are_numbers(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for id in doc.bone_ids() {
        let Some(c) = doc.physics_json(id).and_then(|p| p.get("constraint")) else {
            continue;
        };
        for k in ["swing_limit_deg", "twist_limit_deg"] {
            if c.get(k).is_some_and(|v| !v.is_number()) {
                out.push(format!("{}: {k} = {}", doc.bone(id).name, c[k]));
            }
        }
    }
    out
}

/// The files each writer makes for one character: generated, mirrored both ways, the
/// humanoid preset, a user preset captured from one side and applied to all, and the editor's
/// symmetric edit of an asymmetric limit.
fn writers(path: &Path, dir: &Path) -> Vec<(String, Document)> {
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let doc = generated(path);
    let mut out = vec![(format!("{stem} generated"), written(&doc, dir, &stem))];
    for dir_ in [Direction::LeftToRight, Direction::RightToLeft] {
        let mut m = doc.clone();
        let edits = mirror::mirror_side(&m, dir_, None);
        if !edits.is_empty() {
            m.apply(&Edit::Group(edits)).expect("mirror applies");
        }
        let name = format!("{stem}_mirror_{dir_:?}");
        out.push((name.clone(), written(&m, dir, &name)));
    }
    let all: Vec<_> = doc.bone_ids().collect();
    let mut h = doc.clone();
    let applied = presets::apply_humanoid(&h, &all).expect("humanoid preset");
    if !applied.edits.is_empty() {
        h.apply(&Edit::Group(applied.edits))
            .expect("preset applies");
    }
    out.push((
        format!("{stem} humanoid preset"),
        written(&h, dir, &format!("{stem}_h")),
    ));
    let pairs = mirror::twins(&doc);
    let left: Vec<_> = pairs.iter().map(|p| p.0).collect();
    let preset = presets::capture(&doc, "left", &left);
    let mut u = doc.clone();
    let applied = presets::apply_user(&u, &preset, &all).expect("user preset");
    if !applied.edits.is_empty() {
        u.apply(&Edit::Group(applied.edits))
            .expect("user preset applies");
    }
    out.push((
        format!("{stem} user preset"),
        written(&u, dir, &format!("{stem}_u")),
    ));
    out.push((format!("{stem} editor"), editor_written(&doc, dir, &stem)));
    out
}

/// The editor's symmetric edit: an asymmetric swing and twist on the first jointed ball
/// socket, as the limits panel writes them, mirrored onto its twin; saved by Save As.
fn editor_written(doc: &Document, dir: &Path, stem: &str) -> Document {
    let mut st = EditorState::new(doc.clone(), UriPolicy::default());
    let ball = doc.bone_ids().find(|&id| {
        doc.bone(id)
            .constraint()
            .is_some_and(|c| c.kind.type_name() == "ball_socket")
    });
    if let Some(id) = ball {
        st.select_only(Some(id));
        let t = st.doc.bone_target(id);
        let swing = json!({"pos_y": 70.0, "neg_y": 10.0, "pos_z": 35.0, "neg_z": 0.0});
        st.edit(t, Key::SwingExtents.path(), swing, None);
        st.edit(t, Key::TwistRange.path(), json!([-5.0, 30.0]), None);
    }
    let out = dir.join(format!("{stem}_editor.glb"));
    st.save_as(&out);
    assert!(st.status.starts_with("saved"), "{}", st.status);
    Document::open(&out).expect("reopen the editor's file")
}

/// Every file written for every character reads with the seed's loader: no joint locked that
/// is not, every cone within its exact range, the seed's keys numbers.
#[test]
fn every_written_file_reads_with_the_seed_loader() {
    let dir = tempfile::tempdir().expect("temp");
    let mut failures = Vec::new();
    let mut joints = 0;
    for path in characters() {
        for (name, doc) in writers(&path, dir.path()) {
            joints += doc
                .bone_ids()
                .filter(|&b| doc.bone(b).constraint().is_some())
                .count();
            for p in seed_loader::problems(&doc)
                .into_iter()
                .chain(seed_keys_are_numbers(&doc))
            {
                failures.push(format!("{name}: {p}"));
            }
        }
    }
    println!("{joints} joints read with the seed's loader");
    assert!(joints > 500, "too few joints checked: {joints}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The seed loader itself reads what the seed reads: a non-number is 0 (a locked joint), a
/// constraint without a parent bone is skipped.
#[test]
fn the_seed_loader_reads_as_the_seeds_cpp() {
    use seed_loader::{read, SeedJoint};
    let old = json!({"constraint": {"type": "ball_socket", "parent_bone": "p",
        "swing_limit_deg": {"pos_y": 120, "neg_y": 15, "pos_z": 45, "neg_z": 30},
        "twist_limit_deg": [-30, 45]}});
    assert_eq!(
        read(&old),
        SeedJoint::BallSocket {
            swing_deg: 0.0,
            twist_deg: 0.0
        }
    );
    let new: Value = json!({"constraint": {"type": "ball_socket", "parent_bone": "p",
        "swing_limit_deg": 120, "twist_limit_deg": 45}});
    assert_eq!(
        read(&new),
        SeedJoint::BallSocket {
            swing_deg: 120.0,
            twist_deg: 45.0
        }
    );
    let orphan = json!({"constraint": {"type": "hinge"}});
    assert_eq!(read(&orphan), SeedJoint::None);
}

/// One mirroring of limits: a user preset captured from one side and applied to the other
/// gives the same joints as "Mirror to other side", on a character whose twins' bone axes
/// differ (CesiumMan's arm bones are not mirror copies).
#[test]
fn presets_by_side_and_the_mirror_reflect_limits_alike() {
    let doc = generated(&cesium_man());
    let pairs = mirror::twins(&doc);
    assert!(pairs.len() >= 6, "twins: {}", pairs.len());
    let left: Vec<_> = pairs.iter().map(|p| p.0).collect();
    let right: Vec<_> = pairs.iter().map(|p| p.1).collect();
    let mut by_preset = doc.clone();
    let preset = presets::capture(&doc, "left", &left);
    let applied = presets::apply_user(&doc, &preset, &right).expect("preset");
    assert!(applied.bones >= 6, "{} bones", applied.bones);
    by_preset.apply(&Edit::Group(applied.edits)).expect("apply");
    let mut by_mirror = doc.clone();
    let edits = mirror::mirror_side(&doc, Direction::LeftToRight, Some(&left));
    by_mirror.apply(&Edit::Group(edits)).expect("mirror");
    let mut compared = 0;
    for &r in &right {
        let (a, b) = (
            by_preset.bone(r).constraint(),
            by_mirror.bone(r).constraint(),
        );
        if let (Some(a), Some(b)) = (a, b) {
            assert_eq!(a.kind, b.kind, "{}", doc.bone(r).name);
            compared += 1;
        }
    }
    assert!(compared >= 6, "{compared} joints compared");
}
