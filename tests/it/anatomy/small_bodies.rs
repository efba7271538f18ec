//! Bodies built as games' creatures are: one bone for the body carrying legs, arms, head and
//! tail side by side (a Pokémon's `Waist`), arms too short to reach a fifth of the height,
//! a tail reaching the ground beside the legs.

use super::plans::{bone, synthetic};
use glam::Vec3;
use ragdoll_tuner::anatomy::{Anatomy, Kind, Role, Side};
use ragdoll_tuner::document::{BoneId, Document};

/// A 0.5 m creature on one body bone (index 0): a leg each side (thigh, shin, foot), a head
/// above and, where given, a tail to the ground behind (hung before the right leg) and
/// arms (`LArm`, `LForeArm`, `LHand`) reaching `arm_m` to each side.
fn creature(tail: bool, arm_m: Option<f32>) -> (tempfile::TempDir, Document) {
    let mut b = vec![bone("Waist", None, [0.0, 0.22, 0.0], [0.0, 0.3, 0.0], 0.1)];
    b.push(bone("Head", Some(0), [0.0, 0.3, 0.0], [0.0, 0.5, 0.0], 0.1));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        if tail && s == "R" {
            let t = b.len();
            b.push(bone(
                "Feeler",
                Some(0),
                [0.0, 0.2, -0.1],
                [0.0, 0.1, -0.25],
                0.02,
            ));
            b.push(bone(
                "Feeler2",
                Some(t),
                [0.0, 0.1, -0.25],
                [0.0, 0.0, -0.35],
                0.015,
            ));
        }
        let hip = Vec3::new(0.07 * x, 0.2, 0.0);
        let knee = hip + Vec3::new(0.0, -0.1, 0.01);
        let ankle = knee + Vec3::new(0.0, -0.08, -0.01);
        let k = b.len();
        b.push(bone(
            &format!("{s}Thigh"),
            Some(0),
            hip.into(),
            knee.into(),
            0.03,
        ));
        b.push(bone(
            &format!("{s}Leg"),
            Some(k),
            knee.into(),
            ankle.into(),
            0.025,
        ));
        let toe = ankle + Vec3::new(0.0, -0.02, 0.05);
        b.push(bone(
            &format!("{s}Foot"),
            Some(k + 1),
            ankle.into(),
            toe.into(),
            0.02,
        ));
        if let Some(m) = arm_m {
            let at = |f: f32| Vec3::new(x * (0.1 + m * f), 0.28, 0.0);
            let k = b.len();
            b.push(bone(
                &format!("{s}Arm"),
                Some(0),
                at(0.0).into(),
                at(0.4).into(),
                0.015,
            ));
            let fore = format!("{s}ForeArm");
            b.push(bone(&fore, Some(k), at(0.4).into(), at(0.8).into(), 0.012));
            let hand = format!("{s}Hand");
            b.push(bone(
                &hand,
                Some(k + 1),
                at(0.8).into(),
                at(1.0).into(),
                0.012,
            ));
        }
    }
    synthetic(&b, true)
}

fn named(doc: &Document, a: &Anatomy, name: &str) -> (Role, Option<Side>) {
    let id: BoneId = doc.bone_by_name(name).expect(name);
    (a.role(id), a.side(id))
}

/// A Squirtle's arms hang beside its legs from the one bone of its body and reach 0.07 m of
/// its 0.5 m: named `LArm`, `LForeArm`, `LHand`, they were no arms ("other", no side).
#[test]
fn short_arms_named_as_such_on_the_body_bone_are_arms() {
    let (_dir, doc) = creature(false, Some(0.07));
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    for (name, want) in [
        ("LArm", (Role::UpperArm, Some(Side::Left))),
        ("RForeArm", (Role::Forearm, Some(Side::Right))),
        ("LHand", (Role::Hand, Some(Side::Left))),
    ] {
        assert_eq!(named(&doc, &a, name), want, "{name}");
    }
    assert_eq!(named(&doc, &a, "Head").0, Role::Head);
}

