//! The role a bone's name says, across conventions: Mixamo and Ready Player Me (`LeftUpLeg`,
//! `LeftLeg`, `LeftArm`, `LeftForeArm`), Unreal and UE5 (`pelvis`, `thigh_l`, `calf_l`,
//! `clavicle_l`, `upperarm_l`, `lowerarm_l`, `ball_l`), Unity and VRM (`LeftUpperLeg`,
//! `leftLowerArm`), Rigify (`DEF-thigh.L`, `DEF-forearm.L`), Maya (`L_armUpper0001_bind_JNT`),
//! Blender (`upper_leg.L`), ad-hoc (`l-thigh`, `l-arm`, `upperleg.l`). Creature limbs named
//! front/back/hind/mid and numbered segments (`leg_joint_L_1`) say no role: the geometry
//! numbers them.

use super::kinds::Role;
use super::names::{NameHints, Side};

/// What a name says: a role, its side, and how sure the name is (0..1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NameRole {
    pub role: Role,
    pub side: Option<Side>,
    pub strength: f32,
}

/// Words that carry no role: namespaces, rig and exporter tags, segment words.
const NOISE: &[&str] = &[
    "left",
    "right",
    "l",
    "r",
    "mixamorig",
    "bip",
    "bip01",
    // VRoid's `J_Bip_C_Hips`, `J_Bip_L_UpperLeg`.
    "j",
    "b",
    "jnt",
    "jj",
    "bind",
    "joint",
    "bone",
    "def",
    // Rigify's `ORG-` bones, where the skin is weighted to them (`rig::skin_on_helpers_only`).
    "org",
    "sk",
    "c",
    "m",
    "drv",
    "deform",
    "skin",
    "cc",
    "base",
];
/// Words naming a creature's limb by its place (front, hind, middle legs).
const CREATURE: &[&str] = &["front", "back", "hind", "rear", "mid", "fore", "middle"];
const LEG_WORDS: &[&str] = &[
    "leg", "foot", "feet", "thigh", "shin", "calf", "knee", "paw",
];

fn role(role: Role, side: Option<Side>, strength: f32) -> Option<NameRole> {
    Some(NameRole {
        role,
        side,
        strength,
    })
}

/// The role the name says, if any.
pub fn role_of(h: &NameHints) -> Option<NameRole> {
    if h.helper || h.twist {
        return None;
    }
    let side = h.side;
    if h.finger {
        return role(Role::Finger, side, 0.8);
    }
    if h.tail {
        return role(Role::Tail, side, 0.8);
    }
    let numbered = h
        .words
        .iter()
        .any(|w| w.bytes().all(|c| c.is_ascii_digit()));
    let core: Vec<&str> = h
        .words
        .iter()
        .map(String::as_str)
        .filter(|w| !NOISE.contains(w) && !w.bytes().all(|c| c.is_ascii_digit()))
        .collect();
    let creature = core.iter().any(|w| CREATURE.contains(w))
        && core.iter().any(|w| LEG_WORDS.iter().any(|l| w.contains(l)));
    if creature {
        return None;
    }
    let joined = core.concat();
    if let Some(r) = limb_role(&joined, side, numbered) {
        return Some(r);
    }
    torso_role(&joined, side)
}

/// Arm and leg segments.
fn limb_role(joined: &str, side: Option<Side>, numbered: bool) -> Option<NameRole> {
    let sided = side.is_some();
    match joined {
        "thigh" | "upleg" | "upperleg" | "legupper" | "femur" | "thighbone" => {
            role(Role::Thigh, side, 0.9)
        }
        "hip" if sided => role(Role::Thigh, side, 0.5),
        "shin" | "calf" | "lowerleg" | "leglower" | "loleg" | "knee" | "tibia" | "shinbone" => {
            role(Role::Shin, side, 0.9)
        }
        // Mixamo's `LeftLeg` is the shin; `leg_joint_L_1` is a numbered segment.
        "leg" if sided && !numbered => role(Role::Shin, side, 0.7),
        "foot" | "feet" | "ankle" => role(Role::Foot, side, 0.9),
        "toe" | "toes" | "toebase" | "ball" | "toe0" => role(Role::Toe, side, 0.8),
        "clavicle" | "clav" | "collar" | "collarbone" | "scapula" => {
            role(Role::Clavicle, side, 0.8)
        }
        // Mixamo's `LeftShoulder` is the clavicle; below a bone named so, the upper arm.
        "shoulder" => role(Role::Clavicle, side, 0.7),
        "upperarm" | "uparm" | "armupper" | "humerus" | "bicep" => role(Role::UpperArm, side, 0.9),
        // Mixamo's and Godot's `LeftArm` / `l-arm` is the upper arm.
        "arm" if sided && !numbered => role(Role::UpperArm, side, 0.7),
        "forearm" | "lowerarm" | "armlower" | "loarm" | "elbow" | "ellbow" | "radius" | "ulna" => {
            role(Role::Forearm, side, 0.9)
        }
        "hand" | "palm" => role(Role::Hand, side, 0.9),
        "wrist" => role(Role::Hand, side, 0.5),
        _ if joined.starts_with("toe") => role(Role::Toe, side, 0.7),
        _ => None,
    }
}

