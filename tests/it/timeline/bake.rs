//! `simulate --branch-at` reproduces a plain run bit for bit and parts from it only after T
//! when it changes something; `simulate --bake` adds a clip that, read with independent glTF
//! math, matches the recorded poses (local rotations within 0.1°, root within 1 mm), plays in
//! our own player, and leaves the rest of the file as it was.

use crate::common::*;
use base64::Engine;
use glam::{DQuat, DVec3};
use ragdoll_tuner::document::Document;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

fn simulate(args: &[&str]) {
    let out = ragdoll_tuner().arg("simulate").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "simulate {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn rows(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Branching with no change is the plain run, bit for bit; with a change, the poses before T
/// are the plain run's and those after it differ.
#[test]
fn a_branch_reproduces_the_run_until_it_changes_something() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let m = mannequin();
    let push = "spine_upper:60,0,0@2.5";
    let base = ["--seconds", "4", "--push", push];
    simulate(
        &[
            &[path_str(&m)][..],
            &base,
            &["--poses", path_str(&p("plain.csv"))],
        ]
        .concat(),
    );
    simulate(
        &[
            &[path_str(&m)][..],
            &base,
            &["--branch-at", "2", "--poses", path_str(&p("same.csv"))],
        ]
        .concat(),
    );
    simulate(
        &[
            &[path_str(&m)][..],
            &base,
            &[
                "--branch-at",
                "2",
                "--set",
                "thigh_l.drive.stiffness=10",
                "--poses",
                path_str(&p("changed.csv")),
            ],
        ]
        .concat(),
    );
    let (plain, same, changed) = (
        rows(&p("plain.csv")),
        rows(&p("same.csv")),
        rows(&p("changed.csv")),
    );
    assert!(plain.len() > 1000);
    assert!(
        plain == same,
        "a branch with no change parted from the plain run"
    );
    let step_of = |r: &str| r.split(',').next().unwrap().parse::<u64>().unwrap_or(0);
    let first = plain
        .iter()
        .zip(&changed)
        .position(|(a, b)| a != b)
        .expect("the changed branch differs");
    assert_eq!(
        step_of(&plain[first]),
        241,
        "identical up to T = 2 s (step 240)"
    );
}

/// An accessor's floats, read per the glTF spec from a data-URI buffer.
fn accessor_floats(json: &Value, index: usize) -> Vec<f32> {
    let a = &json["accessors"][index];
    let v = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let b = &json["buffers"][v["buffer"].as_u64().unwrap() as usize];
    let uri = b["uri"].as_str().expect("a data URI");
    let data = uri.split_once("base64,").expect("base64").1;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap();
    assert_eq!(a["componentType"], 5126);
    let width = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        t => panic!("type {t}"),
    };
    let start = v["byteOffset"].as_u64().unwrap_or(0) as usize;
    let n = a["count"].as_u64().unwrap() as usize * width;
    (0..n)
        .map(|i| {
            let o = start + 4 * i;
            f32::from_le_bytes(bytes[o..o + 4].try_into().unwrap())
        })
        .collect()
}

/// The recorded world pose of each body at each step, from `--poses`.
fn recorded(path: &Path) -> HashMap<(u64, String), (DVec3, DQuat)> {
    let mut out = HashMap::new();
    for r in rows(path).iter().skip(1) {
        let f: Vec<&str> = r.split(',').collect();
        let x = |i: usize| f[i].parse::<f64>().unwrap();
        out.insert(
            (f[0].parse().unwrap(), f[2].to_string()),
            (
                DVec3::new(x(3), x(4), x(5)),
                DQuat::from_xyzw(x(6), x(7), x(8), x(9)),
            ),
        );
    }
    out
}

