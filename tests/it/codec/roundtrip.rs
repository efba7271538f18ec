//! Round trips, proven over generated inputs: the writer is the exact inverse of the reader;
//! undo and redo of any sequence of edits give back exact bytes; save, open, save is
//! byte-identical; invalid values and corruptions are refused naming node and key, and a
//! refused edit leaves the file on disk untouched.

use super::generated;
use crate::common::*;
use proptest::prelude::*;
use ragdoll_tuner::document::fields::{Key, FIELDS};
use ragdoll_tuner::document::parse::anatomy::read_anatomy;
use ragdoll_tuner::document::parse::{read_balance, read_bone_physics};
use ragdoll_tuner::document::*;
use ragdoll_tuner::mirror::{self, Direction};
use serde_json::{json, Value};

fn finite(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    lo..hi
}

fn vec3(lo: f64, hi: f64) -> impl Strategy<Value = [f64; 3]> {
    [finite(lo, hi), finite(lo, hi), finite(lo, hi)]
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z][a-zA-Z0-9_.:]{0,12}"
}

fn shape() -> impl Strategy<Value = ColliderShape> {
    prop_oneof![
        (finite(1e-4, 10.0), finite(0.0, 10.0)).prop_map(|(radius, half_height)| {
            ColliderShape::Capsule {
                radius,
                half_height,
            }
        }),
        finite(1e-4, 10.0).prop_map(|radius| ColliderShape::Sphere { radius }),
        vec3(1e-4, 10.0).prop_map(|half_extents| ColliderShape::Box { half_extents }),
    ]
}

fn collider() -> impl Strategy<Value = Collider> {
    let quat = [
        finite(-1.0, 1.0),
        finite(-1.0, 1.0),
        finite(-1.0, 1.0),
        finite(0.1, 1.0),
    ];
    (
        shape(),
        proptest::option::of(vec3(-5.0, 5.0)),
        proptest::option::of(quat),
    )
        .prop_map(|(shape, translation, rotation)| Collider {
            shape,
            offset: ColliderOffset {
                translation,
                rotation,
            },
        })
}

fn kind() -> impl Strategy<Value = ConstraintKind> {
    let extents = prop_oneof![
        finite(0.0, 180.0).prop_map(SwingExtentsDeg::circular),
        [
            finite(0.0, 175.0),
            finite(0.0, 175.0),
            finite(0.0, 175.0),
            finite(0.0, 175.0)
        ]
        .prop_map(SwingExtentsDeg::from_array),
    ];
    let twist = prop_oneof![
        finite(0.0, 180.0).prop_map(TwistRangeDeg::symmetric),
        (finite(-180.0, 180.0), finite(-180.0, 180.0)).prop_map(|(a, b)| TwistRangeDeg {
            min_deg: a.min(b),
            max_deg: a.max(b)
        }),
    ];
    let axis = || vec3(0.1, 1.0);
    prop_oneof![
        (extents, twist, proptest::option::of(axis())).prop_map(|(s, t, y)| {
            ConstraintKind::BallSocket {
                swing_limit_deg: s,
                twist_limit_deg: t,
                swing_y_axis: y,
            }
        }),
        (axis(), finite(-180.0, 180.0), finite(-180.0, 180.0)).prop_map(|(a, x, y)| {
            ConstraintKind::Hinge {
                hinge_axis: a,
                limit_min_deg: x.min(y),
                limit_max_deg: x.max(y),
            }
        }),
    ]
}

fn drive() -> impl Strategy<Value = Drive> {
    [
        finite(0.0, 1e5),
        finite(0.0, 1e4),
        finite(0.0, 1e5),
        finite(0.0, 100.0),
    ]
    .prop_map(|[stiffness, damping, max_torque, follow_strength]| Drive {
        stiffness,
        damping,
        max_torque,
        follow_strength,
    })
}