/// Pelvis, spine, chest, neck and head (no side; a sided `pelvis.L` or `chest.R` is a
/// helper-like deforming bone of the torso).
fn torso_role(joined: &str, side: Option<Side>) -> Option<NameRole> {
    let torso_word = |w: &str| {
        [
            "hips", "hip", "pelvis", "spine", "chest", "neck", "head", "waist", "torso",
        ]
        .contains(&w)
    };
    if side.is_some() {
        return torso_word(joined).then_some(NameRole {
            role: Role::Other,
            side,
            strength: 0.5,
        });
    }
    match joined {
        "hips" | "hip" | "pelvis" => role(Role::Pelvis, None, 0.9),
        "head" => role(Role::Head, None, 0.9),
        "chest" | "upperchest" | "ribcage" | "thorax" => role(Role::Chest, None, 0.6),
        _ if joined.starts_with("neck") => role(Role::Neck, None, 0.8),
        _ if ["spine", "waist", "torso", "abdomen", "belly", "lowerback"]
            .iter()
            .any(|w| joined.starts_with(w)) =>
        {
            role(Role::Spine, None, 0.6)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::names::hints;
    use super::*;

    fn of(name: &str) -> Option<(Role, Option<Side>)> {
        role_of(&hints(name)).map(|r| (r.role, r.side))
    }

    #[test]
    fn roles_across_conventions() {
        use Role::*;
        let l = Some(Side::Left);
        let r = Some(Side::Right);
        for (name, want) in [
            ("mixamorig:LeftUpLeg", Some((Thigh, l))),
            ("LeftLeg", Some((Shin, l))),
            ("mixamorig:RightForeArm", Some((Forearm, r))),
            ("LeftArm", Some((UpperArm, l))),
            ("thigh_l", Some((Thigh, l))),
            ("calf_r", Some((Shin, r))),
            ("clavicle_l", Some((Clavicle, l))),
            ("upperarm_l", Some((UpperArm, l))),
            ("lowerarm_r", Some((Forearm, r))),
            ("ball_l", Some((Toe, l))),
            ("leftUpperLeg", Some((Thigh, l))),
            ("RightLowerArm", Some((Forearm, r))),
            ("DEF-thigh.L_023", Some((Thigh, l))),
            ("DEF-upper_arm.R_037", Some((UpperArm, r))),
            ("L_armUpper0001_bind_JNT", Some((UpperArm, l))),
            ("R_legLower0001_bind_JNT", Some((Shin, r))),
            ("upper_leg.L", Some((Thigh, l))),
            ("lower_arm.R", Some((Forearm, r))),
            ("l-thigh", Some((Thigh, l))),
            ("r-leg", Some((Shin, r))),
            ("l-arm", Some((UpperArm, l))),
            ("upperleg.l", Some((Thigh, l))),
            ("pelvis", Some((Pelvis, None))),
            ("mixamorig:Hips", Some((Pelvis, None))),
            ("spine_02", Some((Spine, None))),
            ("Head", Some((Head, None))),
            ("neck_01", Some((Neck, None))),
            ("DEF-pelvis.L_022", Some((Other, l))),
            ("leg_joint_L_1", None),
            ("FrontUpperLeg.L", None),
            ("BackLeg.R", None),
            ("r-LEGCONTROL", None),
            ("mixamorig:HeadTop_End", None),
            ("upperarm_twist_01_l", None),
        ] {
            assert_eq!(of(name), want, "{name}");
        }
    }
}
