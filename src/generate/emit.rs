//! Writing the result: each body's `extras.physics` in its bone's own coordinates (sizes and
//! offsets divided by the bone's world scale, directions in the bone's rotated frame), with an
//! explicit `offset.translation` and `offset.rotation` for every collider, and the root's
//! balance settings. Numbers are rounded to [`SIGNIFICANT_DIGITS`] so the file reads well and
//! the same input always gives the same bytes.

use super::drives::{BalanceGains, Gains};
use super::fit::{Shape, WorldFit};
use super::limits::JointPlan;
use super::rig::RigBone;
use crate::document::write;
use crate::document::BodyMaterial;
use crate::document::{
    BalanceSettings, BonePhysics, Collider, ColliderOffset, ColliderShape, CollisionPair,
    Constraint, ConstraintKind, Drive, SwingExtentsDeg, TwistRangeDeg,
};
use glam::{DQuat, DVec3};
use serde_json::{Map, Value};

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

fn vec3(v: DVec3) -> [f64; 3] {
    [round(v.x), round(v.y), round(v.z)]
}

/// A component rounded to 1e-6 (absolute), so tiny components do not print as 1e-17.
fn r6(x: f64) -> f64 {
    let y = (x * 1e6).round() / 1e6;
    if y == 0.0 {
        0.0
    } else {
        y
    }
}

/// A unit direction rounded to 1e-6 (absolute).
fn dir3(v: DVec3) -> [f64; 3] {
    [r6(v.x), r6(v.y), r6(v.z)]
}

fn quat(q: DQuat) -> [f64; 4] {
    let q = if q.w < 0.0 { -q } else { q };
    [r6(q.x), r6(q.y), r6(q.z), r6(q.w)]
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
    /// Bones this body never collides with (explicit pairs).
    pub apart: Vec<String>,
    /// 1/s, see [`angular_damping`].
    pub angular_damping: f64,
    /// N*m, the joint's friction (0: none).
    pub friction_torque_nm: f64,
}

/// Angular damping of every generated body (1/s), so that limbs come to rest: the stability
/// doctor's value for a 1.75 m character, scaled like its natural frequencies (1/sqrt of the
/// height), so every size gets the same damping per swing (a mannequin at a tenth of its size
/// with 4/s went 2.02° past a limit in a passive collapse). Linear damping only on bodies that
/// roll ([`ROLLING_LINEAR_SHARE`]): it slows falls, and with 0.4/s on every body (Stabilize's)
/// the mirrored CesiumMan's sides parted by 1° at 0.20 s of a passive collapse instead of
/// 0.32 s.
pub fn angular_damping(height: f64) -> f64 {
    let unit = (height / super::mass::REFERENCE_HEIGHT_M).clamp(1e-3, 1e3);
    round(crate::doctor::STABLE_ANGULAR_DAMPING / unit.sqrt())
}

/// Linear damping of a body that rolls (a sphere or a capsule), as a share of its angular
/// damping. Angular damping reaches only a body's spin (I * w); a sphere rolling on the ground
/// carries m * r^2 more about its contact (2.5 times its spin's inertia; a capsule rolling
/// about its axis, about twice), which only linear damping reaches: heads rolled on after a
/// passive collapse with angular damping alone. Boxes do not roll and get none (linear
/// damping slows a fall). Measured on the zoo's passive runs (`tests/it/doctor.rs`): spheres
/// alone at 0.1, 2 characters still moved in the last second; spheres and capsules at 0.1, 4;
/// at 0.15, none; every body at 0.15, 1; at 0.25, 2 (the runs are chaotic: these counts move
/// by a few with any change).
pub const ROLLING_LINEAR_SHARE: f64 = 0.15;

/// True for a shape that rolls on the ground.
pub fn rolls(shape: &Shape) -> bool {
    matches!(shape, Shape::Sphere { .. } | Shape::Capsule { .. })
}

