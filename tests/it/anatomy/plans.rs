//! Body plans: synthetic creatures by their legs, legless chains, wings, robes, hair and coats,
//! a character facing -Z; the zoo's spider and creatures, and characters on a slope.

use super::open;
use crate::common::shared_asset;
use crate::generate::fixtures::{self, BoneDef, Build};
use glam::Vec3;
use ragdoll_tuner::anatomy::{Anatomy, Kind, LimbKind, Role, Side};
use ragdoll_tuner::document::Document;

/// A synthetic skinned character, opened.
pub(super) fn synthetic(bones: &[BoneDef], names: bool) -> (tempfile::TempDir, Document) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("synthetic.glb");
    let o = Build {
        names,
        vertices: 4000,
        ..Build::default()
    };
    std::fs::write(&path, fixtures::glb(bones, o)).unwrap();
    let doc = Document::open(&path).expect("opens");
    (dir, doc)
}

/// A synthetic skinned character with every vertex wholly its bone's (no skin reaches a
/// bone through a blend with its child), opened.
pub(super) fn unblended(bones: &[BoneDef]) -> (tempfile::TempDir, Document) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unblended.glb");
    let o = Build {
        blend: false,
        ..Build::default()
    };
    std::fs::write(&path, fixtures::glb(bones, o)).unwrap();
    let doc = Document::open(&path).expect("opens");
    (dir, doc)
}

pub(super) fn bone(
    name: &str,
    parent: Option<usize>,
    head: [f32; 3],
    tail: [f32; 3],
    r: f32,
) -> BoneDef {
    BoneDef {
        name: name.into(),
        parent,
        head: Vec3::from_array(head),
        tail: Vec3::from_array(tail),
        radius: r,
    }
}

/// Bones joint to joint: bone k, named `names[k]`, runs from `points[k]` to `points[k + 1]`,
/// the first hanging from `parent`, each next from the one before, all of radius `r`.
/// Returns the last bone's index.
pub(super) fn joints<S: AsRef<str>>(
    b: &mut Vec<BoneDef>,
    parent: Option<usize>,
    names: &[S],
    points: &[[f32; 3]],
    r: f32,
) -> usize {
    let mut parent = parent;
    for (name, w) in names.iter().zip(points.windows(2)) {
        b.push(bone(name.as_ref(), parent, w[0], w[1], r));
        parent = Some(b.len() - 1);
    }
    b.len() - 1
}

/// A chain of `n` segments from `from` by `step`; returns the last index.
fn chain(b: &mut Vec<BoneDef>, name: &str, parent: usize, from: Vec3, step: Vec3, n: usize) {
    let mut p = parent;
    for k in 0..n {
        let head = from + step * k as f32;
        let r = 0.25 * step.length();
        b.push(bone(
            &format!("{name}{k}"),
            Some(p),
            head.into(),
            (head + step).into(),
            r,
        ));
        p = b.len() - 1;
    }
}

/// A spider-like body with `pairs` pairs of three-segment legs splayed out and down.
fn legged(pairs: usize) -> Vec<BoneDef> {
    let mut b = vec![bone("body", None, [0.0, 0.3, -0.3], [0.0, 0.3, 0.3], 0.12)];
    for k in 0..pairs {
        let z = -0.3 + 0.6 * k as f32 / (pairs - 1).max(1) as f32;
        for x in [1.0f32, -1.0] {
            let from = Vec3::new(0.1 * x, 0.3, z);
            let (up, down) = (Vec3::new(0.15 * x, 0.1, 0.0), Vec3::new(0.1 * x, -0.2, 0.0));
            b.push(bone("leg", Some(0), from.into(), (from + up).into(), 0.03));
            let knee = from + up;
            b.push(bone(
                "leg",
                Some(b.len() - 1),
                knee.into(),
                (knee + down).into(),
                0.03,
            ));
            let ankle = knee + down;
            let tip = Vec3::new(ankle.x + 0.08 * x, 0.0, ankle.z);
            b.push(bone(
                "leg",
                Some(b.len() - 1),
                ankle.into(),
                tip.into(),
                0.02,
            ));
        }
    }
    b.push(bone(
        "head",
        Some(0),
        [0.0, 0.32, 0.3],
        [0.0, 0.4, 0.45],
        0.08,
    ));
    b
}

#[test]
fn unnamed_creatures_by_their_legs() {
    for (pairs, kind, legs) in [(4, Kind::MultiLegged, 8), (3, Kind::MultiLegged, 6)] {
        let (_d, doc) = synthetic(&legged(pairs), false);
        let a = Anatomy::of(&doc);
        assert_eq!(a.kind(), kind, "{pairs} pairs");
        let limbs = a.limbs();
        let leg_limbs: Vec<_> = limbs.iter().filter(|l| l.kind.is_leg()).collect();
        assert_eq!(leg_limbs.len(), legs, "{pairs} pairs");
        let left = leg_limbs
            .iter()
            .filter(|l| l.side == Some(Side::Left))
            .count();
        assert_eq!(left, legs / 2, "half the legs on each side");
        assert!(
            a.twins().len() >= 3 * legs / 2,
            "each leg segment has a twin"
        );
    }
}

#[test]
fn a_legless_chain() {
    let mut snake = vec![bone("root", None, [0.0, 0.05, 0.0], [0.0, 0.05, 0.2], 0.05)];
    chain(
        &mut snake,
        "seg",
        0,
        Vec3::new(0.0, 0.05, 0.2),
        Vec3::new(0.0, 0.0, 0.2),
        6,
    );
    chain(
        &mut snake,
        "tail",
        0,
        Vec3::new(0.0, 0.05, 0.0),
        Vec3::new(0.0, 0.0, -0.2),
        5,
    );
    let (_d, doc) = synthetic(&snake, false);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Legless);
    assert_eq!(a.kind().coarse().name(), "other");
}

