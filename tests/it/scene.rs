//! The scene `bench --export-scene` writes for the bare Rapier build (`tools/bare-rapier`)
//! is the world we step: every body, collider and joint, with the document's masses.

use crate::common;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::sim::{SimSettings, Simulation};

#[test]
fn the_exported_scene_is_the_world_we_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scene.json");
    common::run_ok(common::ragdoll_tuner().args([
        "bench",
        "--export-scene",
        common::path_str(&file),
        "--settings",
        "crowd",
        "--ragdolls",
        "2",
    ]));
    let scene: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let doc = Document::open(common::mannequin()).unwrap();
    let sim = Simulation::with_copies(&doc, SimSettings::crowd(), 2).unwrap();
    let ours = sim.world_counts();
    let list = |k: &str| scene[k].as_array().unwrap().clone();
    let (bodies, colliders, joints) = (list("bodies"), list("colliders"), list("impulse_joints"));
    assert_eq!(bodies.len(), ours.bodies);
    assert_eq!(colliders.len(), ours.colliders);
    assert_eq!(joints.len(), ours.joints);
    assert_eq!(scene["counts"]["joints"].as_u64(), Some(ours.joints as u64));
    // Two mannequins: a body per bone with a collider plus an upright anchor each, and the ground.
    let per_doll = doc.bones.iter().filter(|b| b.collider().is_some()).count();
    assert_eq!(bodies.len(), 2 * (per_doll + 1) + 1);
    for j in &joints {
        for k in ["body1", "body2"] {
            assert!((j[k].as_u64().unwrap() as usize) < bodies.len(), "{j}");
        }
    }
    // The simulated masses are the document's, twice over.
    let doc_mass: f64 = doc
        .bones
        .iter()
        .filter(|b| b.collider().is_some())
        .filter_map(|b| b.physics.as_ref().map(|p| p.mass))
        .sum();
    let scene_mass: f64 = colliders
        .iter()
        .map(|c| c["mass_properties"]["inv_mass"].as_f64().unwrap())
        .filter(|&inv| inv > 0.0)
        .map(|inv| 1.0 / inv)
        .sum();
    assert!(
        (scene_mass - 2.0 * doc_mass).abs() < 1e-4 * scene_mass,
        "scene {scene_mass} kg, document {doc_mass} kg per copy"
    );
    // Crowd: Rapier's default solver, one step per 1/120 s.
    let p = &scene["integration_parameters"];
    let dt = p["dt"].as_f64().unwrap();
    assert!((dt - 1.0 / 120.0).abs() < 1e-6, "dt {dt}");
    let default = rapier3d::prelude::IntegrationParameters::default();
    assert_eq!(
        p["num_solver_iterations"].as_u64(),
        Some(default.num_solver_iterations as u64)
    );
}

/// `bench` steps each world in a process of its own (`bench --serve WORLD`), so no world is
/// timed on memory laid out after another's: a server builds the world it is asked for, steps
/// it on command within its window and reports the CPU time of its stepping.
#[test]
fn a_bench_world_serves_its_steps_from_a_process_of_its_own() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = common::ragdoll_tuner()
        .args([
            "bench",
            "--serve",
            "editor",
            "--settings",
            "crowd",
            "--ragdolls",
            "2",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |command: &str| {
        if !command.is_empty() {
            writeln!(stdin, "{command}").unwrap();
            stdin.flush().unwrap();
        }
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        line.trim().to_string()
    };
    let ready = ask("");
    let counts: serde_json::Value =
        serde_json::from_str(ready.strip_prefix("ready ").expect(&ready)).unwrap();
    let sim = Simulation::with_copies(
        &Document::open(common::mannequin()).unwrap(),
        SimSettings::crowd(),
        2,
    )
    .unwrap();
    assert_eq!(
        counts["bodies"].as_u64(),
        Some(sim.world_counts().bodies as u64)
    );
    assert_eq!(ask("step 10"), "ok");
    let run: Vec<f64> = ask("run 0.05")
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(run.len(), 3, "{run:?}");
    assert!(run[0] >= 1.0 && run[1] >= 0.05, "steps, seconds: {run:?}");
    assert!(
        run[2] > 0.0 && run[2] <= run[1] * 1.05,
        "CPU seconds {run:?}"
    );
    // A window of 3 steps from now: 7 more steps go back to its start twice.
    assert_eq!(ask("window 3"), "ok");
    assert_eq!(ask("step 7"), "ok");
    assert_eq!(ask("rewinds"), "2");
    assert!(
        ask("fly 1").is_empty(),
        "an unknown command ends the server"
    );
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown command \"fly 1\""));
    let unknown = common::ragdoll_tuner()
        .args(["bench", "--serve", "teapot"])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown world"));
}
