//! The vocabulary of the anatomy: roles, limb kinds and body plans.

use serde::Serialize;

/// What a bone is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Pelvis,
    Spine,
    Chest,
    Neck,
    Head,
    Clavicle,
    UpperArm,
    Forearm,
    Hand,
    Finger,
    /// A short bone joining a hind leg to the pelvis (a hip bone): part of the pelvis.
    Girdle,
    Thigh,
    Shin,
    Foot,
    Toe,
    Tail,
    Twist,
    Helper,
    Other,
}

impl Role {
    /// Every role, in the order a person reads a body (torso, arms, legs, the rest).
    pub const ALL: [Role; 19] = [
        Role::Pelvis,
        Role::Spine,
        Role::Chest,
        Role::Neck,
        Role::Head,
        Role::Clavicle,
        Role::UpperArm,
        Role::Forearm,
        Role::Hand,
        Role::Finger,
        Role::Girdle,
        Role::Thigh,
        Role::Shin,
        Role::Foot,
        Role::Toe,
        Role::Tail,
        Role::Twist,
        Role::Helper,
        Role::Other,
    ];

    /// An arm's segments, body outwards.
    pub const ARM_SEQUENCE: [Role; 5] = [
        Role::Clavicle,
        Role::UpperArm,
        Role::Forearm,
        Role::Hand,
        Role::Finger,
    ];

    /// A leg's segments, body outwards.
    pub const LEG_SEQUENCE: [Role; 4] = [Role::Thigh, Role::Shin, Role::Foot, Role::Toe];

    /// The segment a limb segment hangs from (a forearm's upper arm); None for a limb's first
    /// segment and for every other role.
    pub fn segment_above(self) -> Option<Role> {
        [&Self::ARM_SEQUENCE[..], &Self::LEG_SEQUENCE[..]]
            .iter()
            .find_map(|seq| seq.windows(2).find(|w| w[1] == self).map(|w| w[0]))
    }

    /// The limb segments every biped has on each side: arm, then leg.
    pub const LIMBS: [Role; 6] = [
        Role::UpperArm,
        Role::Forearm,
        Role::Hand,
        Role::Thigh,
        Role::Shin,
        Role::Foot,
    ];

    /// The core roles a humanoid's anatomy must get right (`truth.json`'s): the pelvis, the
    /// head and the limb segments.
    pub const CORE: [Role; 8] = [
        Role::Pelvis,
        Role::Head,
        Role::UpperArm,
        Role::Forearm,
        Role::Hand,
        Role::Thigh,
        Role::Shin,
        Role::Foot,
    ];

    /// The role a name spells (as [`Role::name`] writes it).
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Roles that come in left/right pairs (limb segments).
    pub fn is_paired(self) -> bool {
        matches!(
            self,
            Role::Clavicle
                | Role::UpperArm
                | Role::Forearm
                | Role::Hand
                | Role::Finger
                | Role::Girdle
                | Role::Thigh
                | Role::Shin
                | Role::Foot
                | Role::Toe
        )
    }

    /// Whether a joint of this role on a character of `kind` stacks the body above the pelvis
    /// over the feet, so that its sag at rest moves the centre of mass toward a heel or a toe
    /// (`joint::load`): a humanoid's spine and chest; not a creature's, whose spine lies
    /// level between its legs.
    pub fn stacks_trunk(self, kind: CharacterKind) -> bool {
        kind == CharacterKind::Humanoid && matches!(self, Role::Spine | Role::Chest)
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Pelvis => "pelvis",
            Role::Spine => "spine",
            Role::Chest => "chest",
            Role::Neck => "neck",
            Role::Head => "head",
            Role::Clavicle => "clavicle",
            Role::UpperArm => "upper_arm",
            Role::Forearm => "forearm",
            Role::Hand => "hand",
            Role::Finger => "finger",
            Role::Girdle => "girdle",
            Role::Thigh => "thigh",
            Role::Shin => "shin",
            Role::Foot => "foot",
            Role::Toe => "toe",
            Role::Tail => "tail",
            Role::Twist => "twist",
            Role::Helper => "helper",
            Role::Other => "other",
        }
    }
}

/// The body plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum CharacterKind {
    Humanoid,
    Quadruped,
    Other,
}

impl CharacterKind {
    /// Heights in metres (glTF's unit) a character of this kind plausibly has: a file in
    /// centimetres or millimetres falls far outside. A humanoid up to an ogre's 4 m; a
    /// creature from a mouse to a sauropod (a Quaternius dinosaur 3 m tall had been called
    /// implausible).
    pub fn plausible_height_m(self) -> std::ops::RangeInclusive<f64> {
        match self {
            CharacterKind::Humanoid => 0.3..=4.0,
            _ => 0.05..=15.0,
        }
    }

