//! Several characters in one file, each an armature with a skin of its own (two Mixamo
//! robots exported together, a rider and its wolf, four cats): read as one, their bones made
//! one anatomy of parts of each (one robot's hips a spine and its legs "other", the other's
//! head a neck and its arms "other", 42 bodies weighing one person). The ragdoll is made for
//! the character with the most skin; the others are named and get no body.

use super::*;
use glam::Vec3;
use serde_json::json;

/// Shifts every index `key` of the objects in `doc[array]` (and of nested lists) by `by`.
fn shift(list: &mut Value, key: &str, by: usize) {
    let bump = |v: &mut Value| {
        if let Some(n) = v.as_u64() {
            *v = json!(n as usize + by);
        }
    };
    for item in list.as_array_mut().into_iter().flatten() {
        if let Some(v) = item.get_mut(key) {
            match v.as_array_mut() {
                Some(a) => a.iter_mut().for_each(bump),
                None => bump(v),
            }
        }
    }
}

/// Two fixture files in one: `b`'s scene beside `a`'s, every index of `b` shifted past `a`'s
/// and its buffer appended to `a`'s; with `one_root`, both armatures under one node (as many
/// exporters put a scene, and as `tools/scaled_check.py` wraps a file to scale it).
fn merged(a: &[u8], b: &[u8], dir: &Path, one_root: bool) -> PathBuf {
    let (pa, pb) = (dir.join("a.glb"), dir.join("b.glb"));
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    let ((mut ja, bin_a), (mut jb, bin_b)) = (json_and_bin(&pa), json_and_bin(&pb));
    let (mut bin, bin_b) = (bin_a.unwrap(), bin_b.unwrap());
    let len = |j: &Value, k: &str| j[k].as_array().map_or(0, Vec::len);
    let (nodes, meshes, skins) = (len(&ja, "nodes"), len(&ja, "meshes"), len(&ja, "skins"));
    let (accessors, views) = (len(&ja, "accessors"), len(&ja, "bufferViews"));
    shift(&mut jb["nodes"], "children", nodes);
    shift(&mut jb["nodes"], "mesh", meshes);
    shift(&mut jb["nodes"], "skin", skins);
    shift(&mut jb["skins"], "joints", nodes);
    shift(&mut jb["skins"], "inverseBindMatrices", accessors);
    shift(&mut jb["accessors"], "bufferView", views);
    for m in jb["meshes"].as_array_mut().unwrap() {
        for p in m["primitives"].as_array_mut().unwrap() {
            for (_, v) in p["attributes"].as_object_mut().unwrap() {
                *v = json!(v.as_u64().unwrap() as usize + accessors);
            }
        }
    }
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    for v in jb["bufferViews"].as_array_mut().unwrap() {
        v["byteOffset"] = json!(v["byteOffset"].as_u64().unwrap_or(0) as usize + bin.len());
    }
    bin.extend_from_slice(&bin_b);
    for k in ["nodes", "meshes", "skins", "accessors", "bufferViews"] {
        let extra = jb[k].as_array().cloned().unwrap_or_default();
        ja[k].as_array_mut().unwrap().extend(extra);
    }
    let roots_b: Vec<usize> = (jb["scenes"][0]["nodes"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap() as usize + nodes)
        .collect();
    let scene = ja["scenes"][0]["nodes"].as_array_mut().unwrap();
    scene.extend(roots_b.into_iter().map(|n| json!(n)));
    if one_root {
        let children = std::mem::replace(scene, vec![json!(nodes + len(&jb, "nodes"))]);
        let wrapper = json!({"name": "Scene root", "children": children});
        ja["nodes"].as_array_mut().unwrap().push(wrapper);
    }
    ja["buffers"] = json!([{"byteLength": bin.len()}]);
    let out = dir.join("two.glb");
    std::fs::write(&out, fixtures::glb_bytes(&ja, &bin)).unwrap();
    out
}

/// Two fixture files merged into one and generated: the output's path and the report.
fn generated_together((a, b): (&[u8], &[u8]), dir: &Path, one_root: bool) -> (PathBuf, Value) {
    let input = merged(a, b, dir, one_root);
    let out = dir.join("out.glb");
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    (out, report)
}

/// The report's diagnostics that contain `text`.
fn saying<'a>(report: &'a Value, text: &str) -> Vec<&'a str> {
    (report["diagnostics"].as_array().unwrap().iter())
        .filter_map(Value::as_str)
        .filter(|d| d.contains(text))
        .collect()
}

#[test]
fn of_two_characters_in_a_file_the_larger_is_made_and_the_other_named() {
    let man = fixtures::humanoid();
    // A second, smaller figure standing in the same spot (as the two robots did, 4.5 cm
    // apart), with the same bone names.
    let mut child = fixtures::humanoid();
    for b in &mut child {
        (b.head, b.tail) = (b.head * 0.7, b.tail * 0.7);
        b.head += Vec3::X * 0.045;
        b.tail += Vec3::X * 0.045;
        b.radius *= 0.7;
    }
    let build = fixtures::Build::default();
    let smaller = fixtures::Build {
        vertices: build.vertices / 2,
        ..build
    };
    // Under one root node too: told apart by their armatures.
    for one_root in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (out, report) = generated_together(
            (&fixtures::glb(&child, smaller), &fixtures::glb(&man, build)),
            dir.path(),
            one_root,
        );
        let said = saying(&report, "2 characters");
        assert_eq!(said.len(), 1, "{}", report["diagnostics"]);
        assert_eq!(report["character_type"], "humanoid");
        // Every body on the man (the later armature: nodes after the child's); every bone of
        // the child skipped as another character's.
        let first_of_man = 1 + 1 + child.len();
        for b in report["bones"].as_array().unwrap() {
            let of_man = b["node"].as_u64().unwrap() as usize >= first_of_man;
            let outcome = b["outcome"].as_str().unwrap();
            match of_man {
                true => assert_ne!(outcome, "skipped: another character in the file", "{b}"),
                false => assert_eq!(outcome, "skipped: another character in the file", "{b}"),
            }
        }
        let feet = report["balance"]["foot_bones"].as_array().unwrap();
        assert_eq!(feet.len(), 2, "{}", report["balance"]);
        let doc = Document::open(&out).unwrap();
        let stand = run(
            &doc,
            Scenario {
                seconds: 5.0,
                ..Default::default()
            },
        );
        assert_eq!(stand.fell_at_s, None, "{stand:?}");
        // The man's height, not the two together.
        let h = report["height"].as_f64().unwrap();
        assert!((h - 1.75).abs() < 0.1, "{h}");
    }
}

/// A garment's armature at the scene's root, a copy of the body's skeleton (the same bone
/// names where the body's bones stand) with a skin of its own, is no second character: it
/// is not left out, and nothing calls it one.
#[test]
fn a_garment_s_copy_of_the_skeleton_is_no_second_character() {
    let body = fixtures::humanoid();
    let build = fixtures::Build::default();
    let garment = fixtures::Build {
        vertices: build.vertices / 3,
        ..build
    };
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = generated_together(
        (&fixtures::glb(&body, build), &fixtures::glb(&body, garment)),
        dir.path(),
        false,
    );
    let said = saying(&report, "characters, each a skeleton");
    assert!(said.is_empty(), "{said:?}");
    let left_out = (report["bones"].as_array().unwrap().iter())
        .filter(|b| b["outcome"] == "skipped: another character in the file")
        .count();
    assert_eq!(left_out, 0);
}
