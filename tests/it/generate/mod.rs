//! The ragdoll generator on real characters (CesiumMan, the Fox as .glb and .gltf) and on
//! synthetic ones (Mixamo-style scaled skeletons, unnamed joints, tiny and huge, degenerate
//! input), through the real CLI, the lossless save, the Khronos validator and the real Rapier
//! world. Figures are measured, not assumed.

mod balance;
mod conventions;
mod creatures;
mod degenerate;
mod editor;
pub mod fixtures;
mod lying;
pub(crate) mod measure;
mod props;
mod rigid;
mod rigs;
mod scale;
mod several;
mod soles;
mod tight;
mod trunk;

use crate::common::*;
use measure::*;
use ragdoll_tuner::document::{ConstraintKind, Document};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs `generate IN -o OUT --json [extra]`; returns (exit code, report or Null, stderr).
pub fn generate(input: &Path, out: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let o = ragdoll_tuner()
        .args(["generate", path_str(input), "-o", path_str(out), "--json"])
        .args(extra)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    (
        o.status.code(),
        report,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The parent body a generated bone is jointed to; None without physics or at the root.
pub fn parent_body(doc: &Document, name: &str) -> Option<String> {
    let id = doc.bone_by_name(name)?;
    let p = doc.bone(id).physics.clone()?;
    p.constraint.and_then(|c| c.parent_bone)
}

/// `bones` written as a GLB and generated in a temp folder (`what` names the case in a
/// failure): the folder, the output path and the report.
pub fn generated_bones(
    bones: &[fixtures::BoneDef],
    what: &str,
) -> (tempfile::TempDir, PathBuf, Value) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.glb");
    let glb = fixtures::glb(bones, fixtures::Build::default());
    std::fs::write(&input, glb).unwrap();
    let out = dir.path().join("out.glb");
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{what}: {stderr}");
    (dir, out, report)
}

/// Generates into a temp folder; returns the folder, the output path and the report.
pub fn generated(input: &Path, name: &str) -> (tempfile::TempDir, PathBuf, Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(name);
    let (code, report, stderr) = generate(input, &out, &[]);
    assert_eq!(code, Some(0), "{}: {stderr}", input.display());
    (dir, out, report)
}

fn bones_with_role<'a>(report: &'a Value, role: &str) -> Vec<&'a Value> {
    report["bones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["role"] == role && b["outcome"] == "body")
        .collect()
}

