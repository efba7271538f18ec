//! The stepping strategy on the real mannequin: off by default (a file that never sets it keeps
//! its bytes through a save, and its trajectory), and on it keeps the mannequin up under the
//! backward push at assist 0 that neither the ankle nor the hip strategy saves, with no
//! outside help.

use crate::common::{self, ragdoll_tuner, run_ok};
use glam::Vec3;
use ragdoll_tuner::document::fields::Key;
use ragdoll_tuner::document::{Document, Edit, EditTarget};
use ragdoll_tuner::sim::{SimSettings, Simulation};
use serde_json::json;

/// The mannequin's mass (kg) times 0.5 m/s: the goal's push.
const PUSH_N_S: f32 = 76.9 * 0.5;

/// `simulate --json` of the bundled mannequin at assist 0, pushed backward (0.5 m/s of its
/// mass at the pelvis, world −Z: it faces +Z, at 1 s), with `sets` applied.
fn pushed_back(sets: &[&str]) -> serde_json::Value {
    let mut cmd = ragdoll_tuner();
    cmd.arg("simulate")
        .arg(common::mannequin())
        .args(["--seconds", "6", "--set", "@balance.assist=0"])
        .args(["--push", &format!("pelvis:0,0,-{PUSH_N_S}@1"), "--json"]);
    for s in sets {
        cmd.args(["--set", s]);
    }
    let o = run_ok(&mut cmd);
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// Off, the backward push fells it; on, it stands at most of the gains a search would try
/// (the landing still depends on where each step lands: measured with the capture point under
/// the world's gravity, the backward push is survived at gains 1.0, 1.3 and 2.0 and not at 1.5;
/// from all 8 directions 7, 8, 7 and 8 of 8), with no outside help.
#[test]
fn stepping_keeps_the_mannequin_up_under_a_backward_push_without_outside_help() {
    let off = pushed_back(&[]);
    assert_eq!(
        off["fell"], true,
        "without stepping the push fells it: {off}"
    );
    let mut stood = Vec::new();
    for gain in ["1.0", "1.3", "1.5", "2.0"] {
        let on = pushed_back(&[&format!("@balance.step_gain={gain}")]);
        println!("gain {gain}: fell {} at {}", on["fell"], on["fell_at_s"]);
        if on["fell"] == false {
            stood.push(gain);
        }
        let assist = &on["external_assist"];
        assert_eq!(assist["peak_torque_n_m"], 0.0, "{assist}");
        assert_eq!(assist["impulse_n_m_s"], 0.0, "{assist}");
    }
    assert!(
        stood.len() >= 3,
        "with stepping it stands at 3 of 4 gains; stood at {stood:?} (off: fell at {})",
        off["fell_at_s"]
    );
}

fn set(doc: &mut Document, key: Key, v: f64) {
    doc.apply(&Edit::Set {
        target: EditTarget::Document,
        key: key.path().into(),
        value: json!(v),
    })
    .expect("set");
}

/// The world's state hash after 3 s with the backward push at 1 s, at assist 0.
fn pushed_hash(doc: &Document) -> u64 {
    let mut sim = Simulation::new(doc, SimSettings::default()).expect("sim");
    let steps_per_s = (1.0 / sim.settings().dt_s).round() as usize;
    for i in 0..3 * steps_per_s {
        if i == steps_per_s {
            sim.apply_impulse("pelvis", Vec3::new(0.0, 0.0, -PUSH_N_S))
                .expect("push");
        }
        sim.step().expect("no guard pause");
    }
    sim.state_hash()
}

#[test]
fn stepping_off_leaves_the_trajectory_unchanged() {
    let mut doc = Document::open(common::mannequin()).expect("mannequin");
    set(&mut doc, Key::Assist, 0.0);
    let plain = pushed_hash(&doc);
    // A margin without a gain: still off, the same world step for step.
    let mut margin = doc.clone();
    set(&mut margin, Key::StepMargin, 0.2);
    assert_eq!(pushed_hash(&margin), plain, "step_gain 0 is no stepping");
    // On, the same push moves it differently (the comparison can fail).
    let mut on = doc.clone();
    set(&mut on, Key::StepGain, 1.5);
    assert_ne!(pushed_hash(&on), plain, "stepping on changes the run");
}

#[test]
fn stepping_is_off_and_unwritten_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.glb");
    let doc = common::edited(&common::mannequin(), "@balance.ankle_kp=301", &out);
    assert_eq!(doc.balance.step_gain, 0.0);
    assert_eq!(doc.balance.step_margin, 0.05);
    let text = serde_json::to_string(doc.json()).unwrap();
    assert!(
        !text.contains("step_"),
        "no step keys written while it is off"
    );
    let on = dir.path().join("on.glb");
    let doc = common::edited(&out, "@balance.step_gain=1.5", &on);
    assert_eq!(doc.balance.step_gain, 1.5);
    assert_eq!(doc.balance.step_margin, 0.05);
    let text = serde_json::to_string(doc.json()).unwrap();
    assert!(text.contains("step_gain"), "the edited key is written");
}