/// A Pikachu's tail (`Feeler`) reaches the ground from its hips beside its legs: it was taken
/// for a thigh and a foot of the balance, and the right leg was left out.
#[test]
fn a_tail_to_the_ground_beside_the_legs_is_not_a_leg() {
    let (_dir, doc) = creature(true, None);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    assert_eq!(named(&doc, &a, "RThigh"), (Role::Thigh, Some(Side::Right)));
    assert_eq!(named(&doc, &a, "LFoot"), (Role::Foot, Some(Side::Left)));
    assert_ne!(named(&doc, &a, "Feeler").0, Role::Thigh);
}

/// A Slowbro: legs (each from a hip bone, `LHips`) and a tail on `Hips`, the trunk on the
/// bone above (`Waist`), and a tail that curls up above the head. Its torso climbed the tail
/// (the tail's bones were spine, chest and neck, its arms no arms), and, its names' `LThigh` and `RThigh` not
/// read as twins, it faced backwards (its legs' sides swapped, its arms' not).
#[test]
fn a_tail_above_the_head_is_not_the_torso_and_l_r_capitals_are_twins() {
    sitter_reads_right(0, false, "Tail");
}

/// A Pikachu: legs, tail and trunk on `Hips`, the tail curling up above the head: its torso
/// climbed the tail and its arms were no arms.
#[test]
fn a_tail_beside_the_trunk_is_not_the_torso() {
    sitter_reads_right(1, false, "Tail");
}

/// A Charizard: its wings (`LFeeler1`..) raised above its head from its spine, its head and
/// arms on the chest above; its torso climbed a wing (the wing's bones its neck and head, its
/// chest an upper arm).
#[test]
fn wings_above_the_head_are_not_the_torso() {
    sitter_reads_right(1, true, "Tail");
}

/// A Pikachu: its trunk on `Waist` beside `Hips`, which holds its legs and its tail, named
/// `Feeler` (nothing says tail): its torso was the tail, its arms no arms.
#[test]
fn a_tail_not_named_as_such_on_the_hips_is_not_the_torso() {
    sitter_reads_right(0, false, "Feeler");
}

