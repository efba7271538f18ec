//! What a bone's name says, across naming conventions (Mixamo `mixamorig:LeftUpLeg`, Blender
//! and Rigify `thigh.L`, `DEF-upper_arm.L`, Unreal `thigh_l`, `upperarm_twist_01_l`, VRM
//! `leftUpperLeg`, the Khronos samples `leg_joint_L_1`, `b_LeftLeg01_015`): a side, and flags
//! for bones that are not body segments (twist/roll, helpers, end bones, fingers, toes, tail).
//! What a name says about the role itself is read by [`super::name_roles`].

pub use super::affixes::{index_suffixed, shared_prefix, strip_index};

/// A left/right marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }

    /// The side a name spells (`left` or `right`).
    pub fn from_name(name: &str) -> Option<Side> {
        [Side::Left, Side::Right]
            .into_iter()
            .find(|s| s.name() == name)
    }

    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
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
    /// A bone things are attached to (`WeaponSlot`, `handslot.l`, `weapon_r`, `prop_socket`):
    /// what it carries (a spear, a shield, a helmet) is not the body. Always a helper too.
    pub attachment: bool,
    pub finger: bool,
    pub toe: bool,
    pub tail: bool,
    /// Hair or clothing (`Hair1`, `Braid_L`, `SkirtBack`, `CapeLeft`, VRoid's `J_Sec_*`):
    /// chains that may hang to the ground but never stand on it.
    pub cloth: bool,
    /// Part of the face: named so (`ORG-face`, `CC_Base_FacialBone`, `FACIAL_C_FacialRoot`),
    /// or under a bone named so ([`super::rig`] hands it down): its skin is the head's.
    pub face: bool,
    /// Soft tissue that jiggles on the body (`DEF-breast.L`, `Bust`), not hair or clothing:
    /// its skin is the body's it hangs from.
    pub soft: bool,
}

/// Words that name soft tissue on the body ([`NameHints::soft`]).
const SOFT_WORDS: &[&str] = &["breast", "bust", "boob"];

const HELPER_WORDS: &[&str] = &[
    "end", "nub", "ik", "fk", "pole", "target", "helper", "mch", "org", "ctrl", "socket", "weapon",
    "prop", "attach", "null", "dummy", "tip", "leaf", "tweak", "aim", "lookat", "vis", "master",
    // Blender's glTF exporter adds `neutral_bone` at the armature's origin for vertices
    // weighted to no bone: it is no part of the body (an ant's took the head role).
    "neutral",
];
/// Parts of a word that mark a control bone (`r-LEGCONTROL`, `l-ARMORIENT`, `PoleTarget`,
/// `headtracker`, `handslot.l`).
const HELPER_PARTS: &[&str] = &[
    "control", "ctrl", "orient", "target", "tweak", "slot", "tracker", "helper", "pole",
];
/// Words, and parts of a word, that mark a bone things are attached to.
const ATTACHMENT_WORDS: &[&str] = &[
    "socket",
    "weapon",
    "prop",
    "attach",
    "attachment",
    "holster",
];
const ATTACHMENT_PARTS: &[&str] = &["slot"];
/// Parts of a word that mark hair, clothing or worn gear (Godette's `backpack_Armature`, two
/// bodies of 9.7 kg on her chest, 24% of her mass, more than the chest).
const CLOTH_PARTS: &[&str] = &[
    "hair", "braid", "ponytail", "skirt", "cape", "cloak", "robe", "coat", "dress", "cloth",
    "scarf", "ribbon", "tassel", "backpack", "satchel", "quiver", "pouch",
];
/// Whole words that mark hair or clothing (`Tie_039`, a necktie; `sec`, a secondary chain).
const CLOTH_WORDS: &[&str] = &["sec", "tie", "necktie"];
/// Words that name a face rig's bones or the bone they hang from.
const FACE_WORDS: &[&str] = &["face", "facial"];
const FINGER_WORDS: &[&str] = &[
    "finger", "thumb", "index", "middle", "ring", "pinky", "little", "digit",
];

