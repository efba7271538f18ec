//! The asymmetric limit forms in the schema: both forms parse, every malformed value is an
//! error naming node and key, and `edit --set` takes both.

use super::diagnostics::{diags_on, doc_of, physics_node, spine};
use crate::common::*;
use ragdoll_tuner::document::*;
use serde_json::{json, Value};

fn ball(limits: Value) -> Value {
    let mut c = json!({"type": "ball_socket", "parent_bone": "spine_upper"});
    for (k, v) in limits.as_object().cloned().unwrap_or_default() {
        c[k] = v;
    }
    json!({"collider": "capsule", "constraint": c})
}

/// The asymmetric forms parse into the typed schema; numbers keep meaning what they meant.
#[test]
fn asymmetric_swing_and_twist_forms_parse() {
    let doc = doc_of(json!([
        spine(),
        physics_node(
            "hip",
            ball(json!({
                "swing_limit_deg": {"pos_y": 120, "neg_y": 15, "pos_z": 45, "neg_z": 30},
                "twist_limit_deg": [-30, 45],
                "swing_y_axis": [0, 0, 2]
            }))
        ),
        physics_node(
            "old",
            ball(json!({"swing_limit_deg": 70, "twist_limit_deg": 40}))
        ),
        physics_node(
            "hip_v2",
            ball(json!({
                "swing_limit_deg": 120,
                "swing_extents_deg": {"pos_y": 120, "neg_y": 15, "pos_z": 45, "neg_z": 30},
                "twist_limit_deg": 45,
                "twist_range_deg": [-30, 45],
                "swing_y_axis": [0, 0, 2]
            }))
        ),
    ]));
    // The objects inside the seed's keys are version 1's form: read, with a note on each.
    let notes: Vec<&str> = doc.diagnostics.iter().map(|d| d.key.as_str()).collect();
    assert_eq!(
        notes,
        ["constraint.swing_limit_deg", "constraint.twist_limit_deg"],
        "{:?}",
        doc.diagnostics
    );
    assert!(doc
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Warning && d.bone == "hip"));
    assert_eq!(joint_kind(&doc, "hip_v2"), joint_kind(&doc, "hip"));
    let kind = |n: &str| joint_kind(&doc, n);
    assert_eq!(
        kind("hip"),
        ConstraintKind::BallSocket {
            swing_limit_deg: SwingExtentsDeg {
                pos_y: 120.0,
                neg_y: 15.0,
                pos_z: 45.0,
                neg_z: 30.0
            },
            twist_limit_deg: TwistRangeDeg {
                min_deg: -30.0,
                max_deg: 45.0
            },
            swing_y_axis: Some([0.0, 0.0, 2.0]),
        }
    );
    assert_eq!(
        kind("old"),
        ConstraintKind::BallSocket {
            swing_limit_deg: SwingExtentsDeg::circular(70.0),
            twist_limit_deg: TwistRangeDeg::symmetric(40.0),
            swing_y_axis: None,
        }
    );
}