#[test]
fn a_winged_biped() {
    let mut bird = vec![bone("hips", None, [0.0, 0.5, 0.0], [0.0, 0.6, 0.1], 0.1)];
    bird.push(bone(
        "chest",
        Some(0),
        [0.0, 0.6, 0.1],
        [0.0, 0.7, 0.2],
        0.1,
    ));
    bird.push(bone(
        "head",
        Some(1),
        [0.0, 0.7, 0.2],
        [0.0, 0.85, 0.3],
        0.06,
    ));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        let wing = Vec3::new(0.05 * x, 0.68, 0.15);
        chain(
            &mut bird,
            &format!("Wing.{s}."),
            1,
            wing,
            Vec3::new(0.25 * x, 0.05, 0.0),
            3,
        );
        let hip = Vec3::new(0.08 * x, 0.5, 0.0);
        chain(
            &mut bird,
            &format!("Leg.{s}."),
            0,
            hip,
            Vec3::new(0.0, -0.16, 0.0),
            3,
        );
    }
    let (_d, doc) = synthetic(&bird, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Winged);
    let limbs = a.limbs();
    let wings = limbs.iter().filter(|l| l.kind == LimbKind::Wing).count();
    let legs = limbs.iter().filter(|l| l.kind == LimbKind::Leg).count();
    assert_eq!((wings, legs), (2, 2));
}

/// The humanoid turned to face -Z: with names, sides come from the names; without, from the
/// feet. Either way the character's own left is found and forward is -Z.
#[test]
fn a_character_facing_minus_z_keeps_its_sides() {
    let turned: Vec<BoneDef> = fixtures::humanoid()
        .into_iter()
        .map(|mut b| {
            b.head = Vec3::new(-b.head.x, b.head.y, -b.head.z);
            b.tail = Vec3::new(-b.tail.x, b.tail.y, -b.tail.z);
            b
        })
        .collect();
    for names in [true, false] {
        let (_d, doc) = synthetic(&turned, names);
        let a = Anatomy::of(&doc);
        assert_eq!(a.kind(), Kind::Biped, "names {names}");
        assert!(
            a.forward().z < -0.9,
            "names {names}: forward {:?}",
            a.forward()
        );
        let thighs = a.bones_with(Role::Thigh);
        assert_eq!(thighs.len(), 2);
        for t in thighs {
            // The bone's index is the same with and without names: the Mixamo order.
            let name = &fixtures::humanoid()[t.index()].name;
            let want = if name.contains("Left") {
                Side::Left
            } else {
                Side::Right
            };
            assert_eq!(a.side(t), Some(want), "names {names}: {name}");
        }
    }
}

/// A humanoid in a robe that reaches the ground below its feet: its legs do not reach the
/// ground, so only its names can tell it is a biped.
#[test]
fn a_robed_humanoid_is_a_biped_by_its_names() {
    let mut robed = fixtures::humanoid();
    let spine = robed
        .iter()
        .position(|b| b.name.ends_with("Spine"))
        .unwrap();
    let from = Vec3::new(0.0, 1.05, -0.15);
    chain(
        &mut robed,
        "Robe",
        spine,
        from,
        Vec3::new(0.0, -0.3, -0.05),
        5,
    );
    let (_d, doc) = synthetic(&robed, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped);
    let id = |n: &str| doc.bone_by_name(n).expect(n);
    assert_eq!(a.role(id("mixamorig:LeftLeg")), Role::Shin);
    assert_eq!(a.side(id("mixamorig:LeftLeg")), Some(Side::Left));
    assert!(a
        .notes()
        .iter()
        .any(|n| n.text.contains("by its bone names")));
    let (_d, doc) = synthetic(&robed, false);
    assert_ne!(Anatomy::of(&doc).kind(), Kind::Biped, "without names");
}

/// The body a creature's legs hang from is its pelvis, never one of its legs. The spider's
/// `Body` carries no skin (its skin is all on its legs, abdomen, thorax and head): measured
/// before the fix, its eight legs, abdomen and head were roots of their own, a leg
/// (`MidFrontLeg.R`) was called the pelvis, and the generated ragdoll was six unjointed
/// pieces whose "fall" was a leg tipping past 60°.
#[test]
fn a_creature_hangs_from_its_body_not_from_a_leg() {
    for file in [
        "q_spider.glb",
        "q_horse.glb",
        "q_rat.glb",
        "q_dragon_meshopt.glb",
    ] {
        let Some(doc) = open(file) else { continue };
        let a = Anatomy::of(&doc);
        let pelvis = a.pelvis().unwrap_or_else(|| panic!("{file}: no pelvis"));
        let legs: Vec<_> = a.limbs().into_iter().filter(|l| l.kind.is_leg()).collect();
        assert!(!legs.is_empty(), "{file}: no legs");
        for l in &legs {
            assert!(
                !l.path.contains(&pelvis),
                "{file}: the pelvis {} is in a leg",
                doc.bone(pelvis).name
            );
        }
        if file == "q_spider.glb" {
            assert_eq!(doc.bone(pelvis).name, "Body", "{file}");
            assert_eq!(a.kind(), Kind::MultiLegged, "{file}");
            assert_eq!(legs.len(), 8, "{file}");
            assert!(legs.iter().all(|l| l.root == pelvis), "{file}: {legs:?}");
        }
    }
}

/// The spider's ragdoll is one jointed tree from its body: one body without a joint.
#[test]
fn the_spider_is_one_ragdoll() {
    let Some(mut doc) = open("q_spider.glb") else {
        return;
    };
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
    doc.apply(&g.edit).expect("apply");
    let roots: Vec<String> = doc
        .bone_ids()
        .filter(|&id| {
            doc.bone(id)
                .physics
                .as_ref()
                .is_some_and(|p| p.collider.is_some() && p.constraint.is_none())
        })
        .map(|id| doc.bone(id).name.clone())
        .collect();
    assert_eq!(roots, vec!["Body".to_string()]);
}

/// A creature's head is the bone its names call the head, even when another branch reaches
/// farther (the Quaternius horse's left ear, a four-bone chain above its head, was taken for
/// the neck and head, its real head for the neck, and its two ears got different roles). The
/// bones below the head are not neck or head, and twin bones get the same role.
#[test]
fn a_creature_s_named_head_is_its_head_and_its_ears_are_twins() {
    for file in ["q_horse.glb", "q_rat.glb"] {
        let doc = open(file).expect("opens");
        let a = Anatomy::of(&doc);
        let head = a.head().unwrap_or_else(|| panic!("{file}: no head"));
        assert_eq!(doc.bone(head).name, "Head", "{file}");
        for id in doc.bone_ids() {
            let below_head = std::iter::successors(doc.bone(id).parent, |&p| doc.bone(p).parent)
                .any(|p| p == head);
            if below_head {
                assert!(
                    !matches!(a.role(id), Role::Neck | Role::Head),
                    "{file}: {} below the head is {:?}",
                    doc.bone(id).name,
                    a.role(id)
                );
            }
            if let Some(twin) = a.twin_of(id) {
                assert_eq!(
                    a.role(id),
                    a.role(twin),
                    "{file}: {} and its twin {}",
                    doc.bone(id).name,
                    doc.bone(twin).name
                );
            }
        }
    }
}

