//! The codec's writer: typed physics to the file's JSON, the exact inverse of
//! [`super::parse`] (`parse(write(x)) == x`, property-tested). Keys come from the field table
//! ([`Key`]); nothing else in the crate spells a schema key.
//!
//! **The seed's keys keep the seed's types.** `swing_limit_deg` and `twist_limit_deg` are
//! always numbers. An asymmetric limit also writes its exact shape in the added keys
//! `swing_extents_deg {pos_y, neg_y, pos_z, neg_z}` and `twist_range_deg [min, max]`, which our
//! reader prefers, and puts in the seed's keys the circular approximation a loader that knows
//! only the seed should use: the largest swing extent, and the larger magnitude of the twist
//! range's ends. That approximation contains the exact limit, so such a loader never refuses
//! a pose (a clip's, a fall's) that the exact limit allows and never reads a joint as locked
//! that is not; it may allow more than the exact limit, which a ragdoll's drives and a game's
//! animation tolerate far better than a joint that fights poses it should reach.

use super::fields::{Key, SCHEMA_VERSION};
use super::manual_anatomy::ManualAnatomy;
use super::schema::*;
use serde_json::{json, Map, Value};

/// Keys of the four-extent object of `swing_extents_deg`, in file order.
pub const SWING_EXTENT_KEYS: [&str; 4] = ["pos_y", "neg_y", "pos_z", "neg_z"];

/// The name of the container of the tool's keys in a node's or the root's `extras`.
pub const PHYSICS: &str = "physics";
/// The root's `extras.physics` key holding the balance settings.
pub const BALANCE: &str = "balance";

/// A key's last path component (`offset.translation` gives `translation`).
pub fn leaf(key: Key) -> &'static str {
    let name = key.name();
    name.rsplit('.').next().unwrap_or(name)
}

/// The seed's circular approximation of a swing limit: the largest extent (see the module doc).
pub fn swing_approx_deg(s: &SwingExtentsDeg) -> f64 {
    s.max()
}

/// The seed's symmetric approximation of a twist range: the larger magnitude of its ends.
pub fn twist_approx_deg(t: &TwistRangeDeg) -> f64 {
    t.min_deg.abs().max(t.max_deg.abs())
}

/// The four-extent object of `swing_extents_deg`.
pub fn swing_extents(s: &SwingExtentsDeg) -> Value {
    let mut m = Map::new();
    for (k, v) in SWING_EXTENT_KEYS.iter().zip(s.to_array()) {
        m.insert((*k).into(), json!(v));
    }
    Value::Object(m)
}

/// The `[min, max]` array of `twist_range_deg`.
pub fn twist_range(t: &TwistRangeDeg) -> Value {
    json!([t.min_deg, t.max_deg])
}

/// The swing keys of a ball socket: the seed's number, and the exact extents when they are
/// not one circle.
pub fn swing_entries(s: &SwingExtentsDeg) -> Vec<(Key, Option<Value>)> {
    match s.as_circular() {
        Some(e) => vec![(Key::SwingLimit, Some(json!(e))), (Key::SwingExtents, None)],
        None => vec![
            (Key::SwingLimit, Some(json!(swing_approx_deg(s)))),
            (Key::SwingExtents, Some(swing_extents(s))),
        ],
    }
}

/// The twist keys of a ball socket: the seed's number, and the exact range when it is not
/// symmetric about 0.
pub fn twist_entries(t: &TwistRangeDeg) -> Vec<(Key, Option<Value>)> {
    match t.as_symmetric() {
        Some(h) => vec![(Key::TwistLimit, Some(json!(h))), (Key::TwistRange, None)],
        None => vec![
            (Key::TwistLimit, Some(json!(twist_approx_deg(t)))),
            (Key::TwistRange, Some(twist_range(t))),
        ],
    }
}

fn put(m: &mut Map<String, Value>, key: Key, v: Value) {
    m.insert(leaf(key).into(), v);
}

fn put_entries(m: &mut Map<String, Value>, entries: Vec<(Key, Option<Value>)>) {
    for (k, v) in entries {
        if let Some(v) = v {
            put(m, k, v);
        }
    }
}

