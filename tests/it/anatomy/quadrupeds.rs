//! Quadrupeds as Blender's Rigify builds them: a bear's paws of named toes, its shoulder
//! blades, its face rig, its tail on the bone above its pelvis.

use super::plans::{bone, synthetic};
use glam::Vec3;
use ragdoll_tuner::anatomy::{Anatomy, Kind, Role};

/// A bear's paws are a tenth of its height across: from the bone its toes branch from, each
/// toe reaches out farther than a leg's own branch must, so each leg ended at its paw (a
/// Rigify bear's right front leg was no leg and it read as a biped, its front legs arms).
/// Toes, fingers and palms named as such are part of the paw, never a branch of their own.
#[test]
fn a_paw_of_named_toes_is_part_of_the_leg() {
    let mut b = vec![bone("spine", None, [0.0, 0.3, -0.25], [0.0, 0.3, 0.0], 0.1)];
    b.push(bone(
        "spine.001",
        Some(0),
        [0.0, 0.3, 0.0],
        [0.0, 0.3, 0.25],
        0.1,
    ));
    b.push(bone(
        "spine.002",
        Some(1),
        [0.0, 0.3, 0.25],
        [0.0, 0.36, 0.4],
        0.05,
    ));
    b.push(bone(
        "spine.003",
        Some(2),
        [0.0, 0.36, 0.4],
        [0.0, 0.4, 0.5],
        0.07,
    ));
    for (root, z, end) in [(0usize, -0.2f32, "hind"), (1, 0.22, "front")] {
        for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
            let from = Vec3::new(0.08 * x, 0.3, z);
            let knee = from + Vec3::new(0.0, -0.14, 0.0);
            let ankle = knee + Vec3::new(0.0, -0.12, 0.0);
            let paw = ankle + Vec3::new(0.0, -0.03, 0.02);
            let first = b.len();
            b.push(bone(
                &format!("{end}_thigh.{side}"),
                Some(root),
                from.into(),
                knee.into(),
                0.03,
            ));
            b.push(bone(
                &format!("{end}_shin.{side}"),
                Some(first),
                knee.into(),
                ankle.into(),
                0.025,
            ));
            b.push(bone(
                &format!("{end}_toe.{side}"),
                Some(first + 1),
                ankle.into(),
                paw.into(),
                0.02,
            ));
            for (k, spread) in [(1, -0.06f32), (2, 0.0), (3, 0.06)] {
                let mid = paw + Vec3::new(spread, -0.005, 0.045);
                let tip = mid + Vec3::new(spread, 0.0, 0.045);
                let d = b.len();
                let name = |n: u32| format!("{end}_f_digit{k}.0{n}.{side}");
                b.push(bone(
                    &name(1),
                    Some(first + 2),
                    paw.into(),
                    mid.into(),
                    0.008,
                ));
                b.push(bone(&name(2), Some(d), mid.into(), tip.into(), 0.007));
            }
        }
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let legs = a.limbs().iter().filter(|l| l.kind.is_leg()).count();
    assert_eq!(legs, 4);
}

/// A Rigify quadruped (a bear): its root `spine.004` holds the pelvis `spine.005` and, behind
/// it, the tail; hip bones `pelvis.L/R` hang from the pelvis; each front leg starts with a
/// shoulder blade as long as its upper arm; the neck ends in `face`, from which the face's
/// bones branch (nose, jaw, ears, lips, brows). The tail is the chain behind the pelvis, not
/// a hip bone (a hip bone was the tail); the shoulder is the clavicle and each bone below
/// it one segment on (the shin was the hand); the face is the head and its bones are part of
/// it (the nose's tip was the head and every facial bone a body of its own).
#[test]
fn a_rigify_bear_has_its_tail_shoulders_and_head() {
    let b = rigify_bear();
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let role = |name: &str| a.role(doc.bone_by_name(name).expect(name));
    for (bone, want) in [
        ("spine.005", Role::Pelvis),
        ("spine.003", Role::Tail),
        ("spine.002", Role::Tail),
        ("pelvis.L", Role::Girdle),
        ("shoulder.L", Role::Clavicle),
        ("front_thigh.L", Role::UpperArm),
        ("front_shin.R", Role::Forearm),
        ("front_foot.R", Role::Hand),
        ("face", Role::Head),
        ("spine.009", Role::Neck),
    ] {
        assert_eq!(role(bone), want, "{bone}");
    }
    for facial in ["nose", "jaw", "ear.L", "brow.L"] {
        assert_ne!(role(facial), Role::Head, "{facial}");
        assert_ne!(
            role(facial),
            Role::Other,
            "{facial} would be a body of its own"
        );
    }
}

