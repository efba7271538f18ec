//! Lossless save: BIN byte for byte, JSON equal except the edited keys, unknown keys kept,
//! number spelling kept, .gltf to .glb export, atomic writes.

use crate::common::*;
use ragdoll_tuner::document::*;
use serde_json::{json, Value};
use std::path::Path;

fn read_json_and_bin(path: &Path) -> (Value, Option<Vec<u8>>) {
    let data = std::fs::read(path).unwrap();
    if container::is_glb(&data) {
        let c = container::parse_glb(&data).unwrap();
        (
            serde_json::from_slice(c.json).unwrap(),
            c.bin.map(<[u8]>::to_vec),
        )
    } else {
        (serde_json::from_slice(&data).unwrap(), None)
    }
}

/// Removes `nodes[node].extras.physics` so two documents can be compared outside the edit.
/// `v` without node `node`'s physics and without the schema version a save of an edited
/// document stamps on the root (`extras.physics.schema_version`, physics too), which must be
/// the current version when present: nothing else may differ.
fn without_physics(mut v: Value, node: usize) -> Value {
    if let Some(root) = v.as_object_mut() {
        let extras = root.get_mut("extras").and_then(|e| e.as_object_mut());
        if let Some(e) = extras {
            if let Some(p) = e.get_mut("physics").and_then(|p| p.as_object_mut()) {
                if let Some(version) = p.remove("schema_version") {
                    assert_eq!(version, json!(2), "the current schema version");
                }
                if p.is_empty() {
                    e.remove("physics");
                }
            }
            if e.is_empty() {
                root.remove("extras");
            }
        }
    }
    let n = v
        .get_mut("nodes")
        .and_then(|n| n.get_mut(node))
        .and_then(|n| n.as_object_mut())
        .unwrap();
    if let Some(e) = n.get_mut("extras").and_then(|e| e.as_object_mut()) {
        e.remove("physics");
        if e.is_empty() {
            n.remove("extras");
        }
    }
    v
}

fn edit_and_save(src: &Path, out: &Path, bone: &str) -> usize {
    let mut doc = Document::open(src).unwrap();
    let id = doc.bone_by_name(bone).unwrap();
    let target = doc.bone_target(id);
    doc.apply(&Edit::Set {
        target,
        key: "collider".into(),
        value: json!("capsule"),
    })
    .unwrap();
    doc.apply(&Edit::Set {
        target,
        key: "mass".into(),
        value: json!(7.5),
    })
    .unwrap();
    doc.apply(&Edit::Set {
        target,
        key: "constraint.limit_min_deg".into(),
        value: json!(-120),
    })
    .unwrap();
    doc.write_to(out).unwrap();
    doc.bone(id).node
}

#[test]
fn glb_round_trips_keep_bin_and_everything_but_the_edit() {
    for (src, bone) in [
        (cesium_man(), "leg_joint_L_1"),
        (fox_glb(), "b_LeftLeg01_015"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.glb");
        let node = edit_and_save(&src, &out, bone);
        let (j0, b0) = read_json_and_bin(&src);
        let (j1, b1) = read_json_and_bin(&out);
        assert_eq!(b0, b1, "BIN chunk must come back byte for byte");
        assert!(
            without_physics(j0, node) == without_physics(j1.clone(), node),
            "JSON differs outside the edit"
        );
        let physics = &j1["nodes"][node]["extras"]["physics"];
        assert_eq!(physics["mass"], json!(7.5));
        assert_eq!(physics["constraint"]["limit_min_deg"], json!(-120));
        let reopened = Document::open(&out).unwrap();
        let p = reopened
            .bone(reopened.bone_by_name(bone).unwrap())
            .physics
            .clone()
            .unwrap();
        assert_eq!(p.mass, 7.5);
    }
}

#[test]
fn gltf_round_trip_saves_beside_its_buffers() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("Fox.gltf");
    let node = edit_and_save(&fox_gltf(), &out, "b_Head_05");
    assert!(
        dir.path().join("Fox.bin").exists(),
        "external buffer copied beside the output"
    );
    assert!(
        dir.path().join("Texture.png").exists(),
        "external image copied beside the output"
    );
    let (j0, _) = read_json_and_bin(&fox_gltf());
    let (j1, _) = read_json_and_bin(&out);
    assert!(
        without_physics(j0, node) == without_physics(j1, node),
        "JSON differs outside the edit"
    );
    let reopened = Document::open(&out).unwrap();
    assert_eq!(reopened.load_geometry().unwrap().primitives.len(), 1);
}

