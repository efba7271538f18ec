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
use crate::document::fields::{self, Key, Section};
use crate::document::{
    canonical, parse, write, BoneId, ConstraintKind, Document, Edit, EditTarget, Severity,
};
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

/// Reads a joint's limits and gains the way the codec reads a file: a constraint of type `ty`
/// with `limits` over `base` (a constraint object), and a drive of `gains`. The first error
/// the reader reports, as (key, message).
fn read_joint(
    ty: &str,
    base: Option<Map<String, Value>>,
    limits: &Map<String, Value>,
    gains: &Map<String, Value>,
) -> Result<(ConstraintKind, Map<String, Value>), (String, String)> {
    let constraint_key = write::top(Key::Constraint);
    let mut c = base.unwrap_or_default();
    c.insert(write::leaf(Key::ConstraintType).into(), Value::from(ty));
    let lk = limit_keys();
    for (k, v) in limits.iter().filter(|(k, _)| lk.contains(&k.as_str())) {
        canonical::overlay(&mut c, constraint_key, k, v);
    }
    let gk = gain_keys();
    let drive: Map<String, Value> = gains
        .iter()
        .filter(|(k, _)| gk.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut physics = Map::new();
    physics.insert(constraint_key.into(), Value::Object(c));
    physics.insert(write::top(Key::Drive).into(), Value::Object(drive.clone()));
    let (p, diags) = parse::read_bone_physics(&Value::Object(physics), 0, "preset");
    if let Some(d) = diags.iter().find(|d| d.severity == Severity::Error) {
        return Err((d.key.clone(), d.message.clone()));
    }
    let kind = p.constraint.map(|c| c.kind).ok_or_else(|| {
        (
            Key::ConstraintType.path().to_string(),
            format!("unknown joint type '{ty}'"),
        )
    })?;
    Ok((kind, drive))
}

impl Preset {
    /// Checks every joint's limits and gains with the codec's reader (types and the field
    /// table's ranges); unknown keys are ignored when applied.
    pub fn check(&self) -> Result<(), PresetError> {
        for (i, j) in self.joints.iter().enumerate() {
            read_joint(&j.joint_type, None, &j.limits, &j.gains).map_err(|(key, reason)| {
                PresetError::BadValue {
                    preset: self.name.clone(),
                    joint: i,
                    key,
                    reason,
                }
            })?;
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

fn joint_type(doc: &Document, id: BoneId) -> Option<&'static str> {
    Some(doc.bone(id).constraint()?.kind.type_name())
}

/// The keys of `obj` that are among `keys`, in `obj`'s order.
fn pick(obj: &Value, keys: &[&str]) -> Map<String, Value> {
    obj.as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| keys.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// A preset of the limits and gains of `bones` (those with a joint), as the codec writes them.
pub fn capture(doc: &Document, name: &str, bones: &[BoneId]) -> Preset {
    let roles = roles(doc);
    let joints = bones
        .iter()
        .filter_map(|&id| {
            let c = doc.bone(id).constraint()?;
            let drive = doc.bone(id).physics.as_ref()?.drive.unwrap_or_default();
            let (role, side) = roles
                .get(&id)
                .cloned()
                .map_or((None, None), |(r, s)| (Some(r), s));
            Some(JointPreset {
                bone: Some(doc.bone(id).name.clone()),
                role: role.map(|r| r.name().to_string()),
                side,
                joint_type: c.kind.type_name().to_string(),
                limits: pick(&write::constraint(c), &limit_keys()),
                gains: pick(&write::drive(&drive), &gain_keys()),
            })
        })
        .collect();
    Preset {
        name: name.to_string(),
        joints,
    }
}

/// A preset entry for one bone: its limits and gains, and whether it was taken from the other
/// side (then it is reflected onto this one).
struct Entry {
    limits: Map<String, Value>,
    gains: Map<String, Value>,
    other_side: bool,
}

/// The entry of `preset` for bone `id` of joint type `ty` (see the module doc for the order).
fn entry_for(
    doc: &Document,
    preset: &Preset,
    id: BoneId,
    ty: &str,
    role: Option<&(Role, Option<String>)>,
) -> Option<Entry> {
    let entry = |j: &JointPreset, other_side: bool| Entry {
        limits: j.limits.clone(),
        gains: j.gains.clone(),
        other_side,
    };
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
        return Some(entry(j, false));
    }
    if let Some((r, side)) = role {
        let same_role = |j: &&&JointPreset| j.role.as_deref() == Some(r.name());
        if let Some(j) = of_type.iter().filter(same_role).find(|j| j.side == *side) {
            return Some(entry(j, false));
        }
        if let Some(j) = of_type.iter().find(same_role) {
            return Some(entry(j, side.is_some() && j.side.is_some()));
        }
    }
    match preset.joints.as_slice() {
        [only] if only.joint_type == ty => Some(entry(only, false)),
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
    let pairs = if preset.joints.iter().any(|j| j.side.is_some()) {
        crate::mirror::twins(doc)
    } else {
        Vec::new()
    };
    let mut out = Applied::default();
    for &id in scope {
        let Some(ty) = joint_type(doc, id) else {
            continue;
        };
        let Some(e) = entry_for(doc, preset, id, ty, roles.get(&id)) else {
            out.skipped += 1;
            continue;
        };
        let edits =
            entry_edits(doc, id, &e, &pairs).map_err(|(key, reason)| PresetError::BadValue {
                preset: preset.name.clone(),
                joint: 0,
                key,
                reason,
            })?;
        if !edits.is_empty() {
            out.bones += 1;
            out.edits.extend(edits);
        }
    }
    Ok(out)
}

/// The edits that give bone `id` an entry's limits and gains. An entry from the other side is
/// applied to the twin's joint (the bone itself when it has none) and reflected onto `id`.
fn entry_edits(
    doc: &Document,
    id: BoneId,
    e: &Entry,
    pairs: &[(BoneId, BoneId)],
) -> Result<Vec<Edit>, (String, String)> {
    let source = if e.other_side {
        crate::mirror::twin_of(pairs, id)
            .filter(|&t| joint_type(doc, t) == joint_type(doc, id))
            .unwrap_or(id)
    } else {
        id
    };
    let Some(current) = doc.bone(source).constraint() else {
        return Ok(Vec::new());
    };
    let base = write::constraint(current).as_object().cloned();
    let ty = current.kind.type_name();
    let (mut kind, drive) = read_joint(ty, base, &e.limits, &e.gains)?;
    if e.other_side {
        let (normal, _) = crate::mirror::mid_plane(doc);
        let from = crate::mirror::joint_in_world(doc, source, &kind);
        let to_rot = crate::mirror::world_rotation(doc, id);
        kind = crate::mirror::reflect_joint(from, normal, to_rot);
    }
    let target = doc.bone_target(id);
    let mut edits = if e.limits.is_empty() && !e.other_side {
        Vec::new()
    } else {
        limit_edits(target, &kind)
    };
    edits.extend(drive.into_iter().map(|(k, v)| Edit::Set {
        target,
        key: format!("{}.{k}", write::top(Key::Drive)),
        value: v,
    }));
    Ok(edits)
}

/// The edits that set a joint's limits (and, for a reflected joint, its axes) through the codec.
fn limit_edits(target: EditTarget, kind: &ConstraintKind) -> Vec<Edit> {
    let set = |key: Key, value: Value| Edit::Set {
        target,
        key: key.path().into(),
        value,
    };
    match kind {
        ConstraintKind::BallSocket {
            swing_limit_deg,
            twist_limit_deg,
            swing_y_axis,
        } => {
            let mut v = vec![
                set(Key::SwingExtents, write::swing_extents(swing_limit_deg)),
                set(Key::TwistRange, write::twist_range(twist_limit_deg)),
            ];
            if let Some(y) = swing_y_axis {
                v.push(set(Key::SwingYAxis, serde_json::json!(y)));
            }
            v
        }
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => vec![
            set(Key::HingeAxis, serde_json::json!(hinge_axis)),
            set(Key::LimitMin, serde_json::json!(limit_min_deg)),
            set(Key::LimitMax, serde_json::json!(limit_max_deg)),
        ],
    }
}

/// The edits that apply the built-in reference humanoid to the jointed bones of `scope`.
pub fn apply_humanoid(doc: &Document, scope: &[BoneId]) -> Result<Applied, PresetError> {
    let g = crate::generate::generate(doc, &Default::default())
        .map_err(|e| PresetError::Generate(e.to_string()))?;
    let mut gdoc = doc.clone();
    gdoc.apply(&g.edit)
        .map_err(|e| PresetError::Generate(e.to_string()))?;
    let mut out = Applied::default();
    for &id in scope {
        let Some(existing) = doc.bone(id).constraint() else {
            continue;
        };
        let generated = gdoc
            .bone_of_node(doc.bone(id).node)
            .and_then(|gid| Some((gid, gdoc.bone(gid).constraint()?.clone())));
        let Some((gid, mut c)) = generated else {
            out.skipped += 1;
            continue;
        };
        c.parent_bone = (!existing.parent_defaulted)
            .then(|| existing.parent_bone.clone())
            .flatten();
        c.parent_defaulted = c.parent_bone.is_none();
        if let ConstraintKind::BallSocket { swing_y_axis, .. } = &mut c.kind {
            *swing_y_axis = fit_swing_axis(doc, (id, &gdoc, gid), *swing_y_axis);
        }
        out.edits.push(Edit::Set {
            target: doc.bone_target(id),
            key: Key::Constraint.path().into(),
            value: write::constraint(&c),
        });
        out.bones += 1;
    }
    Ok(out)
}

/// The generated swing Y axis is perpendicular to the generated collider's primary axis; a
/// bone whose own collider lies along another axis gets that direction made perpendicular
/// to its own primary axis, or the default frame (None) when the two are parallel.
fn fit_swing_axis(
    doc: &Document,
    (id, gdoc, gid): (BoneId, &Document, BoneId),
    y: Option<[f64; 3]>,
) -> Option<[f64; 3]> {
    let y = y?;
    let own = doc.primary_axis(id).normalize_or(glam::DVec3::Y);
    let generated = gdoc.primary_axis(gid).normalize_or(glam::DVec3::Y);
    if own.dot(generated) > 10f64.to_radians().cos() {
        return Some(y);
    }
    let y = glam::DVec3::from_array(y);
    let p = y - own * own.dot(y);
    (p.length() > 0.3).then(|| {
        let p = p.normalize();
        let r = |x: f64| (x * 1e6).round() / 1e6;
        [r(p.x), r(p.y), r(p.z)]
    })
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
                "swing_extents_deg",
                "twist_limit_deg",
                "twist_range_deg",
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
}