/// The bear sitting: its hip bones `pelvis.L/R` reach the ground (a Rigify wolf's rest pose,
/// sat on its haunches), and its chest carries a pair of `breast` bones beside the neck and
/// the shoulders. With the hip bones for legs it had six, was read as a many-legged creature,
/// and its chest, five chains branching from it, as a face: the chest its head, its neck,
/// head and front legs merged into it as the face's bones (a wolf's upper body one body, 78%
/// of its mass). Bones named as hip bones alone are no leg; a bone a limb hangs from is no
/// face.
fn sitting(names: [&str; 2]) -> Vec<crate::generate::fixtures::BoneDef> {
    let mut b = rigify_bear();
    for (side, name) in ["L", "R"].into_iter().zip(names) {
        let hip = (b.iter())
            .position(|x| x.name == format!("pelvis.{side}"))
            .unwrap();
        b[hip].tail.y = 0.0;
        b[hip].name = name.to_string();
    }
    let chest = b.iter().position(|x| x.name == "spine.008").unwrap();
    for x in [1.0f32, -1.0] {
        let side = if x > 0.0 { "L" } else { "R" };
        let (head, tail) = ([0.03 * x, 0.5, 0.3], [0.05 * x, 0.45, 0.35]);
        b.push(bone(
            &format!("breast.{side}"),
            Some(chest),
            head,
            tail,
            0.03,
        ));
    }
    b
}

#[test]
fn a_quadruped_sitting_on_its_hip_bones_is_a_quadruped() {
    let b = sitting(["pelvis.L", "pelvis.R"]);
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let role = |name: &str| a.role(doc.bone_by_name(name).expect(name));
    for (bone, want) in [
        ("pelvis.L", Role::Girdle),
        ("front_thigh.L", Role::UpperArm),
        ("face", Role::Head),
        ("spine.009", Role::Neck),
    ] {
        assert_eq!(role(bone), want, "{bone}");
    }
}

/// The sitting bear with its back raised 60 degrees about its pelvis, its chest above its
/// hips, its front legs straight down from its shoulders to the ground (the wolf's rest pose).
fn sat_up() -> Vec<crate::generate::fixtures::BoneDef> {
    let mut b = sitting(["pelvis.L", "pelvis.R"]);
    let at = |b: &[crate::generate::fixtures::BoneDef], name: &str| {
        b.iter().position(|x| x.name == name).expect(name)
    };
    let pivot = b[at(&b, "spine.005")].head;
    let turn = glam::Quat::from_rotation_x(-60f32.to_radians());
    let front = at(&b, "spine.006");
    let raised: Vec<usize> = (0..b.len())
        .filter(|&i| {
            let mut c = Some(i);
            while let Some(j) = c {
                if j == front {
                    return true;
                }
                c = b[j].parent;
            }
            false
        })
        .collect();
    for &i in &raised {
        b[i].head = pivot + turn * (b[i].head - pivot);
        b[i].tail = pivot + turn * (b[i].tail - pivot);
    }
    for side in ["L", "R"] {
        let top = b[at(&b, &format!("shoulder.{side}"))].tail;
        let (thigh, shin, foot) = (
            at(&b, &format!("front_thigh.{side}")),
            at(&b, &format!("front_shin.{side}")),
            at(&b, &format!("front_foot.{side}")),
        );
        let y = |share: f32| Vec3::new(top.x, top.y * share, top.z);
        (b[thigh].head, b[thigh].tail) = (top, y(0.55));
        (b[shin].head, b[shin].tail) = (y(0.55), y(0.1));
        (b[foot].head, b[foot].tail) = (y(0.1), y(0.0) + Vec3::Z * 0.08);
    }
    b
}

