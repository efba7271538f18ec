//! Presets of joint limits and drive gains, applied by role to the selection or to all
//! bones. Pure document-layer code: applying a preset gives edits for [`Document::apply`]
//! (one group, one undo step in the editor).
//!
//! - The built-in reference humanoid ([`BUILTIN_HUMANOID`]): the seed's reference ranges as
//!   the ragdoll generator sets them by role (shoulder cone, elbow and knee hinges, hip
//!   120/15/45, spine 15-20 degrees...), so role recognition and the ranges live in one place
//!   ([`crate::generate`]). It replaces each jointed bone's constraint with the generated one
//!   for its role (type, axes in the bone's own frame, limits), keeping its parent bone.
//! - User presets ([`Preset`]): limits (the constraint's `*_deg` keys of the field table)
//!   and gains (the drive keys) per joint, with the bone name, role and side they were taken
//!   from, stored as named JSON files ([`store`]). Applied by bone name, else by role and
//!   side (the other side's limits mirrored: +Z and -Z swing extents swapped, twist negated),
//!   else, for a one-joint preset, to every selected joint of the same type.

pub mod store;

use crate::anatomy::{Role, Side};
use crate::document::fields::{self, Section};
use crate::document::{BoneId, Document, Edit, EditTarget};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The name of the built-in reference humanoid preset.
pub const BUILTIN_HUMANOID: &str = "humanoid";

/// A failure to read, write or apply a preset.
#[derive(Debug, thiserror::Error)]
pub enum PresetError {
    // The causes are part of the message (not `source`), so a report prints them once.
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}: not a preset: {error}")]
    Parse {
        path: String,
        error: serde_json::Error,
    },
    #[error("preset name '{0}' is empty or has characters other than letters, digits, space, '-' and '_'")]
    BadName(String),
    #[error(
        "no preset named '{name}' (built in: {BUILTIN_HUMANOID}; user presets in {dir}: {known})"
    )]
    Unknown {
        name: String,
        dir: String,
        known: String,
    },
    #[error("no user config folder: set {} to choose one", store::DIR_ENV)]
    NoDir,
    #[error("{0}")]
    Generate(String),
    #[error("preset {preset}: joint {joint}: {key}: {reason}")]
    BadValue {
        preset: String,
        joint: usize,
        key: String,
        reason: String,
    },
}

/// Checks a preset value against the field table: gains and hinge limits are numbers in
/// their range; swing and twist may also be the object / pair forms the parser checks.
fn check_value(section: Section, key: &str, value: &Value) -> Result<(), String> {
    let spec = fields::num_spec(section, key);
    match value {
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            let low_ok = if spec.exclusive_min {
                x > spec.min
            } else {
                x >= spec.min
            };
            if x.is_finite() && low_ok && x <= spec.max {
                Ok(())
            } else {
                Err(format!("{x} is outside {}..{}", spec.min, spec.max))
            }
        }
        Value::Object(_) if key == "swing_limit_deg" => Ok(()),
        Value::Array(_) if key == "twist_limit_deg" => Ok(()),
        other => Err(format!("expected a number, found {other}")),
    }
}

impl Preset {
    /// Checks every value (see [`check_value`]); unknown keys are ignored when applied.
    pub fn check(&self) -> Result<(), PresetError> {
        for (i, j) in self.joints.iter().enumerate() {
            let lists = [
                (Section::Constraint, &j.limits, limit_keys()),
                (Section::Drive, &j.gains, gain_keys()),
            ];
            for (section, map, known) in lists {
                for (k, v) in map.iter().filter(|(k, _)| known.contains(&k.as_str())) {
                    check_value(section, k, v).map_err(|reason| PresetError::BadValue {
                        preset: self.name.clone(),
                        joint: i,
                        key: k.clone(),
                        reason,
                    })?;
                }
            }
        }
        Ok(())
    }
}

/// One joint's limits and gains.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JointPreset {
    /// The bone it was taken from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bone: Option<String>,
    /// Its role as the generator recognises it (`forearm`, `thigh`...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// `left` or `right`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// `ball_socket` or `hinge`: limits apply to joints of this type only.
    #[serde(rename = "type")]
    pub joint_type: String,
    /// Constraint limit keys (`limit_min_deg`, `swing_limit_deg`...) and their values.
    #[serde(default)]
    pub limits: Map<String, Value>,
    /// Drive keys (`stiffness`...) and their values.
    #[serde(default)]
    pub gains: Map<String, Value>,
}

