//! The VRM humanoid map, the truth for every bone it names: `extensions.VRM.humanoid.humanBones`
//! in VRM 0.x (an array of `{bone, node}`), `extensions.VRMC_vrm.humanoid.humanBones` in VRM 1.0
//! (an object `boneName -> {node}`). Sides are the character's own (`leftUpperLeg`).

use super::kinds::Role;
use super::names::Side;
use super::rig::Rig;
use crate::document::Document;
use serde_json::Value;

/// One bone the map names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MappedBone {
    pub role: Role,
    pub side: Option<Side>,
}

/// The role and side of a VRM humanoid bone name; None for names we give no role.
pub fn role_of(vrm_name: &str, has_upper_chest: bool) -> Option<MappedBone> {
    let (side, rest) = if let Some(r) = vrm_name.strip_prefix("left") {
        (Some(Side::Left), r)
    } else if let Some(r) = vrm_name.strip_prefix("right") {
        (Some(Side::Right), r)
    } else {
        (None, vrm_name)
    };
    let role = match rest {
        "hips" => Role::Pelvis,
        "spine" => Role::Spine,
        "chest" if has_upper_chest => Role::Spine,
        "chest" | "upperChest" => Role::Chest,
        "neck" => Role::Neck,
        "head" => Role::Head,
        "Shoulder" => Role::Clavicle,
        "UpperArm" => Role::UpperArm,
        "LowerArm" => Role::Forearm,
        "Hand" => Role::Hand,
        "UpperLeg" => Role::Thigh,
        "LowerLeg" => Role::Shin,
        "Foot" => Role::Foot,
        "Toes" => Role::Toe,
        "Eye" | "jaw" => Role::Other,
        r if ["Thumb", "Index", "Middle", "Ring", "Little"]
            .iter()
            .any(|f| r.starts_with(f)) =>
        {
            Role::Finger
        }
        _ => return None,
    };
    Some(MappedBone { role, side })
}

/// (VRM bone name, node) pairs of the file's map, VRM 1.0 first.
fn pairs(json: &Value) -> Vec<(String, usize)> {
    let ext = json.get("extensions");
    let node = |v: &Value| v.get("node")?.as_u64().map(|n| n as usize);
    if let Some(map) = ext
        .and_then(|e| e.pointer("/VRMC_vrm/humanoid/humanBones"))
        .and_then(Value::as_object)
    {
        return map
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), node(v)?)))
            .collect();
    }
    ext.and_then(|e| e.pointer("/VRM/humanoid/humanBones"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|b| Some((b.get("bone")?.as_str()?.to_string(), node(b)?)))
                .collect()
        })
        .unwrap_or_default()
}

/// The nodes the file's map names.
pub fn mapped_nodes(doc: &Document) -> Vec<usize> {
    pairs(doc.json()).into_iter().map(|(_, n)| n).collect()
}

/// The map's facts per bone (same index as the rig), or None when the file has no map.
pub fn humanoid_map(doc: &Document, rig: &Rig) -> Option<Vec<Option<MappedBone>>> {
    let pairs = pairs(doc.json());
    if pairs.is_empty() {
        return None;
    }
    let upper = pairs.iter().any(|(k, _)| k == "upperChest");
    let mut out = vec![None; rig.len()];
    for (name, node) in &pairs {
        let Some(i) = rig.bones.iter().position(|b| b.node == *node) else {
            continue;
        };
        out[i] = role_of(name, upper);
    }
    out.iter().any(Option::is_some).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vrm_names() {
        let m = |n| role_of(n, false).map(|b| (b.role, b.side));
        assert_eq!(m("leftUpperLeg"), Some((Role::Thigh, Some(Side::Left))));
        assert_eq!(m("rightLowerArm"), Some((Role::Forearm, Some(Side::Right))));
        assert_eq!(m("hips"), Some((Role::Pelvis, None)));
        assert_eq!(m("leftThumbMetacarpal").map(|x| x.0), Some(Role::Finger));
        assert_eq!(m("chest"), Some((Role::Chest, None)));
        assert_eq!(role_of("chest", true).map(|b| b.role), Some(Role::Spine));
        assert_eq!(m("somethingElse"), None);
    }
}