/// Sat on its haunches, the wolf's chest stands above its hips rather than ahead of them: two
/// pairs of legs one above the other, as a person's braids hang behind their legs, and it was
/// read as a biped, its front legs arms, falling at once. Legs named front and back are two
/// pairs wherever they stand.
#[test]
fn a_quadruped_sitting_up_is_a_quadruped() {
    let b = sat_up();
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    let chest = doc.bone_by_name("spine.008").unwrap();
    let pelvis = doc.bone_by_name("spine.005").unwrap();
    let rise = b[chest.0 as usize].head.y - b[pelvis.0 as usize].head.y;
    assert!(
        rise > 0.4,
        "the fixture sits up: chest {rise} over the hips"
    );
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    assert_eq!(
        a.role(doc.bone_by_name("front_thigh.L").unwrap()),
        Role::UpperArm
    );
    assert_eq!(a.role(doc.bone_by_name("face").unwrap()), Role::Head);
}

#[test]
fn a_chest_its_front_legs_hang_from_is_no_face() {
    let b = sitting(["seat.L", "seat.R"]);
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    let id = |name: &str| doc.bone_by_name(name).expect(name);
    assert_eq!(a.role(id("face")), Role::Head, "{:?}", a.kind());
    for leg in ["front_thigh.L", "front_shin.R"] {
        let on_a_leg = (a.limbs().iter()).any(|l| l.kind.is_leg() && l.path.contains(&id(leg)));
        assert!(on_a_leg, "{leg}: {:?}", a.role(id(leg)));
        assert_ne!(a.role(id(leg)), Role::Helper, "{leg}");
    }
}

/// The bear of [`a_rigify_bear_has_its_tail_shoulders_and_head`].
fn rigify_bear() -> Vec<crate::generate::fixtures::BoneDef> {
    let mut b = vec![bone(
        "spine.004",
        None,
        [0.0, 0.5, -0.5],
        [0.0, 0.5, -0.4],
        0.12,
    )];
    b.push(bone(
        "spine.005",
        Some(0),
        [0.0, 0.5, -0.4],
        [0.0, 0.5, -0.1],
        0.14,
    ));
    b.push(bone(
        "spine.006",
        Some(1),
        [0.0, 0.5, -0.1],
        [0.0, 0.52, 0.2],
        0.14,
    ));
    b.push(bone(
        "spine.008",
        Some(2),
        [0.0, 0.52, 0.2],
        [0.0, 0.55, 0.4],
        0.13,
    ));
    b.push(bone(
        "spine.009",
        Some(3),
        [0.0, 0.55, 0.4],
        [0.0, 0.62, 0.55],
        0.07,
    ));
    b.push(bone(
        "face",
        Some(4),
        [0.0, 0.62, 0.55],
        [0.0, 0.62, 0.7],
        0.09,
    ));
    let face = b.len() - 1;
    for (name, tail) in [
        ("nose", [0.0, 0.6, 0.85]),
        ("jaw", [0.0, 0.55, 0.75]),
        ("ear.L", [0.06, 0.72, 0.55]),
        ("ear.R", [-0.06, 0.72, 0.55]),
        ("brow.L", [0.04, 0.66, 0.68]),
    ] {
        b.push(bone(name, Some(face), [0.0, 0.62, 0.62], tail, 0.02));
    }
    b.push(bone(
        "spine.003",
        Some(0),
        [0.0, 0.5, -0.5],
        [0.0, 0.45, -0.65],
        0.04,
    ));
    b.push(bone(
        "spine.002",
        Some(b.len() - 1),
        [0.0, 0.45, -0.65],
        [0.0, 0.4, -0.8],
        0.03,
    ));
    for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
        b.push(bone(
            &format!("pelvis.{side}"),
            Some(1),
            [0.0, 0.5, -0.3],
            [0.07 * x, 0.42, -0.45],
            0.03,
        ));
        let thigh = b.len();
        b.push(bone(
            &format!("thigh.{side}"),
            Some(1),
            [0.1 * x, 0.45, -0.3],
            [0.1 * x, 0.28, -0.25],
            0.05,
        ));
        b.push(bone(
            &format!("shin.{side}"),
            Some(thigh),
            [0.1 * x, 0.28, -0.25],
            [0.1 * x, 0.1, -0.3],
            0.04,
        ));
        b.push(bone(
            &format!("foot.{side}"),
            Some(thigh + 1),
            [0.1 * x, 0.1, -0.3],
            [0.1 * x, 0.0, -0.22],
            0.03,
        ));
        let shoulder = b.len();
        b.push(bone(
            &format!("shoulder.{side}"),
            Some(3),
            [0.05 * x, 0.55, 0.3],
            [0.1 * x, 0.4, 0.32],
            0.05,
        ));
        b.push(bone(
            &format!("front_thigh.{side}"),
            Some(shoulder),
            [0.1 * x, 0.4, 0.32],
            [0.1 * x, 0.24, 0.3],
            0.045,
        ));
        b.push(bone(
            &format!("front_shin.{side}"),
            Some(shoulder + 1),
            [0.1 * x, 0.24, 0.3],
            [0.1 * x, 0.08, 0.31],
            0.04,
        ));
        b.push(bone(
            &format!("front_foot.{side}"),
            Some(shoulder + 2),
            [0.1 * x, 0.08, 0.31],
            [0.1 * x, 0.0, 0.38],
            0.03,
        ));
    }
    b
}

