//! What a bone's name says, across naming conventions (Mixamo `mixamorig:LeftUpLeg`, Blender
//! and Rigify `thigh.L`, `DEF-upper_arm.L`, Unreal `thigh_l`, `upperarm_twist_01_l`, VRM
//! `leftUpperLeg`, the Khronos samples `leg_joint_L_1`, `b_LeftLeg01_015`): a side, and flags
//! for bones that are not body segments (twist/roll, helpers, end bones, fingers, toes, tail).
//! Names are hints only: roles come from topology and geometry (see [`super::roles`]).

/// A left/right marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

/// What a name says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NameHints {
    /// Lower-case words of the name, namespace and rig prefixes removed.
    pub words: Vec<String>,
    pub side: Option<Side>,
    /// A twist or roll segment (`*_twist_01_l`, `ForeArmRoll`).
    pub twist: bool,
    /// A helper or control bone (`MCH-`, `ORG-`, `IK`, `pole`, `target`, `_end`, `nub`).
    pub helper: bool,
    pub finger: bool,
    pub toe: bool,
    pub tail: bool,
}

const HELPER_WORDS: &[&str] = &[
    "end", "nub", "ik", "fk", "pole", "target", "helper", "mch", "org", "ctrl", "socket", "weapon",
    "prop", "attach", "null", "dummy", "tip",
];
const FINGER_WORDS: &[&str] = &[
    "finger", "thumb", "index", "middle", "ring", "pinky", "little", "digit",
];

/// Splits a name into lower-case words: namespaces before `:` and the rig prefixes `DEF-`,
/// `ORG-`, `MCH-` are dropped (`ORG`/`MCH` are remembered as a helper word), camelCase and
/// digits split (`LeftUpLeg` -> left up leg, `Leg01` -> leg 01).
pub fn words(name: &str) -> Vec<String> {
    let name = name.rsplit(':').next().unwrap_or(name);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let split = match prev {
            _ if !c.is_alphanumeric() => {
                push_word(&mut out, &mut cur);
                prev = None;
                continue;
            }
            Some(p) => {
                (p.is_lowercase() && c.is_uppercase()) || (p.is_alphabetic() != c.is_alphabetic())
            }
            None => false,
        };
        if split {
            push_word(&mut out, &mut cur);
        }
        cur.extend(c.to_lowercase());
        prev = Some(c);
    }
    push_word(&mut out, &mut cur);
    if out.first().is_some_and(|w| w == "def") {
        out.remove(0);
    }
    out
}

fn push_word(out: &mut Vec<String>, cur: &mut String) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

/// The hints of one bone name.
pub fn hints(name: &str) -> NameHints {
    let w = words(name);
    let has = |list: &[&str]| w.iter().any(|x| list.contains(&x.as_str()));
    let contains = |part: &str| w.iter().any(|x| x.contains(part));
    let side = if w.iter().any(|x| x == "left" || x == "l") {
        Some(Side::Left)
    } else if w.iter().any(|x| x == "right" || x == "r") {
        Some(Side::Right)
    } else {
        None
    };
    NameHints {
        side,
        twist: contains("twist") || contains("roll"),
        helper: has(HELPER_WORDS),
        finger: has(FINGER_WORDS) || contains("finger"),
        toe: contains("toe") || has(&["ball"]),
        tail: contains("tail"),
        words: w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_across_conventions() {
        for (n, s) in [
            ("mixamorig:LeftUpLeg", Some(Side::Left)),
            ("thigh.L", Some(Side::Left)),
            ("DEF-upper_arm.R", Some(Side::Right)),
            ("calf_r", Some(Side::Right)),
            ("leftUpperLeg", Some(Side::Left)),
            ("leg_joint_L_1", Some(Side::Left)),
            ("Skeleton_arm_joint_R__2_", Some(Side::Right)),
            ("b_LeftLeg01_015", Some(Side::Left)),
            ("b_Spine01_02", None),
            ("node12", None),
        ] {
            assert_eq!(hints(n).side, s, "{n}: {:?}", words(n));
        }
    }

    #[test]
    fn flags() {
        assert!(hints("upperarm_twist_01_l").twist);
        assert!(hints("mixamorig:LeftForeArmRoll").twist);
        assert!(hints("mixamorig:HeadTop_End").helper);
        assert!(hints("MCH-thigh_ik.L").helper);
        assert!(hints("mixamorig:LeftHandIndex1").finger);
        assert!(hints("ball_l").toe);
        assert!(hints("mixamorig:LeftToeBase").toe);
        assert!(hints("b_Tail01_012").tail);
        assert!(!hints("b_LeftLeg01_015").helper);
        assert!(!hints("Skeleton_torso_joint_1").helper);
    }
}