#[test]
fn save_without_edits_writes_identical_json() {
    let dir = tempfile::tempdir().unwrap();
    for (src, name) in [
        (cesium_man(), "a.glb"),
        (fox_gltf(), "Fox.gltf"),
        (mannequin(), "m.glb"),
    ] {
        let out = dir.path().join(name);
        Document::open(&src).unwrap().write_to(&out).unwrap();
        assert_eq!(
            std::fs::read(&src).unwrap(),
            std::fs::read(&out).unwrap(),
            "{}",
            src.display()
        );
    }
}

#[test]
fn unknown_keys_extensions_and_number_spelling_survive_an_edit() {
    let text = r#"{
  "asset": {"version": "2.0", "generator": "hand"},
  "extensionsUsed": ["VENDOR_thing"],
  "extensions": {"VENDOR_thing": {"z": 1, "a": [3.0000000000001, 123456789012345678901]}},
  "scenes": [{"nodes": [0, 1]}],
  "nodes": [
    {"name": "a", "extras": {"zz_first": true, "physics": {"collider": "sphere", "radius": 3.0000000000001, "vendor": {"k": 1e-7}}, "note": "keep"}},
    {"name": "b", "extras": {"physics": {"collider": "sphere", "constraint": {"type": "ball_socket", "parent_bone": "a", "swing_limit_deg": 30.50, "custom": 1}}}}
  ]
}"#;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in.gltf");
    std::fs::write(&src, text).unwrap();
    let mut doc = Document::open(&src).unwrap();
    let b = doc.bone_target(doc.bone_by_name("b").unwrap());
    doc.apply(&Edit::Set {
        target: b,
        key: "constraint.twist_limit_deg".into(),
        value: json!(20),
    })
    .unwrap();
    let out = dir.path().join("out.gltf");
    doc.write_to(&out).unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    for literal in [
        "3.0000000000001",
        "123456789012345678901",
        "1e-7",
        "30.50",
        "\"zz_first\"",
        "\"custom\"",
        "VENDOR_thing",
    ] {
        assert!(written.contains(literal), "{literal} lost:\n{written}");
    }
    // Key order is kept: zz_first still precedes physics, which precedes note.
    let (z, p, n) = (
        written.find("zz_first").unwrap(),
        written.find("\"physics\"").unwrap(),
        written.find("\"note\"").unwrap(),
    );
    assert!(z < p && p < n);
    let (j0, _) = read_json_and_bin(&src);
    let (j1, _) = read_json_and_bin(&out);
    assert_eq!(j0["nodes"][0], j1["nodes"][0]);
    assert_eq!(
        j1["nodes"][1]["extras"]["physics"]["constraint"]["twist_limit_deg"],
        json!(20)
    );
}