/// The `constraint` object.
pub fn constraint(c: &Constraint) -> Value {
    let mut m = Map::new();
    put(&mut m, Key::ConstraintType, json!(c.kind.type_name()));
    if let Some(p) = &c.parent_bone {
        put(&mut m, Key::ParentBone, json!(p));
    }
    match &c.kind {
        ConstraintKind::BallSocket {
            swing_limit_deg,
            twist_limit_deg,
            swing_y_axis,
        } => {
            put_entries(&mut m, swing_entries(swing_limit_deg));
            put_entries(&mut m, twist_entries(twist_limit_deg));
            if let Some(y) = swing_y_axis {
                put(&mut m, Key::SwingYAxis, json!(y));
            }
        }
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => {
            put(&mut m, Key::HingeAxis, json!(hinge_axis));
            put(&mut m, Key::LimitMin, json!(limit_min_deg));
            put(&mut m, Key::LimitMax, json!(limit_max_deg));
        }
    }
    // Absent means none: a file without friction is written without the key.
    if c.friction_torque_nm != 0.0 {
        put(&mut m, Key::FrictionTorque, json!(c.friction_torque_nm));
    }
    Value::Object(m)
}

/// The `drive` object.
pub fn drive(d: &Drive) -> Value {
    let mut m = Map::new();
    put(&mut m, Key::Stiffness, json!(d.stiffness));
    put(&mut m, Key::Damping, json!(d.damping));
    put(&mut m, Key::MaxTorque, json!(d.max_torque));
    put(&mut m, Key::FollowStrength, json!(d.follow_strength));
    Value::Object(m)
}

/// The `offset` object (only the parts that are set), or None when both take the default.
pub fn offset(o: &ColliderOffset) -> Option<Value> {
    let mut m = Map::new();
    if let Some(t) = o.translation {
        put(&mut m, Key::OffsetTranslation, json!(t));
    }
    if let Some(r) = o.rotation {
        put(&mut m, Key::OffsetRotation, json!(r));
    }
    (!m.is_empty()).then_some(Value::Object(m))
}

/// The collider's top-level keys and values (`collider`, its sizes, `offset`).
fn collider_entries(c: &Collider) -> Vec<(&'static str, Value)> {
    let mut out = vec![(top(Key::Collider), json!(c.shape.type_name()))];
    match &c.shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => {
            out.push((top(Key::Radius), json!(radius)));
            out.push((top(Key::HalfHeight), json!(half_height)));
        }
        ColliderShape::Sphere { radius } => out.push((top(Key::Radius), json!(radius))),
        ColliderShape::Box { half_extents } => {
            out.push((top(Key::HalfExtents), json!(half_extents)))
        }
    }
    if let Some(o) = offset(&c.offset) {
        // `offset` is one object holding both of its keys.
        out.push((top(Key::OffsetTranslation), o));
    }
    out
}

/// Every top-level key of a bone's `extras.physics` with its value, in file order.
pub fn bone_entries(p: &BonePhysics) -> Vec<(&'static str, Value)> {
    let mut out: Vec<(&'static str, Value)> = Vec::new();
    if let Some(c) = &p.collider {
        out.extend(collider_entries(c));
    }
    out.push((top(Key::Mass), json!(p.mass)));
    if let Some(c) = &p.constraint {
        out.push((top(Key::Constraint), constraint(c)));
    }
    if let Some(d) = &p.drive {
        out.push((top(Key::Drive), drive(d)));
    }
    out.push((top(Key::CollisionGroup), json!(p.collision_group)));
    out.push((top(Key::CollisionMask), json!(p.collision_mask)));
    for (k, v) in material_entries(&p.material) {
        out.push((top(k), v));
    }
    if let Some(v) = collision_pairs(&p.collision_pairs) {
        out.push((top(Key::CollisionPairs), v));
    }
    out
}

/// The material and damping keys the body sets (a None part is not written).
pub fn material_entries(m: &BodyMaterial) -> Vec<(Key, Value)> {
    let nums = [
        (Key::Friction, m.friction),
        (Key::Restitution, m.restitution),
        (Key::LinearDamping, m.linear_damping),
        (Key::AngularDamping, m.angular_damping),
        (Key::MaxAngularSpeed, m.max_angular_speed),
        (Key::MinInertia, m.min_inertia_kg_m2),
    ];
    let mut out: Vec<(Key, Value)> = nums
        .into_iter()
        .filter_map(|(k, v)| Some((k, json!(v?))))
        .collect();
    if let Some(c) = m.ccd {
        out.push((Key::Ccd, json!(c)));
    }
    out
}

/// The `collision_pairs` object `{bone: bool}`, or None when there are none.
pub fn collision_pairs(pairs: &[CollisionPair]) -> Option<Value> {
    let m: Map<String, Value> = pairs
        .iter()
        .map(|p| (p.other.clone(), json!(p.collide)))
        .collect();
    (!m.is_empty()).then_some(Value::Object(m))
}

/// A key's first path component in its section (`offset.translation` gives `offset`).
pub fn top(key: Key) -> &'static str {
    let name = key.name();
    name.split('.').next().unwrap_or(name)
}

