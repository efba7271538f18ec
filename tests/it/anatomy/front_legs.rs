//! A quadruped's front legs: which two of the chains its chest holds, and where each begins.

use super::plans::{bone, joints, synthetic};
use crate::generate::fixtures::BoneDef;
use ragdoll_tuner::anatomy::{Anatomy, Kind, Role};

/// A rabbit as a Sketchfab file rigs it: its chest holds its neck, a dewlap bone
/// (`NeckFix2`) hanging down the middle to the ground, and its front legs, each from a
/// collarbone (`LegFLCollarbone`, `LegFL1`, `LegFL2`, `LegFL3`); its hind legs and tail hang
/// from the pelvis.
fn rabbit() -> Vec<BoneDef> {
    let mut b = vec![bone(
        "Pelvis",
        None,
        [0.0, 0.5, -0.7],
        [0.0, 0.75, -0.55],
        0.2,
    )];
    let names = ["Spine1", "Spine2", "Chest", "Neck1", "Head"];
    let trunk = [
        [0.0, 0.75, -0.55],
        [0.0, 0.85, 0.05],
        [0.0, 0.8, 0.4],
        [0.0, 0.7, 0.6],
        [0.0, 0.6, 1.05],
        [0.0, 0.55, 1.4],
    ];
    joints(&mut b, Some(0), &names, &trunk, 0.18);
    let chest = 3;
    b.push(bone(
        "NeckFix2",
        Some(chest),
        [0.0, 0.45, 0.8],
        [0.0, 0.02, 0.8],
        0.06,
    ));
    for (x, s) in [(1.0f32, "L"), (-1.0, "R")] {
        // As the file has it (times five): the leg folds back at its elbow, its paw ahead.
        let front = [
            [0.1, 0.9, 0.7],
            [0.25, 0.45, 0.6],
            [0.35, 0.5, 0.1],
            [0.25, 0.05, 0.6],
            [0.2, 0.0, 0.8],
            [0.2, 0.0, 0.95],
        ];
        let mirror = |p: &[f32; 3]| [x * p[0], p[1], p[2]];
        let parts = ["Collarbone", "1", "2", "3", "Ankle"].map(|p| format!("LegF{s}{p}"));
        joints(
            &mut b,
            Some(chest),
            &parts,
            &front.map(|p| mirror(&p)),
            0.06,
        );
        let hind = [
            [0.2, 0.55, -0.75],
            [0.4, 0.3, -0.4],
            [0.3, 0.1, -0.6],
            [0.35, 0.0, -0.2],
        ];
        let parts = ["1", "2", "3"].map(|p| format!("LegB{s}{p}"));
        joints(&mut b, Some(0), &parts, &hind.map(|p| mirror(&p)), 0.07);
    }
    b.push(bone(
        "Tail1",
        Some(0),
        [0.0, 0.45, -0.9],
        [0.0, 0.55, -1.1],
        0.05,
    ));
    b
}

/// The dewlap, first of the chest's chains reaching the ground, took the right front leg's
/// place (the leg `other`, the dewlap a balance foot); of more than two, the twins are the
/// legs. And a leg's first bone named a collarbone is its girdle: the front legs were one
/// segment up, the collarbone the upper arm.
#[test]
fn a_rabbit_s_front_legs_are_its_twins_from_their_collarbones() {
    let (_dir, doc) = synthetic(&rabbit(), true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let role = |name: &str| a.role(doc.bone_by_name(name).expect(name));
    for s in ["L", "R"] {
        let leg = ["Collarbone", "1", "2", "3"].map(|p| role(&format!("LegF{s}{p}")));
        let arm = [Role::Clavicle, Role::UpperArm, Role::Forearm, Role::Hand];
        assert_eq!(leg, arm, "front {s}");
    }
    let dewlap = doc.bone_by_name("NeckFix2").unwrap();
    assert!(
        a.limbs().iter().all(|l| !l.path.contains(&dewlap)),
        "{:?}",
        role("NeckFix2")
    );
}
