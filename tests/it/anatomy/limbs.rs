//! Limb paths through the bones a rig adds beside its segments.

use super::plans::{bone, unblended};
use crate::generate::fixtures;
use glam::Vec3;
use ragdoll_tuner::anatomy::{Anatomy, Role};

/// MakeHuman's game rig hangs `butt.L` on the thigh's head: weighted a little, dominating a
/// few vertices, reaching nowhere. The leg stopped at the thigh as at a branch: its shin,
/// foot and toe were read by the geometry alone and its toe not as a toe (a body of its own,
/// under the ground, where a toe merges into the foot). A stub on a limb bone is no branch.
#[test]
fn a_stub_on_the_thigh_s_head_does_not_end_the_leg() {
    let mut bones = fixtures::humanoid();
    for side in ["Left", "Right"] {
        let thigh = (bones.iter())
            .position(|b| b.name == format!("mixamorig:{side}UpLeg"))
            .unwrap();
        let at = bones[thigh].head;
        let stub = bone(
            &format!("butt_{side}"),
            Some(thigh),
            at.to_array(),
            (at + Vec3::new(0.0, 0.0, -0.01)).to_array(),
            0.005,
        );
        bones.push(stub);
    }
    let (_dir, doc) = unblended(&bones);
    let a = Anatomy::of(&doc);
    for side in ["Left", "Right"] {
        for (part, role) in [
            ("UpLeg", Role::Thigh),
            ("Leg", Role::Shin),
            ("Foot", Role::Foot),
            ("ToeBase", Role::Toe),
        ] {
            let name = format!("mixamorig:{side}{part}");
            let id = doc.bone_by_name(&name).expect(&name);
            assert_eq!(a.role(id), role, "{name}");
        }
    }
}

/// A druid rig from a web game: its armature's `root` bone stands at its feet (y = 0),
/// skinned as the pelvis (its skin at the hips), with the thighs on it. The legs were measured
/// hanging from the root's joint, at the ground, so none hung down: no legs, a character of
/// kind "other" with every limb unread. A leg hangs from the higher of its root's joint and its
/// own top.
#[test]
fn an_armature_root_at_the_feet_skinned_as_the_pelvis_carries_the_legs() {
    let mut bones = fixtures::humanoid();
    let hips = (bones.iter())
        .position(|b| b.name == "mixamorig:Hips")
        .unwrap();
    let pelvis = fixtures::Appendage {
        bone: hips,
        from: bones[hips].head - Vec3::Y * 0.05,
        to: bones[hips].tail,
        radius: 0.14,
    };
    bones[hips].head = Vec3::ZERO;
    bones[hips].tail = Vec3::Y * 0.05;
    bones[hips].radius = 0.0;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("root_at_feet.glb");
    // Unnamed, as the geometry alone reads it (names found these legs without it).
    let build = fixtures::Build {
        blend: false,
        names: false,
        appendages: [Some(pelvis), None],
        ..Default::default()
    };
    std::fs::write(&path, fixtures::glb(&bones, build)).unwrap();
    let doc = ragdoll_tuner::document::Document::open(&path).unwrap();
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind().name(), "biped");
    for (name, role) in [
        ("mixamorig:Hips", Role::Pelvis),
        ("mixamorig:LeftUpLeg", Role::Thigh),
        ("mixamorig:RightLeg", Role::Shin),
        ("mixamorig:LeftFoot", Role::Foot),
    ] {
        // The skin's joints are the fixture's bones in order.
        let i = bones.iter().position(|b| b.name == name).unwrap();
        let id = ragdoll_tuner::document::BoneId(i as u32);
        assert_eq!(a.role(id), role, "{name}");
    }
}

