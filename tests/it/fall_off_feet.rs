//! Falls on the ground: a biped whose back is on the ground has fallen even when its torso is
//! tilted less than 60° and its centre of mass is high (`sim::fall`). A chunky Saxon from a
//! web game's kit, pushed backward at 1.5 m/s, came to rest on the shield on its back at 29°,
//! both feet in the air, its centre of mass at 75% of its rest height; `simulate` said it
//! stood.

use crate::common::{mannequin, path_str, ragdoll_tuner, run_ok};
use serde_json::Value;

/// `simulate --json` of the bundled mannequin at assist 0 with a pack on its back (its upper
/// spine's collider a ball 1.4 m across, 0.6 m behind its spine, 0.5 kg), and `extra`.
fn with_a_pack(extra: &[&str]) -> Value {
    let pack = [
        "spine_upper.collider=sphere",
        "spine_upper.radius=0.7",
        "spine_upper.mass=0.5",
        "spine_upper.offset.translation=[0,0.075,-0.6]",
        "@balance.assist=0",
    ];
    let m = mannequin();
    let mut cmd = ragdoll_tuner();
    cmd.args(["simulate", path_str(&m), "--seconds", "6", "--json"]);
    for s in pack {
        cmd.args(["--set", s]);
    }
    serde_json::from_slice(&run_ok(cmd.args(extra)).stdout).unwrap()
}

/// Pushed backward at 1 m/s, the mannequin lies back on its pack at 44° with its heels on
/// the ground: fallen (before: stood, from 1 to 4 m/s). Standing, it has not.
#[test]
fn lying_back_on_a_pack_is_a_fall() {
    let pushed = with_a_pack(&["--push", "pelvis:0,0,-76.6@1"]);
    assert_eq!(pushed["fell"], true, "{pushed}");
    let tilt = pushed["max_torso_tilt_deg"].as_f64().unwrap();
    assert!(
        tilt < 60.0,
        "tilted {tilt} deg: a fall by tilt, not on the ground"
    );
    let standing = with_a_pack(&[]);
    assert_eq!(standing["fell"], false, "{standing}");
}
