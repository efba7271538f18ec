//! Every key and default of the seed schema, and every diagnostic the foundation promises.

use crate::common::*;
use ragdoll_tuner::document::*;
use serde_json::{json, Value};

/// Opens a document made of `nodes` (each `{name, extras?, children?}`).
pub(crate) fn doc_of(nodes: Value) -> Document {
    let (_dir, path) = write_gltf(&gltf_with_nodes(nodes));
    Document::open(&path).unwrap()
}

pub(crate) fn physics_node(name: &str, physics: Value) -> Value {
    json!({"name": name, "extras": {"physics": physics}})
}

/// The diagnostics on the node with `name`.
pub(crate) fn diags_on<'a>(doc: &'a Document, name: &str) -> Vec<&'a Diagnostic> {
    let node = doc.bone(doc.bone_by_name(name).unwrap()).node;
    doc.diagnostics
        .iter()
        .filter(|d| d.node == Some(node))
        .collect()
}

fn has(doc: &Document, name: &str, severity: Severity, key: &str, text: &str) -> bool {
    diags_on(doc, name)
        .iter()
        .any(|d| d.severity == severity && d.key == key && d.message.contains(text))
}

fn seed_shoulder() -> Value {
    json!({
        "collider": "capsule", "radius": 0.06, "half_height": 0.14, "mass": 2.5,
        "constraint": {"type": "ball_socket", "swing_limit_deg": 80, "twist_limit_deg": 45, "parent_bone": "spine_upper"},
        "collision_group": "arm", "collision_mask": "world,props"
    })
}

pub(crate) fn spine() -> Value {
    physics_node("spine_upper", json!({"collider": "sphere", "radius": 0.1}))
}

#[test]
fn seed_example_parses_exactly() {
    let doc = doc_of(json!([
        spine(),
        physics_node("shoulder", seed_shoulder()),
        physics_node("thigh", json!({"collider": "capsule"})),
        physics_node(
            "knee",
            json!({
                "collider": "capsule", "radius": 0.055, "half_height": 0.20, "mass": 3.0,
                "constraint": {"type": "hinge", "hinge_axis": [0, 0, 1], "limit_min_deg": -140, "limit_max_deg": 0, "parent_bone": "thigh"},
                "collision_group": "leg", "collision_mask": "world,props"
            })
        ),
    ]));
    assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
    let p = doc
        .bone(doc.bone_by_name("shoulder").unwrap())
        .physics
        .clone()
        .unwrap();
    assert_eq!(
        p.collider.unwrap().shape,
        ColliderShape::Capsule {
            radius: 0.06,
            half_height: 0.14
        }
    );
    assert_eq!(p.mass, 2.5);
    assert_eq!(
        (p.collision_group.as_str(), p.collision_mask.as_str()),
        ("arm", "world,props")
    );
    let c = p.constraint.unwrap();
    assert_eq!(
        c.kind,
        ConstraintKind::BallSocket {
            swing_limit_deg: SwingExtentsDeg::circular(80.0),
            twist_limit_deg: TwistRangeDeg::symmetric(45.0),
            swing_y_axis: None,
        }
    );
    assert_eq!(c.parent_bone.as_deref(), Some("spine_upper"));
    let k = doc
        .bone(doc.bone_by_name("knee").unwrap())
        .physics
        .clone()
        .unwrap()
        .constraint
        .unwrap();
    assert_eq!(
        k.kind,
        ConstraintKind::Hinge {
            hinge_axis: [0.0, 0.0, 1.0],
            limit_min_deg: -140.0,
            limit_max_deg: 0.0
        }
    );
}

#[test]
fn missing_keys_take_the_seed_defaults() {
    let doc = doc_of(json!([
        spine(),
        physics_node(
            "a",
            json!({"collider": "capsule", "constraint": {"type": "ball_socket", "parent_bone": "spine_upper"}})
        ),
        physics_node(
            "b",
            json!({"collider": "box", "constraint": {"type": "hinge", "parent_bone": "spine_upper"}})
        ),
    ]));
    assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
    let a = doc
        .bone(doc.bone_by_name("a").unwrap())
        .physics
        .clone()
        .unwrap();
    assert_eq!(
        a.collider.unwrap().shape,
        ColliderShape::Capsule {
            radius: fields::Key::Radius.default_num(),
            half_height: fields::Key::HalfHeight.default_num()
        }
    );
    assert_eq!(a.mass, fields::Key::Mass.default_num());
    assert_eq!(a.collision_group, "default");
    assert_eq!(a.collision_mask, "all");
    assert_eq!(
        a.constraint.unwrap().kind,
        ConstraintKind::BallSocket {
            swing_limit_deg: SwingExtentsDeg::circular(180.0),
            twist_limit_deg: TwistRangeDeg::symmetric(180.0),
            swing_y_axis: None,
        }
    );
    assert_eq!(a.drive, Some(Drive::default()));
    let b = doc
        .bone(doc.bone_by_name("b").unwrap())
        .physics
        .clone()
        .unwrap();
    assert_eq!(
        b.collider.unwrap().shape,
        ColliderShape::Box {
            half_extents: [0.1, 0.1, 0.1]
        }
    );
    assert_eq!(
        b.constraint.unwrap().kind,
        ConstraintKind::Hinge {
            hinge_axis: [0.0, 0.0, 1.0],
            limit_min_deg: -180.0,
            limit_max_deg: 180.0
        }
    );
}