/// The whole body's mass (kg) from `inspect --json`.
fn mass_kg(file: &std::path::Path) -> f64 {
    let o = run_ok(ragdoll_tuner().arg("inspect").arg("--json").arg(file));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    r["bones"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["mass"].as_f64())
        .sum()
}

/// The generated VRM 1 rigid-parts character stands and steps on its feet. Its feet carry
/// no skin of their own (each is a rigid part), so the anatomy's legs used to end at the
/// shins: the balance stood on the lower legs, the stepping legs ended there, and the foot
/// hung below them under its drive. The VRM map names the feet, and a limb now runs on to
/// the foot the map names. A forward push of 0.5 m/s at assist 0 fells it without stepping
/// and not with it.
#[test]
fn a_vrm_model_whose_feet_have_no_skin_steps_on_its_feet() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vrm1.glb");
    run_ok(
        ragdoll_tuner()
            .arg("generate")
            .arg(common::shared_asset("zoo/vrm1_rigid_parts.vrm"))
            .arg("-o")
            .arg(&file),
    );
    let push = format!("hips:0,0,{}@1", mass_kg(&file) * 0.5);
    let run = |gain: &str| {
        let o = run_ok(
            ragdoll_tuner()
                .arg("simulate")
                .arg(&file)
                .args([
                    "--seconds",
                    "6",
                    "--set",
                    "@balance.assist=0",
                    "--set",
                    gain,
                ])
                .args(["--push", &push, "--json"]),
        );
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
        assert_eq!(
            r["balance_bones"]["foot_bones"],
            serde_json::json!(["foot.L", "foot.R"]),
            "{r}"
        );
        r
    };
    let off = run("@balance.step_gain=0");
    assert_eq!(
        off["fell"], true,
        "without stepping the push fells it: {off}"
    );
    let on = run("@balance.step_gain=1");
    assert_eq!(on["fell"], false, "with stepping it stands: {on}");
}

/// The generated CesiumMan stepping at gain 1.0 at assist 0.
struct StepperAtAssist0 {
    doc: Document,
    mass_kg: f64,
    pelvis: String,
}

impl StepperAtAssist0 {
    fn cesium_man() -> Self {
        let src = common::shared_asset("CesiumMan/CesiumMan.glb");
        Self::generated(Document::open(&src).expect("CesiumMan"))
    }

    fn generated(mut doc: Document) -> Self {
        let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
        doc.apply(&g.edit).expect("apply");
        set(&mut doc, Key::StepGain, 1.0);
        set(&mut doc, Key::Assist, 0.0);
        let mass_kg = doc
            .bone_ids()
            .filter_map(|id| doc.bone(id).physics.as_ref())
            .filter(|p| p.collider.is_some())
            .map(|p| p.mass)
            .sum();
        let pelvis = doc.balance.pelvis_bone.clone().expect("a pelvis");
        Self {
            doc,
            mass_kg,
            pelvis,
        }
    }

    /// A simulation run to 1 s and pushed there at 0.5 m/s of the whole mass along `dir`.
    fn pushed(&self, dir: Vec3) -> Simulation {
        self.pushed_by(dir, 0.5)
    }

