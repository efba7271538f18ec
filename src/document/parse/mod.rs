//! The codec's reader: `extras.physics` JSON into the typed schema, defaults filled in, every
//! problem reported as a [`Diagnostic`] naming node and key. Nothing is skipped silently.
//! [`super::write`] is its exact inverse. The exact limit keys (`swing_extents_deg`,
//! `twist_range_deg`) are preferred to the seed's approximations when present; version 1's
//! objects inside the seed's keys are still read, with a warning that a save rewrites them.

use super::diagnostics::Diagnostic;
use super::fields::{self, Key, NumSpec, Section};
use super::schema::*;
use super::write::{self, leaf};

pub mod anatomy;
mod body;
mod limits;
use limits::{parse_swing, parse_twist};
use serde_json::{Map, Value};

/// Collects diagnostics for one node (or the document, when `node` is None).
pub(crate) struct Ctx<'a> {
    pub node: Option<usize>,
    pub bone: &'a str,
    pub diags: &'a mut Vec<Diagnostic>,
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Ctx<'_> {
    pub fn error(&mut self, key: &str, msg: impl Into<String>) {
        let d = Diagnostic::error(self.node, self.bone, key, msg);
        self.diags.push(d);
    }

    pub fn warning(&mut self, key: &str, msg: impl Into<String>) {
        let d = Diagnostic::warning(self.node, self.bone, key, msg);
        self.diags.push(d);
    }

    pub(crate) fn wrong_type(
        &mut self,
        key: &str,
        expected: &str,
        got: &Value,
        default: impl std::fmt::Debug,
    ) {
        self.error(
            key,
            format!(
                "expected {expected}, found {} ({got}); using the default {default:?}",
                type_name(got)
            ),
        );
    }

    /// A number at `obj[name]`: default when missing, error (and default) when wrong or out of range.
    pub(crate) fn number(
        &mut self,
        obj: &Map<String, Value>,
        prefix: &str,
        name: &str,
        default: f64,
        range: Range,
    ) -> f64 {
        let key = join(prefix, name);
        let Some(v) = obj.get(name) else {
            return default;
        };
        let Some(x) = v.as_f64() else {
            if v.is_number() {
                self.error(
                    &key,
                    format!("{v} is not a finite number; using the default {default}"),
                );
            } else {
                self.wrong_type(&key, "a number", v, default);
            }
            return default;
        };
        if !x.is_finite() {
            self.error(
                &key,
                format!("{v} is not a finite number; using the default {default}"),
            );
            return default;
        }
        if let Some(why) = range.check(x) {
            self.error(
                &key,
                format!("{x} is out of range: {why}; using the default {default}"),
            );
            return default;
        }
        x
    }

    /// A number whose default and range come from the field table.
    fn field(
        &mut self,
        obj: &Map<String, Value>,
        section: Section,
        prefix: &str,
        name: &str,
    ) -> f64 {
        let spec = fields::num_spec(section, name);
        self.number(obj, prefix, name, spec.default, Range::from_spec(spec))
    }

    /// A number keyed by the table (its leaf name inside `obj`, default and range from the row).
    pub(crate) fn key(&mut self, obj: &Map<String, Value>, prefix: &str, key: Key) -> f64 {
        let spec = key.spec();
        self.number(obj, prefix, leaf(key), spec.default, Range::from_spec(spec))
    }

    fn string(
        &mut self,
        obj: &Map<String, Value>,
        prefix: &str,
        name: &str,
        default: &str,
    ) -> String {
        match obj.get(name) {
            None => default.to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => {
                self.wrong_type(&join(prefix, name), "a string", v, default);
                default.to_string()
            }
        }
    }

    /// A fixed-length array of finite numbers, or None (with an error) when malformed.
    pub(crate) fn vector<const N: usize>(
        &mut self,
        obj: &Map<String, Value>,
        prefix: &str,
        name: &str,
    ) -> Option<[f64; N]> {
        let key = join(prefix, name);
        let v = obj.get(name)?;
        let parsed = v.as_array().filter(|a| a.len() == N).and_then(|a| {
            let mut out = [0.0; N];
            for (o, x) in out.iter_mut().zip(a) {
                *o = x.as_f64().filter(|f| f.is_finite())?;
            }
            Some(out)
        });
        if parsed.is_none() {
            self.error(
                &key,
                format!("expected an array of {N} finite numbers, found {v}; using the default"),
            );
        }
        parsed
    }

    pub(crate) fn unknown_keys(&mut self, obj: &Map<String, Value>, prefix: &str, known: &[&str]) {
        for k in obj.keys().filter(|k| !known.contains(&k.as_str())) {
            self.warning(
                &join(prefix, k),
                format!(
                    "unknown key (kept in the file, ignored by the tool); known keys: {}",
                    known.join(", ")
                ),
            );
        }
    }
}

