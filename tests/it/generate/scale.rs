//! Any scale: node scale is applied to the schema's units, and a character 0.1x or 10x the
//! mannequin behaves like it: stands 10 s, collapses passively, holds its limits.

use super::measure::*;
use crate::common::*;
use ragdoll_tuner::document::{ColliderShape, Document};
use std::path::PathBuf;

/// The mannequin with its root node scaled by `s`, written to a temp file.
fn scaled_mannequin(s: f64) -> (tempfile::TempDir, PathBuf) {
    let (mut json, bin) = json_and_bin(&mannequin());
    json["nodes"][0]["scale"] = serde_json::json!([s, s, s]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.glb");
    std::fs::write(&path, super::fixtures::glb_bytes(&json, &bin.unwrap())).unwrap();
    (dir, path)
}

#[test]
fn node_scale_scales_collider_sizes_and_offsets() {
    let base = Document::open(mannequin()).unwrap();
    let (_d, path) = scaled_mannequin(0.1);
    let small = Document::open(&path).unwrap();
    for id in base.bone_ids() {
        let Some(c) = base
            .bone(id)
            .physics
            .as_ref()
            .and_then(|p| p.collider.as_ref())
        else {
            continue;
        };
        let (a, b) = (
            base.world_shape(id, &c.shape),
            small.world_shape(id, &c.shape),
        );
        let r = |s: &ColliderShape| match *s {
            ColliderShape::Capsule { radius, .. } | ColliderShape::Sphere { radius } => radius,
            ColliderShape::Box { half_extents } => half_extents[0],
        };
        assert!((r(&b) - 0.1 * r(&a)).abs() < 1e-9, "{}", base.bone(id).name);
        let (pa, pb) = (
            base.body_from_collider(id, c),
            small.body_from_collider(id, c),
        );
        assert!((pb.translation - 0.1 * pa.translation).length() < 1e-9);
    }
}

#[test]
fn the_mannequin_at_a_tenth_and_ten_times_stands_and_collapses() {
    for s in [0.1, 10.0] {
        let (dir, path) = scaled_mannequin(s);
        let out = dir.path().join("g.glb");
        let (code, report, err) = super::generate(&path, &out, &[]);
        assert_eq!(code, Some(0), "{err}");
        let h = report["height"].as_f64().unwrap();
        assert!(
            (h / (1.75 * s) - 1.0).abs() < 0.15,
            "height {h} at scale {s}"
        );
        let doc = Document::open(&out).unwrap();
        let stand = run(&doc, Scenario::default());
        eprintln!("mannequin x{s}: stand {stand:?}");
        assert!(
            stand.paused.is_none() && stand.fell_at_s.is_none(),
            "x{s}: {stand:?}"
        );
        assert!(stand.max_violation_deg < 2.0, "x{s}: {stand:?}");
        let passive = run(
            &doc,
            Scenario {
                passive: true,
                seconds: 3.0 * s.sqrt().max(1.0),
                ..Scenario::default()
            },
        );
        eprintln!("mannequin x{s}: passive {passive:?}");
        assert!(
            passive.paused.is_none() && passive.fell_at_s.is_some(),
            "x{s}: {passive:?}"
        );
        assert!(passive.max_violation_deg < 2.0, "x{s}: {passive:?}");
        assert!(
            (passive.length_unit / s as f32 - 1.0).abs() < 0.2,
            "{passive:?}"
        );
    }
}

/// A character ten times the Fox (790 units tall, billions of kg from its size) is still
/// simulated: the heaviest body the simulation takes scales with the character's volume.
#[test]
fn a_fox_ten_times_its_size_is_simulated() {
    let (mut json, bin) = json_and_bin(&fox_glb());
    let roots: Vec<u64> = json["scenes"][0]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_u64())
        .collect();
    for r in roots {
        json["nodes"][r as usize]["scale"] = serde_json::json!([10.0, 10.0, 10.0]);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fox10.glb");
    std::fs::write(&path, super::fixtures::glb_bytes(&json, &bin.unwrap())).unwrap();
    let out = dir.path().join("g.glb");
    let (code, _, err) = super::generate(&path, &out, &[]);
    assert_eq!(code, Some(0), "{err}");
    let doc = Document::open(&out).unwrap();
    let stand = run(&doc, Scenario::default());
    eprintln!("Fox x10: {stand:?}");
    assert!(
        stand.paused.is_none() && stand.fell_at_s.is_none(),
        "{stand:?}"
    );
    assert!(stand.max_violation_deg < 2.0, "{stand:?}");
}

/// `path`'s scene wrapped in a new root node scaled by `k` (the file otherwise unchanged).
fn wrapped(path: &std::path::Path, k: f64, dir: &std::path::Path) -> PathBuf {
    let (mut json, bin) = json_and_bin(path);
    let scene = json["scene"].as_u64().unwrap_or(0) as usize;
    let roots = json["scenes"][scene]["nodes"].clone();
    let nodes = json["nodes"].as_array_mut().unwrap();
    nodes.push(serde_json::json!({"name": "scale_wrap", "scale": [k, k, k], "children": roots}));
    let wrap = nodes.len() - 1;
    json["scenes"][scene]["nodes"] = serde_json::json!([wrap]);
    let out = dir.join(format!("wrapped-{k}.glb"));
    std::fs::write(&out, super::fixtures::glb_bytes(&json, &bin.unwrap())).unwrap();
    out
}

/// The case: the shipped mannequin (its physics unchanged) under a root scaled by 10
/// or 100 collapses when passive, as it does at 1.75 m; it froze (inertia floor by size^5).
#[test]
fn the_mannequin_under_a_scaled_root_collapses_without_regenerating() {
    let dir = tempfile::tempdir().unwrap();
    for k in [0.01, 10.0, 100.0] {
        let doc = Document::open(wrapped(&mannequin(), k, dir.path())).unwrap();
        let limit = 3.0 * k.sqrt();
        let passive = run(
            &doc,
            Scenario {
                passive: true,
                seconds: limit,
                ..Scenario::default()
            },
        );
        eprintln!("mannequin under x{k}, not regenerated: passive {passive:?}");
        assert!(passive.paused.is_none(), "x{k}: {passive:?}");
        assert!(passive.fell_at_s.is_some(), "x{k}: {passive:?}");
    }
}

/// Real characters from 0.2 m to 15 m tall under a scaled root, generated: stand 10 s
/// (tilt <= 10 degrees, no guard pause) and collapse passively within 3 sqrt(H / 1.75 m) s.
#[test]
fn real_characters_from_0_2_m_to_15_m_stand_and_collapse() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (mannequin(), 0.01),
        (mannequin(), 100.0),
        (cesium_man(), 0.13),
        (cesium_man(), 10.0),
        (shared_asset("zoo/q_horse.glb"), 0.05),
        (shared_asset("zoo/q_horse.glb"), 3.0),
    ];
    for (path, k) in cases {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = wrapped(&path, k, dir.path());
        let out = dir.path().join(format!("{name}-{k}-g.glb"));
        let (code, report, err) = super::generate(&src, &out, &[]);
        assert_eq!(code, Some(0), "{name} x{k}: {err}");
        let h = report["height"].as_f64().unwrap();
        let doc = Document::open(&out).unwrap();
        let stand = run(&doc, Scenario::default());
        let limit = 3.0 * (h / 1.75).sqrt();
        let passive = run(
            &doc,
            Scenario {
                passive: true,
                seconds: limit,
                ..Scenario::default()
            },
        );
        eprintln!(
            "{name} x{k} ({h:.3} m): stand {stand:?}\n  passive (limit {limit:.2} s) {passive:?}"
        );
        assert!(
            stand.paused.is_none() && stand.fell_at_s.is_none(),
            "{name} x{k}: {stand:?}"
        );
        assert!(stand.max_tilt_deg <= 10.0, "{name} x{k}: {stand:?}");
        assert!(passive.paused.is_none(), "{name} x{k}: {passive:?}");
        assert!(
            passive.fell_at_s.is_some_and(|t| t <= limit),
            "{name} x{k}: {passive:?}"
        );
    }
}