    /// A simulation run to 1 s and pushed there at `dv_m_s` of the whole mass along `dir`.
    fn pushed_by(&self, dir: Vec3, dv_m_s: f64) -> Simulation {
        let mut sim = Simulation::new(&self.doc, SimSettings::default()).expect("sim");
        while sim.time_s() < 1.0 - 1e-9 {
            sim.step().expect("no guard pause");
        }
        let j = dir * (dv_m_s * self.mass_kg) as f32;
        sim.apply_impulse(&self.pelvis, j).expect("push");
        sim
    }
}

/// After a step lands, the hips bring a trunk the push tilted back upright (every hip holds
/// its thigh under an upright pelvis) instead of holding it as tilted as it landed. The
/// generated CesiumMan, stepping at gain 1.0 at assist 0, pushed at 0.5 m/s of its mass
/// sideways and backward: its torso's mean tilt 2-3 s after the push was, before the change,
/// 13.8° (+X; `simulate` runs: fallen along −Z, 32.4° along −X), and is 3.5°, 4.2° and 6.3°.
#[test]
fn a_landed_step_brings_the_trunk_back_upright() {
    let cesium = StepperAtAssist0::cesium_man();
    for dir in [Vec3::X, Vec3::NEG_Z, Vec3::NEG_X] {
        let mut sim = cesium.pushed(dir);
        let mut tilts = Vec::new();
        while sim.time_s() < 4.0 {
            sim.step().expect("no guard pause");
            if sim.time_s() >= 3.0 {
                let f = sim.telemetry().body.latest().expect("a frame");
                tilts.push(f[0].torso_tilt_deg);
            }
        }
        let mean = tilts.iter().sum::<f32>() / tilts.len() as f32;
        println!("push {dir}: mean tilt 3-4 s {mean:.1}°");
        assert!(
            mean < 10.0,
            "pushed along {dir}: the trunk stays tilted {mean:.1}° after the step"
        );
    }
}

/// Steps sized for a push (`step_catch_dv`) set where stepping gives up: the generated
/// CesiumMan stepping at 1.0 at assist 0 catches 1.5 m/s pushes from several of 8 directions
/// (it falls from 5 along the world's compass directions; 4 along its own in `simulate
/// --push`); with its steps sized for 1.04 m/s (what `tune` sets for the goals 0.5 and 1.5
/// m/s) from at least 6 (7), while it catches 0.5 m/s from as many directions as without the
/// limit (7 of 8).
#[test]
fn steps_sized_for_a_push_catch_a_small_one_and_not_a_large_one() {
    let free = StepperAtAssist0::cesium_man();
    let mut sized = StepperAtAssist0::cesium_man();
    set(&mut sized.doc, Key::StepCatchDv, 1.04);
    let falls = |c: &StepperAtAssist0, dv: f64| {
        let dirs = (0..8).map(|i| {
            let a = i as f32 * std::f32::consts::FRAC_PI_4;
            Vec3::new(a.sin(), 0.0, a.cos())
        });
        let fell = |dir: Vec3| {
            let mut sim = c.pushed_by(dir, dv);
            while sim.time_s() < 6.0 && sim.fell_at_s().is_none() {
                sim.step().expect("no guard pause");
            }
            sim.fell_at_s().is_some()
        };
        dirs.filter(|&d| fell(d)).count()
    };
    let (free_large, sized_large) = (falls(&free, 1.5), falls(&sized, 1.5));
    let (free_small, sized_small) = (falls(&free, 0.5), falls(&sized, 0.5));
    println!(
        "falls of 8: 1.5 m/s no limit {free_large}, sized {sized_large}; \
         0.5 m/s no limit {free_small}, sized {sized_small}"
    );
    assert!(
        sized_large >= 6,
        "sized steps fall at 1.5 m/s from {sized_large} of 8"
    );
    assert!(
        free_large < sized_large,
        "the limit is what fells it ({free_large} without)"
    );
    assert!(
        sized_small <= free_small,
        "0.5 m/s fells it from {sized_small} (no limit {free_small})"
    );
}