/// Two braids (or a cape's two hems) hanging from the head to the ground behind the back are
/// not legs: the humanoid stays a biped whose legs are its legs, with or without bone names.
#[test]
fn hair_reaching_the_ground_is_not_a_pair_of_legs() {
    for named in [true, false] {
        let mut long_hair = fixtures::humanoid();
        let head = long_hair
            .iter()
            .position(|b| b.name.ends_with("Head"))
            .unwrap();
        for (x, side) in [(0.08f32, "Left"), (-0.08, "Right")] {
            let from = Vec3::new(x, 1.62, -0.12);
            let name = format!("{side}Hair");
            chain(
                &mut long_hair,
                &name,
                head,
                from,
                Vec3::new(0.0, -0.31, -0.02),
                5,
            );
        }
        let (_d, doc) = synthetic(&long_hair, named);
        let a = Anatomy::of(&doc);
        eprintln!("named {named}: {:?}", a.kind());
        assert_eq!(a.kind(), Kind::Biped, "named {named}");
        if named {
            let id = |n: &str| doc.bone_by_name(n).expect(n);
            assert_eq!(a.role(id("mixamorig:LeftLeg")), Role::Shin);
        }
        // Its ragdoll stands on its legs, its braids hanging.
        let mut doc = doc;
        let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
        doc.apply(&g.edit).expect("apply");
        let settings = ragdoll_tuner::sim::SimSettings::default();
        let mut sim = ragdoll_tuner::sim::Simulation::new(&doc, settings).expect("sim");
        for _ in 0..600 {
            sim.step().expect("no pause");
        }
        let tilt = sim.telemetry().max_torso_tilt_deg;
        eprintln!(
            "named {named}: stood 5 s, fell at {:?}, tilt {tilt:.2}",
            sim.fell_at_s()
        );
        assert!(
            sim.fell_at_s().is_none() && tilt < 10.0,
            "named {named}: tilt {tilt}"
        );
    }
}

/// A long coat's two front panels, rigged as chains from the hips down to the ground beside
/// the legs, are not legs when their names say so (`Coat`): the humanoid stays a biped. (From
/// the same bone as the legs, only names can tell them apart.)
#[test]
fn a_long_coat_named_as_such_is_not_four_legs() {
    let mut coat = fixtures::humanoid();
    let hips = coat.iter().position(|b| b.name.ends_with("Hips")).unwrap();
    for (x, side) in [(0.16f32, "Left"), (-0.16, "Right")] {
        let from = Vec3::new(x, 0.95, 0.12);
        let name = format!("Coat{side}");
        chain(
            &mut coat,
            &name,
            hips,
            from,
            Vec3::new(0.02 * x.signum(), -0.18, 0.0),
            5,
        );
    }
    let (_d, doc) = synthetic(&coat, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped);
    let id = |n: &str| doc.bone_by_name(n).expect(n);
    assert_eq!(a.role(id("mixamorig:LeftLeg")), Role::Shin);
    assert_eq!(a.role(id("mixamorig:RightUpLeg")), Role::Thigh);
}

/// A file that stands its character on a slope (its root pitched or rolled as a whole) keeps
/// its body plan: the floor is the plane its feet rest on, not the level plane under its
/// lowest point. Before, a quadruped pitched 10° read as a biped (its front feet 10-30% of its
/// height above the level floor), and the spider pitched 5° as a quadruped.
#[test]
fn a_character_on_a_slope_keeps_its_body_plan() {
    let turned = |file: &str, axis: Vec3, deg: f32| {
        let (s, c) = (deg.to_radians() / 2.0).sin_cos();
        let q = [axis.x * s, axis.y * s, axis.z * s, c];
        let node = serde_json::json!({"name": "slope", "rotation": q});
        crate::common::placed_glb(&shared_asset(&format!("zoo/{file}")), node)
    };
    let cases = [
        ("q_rat.glb", Vec3::X, 10.0, Kind::Quadruped),
        ("q_rat.glb", Vec3::X, -10.0, Kind::Quadruped),
        ("q_rat.glb", Vec3::Z, 15.0, Kind::Quadruped),
        ("q_horse.glb", Vec3::X, 10.0, Kind::Quadruped),
        ("q_horse.glb", Vec3::X, -15.0, Kind::Quadruped),
        ("q_spider.glb", Vec3::X, 5.0, Kind::MultiLegged),
        ("q_spider.glb", Vec3::Z, -10.0, Kind::MultiLegged),
    ];
    for (file, axis, deg, want) in cases {
        let kind = Anatomy::of(&turned(file, axis, deg)).kind();
        assert_eq!(kind, want, "{file} turned {deg}° about {axis}");
    }
}