/// The zoo's creatures at 0.01 and 100 times their size, generated: each stands 10 s (tilt
/// <= 10 degrees, no guard pause, not fallen) and the doctor finds no error. Before: the
/// 3.5 cm dragon sank through its landing on contacts as stiff as at 1.75 m and fell (tilt
/// 39°), the 2 cm spider leaned 35° shaken by the ankle torque on its eight light feet, the
/// 221 m rat leaned 16°, and the doctor judged the 198 m spider's feet drives 17 times too
/// stiff against an inertia floor a million times below the simulated one.
#[test]
fn creatures_at_a_hundredth_and_a_hundred_times_stand_without_doctor_errors() {
    use ragdoll_tuner::doctor;
    use ragdoll_tuner::document::Severity;
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("zoo/q_dragon_meshopt.glb", 0.01),
        ("zoo/q_spider.glb", 0.01),
        ("zoo/q_spider.glb", 100.0),
        ("zoo/q_rat.glb", 100.0),
    ];
    let mut failures = Vec::new();
    for (file, k) in cases {
        let src = wrapped(&shared_asset(file), k, dir.path());
        let out = dir.path().join(format!("g-{k}.glb"));
        let (code, _, err) = super::generate(&src, &out, &[]);
        assert_eq!(code, Some(0), "{file} x{k}: {err}");
        let doc = Document::open(&out).unwrap();
        let errors: Vec<String> = doctor::examine(&doc)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| f.message)
            .collect();
        let stand = run(&doc, Scenario::default());
        eprintln!("{file} x{k}: stand {stand:?}, doctor errors {errors:?}");
        if !errors.is_empty()
            || stand.paused.is_some()
            || stand.fell_at_s.is_some()
            || stand.max_tilt_deg > 10.0
        {
            failures.push(format!("{file} x{k}: {stand:?} {errors:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A character placed under a node scaled 1.2 along Y: every bone's world scale is
/// non-uniform, and generate says so once, at the top bone, counting the bones below (it
/// printed the same warning for each of a 22-bone man's bones).
#[test]
fn a_non_uniform_scale_above_the_bones_is_one_warning() {
    let doc = crate::common::placed_glb(
        &cesium_man(),
        serde_json::json!({"name": "stretched", "scale": [1.0, 1.2, 1.0]}),
    );
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
    let scale: Vec<_> = g.diagnostics.iter().filter(|d| d.key == "scale").collect();
    assert_eq!(scale.len(), 1, "{scale:#?}");
    let below = doc.bones.len() - 1;
    assert!(
        scale[0]
            .message
            .contains(&format!("the {below} bones below")),
        "{}",
        scale[0].message
    );
}

/// A non-uniform scale on a bone that gets no shape (a helper without skin: the zoo horse's
/// `PoleTarget.L`, a Rigify rig's pole widgets `VIS_thigh_ik_pole.L`) says nothing about
/// shapes, and is not warned (a full Rigify rig printed 19 such warnings, 17 of them on
/// helpers); on a bone with a body it is.
#[test]
fn a_non_uniform_scale_on_a_helper_is_no_warning() {
    let horse = shared_asset("zoo/q_horse.glb");
    let warned = |bone: &str| {
        let doc = glb_with_json(&horse, |j| {
            for node in j["nodes"].as_array_mut().into_iter().flatten() {
                if node["name"] == bone {
                    node["scale"] = serde_json::json!([1.0, 1.5, 1.0]);
                }
            }
        });
        let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
        (g.diagnostics.iter())
            .filter(|d| d.key == "scale")
            .map(|d| d.bone.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(warned("PoleTarget.L"), Vec::<String>::new());
    assert_eq!(warned("FrontUpperLeg.L"), ["FrontUpperLeg.L"]);
}

/// "Implausible in metres" is for files in centimetres or millimetres, not for large
/// characters: a 3 m Quaternius dinosaur was called implausible. A humanoid twice the
/// mannequin (3.5 m, an ogre) and a horse twice the zoo's (9.7 m) are plausible; either a hundred
/// times is not.
#[test]
fn large_characters_are_plausible_and_centimetres_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let horse = zoo_files()
        .into_iter()
        .find(|f| f.ends_with("q_horse.glb"))
        .unwrap();
    for (file, k, warned) in [
        (mannequin(), 2.0, false),
        (mannequin(), 100.0, true),
        (horse.clone(), 2.0, false),
        (horse, 100.0, true),
    ] {
        let input = wrapped(&file, k, dir.path());
        let out = dir.path().join("out.glb");
        let (code, report, stderr) = super::generate(&input, &out, &[]);
        assert_eq!(code, Some(0), "{stderr}");
        let said = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d.as_str().unwrap().contains("implausible in metres"));
        assert_eq!(
            said,
            warned,
            "{} x{k}: {}",
            file.display(),
            report["height"]
        );
    }
}