/// A push the feet need more than four steps to catch: the generated CesiumMan stepping at
/// 1.0 at assist 0, pushed at 0.5 m/s along −X, stands 6 s when the controller may take six
/// steps per event, and fell when it stopped at four (the tuned bundled mannequin's backward
/// push and X Bot's went the same way; `tools/robustness.py`: 12 of 15 characters met the
/// goals with six, 10 with four).
#[test]
fn a_push_that_takes_more_than_four_steps_is_caught() {
    let mut sim = StepperAtAssist0::cesium_man().pushed(Vec3::NEG_X);
    while sim.time_s() < 6.0 {
        sim.step().expect("no guard pause");
    }
    let fell = sim.fell_at_s();
    assert_eq!(fell, None, "fell at {fell:?}");
}

/// The generated CesiumMan (stepping at 1.0, assist 0) with its feet's colliders moved
/// `forward_m` along its forward (+Z), so that it stands with its centre of mass near its
/// heels, as X Bot and Ely from Mixamo do (within 10% of the feet's depth).
fn cesium_man_on_long_toes(forward_m: f64) -> StepperAtAssist0 {
    long_toes(StepperAtAssist0::cesium_man(), glam::DVec3::Z * forward_m)
}

/// `c` with its feet's colliders moved by `d` (world).
fn long_toes(mut c: StepperAtAssist0, d_world: glam::DVec3) -> StepperAtAssist0 {
    for foot in c.doc.balance.foot_bones.clone().expect("feet") {
        let id = c.doc.bone_by_name(&foot).expect("a foot bone");
        let bone = c.doc.bone(id);
        let node_from_world = c.doc.skeleton.nodes[bone.node].world_from_node.inverse();
        let collider = bone.physics.as_ref().and_then(|p| p.collider.as_ref());
        let at = collider
            .and_then(|c| c.offset.translation)
            .expect("an offset");
        let d = node_from_world.transform_vector3(d_world);
        c.doc
            .apply(&Edit::Set {
                target: EditTarget::Node(bone.node),
                key: Key::OffsetTranslation.path().into(),
                value: json!([at[0] + d.x, at[1] + d.y, at[2] + d.z]),
            })
            .expect("move the foot's collider");
    }
    c
}

/// Where the centre of mass stands between the heels (0) and the toes (1) of the feet's
/// colliders (their bounding boxes along +Z, the character's forward).
fn com_share_heel_to_toe(sim: &Simulation, feet: &[String]) -> f32 {
    let world = sim.physics();
    let (mut heel, mut toe) = (f32::INFINITY, f32::NEG_INFINITY);
    for f in feet {
        let body = &world.bodies[sim.body_handle(f).expect("a foot body")];
        for &c in body.colliders() {
            let aabb = world.colliders[c].compute_aabb();
            heel = heel.min(aabb.mins.z);
            toe = toe.max(aabb.maxs.z);
        }
    }
    (sim.com().z - heel) / (toe - heel)
}

/// Standing with its centre of mass near its heels, a character that steps leans forward at
/// the ankles until the centre of mass is a fifth of the feet's depth inside them
/// (`step/stance.rs`). The generated CesiumMan with its feet's colliders 4 cm further forward
/// stood at 0.091 of their depth from the heel at 0.2 s; without the stance it stayed there
/// (0.076 at 3 s), with it it stood at 0.258. Since its capsules are fitted round the middle
/// of their vertices (session 40) its feet moved 4 cm put it at 0.169, 6 cm at 0.084 (with
/// the stance, 0.255 at 3 s).
///
/// What the lean buys is measured on the characters it is for (README, session 22): Ely and
/// X Bot from Mixamo stand within 10% of their feet's depth from the heel, and at fixed gains
/// survived 3 and 5 of 8 pushes at 0.5 m/s before, 8 and 6 after (stepping at 0.78). On this
/// test's CesiumMan the backward push alone is chaotic: with the feet moved 0 to 5 cm, it
/// stood 3 of 6 runs before and 4 of 6 after.
#[test]
fn a_character_standing_on_its_heels_leans_onto_its_feet() {
    let c = cesium_man_on_long_toes(0.06);
    let feet = c.doc.balance.foot_bones.clone().expect("feet");
    let mut sim = Simulation::new(&c.doc, SimSettings::default()).expect("sim");
    let mut start = f32::NAN;
    while sim.time_s() < 3.0 {
        sim.step().expect("no guard pause");
        if (sim.time_s() - 0.2).abs() < 1e-6 {
            start = com_share_heel_to_toe(&sim, &feet);
        }
    }
    let settled = com_share_heel_to_toe(&sim, &feet);
    println!("centre of mass at {start:.3} of the feet's depth at 0.2 s, {settled:.3} at 3 s");
    assert!(start < 0.1, "the moved feet put it near the heel: {start}");
    assert!(
        (0.18..0.3).contains(&settled),
        "it leans onto its feet: {settled} at 3 s"
    );
    assert_eq!(sim.fell_at_s(), None, "it stands");
}