/// A baked fall matches the recorded poses at every key, plays in our player, and the rest of
/// the file (its BIN chunk included) is unchanged.
#[test]
fn a_baked_clip_matches_the_recorded_poses() {
    let dir = tempfile::tempdir().unwrap();
    let (out, poses) = (dir.path().join("fall.glb"), dir.path().join("fall.csv"));
    let m = mannequin();
    simulate(&[
        path_str(&m),
        "--seconds",
        "2",
        "--passive",
        "--poses",
        path_str(&poses),
        "--bake",
        "fall",
        "-o",
        path_str(&out),
    ]);
    let doc = Document::open(&out).expect("the baked file opens");
    let json = doc.json().clone();
    let rec = recorded(&poses);
    let anim = json["animations"]
        .as_array()
        .and_then(|a| a.iter().find(|x| x["name"] == "fall"))
        .expect("an animation named fall");
    let name_of = |node: usize| json["nodes"][node]["name"].as_str().unwrap().to_string();
    let parent_of = |node: usize| {
        json["nodes"].as_array().unwrap().iter().position(|n| {
            n["children"]
                .as_array()
                .is_some_and(|c| c.iter().any(|x| x.as_u64() == Some(node as u64)))
        })
    };
    let (mut worst_deg, mut worst_m, mut keys_checked) = (0.0f64, 0.0f64, 0);
    for ch in anim["channels"].as_array().unwrap() {
        let s = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
        let times = accessor_floats(&json, s["input"].as_u64().unwrap() as usize);
        let values = accessor_floats(&json, s["output"].as_u64().unwrap() as usize);
        let node = ch["target"]["node"].as_u64().unwrap() as usize;
        let parent = parent_of(node).map(name_of);
        for (k, t) in times.iter().enumerate() {
            let step = (f64::from(*t) * 120.0).round() as u64;
            let (pos, rot) = rec[&(step, name_of(node))];
            let parent_pose = parent.as_ref().and_then(|p| rec.get(&(step, p.clone())));
            let (pp, pr) = parent_pose
                .copied()
                .unwrap_or((DVec3::ZERO, DQuat::IDENTITY));
            match ch["target"]["path"].as_str().unwrap() {
                "rotation" => {
                    let v = &values[4 * k..4 * k + 4];
                    let q = DQuat::from_xyzw(v[0].into(), v[1].into(), v[2].into(), v[3].into());
                    let want = pr.inverse() * rot;
                    // The angle of q⁻¹·want, well conditioned near zero (acos of a dot is not).
                    let d = q.inverse() * want;
                    let angle = 2.0 * d.xyz().length().atan2(d.w.abs());
                    worst_deg = worst_deg.max(angle.to_degrees());
                }
                "translation" => {
                    let v = DVec3::new(
                        values[3 * k].into(),
                        values[3 * k + 1].into(),
                        values[3 * k + 2].into(),
                    );
                    worst_m = worst_m.max(v.distance(pr.inverse() * (pos - pp)));
                }
                p => panic!("path {p}"),
            }
            keys_checked += 1;
        }
    }
    println!(
        "baked keys checked {keys_checked}: worst rotation {worst_deg:.5} deg, root {worst_m:.6} m"
    );
    assert!(keys_checked > 17 * 200, "{keys_checked} keys");
    assert!(worst_deg < 0.1, "{worst_deg} deg");
    assert!(worst_m < 1e-3, "{worst_m} m");
    // Our own player reads it.
    let anims = doc.load_animations().expect("clips");
    let clip = anims.find("fall").expect("the player finds the clip");
    assert!((clip.duration_s - 2.0).abs() < 0.01, "{}", clip.duration_s);
    assert!(anims.diagnostics.is_empty(), "{:?}", anims.diagnostics);
    // Lossless otherwise: the BIN chunk byte for byte.
    let bin = |p: &Path| {
        Document::open(p)
            .unwrap()
            .bin()
            .unwrap()
            .map(<[u8]>::to_vec)
    };
    assert!(bin(&out) == bin(&m), "the BIN chunk changed");
    crate::validator::validate(&out);
}

/// Blender's own glTF importer reads a baked clip as an action holding every baked key.
#[test]
fn blender_imports_the_baked_clip_as_an_action() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fall.glb");
    simulate(&[
        path_str(&mannequin()),
        "--seconds",
        "1",
        "--passive",
        "--bake",
        "fall",
        "-o",
        path_str(&out),
    ]);
    let script = root().join("tools/blender/import_check.py");
    let run = std::process::Command::new("blender")
        .args([
            "-b",
            "--factory-startup",
            "--python",
            path_str(&script),
            "--",
            path_str(&out),
        ])
        .output()
        .expect("Blender is needed to check the baked clip imports (.ci/run installs it)");
    let text = String::from_utf8_lossy(&run.stdout);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("IMPORT_CHECK "))
        .unwrap_or_else(|| {
            panic!(
                "Blender printed no report: {text}\n{}",
                String::from_utf8_lossy(&run.stderr)
            )
        });
    let report: Value = serde_json::from_str(line).unwrap();
    let action = report["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"].as_str().unwrap_or("").starts_with("fall"))
        .unwrap_or_else(|| panic!("no action named after the clip: {report}"));
    let curves = action["fcurves"].as_array().unwrap();
    let rotations = curves
        .iter()
        .filter(|c| {
            c["path"]
                .as_str()
                .unwrap_or("")
                .ends_with("rotation_quaternion")
        })
        .count();
    assert!(rotations >= 17 * 4, "{rotations} rotation curves: {action}");
    let channels = Document::open(&out)
        .unwrap()
        .load_animations()
        .unwrap()
        .find("fall")
        .unwrap()
        .channels
        .len();
    assert!(channels >= 18, "{channels} channels");
    assert!(
        curves.iter().all(|c| c["keys"].as_u64() == Some(121)),
        "every curve holds the 121 baked keys (1 s at 120 Hz): {action}"
    );
}