#[test]
fn unknown_collider_and_constraint_types() {
    let doc = doc_of(json!([
        spine(),
        physics_node(
            "a",
            json!({"collider": "cylinder", "constraint": {"type": "slider", "parent_bone": "spine_upper"}})
        ),
    ]));
    assert!(has(
        &doc,
        "a",
        Severity::Error,
        "collider",
        "unknown collider type 'cylinder'"
    ));
    assert!(has(
        &doc,
        "a",
        Severity::Error,
        "constraint.type",
        "unknown constraint type 'slider'"
    ));
    assert!(doc.bone(doc.bone_by_name("a").unwrap()).has_problems);
    assert!(
        !doc.bone(doc.bone_by_name("spine_upper").unwrap())
            .has_problems
    );
}

#[test]
fn parent_bone_missing_unknown_self_and_cycle() {
    let ball = |parent: Option<&str>| {
        let mut c = json!({"type": "ball_socket"});
        if let Some(p) = parent {
            c["parent_bone"] = json!(p);
        }
        json!({"collider": "sphere", "constraint": c})
    };
    let doc = doc_of(json!([
        {"name": "root", "children": [1], "extras": {"physics": {"collider": "sphere"}}},
        physics_node("defaulted", ball(None)),
        physics_node("orphan", ball(None)),
        physics_node("ghost", ball(Some("nobody"))),
        physics_node("selfish", ball(Some("selfish"))),
        physics_node("x", ball(Some("y"))),
        physics_node("y", ball(Some("x"))),
    ]));
    assert!(has(
        &doc,
        "defaulted",
        Severity::Warning,
        "constraint.parent_bone",
        "using 'root'"
    ));
    let c = doc
        .bone(doc.bone_by_name("defaulted").unwrap())
        .physics
        .clone()
        .unwrap()
        .constraint
        .unwrap();
    assert_eq!(c.parent_bone.as_deref(), Some("root"));
    assert!(has(
        &doc,
        "orphan",
        Severity::Error,
        "constraint.parent_bone",
        "missing"
    ));
    assert!(has(
        &doc,
        "ghost",
        Severity::Error,
        "constraint.parent_bone",
        "no bone named 'nobody'"
    ));
    assert!(has(
        &doc,
        "selfish",
        Severity::Error,
        "constraint.parent_bone",
        "names the bone itself"
    ));
    assert!(has(
        &doc,
        "x",
        Severity::Error,
        "constraint.parent_bone",
        "cycle"
    ));
    assert!(has(
        &doc,
        "y",
        Severity::Error,
        "constraint.parent_bone",
        "cycle"
    ));
}

#[test]
fn wrong_json_types_are_errors_naming_the_key() {
    let doc = doc_of(json!([
        spine(),
        physics_node(
            "a",
            json!({
                "collider": "capsule", "radius": "0.05", "mass": [1], "collision_group": 3,
                "constraint": {"type": "hinge", "parent_bone": "spine_upper", "limit_min_deg": "low", "hinge_axis": "x"},
                "drive": {"stiffness": true}
            })
        ),
        physics_node("b", json!({"collider": 7, "constraint": "hinge"})),
        physics_node("c", json!("not an object")),
    ]));
    for key in [
        "radius",
        "mass",
        "collision_group",
        "constraint.limit_min_deg",
        "constraint.hinge_axis",
        "drive.stiffness",
    ] {
        assert!(
            diags_on(&doc, "a")
                .iter()
                .any(|d| d.key == key && d.severity == Severity::Error),
            "{key}: {:?}",
            doc.diagnostics
        );
    }
    assert!(has(
        &doc,
        "a",
        Severity::Error,
        "radius",
        "expected a number, found a string"
    ));
    assert!(has(
        &doc,
        "b",
        Severity::Error,
        "collider",
        "expected a string"
    ));
    assert!(has(
        &doc,
        "b",
        Severity::Error,
        "constraint",
        "expected an object"
    ));
    assert!(has(
        &doc,
        "c",
        Severity::Error,
        "physics",
        "expected an object"
    ));
}

