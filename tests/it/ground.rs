//! The ground a character stands on: the plane its rest pose stands on (`Document::ground_y`),
//! not the scene's y = 0 whatever the file says. A character on a 2 m stage fell from it; a
//! rig whose root is at the hips started with its legs in the ground.

use crate::common::*;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::sim::{SimSettings, Simulation};

/// The mannequin under a new root node moved up by `dy` (world units).
fn moved(dy: f64) -> Document {
    placed_glb(
        &mannequin(),
        serde_json::json!({"name": "stage", "translation": [0.0, dy, 0.0]}),
    )
}

/// What a run of `seconds` gives: (fell at, largest tilt, centre of mass height over the
/// ground at the end, pelvis height over the ground at the end).
fn stand(doc: &Document, settings: SimSettings, seconds: f64) -> (Option<f64>, f32, f32, f32) {
    let mut sim = Simulation::new(doc, settings).unwrap();
    for _ in 0..(seconds * 120.0).round() as usize {
        sim.step().unwrap();
    }
    let tilt = sim.telemetry().max_torso_tilt_deg;
    let com = sim.telemetry().body.latest().unwrap()[0].com_height_m;
    let pelvis = sim.world_from_body("pelvis").unwrap().translation.y - sim.ground_y();
    (sim.fell_at_s(), tilt, com, pelvis)
}

#[test]
fn a_file_standing_on_y_0_keeps_its_ground() {
    let doc = Document::open(mannequin()).unwrap();
    assert_eq!(doc.ground_y(), 0.0);
    assert_eq!(turned_glb(&mannequin(), 40.0).ground_y(), 0.0);
    // Its colliders reach y = 0 within the tolerance, not exactly: 5 cm down is still on it.
    assert_eq!(moved(-0.05).ground_y(), 0.0);
    let sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    assert_eq!(sim.ground_y(), 0.0);
}

#[test]
fn a_character_on_a_stage_or_rigged_from_the_hips_stands_on_its_own_feet() {
    let base = Document::open(mannequin()).unwrap();
    let lowest = base
        .lowest_collider_y(&base.rest_world_from_bone())
        .unwrap();
    let (fell, tilt, com, pelvis) = stand(&base, SimSettings::default(), 4.0);
    assert!(fell.is_none(), "the mannequin stands");
    for dy in [2.0, -0.9, 250.0] {
        let doc = moved(dy);
        assert!(
            (doc.ground_y() - (lowest + dy)).abs() < 1e-4,
            "moved by {dy}: ground {} for a lowest collider at {}",
            doc.ground_y(),
            lowest + dy
        );
        let (f, t, c, p) = stand(&doc, SimSettings::default(), 4.0);
        eprintln!("moved by {dy}: fell {f:?} tilt {t:.3} com {c:.4} pelvis {p:.4} (base {tilt:.3} {com:.4} {pelvis:.4})");
        assert!(f.is_none(), "moved by {dy}: fell at {f:?}");
        assert!(
            (t - tilt).abs() < 0.5,
            "moved by {dy}: tilt {t} against {tilt}"
        );
        assert!(
            (c - com).abs() < 0.01 * com,
            "moved by {dy}: com {c} against {com}"
        );
        assert!(
            (p - pelvis).abs() < 0.01 * pelvis,
            "moved by {dy}: pelvis {p} against {pelvis}"
        );
    }
}

#[test]
fn a_passive_character_on_a_stage_collapses_onto_it() {
    let base = Document::open(mannequin()).unwrap();
    let (fell, _, com, _) = stand(&base, SimSettings::passive(), 3.0);
    let doc = moved(2.0);
    let (f, _, c, _) = stand(&doc, SimSettings::passive(), 3.0);
    eprintln!("passive: base fell at {fell:?}, com {com:.3}; on a 2 m stage {f:?}, {c:.3}");
    let (fell, f) = (
        fell.expect("the mannequin falls"),
        f.expect("it falls on the stage"),
    );
    assert!((f - fell).abs() < 0.2, "fell at {f} s against {fell} s");
    assert!(
        (c - com).abs() < 0.1,
        "lies with its centre of mass {c} m up against {com} m"
    );
}