fn validate_exit(file: &Path) -> (Option<i32>, String) {
    let o = ragdoll_tuner()
        .args(["validate", path_str(file)])
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// Lossless: the BIN (or the external buffer) identical, the JSON equal once physics extras
/// are removed from both; `validate` reports no error; the Khronos validator no error.
fn check_lossless(input: &Path, out: &Path) {
    let (a_json, a_bin) = json_and_bin(input);
    let (b_json, b_bin) = json_and_bin(out);
    assert_eq!(a_bin, b_bin, "BIN chunk changed");
    assert_ne!(a_json, b_json, "no physics was written");
    assert_eq!(
        strip_physics(a_json),
        strip_physics(b_json),
        "JSON changed outside physics extras"
    );
    let (code, text) = validate_exit(out);
    assert_eq!(code, Some(0), "validate: {text}");
    crate::validator::validate(out);
}

/// The rules on every joint of a written file: the rest pose inside every limit, no
/// range under 5 degrees, a mass ratio of at most 10 between jointed bodies.
fn check_joint_rules(out: &Path) {
    let (json, _) = json_and_bin(out);
    let nodes = json["nodes"].as_array().unwrap();
    let mass_of = |name: &str| {
        nodes
            .iter()
            .enumerate()
            .find(|(i, n)| n["name"] == name || format!("node{i}") == name)
            .and_then(|(_, n)| n["extras"]["physics"]["mass"].as_f64())
    };
    let mut joints = 0;
    for n in nodes {
        let p = &n["extras"]["physics"];
        let c = &p["constraint"];
        if c.is_null() {
            continue;
        }
        joints += 1;
        let name = &n["name"];
        let num = |v: &Value| v.as_f64().unwrap();
        match c["type"].as_str().unwrap() {
            "hinge" => {
                let (lo, hi) = (num(&c["limit_min_deg"]), num(&c["limit_max_deg"]));
                assert!(
                    lo <= 0.0 && 0.0 <= hi && hi - lo >= 5.0,
                    "{name}: {lo}..{hi}"
                );
            }
            _ => {
                let s = &c["swing_limit_deg"];
                let ext: Vec<f64> = match s {
                    Value::Object(o) => ["pos_y", "neg_y", "pos_z", "neg_z"]
                        .iter()
                        .map(|k| num(&o[*k]))
                        .collect(),
                    v => vec![num(v); 4],
                };
                assert!(
                    ext[0] + ext[1] >= 5.0 && ext[2] + ext[3] >= 5.0,
                    "{name}: swing {s}"
                );
                assert!(
                    ext.iter().all(|e| *e > 0.0 && *e <= 175.0),
                    "{name}: swing {s}"
                );
                let t = &c["twist_limit_deg"];
                let (lo, hi) = match t {
                    Value::Array(a) => (num(&a[0]), num(&a[1])),
                    v => (-num(v), num(v)),
                };
                assert!(
                    lo <= 0.0 && 0.0 <= hi && hi - lo >= 5.0,
                    "{name}: twist {t}"
                );
            }
        }
        let parent = c["parent_bone"].as_str().unwrap();
        let (m, pm) = (p["mass"].as_f64().unwrap(), mass_of(parent).unwrap());
        assert!(
            m.max(pm) / m.min(pm) <= 10.0 + 1e-6,
            "{name}: {m} kg on {parent} {pm} kg"
        );
    }
    assert!(joints > 5, "{joints} joints");
}

#[test]
fn cesium_man_and_the_fox_generate_lossless_valid_files() {
    for (input, name) in [(cesium_man(), "cm.glb"), (fox_glb(), "fox.glb")] {
        let (_dir, out, _) = generated(&input, name);
        check_lossless(&input, &out);
        check_joint_rules(&out);
        let doc = Document::open(&out).unwrap();
        let touching = rest_contacts(&doc);
        assert!(
            touching.is_empty(),
            "{name}: bodies touch at rest: {touching:?}"
        );
    }
    // The split .gltf: saved beside a copy of its buffer, which stays byte-identical.
    let (dir, out, _) = generated(&fox_gltf(), "fox.gltf");
    check_lossless(&fox_gltf(), &out);
    let bin_in = std::fs::read(fox_gltf().with_file_name("Fox.bin")).unwrap();
    let bin_out = std::fs::read(dir.path().join("Fox.bin")).unwrap();
    assert_eq!(bin_in, bin_out, "Fox.bin changed");
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    for input in [cesium_man(), fox_gltf()] {
        let (_d1, a, _) = generated(&input, "a.glb");
        let (_d2, b, _) = generated(&input, "a.glb");
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    }
}

#[test]
fn cesium_man_roles_joints_and_bending() {
    let (_dir, out, report) = generated(&cesium_man(), "cm.glb");
    assert_eq!(report["character_type"], "humanoid", "{report}");
    let doc = Document::open(&out).unwrap();
    let forward = vec3(&report["forward"]);
    let up = glam::DVec3::Y;
    for (role, kind, count) in [
        ("shin", "hinge", 2),
        ("forearm", "hinge", 2),
        ("thigh", "ball_socket", 2),
        ("upper_arm", "ball_socket", 2),
        ("pelvis", "", 1),
        ("head", "ball_socket", 1),
        ("foot", "ball_socket", 2),
        ("hand", "ball_socket", 2),
    ] {
        let list = bones_with_role(&report, role);
        assert_eq!(list.len(), count, "{role}: {report}");
        for b in &list {
            if !kind.is_empty() {
                assert_eq!(b["joint"], kind, "{role}: {b}");
            }
        }
    }
    // Names number CesiumMan's arm bones hand-inwards: the upper arms are the ones at the
    // shoulder ("__4_" on the left), found by the tree, not the numbers.
    let uppers: Vec<&str> = bones_with_role(&report, "upper_arm")
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(uppers.contains(&"Skeleton_arm_joint_L__4_"), "{uppers:?}");
    // Hips: the joint frame's +Y is forward (flexion 120), Z = X x Y points to the right, so
    // +Z is adduction (30) on the left leg and abduction (45) on the right.
    let (json, _) = json_and_bin(&out);
    for b in bones_with_role(&report, "thigh") {
        let name = b["name"].as_str().unwrap();
        let node = &json["nodes"][b["node"].as_u64().unwrap() as usize];
        let c = &node["extras"]["physics"]["constraint"];
        let id = doc.bone_by_name(name).unwrap();
        let (_, rot, _) = doc.skeleton.nodes[doc.bone(id).node]
            .world_from_node
            .to_scale_rotation_translation();
        let x = (rot * doc.primary_axis(id)).normalize();
        let y0 = rot * vec3(&c["swing_y_axis"]);
        let y = (y0 - x * y0.dot(x)).normalize();
        let z = x.cross(y);
        let left = up.cross(forward).normalize();
        assert!(x.dot(-up) > 0.8, "{name}: thigh points down");
        assert!(y.dot(forward) > 0.9, "{name}: +Y is forward");
        assert!(z.dot(left) < -0.9, "{name}: +Z is the character's right");
        // The seed's extents, or wider where the character's own walk reaches further (the
        // report says which).
        let widened = report["widened"]
            .as_array()
            .is_some_and(|w| w.iter().any(|w| w["bone"] == name));
        let (pos_z, neg_z) = if b["side"] == "left" {
            (30.0, 45.0)
        } else {
            (45.0, 30.0)
        };
        let e = &c["swing_extents_deg"];
        for (key, seed) in [
            ("pos_y", 120.0),
            ("neg_y", 15.0),
            ("pos_z", pos_z),
            ("neg_z", neg_z),
        ] {
            let got = e[key].as_f64().unwrap();
            if widened {
                assert!(got >= seed, "{name} {key}: {got} < {seed}");
            } else {
                assert_eq!(got, seed, "{name} {key}");
            }
        }
    }
    // Each knee and elbow bent by 30 degrees within its limits: the foot moves backward, the
    // hand forward or up.
    for (role, child_role) in [("shin", "foot"), ("forearm", "hand")] {
        for b in bones_with_role(&report, role) {
            let id = doc.bone_by_name(b["name"].as_str().unwrap()).unwrap();
            let bone = doc.bone(id);
            let Some(ConstraintKind::Hinge {
                hinge_axis,
                limit_min_deg,
                limit_max_deg,
            }) = bone
                .physics
                .as_ref()
                .and_then(|p| p.constraint.as_ref())
                .map(|c| c.kind.clone())
            else {
                panic!("{role} is not a hinge")
            };
            assert!(
                limit_min_deg <= 0.0 && 30.0 <= limit_max_deg,
                "{limit_min_deg}..{limit_max_deg}"
            );
            let world = doc.skeleton.nodes[bone.node].world_from_node;
            let (_, rot, pivot) = world.to_scale_rotation_translation();
            let axis = (rot * glam::DVec3::from_array(hinge_axis)).normalize();
            let primary = (rot * doc.primary_axis(id)).normalize();
            assert!(
                axis.dot(primary).abs() < 0.05,
                "{role}: hinge axis not perpendicular to the bone"
            );
            let child = doc
                .bone_ids()
                .find(|&c| doc.bone(c).parent == Some(id))
                .map(|c| {
                    doc.skeleton.nodes[doc.bone(c).node]
                        .world_from_node
                        .w_axis
                        .truncate()
                })
                .unwrap();
            let q = glam::DQuat::from_axis_angle(axis, 30f64.to_radians());
            let moved = pivot + q * (child - pivot) - child;
            let name = &b["name"];
            if child_role == "foot" {
                assert!(
                    moved.dot(forward) < 0.0,
                    "{name}: foot moves {moved:?}, forward {forward:?}"
                );
            } else {
                assert!(
                    moved.dot(forward) > 0.0 || moved.dot(up) > 0.0,
                    "{name}: hand moves {moved:?}"
                );
            }
        }
    }
}

#[test]
fn cesium_man_and_fox_coverage_goal() {
    for input in [cesium_man(), fox_glb()] {
        let (_dir, out, report) = generated(&input, "c.glb");
        let doc = Document::open(&out).unwrap();
        let height = report["height"].as_f64().unwrap();
        let cov = coverage_by_body(&doc, 0.02 * height);
        let limb_roles = ["upper_arm", "forearm", "hand", "thigh", "shin", "foot"];
        let limbs: Vec<&str> = limb_roles
            .iter()
            .flat_map(|r| bones_with_role(&report, r))
            .map(|b| b["name"].as_str().unwrap())
            .collect();
        let mut all: Vec<f64> = cov.iter().map(|c| c.1).collect();
        all.sort_by(f64::total_cmp);
        let median = all[all.len() / 2];
        eprintln!(
            "{}: coverage median {median:.3}, per body {cov:?}",
            input.display()
        );
        assert!(median >= 0.90, "{}: median {median}", input.display());
        for (name, c) in &cov {
            if limbs.contains(&name.as_str()) {
                assert!(*c >= 0.75, "{}: limb {name} coverage {c}", input.display());
            }
        }
        assert!(limbs.len() >= 8, "{limbs:?}");
        let reported = report["coverage"]["median"].as_f64().unwrap();
        assert!(
            (reported - median).abs() < 0.05,
            "report {reported} vs measured {median}"
        );
    }
}

#[test]
fn cesium_man_left_and_right_agree() {
    let (_dir, out, report) = generated(&cesium_man(), "cm.glb");
    let (json, _) = json_and_bin(&out);
    let physics_of = |name: &str| {
        json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == name)
            .map(|n| n["extras"]["physics"].clone())
            .unwrap()
    };
    let mut pairs = 0;
    for role in ["thigh", "shin", "foot", "upper_arm", "forearm", "hand"] {
        let list = bones_with_role(&report, role);
        let side = |s: &str| {
            list.iter().find(|b| b["side"] == s).unwrap()["name"]
                .as_str()
                .unwrap()
                .to_string()
        };
        let (l, r) = (physics_of(&side("left")), physics_of(&side("right")));
        for key in ["radius", "half_height", "mass", "half_extents"] {
            close_values(&l[key], &r[key], 0.02, &format!("{role}.{key}"));
        }
        for key in [
            "limit_min_deg",
            "limit_max_deg",
            "swing_limit_deg",
            "twist_limit_deg",
        ] {
            close_values(
                &l["constraint"][key],
                &r["constraint"][key],
                0.02,
                &format!("{role}.constraint.{key}"),
            );
        }
        pairs += 1;
    }
    assert_eq!(pairs, 6);
}