/// The typed physics of a body, in its bone's own coordinates, rounded.
pub fn typed(b: &BodyOut) -> BonePhysics {
    let s = b.bone.scale;
    let inv = b.bone.rot.inverse();
    let shape = match b.fit.shape {
        Shape::Capsule {
            radius,
            half_height,
        } => ColliderShape::Capsule {
            radius: round(radius / s),
            half_height: round(half_height / s),
        },
        Shape::Sphere { radius } => ColliderShape::Sphere {
            radius: round(radius / s),
        },
        Shape::Box { half_extents } => ColliderShape::Box {
            half_extents: vec3(half_extents / s),
        },
    };
    let offset = ColliderOffset {
        translation: Some(vec3(inv * (b.fit.center - b.bone.pos) / s)),
        rotation: Some(quat((inv * b.fit.rotation).normalize())),
    };
    let (constraint, drive) = match &b.joint {
        Some((parent, joint, gains)) => (
            Some(Constraint {
                friction_torque_nm: round(b.friction_torque_nm),
                ..constraint(parent, joint, inv)
            }),
            Some(Drive {
                stiffness: round(gains.stiffness),
                damping: round(gains.damping),
                max_torque: round(gains.max_torque),
                follow_strength: round(gains.follow_strength),
            }),
        ),
        None => (None, None),
    };
    BonePhysics {
        collider: Some(Collider { shape, offset }),
        mass: round(b.mass_kg),
        constraint,
        drive,
        collision_group: b.group.to_string(),
        collision_mask: b.mask.to_string(),
        material: BodyMaterial {
            angular_damping: Some(b.angular_damping),
            linear_damping: rolls(&b.fit.shape)
                .then_some(round(b.angular_damping * ROLLING_LINEAR_SHARE)),
            ..BodyMaterial::default()
        },
        collision_pairs: b
            .apart
            .iter()
            .map(|o| CollisionPair {
                other: o.clone(),
                collide: false,
            })
            .collect(),
    }
}

/// The `extras.physics` object of a body, written by the schema codec.
pub fn physics(b: &BodyOut) -> Value {
    write::bone_physics(&typed(b))
}

fn constraint(parent: &str, joint: &JointPlan, inv: DQuat) -> Constraint {
    let kind = match *joint {
        JointPlan::Ball {
            swing_deg,
            twist_deg,
            swing_y,
        } => {
            let [lo, hi] = twist_deg.map(round);
            ConstraintKind::BallSocket {
                swing_limit_deg: SwingExtentsDeg::from_array(swing_deg.map(round)),
                twist_limit_deg: TwistRangeDeg {
                    min_deg: lo,
                    max_deg: hi,
                },
                swing_y_axis: Some(dir3((inv * swing_y).normalize_or(DVec3::Y))),
            }
        }
        JointPlan::Hinge {
            axis,
            min_deg,
            max_deg,
        } => ConstraintKind::Hinge {
            hinge_axis: dir3((inv * axis).normalize_or(DVec3::Z)),
            limit_min_deg: round(min_deg),
            limit_max_deg: round(max_deg),
        },
    };
    Constraint {
        kind,
        parent_bone: Some(parent.to_string()),
        parent_defaulted: false,
        friction_torque_nm: 0.0,
    }
}

/// The balance settings the generator writes.
pub fn balance(
    enabled: bool,
    torso: &str,
    pelvis: &str,
    feet: &[String],
    g: &BalanceGains,
) -> BalanceSettings {
    BalanceSettings {
        enabled,
        assist: crate::document::fields::Key::Assist.default_num(),
        torso_bone: Some(torso.to_string()),
        pelvis_bone: Some(pelvis.to_string()),
        foot_bones: Some(feet.to_vec()),
        upright_kp: round(g.upright_kp),
        upright_kd: round(g.upright_kd),
        upright_max_torque: round(g.upright_max_torque),
        ankle_kp: round(g.ankle_kp),
        ankle_kd: round(g.ankle_kd),
        ankle_max_torque: round(g.ankle_max_torque),
        ..BalanceSettings::default()
    }
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
            obj.insert(write::PHYSICS.into(), p);
        }
        None => {
            obj.shift_remove(write::PHYSICS);
        }
    }
    Some(Some(Value::Object(obj)))
}