/// CesiumMan's file turned by `deg` about the vertical.
fn turned_cesium_man(deg: f64) -> Document {
    common::turned_glb(&common::shared_asset("CesiumMan/CesiumMan.glb"), deg)
}

/// Where the centre of mass stands between the heels (0) and the toes (1) along `forward`,
/// from the corners of the feet's box colliders.
fn com_share_along(sim: &Simulation, feet: &[String], forward: Vec3) -> f32 {
    let world = sim.physics();
    let (mut heel, mut toe) = (f32::INFINITY, f32::NEG_INFINITY);
    for f in feet {
        let body = &world.bodies[sim.body_handle(f).expect("a foot body")];
        for &h in body.colliders() {
            let c = &world.colliders[h];
            let e = c.shape().as_cuboid().expect("a box foot").half_extents;
            for k in 0..8 {
                let s = |b: usize| if k & b == 0 { -1.0 } else { 1.0 };
                let corner = Vec3::new(s(1) * e.x, s(2) * e.y, s(4) * e.z);
                let d = (*c.position() * corner).dot(forward);
                heel = heel.min(d);
                toe = toe.max(d);
            }
        }
    }
    (sim.com().dot(forward) - heel) / (toe - heel)
}

/// A stepping character standing on its heels leans onto its feet alike whichever way it faces.
/// The stance and the step trigger read the feet's support; it was their world-axis bounding
/// boxes, as wide as long for a box foot turned 45°, so a character facing a diagonal leaned
/// and stepped as if its feet were that large: Mixamo's X Bot turned by 45°, stepping at assist
/// 0, fell back off its heels standing at ×0.01 and ×1 where facing +Z it stood, and at fixed
/// gains the 13 humanoids of the stepping screen turned by 45° survived 161 and were felled by
/// 133 of their pushes against 190 and 125 facing their axes. Now each foot's box is square to
/// the character's heading (189 and 125 turned, 188 and 126 facing their axes). Here the
/// generated CesiumMan with its feet's colliders 4 cm further forward, facing +Z and turned by
/// 45° (with the world-axis boxes it leaned only to 0.142 turned).
#[test]
fn a_stepping_character_leans_onto_its_feet_whichever_way_it_faces() {
    let mut shares = Vec::new();
    for deg in [0.0f64, 45.0] {
        let forward = glam::DVec3::new(deg.to_radians().sin(), 0.0, deg.to_radians().cos());
        let c = long_toes(
            StepperAtAssist0::generated(turned_cesium_man(deg)),
            forward * 0.04,
        );
        let feet = c.doc.balance.foot_bones.clone().expect("feet");
        let mut sim = Simulation::new(&c.doc, SimSettings::default()).expect("sim");
        let mut share = f32::NAN;
        while sim.time_s() < 6.0 {
            sim.step().expect("no guard pause");
            if (sim.time_s() - 3.0).abs() < 1e-6 {
                share = com_share_along(&sim, &feet, forward.as_vec3());
            }
        }
        println!("turned {deg}°: centre of mass at {share:.3} of the feet's depth at 3 s");
        assert_eq!(sim.fell_at_s(), None, "turned {deg}°: it stands");
        assert!(
            (0.18..0.3).contains(&share),
            "turned {deg}°: it leans onto its feet: {share}"
        );
        shares.push(share);
    }
    assert!(
        (shares[0] - shares[1]).abs() < 0.03,
        "alike whichever way it faces: {shares:?}"
    );
}