/// A quadruped whose one body bone, mid-trunk, carries all four legs and claims little skin
/// (the hips' and the chest's skin on bones of their own, as a Quaternius pug's `Body`): its
/// pelvis lies between its hind and front legs, which is plausible; the check warned that it
/// was not between the thighs (0.97 units from them on the pug).
#[test]
fn a_quadrupeds_mid_body_pelvis_is_not_flagged() {
    let mut b = vec![bone("body", None, [0.0, 0.3, 0.0], [0.0, 0.3, 0.05], 0.03)];
    b.push(bone(
        "hips",
        Some(0),
        [0.0, 0.3, -0.05],
        [0.0, 0.3, -0.4],
        0.12,
    ));
    b.push(bone(
        "chest",
        Some(0),
        [0.0, 0.3, 0.05],
        [0.0, 0.3, 0.4],
        0.12,
    ));
    for z in [-0.35f32, 0.35] {
        for x in [1.0f32, -1.0] {
            let from = Vec3::new(0.1 * x, 0.3, z);
            let knee = from + Vec3::new(0.05 * x, -0.15, 0.0);
            let ankle = knee + Vec3::new(0.0, -0.13, 0.0);
            let first = b.len();
            b.push(bone("leg", Some(0), from.into(), knee.into(), 0.03));
            b.push(bone("leg", Some(first), knee.into(), ankle.into(), 0.03));
            let tip = ankle + Vec3::new(0.0, -0.02, 0.06);
            b.push(bone("leg", Some(first + 1), ankle.into(), tip.into(), 0.02));
        }
    }
    b.push(bone(
        "head",
        Some(2),
        [0.0, 0.32, 0.4],
        [0.0, 0.42, 0.55],
        0.08,
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pug.glb");
    let o = Build {
        names: false,
        blend: false,
        ..Build::default()
    };
    std::fs::write(&path, fixtures::glb(&b, o)).unwrap();
    let mut doc = Document::open(&path).expect("opens");
    assert_eq!(Anatomy::of(&doc).kind(), Kind::Quadruped);
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
    doc.apply(&g.edit).expect("apply");
    let warned: Vec<String> = ragdoll_tuner::anatomy::plausible::of(&doc)
        .iter()
        .map(ToString::to_string)
        .filter(|d| d.contains("not between the thighs"))
        .collect();
    assert!(warned.is_empty(), "{warned:?}");
}

/// A walking animal lifts a paw in its rest pose: a beaver from Blender's Rigify (its legs
/// on the hips and on the chest, a head on a long neck) holds its right front paw 11.5% of
/// its height off the ground. Only three legs reached the ground, so it read as a biped
/// whose lifted leg was its neck and head and whose head was an arm, and it fell standing.
/// A chain lifted a little is a leg when its twin, from the same bone with as many bones,
/// stands on the ground.
#[test]
fn a_paw_lifted_in_the_rest_pose_is_still_a_leg() {
    let mut b = vec![bone("", None, [0.0, 0.3, -0.25], [0.0, 0.3, 0.0], 0.1)];
    b.push(bone("", Some(0), [0.0, 0.3, 0.0], [0.0, 0.3, 0.25], 0.1));
    b.push(bone("", Some(1), [0.0, 0.3, 0.25], [0.0, 0.36, 0.4], 0.05));
    b.push(bone("", Some(2), [0.0, 0.36, 0.4], [0.0, 0.4, 0.5], 0.07));
    let lift = 0.06; // 0.115 of the height (0.52 m, from the ground to the head's top)
    for (root, z) in [(0usize, -0.2f32), (1, 0.22)] {
        for x in [1.0f32, -1.0] {
            let up = if root == 1 && x < 0.0 { lift } else { 0.0 };
            let from = Vec3::new(0.08 * x, 0.3, z);
            let knee = from + Vec3::new(0.02 * x, -0.14, 0.0);
            let ankle = knee + Vec3::new(0.0, -0.12 + up, 0.02);
            let first = b.len();
            b.push(bone("", Some(root), from.into(), knee.into(), 0.03));
            b.push(bone("", Some(first), knee.into(), ankle.into(), 0.025));
            let tip = ankle + Vec3::new(0.0, -0.01, 0.05);
            b.push(bone("", Some(first + 1), ankle.into(), tip.into(), 0.015));
        }
    }
    let (_dir, doc) = synthetic(&b, false);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped, "{:?}", a.notes());
    let legs = a.limbs().iter().filter(|l| l.kind.is_leg()).count();
    assert_eq!(legs, 4);
    assert_eq!(a.role(ragdoll_tuner::document::BoneId(3)), Role::Head);
}

/// A Rigify character exported with its deform bones alone (a Miku rig's `blue_no-anim.glb`):
/// every chain hangs from the armature (`DEF-spine`, `DEF-thigh.L`, `DEF-shoulder.L`,
/// `DEF-upper_arm.L`, `DEF-breast.L`, the hair side by side) and the tool hangs each from the
/// bone nearest it. The breast's skin reaches the armpit, nearer the upper arm's head than the
/// shoulder: the arm hung from the breast and was no arm. Its pigtails rise above the head:
/// the torso's path ran up them, a hair bone was the head and the head the neck.
#[test]
fn a_flat_rigify_export_hangs_its_arms_from_the_shoulders_and_keeps_its_head() {
    let mut b = vec![bone(
        "DEF-spine",
        None,
        [0.0, 0.9, 0.0],
        [0.0, 1.0, 0.0],
        0.12,
    )];
    b.push(bone(
        "DEF-spine.001",
        Some(0),
        [0.0, 1.0, 0.0],
        [0.0, 1.15, 0.0],
        0.12,
    ));
    b.push(bone(
        "DEF-spine.002",
        Some(1),
        [0.0, 1.15, 0.0],
        [0.0, 1.3, 0.0],
        0.13,
    ));
    b.push(bone(
        "DEF-spine.003",
        Some(2),
        [0.0, 1.3, 0.0],
        [0.0, 1.4, 0.0],
        0.04,
    ));
    b.push(bone(
        "DEF-spine.004",
        Some(3),
        [0.0, 1.4, 0.0],
        [0.0, 1.6, 0.0],
        0.09,
    ));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        let at = |v: [f32; 3]| [x * v[0], v[1], v[2]];
        let k = b.len();
        b.push(bone(
            &format!("DEF-thigh.{s}"),
            None,
            at([0.1, 0.9, 0.0]),
            at([0.1, 0.5, 0.0]),
            0.06,
        ));
        b.push(bone(
            &format!("DEF-shin.{s}"),
            Some(k),
            at([0.1, 0.5, 0.0]),
            at([0.1, 0.08, 0.0]),
            0.05,
        ));
        b.push(bone(
            &format!("DEF-foot.{s}"),
            Some(k + 1),
            at([0.1, 0.08, 0.0]),
            at([0.1, 0.02, 0.12]),
            0.04,
        ));
        b.push(bone(
            &format!("DEF-shoulder.{s}"),
            None,
            at([0.03, 1.22, 0.03]),
            at([0.12, 1.31, 0.0]),
            0.03,
        ));
        b.push(bone(
            &format!("DEF-breast.{s}"),
            None,
            at([0.05, 1.15, 0.1]),
            at([0.17, 1.26, 0.03]),
            0.04,
        ));
        let a = b.len();
        b.push(bone(
            &format!("DEF-upper_arm.{s}"),
            None,
            at([0.2, 1.28, 0.0]),
            at([0.45, 1.28, 0.0]),
            0.04,
        ));
        b.push(bone(
            &format!("DEF-forearm.{s}"),
            Some(a),
            at([0.45, 1.28, 0.0]),
            at([0.7, 1.28, 0.0]),
            0.035,
        ));
        b.push(bone(
            &format!("DEF-hand.{s}"),
            Some(a + 1),
            at([0.7, 1.28, 0.0]),
            at([0.8, 1.28, 0.0]),
            0.03,
        ));
        let h = b.len();
        b.push(bone(
            &format!("hair-pink.001.{}", s.to_lowercase()),
            None,
            at([0.08, 1.6, -0.02]),
            at([0.12, 1.72, -0.04]),
            0.03,
        ));
        b.push(bone(
            &format!("hair-pink.002.{}", s.to_lowercase()),
            Some(h),
            at([0.12, 1.72, -0.04]),
            at([0.2, 1.8, -0.06]),
            0.03,
        ));
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    let id = |n: &str| doc.bone_by_name(n).unwrap();
    assert_eq!(a.role(id("DEF-spine.004")), Role::Head);
    assert_eq!(a.role(id("DEF-spine.003")), Role::Neck);
    for (s, side) in [("L", Side::Left), ("R", Side::Right)] {
        for (name, role) in [
            ("DEF-shoulder", Role::Clavicle),
            ("DEF-upper_arm", Role::UpperArm),
            ("DEF-forearm", Role::Forearm),
            ("DEF-hand", Role::Hand),
        ] {
            let bone = id(&format!("{name}.{s}"));
            assert_eq!(
                (a.role(bone), a.side(bone)),
                (role, Some(side)),
                "{name}.{s}"
            );
        }
        let hair = id(&format!("hair-pink.001.{}", s.to_lowercase()));
        assert!(
            !matches!(a.role(hair), Role::Head | Role::Neck),
            "{:?}",
            a.role(hair)
        );
    }
}

/// A Maya rig numbers its segments (`L_foot0001_bind_JNT`, `L_foot0002_bind_JNT` under it):
/// both names say a foot. The second, under the first, is its toes: it had been a body of no
/// role, the leg's last, and the balance stood the character on it (0.09 kg of a 0.57 kg
/// foot). Its `L_armUpper0003_bind_JNT` hangs from `L_armUpper0001` beside the forearm: a
/// twist segment, which had been a body of no role.
#[test]
fn a_maya_rig_s_numbered_segments_are_toes_and_twists() {
    let rename = |n: &str| match n {
        "mixamorig:LeftFoot" => "L_foot0001_bind_JNT".to_string(),
        "mixamorig:LeftToeBase" => "L_foot0002_bind_JNT".to_string(),
        "mixamorig:RightFoot" => "R_foot0001_bind_JNT".to_string(),
        "mixamorig:RightToeBase" => "R_foot0002_bind_JNT".to_string(),
        "mixamorig:LeftArm" => "L_armUpper0001_bind_JNT".to_string(),
        "mixamorig:RightArm" => "R_armUpper0001_bind_JNT".to_string(),
        other => other.to_string(),
    };
    let mut bones: Vec<BoneDef> = fixtures::humanoid()
        .into_iter()
        .map(|mut b| {
            b.name = rename(&b.name);
            b
        })
        .collect();
    for s in ["L", "R"] {
        let up = bones
            .iter()
            .position(|b| b.name == format!("{s}_armUpper0001_bind_JNT"))
            .unwrap();
        let (head, tail) = (bones[up].head, bones[up].tail);
        bones.push(BoneDef {
            name: format!("{s}_armUpper0003_bind_JNT"),
            parent: Some(up),
            head: head.lerp(tail, 0.5),
            tail: head.lerp(tail, 0.9),
            radius: 0.03,
        });
    }
    let (_d, doc) = synthetic(&bones, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped);
    for s in ["L", "R"] {
        let role = |n: &str| a.role(doc.bone_by_name(&format!("{s}_{n}_bind_JNT")).unwrap());
        assert_eq!(role("foot0001"), Role::Foot, "{s}");
        assert_eq!(role("foot0002"), Role::Toe, "{s}");
        assert_eq!(role("armUpper0001"), Role::UpperArm, "{s}");
        assert_eq!(role("armUpper0003"), Role::Twist, "{s}");
    }
}

/// A legless flying dragon (Quaternius, `Wing1.L`..`Wing4.L` and `.R` on its `Torso`, a neck
/// and head ahead): each wing is a wing. The right one, the chain reaching farthest from the
/// torso, had also been taken for its tail (every bone `tail`) while the left stayed a wing.
#[test]
fn a_legless_dragon_s_wings_are_not_its_tail() {
    let mut b = vec![bone("Torso", None, [0.0, 1.6, 0.0], [0.0, 1.6, 0.3], 0.2)];
    b.push(bone("Neck", Some(0), [0.0, 1.6, 0.3], [0.0, 1.8, 0.7], 0.1));
    b.push(bone(
        "Head",
        Some(1),
        [0.0, 1.8, 0.7],
        [0.0, 1.9, 1.0],
        0.12,
    ));
    for (s, x) in [("L", 1.0f32), ("R", -1.0)] {
        let mut parent = 0;
        for k in 0..4 {
            let from = [x * (0.15 + 0.5 * k as f32), 1.7, 0.1];
            let to = [x * (0.65 + 0.5 * k as f32), 1.75, 0.05 - 0.1 * k as f32];
            b.push(bone(
                &format!("Wing{}.{s}", k + 1),
                Some(parent),
                from,
                to,
                0.06,
            ));
            parent = b.len() - 1;
        }
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    for k in 1..=4 {
        let role = |s: &str| a.role(doc.bone_by_name(&format!("Wing{k}.{s}")).unwrap());
        assert_ne!(role("R"), Role::Tail, "Wing{k}.R");
        assert_eq!(role("L"), role("R"), "Wing{k}");
    }
}

/// Blender numbers a duplicated bone (`head.002`). A girl's `head.002`, a bun of 16 vertices
/// at the top of the head, rose above `head` (147 vertices, the whole head): the geometry
/// took the bun for the head and both names said head, so the bun kept the role and the
/// head was merged into the neck as a twist bone. A numbered copy of another holder's name
/// loses to it.
#[test]
fn a_numbered_copy_of_the_head_is_not_the_head() {
    let mut bones = fixtures::humanoid();
    let head = bones
        .iter()
        .position(|b| b.name == "mixamorig:Head")
        .unwrap();
    bones.push(bone(
        "mixamorig:Head.002",
        Some(head),
        [0.0, 1.72, -0.04],
        [0.0, 1.86, -0.12],
        0.05,
    ));
    let (_dir, doc) = synthetic(&bones, true);
    let a = Anatomy::of(&doc);
    let name = |id: Option<_>| id.map(|b| doc.bone(b).name.clone());
    assert_eq!(name(a.head()).as_deref(), Some("mixamorig:Head"));
    let neck = doc.bone_by_name("mixamorig:Neck").unwrap();
    assert_eq!(a.role(neck), Role::Neck);
}

/// Eyes above the head joint (Ready Player Me's `LeftEye`/`RightEye`, 8 cm above `Head`; a
/// VRoid's brows `brow1.l`/`brow1.r`) are a pair: the torso's path to the highest point ran
/// into one of them, the eye the head and the head the neck. Names put them back with a
/// warning, "'Head' is named as the head; the skeleton's shape suggested the neck" (7 of 73
/// files, two of the zoo), or not at all: a VRoid's right brow became a second neck with a
/// body of its own. The torso runs along the midline: the head is the head, named or not.
#[test]
fn eyes_above_the_head_are_not_the_head() {
    let mut bones = fixtures::humanoid();
    let head = bones
        .iter()
        .position(|b| b.name == "mixamorig:Head")
        .unwrap();
    let at = bones[head].head;
    for (name, x) in [("mixamorig:LeftEye", 0.03), ("mixamorig:RightEye", -0.03)] {
        let eye = [x, at.y + 0.08, at.z + 0.08];
        let front = [x, at.y + 0.08, at.z + 0.1];
        bones.push(bone(name, Some(head), eye, front, 0.012));
    }
    for names in [true, false] {
        let (_dir, doc) = synthetic(&bones, names);
        let a = Anatomy::of(&doc);
        // The fixture's nodes: the armature, one mesh node, then the bones in order.
        let node_of = |id: ragdoll_tuner::document::BoneId| doc.bone(id).node - 2;
        assert_eq!(a.head().map(node_of), Some(head), "names {names}");
        let texts: Vec<&str> = a.notes().iter().map(|n| n.text.as_str()).collect();
        let told = texts.iter().any(|t| t.contains("suggested"));
        assert!(!told, "names {names}: {texts:?}");
    }
}

/// A head bone's jaw hanging below it (a wolf's `Unterkiefer`, a bird's `BN_Mouth_01`) is not
/// the head: the torso's path ran on to the leaf, the jaw the head and the head the neck (a
/// zoo dragon's `Nose` was its head, its `Head` its chest). A path through the bone named as
/// the head ends there. And a pelvis named on the spine bone above the one its legs hang
/// from (Quaternius: `Hips` and the legs side by side on `Body`) is no disagreement to report:
/// the bone below merges into it (5 of 73 files said "'Hips' is named as the pelvis; the
/// skeleton's shape suggested the spine").
#[test]
fn a_jaw_below_the_head_and_hips_beside_the_legs_are_read_without_notes() {
    let mut bones = fixtures::humanoid();
    let at = |n: &str| bones.iter().position(|b| b.name == n).unwrap();
    let (head, hips) = (at("mixamorig:Head"), at("mixamorig:Hips"));
    let legs = [at("mixamorig:LeftUpLeg"), at("mixamorig:RightUpLeg")];
    let p = bones[head].head;
    let jaw = bone(
        "mixamorig:Jaw",
        Some(head),
        [0.0, p.y + 0.02, p.z + 0.03],
        [0.0, p.y - 0.02, p.z + 0.1],
        0.03,
    );
    bones.push(jaw);
    let body = bone("Body", None, [0.0, 0.9, 0.0], [0.0, 0.95, 0.0], 0.1);
    bones.push(body);
    let body = bones.len() - 1;
    bones[hips].parent = Some(body);
    for l in legs {
        bones[l].parent = Some(body);
    }
    let (_dir, doc) = synthetic(&bones, true);
    let a = Anatomy::of(&doc);
    let name = |id: Option<_>| id.map(|b| doc.bone(b).name.clone());
    assert_eq!(name(a.head()).as_deref(), Some("mixamorig:Head"));
    assert_eq!(name(a.pelvis()).as_deref(), Some("mixamorig:Hips"));
    let texts: Vec<&str> = a.notes().iter().map(|n| n.text.as_str()).collect();
    assert!(!texts.iter().any(|t| t.contains("suggested")), "{texts:?}");
}

/// A clavicle, then a bone named as the shoulder, then the elbow (`Left_Clav`,
/// `Left_Shoulder`, `Left_Ellbow`, `Left_Wrist`): Mixamo's `LeftShoulder` is its clavicle,
/// and the name made this shoulder a second clavicle, the elbow the upper arm, no forearm,
/// and a ball socket at the elbow. Below a bone firmly named the clavicle, the shoulder is
/// the upper arm.
#[test]
fn a_shoulder_below_a_clavicle_is_the_upper_arm() {
    let english = fixtures::humanoid();
    let renamed: Vec<BoneDef> = (english.iter().cloned())
        .map(|mut b| {
            let n = b.name.trim_start_matches("mixamorig:").to_string();
            for (side, s) in [("Left", "Left_"), ("Right", "Right_")] {
                for (from, to) in [
                    ("Shoulder", "Clav"),
                    ("Arm", "Shoulder"),
                    ("ForeArm", "Ellbow"),
                    ("Hand", "Wrist"),
                ] {
                    if n == format!("{side}{from}") {
                        b.name = format!("{s}{to}");
                    }
                }
            }
            b
        })
        .collect();
    let (_dir, doc) = synthetic(&renamed, true);
    let a = Anatomy::of(&doc);
    for side in ["Left", "Right"] {
        for (part, role) in [
            ("Clav", Role::Clavicle),
            ("Shoulder", Role::UpperArm),
            ("Ellbow", Role::Forearm),
            ("Wrist", Role::Hand),
        ] {
            let name = format!("{side}_{part}");
            let id = doc.bone_by_name(&name).expect(&name);
            assert_eq!(a.role(id), role, "{name}");
        }
    }
}

/// Character Creator's and AccuRIG's rigs weight a limb's skin to its twist bones
/// (`L_ThighTwist01`: 2844 vertices) and none to the segment (`L_Thigh`: 0): the segments were
/// control bones, their twist bones merged away, and a humanoid lost its legs and arms and
/// read as `other` (its pelvis bone had no skin either). A segment whose skin is on its twist
/// bones is a segment.
#[test]
fn a_limb_weighted_through_its_twist_bones_is_a_limb() {
    let mut bones = fixtures::humanoid();
    let segments = [
        ("LeftUpLeg", Role::Thigh),
        ("LeftLeg", Role::Shin),
        ("RightUpLeg", Role::Thigh),
        ("RightLeg", Role::Shin),
        ("LeftArm", Role::UpperArm),
        ("LeftForeArm", Role::Forearm),
        ("RightArm", Role::UpperArm),
        ("RightForeArm", Role::Forearm),
    ];
    for (s, _) in segments {
        let i = (bones.iter())
            .position(|b| b.name == format!("mixamorig:{s}"))
            .unwrap();
        let (head, tail, r) = (bones[i].head, bones[i].tail, bones[i].radius);
        bones[i].radius = 0.0;
        bones.push(bone(
            &format!("mixamorig:{s}Twist01"),
            Some(i),
            head.into(),
            tail.into(),
            r,
        ));
    }
    // And no skin on the hips either (a Tripo export of that rig: `Pelvis` holds the legs,
    // its skin is on `Waist`, beside it): nothing skinned above the legs.
    let hips = (bones.iter()).position(|b| b.name == "mixamorig:Hips");
    bones[hips.unwrap()].radius = 0.0;
    // Every vertex wholly its bone's, so that no skin reaches the hips through a blend.
    let (_dir, doc) = unblended(&bones);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind().coarse().name(), "humanoid");
    for (s, role) in segments {
        let id = doc.bone_by_name(&format!("mixamorig:{s}")).unwrap();
        assert_eq!(a.role(id), role, "{s}");
    }
}

/// A Tripo export of Character Creator's rig hangs `Pelvis` (the legs; no skin) and `Waist`
/// (the spine, arms and head) side by side from `Hip` (no skin): the torso's path up from
/// the pelvis was empty, so the arms, the chest and the head were `other`. Where nothing
/// but the legs hangs from the pelvis, the path may start at the first bone above it that
/// has skin.
#[test]
fn a_torso_beside_the_legs_holder_under_a_bare_bone_is_the_torso() {
    let mut bones = fixtures::humanoid();
    let find = |bones: &[fixtures::BoneDef], n: &str| {
        (bones.iter())
            .position(|b| b.name == format!("mixamorig:{n}"))
            .unwrap()
    };
    let (hips, spine) = (find(&bones, "Hips"), find(&bones, "Spine"));
    bones.push(bone("Hip", None, [0.0, 0.9, 0.0], [0.0, 0.95, 0.0], 0.0));
    let hip = bones.len() - 1;
    bones.push(bone(
        "Waist",
        Some(hip),
        [0.0, 0.95, 0.0],
        [0.0, 1.05, 0.0],
        0.13,
    ));
    bones[hips].parent = Some(hip);
    bones[hips].radius = 0.0;
    bones[spine].parent = Some(bones.len() - 1);
    let (_dir, doc) = unblended(&bones);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind().coarse().name(), "humanoid");
    for (n, role) in [
        ("LeftArm", Role::UpperArm),
        ("RightForeArm", Role::Forearm),
        ("LeftHand", Role::Hand),
        ("Head", Role::Head),
        ("LeftUpLeg", Role::Thigh),
    ] {
        let id = doc.bone_by_name(&format!("mixamorig:{n}")).unwrap();
        assert_eq!(a.role(id), role, "{n}");
    }
}