#[test]
fn gltf_exports_to_a_self_contained_glb() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fox.glb");
    let mut doc = Document::open(fox_gltf()).unwrap();
    let t = doc.bone_target(doc.bone_by_name("b_Hip_01").unwrap());
    doc.apply(&Edit::Set {
        target: t,
        key: "collider".into(),
        value: json!("box"),
    })
    .unwrap();
    doc.write_to(&out).unwrap();
    let (json, bin) = read_json_and_bin(&out);
    assert_eq!(json["buffers"].as_array().unwrap().len(), 1);
    assert!(json["buffers"][0].get("uri").is_none());
    assert!(json["images"][0].get("uri").is_none());
    assert_eq!(json["images"][0]["mimeType"], json!("image/png"));
    let png = std::fs::read(fox_gltf().with_file_name("Texture.png")).unwrap();
    let view = &json["bufferViews"][json["images"][0]["bufferView"].as_u64().unwrap() as usize];
    let off = view["byteOffset"].as_u64().unwrap() as usize;
    assert_eq!(&bin.as_ref().unwrap()[off..off + png.len()], &png[..]);
    // Reopened from a folder with no external files, it has the same content.
    let reopened = Document::open(&out).unwrap();
    let original = Document::open(fox_gltf()).unwrap();
    let (a, b) = (
        original.load_geometry().unwrap(),
        reopened.load_geometry().unwrap(),
    );
    assert_eq!(a.primitives[0].positions, b.primitives[0].positions);
    assert_eq!(a.primitives[0].weights, b.primitives[0].weights);
    assert_eq!(a.inverse_bind, b.inverse_bind);
    let hip = reopened
        .bone(reopened.bone_by_name("b_Hip_01").unwrap())
        .physics
        .clone()
        .unwrap();
    assert_eq!(hip.collider.unwrap().shape.type_name(), "box");
}

#[test]
fn undo_restores_the_exact_json() {
    let mut doc = Document::open(cesium_man()).unwrap();
    let before = doc.json().clone();
    let t = doc.bone_target(doc.bone_by_name("leg_joint_L_1").unwrap());
    let undo = doc
        .apply(&Edit::Set {
            target: t,
            key: "mass".into(),
            value: json!(3),
        })
        .unwrap();
    assert_ne!(doc.json(), &before);
    let redo = doc.apply(&undo).unwrap();
    assert_eq!(doc.json(), &before);
    doc.apply(&redo).unwrap();
    assert_eq!(
        doc.json()["nodes"][doc.bone(doc.bone_by_name("leg_joint_L_1").unwrap()).node]["extras"]
            ["physics"]["mass"],
        json!(3)
    );
}

#[test]
fn failed_write_leaves_the_original_intact() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("m.glb");
    std::fs::copy(mannequin(), &src).unwrap();
    let original = std::fs::read(&src).unwrap();
    let doc = Document::open(&src).unwrap();
    let err = doc
        .write_to(&dir.path().join("no/such/dir/out.glb"))
        .unwrap_err();
    assert!(err.to_string().contains("cannot write"), "{err}");
    assert!(err.to_string().contains("out.glb"), "{err}");
    assert_eq!(std::fs::read(&src).unwrap(), original);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temp file left behind");
}

#[test]
fn repeated_saves_over_the_same_glb_keep_its_bin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.glb");
    std::fs::copy(mannequin(), &path).unwrap();
    let (_, bin0) = read_json_and_bin(&path);
    let mut doc = Document::open(&path).unwrap();
    let t = doc.bone_target(doc.bone_by_name("thigh_l").unwrap());
    for mass in [7.0, 7.25, 123456.5] {
        doc.apply(&Edit::Set {
            target: t,
            key: "mass".into(),
            value: json!(mass),
        })
        .unwrap();
        doc.save().unwrap();
        assert!(!doc.is_dirty());
        let (json, bin) = read_json_and_bin(&path);
        assert_eq!(bin, bin0);
        assert_eq!(
            json["nodes"][doc.bone(doc.bone_by_name("thigh_l").unwrap()).node]["extras"]["physics"]
                ["mass"],
            json!(mass)
        );
    }
    assert_eq!(
        doc.load_geometry().unwrap().primitives[0].positions.len(),
        Document::open(mannequin())
            .unwrap()
            .load_geometry()
            .unwrap()
            .primitives[0]
            .positions
            .len()
    );
}

#[test]
fn a_file_changed_on_disk_is_not_silently_mixed_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.glb");
    std::fs::copy(mannequin(), &path).unwrap();
    let doc = Document::open(&path).unwrap();
    std::fs::copy(cesium_man(), &path).unwrap();
    let err = doc
        .write_to(&dir.path().join("out.glb"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("changed on disk") && err.contains("m.glb"),
        "{err}"
    );
    // Once the geometry is loaded, the BIN lives in memory and saving no longer needs the file.
    let path2 = dir.path().join("n.glb");
    std::fs::copy(mannequin(), &path2).unwrap();
    let doc = Document::open(&path2).unwrap();
    doc.load_geometry().unwrap();
    std::fs::remove_file(&path2).unwrap();
    doc.write_to(&dir.path().join("rescued.glb")).unwrap();
    assert_eq!(
        std::fs::read(dir.path().join("rescued.glb")).unwrap(),
        std::fs::read(mannequin()).unwrap()
    );
}