/// A rest pose whose centre of mass lies off its feet cannot stand as modelled: a digitigrade
/// werewolf from Mixamo's auto-rigger has it 5 cm behind the heel edge of its toe-pad feet and
/// fell backward in 1.3 s at assist 0, stepping or not (a step backward landed it no better).
/// The simulation now starts it leaned over its feet at the ankles, the stance's margin inside
/// the nearer edge, and the ankles hold that lean. Here the generated CesiumMan with its feet's
/// colliders moved 14 cm forward, past its centre of mass, stepping off, at assist 0.
#[test]
fn a_rest_pose_off_its_feet_starts_leaned_over_them_and_stands() {
    let mut c = cesium_man_on_long_toes(0.14);
    set(&mut c.doc, Key::StepGain, 0.0);
    let feet = c.doc.balance.foot_bones.clone().expect("feet");
    let rest = Simulation::new(&c.doc, SimSettings::passive()).expect("passive sim");
    let rest_share = com_share_along(&rest, &feet, Vec3::Z);
    let mut sim = Simulation::new(&c.doc, SimSettings::default()).expect("sim");
    let start_share = com_share_along(&sim, &feet, Vec3::Z);
    let mut later = f32::NAN;
    while sim.time_s() < 10.0 {
        sim.step().expect("no guard pause");
        if (sim.time_s() - 5.0).abs() < 1e-6 {
            later = com_share_along(&sim, &feet, Vec3::Z);
        }
    }
    println!(
        "centre of mass at {rest_share:.3} of the feet's depth at rest, {start_share:.3} as it \
         starts, {later:.3} at 5 s; fell at {:?}",
        sim.fell_at_s()
    );
    assert!(rest_share < 0.0, "behind the heels at rest: {rest_share}");
    assert!(
        (0.1..0.3).contains(&start_share),
        "it starts over its feet: {start_share}"
    );
    assert!((0.05..0.95).contains(&later), "and stays there: {later}");
    assert_eq!(sim.fell_at_s(), None, "it stands 10 s");
}

/// A foot the body's motion lifts off the ground steps. The mannequin stepping at 1.3, pushed
/// back-left and back-right at assist 0 (0.5 m/s × (1 + 0.002 k), k = −2..2): after two steps
/// its body moved on over one foot, and the other, held in its landed pose, rose 13 cm over
/// half a second. While only grounded feet could step, it fell over the one it stood on in all
/// 10 runs (back-left at 0.5 m/s: 3.6 s after the push); the lifted foot now steps, and it
/// stands in all 10.
#[test]
fn a_foot_lifted_off_the_ground_steps() {
    let mut doc = Document::open(common::mannequin()).expect("mannequin");
    set(&mut doc, Key::Assist, 0.0);
    set(&mut doc, Key::StepGain, 1.3);
    let mut fell = Vec::new();
    for x in [1.0f32, -1.0] {
        for k in -2..=2 {
            let dv = PUSH_N_S * (1.0 + 0.002 * k as f32) * std::f32::consts::FRAC_1_SQRT_2;
            let mut sim = Simulation::new(&doc, SimSettings::default()).expect("sim");
            let steps_per_s = (1.0 / sim.settings().dt_s).round() as usize;
            for i in 0..6 * steps_per_s {
                if i == steps_per_s {
                    sim.apply_impulse("pelvis", Vec3::new(x * dv, 0.0, -dv))
                        .expect("push");
                }
                sim.step().expect("no guard pause");
            }
            if let Some(t) = sim.fell_at_s() {
                fell.push(format!("x {x}, k {k}: fell at {t:.2} s"));
            }
        }
    }
    println!("pushed back-left and back-right at 1.3: {fell:?}");
    assert!(fell.len() <= 1, "{fell:#?}");
}