/// Allowed range of a number, checked with a reason.
#[derive(Clone, Copy)]
pub(crate) enum Range {
    Positive,
    NonNegative,
    Within(f64, f64),
}

impl Range {
    /// The range a field-table entry allows.
    fn from_spec(n: NumSpec) -> Self {
        match (n.min, n.max, n.exclusive_min) {
            (lo, hi, true) if lo == 0.0 && hi.is_infinite() => Range::Positive,
            (lo, hi, false) if lo == 0.0 && hi.is_infinite() => Range::NonNegative,
            (lo, hi, _) => Range::Within(lo, hi),
        }
    }

    fn check(self, x: f64) -> Option<String> {
        match self {
            Range::Positive if x <= 0.0 => Some("must be greater than 0".into()),
            Range::NonNegative if x < 0.0 => Some("must not be negative".into()),
            Range::Within(lo, hi) if !(lo..=hi).contains(&x) => {
                Some(format!("must lie within {lo}..{hi}"))
            }
            _ => None,
        }
    }
}

pub(crate) fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// Parses one node's `extras.physics` value.
pub(crate) fn parse_bone_physics(value: &Value, cx: &mut Ctx) -> BonePhysics {
    let mut out = BonePhysics::default();
    let Some(obj) = value.as_object() else {
        cx.wrong_type("physics", "an object", value, "no physics");
        return out;
    };
    cx.unknown_keys(obj, "", &physics_keys());
    out.mass = cx.key(obj, "", Key::Mass);
    let (group, mask) = (leaf(Key::CollisionGroup), leaf(Key::CollisionMask));
    out.collision_group = cx.string(obj, "", group, DEFAULT_COLLISION_GROUP);
    out.collision_mask = cx.string(obj, "", mask, DEFAULT_COLLISION_MASK);
    out.collider = parse_collider(obj, cx);
    out.material = body::material(obj, cx);
    out.collision_pairs = body::collision_pairs(obj, cx);
    let drive = leaf(Key::Drive);
    out.constraint = obj
        .get(leaf(Key::Constraint))
        .and_then(|c| parse_constraint(c, cx));
    if out.constraint.is_some() || obj.contains_key(drive) {
        out.drive = Some(parse_drive(obj.get(drive), cx));
    }
    out
}

fn parse_collider(obj: &Map<String, Value>, cx: &mut Ctx) -> Option<Collider> {
    let kind = match obj.get("collider")? {
        Value::String(s) => s.as_str(),
        Value::Null => return None,
        v => {
            cx.wrong_type(
                "collider",
                "a string (capsule, sphere, box or none)",
                v,
                "no collider",
            );
            return None;
        }
    };
    let radius = |cx: &mut Ctx| cx.field(obj, Section::Bone, "", "radius");
    let shape = match kind {
        "capsule" => ColliderShape::Capsule {
            radius: radius(cx),
            half_height: cx.field(obj, Section::Bone, "", "half_height"),
        },
        "sphere" => ColliderShape::Sphere { radius: radius(cx) },
        "box" => ColliderShape::Box {
            half_extents: parse_half_extents(obj, cx),
        },
        "none" => return None,
        other => {
            cx.error(
                "collider",
                format!("unknown collider type '{other}'; expected capsule, sphere, box or none"),
            );
            return None;
        }
    };
    let offset = parse_offset(obj.get("offset"), cx);
    Some(Collider { shape, offset })
}

fn parse_half_extents(obj: &Map<String, Value>, cx: &mut Ctx) -> [f64; 3] {
    match cx.vector::<3>(obj, "", "half_extents") {
        Some(h) if h.iter().all(|&x| x > 0.0) => h,
        Some(h) => {
            cx.error("half_extents", format!("{h:?} is out of range: every half extent must be greater than 0; using the default"));
            DEFAULT_HALF_EXTENTS_M
        }
        None => DEFAULT_HALF_EXTENTS_M,
    }
}

