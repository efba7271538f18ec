//! The stability doctor's live checks (issue 17, section 3): drift and bodies that never
//! come to rest, on made-up poses, in the editor's diagnostics after a real run, and on real
//! passive runs that do and do not settle.

use crate::common::*;
use crate::doctor::set;
use ragdoll_tuner::document::fields::Key;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::sim::{SimSettings, Simulation};
use serde_json::json;

/// The live checks on poses made up to show them: the rest pose held still gives nothing;
/// a forearm pulled off its elbow by 5% of the segment is drift; a hand that keeps moving
/// after 5 s never comes to rest (unless a clip plays: then it is meant to move).
#[test]
fn live_checks_flag_drift_and_bodies_that_never_rest() {
    use ragdoll_tuner::doctor::live::LiveWatch;
    use ragdoll_tuner::render::Pose;
    let doc = Document::open(mannequin()).expect("mannequin");
    let rest = Pose::rest(&doc).world_from_bone;
    let [forearm, upper, hand] =
        ["forearm_l", "upper_arm_l", "hand_l"].map(|b| doc.bone_by_name(b).unwrap());
    let run = |pose_at: &dyn Fn(f64) -> Vec<glam::DMat4>, judge_rest: bool| {
        let mut w = LiveWatch::new(&doc);
        for i in 0..=480 {
            let t = i as f64 / 60.0;
            w.observe(t, &pose_at(t), judge_rest);
        }
        w.diagnostics(&doc)
    };
    assert_eq!(run(&|_| rest.clone(), true), vec![], "at rest");

    let segment = (rest[forearm.index()].w_axis - rest[upper.index()].w_axis).length();
    let pulled = |_: f64| {
        let mut p = rest.clone();
        // The hand goes with it: only the elbow comes apart.
        p[forearm.index()].w_axis.x += 0.05 * segment;
        p[hand.index()].w_axis.x += 0.05 * segment;
        p
    };
    let found = run(&pulled, true);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].bone, "forearm_l");
    assert!(
        found[0].message.contains("drifted apart by 5.0%"),
        "{}",
        found[0].message
    );

    // A hand circling at 0.2 m/s, about 11% of the height per second.
    let circling = |t: f64| {
        let mut p = rest.clone();
        let m = &mut p[hand.index()];
        m.w_axis.x += 0.05 * (4.0 * t).cos();
        m.w_axis.z += 0.05 * (4.0 * t).sin();
        p
    };
    let found = run(&circling, true);
    let restless: Vec<_> = found
        .iter()
        .filter(|d| d.message.contains("not come to rest"))
        .collect();
    assert_eq!(restless.len(), 1, "{found:#?}");
    assert_eq!(restless[0].bone, "hand_l");
    let found = run(&circling, false);
    assert!(
        found
            .iter()
            .all(|d| !d.message.contains("not come to rest")),
        "{found:#?}"
    );
}

/// In the editor, a passive run (balance and drives off) of a 60 kg hand on a 10 g forearm
/// (6000:1) pulls the elbow apart; the diagnostics panel lists it as a live finding after the
/// run. Measured: 6.0% of the segment at 8 s.
#[test]
fn the_editor_lists_live_drift_in_its_diagnostics() {
    use egui_kittest::kittest::Queryable;
    let (_dir, mut doc) = crate::pairs::mannequin_copy();
    set(&mut doc, "forearm_l", Key::Mass, json!(0.01));
    set(&mut doc, "hand_l", Key::Mass, json!(60.0));
    let mut h = crate::pairs::passive_harness(doc);
    let label = "live: the joint upper_arm_l - forearm_l drifted apart";
    assert!(
        h.query_by_label_contains(label).is_none(),
        "not before the run"
    );
    h.state_mut().fast_forward(8.0);
    h.run_steps(2);
    let st = &h.state().state;
    let span = st.doctor.live.as_ref().and_then(|w| w.span());
    assert!(span.is_some_and(|(_, now)| now > 7.9), "{span:?}");
    assert!(
        h.query_by_label_contains(label).is_some(),
        "listed in the panel"
    );
}

/// The live "never at rest" check on real passive runs: the mannequin on frictionless ground
/// without damping, shoved, slides on forever (nothing takes its momentum) and every body is
/// flagged; the mannequin as shipped comes to rest and gets no such finding.
#[test]
fn never_at_rest_triggers_on_a_real_run_that_never_settles() {
    use ragdoll_tuner::doctor::live::LiveWatch;
    let restless = |doc: &Document, shove: bool| {
        // The ground's friction is the settings' (a contact takes the mean of the two).
        let friction = if shove { 0.0 } else { 0.8 };
        let settings = SimSettings {
            friction,
            ..SimSettings::passive()
        };
        let mut sim = Simulation::new(doc, settings).expect("simulation");
        let mut watch = LiveWatch::new(doc);
        let dt = sim.settings().dt_s as f64;
        for step in 1..=(10.0 / dt).round() as usize {
            if shove && step == 12 {
                sim.apply_impulse("pelvis", glam::Vec3::new(60.0, 0.0, 0.0))
                    .expect("push");
            }
            sim.step().expect("no guard pause");
            let pose: Vec<glam::DMat4> = doc
                .bones
                .iter()
                .map(|b| {
                    sim.world_from_body(&b.name)
                        .map_or(glam::DMat4::IDENTITY, |p| {
                            glam::DMat4::from_rotation_translation(
                                p.rotation.as_dquat(),
                                p.translation.as_dvec3(),
                            )
                        })
                })
                .collect();
            watch.observe(step as f64 * dt, &pose, true);
        }
        let found: Vec<String> = watch
            .diagnostics(doc)
            .into_iter()
            .filter(|d| d.message.contains("not come to rest"))
            .map(|d| d.message)
            .collect();
        found
    };
    let shipped = Document::open(mannequin()).expect("mannequin");
    let mut ice = shipped.clone();
    for b in shipped.bones.iter().filter(|b| b.physics.is_some()) {
        set(&mut ice, &b.name, Key::Friction, json!(0.0));
        set(&mut ice, &b.name, Key::AngularDamping, json!(0.0));
        set(&mut ice, &b.name, Key::LinearDamping, json!(0.0));
    }
    let found = restless(&ice, true);
    println!("on ice, shoved: {found:#?}");
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("live: pelvis has not come to rest")),
        "{found:#?}"
    );
    assert_eq!(found.len(), 18, "every body slides on: {found:#?}");
    let found = restless(&shipped, false);
    assert!(
        found.is_empty(),
        "the shipped mannequin comes to rest: {found:#?}"
    );
}