/// Material and damping: each part set or left to the default.
fn material() -> impl Strategy<Value = BodyMaterial> {
    let opt = |lo: f64, hi: f64| proptest::option::of(finite(lo, hi));
    (
        [
            opt(0.0, 10.0),
            opt(0.0, 1.0),
            opt(0.0, 100.0),
            opt(0.0, 100.0),
        ],
        [
            proptest::option::of(finite(1e-3, 1e4)),
            proptest::option::of(finite(1e-6, 1e3)),
        ],
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|([f, r, l, a], [max, inertia], ccd)| BodyMaterial {
            friction: f,
            restitution: r,
            linear_damping: l,
            angular_damping: a,
            max_angular_speed: max,
            min_inertia_kg_m2: inertia,
            ccd,
        })
}

/// Explicit pairs with distinct bone names.
fn pairs() -> impl Strategy<Value = Vec<CollisionPair>> {
    proptest::collection::btree_map(name(), any::<bool>(), 0..4).prop_map(|m| {
        m.into_iter()
            .map(|(other, collide)| CollisionPair { other, collide })
            .collect()
    })
}

fn physics() -> impl Strategy<Value = BonePhysics> {
    (
        proptest::option::of(collider()),
        finite(1e-3, 1e4),
        proptest::option::of((
            kind(),
            name(),
            drive(),
            prop_oneof![Just(0.0), finite(0.0, 1e3)],
        )),
        (name(), name()),
        (material(), pairs()),
    )
        .prop_map(
            |(collider, mass, joint, (group, mask), (material, collision_pairs))| {
                let (constraint, drive) = match joint {
                    Some((kind, parent, d, friction_torque_nm)) => (
                        Some(Constraint {
                            kind,
                            parent_bone: Some(parent),
                            parent_defaulted: false,
                            friction_torque_nm,
                        }),
                        Some(d),
                    ),
                    None => (None, None),
                };
                BonePhysics {
                    collider,
                    mass,
                    constraint,
                    drive,
                    collision_group: group,
                    collision_mask: mask,
                    material,
                    collision_pairs,
                }
            },
        )
}

fn balance() -> impl Strategy<Value = BalanceSettings> {
    let names = proptest::collection::vec(name(), 0..4);
    (
        (any::<bool>(), finite(0.0, 1.0)),
        proptest::option::of(name()),
        proptest::option::of(name()),
        proptest::option::of(names),
        [finite(0.0, 1e5), finite(0.0, 1e5), finite(0.0, 1e5)],
        [finite(0.0, 1e5), finite(0.0, 1e5), finite(0.0, 1e5)],
        // The hip strategy: off (its defaults, not written) or on.
        proptest::option::of([finite(0.0, 1e5), finite(0.0, 1e5)]),
        // The stepping strategy: the same.
        proptest::option::of([finite(0.0, 10.0), finite(0.0, 1.0), finite(0.0, 2.0)]),
        // Where steps land: the default (not written) or set.
        proptest::option::of(finite(0.0, 1.0)),
        // The knock-out: never (not written) or set.
        proptest::option::of(finite(0.0, 10.0)),
    )
        .prop_map(
            |((enabled, assist), torso, pelvis, feet, u, a, hip, step, land, knock)| {
                BalanceSettings {
                    enabled,
                    assist,
                    torso_bone: torso,
                    pelvis_bone: pelvis,
                    foot_bones: feet,
                    upright_kp: u[0],
                    upright_kd: u[1],
                    upright_max_torque: u[2],
                    ankle_kp: a[0],
                    ankle_kd: a[1],
                    ankle_max_torque: a[2],
                    hip_kp: hip.map_or(0.0, |h| h[0]),
                    hip_max_torque: hip.map_or(200.0, |h| h[1]),
                    step_gain: step.map_or(0.0, |h| h[0]),
                    step_margin: step.map_or(0.05, |h| h[1]),
                    step_catch_dv: step.map_or(0.0, |h| h[2]),
                    step_rest_stance: land.unwrap_or(0.0),
                    knockout_dv: knock.unwrap_or(0.0),
                }
            },
        )
}