#[test]
fn cesium_man_stands_recovers_and_collapses() {
    let (_dir, out, report) = generated(&cesium_man(), "cm.glb");
    let doc = Document::open(&out).unwrap();
    let mass = report["total_mass_kg"].as_f64().unwrap() as f32;
    let chest = bones_with_role(&report, "chest")[0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let stand = run(&doc, Scenario::default());
    eprintln!("CesiumMan stand 10 s: {stand:?}");
    assert!(stand.fell_at_s.is_none(), "{stand:?}");
    assert!(
        stand.max_tilt_deg < 15.0 && stand.min_pelvis_ratio > 0.7,
        "{stand:?}"
    );
    assert!(stand.max_violation_deg < 2.0, "{stand:?}");
    for dir in [glam::Vec3::X, -glam::Vec3::X, glam::Vec3::Z, -glam::Vec3::Z] {
        let shove = run(
            &doc,
            Scenario {
                push: Some((chest.clone(), dir * 1.5 * mass, 2.0)),
                ..Scenario::default()
            },
        );
        eprintln!("CesiumMan shove {:.0} N*s {dir:?}: {shove:?}", 1.5 * mass);
        assert!(shove.fell_at_s.is_none(), "{dir:?}: {shove:?}");
        assert!(shove.max_violation_deg < 2.0, "{dir:?}: {shove:?}");
    }
    let passive = run(
        &doc,
        Scenario {
            passive: true,
            seconds: 3.0,
            ..Scenario::default()
        },
    );
    eprintln!("CesiumMan passive: {passive:?}");
    assert!(passive.fell_at_s.is_some_and(|t| t < 3.0), "{passive:?}");
    assert!(passive.max_violation_deg < 2.0, "{passive:?}");
}

#[test]
fn fox_is_a_quadruped_that_stands_and_collapses_without_blowing_up() {
    let (_dir, out, report) = generated(&fox_glb(), "fox.glb");
    assert_eq!(report["character_type"], "quadruped", "{report}");
    for (role, n) in [
        ("thigh", 2),
        ("shin", 2),
        ("foot", 2),
        ("upper_arm", 2),
        ("forearm", 2),
        ("hand", 2),
    ] {
        assert_eq!(bones_with_role(&report, role).len(), n, "{role}");
    }
    for role in ["spine", "chest", "neck", "head", "tail", "pelvis"] {
        assert!(!bones_with_role(&report, role).is_empty(), "no {role}");
    }
    assert_eq!(
        report["balance"]["foot_bones"].as_array().unwrap().len(),
        4,
        "{report}"
    );
    let doc = Document::open(&out).unwrap();
    let passive = run(
        &doc,
        Scenario {
            passive: true,
            seconds: 5.0,
            ..Scenario::default()
        },
    );
    eprintln!("Fox passive 5 s: {passive:?}");
    assert!(passive.paused.is_none(), "{passive:?}");
    assert!(passive.max_violation_deg < 3.0, "{passive:?}");
    let stand = run(&doc, Scenario::default());
    eprintln!("Fox stand 10 s: {stand:?}");
    assert!(
        stand.paused.is_none() && stand.fell_at_s.is_none(),
        "{stand:?}"
    );
    assert!(stand.grounded_feet_at_end == 4, "{stand:?}");
}