/// A named user preset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Preset {
    pub name: String,
    pub joints: Vec<JointPreset>,
}

/// What applying a preset gives: the edits, and how many bones got something.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    pub edits: Vec<Edit>,
    pub bones: usize,
    /// Jointed bones in scope the preset had nothing for.
    pub skipped: usize,
}

/// The constraint keys a preset carries: the field table's limits (`*_deg`).
pub fn limit_keys() -> Vec<&'static str> {
    fields::section(Section::Constraint)
        .map(|f| f.key)
        .filter(|k| k.ends_with("_deg"))
        .collect()
}

/// The drive keys a preset carries (all of the field table's drive keys).
pub fn gain_keys() -> Vec<&'static str> {
    fields::keys(Section::Drive)
}

/// Role and side per bone, from the document's anatomy.
pub fn roles(doc: &Document) -> HashMap<BoneId, (Role, Option<String>)> {
    let a = crate::anatomy::Anatomy::of(doc);
    doc.bone_ids()
        .map(|id| {
            let side = a.side(id).map(|s| match s {
                Side::Left => "left".to_string(),
                Side::Right => "right".to_string(),
            });
            (id, (a.role(id), side))
        })
        .collect()
}

fn raw_constraint(doc: &Document, id: BoneId) -> Option<&Map<String, Value>> {
    doc.json()
        .get("nodes")?
        .get(doc.bone(id).node)?
        .get("extras")?
        .get("physics")?
        .get("constraint")?
        .as_object()
}

fn raw_drive(doc: &Document, id: BoneId) -> Option<&Map<String, Value>> {
    doc.json()
        .get("nodes")?
        .get(doc.bone(id).node)?
        .get("extras")?
        .get("physics")?
        .get("drive")?
        .as_object()
}

fn joint_type(doc: &Document, id: BoneId) -> Option<&'static str> {
    let p = doc.bone(id).physics.as_ref()?;
    Some(p.constraint.as_ref()?.kind.type_name())
}