#[test]
fn out_of_range_and_non_finite_numbers() {
    let hinge = |min: f64, max: f64| json!({"type": "hinge", "parent_bone": "spine_upper", "limit_min_deg": min, "limit_max_deg": max});
    let doc = doc_of(json!([
        spine(),
        physics_node("zero_r", json!({"collider": "sphere", "radius": 0.0})),
        physics_node("neg_r", json!({"collider": "capsule", "radius": -1})),
        physics_node("zero_m", json!({"collider": "sphere", "mass": 0})),
        physics_node("neg_m", json!({"collider": "sphere", "mass": -3})),
        physics_node(
            "huge",
            serde_json::from_str::<Value>(r#"{"collider": "sphere", "radius": 1e400}"#).unwrap()
        ),
        physics_node(
            "minmax",
            json!({"collider": "sphere", "constraint": hinge(10.0, -10.0)})
        ),
        physics_node(
            "swing",
            json!({"collider": "sphere", "constraint": {"type": "ball_socket", "parent_bone": "spine_upper", "swing_limit_deg": 200, "twist_limit_deg": -5}})
        ),
        physics_node(
            "box",
            json!({"collider": "box", "half_extents": [0.1, 0, 0.1]})
        ),
    ]));
    assert!(has(
        &doc,
        "zero_r",
        Severity::Error,
        "radius",
        "greater than 0"
    ));
    assert!(has(
        &doc,
        "neg_r",
        Severity::Error,
        "radius",
        "greater than 0"
    ));
    assert!(has(
        &doc,
        "zero_m",
        Severity::Error,
        "mass",
        "greater than 0"
    ));
    assert!(has(
        &doc,
        "neg_m",
        Severity::Error,
        "mass",
        "greater than 0"
    ));
    assert!(has(
        &doc,
        "huge",
        Severity::Error,
        "radius",
        "not a finite number"
    ));
    assert!(has(
        &doc,
        "minmax",
        Severity::Error,
        "constraint.limit_min_deg",
        "greater than limit_max_deg"
    ));
    assert!(has(
        &doc,
        "swing",
        Severity::Error,
        "constraint.swing_limit_deg",
        "0..180"
    ));
    assert!(has(
        &doc,
        "swing",
        Severity::Error,
        "constraint.twist_limit_deg",
        "0..180"
    ));
    assert!(has(
        &doc,
        "box",
        Severity::Error,
        "half_extents",
        "greater than 0"
    ));
}

#[test]
fn malformed_or_zero_hinge_axis() {
    let hinge = |axis: Value| json!({"collider": "sphere", "constraint": {"type": "hinge", "parent_bone": "spine_upper", "hinge_axis": axis}});
    let doc = doc_of(json!([
        spine(),
        physics_node("zero", hinge(json!([0, 0, 0]))),
        physics_node("short", hinge(json!([1, 0]))),
        physics_node("text", hinge(json!(["a", 0, 0]))),
    ]));
    assert!(has(
        &doc,
        "zero",
        Severity::Error,
        "constraint.hinge_axis",
        "zero-length"
    ));
    assert!(has(
        &doc,
        "short",
        Severity::Error,
        "constraint.hinge_axis",
        "array of 3"
    ));
    assert!(has(
        &doc,
        "text",
        Severity::Error,
        "constraint.hinge_axis",
        "array of 3"
    ));
}

#[test]
fn constraint_without_colliders() {
    let doc = doc_of(json!([
        physics_node("bare_parent", json!({"mass": 2})),
        physics_node(
            "no_self",
            json!({"constraint": {"type": "ball_socket", "parent_bone": "bare_parent"}})
        ),
        physics_node(
            "with",
            json!({"collider": "sphere", "constraint": {"type": "ball_socket", "parent_bone": "bare_parent"}})
        ),
    ]));
    assert!(has(
        &doc,
        "no_self",
        Severity::Error,
        "collider",
        "needs a collider on this bone"
    ));
    assert!(has(
        &doc,
        "no_self",
        Severity::Error,
        "constraint.parent_bone",
        "has no collider"
    ));
    assert!(has(
        &doc,
        "with",
        Severity::Error,
        "constraint.parent_bone",
        "has no collider"
    ));
}

#[test]
fn unknown_keys_warn_and_unnamed_nodes_get_display_names() {
    let doc = doc_of(json!([
        {"extras": {"physics": {"collider": "sphere", "mas": 3, "vendor_key": {"a": 1}}}},
    ]));
    let id = doc
        .bone_by_name("node0")
        .expect("unnamed node is addressable as node0");
    assert_eq!(doc.bone(id).name, "node0");
    assert!(has(&doc, "node0", Severity::Warning, "mas", "unknown key"));
    assert!(!has_errors(&doc.diagnostics));
}

#[test]
fn document_level_balance_settings() {
    let mut gltf = gltf_with_nodes(json!([
        spine(),
        physics_node("foot_l", json!({"collider": "sphere"}))
    ]));
    gltf["extras"] = json!({"physics": {"balance": {"torso_bone": "spine_upper", "pelvis_bone": "spine_upper", "foot_bones": "foot_l,foot_x", "upright_kp": 123, "ankle_kd": "x"}}});
    let (_dir, path) = write_gltf(&gltf);
    let doc = Document::open(&path).unwrap();
    assert_eq!(doc.balance.upright_kp, 123.0);
    assert_eq!(
        doc.balance.foot_bones,
        Some(vec!["foot_l".to_string(), "foot_x".to_string()])
    );
    let on = |key: &str| {
        doc.diagnostics
            .iter()
            .any(|d| d.node.is_none() && d.key == key && d.severity == Severity::Error)
    };
    assert!(on("balance.foot_bones"), "{:?}", doc.diagnostics);
    assert!(on("balance.ankle_kd"));
    assert!(!on("balance.torso_bone"));
}