/// A live edit that moves the rest pose off the plane moves the ground with it (here the
/// whole character, as a changed root transform would): the running world stands on it.
#[test]
fn an_edit_that_moves_the_rest_pose_moves_the_ground() {
    let base = Document::open(mannequin()).unwrap();
    let mut sim = Simulation::new(&base, SimSettings::default()).unwrap();
    for _ in 0..60 {
        sim.step().unwrap();
    }
    let lifted = moved(2.0);
    sim.sync(&lifted).expect("the same bones");
    assert!(
        (f64::from(sim.ground_y()) - lifted.ground_y()).abs() < 1e-4,
        "ground {} against {}",
        sim.ground_y(),
        lifted.ground_y()
    );
    assert!(
        (fixed_body_y(&sim) - sim.ground_y()).abs() < 1e-6,
        "the plane moved"
    );
    sim.sync(&base).unwrap();
    assert_eq!(sim.ground_y(), 0.0);
    assert_eq!(fixed_body_y(&sim), 0.0);
}

/// The height of the world's one fixed body with a collider: the ground's (the balance's
/// world anchor has none).
fn fixed_body_y(sim: &Simulation) -> f32 {
    let fixed: Vec<f32> = sim
        .physics()
        .bodies
        .iter()
        .filter(|(_, b)| b.is_fixed() && !b.colliders().is_empty())
        .map(|(_, b)| b.translation().y)
        .collect();
    assert_eq!(fixed.len(), 1, "one ground");
    fixed[0]
}

/// Generating a character placed 2 m up says where its ground is: the plane under its lowest
/// collider. It said the character was "not on the simulation's ground (y = 0): it starts
/// above it", where it never stands since the ground follows the colliders (session 37).
#[test]
fn generating_a_character_on_a_stage_says_where_its_ground_is() {
    let stage = serde_json::json!({"name": "stage", "translation": [0.0, 2.0, 0.0]});
    let doc = crate::common::placed_glb(&crate::common::cesium_man(), stage);
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
    let said: Vec<String> = g.diagnostics.iter().map(ToString::to_string).collect();
    let under = "the simulation's ground is the plane under its lowest collider";
    assert!(said.iter().any(|t| t.contains(under)), "{said:?}");
    assert!(!said.iter().any(|t| t.contains("(y = 0)")), "{said:?}");
}

/// A character placed a little above the plane it stands on (within the ground's tolerance,
/// so the ground stays y = 0) drops onto it and stands there: its fall is measured from where
/// its rest pose stands, not from the ground under the gap. A mouse placed 18% of its height
/// up stood on its four feet, its pelvis at 0.76 of its rest height over the ground, and was
/// called fallen at 0.22 s. The mannequin 0.2 m up stands as it does on the ground: the same
/// lowest pelvis height ratio (0.75 before), no fall.
#[test]
fn a_character_placed_above_its_ground_is_measured_from_where_it_stands() {
    let base = Document::open(mannequin()).unwrap();
    let lifted = moved(0.2);
    assert_eq!(lifted.ground_y(), 0.0, "within the ground's tolerance");
    let ratio = |doc: &Document| {
        let mut sim = Simulation::new(doc, SimSettings::default()).unwrap();
        for _ in 0..(4.0 * 120.0) as usize {
            sim.step().unwrap();
        }
        (sim.fell_at_s(), sim.telemetry().min_pelvis_height_ratio)
    };
    let ((f0, r0), (f1, r1)) = (ratio(&base), ratio(&lifted));
    assert!(f0.is_none() && f1.is_none(), "fell {f0:?} / lifted {f1:?}");
    assert!(
        (r1 - r0).abs() < 0.02,
        "lowest pelvis ratio lifted {r1} against {r0} on the ground"
    );
}