/// A rig that names each arm bone for the joint at its head and has no clavicle
/// (`epaule_L`, `coude_L`, `poignet_L` on a Sketchfab skeleton: shoulder, elbow, wrist): the
/// shoulder, a word Mixamo gives the clavicle, was read as one, and the arm had no upper arm
/// (a clavicle's narrow limits on the whole upper arm). Before a bone firmly named the
/// forearm, with no bone between, the shoulder is the upper arm.
#[test]
fn a_shoulder_right_above_the_elbow_is_the_upper_arm() {
    let english = fixtures::humanoid();
    let clavicles: Vec<usize> = (0..english.len())
        .filter(|&i| english[i].name.ends_with("Shoulder"))
        .collect();
    let new_index = |i: usize| i - clavicles.iter().filter(|&&c| c < i).count();
    let renamed: Vec<BoneDef> = (english.iter().cloned().enumerate())
        .filter(|(i, _)| !clavicles.contains(i))
        .map(|(_, mut b)| {
            // Hang the arm from the clavicle's parent, the chest.
            let mut parent = b.parent;
            while let Some(p) = parent.filter(|p| clavicles.contains(p)) {
                parent = english[p].parent;
            }
            b.parent = parent.map(new_index);
            let n = b.name.trim_start_matches("mixamorig:").to_string();
            for (side, s) in [("Left", "_L"), ("Right", "_R")] {
                for (from, to) in [("Arm", "Shoulder"), ("ForeArm", "Elbow"), ("Hand", "Wrist")] {
                    if n == format!("{side}{from}") {
                        b.name = format!("{to}{s}");
                    }
                }
            }
            b
        })
        .collect();
    let (_dir, doc) = synthetic(&renamed, true);
    let a = Anatomy::of(&doc);
    for side in ["L", "R"] {
        for (part, role) in [
            ("Shoulder", Role::UpperArm),
            ("Elbow", Role::Forearm),
            ("Wrist", Role::Hand),
        ] {
            let name = format!("{part}_{side}");
            let id = doc.bone_by_name(&name).expect(&name);
            assert_eq!(a.role(id), role, "{name}");
        }
    }
}