/// Every malformed limit is an error naming the node and key, and the default is used.
#[test]
fn malformed_asymmetric_limits_are_named() {
    let cases = [
        (
            json!({"swing_limit_deg": "wide"}),
            "constraint.swing_limit_deg",
        ),
        (
            json!({"swing_limit_deg": {"pos_y": 120, "neg_y": 15, "pos_z": 45}}),
            "constraint.swing_limit_deg.neg_z",
        ),
        (
            json!({"swing_limit_deg": {"pos_y": 176, "neg_y": 15, "pos_z": 45, "neg_z": 30}}),
            "constraint.swing_limit_deg.pos_y",
        ),
        (
            json!({"swing_limit_deg": {"pos_y": -1, "neg_y": 15, "pos_z": 45, "neg_z": 30}}),
            "constraint.swing_limit_deg.pos_y",
        ),
        (
            json!({"swing_limit_deg": {"pos_y": "a", "neg_y": 15, "pos_z": 45, "neg_z": 30}}),
            "constraint.swing_limit_deg.pos_y",
        ),
        (
            json!({"twist_limit_deg": [45, -30]}),
            "constraint.twist_limit_deg",
        ),
        (
            json!({"twist_limit_deg": [-190, 30]}),
            "constraint.twist_limit_deg",
        ),
        (
            json!({"twist_limit_deg": [1, 2, 3]}),
            "constraint.twist_limit_deg",
        ),
        (
            json!({"twist_limit_deg": {"min": 1}}),
            "constraint.twist_limit_deg",
        ),
        (
            json!({"swing_y_axis": [0, 0, 0]}),
            "constraint.swing_y_axis",
        ),
        (json!({"swing_y_axis": [0, 1]}), "constraint.swing_y_axis"),
        // The exact keys of version 2 are checked the same way.
        (
            json!({"swing_extents_deg": {"pos_y": 120, "neg_y": 15, "pos_z": 45}}),
            "constraint.swing_extents_deg.neg_z",
        ),
        (
            json!({"swing_extents_deg": {"pos_y": 176, "neg_y": 15, "pos_z": 45, "neg_z": 30}}),
            "constraint.swing_extents_deg.pos_y",
        ),
        (
            json!({"swing_extents_deg": 40}),
            "constraint.swing_extents_deg",
        ),
        (
            json!({"twist_range_deg": [45, -30]}),
            "constraint.twist_range_deg",
        ),
        (json!({"twist_range_deg": 30}), "constraint.twist_range_deg"),
        (
            json!({"swing_limit_deg": {"pos_y": 1}, "swing_extents_deg": "wide"}),
            "constraint.swing_extents_deg",
        ),
        // The capsule's primary axis is +Y when the bone has no child: a Y axis along it.
        (
            json!({"swing_y_axis": [0, 3, 0]}),
            "constraint.swing_y_axis",
        ),
    ];
    for (limits, key) in cases {
        let doc = doc_of(json!([spine(), physics_node("j", ball(limits.clone()))]));
        let d = diags_on(&doc, "j");
        assert!(
            d.iter()
                .any(|d| d.key == key && d.severity == Severity::Error),
            "{limits}: expected an error on {key}, got {d:?}"
        );
    }
    // A non-finite extent (the arbitrary-precision JSON can spell one) is refused too.
    let text = r#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1]}],"nodes":[
        {"name":"spine_upper","extras":{"physics":{"collider":"sphere"}}},
        {"name":"j","extras":{"physics":{"collider":"capsule","constraint":{"type":"ball_socket",
         "parent_bone":"spine_upper","swing_limit_deg":{"pos_y":1e999,"neg_y":15,"pos_z":45,"neg_z":30}}}}}]}"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nan.gltf");
    std::fs::write(&path, text).unwrap();
    let doc = Document::open(&path).unwrap();
    assert!(
        diags_on(&doc, "j")
            .iter()
            .any(|d| d.key == "constraint.swing_limit_deg.pos_y"),
        "{:?}",
        doc.diagnostics
    );
}

/// `edit --set` takes both forms, and the saved file reads back as written.
#[test]
fn edit_sets_asymmetric_limits_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.glb");
    let st = ragdoll_tuner()
        .args([
            "edit",
            path_str(&mannequin()),
            "-o",
            path_str(&out),
            "--set",
            r#"thigh_l.constraint.swing_limit_deg={"pos_y":100,"neg_y":10,"pos_z":40,"neg_z":25}"#,
            "--set",
            "thigh_l.constraint.twist_limit_deg=[-30,45]",
            "--set",
            "thigh_r.constraint.swing_limit_deg=60",
        ])
        .status()
        .unwrap();
    assert!(st.success());
    let doc = Document::open(&out).unwrap();
    let kind = |n: &str| joint_kind(&doc, n);
    let ConstraintKind::BallSocket {
        swing_limit_deg,
        twist_limit_deg,
        ..
    } = kind("thigh_l")
    else {
        panic!("ball socket")
    };
    assert_eq!(swing_limit_deg.to_array(), [100.0, 10.0, 40.0, 25.0]);
    assert_eq!(
        (twist_limit_deg.min_deg, twist_limit_deg.max_deg),
        (-30.0, 45.0)
    );
    let ConstraintKind::BallSocket {
        swing_limit_deg, ..
    } = kind("thigh_r")
    else {
        panic!("ball socket")
    };
    assert_eq!(swing_limit_deg.as_circular(), Some(60.0));
    // The old forms were written in the new one: the seed's keys hold numbers.
    let c = |n: &str| {
        let id = doc.bone_by_name(n).unwrap();
        doc.physics_json(id).unwrap()["constraint"].clone()
    };
    assert_eq!(c("thigh_l")["swing_limit_deg"], json!(100.0));
    assert_eq!(c("thigh_l")["swing_extents_deg"]["neg_y"], json!(10.0));
    assert_eq!(c("thigh_l")["twist_limit_deg"], json!(45.0));
    assert_eq!(c("thigh_l")["twist_range_deg"], json!([-30.0, 45.0]));
    assert_eq!(c("thigh_r")["swing_limit_deg"], json!(60));
    assert!(
        c("thigh_r").get("swing_extents_deg").is_none(),
        "the number is the whole limit"
    );
}