/// A dog rigged from the middle of its back: `back` is the root, the hips hang behind it
/// (`hips`, with the hind legs and the tail) and the shoulders ahead (`withers`, with the
/// front legs, the neck and the head), on two chains of their own, its legs named
/// `front_thigh.L` and `thigh.L`; written unnamed, the branch reaching higher (the head) is
/// the front.
pub(super) fn dog_rooted_mid_back() -> Vec<crate::generate::fixtures::BoneDef> {
    // The withers first, as the cat's file lists its shoulders before its hips.
    let mut b = vec![bone("back", None, [0.0, 0.5, 0.0], [0.0, 0.5, 0.1], 0.1)];
    let withers = b.len();
    b.push(bone(
        "withers",
        Some(0),
        [0.0, 0.5, 0.1],
        [0.0, 0.52, 0.3],
        0.1,
    ));
    neck_and_head(&mut b, withers);
    let hips = b.len();
    b.push(bone(
        "hips",
        Some(0),
        [0.0, 0.5, -0.05],
        [0.0, 0.48, -0.3],
        0.1,
    ));
    tail_and_legs(&mut b, withers, hips);
    b
}

/// A dog's neck and head on `withers`.
fn neck_and_head(b: &mut Vec<crate::generate::fixtures::BoneDef>, withers: usize) {
    let neck = b.len();
    b.push(bone(
        "neck",
        Some(withers),
        [0.0, 0.52, 0.3],
        [0.0, 0.7, 0.42],
        0.05,
    ));
    b.push(bone(
        "head",
        Some(neck),
        [0.0, 0.7, 0.42],
        [0.0, 0.72, 0.6],
        0.07,
    ));
}

/// A dog's tail on `hips`, its front legs (`front_thigh.L`, ...) on `withers` and its hind
/// legs (`thigh.L`, ...) on `hips`.
fn tail_and_legs(b: &mut Vec<crate::generate::fixtures::BoneDef>, withers: usize, hips: usize) {
    b.push(bone(
        "tail",
        Some(hips),
        [0.0, 0.48, -0.3],
        [0.0, 0.42, -0.55],
        0.03,
    ));
    for (root, z, end) in [(withers, 0.25f32, "front_"), (hips, -0.25, "")] {
        for (x, side) in [(1.0f32, "L"), (-1.0, "R")] {
            let from = Vec3::new(0.08 * x, 0.45, z);
            let knee = from + Vec3::new(0.0, -0.2, 0.0);
            let ankle = knee + Vec3::new(0.0, -0.2, 0.0);
            let paw = ankle + Vec3::new(0.0, -0.05, 0.05);
            let name = |part: &str| format!("{end}{part}.{side}");
            let first = b.len();
            b.push(bone(
                &name("thigh"),
                Some(root),
                from.into(),
                knee.into(),
                0.04,
            ));
            b.push(bone(
                &name("shin"),
                Some(first),
                knee.into(),
                ankle.into(),
                0.03,
            ));
            b.push(bone(
                &name("foot"),
                Some(first + 1),
                ankle.into(),
                paw.into(),
                0.03,
            ));
        }
    }
}

