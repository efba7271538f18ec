//! Exported files pass the Khronos glTF validator (run through Node.js; `.ci/run` installs it).

use crate::common::*;
use std::path::Path;
use std::process::Command;

fn validator_dir() -> std::path::PathBuf {
    root().join("tools/gltf-validator")
}

/// Installs the pinned validator on first use, so a plain `cargo test` works too.
fn ensure_validator() {
    if validator_dir().join("node_modules/gltf-validator").exists() {
        return;
    }
    let status = Command::new("npm")
        .args(["install", "--silent", "--no-audit", "--no-fund"])
        .current_dir(validator_dir())
        .status()
        .expect("npm is needed to install the Khronos glTF validator (tools/gltf-validator)");
    assert!(status.success(), "npm install of the glTF validator failed");
}

pub(crate) fn validate(file: &Path) -> serde_json::Value {
    let report = report(file);
    assert_eq!(report["errors"], 0, "{}: {report}", file.display());
    report
}

/// The validator's report (`errors`, `warnings`, `messages`), whatever it finds.
fn report(file: &Path) -> serde_json::Value {
    ensure_validator();
    let out = Command::new("node")
        .arg(validator_dir().join("validate.mjs"))
        .arg(file)
        .output()
        .expect("node is needed to run the Khronos glTF validator");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("validator output: {}", String::from_utf8_lossy(&out.stderr)));
    report
}

/// Every character of `../shared/assets` (the zoo included), generated and saved by the schema
/// codec, gets no validator error its source did not have.
#[test]
fn every_generated_character_has_no_new_validator_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (i, src) in characters().into_iter().enumerate() {
        let out = dir.path().join(format!("{i}.glb"));
        crate::codec::generated(&src).write_to(&out).expect("write");
        let (before, after) = (report(&src), report(&out));
        let errors = |r: &serde_json::Value| r["errors"].as_u64().expect("a count");
        assert!(
            errors(&after) <= errors(&before),
            "{}: {} errors, the source had {}: {after}",
            src.display(),
            errors(&after),
            errors(&before)
        );
    }
}

#[test]
fn exported_glbs_pass_the_khronos_validator() {
    let dir = tempfile::tempdir().unwrap();
    let fox = dir.path().join("fox.glb");
    let (code, _, stderr) = {
        let o = ragdoll_tuner()
            .args([
                "edit",
                path_str(&fox_gltf()),
                "-o",
                path_str(&fox),
                "--set",
                "b_Hip_01.collider=box",
            ])
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!(code, Some(0), "{stderr}");
    validate(&fox);
    let report = validate(&mannequin());
    assert_eq!(report["warnings"], 0, "{report}");
    let edited = dir.path().join("m.glb");
    let o = ragdoll_tuner()
        .args([
            "edit",
            path_str(&mannequin()),
            "-o",
            path_str(&edited),
            "--set",
            "shin_l.constraint.limit_min_deg=-10",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    validate(&edited);
}
