//! The joint groups the search tunes together, from the anatomy layer's roles and limbs (never
//! re-detected here): legs, spine, arms, neck, tail, and the balance controllers. A limb the
//! anatomy reads as a leg is in the legs' group whatever its bones' roles: a quadruped's front
//! legs carry arm roles (clavicle, upper arm, forearm, hand, as Unity's and VRM's maps name
//! them) but stand on the ground, so their gains and the legs' torque cap are the legs'.

use crate::anatomy::{Anatomy, Role};
use crate::document::{BoneId, Document};

/// One group of gains the search moves as one: a natural-frequency and a damping-ratio
/// factor for every drive in it (or for the balance controllers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    Legs,
    Spine,
    Arms,
    Neck,
    Tail,
    Balance,
}

impl Group {
    pub const ALL: [Group; 6] = [
        Group::Legs,
        Group::Spine,
        Group::Arms,
        Group::Neck,
        Group::Tail,
        Group::Balance,
    ];

    /// The group's name as the report and the dialog show it.
    pub fn name(self) -> &'static str {
        match self {
            Group::Legs => "Legs",
            Group::Spine => "Spine",
            Group::Arms => "Arms",
            Group::Neck => "Neck",
            Group::Tail => "Tail",
            Group::Balance => "Balance",
        }
    }

    /// The drive group of a role; None for roles that follow their parent's group.
    fn of_role(role: Role) -> Option<Group> {
        match role {
            Role::Girdle | Role::Thigh | Role::Shin | Role::Foot | Role::Toe => Some(Group::Legs),
            Role::Pelvis | Role::Spine | Role::Chest => Some(Group::Spine),
            Role::Clavicle | Role::UpperArm | Role::Forearm | Role::Hand | Role::Finger => {
                Some(Group::Arms)
            }
            Role::Neck | Role::Head => Some(Group::Neck),
            Role::Tail => Some(Group::Tail),
            Role::Twist | Role::Helper | Role::Other => None,
        }
    }
}

/// Each bone with a drive, and its group: the legs' for a bone of a leg limb, else its role's
/// group, else its nearest ancestor's (a twist or helper bone moves with its limb), else the
/// spine.
pub fn drive_groups(doc: &Document) -> Vec<(BoneId, Group)> {
    let anatomy = Anatomy::of(doc);
    let limbs = anatomy.limbs();
    let on_leg = |id: BoneId| {
        anatomy
            .limb_of(id)
            .and_then(|l| limbs.get(l.index()))
            .is_some_and(|l| l.kind.is_leg())
    };
    let group_of = |id: BoneId| -> Group {
        if on_leg(id) {
            return Group::Legs;
        }
        let mut bone = Some(id);
        while let Some(b) = bone {
            if let Some(g) = Group::of_role(anatomy.role(b)) {
                return g;
            }
            bone = doc.bone(b).parent;
        }
        Group::Spine
    };
    doc.bone_ids()
        .filter(|&b| {
            doc.bone(b)
                .physics
                .as_ref()
                .is_some_and(|p| p.drive.is_some())
        })
        .map(|b| (b, group_of(b)))
        .collect()
}
