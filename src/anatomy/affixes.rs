//! What exporters add to every name of a file: a prefix (the action's or the armature's name,
//! `idle_Bip01_Head`) and a node-index suffix (Sketchfab's `leftArm_011`). Neither says
//! anything of the bone; the anatomy reads names past them.

use super::names::hints;

/// Fewer names than this share no exporter prefix ([`shared_prefix`]).
const MIN_SHARED: usize = 4;

/// The leading word that every one of `names` starts with, its separator included
/// (`idle_` of `idle_Bip01_R_Thigh`), when there are at least [`MIN_SHARED`] names and each
/// goes on after it. Blender's older exporter writes the action's or the armature's name
/// before every bone (`attack_Bip01_Head`, `Armature_Bone.001`), and a name read with it
/// says `idle thigh`, which no convention names. A prefix that says something itself (a
/// side, a helper or control word: `ORG-`, `MCH-`) is not an exporter's and is kept.
pub fn shared_prefix<'a>(names: &[&'a str]) -> Option<&'a str> {
    const SEPARATORS: &[char] = &['_', ':', '.', '-', '|', ' '];
    let first = names.first()?;
    let end = first.find(SEPARATORS)? + 1;
    let prefix = &first[..end];
    let shared =
        names.len() >= MIN_SHARED && names.iter().all(|n| n.len() > end && n.starts_with(prefix));
    let h = hints(prefix);
    let says_something = h.side.is_some() || h.helper || h.twist || h.words.is_empty();
    (shared && !says_something).then_some(prefix)
}

/// The least share of names ending in `_<digits>` for the digits to be an exporter's
/// node index ([`index_suffixed`]).
const INDEX_SUFFIXED_SHARE: f64 = 0.9;

/// Whether `names` carry an exporter's node-index suffix (`leftArm_011`, `DEF-thigh.L_023`:
/// Sketchfab's exports number every node): at least [`MIN_SHARED`] names, nearly all
/// ([`INDEX_SUFFIXED_SHARE`]) ending in `_<digits>`, no number twice. A rig's own segment
/// numbers repeat (`leg_joint_L_1` and `leg_joint_R_1`). Such a suffix says nothing of the
/// bone: `leftArm_011` is no numbered segment of an arm.
pub fn index_suffixed(names: &[&str]) -> bool {
    let numbers: Vec<&str> = names
        .iter()
        .filter_map(|n| index_suffix(n).map(|x| x.1))
        .collect();
    let distinct: std::collections::HashSet<u64> =
        numbers.iter().filter_map(|n| n.parse().ok()).collect();
    names.len() >= MIN_SHARED
        && numbers.len() as f64 >= INDEX_SUFFIXED_SHARE * names.len() as f64
        && distinct.len() == numbers.len()
}

/// A name without an exporter's node-index suffix (`DEF-thigh.L_023` -> `DEF-thigh.L`).
pub fn strip_index(name: &str) -> &str {
    index_suffix(name).map_or(name, |x| x.0)
}

/// A name split before a `_<digits>` ending: (the name before it, the digits).
fn index_suffix(name: &str) -> Option<(&str, &str)> {
    let (base, num) = name.rsplit_once('_')?;
    (!num.is_empty() && num.bytes().all(|c| c.is_ascii_digit())).then_some((base, num))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exporter_s_node_index_is_told_from_a_rig_s_segment_numbers() {
        let mut sketchfab = vec!["_rootJoint", "Armature_00", "leftLeg_01", "leftLeg1_02"];
        sketchfab.extend(["leftLeg2_03", "leftFoot_04", "rightLeg_05", "rightLeg1_06"]);
        sketchfab.extend(["torso1_09", "head_010", "leftArm_011", "leftArm1_012"]);
        assert!(index_suffixed(&sketchfab));
        let segments = [
            "spine_1",
            "leg_joint_L_1",
            "leg_joint_R_1",
            "leg_joint_L_2",
            "head",
        ];
        assert!(!index_suffixed(&segments), "segment numbers repeat");
        let mixamo = [
            "mixamorig:Hips",
            "mixamorig:Spine",
            "mixamorig:LeftArm",
            "mixamorig:Head",
        ];
        assert!(!index_suffixed(&mixamo));
    }

    #[test]
    fn an_exporter_s_prefix_on_every_name_is_found_and_a_rig_s_own_is_kept() {
        let idle = [
            "idle_Bip01",
            "idle_Bip01_Pelvis",
            "idle_Bip01_R_Thigh",
            "idle_Bip01_Head",
        ];
        assert_eq!(shared_prefix(&idle), Some("idle_"));
        let blender = [
            "Armature_Bone",
            "Armature_Bone.001",
            "Armature_Spine",
            "Armature_Head",
        ];
        assert_eq!(shared_prefix(&blender), Some("Armature_"));
        // One name without it, a name that is the prefix alone, or too few names: none.
        assert_eq!(
            shared_prefix(&["idle_Hips", "idle_Spine", "idle_Head", "Root"]),
            None
        );
        assert_eq!(
            shared_prefix(&["idle_", "idle_Spine", "idle_Head", "idle_Neck"]),
            None
        );
        assert_eq!(
            shared_prefix(&["idle_Hips", "idle_Spine", "idle_Head"]),
            None
        );
        // A rig's own prefixes say something: kept.
        for own in [
            ["DEF-spine", "DEF-thigh.L", "DEF-thigh.R", "DEF-head"],
            ["ORG-spine", "ORG-thigh.L", "ORG-thigh.R", "ORG-head"],
            ["L_arm", "L_leg", "L_hand", "L_foot"],
            [
                "mixamorig:Hips",
                "mixamorig:Spine",
                "mixamorig:Head",
                "mixamorig:Neck",
            ],
        ] {
            assert_eq!(shared_prefix(&own), None, "{own:?}");
        }
    }
}