/// Character Creator's and Tripo's auto-rig name the neck's only bones `NeckTwist01` and
/// `NeckTwist02` (no `Neck` beside them): read as twist bones, they were merged into the
/// chest and the head hung on it with no neck. The fixture's neck so named is the neck.
#[test]
fn a_neck_named_neck_twist_is_the_neck() {
    let renamed: Vec<BoneDef> = (fixtures::humanoid().into_iter())
        .map(|mut b| {
            if b.name == "mixamorig:Neck" {
                b.name = "CC_Base_NeckTwist01".into();
            }
            b
        })
        .collect();
    let (_dir, doc) = synthetic(&renamed, true);
    let a = Anatomy::of(&doc);
    let id = doc.bone_by_name("CC_Base_NeckTwist01").expect("the neck");
    assert_eq!(a.role(id), Role::Neck);
}

/// A four-legged creature standing mid-stride, every left leg a step ahead of its right
/// twin, hips and shoulders included (as Quaternius's dinosaurs stand): its named pairs turn
/// 34 deg from its body, and forward was read from them (an apatosaurus 30 deg off its
/// head-to-tail axis, a triceratops 17; the apatosaurus's right front leg then lay on its
/// left and lost its roles). A creature faces along its pelvis-to-head axis when the names
/// turn more than 10 deg from it: forward within 5 deg of the body's, every leg on its named
/// side.
#[test]
fn a_creature_mid_stride_faces_along_its_body() {
    let mut b = vec![bone("hips", None, [0.0, 0.8, -0.5], [0.0, 0.8, -0.1], 0.15)];
    b.push(bone(
        "spine",
        Some(0),
        [0.0, 0.8, -0.1],
        [0.0, 0.8, 0.3],
        0.15,
    ));
    b.push(bone(
        "chest",
        Some(1),
        [0.0, 0.8, 0.3],
        [0.0, 0.85, 0.6],
        0.15,
    ));
    b.push(bone(
        "neck",
        Some(2),
        [0.0, 0.85, 0.6],
        [0.0, 1.1, 0.8],
        0.07,
    ));
    b.push(bone(
        "head",
        Some(3),
        [0.0, 1.1, 0.8],
        [0.0, 1.1, 1.05],
        0.1,
    ));
    b.push(bone(
        "tail",
        Some(0),
        [0.0, 0.8, -0.5],
        [0.0, 0.7, -0.9],
        0.04,
    ));
    for (x, s) in [(1.0f32, "L"), (-1.0, "R")] {
        let dz = 0.1 * x;
        let hind = [
            (
                "thigh",
                [0.15 * x, 0.75, -0.5 + dz],
                [0.15 * x, 0.45, -0.5 + dz],
            ),
            (
                "shin",
                [0.15 * x, 0.45, -0.5 + dz],
                [0.15 * x, 0.1, -0.55 + dz],
            ),
            (
                "foot",
                [0.15 * x, 0.1, -0.55 + dz],
                [0.15 * x, 0.0, -0.45 + dz],
            ),
        ];
        let front = [
            (
                "upper_arm",
                [0.15 * x, 0.75, 0.5 + dz],
                [0.15 * x, 0.4, 0.5 + dz],
            ),
            (
                "forearm",
                [0.15 * x, 0.4, 0.5 + dz],
                [0.15 * x, 0.08, 0.5 + dz],
            ),
            (
                "hand",
                [0.15 * x, 0.08, 0.5 + dz],
                [0.15 * x, 0.0, 0.6 + dz],
            ),
        ];
        for (chain, from) in [(hind, 0usize), (front, 2)] {
            let mut parent = from;
            for (name, head, tail) in chain {
                b.push(bone(&format!("{name}.{s}"), Some(parent), head, tail, 0.05));
                parent = b.len() - 1;
            }
        }
    }
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Quadruped);
    let off_deg = a
        .forward()
        .dot(glam::DVec3::Z)
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees();
    assert!(
        off_deg < 5.0,
        "forward {} is {off_deg:.1} deg off +Z",
        a.forward()
    );
    for id in doc.bone_ids() {
        let name = &doc.bone(id).name;
        let named = match name.rsplit('.').next() {
            Some("L") => Side::Left,
            Some("R") => Side::Right,
            _ => continue,
        };
        assert_eq!(a.side(id), Some(named), "{name}");
    }
}

