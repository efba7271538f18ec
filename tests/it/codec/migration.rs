//! Files written by the previous version (schema 1: asymmetric limits as objects inside the
//! seed's keys, no schema version) still open, resolve to exactly the same joints, simulate
//! exactly as before, and are rewritten in the new form on save with a note beforehand.

use super::{generated, seed_loader};
use crate::common::*;
use ragdoll_tuner::cli::inspect;
use ragdoll_tuner::document::{Document, Severity};
use ragdoll_tuner::sim::{SimSettings, Simulation};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `doc` written as a `.gltf` in version 1's form: each exact limit key moved into the seed's
/// key (an object or `[min, max]`), the schema version removed.
fn as_version_1(doc: &Document, dir: &Path) -> PathBuf {
    let path = dir.join("v1.gltf");
    doc.write_to(&path).expect("write gltf");
    let mut json: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut moved = 0;
    for node in json["nodes"].as_array_mut().unwrap() {
        let Some(c) = node
            .pointer_mut("/extras/physics/constraint")
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        for (exact, seed) in [
            ("swing_extents_deg", "swing_limit_deg"),
            ("twist_range_deg", "twist_limit_deg"),
        ] {
            if let Some(v) = c.shift_remove(exact) {
                c.insert(seed.into(), v);
                moved += 1;
            }
        }
    }
    json["extras"]["physics"]
        .as_object_mut()
        .unwrap()
        .shift_remove("schema_version");
    assert!(moved >= 4, "the character has asymmetric limits to migrate");
    std::fs::write(&path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
    path
}

/// The resolved joints and typed constraints of every bone, as `inspect --json` reports them.
fn joints(doc: &Document) -> Vec<(Value, Value)> {
    let r = inspect::report(doc);
    r["bones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["joint"].clone(), b["constraint"].clone()))
        .collect()
}

/// Every body's pose after `steps` steps of the passive simulation.
fn poses(doc: &Document, steps: usize) -> Vec<[f32; 7]> {
    let settings = SimSettings {
        balance: false,
        drives: false,
        ..SimSettings::default()
    };
    let mut sim = Simulation::new(doc, settings).expect("simulation");
    for _ in 0..steps {
        sim.step().expect("no guard pause");
    }
    sim.body_poses()
        .map(|(_, p)| {
            let (t, r) = (p.translation, p.rotation);
            [t.x, t.y, t.z, r.x, r.y, r.z, r.w]
        })
        .collect()
}

#[test]
fn version_1_files_open_migrate_and_simulate_as_before() {
    let dir = tempfile::tempdir().expect("temp");
    let new = generated(&cesium_man());
    let v1_path = as_version_1(&new, dir.path());
    let v1 = Document::open(&v1_path).expect("a version-1 file opens");
    assert_eq!(v1.schema_version, 1);
    let notes: Vec<_> = v1
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("earlier version"))
        .collect();
    assert!(!notes.is_empty(), "a note on the old form");
    assert!(notes
        .iter()
        .all(|d| d.severity == Severity::Warning && d.node.is_some()));
    assert!(
        !seed_loader::problems(&v1).is_empty(),
        "the seed reads version 1 as locked"
    );
    // Meaning unchanged: the same joints, limits and frames.
    assert_eq!(joints(&v1), joints(&new));
    // Saved: the new form, the same joints, nothing left to migrate.
    let out = dir.path().join("migrated.glb");
    let mut m = v1.clone();
    m.save_as(&out).expect("save");
    let m = Document::open(&out).expect("reopen");
    assert_eq!(m.schema_version, 2);
    assert!(
        !m.diagnostics
            .iter()
            .any(|d| d.message.contains("earlier version")),
        "{:?}",
        m.diagnostics
    );
    assert_eq!(seed_loader::problems(&m), Vec::<String>::new());
    assert_eq!(joints(&m), joints(&new));
    assert!(m.migration().is_none());
    // It simulates exactly as the version-1 file did.
    assert_eq!(poses(&v1, 240), poses(&m, 240));
}