/// The sitter's roles, sides and facing, its trunk (`Spine`) on bone `trunk_on` (0 `Waist`,
/// 1 `Hips`), with `wings` raised from it above the head, its tail named `tail` 1 and 2.
fn sitter_reads_right(trunk_on: usize, wings: bool, tail: &str) {
    let mut b = vec![bone("Waist", None, [0.0, 0.35, 0.0], [0.0, 0.4, 0.02], 0.1)];
    b.push(bone(
        "Hips",
        Some(0),
        [0.0, 0.35, 0.0],
        [0.0, 0.3, 0.0],
        0.1,
    ));
    b.push(bone(
        "Spine",
        Some(trunk_on),
        [0.0, 0.4, 0.02],
        [0.0, 0.6, 0.05],
        0.1,
    ));
    b.push(bone(
        "Head",
        Some(2),
        [0.0, 0.6, 0.05],
        [0.0, 0.75, 0.12],
        0.08,
    ));
    b.push(bone(
        &format!("{tail}1"),
        Some(1),
        [0.0, 0.3, -0.1],
        [0.0, 0.5, -0.3],
        0.05,
    ));
    b.push(bone(
        &format!("{tail}2"),
        Some(4),
        [0.0, 0.5, -0.3],
        [0.0, 0.95, -0.35],
        0.04,
    ));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        let at = |v: [f32; 3]| [v[0] * x, v[1], v[2]];
        let k = b.len();
        b.push(bone(
            &format!("{s}Hips"),
            Some(1),
            at([0.04, 0.3, 0.0]),
            at([0.12, 0.3, 0.0]),
            0.03,
        ));
        b.push(bone(
            &format!("{s}Thigh"),
            Some(k),
            at([0.12, 0.3, 0.0]),
            at([0.12, 0.16, 0.03]),
            0.04,
        ));
        b.push(bone(
            &format!("{s}Leg"),
            Some(k + 1),
            at([0.12, 0.16, 0.03]),
            at([0.12, 0.05, 0.0]),
            0.03,
        ));
        b.push(bone(
            &format!("{s}Foot"),
            Some(k + 2),
            at([0.12, 0.05, 0.0]),
            at([0.12, 0.0, 0.07]),
            0.025,
        ));
        let (arm, fore) = (format!("{s}Arm"), format!("{s}ForeArm"));
        let k = b.len();
        b.push(bone(
            &arm,
            Some(2),
            at([0.08, 0.55, 0.05]),
            at([0.2, 0.45, 0.12]),
            0.03,
        ));
        b.push(bone(
            &fore,
            Some(k),
            at([0.2, 0.45, 0.12]),
            at([0.28, 0.38, 0.2]),
            0.025,
        ));
    }
    if wings {
        // The head and the arms on a chest above the spine, the wings on the spine.
        let chest = b.len();
        b.push(bone(
            "Chest",
            Some(2),
            [0.0, 0.5, 0.03],
            [0.0, 0.6, 0.05],
            0.08,
        ));
        for d in b
            .iter_mut()
            .filter(|d| d.name == "Head" || d.name.ends_with("Arm"))
        {
            d.parent = Some(chest);
        }
    }
    for (s, x) in [("L", 1.0f32), ("R", -1.0)].into_iter().filter(|_| wings) {
        let at = |v: [f32; 3]| [v[0] * x, v[1], v[2]];
        let k = b.len();
        let (w1, w2) = (format!("{s}Feeler1"), format!("{s}Feeler2"));
        b.push(bone(
            &w1,
            Some(2),
            at([0.05, 0.58, -0.05]),
            at([0.2, 0.85, -0.1]),
            0.02,
        ));
        b.push(bone(
            &w2,
            Some(k),
            at([0.2, 0.85, -0.1]),
            at([0.3, 1.1, -0.12]),
            0.015,
        ));
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    assert_eq!(named(&doc, &a, "Head").0, Role::Head);
    let tail_role = named(&doc, &a, &format!("{tail}2")).0;
    match tail {
        "Tail" => assert_eq!(tail_role, Role::Tail),
        _ => assert!(
            matches!(tail_role, Role::Tail | Role::Other),
            "{tail_role:?}"
        ),
    }
    assert!(a.forward().z > 0.9, "faces {:?}", a.forward());
    assert_eq!(named(&doc, &a, "LThigh"), (Role::Thigh, Some(Side::Left)));
    assert_eq!(named(&doc, &a, "RFoot"), (Role::Foot, Some(Side::Right)));
    assert_eq!(named(&doc, &a, "LArm"), (Role::UpperArm, Some(Side::Left)));
    if wings {
        assert_eq!(named(&doc, &a, "Chest").0, Role::Chest);
        assert_eq!(named(&doc, &a, "LFeeler2").0, Role::Other);
    } else {
        let fore = named(&doc, &a, "RForeArm");
        assert_eq!(fore, (Role::Forearm, Some(Side::Right)));
    }
}

/// A long, low two-legged creature (a Sketchfab dimetrodon) whose jaw, hanging from its head,
/// reaches a fifth of its height: the jaw is no arm (it was its upper arm and forearm, with no
/// side). Arms hang from the trunk below the head.
#[test]
fn a_jaw_under_the_head_is_not_an_arm() {
    let mut b = vec![bone(
        "pelvis",
        None,
        [0.0, 0.3, -0.1],
        [0.0, 0.3, 0.0],
        0.08,
    )];
    b.push(bone(
        "body",
        Some(0),
        [0.0, 0.3, 0.0],
        [0.0, 0.32, 0.2],
        0.08,
    ));
    b.push(bone(
        "neck",
        Some(1),
        [0.0, 0.32, 0.2],
        [0.0, 0.36, 0.35],
        0.05,
    ));
    b.push(bone(
        "head",
        Some(2),
        [0.0, 0.36, 0.35],
        [0.0, 0.46, 0.4],
        0.06,
    ));
    b.push(bone(
        "Bone.003",
        Some(3),
        [0.0, 0.36, 0.35],
        [0.0, 0.3, 0.5],
        0.03,
    ));
    b.push(bone(
        "jaw",
        Some(4),
        [0.0, 0.3, 0.5],
        [0.0, 0.28, 0.64],
        0.02,
    ));
    // A crest on top of the head: the torso's path runs past the head to it.
    b.push(bone(
        "crest",
        Some(3),
        [0.0, 0.46, 0.4],
        [0.0, 0.52, 0.42],
        0.02,
    ));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        let t = b.len();
        let hip = Vec3::new(0.08 * x, 0.28, -0.05);
        let knee = hip + Vec3::new(0.0, -0.14, 0.02);
        let ankle = knee + Vec3::new(0.0, -0.12, -0.02);
        let toe = ankle + Vec3::new(0.0, -0.02, 0.06);
        b.push(bone(
            &format!("thigh.{s}"),
            Some(0),
            hip.into(),
            knee.into(),
            0.03,
        ));
        b.push(bone(
            &format!("shin.{s}"),
            Some(t),
            knee.into(),
            ankle.into(),
            0.025,
        ));
        b.push(bone(
            &format!("foot.{s}"),
            Some(t + 1),
            ankle.into(),
            toe.into(),
            0.02,
        ));
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    for jaw in ["Bone.003", "jaw"] {
        let role = a.role(doc.bone_by_name(jaw).unwrap());
        assert!(
            !matches!(
                role,
                Role::UpperArm | Role::Forearm | Role::Hand | Role::Clavicle
            ),
            "{jaw}: {role:?}"
        );
    }
    assert_eq!(a.role(doc.bone_by_name("head").unwrap()), Role::Head);
}