/// A bone's whole `extras.physics` object.
pub fn bone_physics(p: &BonePhysics) -> Value {
    Value::Object(
        bone_entries(p)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The balance object (`extras.physics.balance` of the root). Bone names the settings leave
/// to the default are not written.
pub fn balance(b: &BalanceSettings) -> Value {
    let mut m = Map::new();
    put(&mut m, Key::BalanceEnabled, json!(b.enabled));
    if let Some(t) = &b.torso_bone {
        put(&mut m, Key::TorsoBone, json!(t));
    }
    if let Some(p) = &b.pelvis_bone {
        put(&mut m, Key::PelvisBone, json!(p));
    }
    if let Some(f) = &b.foot_bones {
        put(&mut m, Key::FootBones, json!(f.join(",")));
    }
    for (k, v) in [
        (Key::Assist, b.assist),
        (Key::UprightKp, b.upright_kp),
        (Key::UprightKd, b.upright_kd),
        (Key::UprightMaxTorque, b.upright_max_torque),
        (Key::AnkleKp, b.ankle_kp),
        (Key::AnkleKd, b.ankle_kd),
        (Key::AnkleMaxTorque, b.ankle_max_torque),
    ] {
        put(&mut m, k, json!(v));
    }
    // The hip strategy, added later: written only when it differs from the default (off), so
    // files that never use it keep their bytes.
    let hip = [
        (Key::HipKp, b.hip_kp),
        (Key::HipMaxTorque, b.hip_max_torque),
    ];
    // The stepping strategy, added later still: the same rule.
    let step = [
        (Key::StepGain, b.step_gain),
        (Key::StepMargin, b.step_margin),
        (Key::StepCatchDv, b.step_catch_dv),
    ];
    // Where steps land, added later again: written only when it is not the default.
    let landing = [(Key::StepRestStance, b.step_rest_stance)];
    // The knock-out, added later again: the same rule.
    let knockout = [(Key::KnockoutDv, b.knockout_dv)];
    for group in [&hip[..], &step[..], &landing[..], &knockout[..]] {
        if group.iter().any(|&(k, v)| v != k.default_num()) {
            for &(k, v) in group {
                put(&mut m, k, json!(v));
            }
        }
    }
    Value::Object(m)
}

/// The root's `extras.physics`: the schema version this build writes, and the balance.
pub fn root_physics(b: &BalanceSettings) -> Value {
    let mut m = Map::new();
    put(&mut m, Key::SchemaVersion, json!(SCHEMA_VERSION));
    m.insert(BALANCE.into(), balance(b));
    Value::Object(m)
}

/// The `anatomy` object of the root's `extras.physics` (a person's kind and bone roles), or
/// None when it says nothing.
pub fn anatomy(m: &ManualAnatomy) -> Option<Value> {
    if m.is_empty() {
        return None;
    }
    let mut obj = Map::new();
    if let Some(k) = m.kind {
        put(&mut obj, Key::AnatomyKind, json!(k.name()));
    }
    if !m.roles.is_empty() {
        let roles: Map<String, Value> = m
            .roles
            .iter()
            .map(|(bone, a)| (bone.clone(), json!(a.text())))
            .collect();
        put(&mut obj, Key::AnatomyRoles, Value::Object(roles));
    }
    Some(Value::Object(obj))
}

/// The edit that stores a manual anatomy in the document (removing the key when empty).
pub fn anatomy_edit(m: &ManualAnatomy) -> super::Edit {
    let target = super::EditTarget::Document;
    let key = top(Key::AnatomyKind).to_string();
    match anatomy(m) {
        Some(value) => super::Edit::Set { target, key, value },
        None => super::Edit::Remove { target, key },
    }
}

/// `extras` holding `physics` (for a node, or the root).
pub fn extras_with_physics(physics: Value) -> Value {
    json!({ PHYSICS: physics })
}