fn parse_offset(value: Option<&Value>, cx: &mut Ctx) -> ColliderOffset {
    let Some(value) = value else {
        return ColliderOffset::default();
    };
    let Some(obj) = value.as_object() else {
        cx.wrong_type(
            "offset",
            "an object {translation, rotation}",
            value,
            "along the bone",
        );
        return ColliderOffset::default();
    };
    cx.unknown_keys(obj, "offset", &offset_keys());
    let translation = cx.vector::<3>(obj, "offset", "translation");
    let rotation = cx.vector::<4>(obj, "offset", "rotation").filter(|q| {
        let ok = q.iter().map(|x| x * x).sum::<f64>() > 1e-12;
        if !ok {
            cx.error(
                "offset.rotation",
                "zero-length quaternion; using the default",
            );
        }
        ok
    });
    ColliderOffset {
        translation,
        rotation,
    }
}

fn parse_constraint(value: &Value, cx: &mut Ctx) -> Option<Constraint> {
    let Some(obj) = value.as_object() else {
        cx.wrong_type("constraint", "an object", value, "no constraint");
        return None;
    };
    cx.unknown_keys(obj, "constraint", &constraint_keys());
    let parent_bone = match obj.get("parent_bone") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => {
            cx.wrong_type(
                "constraint.parent_bone",
                "a string",
                v,
                "the nearest ancestor bone",
            );
            None
        }
    };
    // Read before the type, so a bad value is named even when the constraint is then ignored.
    let friction_torque_nm = cx.key(obj, "constraint", Key::FrictionTorque);
    let kind = match obj.get("type") {
        Some(Value::String(t)) if t == "ball_socket" => parse_ball_socket(obj, cx),
        Some(Value::String(t)) if t == "hinge" => parse_hinge(obj, cx),
        Some(Value::String(t)) => {
            cx.error(
                "constraint.type",
                format!("unknown constraint type '{t}'; expected ball_socket or hinge"),
            );
            return None;
        }
        Some(v) => {
            cx.wrong_type(
                "constraint.type",
                "a string (ball_socket or hinge)",
                v,
                "no constraint",
            );
            return None;
        }
        None => {
            cx.error(
                "constraint.type",
                "missing; expected ball_socket or hinge (the constraint is ignored)",
            );
            return None;
        }
    };
    Some(Constraint {
        kind,
        parent_defaulted: parent_bone.is_none(),
        parent_bone,
        friction_torque_nm,
    })
}

fn parse_ball_socket(obj: &Map<String, Value>, cx: &mut Ctx) -> ConstraintKind {
    let swing_y_axis = match cx.vector::<3>(obj, "constraint", "swing_y_axis") {
        Some(a) if a.iter().map(|x| x * x).sum::<f64>() > 1e-12 => Some(a),
        Some(_) => {
            cx.error(
                "constraint.swing_y_axis",
                "zero-length axis; using the default",
            );
            None
        }
        None => None,
    };
    ConstraintKind::BallSocket {
        swing_limit_deg: parse_swing(obj, cx),
        twist_limit_deg: parse_twist(obj, cx),
        swing_y_axis,
    }
}

fn parse_hinge(obj: &Map<String, Value>, cx: &mut Ctx) -> ConstraintKind {
    let mut min = cx.field(obj, Section::Constraint, "constraint", "limit_min_deg");
    let mut max = cx.field(obj, Section::Constraint, "constraint", "limit_max_deg");
    if min > max {
        cx.error(
            "constraint.limit_min_deg",
            format!("limit_min_deg {min} is greater than limit_max_deg {max}; using the defaults -180..180"),
        );
        (min, max) = (Key::LimitMin.default_num(), Key::LimitMax.default_num());
    }
    let axis = match cx.vector::<3>(obj, "constraint", "hinge_axis") {
        Some(a) if a.iter().map(|x| x * x).sum::<f64>() > 1e-12 => a,
        Some(_) => {
            cx.error(
                "constraint.hinge_axis",
                "zero-length axis; using the default [0, 0, 1]",
            );
            DEFAULT_HINGE_AXIS
        }
        None => DEFAULT_HINGE_AXIS,
    };
    ConstraintKind::Hinge {
        hinge_axis: axis,
        limit_min_deg: min,
        limit_max_deg: max,
    }
}

fn parse_drive(value: Option<&Value>, cx: &mut Ctx) -> Drive {
    let Some(value) = value else {
        return Drive::default();
    };
    let Some(obj) = value.as_object() else {
        cx.wrong_type(
            "drive",
            "an object {stiffness, damping, max_torque}",
            value,
            Drive::default(),
        );
        return Drive::default();
    };
    cx.unknown_keys(obj, "drive", &drive_keys());
    Drive {
        stiffness: cx.field(obj, Section::Drive, "drive", "stiffness"),
        damping: cx.field(obj, Section::Drive, "drive", "damping"),
        max_torque: cx.field(obj, Section::Drive, "drive", "max_torque"),
        follow_strength: cx.field(obj, Section::Drive, "drive", "follow_strength"),
    }
}

