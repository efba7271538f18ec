//! Names as exporters write them: Sketchfab numbers every node (`leftArm_011`), and the
//! number says nothing of the bone.

use super::plans::{bone, synthetic};
use crate::generate::fixtures::BoneDef;
use ragdoll_tuner::anatomy::{Anatomy, Kind, Role};

/// A crash-test dummy as Sketchfab exports it: every node's name ends in its index; one
/// trunk bone `torso1_09`, from the hips to the neck, holds the legs (through bones at the
/// hips' centre that carry no skin, as the file's `leftLeg_01`), the head and both arms
/// (`leftArm_011` from the neck out to the shoulder, carrying no skin, `leftArm1_012`,
/// `leftHand_013`): arms that hang from the pelvis itself, which only their names tell from
/// a skirt's or a tail's chains.
fn dummy() -> Vec<BoneDef> {
    let mut b = vec![bone(
        "torso1_09",
        None,
        [0.0, 0.88, 0.0],
        [0.0, 1.34, 0.0],
        0.16,
    )];
    b.push(bone(
        "head_010",
        Some(0),
        [0.0, 1.34, 0.0],
        [0.0, 1.7, 0.0],
        0.14,
    ));
    let mut index = 11;
    for (x, side) in [(1.0f32, "left"), (-1.0, "right")] {
        let mut parent = 0;
        for (part, from, to, r) in [
            ("Arm", [0.0, 1.34], [0.23, 1.23], 0.0),
            ("Arm1", [0.23, 1.23], [0.42, 1.22], 0.05),
            ("Hand", [0.42, 1.22], [0.6, 1.22], 0.06),
        ] {
            let name = format!("{side}{part}_0{index}");
            let at = |p: [f32; 2]| [x * p[0], p[1], 0.0];
            b.push(bone(&name, Some(parent), at(from), at(to), r));
            parent = b.len() - 1;
            index += 1;
        }
    }
    for (x, side, k) in [(1.0f32, "left", 1), (-1.0, "right", 5)] {
        let name = |part: &str, n: usize| format!("{side}{part}_0{n}");
        let hip = b.len();
        let (centre, top) = ([0.0, 0.88, 0.0], [x * 0.13, 0.86, 0.0]);
        b.push(bone(&name("Leg", k), Some(0), centre, top, 0.0));
        let joints = [
            top,
            [x * 0.14, 0.5, 0.0],
            [x * 0.14, 0.1, 0.0],
            [x * 0.14, 0.0, 0.12],
        ];
        for (s, part) in ["Leg1", "Leg2", "Foot"].into_iter().enumerate() {
            let parent = if s == 0 { hip } else { b.len() - 1 };
            let n = name(part, k + 1 + s);
            b.push(bone(&n, Some(parent), joints[s], joints[s + 1], 0.07));
        }
    }
    b
}

/// The dummy's arms were no arms (every arm bone `other`, the editor's arms unassigned):
/// `leftArm_011` read as a numbered segment of an arm, which names no role. Read past the
/// exporter's node index, it names the upper arm, and the arms hang from the one trunk bone.
#[test]
fn an_exporter_s_node_index_is_no_segment_number() {
    let (_dir, doc) = synthetic(&dummy(), true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    let role = |name: &str| a.role(doc.bone_by_name(name).expect(name));
    for (arm, hand) in [
        ("leftArm_011", "leftHand_013"),
        ("rightArm_014", "rightHand_016"),
    ] {
        assert_eq!(role(arm), Role::UpperArm, "{arm}");
        assert_eq!(role(hand), Role::Hand, "{hand}");
    }
}

/// A player from a web game, named in camelCase with the side last (`armL`, `thighR`), facing
/// +X: its left is -Z. Its feet are stubs straight down: they say nothing of where it faces.
fn player_facing_x() -> Vec<BoneDef> {
    let mut b = vec![bone(
        "spine1",
        None,
        [0.0, 0.4, 0.0],
        [0.0, 0.73, 0.0],
        0.12,
    )];
    b.push(bone(
        "spine2",
        Some(0),
        [0.0, 0.73, 0.0],
        [0.0, 0.92, 0.0],
        0.12,
    ));
    b.push(bone(
        "spine3",
        Some(1),
        [0.0, 0.92, 0.0],
        [0.0, 1.2, 0.0],
        0.1,
    ));
    for (z, side) in [(-1.0f32, "L"), (1.0, "R")] {
        let arm = b.len();
        let shoulder = [0.0, 1.08, 0.35 * z];
        b.push(bone(
            &format!("arm{side}"),
            Some(2),
            shoulder,
            [0.0, 0.8, 0.35 * z],
            0.05,
        ));
        b.push(bone(
            &format!("hand{side}"),
            Some(arm),
            [0.0, 0.8, 0.35 * z],
            [0.0, 0.65, 0.35 * z],
            0.05,
        ));
        let thigh = b.len();
        b.push(bone(
            &format!("thigh{side}"),
            Some(0),
            [0.0, 0.4, 0.13 * z],
            [0.0, 0.25, 0.13 * z],
            0.07,
        ));
        b.push(bone(
            &format!("leg{side}"),
            Some(thigh),
            [0.0, 0.25, 0.13 * z],
            [0.0, 0.06, 0.13 * z],
            0.06,
        ));
        b.push(bone(
            &format!("foot{side}"),
            Some(thigh + 1),
            [0.0, 0.06, 0.13 * z],
            [0.0, 0.0, 0.13 * z],
            0.05,
        ));
    }
    b
}

/// Its twins went unfound (the side markers `_L`, `.L`, `L_` ... were known, not a capital
/// after a lower-case letter): "could not tell forward", +Z assumed, 90 degrees off, its left
/// and right front and back of each other and its knees bending sideways. Its names say its
/// left, and so where it faces.
#[test]
fn camel_case_sides_say_which_way_a_character_faces() {
    let (_dir, doc) = synthetic(&player_facing_x(), true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    assert!(
        a.forward().x > 0.99,
        "forward {:?}, {:?}",
        a.forward(),
        a.notes()
    );
    let side = |name: &str| a.side(doc.bone_by_name(name).expect(name));
    assert_eq!(side("thighL"), Some(ragdoll_tuner::anatomy::Side::Left));
}

/// Rigify's breast bones (`DEF-breast.L/.R`, on the chest, in front): soft tissue, not bodies
/// of their own. They were 6.8 kg each on a character whose shin weighed 3.7 kg (or one of
/// the two a body, the other merged away: the chest lopsided); their skin is the chest's.
#[test]
fn breast_bones_are_the_chest_s() {
    let mut b = crate::generate::fixtures::rigify();
    let chest = b
        .iter()
        .position(|x| x.name == "DEF-spine.003")
        .expect("chest");
    let (head, tail) = (b[chest].head, b[chest].tail);
    for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
        let at = head.lerp(tail, 0.6) + glam::Vec3::new(0.09 * x, 0.0, 0.08);
        let to = at + glam::Vec3::new(0.0, -0.03, 0.08);
        let d = bone(
            &format!("DEF-breast.{side}"),
            Some(chest),
            at.into(),
            to.into(),
            0.06,
        );
        b.push(d);
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    for side in ["L", "R"] {
        let name = format!("DEF-breast.{side}");
        assert_eq!(
            a.role(doc.bone_by_name(&name).unwrap()),
            Role::Helper,
            "{name}"
        );
    }
    assert_eq!(
        a.role(doc.bone_by_name("DEF-spine.003").unwrap()),
        Role::Chest
    );
}