    /// The power of ten that brings a character `height` units tall nearest a typical height
    /// of this kind (a person's 1.7 m, a creature's 1 m), within its plausible heights: the
    /// root scale that fixes a file in another unit (the Fox, 82 units: 0.01, a fox 0.82 m
    /// tall; a 186-unit humanoid: 0.01; a giant 26 units: 0.1).
    pub fn unit_fix(self, height: f64) -> f64 {
        let typical = match self {
            CharacterKind::Humanoid => 1.7,
            _ => 1.0,
        };
        let range = self.plausible_height_m();
        let mut scale = 10f64.powf((typical / height).log10().round());
        while scale * height > *range.end() && scale > 1e-30 {
            scale /= 10.0;
        }
        while scale * height < *range.start() && scale < 1e30 {
            scale *= 10.0;
        }
        scale
    }

    /// What a file whose root must be scaled by `scale` was likely made in.
    pub fn unit_named(scale: f64) -> &'static str {
        match scale.log10().round() as i32 {
            -2 => "centimetres",
            -3 => "millimetres",
            _ => "another unit than metres",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CharacterKind::Humanoid => "humanoid",
            CharacterKind::Quadruped => "quadruped",
            CharacterKind::Other => "other",
        }
    }
}

/// Which kind of limb a chain is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimbKind {
    Leg,
    Arm,
    HindLeg,
    FrontLeg,
    Tail,
    Wing,
}

impl LimbKind {
    /// Legs of any kind (they stand on the ground).
    pub fn is_leg(self) -> bool {
        matches!(self, LimbKind::Leg | LimbKind::HindLeg | LimbKind::FrontLeg)
    }

    pub fn name(self) -> &'static str {
        match self {
            LimbKind::Leg => "leg",
            LimbKind::Arm => "arm",
            LimbKind::HindLeg => "hind_leg",
            LimbKind::FrontLeg => "front_leg",
            LimbKind::Tail => "tail",
            LimbKind::Wing => "wing",
        }
    }
}

/// The fine body plan. Each maps onto the generator's coarse [`CharacterKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Two legs and a torso above them (humanoids, birds without wings, chibis, robots).
    Biped,
    Quadruped,
    /// Six legs or more.
    MultiLegged,
    /// No legs: a chain along the ground (snakes, worms).
    Legless,
    /// Wings, with or without legs.
    Winged,
    Other,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Biped,
        Kind::Quadruped,
        Kind::MultiLegged,
        Kind::Legless,
        Kind::Winged,
        Kind::Other,
    ];

    /// The kind a name spells (as [`Kind::name`] writes it).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    pub fn coarse(self) -> CharacterKind {
        match self {
            Kind::Biped => CharacterKind::Humanoid,
            Kind::Quadruped => CharacterKind::Quadruped,
            Kind::MultiLegged | Kind::Legless | Kind::Winged | Kind::Other => CharacterKind::Other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Biped => "biped",
            Kind::Quadruped => "quadruped",
            Kind::MultiLegged => "multi_legged",
            Kind::Legless => "legless",
            Kind::Winged => "winged",
            Kind::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CharacterKind, Role};
    use crate::document::fields::Key;

    #[test]
    fn a_file_in_another_unit_is_told_the_power_of_ten_that_fixes_it() {
        let fix = CharacterKind::unit_fix;
        assert_eq!(fix(CharacterKind::Humanoid, 186.0), 0.01);
        assert_eq!(fix(CharacterKind::Humanoid, 26.0), 0.1);
        assert_eq!(fix(CharacterKind::Humanoid, 0.0224), 100.0);
        assert_eq!(fix(CharacterKind::Quadruped, 82.3), 0.01, "the Fox");
        assert_eq!(CharacterKind::unit_named(0.01), "centimetres");
    }

    /// A limb segment's parent segment comes from the one limb order the roles keep.
    #[test]
    fn a_segment_hangs_from_the_one_before_it_in_its_limb() {
        assert_eq!(Role::Forearm.segment_above(), Some(Role::UpperArm));
        assert_eq!(Role::UpperArm.segment_above(), Some(Role::Clavicle));
        assert_eq!(Role::Toe.segment_above(), Some(Role::Foot));
        assert_eq!(Role::Clavicle.segment_above(), None);
        assert_eq!(Role::Thigh.segment_above(), None);
        assert_eq!(Role::Pelvis.segment_above(), None);
    }

    /// The schema's `anatomy.roles` help (the document layer, which does not know this
    /// enum) names every role a person may assign, in [`Role::ALL`]'s order, and no other.
    #[test]
    fn the_schema_lists_every_role_in_order() {
        let help = Key::AnatomyRoles.field().help;
        let list = help
            .split("ROLE is ")
            .nth(1)
            .and_then(|s| s.split(';').next())
            .expect("the roles' list in the help");
        let named: Vec<&str> = list
            .split([',', ' '])
            .filter(|w| !w.is_empty() && *w != "or")
            .collect();
        let all: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(named, all, "{help}");
    }
}