/// Rigged from the middle of its back (two dogs and a cat from a web game: the hips and the
/// shoulders on chains of their own beside each other), a dog was read as a biped, its tail
/// as its spine and head and its front legs as nothing; the cat, once four-legged, was read
/// backwards. Its hips are the pelvis, its withers the chest, its head the head.
#[test]
fn a_quadruped_rigged_from_the_middle_of_its_back() {
    for names in [true, false] {
        let bones = dog_rooted_mid_back();
        let (_dir, doc) = synthetic(&bones, names);
        let a = Anatomy::of(&doc);
        assert_eq!(a.kind(), Kind::Quadruped, "named: {names}: {:?}", a.notes());
        // Unnamed, the file's bones keep the fixture's order.
        let role_of = |name: &str| {
            let i = bones.iter().position(|b| b.name == name).unwrap();
            a.role(ragdoll_tuner::document::BoneId(i as u32))
        };
        for (bone, want) in [
            ("hips", Role::Pelvis),
            ("withers", Role::Chest),
            ("head", Role::Head),
            ("tail", Role::Tail),
        ] {
            assert_eq!(role_of(bone), want, "{bone}, named: {names}");
        }
    }
}

/// A dog rigged from its shoulders: `withers` is the root, with the front legs
/// (`front_thigh.L`), the neck and the head; `back` hangs behind it and `hips` from that,
/// with the hind legs (`thigh.L`) and the tail.
fn dog_rooted_at_the_withers() -> Vec<crate::generate::fixtures::BoneDef> {
    let mut b = vec![bone(
        "withers",
        None,
        [0.0, 0.5, 0.25],
        [0.0, 0.52, 0.3],
        0.1,
    )];
    neck_and_head(&mut b, 0);
    let back = b.len();
    b.push(bone(
        "back",
        Some(0),
        [0.0, 0.5, 0.2],
        [0.0, 0.5, -0.05],
        0.1,
    ));
    let hips = b.len();
    b.push(bone(
        "hips",
        Some(back),
        [0.0, 0.5, -0.05],
        [0.0, 0.48, -0.3],
        0.1,
    ));
    tail_and_legs(&mut b, 0, hips);
    b
}

/// Rigged from its shoulders (a triceratops from a web game: `root` holds the neck and the
/// `leg-front-*`, `back2` the `leg-back-*` and the tail), a quadruped was read backwards: the
/// root taken for the pelvis, its head and neck as a tail, its tail as neck and head, its hind
/// legs as arms. The names say which legs are behind; the pelvis hangs below the chest, and
/// the chest is the root body.
#[test]
fn a_quadruped_rigged_from_its_shoulders_faces_the_way_its_names_say() {
    let bones = dog_rooted_at_the_withers();
    let (dir, doc) = synthetic(&bones, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let role_of = |name: &str| a.role(doc.bone_by_name(name).unwrap());
    for (bone, want) in [
        ("hips", Role::Pelvis),
        ("back", Role::Spine),
        ("withers", Role::Chest),
        ("neck", Role::Neck),
        ("head", Role::Head),
        ("tail", Role::Tail),
        ("thigh.L", Role::Thigh),
        ("front_thigh.L", Role::UpperArm),
    ] {
        assert_eq!(role_of(bone), want, "{bone}");
    }
    assert!(a.forward().z > 0.9, "faces {:?}", a.forward());
    let out = dir.path().join("out.glb");
    let (code, report, err) = crate::generate::generate(&doc.path, &out, &[]);
    assert_eq!(code, Some(0), "{err}");
    let entry = |name: &str| {
        let bones = report["bones"].as_array().unwrap();
        bones.iter().find(|b| b["name"] == name).unwrap().clone()
    };
    // The chest is the root body (no joint); the pelvis a body jointed below the back.
    assert_eq!(entry("withers")["outcome"], "body", "{}", entry("withers"));
    assert!(
        entry("withers").get("joint").is_none(),
        "{}",
        entry("withers")
    );
    assert_eq!(entry("hips")["outcome"], "body", "{}", entry("hips"));
    let generated = ragdoll_tuner::document::Document::open(&out).unwrap();
    let stand = crate::generate::measure::run(&generated, Default::default());
    assert_eq!(stand.fell_at_s, None, "{stand:?}");
}