/// A shark: its body a chain from the root to the tail, its head, its jaw and one bone for
/// both pectoral fins on the root. The fins reach lowest and the jaw nearly as low ahead of
/// them (a floor sloped 9 degrees meets both): two legs on one bone, and the shark a biped
/// whose thigh was its jaw, falling at once. A biped's legs are a pair, mirror images of each
/// other across the bone they hang from (or named for two sides); a jaw ahead of a fin is
/// none.
#[test]
fn a_fish_s_jaw_and_fins_are_no_pair_of_legs() {
    let mut b = vec![bone(
        "spine_1",
        None,
        [0.0, 0.0, 0.0],
        [0.0, 0.0, -1.7],
        0.5,
    )];
    b.push(bone(
        "spine_2",
        Some(0),
        [0.0, 0.0, -1.7],
        [0.0, 0.0, -3.1],
        0.35,
    ));
    b.push(bone(
        "spine_3",
        Some(1),
        [0.0, 0.0, -3.1],
        [0.0, 0.0, -4.2],
        0.2,
    ));
    b.push(bone(
        "caudal",
        Some(2),
        [0.0, 0.0, -4.2],
        [0.0, 0.0, -5.3],
        0.1,
    ));
    b.push(bone("head", Some(0), [0.0, 0.2, 0.2], [0.0, 0.3, 1.5], 0.5));
    b.push(bone(
        "jaw",
        Some(0),
        [0.0, 0.0, 0.44],
        [0.0, -0.75, 1.2],
        0.2,
    ));
    b.push(bone(
        "fins",
        Some(0),
        [0.0, -0.5, -0.8],
        [0.0, -1.2, -1.3],
        0.15,
    ));
    let (_dir, doc) = synthetic(&b, true);
    let a = Anatomy::of(&doc);
    assert!(
        !matches!(a.kind(), Kind::Biped | Kind::Quadruped),
        "{:?}: {:?}",
        a.kind(),
        a.limbs()
    );
    let jaw = doc.bone_by_name("jaw").unwrap();
    assert!(
        !Role::LEG_SEQUENCE.contains(&a.role(jaw)),
        "{:?}",
        a.role(jaw)
    );
}
