//! A leg stands on its foot: no generated body of a leg reaches below the lowest point of
//! its foot at rest by more than the fits' tolerance, measured on the colliders of the real
//! Rapier world. The Mixamo Bone Lizard's ankles lie 13 cm below its feet's skin: its shins
//! were fitted 10 cm below its feet, touched the ground first, and it rolled over on them
//! standing still (it now stands 10 s at assist 0 and meets the designed robustness; README,
//! "Generating a ragdoll").

use super::*;
use ragdoll_tuner::anatomy::{Anatomy, Role};
use ragdoll_tuner::generate::SOLE_TOLERANCE;
use ragdoll_tuner::sim::{SimSettings, Simulation};

/// Each leg's bodies that reach below its foot at rest by more than the generator's
/// tolerance ([`SOLE_TOLERANCE`] of the height): (bone, how far below, metres).
fn below_their_feet(doc: &Document) -> Vec<(String, f32)> {
    let a = Anatomy::of(doc);
    let tolerance = (SOLE_TOLERANCE * a.height()) as f32;
    let sim = Simulation::new(doc, SimSettings::passive()).expect("simulation");
    let w = sim.physics();
    let lowest = |id: ragdoll_tuner::document::BoneId| -> Option<f32> {
        let body = sim.body_handle(&doc.bone(id).name)?;
        (w.bodies[body].colliders().iter())
            .map(|&c| w.colliders[c].compute_aabb().mins.y)
            .reduce(f32::min)
    };
    let stands = |r: Role| matches!(r, Role::Foot | Role::Toe | Role::Hand | Role::Finger);
    let mut out = Vec::new();
    for limb in a.limbs().iter().filter(|l| l.kind.is_leg()) {
        let end = (limb.path.iter())
            .filter(|&&b| stands(a.role(b)))
            .filter_map(|&b| lowest(b))
            .reduce(f32::min);
        let Some(sole) = end else { continue };
        for &b in limb.path.iter().filter(|&&b| !stands(a.role(b))) {
            if let Some(y) = lowest(b).filter(|&y| y < sole - tolerance) {
                out.push((doc.bone(b).name.clone(), sole - y));
            }
        }
    }
    out
}

/// Every character of the zoo and the bundled assets, generated: no leg body below its foot
/// (the Godot robot's shins reach 6 mm below its feet, within the tolerance).
#[test]
fn no_generated_leg_reaches_below_its_foot() {
    let mut legs = 0;
    for f in crate::common::characters() {
        let doc = crate::codec::generated(&f);
        legs += Anatomy::of(&doc)
            .limbs()
            .iter()
            .filter(|l| l.kind.is_leg())
            .count();
        let below = below_their_feet(&doc);
        assert!(below.is_empty(), "{}: {below:?}", f.display());
    }
    assert!(legs >= 30, "{legs} legs measured");
}

/// A humanoid in chunky boots: its shins' skin, fat down to the ankle, reaches under its feet
/// behind the heels by a little (the Saxon of a web game's kit: its shin capsules 3.1 cm, 1.8%
/// of its height, in the ground; pushed out at the first step, its heels rose onto its toes
/// and it fell forward 2.6 s into standing at assist 0). Generated now, no leg body passes
/// the feet by more than the tolerance, and it stands 10 s at assist 0.
#[test]
fn chunky_boots_a_little_under_the_feet_are_raised_to_them() {
    // Shins 0.2 m thick down to ankles 5 cm up: fitted, the shins reached 2.5 cm (1.5% of
    // the height) under the feet, and it fell at 1.96 s.
    generated_stands_on_its_feet(&low_ankles(0.05, 0.2), fixtures::Build::default());
}

/// A humanoid whose shins are fat and spiked (armour, a creature's calves) over ankles 2 cm
/// above the ground: the shins' capsules, fitted loose to their spikes, reached 5 cm below the
/// feet, and it fell 1.8 s into a standing run at assist 0. Generated now, the feet are the
/// lowest and it stands 10 s.
#[test]
fn fat_spiked_shins_over_low_ankles_leave_the_feet_on_the_ground() {
    let bones = low_ankles(0.02, 0.16);
    let spike = |side: &str, x: f32| {
        let bone = (bones.iter())
            .position(|b| b.name == format!("mixamorig:{side}Leg"))
            .unwrap();
        Some(fixtures::Appendage {
            bone,
            from: glam::Vec3::new(x, 0.15, 0.0),
            to: glam::Vec3::new(x * 4.0, 0.15, 0.0),
            radius: 0.03,
        })
    };
    let build = fixtures::Build {
        appendages: [spike("Left", 0.1), spike("Right", -0.1)],
        ..Default::default()
    };
    generated_stands_on_its_feet(&bones, build);
}

/// The fixture humanoid with its shins `shin_radius` thick down to ankles `ankle_y` up, over
/// flat feet 3 cm thick.
fn low_ankles(ankle_y: f32, shin_radius: f32) -> Vec<fixtures::BoneDef> {
    let mut bones = fixtures::humanoid();
    for b in bones.iter_mut() {
        let name = b.name.trim_start_matches("mixamorig:");
        if name.ends_with("Leg") && !name.ends_with("UpLeg") {
            (b.radius, b.tail.y) = (shin_radius, ankle_y);
        }
        if name.ends_with("Foot") || name.ends_with("ToeBase") {
            (b.head.y, b.tail.y, b.radius) = (ankle_y, ankle_y, 0.03);
        }
    }
    bones
}

/// `bones` generated with `build`: no leg body below its foot, and it stands 10 s at assist 0.
fn generated_stands_on_its_feet(bones: &[fixtures::BoneDef], build: fixtures::Build) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.glb");
    std::fs::write(&input, fixtures::glb(bones, build)).unwrap();
    let out = dir.path().join("out.glb");
    let (code, _, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let doc = Document::open(&out).unwrap();
    let below = below_their_feet(&doc);
    assert!(below.is_empty(), "{below:?}");
    let o = run_ok(ragdoll_tuner().args([
        "simulate",
        path_str(&out),
        "--seconds",
        "10",
        "--json",
        "--set",
        "@balance.assist=0",
    ]));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["fell"], false, "{r}");
}