/// Parses the root's `extras.physics.balance`.
pub(crate) fn parse_balance(value: Option<&Value>, cx: &mut Ctx) -> BalanceSettings {
    let mut out = BalanceSettings::default();
    let Some(value) = value else { return out };
    let Some(obj) = value.as_object() else {
        cx.wrong_type("balance", "an object", value, "default balance settings");
        return out;
    };
    cx.unknown_keys(obj, "balance", &balance_keys());
    match obj.get(leaf(Key::BalanceEnabled)) {
        None => {}
        Some(Value::Bool(b)) => out.enabled = *b,
        Some(v) => cx.wrong_type(Key::BalanceEnabled.path(), "a boolean", v, true),
    }
    let mut name = |key: Key| {
        obj.get(leaf(key))?;
        Some(cx.string(obj, "balance", leaf(key), ""))
    };
    out.torso_bone = name(Key::TorsoBone);
    out.pelvis_bone = name(Key::PelvisBone);
    out.foot_bones = name(Key::FootBones).map(|f| split_names(&f));
    out.assist = cx.key(obj, "balance", Key::Assist);
    out.upright_kp = cx.key(obj, "balance", Key::UprightKp);
    out.upright_kd = cx.key(obj, "balance", Key::UprightKd);
    out.upright_max_torque = cx.key(obj, "balance", Key::UprightMaxTorque);
    out.ankle_kp = cx.key(obj, "balance", Key::AnkleKp);
    out.ankle_kd = cx.key(obj, "balance", Key::AnkleKd);
    out.ankle_max_torque = cx.key(obj, "balance", Key::AnkleMaxTorque);
    out.hip_kp = cx.key(obj, "balance", Key::HipKp);
    out.hip_max_torque = cx.key(obj, "balance", Key::HipMaxTorque);
    out.step_gain = cx.key(obj, "balance", Key::StepGain);
    out.step_margin = cx.key(obj, "balance", Key::StepMargin);
    out.step_catch_dv = cx.key(obj, "balance", Key::StepCatchDv);
    out.step_rest_stance = cx.key(obj, "balance", Key::StepRestStance);
    out.knockout_dv = cx.key(obj, "balance", Key::KnockoutDv);
    out
}

/// Reads the root's `extras.physics` beside `balance`: the schema version (1 when absent).
/// A newer version than this build writes is read with a warning.
pub(crate) fn parse_root(value: Option<&Value>, cx: &mut Ctx) -> u32 {
    let Some(obj) = value.and_then(Value::as_object) else {
        return 1;
    };
    let known: Vec<&str> = root_keys().into_iter().chain([write::BALANCE]).collect();
    cx.unknown_keys(obj, "", &known);
    if !obj.contains_key(leaf(Key::SchemaVersion)) {
        return 1;
    }
    let v = cx.key(obj, "", Key::SchemaVersion);
    if v.fract() != 0.0 {
        cx.error(
            Key::SchemaVersion.path(),
            format!("{v} is not a whole number; read as 1"),
        );
        return 1;
    }
    let v = v as u32;
    if v > fields::SCHEMA_VERSION {
        cx.warning(
            Key::SchemaVersion.path(),
            format!(
                "written by a newer version (schema {v}; this build knows {}): keys it added are kept but may be ignored",
                fields::SCHEMA_VERSION
            ),
        );
    }
    v
}

/// Reads one bone's `extras.physics` on its own (node `node`, named `bone`): the typed value
/// and the diagnostics. The inverse of [`write::bone_physics`].
pub fn read_bone_physics(
    value: &Value,
    node: usize,
    bone: &str,
) -> (BonePhysics, Vec<super::Diagnostic>) {
    let mut diags = Vec::new();
    let mut cx = Ctx {
        node: Some(node),
        bone,
        diags: &mut diags,
    };
    let p = parse_bone_physics(value, &mut cx);
    (p, diags)
}

/// Reads a balance object on its own: the inverse of [`write::balance`].
pub fn read_balance(value: &Value) -> (BalanceSettings, Vec<super::Diagnostic>) {
    let mut diags = Vec::new();
    let mut cx = Ctx {
        node: None,
        bone: "document",
        diags: &mut diags,
    };
    let b = parse_balance(Some(value), &mut cx);
    (b, diags)
}