/// A blocky figure's leg is one bone from the hip to the ankle, `Leg.L`, with `Foot.L` below
/// it: "named as a shin but begins its leg; using the geometry (thigh)", said the note, and
/// then the leg was numbered from its named foot, the bone before a foot being a shin: a
/// knee hinge at the hip. A bone whose name gave way to the geometry keeps the geometry's
/// role.
#[test]
fn a_one_bone_leg_named_leg_is_the_thigh_its_note_says() {
    let bones = folded(
        |name| name.ends_with("Leg") && !name.ends_with("UpLeg"),
        |name| {
            let side = &name[..1];
            let leg = name.strip_suffix("UpLeg").map(|_| format!("Leg.{side}"));
            leg.or_else(|| name.strip_suffix("Foot").map(|_| format!("Foot.{side}")))
        },
    );
    let (_dir, doc) = unblended(&bones);
    let a = Anatomy::of(&doc);
    for side in ["L", "R"] {
        let leg = doc.bone_by_name(&format!("Leg.{side}")).unwrap();
        let foot = doc.bone_by_name(&format!("Foot.{side}")).unwrap();
        assert_eq!(a.role(leg), Role::Thigh, "Leg.{side}: {:?}", a.notes());
        assert_eq!(a.role(foot), Role::Foot, "Foot.{side}");
    }
}

/// The fixture's bones with those `merged` folds into its parent (the parent reaching to where
/// it reached; its children hang on the parent), each kept bone passed through `rename`.
fn folded(
    merged: impl Fn(&str) -> bool,
    rename: impl Fn(&str) -> Option<String>,
) -> Vec<fixtures::BoneDef> {
    let all = fixtures::humanoid();
    let mut bones: Vec<fixtures::BoneDef> = Vec::new();
    let mut map = vec![None; all.len()];
    for (i, b) in all.iter().enumerate() {
        let name = b.name.trim_start_matches("mixamorig:");
        let parent = b.parent.and_then(|p| map[p]);
        if merged(name) {
            if let Some(p) = parent {
                let into: &mut fixtures::BoneDef = &mut bones[p];
                into.tail = b.tail;
            }
            map[i] = parent;
            continue;
        }
        let mut b = b.clone();
        b.parent = parent;
        if let Some(to) = rename(name) {
            b.name = to;
        }
        map[i] = Some(bones.len());
        bones.push(b);
    }
    bones
}

/// A blocky figure's arm is one bone from the shoulder to the wrist, `Arm.L`, with `Hand.L`
/// below it. The rule that reads a rig naming each bone for the joint at its head (`epaule`,
/// `coude`: the shoulder before the elbow is the upper arm) moved the weak `Arm` before a
/// `Hand` to the forearm, to fill the gap: a forearm beginning the arm, its elbow hinge at the
/// shoulder. The first bone of an arm is its clavicle or its upper arm, with or without a
/// clavicle before it: a gap is filled only where the bones before can take the roles left.
#[test]
fn a_one_bone_arm_before_its_hand_is_the_upper_arm() {
    for clavicle in [false, true] {
        let bones = folded(
            |name| name.ends_with("ForeArm") || (!clavicle && name.ends_with("Shoulder")),
            |name| {
                let side = if name.starts_with("Left") { "L" } else { "R" };
                let part = ["Shoulder", "Arm", "Hand"]
                    .into_iter()
                    .find(|p| name.strip_prefix("Left").or(name.strip_prefix("Right")) == Some(p));
                part.map(|p| format!("{p}.{side}"))
            },
        );
        let (_dir, doc) = unblended(&bones);
        let a = Anatomy::of(&doc);
        for side in ["L", "R"] {
            let mut expected = vec![("Arm", Role::UpperArm), ("Hand", Role::Hand)];
            if clavicle {
                expected.push(("Shoulder", Role::Clavicle));
            }
            for (part, role) in expected {
                let name = format!("{part}.{side}");
                let id = doc.bone_by_name(&name).expect(&name);
                let notes = a.notes();
                assert_eq!(a.role(id), role, "{name}, clavicle {clavicle}: {notes:?}");
            }
        }
    }
}
