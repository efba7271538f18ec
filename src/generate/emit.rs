//! Writing the result: each body's `extras.physics` in its bone's own coordinates (sizes and
//! offsets divided by the bone's world scale, directions in the bone's rotated frame), with an
//! explicit `offset.translation` and `offset.rotation` for every collider, and the root's
//! balance settings. Numbers are rounded to [`SIGNIFICANT_DIGITS`] so the file reads well and
//! the same input always gives the same bytes.

use super::drives::{BalanceGains, Gains};
use super::fit::{Shape, WorldFit};
use super::limits::JointPlan;
use super::rig::RigBone;
use glam::{DQuat, DVec3};
use serde_json::{json, Map, Value};

pub const SIGNIFICANT_DIGITS: i32 = 6;

/// `x` rounded to [`SIGNIFICANT_DIGITS`] significant digits (0 stays 0).
pub fn round(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    let d = SIGNIFICANT_DIGITS - x.abs().log10().ceil() as i32;
    let k = 10f64.powi(d);
    let r = (x * k).round() / k;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

fn vec3(v: DVec3) -> Value {
    json!([round(v.x), round(v.y), round(v.z)])
}

/// A unit direction rounded to 1e-6 (absolute), so tiny components do not print as 1e-17.
fn dir3(v: DVec3) -> Value {
    let r = |x: f64| {
        let y = (x * 1e6).round() / 1e6;
        if y == 0.0 {
            0.0
        } else {
            y
        }
    };
    json!([r(v.x), r(v.y), r(v.z)])
}

fn quat(q: DQuat) -> Value {
    let q = if q.w < 0.0 { -q } else { q };
    let r = |x: f64| {
        let y = (x * 1e6).round() / 1e6;
        if y == 0.0 {
            0.0
        } else {
            y
        }
    };
    json!([r(q.x), r(q.y), r(q.z), r(q.w)])
}

/// Everything one body's physics says.
pub struct BodyOut<'a> {
    pub bone: &'a RigBone,
    pub fit: &'a WorldFit,
    pub mass_kg: f64,
    /// (parent bone reference, joint, drive) when jointed.
    pub joint: Option<(String, JointPlan, Gains)>,
    pub group: &'a str,
    pub mask: &'a str,
}

/// The `extras.physics` object of a body.
pub fn physics(b: &BodyOut) -> Value {
    let s = b.bone.scale;
    let inv = b.bone.rot.inverse();
    let mut p = Map::new();
    match b.fit.shape {
        Shape::Capsule {
            radius,
            half_height,
        } => {
            p.insert("collider".into(), json!("capsule"));
            p.insert("radius".into(), json!(round(radius / s)));
            p.insert("half_height".into(), json!(round(half_height / s)));
        }
        Shape::Sphere { radius } => {
            p.insert("collider".into(), json!("sphere"));
            p.insert("radius".into(), json!(round(radius / s)));
        }
        Shape::Box { half_extents } => {
            p.insert("collider".into(), json!("box"));
            p.insert("half_extents".into(), vec3(half_extents / s));
        }
    }
    p.insert(
        "offset".into(),
        json!({
            "translation": vec3(inv * (b.fit.center - b.bone.pos) / s),
            "rotation": quat((inv * b.fit.rotation).normalize()),
        }),
    );
    p.insert("mass".into(), json!(round(b.mass_kg)));
    if let Some((parent, joint, gains)) = &b.joint {
        p.insert("constraint".into(), constraint(parent, joint, inv));
        p.insert(
            "drive".into(),
            json!({
                "stiffness": round(gains.stiffness),
                "damping": round(gains.damping),
                "max_torque": round(gains.max_torque),
                "follow_strength": round(gains.follow_strength),
            }),
        );
    }
    p.insert("collision_group".into(), json!(b.group));
    p.insert("collision_mask".into(), json!(b.mask));
    Value::Object(p)
}

fn constraint(parent: &str, joint: &JointPlan, inv: DQuat) -> Value {
    match *joint {
        JointPlan::Ball {
            swing_deg,
            twist_deg,
            swing_y,
        } => {
            let [py, ny, pz, nz] = swing_deg.map(round);
            let swing = if py == ny && py == pz && py == nz {
                json!(py)
            } else {
                json!({ "pos_y": py, "neg_y": ny, "pos_z": pz, "neg_z": nz })
            };
            let [lo, hi] = twist_deg.map(round);
            let twist = if lo == -hi {
                json!(hi)
            } else {
                json!([lo, hi])
            };
            json!({
                "type": "ball_socket",
                "parent_bone": parent,
                "swing_limit_deg": swing,
                "twist_limit_deg": twist,
                "swing_y_axis": dir3((inv * swing_y).normalize_or(DVec3::Y)),
            })
        }
        JointPlan::Hinge {
            axis,
            min_deg,
            max_deg,
        } => json!({
            "type": "hinge",
            "parent_bone": parent,
            "hinge_axis": dir3((inv * axis).normalize_or(DVec3::Z)),
            "limit_min_deg": round(min_deg),
            "limit_max_deg": round(max_deg),
        }),
    }
}

/// The root's `extras.physics.balance` object.
pub fn balance(
    enabled: bool,
    torso: &str,
    pelvis: &str,
    feet: &[String],
    g: &BalanceGains,
) -> Value {
    json!({
        "enabled": enabled,
        "torso_bone": torso,
        "pelvis_bone": pelvis,
        "foot_bones": feet.join(","),
        "upright_kp": round(g.upright_kp),
        "upright_kd": round(g.upright_kd),
        "upright_max_torque": round(g.upright_max_torque),
        "ankle_kp": round(g.ankle_kp),
        "ankle_kd": round(g.ankle_kd),
        "ankle_max_torque": round(g.ankle_max_torque),
    })
}

/// A node's new `extras`: its current extras with `physics` set (or removed when None).
/// None when the current extras is not an object (it cannot hold physics).
pub fn node_extras(current: Option<&Value>, physics: Option<Value>) -> Option<Option<Value>> {
    let mut obj = match current {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return None,
    };
    match physics {
        Some(p) => {
            obj.insert("physics".into(), p);
        }
        None => {
            obj.shift_remove("physics");
        }
    }
    Some(Some(Value::Object(obj)))
}