/// A 1.6 m robot rigged the other way up (GDQuest's gdbot): its `torso` is the root and holds
/// the `hips` (with the legs), the neck and the arms. The arms hang beside the hips from the
/// bone they hang from: they were no arms (every arm bone `other`, no elbow hinge, and each
/// finger a body of its own).
#[test]
fn arms_on_the_bone_that_holds_the_hips_are_arms() {
    let mut b = vec![bone("torso", None, [0.0, 1.0, 0.0], [0.0, 1.3, 0.0], 0.15)];
    b.push(bone(
        "hips",
        Some(0),
        [0.0, 1.0, 0.0],
        [0.0, 0.9, 0.0],
        0.14,
    ));
    b.push(bone(
        "neck",
        Some(0),
        [0.0, 1.3, 0.0],
        [0.0, 1.4, 0.0],
        0.05,
    ));
    b.push(bone("head", Some(2), [0.0, 1.4, 0.0], [0.0, 1.6, 0.0], 0.1));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        let k = b.len();
        let at = |y: f32, out: f32| [x * out, y, 0.0];
        b.push(bone(
            &format!("upperleg.{s}"),
            Some(1),
            at(0.9, 0.1),
            at(0.5, 0.1),
            0.06,
        ));
        b.push(bone(
            &format!("lowerleg.{s}"),
            Some(k),
            at(0.5, 0.1),
            at(0.08, 0.1),
            0.05,
        ));
        b.push(bone(
            &format!("foot.{s}"),
            Some(k + 1),
            at(0.08, 0.1),
            [x * 0.1, 0.02, 0.15],
            0.04,
        ));
        let a = b.len();
        b.push(bone(
            &format!("upperarm.{s}"),
            Some(0),
            at(1.28, 0.2),
            at(1.28, 0.45),
            0.04,
        ));
        b.push(bone(
            &format!("lowerarm.{s}"),
            Some(a),
            at(1.28, 0.45),
            at(1.28, 0.7),
            0.035,
        ));
        b.push(bone(
            &format!("hand.{s}"),
            Some(a + 1),
            at(1.28, 0.7),
            at(1.28, 0.8),
            0.03,
        ));
        b.push(bone(
            &format!("thumb_1.{s}"),
            Some(a + 2),
            at(1.28, 0.8),
            at(1.28, 0.85),
            0.01,
        ));
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    let id = |n: &str| doc.bone_by_name(n).unwrap();
    assert_eq!(a.role(id("hips")), Role::Pelvis);
    for (s, side) in [("L", Side::Left), ("R", Side::Right)] {
        for (name, role) in [
            ("upperarm", Role::UpperArm),
            ("lowerarm", Role::Forearm),
            ("hand", Role::Hand),
            ("thumb_1", Role::Finger),
        ] {
            let bone = id(&format!("{name}.{s}"));
            assert_eq!(
                (a.role(bone), a.side(bone)),
                (role, Some(side)),
                "{name}.{s}"
            );
        }
    }
}
