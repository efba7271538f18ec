//! Characters rigged with Maya's AdvancedSkeleton: a quadruped's legs named for their joints,
//! `Rump`, `Hip`, `Knee`, `Ankle`, `Toes`, front and back alike; a person's limbs split by
//! `Part` twist bones.

use super::plans::{bone, joints, synthetic};
use crate::generate::fixtures::BoneDef;
use ragdoll_tuner::anatomy::{Anatomy, Kind, Role};

/// An elephant as AdvancedSkeleton names it: `Root_M` (the pelvis) holds the spine, the tail
/// and the hind legs; `Chest_M` the front legs and the neck. Each leg is `Rump` (its girdle,
/// a pelvis's or a shoulder blade, from the body down to the hip or shoulder joint), `Hip`,
/// `Knee`, `Ankle` and `Toes`, each bone starting at the joint it is named for.
fn elephant() -> Vec<BoneDef> {
    let mut b = vec![bone(
        "Root_M",
        None,
        [0.0, 1.7, -0.5],
        [0.0, 1.7, -0.2],
        0.45,
    )];
    let names = ["RootPart1_M", "Spine1_M", "Chest_M", "Neck_M", "Head_M"];
    let points = [
        [0.0, 1.7, -0.2],
        [0.0, 1.75, 0.1],
        [0.0, 1.8, 0.4],
        [0.0, 1.8, 0.7],
        [0.0, 1.9, 1.0],
        [0.0, 2.0, 1.3],
    ];
    let head = joints(&mut b, Some(0), &names, &points, 0.4);
    b.push(bone(
        "HeadEnd_M",
        Some(head),
        points[5],
        [0.0, 1.8, 1.7],
        0.3,
    ));
    b.push(bone(
        "Tail0_M",
        Some(0),
        [0.0, 1.6, -0.6],
        [0.0, 1.2, -0.7],
        0.05,
    ));
    for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
        leg(&mut b, 0, "back", x, side, -0.5);
        leg(&mut b, 3, "front", x, side, 0.7);
    }
    b
}

/// One leg hanging from bone `root` at depth `z`: its girdle down to the hip (or shoulder),
/// the thigh, the shin, the foot and a toe on the ground.
fn leg(b: &mut Vec<BoneDef>, root: usize, end: &str, x: f32, side: &str, z: f32) {
    let at = [
        ("Rump", [0.25, 1.6, z]),
        ("Hip", [0.3, 1.25, z]),
        ("Knee", [0.3, 0.6, z + 0.05]),
        ("Ankle", [0.3, 0.2, z]),
        ("Toes", [0.3, 0.05, z + 0.1]),
        ("ToesEnd", [0.3, 0.0, z + 0.2]),
    ];
    let names: Vec<String> = at.iter().map(|j| format!("{end}{}_{side}", j.0)).collect();
    let points: Vec<[f32; 3]> = at.iter().map(|j| [x * j.1[0], j.1[1], j.1[2]]).collect();
    joints(b, Some(root), &names[..names.len() - 1], &points, 0.12);
}

/// The elephant's legs were read one segment up: the `Rump` a thigh, the `Hip` a shin, the
/// `Knee` a foot (its balance feet were its knees) and the front `Rump` an upper arm. A leg's
/// first bone named `Rump` is its girdle; each bone below takes the role its joint names.
#[test]
fn an_advanced_skeleton_quadruped_s_legs_start_at_their_rump() {
    let (_dir, doc) = synthetic(&elephant(), true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let role = |name: &str| a.role(doc.bone_by_name(name).expect(name));
    for side in ["L", "R"] {
        let back = ["Rump", "Hip", "Knee", "Ankle"].map(|j| role(&format!("back{j}_{side}")));
        assert_eq!(
            back,
            [Role::Girdle, Role::Thigh, Role::Shin, Role::Foot],
            "back {side}"
        );
        let front = ["Rump", "Hip", "Knee", "Ankle"].map(|j| role(&format!("front{j}_{side}")));
        let arm = [Role::Clavicle, Role::UpperArm, Role::Forearm, Role::Hand];
        assert_eq!(front, arm, "front {side}");
    }
}

/// A person as AdvancedSkeleton names it: `Shoulder` is the upper arm's joint (the rig has no
/// clavicle), each limb segment split halfway by a `Part` bone (`ShoulderPart1_R` between
/// `Shoulder_R` and `Elbow_R`).
fn person() -> Vec<BoneDef> {
    let mut b = vec![bone(
        "Root_M",
        None,
        [0.0, 1.0, 0.0],
        [0.0, 1.15, 0.0],
        0.14,
    )];
    let names = ["Spine1_M", "Chest_M", "Neck_M", "Head_M"];
    let trunk = [1.15, 1.3, 1.45, 1.55, 1.75].map(|y| [0.0, y, 0.0]);
    joints(&mut b, Some(0), &names, &trunk, 0.12);
    for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
        let arm = [
            ("Shoulder", 0.18),
            ("ShoulderPart1", 0.32),
            ("Elbow", 0.46),
            ("ElbowPart1", 0.59),
            ("Wrist", 0.72),
        ];
        let names: Vec<String> = arm.iter().map(|j| format!("{}_{side}", j.0)).collect();
        let points: Vec<[f32; 3]> = arm.iter().map(|j| [x * j.1, 1.42, 0.0]).collect();
        let parent = joints(&mut b, Some(2), &names[..4], &points, 0.045);
        b.push(bone(
            &format!("Wrist_{side}"),
            Some(parent),
            [x * 0.72, 1.42, 0.0],
            [x * 0.8, 1.42, 0.0],
            0.04,
        ));
        let leg = [
            ("Hip", 0.95),
            ("HipPart1", 0.72),
            ("Knee", 0.5),
            ("KneePart1", 0.28),
            ("Ankle", 0.08),
        ];
        let names: Vec<String> = leg.iter().map(|j| format!("{}_{side}", j.0)).collect();
        let points: Vec<[f32; 3]> = leg.iter().map(|j| [x * 0.1, j.1, 0.0]).collect();
        let parent = joints(&mut b, Some(0), &names[..4], &points, 0.06);
        b.push(bone(
            &format!("Ankle_{side}"),
            Some(parent),
            [x * 0.1, 0.08, 0.0],
            [x * 0.1, 0.0, 0.14],
            0.05,
        ));
    }
    b
}

/// Its `ShoulderPart1` (a twist segment halfway down the upper arm) was the upper arm and
/// `Shoulder` the clavicle: the arm's joint sat halfway down it. The `Part` bones of a limb are
/// twist segments; the shoulder before the elbow is the upper arm.
#[test]
fn an_advanced_skeleton_person_s_shoulder_is_its_upper_arm() {
    let (_dir, doc) = synthetic(&person(), true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    let role = |name: &str| a.role(doc.bone_by_name(name).expect(name));
    for side in ["L", "R"] {
        let arm =
            ["Shoulder", "ShoulderPart1", "Elbow", "Wrist"].map(|j| role(&format!("{j}_{side}")));
        assert_eq!(
            arm,
            [Role::UpperArm, Role::Twist, Role::Forearm, Role::Hand],
            "{side}"
        );
        let leg = ["Hip", "HipPart1", "Knee", "Ankle"].map(|j| role(&format!("{j}_{side}")));
        assert_eq!(
            leg,
            [Role::Thigh, Role::Twist, Role::Shin, Role::Foot],
            "{side}"
        );
    }
}