/// Splits a name into lower-case words: namespaces before `:` and the rig prefixes `DEF-`,
/// `ORG-`, `MCH-` are dropped (`ORG`/`MCH` are remembered as a helper word), camelCase and
/// digits split (`LeftUpLeg` -> left up leg, `Leg01` -> leg 01), an acronym split from the
/// word after it (`IKBackLeg` -> ik back leg).
pub fn words(name: &str) -> Vec<String> {
    let name = name.rsplit(':').next().unwrap_or(name);
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for (k, &c) in chars.iter().enumerate() {
        let next_lower = chars.get(k + 1).is_some_and(|n| n.is_lowercase());
        let split = match prev {
            _ if !c.is_alphanumeric() => {
                push_word(&mut out, &mut cur);
                prev = None;
                continue;
            }
            Some(p) => {
                (p.is_lowercase() && c.is_uppercase())
                    || (p.is_uppercase() && c.is_uppercase() && next_lower)
                    || (p.is_alphabetic() != c.is_alphabetic())
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

/// Limb parts a roll bone is named after when its name is one word (`forearmroll`).
const ROLL_HOSTS: &[&str] = &[
    "arm", "forearm", "uparm", "upperarm", "lowerarm", "leg", "upleg", "lowerleg", "thigh",
    "shoulder", "elbow", "knee", "hand", "wrist", "foot", "calf", "shin", "hip",
];

/// A word that names a roll (twist) bone: `roll` itself, or a limb part glued to it; not a
/// word that merely ends in it (`controller`, `troll`, `scroll`).
fn is_roll(word: &str) -> bool {
    let word = word.strip_suffix('s').unwrap_or(word);
    word.strip_suffix("roll")
        .is_some_and(|host| host.is_empty() || ROLL_HOSTS.contains(&host))
}

/// The hints of one bone name.
pub fn hints(name: &str) -> NameHints {
    let w: Vec<String> = words(name)
        .into_iter()
        .map(|x| super::lexicon::english(&x).to_string())
        .collect();
    let has = |list: &[&str]| w.iter().any(|x| list.contains(&x.as_str()));
    let contains = |part: &str| w.iter().any(|x| x.contains(part));
    let side = if w.iter().any(|x| x == "left" || x == "l") {
        Some(Side::Left)
    } else if w.iter().any(|x| x == "right" || x == "r") {
        Some(Side::Right)
    } else {
        None
    };
    let attachment = has(ATTACHMENT_WORDS) || ATTACHMENT_PARTS.iter().any(|p| contains(p));
    let cloth = CLOTH_PARTS.iter().any(|p| contains(p)) || has(CLOTH_WORDS);
    let roll = w.iter().any(|x| is_roll(x));
    // A foot's roll is an IK rig's pivot (`LeftToeRoll`, `LeftHeelRoll`, `LeftFootRollCtrl`),
    // a control, not a twist segment of the leg.
    let pivot = roll && (has(&["toe", "heel", "ball"]) || w.iter().any(|x| x.starts_with("foot")));
    // AdvancedSkeleton splits a limb's segment with `Part` bones named for the joint the
    // segment starts at (`ShoulderPart1_R` halfway to `Elbow_R`): twist segments. (A trunk's
    // `RootPart1_M`, `NeckPart1_M` are bones of the spine and neck.)
    let part = has(&["part"]) && has(&["shoulder", "elbow", "hip", "knee"]);
    NameHints {
        side,
        // Character Creator's and Tripo's `NeckTwist01`/`NeckTwist02` are the neck's only
        // bones (no `Neck` beside them); read as twists, the head hung on the chest.
        twist: (contains("twist") || (roll && !pivot) || part) && !has(&["neck"]),
        helper: attachment
            || pivot
            || has(HELPER_WORDS)
            || w.iter().any(|x| HELPER_PARTS.iter().any(|p| x.contains(p))),
        attachment,
        finger: has(FINGER_WORDS) || contains("finger"),
        toe: contains("toe") || has(&["ball"]),
        tail: contains("tail"),
        cloth,
        face: has(FACE_WORDS),
        soft: has(SOFT_WORDS) && !cloth,
        words: w,
    }
}

/// A bone's name with its side marker swapped, and the side the marker says; None when the
/// name carries no side marker.
pub fn swapped_name(name: &str) -> Option<(String, Side)> {
    // (left form, right form) at word boundaries, most specific first.
    const PAIRS: &[(&str, &str)] = &[
        ("Left", "Right"),
        ("left", "right"),
        ("LEFT", "RIGHT"),
        ("_L_", "_R_"),
        ("_l_", "_r_"),
        (".L.", ".R."),
        ("-L-", "-R-"),
    ];
    for (l, r) in PAIRS {
        if name.contains(l) {
            return Some((name.replacen(l, r, 1), Side::Left));
        }
        if name.contains(r) {
            return Some((name.replacen(r, l, 1), Side::Right));
        }
    }
    if let Some(found) = swapped_suffix(name).or_else(|| swapped_prefix(name)) {
        return Some(found);
    }
    // Namespaced names (`mixamorig:LeftArm`): the part after the namespace.
    if let Some((ns, rest)) = name.split_once(':') {
        return swapped_name(rest).map(|(n, s)| (format!("{ns}:{n}"), s));
    }
    None
}

fn swapped_suffix(name: &str) -> Option<(String, Side)> {
    const SUFFIXES: &[(&str, &str)] = &[
        ("_l", "_r"),
        ("_L", "_R"),
        (".L", ".R"),
        (".l", ".r"),
        ("-L", "-R"),
        (" L", " R"),
    ];
    // A suffix may be followed by digits or Blender's .001 (`thigh.L.001`).
    // The end of the last character that is none of those (a character may be several
    // bytes: Blender's Chinese `骨骼.001`).
    let core_end = name
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .map_or(name.len(), |(i, c)| i + c.len_utf8());
    let (core, tail) = name.split_at(core_end);
    for (l, r) in SUFFIXES {
        for (from, to, side) in [(l, r, Side::Left), (r, l, Side::Right)] {
            if let Some(stem) = core.strip_suffix(from) {
                return Some((format!("{stem}{to}{tail}"), side));
            }
            if let Some(stem) = name.strip_suffix(from) {
                return Some((format!("{stem}{to}"), side));
            }
        }
    }
    camel_suffix(core).map(|(stem, to, side)| (format!("{stem}{to}{tail}"), side))
}

/// A camelCase side marker: a capital `L` or `R` right after a lower-case letter (`armL`,
/// `thighR`: a web game's player, whose twins unfound left it facing +Z, 90 degrees off, its
/// knees bending sideways). Returns the stem, the other side's marker and the side.
fn camel_suffix(core: &str) -> Option<(&str, char, Side)> {
    let mut back = core.chars().rev();
    let (last, before) = (back.next()?, back.next()?);
    if !before.is_ascii_lowercase() {
        return None;
    }
    let stem = &core[..core.len() - 1];
    match last {
        'L' => Some((stem, 'R', Side::Left)),
        'R' => Some((stem, 'L', Side::Right)),
        _ => None,
    }
}

fn swapped_prefix(name: &str) -> Option<(String, Side)> {
    const PREFIXES: &[(&str, &str)] = &[
        ("L_", "R_"),
        ("l_", "r_"),
        ("L.", "R."),
        ("L ", "R "),
        ("l-", "r-"),
        ("L-", "R-"),
    ];
    for (l, r) in PREFIXES {
        if let Some(rest) = name.strip_prefix(l) {
            return Some((format!("{r}{rest}"), Side::Left));
        }
        if let Some(rest) = name.strip_prefix(r) {
            return Some((format!("{l}{rest}"), Side::Right));
        }
    }
    swapped_capital(name)
}

/// A capital L or R before a capitalised word (`LThigh`, `RForeArm`, Pokémon rigs'), not
/// before a lowercase letter or another capital (`Root`, `LOD0`).
fn swapped_capital(name: &str) -> Option<(String, Side)> {
    let mut c = name.chars();
    let (first, second, third) = (c.next()?, c.next()?, c.next()?);
    if !(second.is_ascii_uppercase() && third.is_ascii_lowercase()) {
        return None;
    }
    let rest = &name[1..];
    match first {
        'L' => Some((format!("R{rest}"), Side::Left)),
        'R' => Some((format!("L{rest}"), Side::Right)),
        _ => None,
    }
}

/// Finds bones by name, and a bone's twin by its swapped name: exactly, else by the name
/// without an exporter's index suffix when that is unique (`DEF-thigh.L_023` and
/// `DEF-thigh.R_015`).
pub struct NameIndex<'a> {
    exact: std::collections::HashMap<&'a str, usize>,
    stripped: std::collections::HashMap<&'a str, Option<usize>>,
}

impl<'a> NameIndex<'a> {
    pub fn new(names: impl Iterator<Item = (usize, &'a str)>) -> Self {
        let mut exact = std::collections::HashMap::new();
        let mut stripped = std::collections::HashMap::new();
        for (i, n) in names {
            exact.insert(n, i);
            stripped
                .entry(strip_index(n))
                .and_modify(|e| *e = None)
                .or_insert(Some(i));
        }
        NameIndex { exact, stripped }
    }

    /// The bone named like `name`'s twin, and the side `name` says (by stripped names only
    /// when both stripped names are unique).
    pub fn twin(&self, name: &str) -> Option<(usize, Side)> {
        if let Some((other, side)) = swapped_name(name) {
            if let Some(&j) = self.exact.get(other.as_str()) {
                return Some((j, side));
            }
        }
        let own = strip_index(name);
        self.stripped.get(own).copied().flatten()?;
        let (other, side) = swapped_name(own)?;
        Some(((*self.stripped.get(other.as_str())?)?, side))
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
    fn twins_by_name_across_exporter_suffixes() {
        let names = [
            "DEF-thigh.L_023",
            "DEF-thigh.R_015",
            "leg_joint_L_1",
            "leg_joint_L_2",
            "leg_joint_R_1",
            "thigh_l",
            "thigh_r",
        ];
        let index = NameIndex::new(names.iter().enumerate().map(|(i, n)| (i, *n)));
        assert_eq!(index.twin("DEF-thigh.L_023"), Some((1, Side::Left)));
        assert_eq!(index.twin("thigh_r"), Some((5, Side::Right)));
        // Exact first; the stripped name `leg_joint_L` is not unique.
        assert_eq!(index.twin("leg_joint_R_1"), Some((2, Side::Right)));
        assert_eq!(index.twin("leg_joint_L_2"), None);
        // A capital before a capitalised word (Pokémon rigs' `LThigh`); not `Root`, `LOD0`.
        let names = ["LThigh", "RThigh", "Root", "Loot", "LOD0", "ROD0"];
        let index = NameIndex::new(names.iter().enumerate().map(|(i, n)| (i, *n)));
        assert_eq!(index.twin("LThigh"), Some((1, Side::Left)));
        assert_eq!(index.twin("RThigh"), Some((0, Side::Right)));
        assert_eq!(index.twin("Root"), None);
        assert_eq!(index.twin("LOD0"), None);
        // A capital after a lower-case letter (`armL`); not a word ending in one (`MODEL`).
        let names = ["armL", "armR", "thighL.001", "thighR.001", "MODEL", "MODER"];
        let index = NameIndex::new(names.iter().enumerate().map(|(i, n)| (i, *n)));
        assert_eq!(index.twin("armL"), Some((1, Side::Left)));
        assert_eq!(index.twin("thighR.001"), Some((2, Side::Right)));
        assert_eq!(index.twin("MODEL"), None);
    }

    #[test]
    fn flags() {
        assert!(hints("upperarm_twist_01_l").twist);
        assert!(hints("mixamorig:LeftForeArmRoll").twist);
        assert!(hints("l_forearmroll").twist);
        assert!(hints("Roll_Knee.R").twist);
        assert!(
            hints("ShoulderPart1_R").twist,
            "AdvancedSkeleton's segment split"
        );
        assert!(hints("KneePart2_L").twist);
        assert!(!hints("NeckPart1_M").twist && !hints("RootPart1_M").twist);
        assert!(!hints("Controller").twist, "a control bone, not a roll");
        assert!(!hints("Troll_Head").twist);
        assert!(!hints("scroll_01").twist);
        assert!(!hints("CC_Base_NeckTwist01").twist);
        assert!(hints("mixamorig:HeadTop_End").helper);
        assert!(hints("MCH-thigh_ik.L").helper);
        assert!(hints("mixamorig:LeftHandIndex1").finger);
        assert!(hints("ball_l").toe);
        assert!(hints("mixamorig:LeftToeBase").toe);
        assert!(hints("b_Tail01_012").tail);
        assert!(hints("J_Sec_L_SkirtBack0_01").cloth);
        assert!(hints("J_Sec_Hair1_01").cloth);
        assert!(hints("mixamorig:Hair4").cloth);
        assert!(hints("CapeLeft.003").cloth);
        assert!(hints("coleta.L_1_044").cloth);
        assert!(hints("Tie.001_040").cloth);
        assert!(hints("Haare_vorne").cloth);
        assert!(hints("backpack.001_Armature").cloth, "worn gear");
        assert!(hints("DEF-breast.L").soft && !hints("DEF-breast.L").cloth);
        let vroid = hints("J_Sec_L_Bust1");
        assert!(
            vroid.cloth && !vroid.soft,
            "VRoid's bust is a secondary chain"
        );
        assert!(hints("Quiver_R").cloth);
        assert!(!hints("Tibia_L").cloth);
        assert!(!hints("mixamorig:LeftUpLeg").cloth);
        assert!(!hints("DEF-shin.L").cloth);
        assert!(!hints("b_LeftLeg01_015").helper);
        assert!(hints("r-LEGCONTROL").helper);
        assert!(hints("IKBackLeg.L").helper);
        assert_eq!(words("LArm"), ["l", "arm"]);
        assert!(hints("l-ARMORIENT").helper);
        assert!(hints("tweak_spine_011").helper);
        assert!(hints("PoleTargetBack.L").helper);
        assert!(hints("handslot.l").helper);
        for n in [
            "handslot.l",
            "WeaponSlot",
            "ShieldSlot",
            "weapon_r",
            "Prop_Socket",
            "attach_hand_l",
        ] {
            let h = hints(n);
            assert!(h.attachment && h.helper, "{n}");
        }
        for n in [
            "mixamorig:LeftHand",
            "mixamorig:HeadTop_End",
            "ik_hand_gun",
            "Shoulder.L",
        ] {
            assert!(!hints(n).attachment, "{n}");
        }
        assert!(hints("index_04_leaf_l").helper);
        assert!(hints("neutral_bone").helper);
        assert!(!hints("DEF-upper_arm.L_045").helper);
        assert!(!hints("Skeleton_torso_joint_1").helper);
    }

    /// A foot-roll IK rig's pivots were labelled twist bones (and `--twist` would have given
    /// them bodies).
    #[test]
    fn a_foot_s_roll_is_an_ik_pivot_and_a_limb_s_a_twist() {
        for pivot in [
            "LeftToeRoll",
            "LeftHeelRoll",
            "LeftFootRollCtrl",
            "foot_roll.L",
        ] {
            let h = hints(pivot);
            assert!(h.helper && !h.twist, "{pivot}: an IK pivot, not a twist");
        }
        assert!(hints("mixamorig:LeftForeArmRoll").twist);
        assert!(hints("Bip01 L Calf Roll").twist);
    }

    /// Blender's Chinese default bone name `骨骼.001` (each character three bytes) panicked
    /// every command that reads the anatomy: the side suffix was sought one byte past the
    /// start of the name's last letter.
    #[test]
    fn names_in_any_script_are_read_without_panicking() {
        assert_eq!(swapped_name("骨骼.001"), None);
        assert_eq!(swapped_name("骨骼"), None);
        assert_eq!(
            swapped_name("骨骼.L.001"),
            Some(("骨骼.R.001".to_string(), Side::Left))
        );
        assert_eq!(
            swapped_name("Knöchel_r"),
            Some(("Knöchel_l".to_string(), Side::Right))
        );
        assert!(hints("骨骼.003").words.iter().any(|w| w == "骨骼"));
    }
}