fn manual_anatomy() -> impl Strategy<Value = ManualAnatomy> {
    use ragdoll_tuner::anatomy::{Kind, Role, Side};
    let sides = [None, Some(Side::Left), Some(Side::Right)];
    let role = (0..Role::ALL.len(), 0..3usize).prop_map(move |(r, s)| RoleAssignment {
        role: Role::ALL[r],
        side: sides[s],
    });
    (
        proptest::option::of(0..Kind::ALL.len()),
        proptest::collection::vec((name(), role), 0..6),
    )
        .prop_map(|(kind, list)| {
            let mut roles: Vec<(String, RoleAssignment)> = Vec::new();
            for (bone, a) in list {
                if !roles.iter().any(|(b, _)| *b == bone) {
                    roles.push((bone, a));
                }
            }
            ManualAnatomy {
                kind: kind.map(|k| Kind::ALL[k]),
                roles,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The manual anatomy (the root's `anatomy`): `parse(write(x)) == x`, no diagnostic; an
    /// empty one writes nothing.
    #[test]
    fn the_anatomy_writer_is_the_readers_exact_inverse(m in manual_anatomy()) {
        match write::anatomy(&m) {
            Some(v) => {
                let (back, diags) = read_anatomy(&v);
                prop_assert!(diags.is_empty(), "{diags:?} for {v}");
                prop_assert_eq!(back, m);
            }
            None => prop_assert!(m.is_empty()),
        }
    }

    /// `parse(write(x)) == x` for any valid physics, with no diagnostic; the seed's keys are
    /// numbers in what is written.
    #[test]
    fn the_writer_is_the_readers_exact_inverse(p in physics(), b in balance()) {
        let v = write::bone_physics(&p);
        let (back, diags) = read_bone_physics(&v, 3, "bone");
        prop_assert!(diags.is_empty(), "{diags:?} for {v}");
        prop_assert_eq!(back, p);
        for k in ["swing_limit_deg", "twist_limit_deg"] {
            prop_assert!(v["constraint"].get(k).is_none_or(Value::is_number));
        }
        let (back, diags) = read_balance(&write::balance(&b));
        prop_assert!(diags.is_empty(), "{diags:?}");
        prop_assert_eq!(back, b);
    }
}

/// The document's JSON as bytes.
fn bytes(doc: &Document) -> Vec<u8> {
    serde_json::to_vec(doc.json()).expect("JSON")
}

/// One random edit on the mannequin: a table key set to a valid value or removed, a group of
/// them, a side mirrored, or a preset.
#[derive(Debug, Clone)]
enum Op {
    Set(usize, usize, f64),
    Remove(usize, usize),
    Group(Vec<(usize, usize, f64)>),
    Mirror(bool),
    Preset(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let set = (0..64usize, 0..64usize, 0.0..1.0f64);
    prop_oneof![
        4 => set.clone().prop_map(|(b, k, x)| Op::Set(b, k, x)),
        2 => (0..64usize, 0..64usize).prop_map(|(b, k)| Op::Remove(b, k)),
        2 => proptest::collection::vec(set, 1..5).prop_map(Op::Group),
        1 => any::<bool>().prop_map(Op::Mirror),
        1 => (0..64usize).prop_map(Op::Preset),
    ]
}

/// A valid value for key `k` drawn from `x` in [0, 1).
fn value_for(k: Key, x: f64) -> Option<Value> {
    let lerp = |lo: f64, hi: f64| lo + (hi - lo) * x;
    Some(match k {
        Key::SwingExtents => write::swing_extents(&SwingExtentsDeg::from_array([
            lerp(0.0, 175.0),
            lerp(10.0, 90.0),
            lerp(175.0, 0.0),
            30.0,
        ])),
        Key::TwistRange => json!([lerp(-90.0, 0.0), lerp(0.0, 60.0)]),
        Key::SwingLimit | Key::TwistLimit => json!(lerp(0.0, 180.0)),
        Key::LimitMin => json!(lerp(-180.0, -1.0)),
        Key::LimitMax => json!(lerp(1.0, 180.0)),
        Key::HingeAxis | Key::SwingYAxis => json!([x, 1.0 - x, 0.5]),
        _ => match k.field().num {
            Some(n) => json!(lerp(n.min.max(0.001), n.max.min(1e4))),
            None => return None,
        },
    })
}

fn node_keys() -> Vec<Key> {
    use ragdoll_tuner::document::fields::Section;
    FIELDS
        .iter()
        .filter(|f| {
            matches!(
                f.section,
                Section::Bone | Section::Constraint | Section::Drive
            )
        })
        .map(|f| f.id)
        .filter(|k| value_for(*k, 0.5).is_some())
        .collect()
}

fn edit_of(doc: &Document, op: &Op) -> Option<Edit> {
    let keys = node_keys();
    let bone = |b: usize| doc.bone_target(BoneId((b % doc.bones.len()) as u32));
    let set = |(b, k, x): (usize, usize, f64)| {
        let key = keys[k % keys.len()];
        Edit::Set {
            target: bone(b),
            key: key.path().into(),
            value: value_for(key, x).expect("valued keys"),
        }
    };
    Some(match op {
        Op::Set(b, k, x) => set((*b, *k, *x)),
        Op::Remove(b, k) => Edit::Remove {
            target: bone(*b),
            key: keys[k % keys.len()].path().into(),
        },
        Op::Group(list) => Edit::Group(list.iter().copied().map(set).collect()),
        Op::Mirror(left) => {
            let d = if *left {
                Direction::LeftToRight
            } else {
                Direction::RightToLeft
            };
            Edit::Group(mirror::mirror_side(doc, d, None))
        }
        Op::Preset(b) => {
            let id = BoneId((b % doc.bones.len()) as u32);
            Edit::Group(
                ragdoll_tuner::presets::apply_humanoid(doc, &[id])
                    .ok()?
                    .edits,
            )
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Undoing every edit of a random sequence gives the original bytes; redoing them all
    /// gives the bytes of applying them.
    #[test]
    fn undo_and_redo_give_back_exact_bytes(ops in proptest::collection::vec(op(), 1..8)) {
        let mut doc = Document::open(mannequin()).expect("mannequin");
        let original = bytes(&doc);
        let mut done = Vec::new();
        let mut states = vec![original.clone()];
        for o in &ops {
            let Some(e) = edit_of(&doc, o) else { continue };
            if let Ok(inverse) = doc.apply(&e) {
                done.push((e, inverse));
                states.push(bytes(&doc));
            }
        }
        let applied = bytes(&doc);
        for (_, inverse) in done.iter().rev() {
            doc.apply(inverse).expect("an inverse applies");
        }
        prop_assert!(bytes(&doc) == original, "undo all differs");
        for (e, _) in &done {
            doc.apply(e).expect("a redo applies");
        }
        prop_assert!(bytes(&doc) == applied, "redo all differs");
    }
}

/// Save, open, save is byte-identical on every character after generating (the BIN chunk too).
#[test]
fn save_open_save_is_byte_identical_on_every_character() {
    let dir = tempfile::tempdir().expect("temp");
    for (i, path) in characters().into_iter().enumerate() {
        let doc = generated(&path);
        let (a, b) = (
            dir.path().join(format!("{i}a.glb")),
            dir.path().join(format!("{i}b.glb")),
        );
        doc.write_to(&a).expect("first save");
        let mut reopened = Document::open(&a).expect("open");
        assert!(
            reopened.migration().is_none(),
            "{}: nothing to migrate",
            path.display()
        );
        reopened.save_as(&b).expect("second save");
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{}: save, open, save changed bytes",
            path.display()
        );
    }
}

/// A corruption of a valid bone's physics: a key of the table replaced by a value of the wrong
/// type or out of its range.
fn corruption() -> impl Strategy<Value = (usize, usize, Value)> {
    let bad = prop_oneof![
        Just(json!("text")),
        Just(json!(null)),
        Just(json!(true)),
        Just(json!([1, 2, 3, 4, 5])),
        Just(json!({"x": 1})),
        Just(json!(-1e9)),
        Just(json!(1e300)),
        Just(json!(-0.5)),
    ];
    (0..64usize, 0..64usize, bad)
}

/// Whether bone `id` reads key `k` at all (a hinge does not read swing keys, a capsule does
/// not read `half_extents`).
fn reads(doc: &Document, id: BoneId, k: Key) -> bool {
    use ragdoll_tuner::document::fields::Section;
    let Some(p) = &doc.bone(id).physics else {
        return false;
    };
    let ty = p.constraint.as_ref().map(|c| c.kind.type_name());
    let shape = p.collider.as_ref().map(|c| c.shape.type_name());
    match k {
        Key::SwingLimit
        | Key::SwingExtents
        | Key::TwistLimit
        | Key::TwistRange
        | Key::SwingYAxis => ty == Some("ball_socket"),
        Key::HingeAxis | Key::LimitMin | Key::LimitMax => ty == Some("hinge"),
        Key::Radius => matches!(shape, Some("capsule" | "sphere")),
        Key::HalfHeight => shape == Some("capsule"),
        Key::HalfExtents => shape == Some("box"),
        _ => match k.field().section {
            Section::Drive => p.drive.is_some(),
            // A bone without a constraint reads none of its keys: setting one creates a
            // constraint without a type, whose error is about the type.
            Section::Constraint => p.constraint.is_some(),
            _ => true,
        },
    }
}

/// Whether `v` is a valid value for key `k` on bone `id` (the few corruptions that happen to be
/// valid, such as a negative hinge angle, are not refusals to look for).
fn valid(doc: &Document, id: BoneId, k: Key, v: &Value) -> bool {
    let mut d = doc.clone();
    let before = d.diagnostics.len();
    d.apply(&Edit::Set {
        target: doc.bone_target(id),
        key: k.path().into(),
        value: v.clone(),
    })
    .is_ok()
        && d.diagnostics
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .count()
            <= doc
                .diagnostics
                .iter()
                .filter(|x| x.severity == Severity::Error)
                .count()
        && d.diagnostics.len() >= before
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A corrupted value of a key the bone reads is an error naming the node and the key.
    #[test]
    fn invalid_values_are_refused_naming_node_and_key((b, k, bad) in corruption()) {
        let doc = Document::open(mannequin()).expect("mannequin");
        let keys = node_keys();
        let key = keys[k % keys.len()];
        let id = BoneId((b % doc.bones.len()) as u32);
        prop_assume!(reads(&doc, id, key) && !valid(&doc, id, key, &bad));
        let node = doc.bone(id).node;
        let mut d = doc.clone();
        d.apply(&Edit::Set { target: doc.bone_target(id), key: key.path().into(), value: bad.clone() })
            .expect("the edit itself applies; the reader reports it");
        // Named by its key, or (a hinge's min above its max) by the pair's message.
        let leaf = key.path().rsplit('.').next().unwrap_or_default();
        let named = d.diagnostics.iter().any(|x| {
            x.severity == Severity::Error
                && x.node == Some(node)
                && (x.key.starts_with(key.path()) || x.message.contains(leaf))
        });
        prop_assert!(named, "{} = {bad}: {:?}", key.path(), d.diagnostics);
    }
}

/// The CLI refuses an edit that introduces an error, names the node and key, and leaves the
/// file alone; a valid edit of the same key is written.
#[test]
fn a_refused_edit_leaves_the_file_on_disk_untouched() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("m.glb");
    std::fs::copy(mannequin(), &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    for bad in [
        "thigh_l.constraint.swing_extents_deg={\"pos_y\":500,\"neg_y\":1,\"pos_z\":1,\"neg_z\":1}",
        "thigh_l.constraint.twist_limit_deg=\"wide\"",
        "thigh_l.mass=-3",
    ] {
        let out = ragdoll_tuner()
            .args(["edit", path_str(&file), "-o", path_str(&file), "--set", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("thigh_l") && err.contains("node"),
            "{bad}: {err}"
        );
        assert!(
            std::fs::read(&file).unwrap() == before,
            "{bad}: the file changed"
        );
    }
}