/// A preset of the limits and gains of `bones` (those with a joint), as the file holds them.
pub fn capture(doc: &Document, name: &str, bones: &[BoneId]) -> Preset {
    let roles = roles(doc);
    let joints = bones
        .iter()
        .filter_map(|&id| {
            let ty = joint_type(doc, id)?;
            let pick = |m: Option<&Map<String, Value>>, keys: &[&str]| -> Map<String, Value> {
                m.map(|m| {
                    m.iter()
                        .filter(|(k, _)| keys.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                })
                .unwrap_or_default()
            };
            let (role, side) = roles
                .get(&id)
                .cloned()
                .map_or((None, None), |(r, s)| (Some(r), s));
            Some(JointPreset {
                bone: Some(doc.bone(id).name.clone()),
                role: role.map(|r| r.name().to_string()),
                side,
                joint_type: ty.to_string(),
                limits: pick(raw_constraint(doc, id), &limit_keys()),
                gains: pick(raw_drive(doc, id), &gain_keys()),
            })
        })
        .collect();
    Preset {
        name: name.to_string(),
        joints,
    }
}

/// Limits of the other side: swing +Z and -Z swapped, twist negated (as the mirror does for
/// mirror-consistent joint frames).
fn mirrored_limits(limits: &Map<String, Value>) -> Map<String, Value> {
    let mut out = limits.clone();
    if let Some(Value::Object(s)) = out.get_mut("swing_limit_deg") {
        let (pz, nz) = (s.get("pos_z").cloned(), s.get("neg_z").cloned());
        if let (Some(pz), Some(nz)) = (pz, nz) {
            s.insert("pos_z".into(), nz);
            s.insert("neg_z".into(), pz);
        }
    }
    if let Some(Value::Array(t)) = out.get("twist_limit_deg").cloned() {
        if let [Some(a), Some(b)] = [t.first(), t.get(1)].map(|v| v.and_then(Value::as_f64)) {
            out.insert("twist_limit_deg".into(), serde_json::json!([-b, -a]));
        }
    }
    out
}

/// The entry of `preset` for bone `id` of joint type `ty` (see the module doc for the order).
fn entry_for(
    doc: &Document,
    preset: &Preset,
    id: BoneId,
    ty: &str,
    role: Option<&(Role, Option<String>)>,
) -> Option<(Map<String, Value>, Map<String, Value>)> {
    let of_type: Vec<&JointPreset> = preset
        .joints
        .iter()
        .filter(|j| j.joint_type == ty)
        .collect();
    let name = &doc.bone(id).name;
    if let Some(j) = of_type
        .iter()
        .find(|j| j.bone.as_deref() == Some(name.as_str()))
    {
        return Some((j.limits.clone(), j.gains.clone()));
    }
    if let Some((r, side)) = role {
        let same_role = |j: &&&JointPreset| j.role.as_deref() == Some(r.name());
        if let Some(j) = of_type.iter().filter(same_role).find(|j| j.side == *side) {
            return Some((j.limits.clone(), j.gains.clone()));
        }
        if let Some(j) = of_type.iter().find(same_role) {
            let mirrored = side.is_some() && j.side.is_some();
            let limits = if mirrored {
                mirrored_limits(&j.limits)
            } else {
                j.limits.clone()
            };
            return Some((limits, j.gains.clone()));
        }
    }
    match preset.joints.as_slice() {
        [only] if only.joint_type == ty => Some((only.limits.clone(), only.gains.clone())),
        _ => None,
    }
}

/// The edits that apply a user preset to the jointed bones of `scope` (refused whole when a
/// value is not what the field table allows).
pub fn apply_user(
    doc: &Document,
    preset: &Preset,
    scope: &[BoneId],
) -> Result<Applied, PresetError> {
    preset.check()?;
    let needs_roles = preset.joints.iter().any(|j| j.role.is_some()) && preset.joints.len() > 1;
    let roles = if needs_roles {
        roles(doc)
    } else {
        HashMap::new()
    };
    let mut out = Applied::default();
    for &id in scope {
        let Some(ty) = joint_type(doc, id) else {
            continue;
        };
        let Some((limits, gains)) = entry_for(doc, preset, id, ty, roles.get(&id)) else {
            out.skipped += 1;
            continue;
        };
        let target = doc.bone_target(id);
        let set = |section: &str, k: &String, v: &Value| Edit::Set {
            target,
            key: format!("{section}.{k}"),
            value: v.clone(),
        };
        let lk = limit_keys();
        let gk = gain_keys();
        let before = out.edits.len();
        out.edits.extend(
            limits
                .iter()
                .filter(|(k, _)| lk.contains(&k.as_str()))
                .map(|(k, v)| set("constraint", k, v)),
        );
        out.edits.extend(
            gains
                .iter()
                .filter(|(k, _)| gk.contains(&k.as_str()))
                .map(|(k, v)| set("drive", k, v)),
        );
        if out.edits.len() > before {
            out.bones += 1;
        }
    }
    Ok(out)
}

/// The edits that apply the built-in reference humanoid to the jointed bones of `scope`.
pub fn apply_humanoid(doc: &Document, scope: &[BoneId]) -> Result<Applied, PresetError> {
    let g = crate::generate::generate(doc, &Default::default())
        .map_err(|e| PresetError::Generate(e.to_string()))?;
    let mut generated: HashMap<usize, Value> = HashMap::new();
    let Edit::Group(list) = &g.edit else {
        return Err(PresetError::Generate("the generator gave no group".into()));
    };
    for e in list {
        if let Edit::ReplaceExtras {
            target: EditTarget::Node(n),
            extras: Some(x),
        } = e
        {
            if let Some(c) = x.get("physics").and_then(|p| p.get("constraint")) {
                generated.insert(*n, c.clone());
            }
        }
    }
    let mut gdoc = doc.clone();
    gdoc.apply(&g.edit)
        .map_err(|e| PresetError::Generate(e.to_string()))?;
    let mut out = Applied::default();
    for &id in scope {
        let Some(existing) = raw_constraint(doc, id) else {
            continue;
        };
        let Some(Value::Object(mut c)) = generated.get(&doc.bone(id).node).cloned() else {
            out.skipped += 1;
            continue;
        };
        match existing.get("parent_bone") {
            Some(p) => c.insert("parent_bone".into(), p.clone()),
            None => c.shift_remove("parent_bone"),
        };
        fit_swing_axis(doc, &gdoc, id, &mut c);
        out.edits.push(Edit::Set {
            target: doc.bone_target(id),
            key: "constraint".into(),
            value: Value::Object(c),
        });
        out.bones += 1;
    }
    Ok(out)
}

/// The generated swing Y axis is perpendicular to the generated collider's primary axis; a
/// bone whose own collider lies along another axis gets that direction made perpendicular
/// to its own primary axis, or the default frame when the two are parallel (an error
/// otherwise).
fn fit_swing_axis(doc: &Document, gdoc: &Document, id: BoneId, c: &mut Map<String, Value>) {
    let Some(y) = c
        .get("swing_y_axis")
        .and_then(|v| serde_json::from_value::<[f64; 3]>(v.clone()).ok())
    else {
        return;
    };
    let Some(gid) = gdoc.bone_of_node(doc.bone(id).node) else {
        return;
    };
    let own = doc.primary_axis(id).normalize_or(glam::DVec3::Y);
    let generated = gdoc.primary_axis(gid).normalize_or(glam::DVec3::Y);
    if own.dot(generated) > 10f64.to_radians().cos() {
        return;
    }
    let y = glam::DVec3::from_array(y);
    let p = y - own * own.dot(y);
    if p.length() > 0.3 {
        let p = p.normalize();
        let r = |x: f64| (x * 1e6).round() / 1e6;
        c.insert(
            "swing_y_axis".into(),
            serde_json::json!([r(p.x), r(p.y), r(p.z)]),
        );
    } else {
        c.shift_remove("swing_y_axis");
    }
}

/// Applies a preset named by the built-in name, a user preset's name or a JSON file path.
pub fn apply_named(
    doc: &Document,
    name_or_file: &str,
    scope: &[BoneId],
    dir: Option<&std::path::Path>,
) -> Result<Applied, PresetError> {
    if name_or_file == BUILTIN_HUMANOID {
        return apply_humanoid(doc, scope);
    }
    let preset = store::resolve(name_or_file, dir)?;
    apply_user(doc, &preset, scope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_from_the_field_table() {
        assert_eq!(
            limit_keys(),
            [
                "swing_limit_deg",
                "twist_limit_deg",
                "limit_min_deg",
                "limit_max_deg"
            ]
        );
        assert!(gain_keys().contains(&"follow_strength"));
    }

    #[test]
    fn values_are_checked_against_the_field_table() {
        let bad = |limits: Value, gains: Value| {
            Preset {
                name: "t".into(),
                joints: vec![JointPreset {
                    bone: None,
                    role: None,
                    side: None,
                    joint_type: "hinge".into(),
                    limits: serde_json::from_value(limits).expect("object"),
                    gains: serde_json::from_value(gains).expect("object"),
                }],
            }
            .check()
        };
        assert!(bad(
            serde_json::json!({"limit_min_deg": -10}),
            serde_json::json!({"stiffness": 5})
        )
        .is_ok());
        assert!(bad(
            serde_json::json!({"limit_min_deg": "abc"}),
            serde_json::json!({})
        )
        .is_err());
        assert!(bad(
            serde_json::json!({"limit_max_deg": 900}),
            serde_json::json!({})
        )
        .is_err());
        assert!(bad(serde_json::json!({}), serde_json::json!({"damping": -1})).is_err());
    }

    #[test]
    fn other_side_limits_are_mirrored() {
        let m: Map<String, Value> = serde_json::from_value(serde_json::json!({
            "swing_limit_deg": {"pos_y": 1, "neg_y": 2, "pos_z": 3, "neg_z": 4},
            "twist_limit_deg": [-10.0, 30.0]
        }))
        .expect("object");
        let r = mirrored_limits(&m);
        assert_eq!(r["swing_limit_deg"]["pos_z"], 4);
        assert_eq!(r["swing_limit_deg"]["neg_z"], 3);
        assert_eq!(r["twist_limit_deg"], serde_json::json!([-30.0, 10.0]));
    }
}
