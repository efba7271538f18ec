//! The hip strategy on the real mannequin: off by default (a file that never sets it keeps its
//! bytes through a save), and on it keeps the mannequin up under a sideways push at assist 0
//! that fells it without.

use crate::common::{self, ragdoll_tuner, run_ok};

/// `simulate --json` of the bundled mannequin at assist 0, pushed sideways (0.5 m/s of its
/// 76.9 kg at the pelvis, world +X, at 1 s), with `sets` applied; (fell, fell_at_s).
fn pushed(sets: &[&str]) -> (bool, serde_json::Value) {
    let mut cmd = ragdoll_tuner();
    cmd.arg("simulate")
        .arg(common::mannequin())
        .args(["--seconds", "6", "--set", "@balance.assist=0"])
        .args(["--push", "pelvis:38.45,0,0@1", "--json"]);
    for s in sets {
        cmd.args(["--set", s]);
    }
    let o = run_ok(&mut cmd);
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    (r["fell"] == true, r["fell_at_s"].clone())
}

#[test]
fn the_hip_strategy_keeps_the_mannequin_up_under_a_sideways_push() {
    let (fell_off, at) = pushed(&[]);
    assert!(fell_off, "without the hip strategy the push fells it");
    let (fell_on, at_on) = pushed(&["@balance.hip_kp=15000", "@balance.hip_max_torque=500"]);
    assert!(
        !fell_on,
        "with it on it stands (off: fell at {at}; on: {at_on})"
    );
}

#[test]
fn the_hip_strategy_is_off_and_unwritten_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.glb");
    let doc = common::edited(&common::mannequin(), "@balance.ankle_kp=301", &out);
    assert_eq!(doc.balance.hip_kp, 0.0);
    let json = serde_json::to_string(doc.json()).unwrap();
    assert!(
        !json.contains("hip_"),
        "no hip keys written while it is off"
    );
    let on = dir.path().join("on.glb");
    let doc = common::edited(&out, "@balance.hip_kp=1000", &on);
    assert_eq!(doc.balance.hip_kp, 1000.0);
    assert_eq!(doc.balance.hip_max_torque, 200.0);
}
