//! A reader that follows the seed's C++ loader (`parse_constraint_def` in
//! `../shared/seeds/000_*.txt`) exactly: tinygltf's `GetNumberAsDouble()` gives 0 for anything
//! that is not a number, `Get<std::string>()` gives "" for anything that is not a string, and
//! missing keys keep the seed's defaults (swing 180, twist 180, hinge -180..180, axis +Z). The
//! seed skips a constraint without `parent_bone` or whose type is not one it knows.
//!
//! Every file the generator, mirror, presets and the editor write is read with it: no joint
//! may read as locked when its exact limits are not, and every cone it reads must lie within
//! the exact limit's range.

use ragdoll_tuner::document::{BoneId, ConstraintKind, Document};
use serde_json::Value;

/// The seed's `ConstraintDef`.
#[derive(Debug, Clone, PartialEq)]
pub enum SeedJoint {
    /// `Type::NONE`, or a constraint the seed skips (no parent bone).
    None,
    BallSocket {
        swing_deg: f32,
        twist_deg: f32,
    },
    Hinge {
        min_deg: f32,
        max_deg: f32,
        axis: [f32; 3],
    },
}

/// tinygltf's `GetNumberAsDouble()`.
fn number(v: Option<&Value>) -> f64 {
    v.and_then(Value::as_f64).unwrap_or(0.0)
}

/// The seed's `parse_constraint_def` on a node's `extras.physics`, plus its skip of a
/// constraint without a parent bone (`create_ragdoll_constraints`).
pub fn read(physics: &Value) -> SeedJoint {
    let Some(con) = physics.get("constraint") else {
        return SeedJoint::None;
    };
    let type_str = con.get("type").and_then(Value::as_str).unwrap_or("");
    let has = |k: &str| con.get(k).is_some();
    let num = |k: &str, default: f32| {
        if has(k) {
            number(con.get(k)) as f32
        } else {
            default
        }
    };
    let parent = con.get("parent_bone").and_then(Value::as_str).unwrap_or("");
    if parent.is_empty() {
        return SeedJoint::None;
    }
    match type_str {
        "ball_socket" => SeedJoint::BallSocket {
            swing_deg: num("swing_limit_deg", 180.0),
            twist_deg: num("twist_limit_deg", 180.0),
        },
        "hinge" => {
            let axis = match con.get("hinge_axis") {
                Some(ax) => [0, 1, 2].map(|i| number(ax.get(i)) as f32),
                None => [0.0, 0.0, 1.0],
            };
            SeedJoint::Hinge {
                min_deg: num("limit_min_deg", -180.0),
                max_deg: num("limit_max_deg", 180.0),
                axis,
            }
        }
        _ => SeedJoint::None,
    }
}

/// What is wrong with how the seed reads bone `id` of `doc`, compared with the exact joint our
/// own reader resolves; None when the seed reads it faithfully.
pub fn check_bone(doc: &Document, id: BoneId) -> Option<String> {
    let exact = doc.bone(id).constraint()?;
    let name = &doc.bone(id).name;
    let physics = doc.physics_json(id)?;
    let seed = read(physics);
    const EPS: f32 = 1e-3;
    match (&exact.kind, &seed) {
        (
            ConstraintKind::BallSocket {
                swing_limit_deg: s,
                twist_limit_deg: t,
                ..
            },
            SeedJoint::BallSocket {
                swing_deg,
                twist_deg,
            },
        ) => {
            let a = s.to_array();
            let (lo, hi) = (a.into_iter().fold(f64::MAX, f64::min), s.max());
            if *swing_deg <= 0.0 && hi > 0.0 {
                return Some(format!(
                    "{name}: swing reads locked (0), exact extents {a:?}"
                ));
            }
            if (*swing_deg as f64) < lo - EPS as f64 || (*swing_deg as f64) > hi + EPS as f64 {
                return Some(format!(
                    "{name}: swing cone {swing_deg} outside the exact extents {a:?}"
                ));
            }
            let (m0, m1) = (t.min_deg.abs(), t.max_deg.abs());
            if *twist_deg <= 0.0 && t.max_deg > t.min_deg {
                return Some(format!("{name}: twist reads locked (0), exact {t:?}"));
            }
            let tw = *twist_deg as f64;
            if tw < m0.min(m1) - EPS as f64 || tw > m0.max(m1) + EPS as f64 {
                return Some(format!(
                    "{name}: twist ±{twist_deg} outside the exact range {t:?}"
                ));
            }
            None
        }
        (
            ConstraintKind::Hinge {
                hinge_axis,
                limit_min_deg,
                limit_max_deg,
            },
            SeedJoint::Hinge {
                min_deg,
                max_deg,
                axis,
            },
        ) => {
            let same = (*min_deg as f64 - limit_min_deg).abs() < 1e-3
                && (*max_deg as f64 - limit_max_deg).abs() < 1e-3;
            let a = glam::DVec3::from_array(*hinge_axis).normalize();
            let b = glam::Vec3::from_array(*axis).as_dvec3().normalize_or_zero();
            if !same || a.dot(b) < 0.9999 {
                return Some(format!(
                    "{name}: hinge reads {min_deg}..{max_deg} about {axis:?}, exact {limit_min_deg}..{limit_max_deg} about {hinge_axis:?}"
                ));
            }
            None
        }
        (kind, seed) => Some(format!(
            "{name}: the seed reads {seed:?} for a {}",
            kind.type_name()
        )),
    }
}

/// Every problem the seed's loader has with `doc`'s joints.
pub fn problems(doc: &Document) -> Vec<String> {
    doc.bone_ids()
        .filter_map(|id| check_bone(doc, id))
        .collect()
}
