//! The CLI over the real binary: inspect, validate exit codes, batch edit.

use crate::common::*;
use serde_json::{json, Value};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = ragdoll_tuner().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn inspect_json_is_one_object_with_defaults_filled_in() {
    let m = mannequin();
    let (code, stdout, _) = run(&["inspect", path_str(&m), "--json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&stdout).expect("exactly one JSON object");
    let bones = v["bones"].as_array().unwrap();
    assert_eq!(bones.len(), 18);
    let shin = bones.iter().find(|b| b["name"] == "shin_l").unwrap();
    assert_eq!(shin["parent"], json!("thigh_l"));
    assert_eq!(shin["collider"]["type"], json!("capsule"));
    assert!(
        shin["collider"]["offset"]["translation"].is_array(),
        "default placement reported"
    );
    assert_eq!(shin["constraint"]["type"], json!("hinge"));
    assert_eq!(shin["constraint"]["parent_bone"], json!("thigh_l"));
    assert_eq!(shin["constraint"]["limit_max_deg"], json!(135.0));
    assert!(shin["drive"]["stiffness"].is_number());
    assert!(shin["node"].is_u64());
    assert_eq!(v["diagnostics"], json!([]));
    // The material as simulated: the file's angular damping, every other key its default.
    let m = &shin["material"];
    assert!(m["angular_damping"].as_f64().unwrap() > 0.0, "{m}");
    assert_eq!(m["friction"], json!(0.8));
    assert_eq!(m["linear_damping"], json!(0.0));
    assert_eq!(m["max_angular_speed"], Value::Null, "no cap");
    assert_eq!(m["min_inertia_kg_m2"], json!(0.0));
    assert_eq!(m["ccd"], json!(false));

    let c = cesium_man();
    let (_, stdout, _) = run(&["inspect", path_str(&c), "--json"]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["bones"].as_array().unwrap().len(), 19);
    assert_eq!(v["bones"][0]["collider"], Value::Null);
}

/// `inspect --json` says what the anatomy layer reads, so detection can be checked from
/// outside: the body plan and facing, each bone's role, side, confidence and evidence (the
/// zoo rat a quadruped facing +Z, its bones named by geometry alone).
#[test]
fn inspect_json_reports_the_anatomy() {
    let (code, stdout, _) = run(&["inspect", path_str(&mannequin()), "--json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["anatomy"]["kind"], json!("biped"));
    assert_eq!(v["anatomy"]["left"], json!([1.0, 0.0, 0.0]));
    let thigh = v["bones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "thigh_l");
    let a = &thigh.expect("thigh_l")["anatomy"];
    assert_eq!(
        (&a["role"], &a["side"]),
        (&json!("thigh"), &json!("left")),
        "{a}"
    );
    assert_eq!(a["evidence"], json!("name_and_geometry"));

    let rat = crate::common::shared_asset("zoo/q_rat.glb");
    let (_, stdout, _) = run(&["inspect", path_str(&rat), "--json"]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["anatomy"]["kind"], json!("quadruped"), "{}", v["anatomy"]);
    let roles: Vec<&str> = v["bones"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["anatomy"]["role"].as_str())
        .collect();
    for role in ["pelvis", "head", "thigh", "tail"] {
        assert!(roles.contains(&role), "{role}: {roles:?}");
    }
}

#[test]
fn inspect_text_lists_bones_then_diagnostics() {
    let m = mannequin();
    let (code, stdout, _) = run(&["inspect", path_str(&m)]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("shin_l") && stdout.contains("hinge axis [1.0, 0.0, 0.0] 0..135 deg"),
        "{stdout}"
    );
    assert!(stdout.contains("0 diagnostics"));
}

#[test]
fn validate_exit_codes() {
    let m = mannequin();
    assert_eq!(run(&["validate", path_str(&m)]).0, 0);
    let (_d, bad) = write_gltf(&gltf_with_nodes(
        json!([{"name": "a", "extras": {"physics": {"collider": "blob"}}}]),
    ));
    let (code, stdout, _) = run(&["validate", path_str(&bad)]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("node 0 'a': collider: unknown collider type 'blob'"),
        "{stdout}"
    );
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.glb");
    std::fs::write(&junk, b"glTF\x02\0\0\0\xff\xff\0\0").unwrap();
    let (code, _, stderr) = run(&["validate", path_str(&junk)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("junk.glb") && stderr.contains("truncated"),
        "{stderr}"
    );
    assert_eq!(run(&["validate", "/no/such/file.glb"]).0, 2);
}

#[test]
fn edit_resolves_dotted_names_and_creates_physics() {
    let nodes = json!([
        {"name": "UpperArm", "children": [1]},
        {"name": "UpperArm.L", "children": [2], "extras": {"physics": {"collider": "capsule"}}},
        {"name": "mixamorig:LeftArm"},
    ]);
    let (dir, src) = write_gltf(&gltf_with_nodes(nodes));
    let out = dir.path().join("out.glb");
    let (code, _, stderr) = run(&[
        "edit",
        path_str(&src),
        "-o",
        path_str(&out),
        "--set",
        "UpperArm.L.mass=4.5",
        "--set",
        "mixamorig:LeftArm.collider=sphere",
        "--set",
        "mixamorig:LeftArm.constraint.type=hinge",
        "--set",
        "mixamorig:LeftArm.constraint.parent_bone=UpperArm.L",
        "--set",
        "node2.constraint.hinge_axis=[1,0,0]",
        "--set",
        "UpperArm.L.collision_mask=world,props",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let doc = ragdoll_tuner::document::Document::open(&out).unwrap();
    assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
    let arm = doc
        .bone(doc.bone_by_name("UpperArm.L").unwrap())
        .physics
        .clone()
        .unwrap();
    assert_eq!(arm.mass, 4.5);
    assert_eq!(arm.collision_mask, "world,props");
    assert!(
        doc.bone_by_name("UpperArm").is_none(),
        "the plain parent node did not become a bone"
    );
    let left = doc
        .bone(doc.bone_by_name("mixamorig:LeftArm").unwrap())
        .physics
        .clone()
        .unwrap();
    assert_eq!(left.collider.unwrap().shape.type_name(), "sphere");
    assert!(matches!(
        left.constraint.unwrap().kind,
        ragdoll_tuner::document::ConstraintKind::Hinge {
            hinge_axis: [1.0, 0.0, 0.0],
            ..
        }
    ));
}

#[test]
fn edit_refuses_typos_unknown_bones_and_new_errors() {
    let m = mannequin();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.glb");
    let (code, _, stderr) = run(&[
        "edit",
        path_str(&m),
        "-o",
        path_str(&out),
        "--set",
        "thigh_l.mas=7",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("unknown key 'mas'") && stderr.contains("thigh_l"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&[
        "edit",
        path_str(&m),
        "-o",
        path_str(&out),
        "--set",
        "tigh_l.mass=7",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no bone named 'tigh_l'"), "{stderr}");
    let (code, _, stderr) = run(&[
        "edit",
        path_str(&m),
        "-o",
        path_str(&out),
        "--set",
        "thigh_l.mass=-7",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("mass") && stderr.contains("greater than 0"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing written on error");
}

/// `simulate --set` (now or at `--branch-at`) runs what it was asked, but an edit that makes
/// the document wrong (here balance feet that are not bones, which the balance then leaves
/// out) is named on stderr with the file and key, as `edit` names it, not left for the user
/// to find in the figures.
/// `simulate`, the benchmarks and the editor's screenshot runs refuse lengths and counts past
/// any use (NaN, 1e12 s, 0 ragdolls) at once, naming the flag: before, some ran for ever.
#[test]
fn absurd_run_lengths_and_counts_are_refused_at_once() {
    let m = mannequin();
    for args in [
        &["--seconds", "1e12"][..],
        &["--seconds", "3601", "--csv", "/dev/null"][..],
    ] {
        let t0 = std::time::Instant::now();
        let (code, stdout, stderr) = run(&[&["simulate", path_str(&m)][..], args].concat());
        assert_ne!(code, 0, "{args:?}: {stdout}");
        assert!(
            stderr.contains("--seconds") && stderr.contains("3600 s"),
            "{args:?}: {stderr}"
        );
        assert!(
            t0.elapsed().as_secs_f64() < 5.0,
            "{args:?}: refused at once"
        );
    }
    // The benchmarks' own numbers likewise (NaN seconds had measured 0.1 s, 0 ragdolls 1).
    for (args, flag) in [
        (
            &["bench", "--seconds-per-case=nan"][..],
            "--seconds-per-case",
        ),
        (
            &["bench", "--seconds-per-case=1e12"][..],
            "--seconds-per-case",
        ),
        (&["bench", "--ragdolls=0"][..], "--ragdolls"),
        (
            &["bench-record", "--seconds-per-case=-1"][..],
            "--seconds-per-case",
        ),
        // The editor's screenshot runs: refused before any window opens.
        (
            &["--sim-seconds=nan", "--screenshot", "x.png"][..],
            "--sim-seconds",
        ),
        (
            &["--sim-seconds=2", "--scrub=1e12", "--screenshot", "x.png"][..],
            "--scrub",
        ),
    ] {
        let (code, _, stderr) = run(args);
        assert_ne!(code, 0, "{args:?}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
}

#[test]
fn simulate_names_the_errors_its_edits_introduce() {
    let m = mannequin();
    let (code, stdout, stderr) = run(&[
        "simulate",
        path_str(&m),
        "--seconds",
        "0.1",
        "--json",
        "--set",
        "@balance.foot_bones=foot_l,fot_r",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("mannequin.glb")
            && stderr.contains("balance.foot_bones")
            && stderr.contains("no bone named 'fot_r'")
            && stderr.contains("introduce 1 error(s)"),
        "{stderr}"
    );
    let r: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(r["balance_bones"]["foot_bones"], json!(["foot_l"]), "{r}");
    let (_, _, clean) = run(&["simulate", path_str(&m), "--seconds", "0.1", "--json"]);
    assert!(!clean.contains("error"), "{clean}");
    // The same edits made at a branch of the run are named as well.
    let (code, _, branched) = run(&[
        "simulate",
        path_str(&m),
        "--seconds",
        "0.2",
        "--branch-at",
        "0.1",
        "--json",
        "--set",
        "@balance.foot_bones=foot_l,fot_r",
    ]);
    assert_eq!(code, 0, "{branched}");
    assert!(
        branched.contains("no bone named 'fot_r'") && branched.contains("introduce 1 error(s)"),
        "{branched}"
    );
}

#[test]
fn edit_writes_gltf_and_glb_and_document_keys() {
    let m = mannequin();
    let dir = tempfile::tempdir().unwrap();
    for name in ["o.gltf", "o.glb"] {
        let out = dir.path().join(name);
        let (code, _, stderr) = run(&[
            "edit",
            path_str(&m),
            "-o",
            path_str(&out),
            "--set",
            "shin_l.constraint.limit_min_deg=-120",
            "--set",
            "thigh_l.mass=7.5",
            "--set",
            "@balance.upright_kp=555",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let doc = ragdoll_tuner::document::Document::open(&out).unwrap();
        assert_eq!(doc.balance.upright_kp, 555.0);
        let thigh = doc
            .bone(doc.bone_by_name("thigh_l").unwrap())
            .physics
            .clone()
            .unwrap();
        assert_eq!(thigh.mass, 7.5);
        assert_eq!(doc.load_geometry().unwrap().primitives.len(), 1);
    }
}
