//! Where a creature's head ends and its face begins: the bone its ears, eyes or horns and its
//! jaw or snout branch from is the head, whatever reaches farthest beyond it.

use super::plans::{bone, synthetic};
use super::quadrupeds::dog_rooted_mid_back;
use ragdoll_tuner::anatomy::{Anatomy, Kind, Role};
use ragdoll_tuner::document::BoneId;

/// The dog of `dog_rooted_mid_back` whose skull bone holds a pair of ears and a jaw reaching
/// farther forward than the skull, named `skull` and `jaw` (or, as a Maya export names them,
/// `Neck_Top` and `Head_Jaw`).
fn dog_with_ears_and_jaw(skull: &str, jaw: &str) -> Vec<crate::generate::fixtures::BoneDef> {
    let mut b = dog_rooted_mid_back();
    let head = b.iter().position(|x| x.name == "head").expect("head");
    b[head].name = skull.into();
    for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
        let from = [0.04 * x, 0.72, 0.45];
        b.push(bone(
            &format!("ear.{side}"),
            Some(head),
            from,
            [0.06 * x, 0.8, 0.43],
            0.015,
        ));
    }
    b.push(bone(
        jaw,
        Some(head),
        [0.0, 0.69, 0.5],
        [0.0, 0.66, 0.68],
        0.03,
    ));
    b
}

/// A dog's skull bone `Neck_Top` holds its ears and its jaw, which reaches farthest from the
/// pelvis: the jaw (1 kg) was its head and the skull (5.6 kg) its neck; an unnamed pig's skull
/// the same with its snout. The bone the ears branch from beside the path is the head, the jaw
/// part of it.
#[test]
fn the_bone_the_ears_and_the_jaw_branch_from_is_the_head() {
    for (skull, jaw, names) in [("skull", "jaw", false), ("Neck_Top", "Head_Jaw", true)] {
        let bones = dog_with_ears_and_jaw(skull, jaw);
        let (_dir, doc) = synthetic(&bones, names);
        let a = Anatomy::of(&doc);
        assert_eq!(a.kind(), Kind::Quadruped, "{skull}: {:?}", a.notes());
        let role_of = |name: &str| {
            let i = bones.iter().position(|b| b.name == name).unwrap();
            a.role(BoneId(i as u32))
        };
        assert_eq!(role_of(skull), Role::Head, "{skull}, named: {names}");
        assert_ne!(role_of(jaw), Role::Head, "{jaw}, named: {names}");
        assert_eq!(role_of("neck"), Role::Neck, "named: {names}");
    }
}