/// A `.vrm` is a GLB by its specification, and VRM loaders read nothing else: saving one, in
/// place or to a new `.vrm`, writes a GLB with its BIN byte for byte and no file beside it.
/// Before, the extension read as glTF and a save wrote JSON text with a `.bin` beside it.
#[test]
fn saving_a_vrm_keeps_it_a_glb() {
    let src = shared_asset("zoo/vrm0_avocado_pm.vrm");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("avocado.vrm");
    std::fs::copy(&src, &copy).unwrap();
    let (j0, b0) = read_json_and_bin(&src);
    let mut doc = Document::open(&copy).unwrap();
    let id = doc.bone_by_name("mixamorig:Hips").expect("the VRM's hips");
    let target = doc.bone_target(id);
    doc.apply(&Edit::Set {
        target,
        key: "mass".into(),
        value: json!(20.5),
    })
    .unwrap();
    doc.save().unwrap();
    let again = dir.path().join("again.vrm");
    doc.save_as(&again).unwrap();
    for out in [&copy, &again] {
        let data = std::fs::read(out).unwrap();
        assert!(container::is_glb(&data), "{}: not a GLB", out.display());
        let (j1, b1) = read_json_and_bin(out);
        assert_eq!(b0, b1, "{}: the BIN chunk byte for byte", out.display());
        assert_eq!(j1["extensions"]["VRM"], j0["extensions"]["VRM"]);
        let reopened = Document::open(out).unwrap();
        let hips = reopened.bone(reopened.bone_by_name("mixamorig:Hips").unwrap());
        assert_eq!(hips.physics.as_ref().unwrap().mass, 20.5);
    }
    let beside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".vrm"))
        .collect();
    assert!(
        beside.is_empty(),
        "files written beside the VRM: {beside:?}"
    );
}

/// A `.gltf` whose texture file is missing still generates, exports and saves: the image keeps
/// its uri (what tinygltf, the seed's loader, reads as a missing image with a warning), the
/// mesh and the physics are written whole, and stderr names the file, the key and the uri.
/// Before, `generate` refused to write anything ("images[0].uri: cannot open Texture.png").
#[test]
fn a_missing_texture_is_named_and_left_a_reference_not_a_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("Fox.gltf");
    std::fs::copy(fox_gltf(), &src).unwrap();
    std::fs::copy(
        fox_gltf().with_file_name("Fox.bin"),
        dir.path().join("Fox.bin"),
    )
    .unwrap();
    for out in ["fox.glb", "elsewhere/fox.gltf"] {
        let out = dir.path().join(out);
        let o = ragdoll_tuner()
            .args(["generate", path_str(&src), "-o", path_str(&out)])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{}: {stderr}", out.display());
        assert!(
            stderr.contains("Fox.gltf: images[0].uri: cannot open")
                && stderr.contains("Texture.png")
                && stderr.contains("not carried"),
            "{stderr}"
        );
        let doc = Document::open(&out).unwrap();
        assert_eq!(doc.json()["images"][0]["uri"], json!("Texture.png"));
        assert!(doc.bones.iter().filter(|b| b.physics.is_some()).count() > 10);
        let (a, b) = (
            Document::open(&src).unwrap().load_geometry().unwrap(),
            doc.load_geometry().unwrap(),
        );
        assert_eq!(a.primitives[0].positions, b.primitives[0].positions);
    }
    // The library says the same to the editor's save: written, with the image named.
    let mut doc = Document::open(&src).unwrap();
    let written = doc.save_as(&dir.path().join("saved.glb")).unwrap();
    assert_eq!(
        written.images_not_carried.len(),
        1,
        "{:?}",
        written.warnings()
    );
}
