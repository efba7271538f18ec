//! The knock-out (`balance.knockout_dv`): an impact past it lets the balance go and the
//! drives go limp, read from the body's own speed change in the real Rapier world; and `tune`
//! sets it between the goals, which is what fells a character its gains alone keep up (the
//! zoo rat).

use crate::common;
use crate::tune::{assert_meets_the_goals, pushes, simulate, tuned_with_the_line};

/// The bundled mannequin survives a 1.5 m/s push at the pelvis with its own gains. Knocked
/// out past 0.87 m/s it falls from the same push, at once limp (knocked out in the step the
/// push lands), and a 0.5 m/s push neither knocks it out nor fells it; each run reports the
/// impact it read, within 10% of the push's speed change.
#[test]
fn a_push_past_the_knockout_fells_and_one_below_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let ko = dir.path().join("ko.glb");
    common::edited(&common::mannequin(), "@balance.knockout_dv=0.87", &ko);
    let run = |file: &std::path::Path, dv: f64| {
        let p = &pushes(file, dv)[0];
        simulate(file, &["--seconds", "4", "--push", p])
    };
    let impact = |r: &serde_json::Value| r["peak_impact_dv_m_s"].as_f64().unwrap();

    let own = run(&common::mannequin(), 1.5);
    assert_eq!(own["fell"], false, "its own gains keep it up: {own}");
    assert!(own["knocked_out_at_s"].is_null(), "{own}");
    assert!((impact(&own) - 1.5).abs() < 0.15, "{own}");

    let hard = run(&ko, 1.5);
    assert_eq!(hard["fell"], true, "knocked out, it falls: {hard}");
    let at = hard["knocked_out_at_s"].as_f64().expect("knocked out");
    assert!(
        (1.0..1.02).contains(&at),
        "in the step the push lands: {hard}"
    );
    assert!((impact(&hard) - 1.5).abs() < 0.15, "{hard}");

    let soft = run(&ko, 0.5);
    assert_eq!(soft["fell"], false, "{soft}");
    assert!(soft["knocked_out_at_s"].is_null(), "{soft}");
    assert!((impact(&soft) - 0.5).abs() < 0.05, "{soft}");
}

/// Standing 10 s, nothing knocks it out: what the feet and the balance do to the centre of
/// mass reads far below the line (the mannequin at assist 0, the tune's setting).
#[test]
fn standing_never_knocks_out() {
    let dir = tempfile::tempdir().unwrap();
    let (low, ko) = (dir.path().join("low.glb"), dir.path().join("ko.glb"));
    common::edited(&common::mannequin(), "@balance.knockout_dv=0.3", &low);
    common::edited(&low, "@balance.assist=0", &ko);
    let r = simulate(&ko, &["--seconds", "10"]);
    assert_eq!(r["fell"], false, "{r}");
    assert!(r["knocked_out_at_s"].is_null(), "{r}");
    assert!(r["peak_impact_dv_m_s"].as_f64().unwrap() < 0.15, "{r}");
}

/// Issue 19's designed robustness on the zoo rat, whose gains, however the search sets them,
/// keep it on its four feet at 1.5 m/s (sessions 34-48: felled from 0-2 of 8 after the tune):
/// `tune` knocks it out between the goals, so it survives 0.5 m/s from all 8 directions and
/// falls at 1.5 m/s from at least 6, checked with independent `simulate --push` runs.
#[test]
fn designed_robustness_on_the_zoo_rat() {
    assert_meets_the_goals(tuned_with_the_line("q_rat.glb"));
}

/// In the editor: a push past the Balance panel's knock-out (here the file's) knocks the
/// character out in the running simulation, and the status bar says when and by what impact;
/// one below says nothing.
#[test]
fn the_editor_says_when_a_push_knocked_the_character_out() {
    use crate::editor::harness;
    use egui_kittest::kittest::Queryable;
    let dir = tempfile::tempdir().unwrap();
    let ko = dir.path().join("ko.glb");
    let doc = common::edited(&common::mannequin(), "@balance.knockout_dv=0.87", &ko);
    let pelvis = doc.bone_by_name("pelvis").expect("a pelvis");
    let mass = ragdoll_tuner::tune::probe::total_mass_kg(&doc) as f32;
    let mut h = harness(&ko);
    h.run_steps(2);
    h.state_mut().fast_forward(1.0);
    h.state_mut()
        .push(pelvis, glam::Vec3::new(0.5 * mass, 0.0, 0.0));
    h.state_mut().fast_forward(0.5);
    h.run_steps(3);
    assert!(h.query_by_label_contains("knocked out").is_none());
    h.state_mut()
        .push(pelvis, glam::Vec3::new(1.5 * mass, 0.0, 0.0));
    h.state_mut().fast_forward(0.5);
    h.run_steps(3);
    // When, and the impact it read (a 1.5 m/s push: 1.4-1.7 m/s).
    h.get_by_label_contains("knocked out at 1.");
    h.get_by_label_contains("(impact 1.");
}

/// A knock-out line the character's own standing comes near is not written: the generated zoo
/// rat at 100 times its size reads 1.2-1.4 units/s of sudden speed change settling (speeds grow
/// with the square root of size), and knocked out past the goals' 0.87 it fell before any
/// push (every 0.5 m/s push "felled" it). `tune` measures the start, drops the line, measures
/// again, and says so; at its own size the rat keeps the line (standing reads 0.13-0.17).
#[test]
fn a_knockout_its_own_standing_would_trip_is_not_written() {
    use ragdoll_tuner::document::Document;
    use ragdoll_tuner::tune::{self, params};
    let goals = tune::Goals {
        survive_dv_m_s: Some(0.5),
        fall_dv_m_s: Some(1.5),
        assist_max: Some(0.0),
        ..Default::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let giant = crate::tune::generated_scaled(dir.path(), "q_rat.glb", 100.0);
    let doc = Document::open(&giant).unwrap();
    let (problem, before) = tune::prepare(&doc, &goals, (0, f64::INFINITY)).unwrap();
    println!("×100 rat: dropped {:?}", problem.knockout_dropped);
    let (line, standing) = problem.knockout_dropped.expect("dropped");
    assert!((line - 0.75f64.sqrt()).abs() < 1e-9, "{line}");
    assert!(
        standing >= params::KNOCKOUT_STANDING_SHARE * line,
        "{standing}"
    );
    assert_eq!(problem.baseline.knockout_dv, Some(0.0));
    assert_eq!(before.knockout_dv, 0.0, "the start measured without it");
    assert!(
        (before.directions.iter()).all(|d| d.survives_goal == Some(true)),
        "no longer knocked out standing: {:?}",
        before.directions
    );

    let rat = crate::tune::generated(dir.path(), "q_rat.glb");
    let doc = Document::open(&rat).unwrap();
    let (problem, before) = tune::prepare(&doc, &goals, (0, f64::INFINITY)).unwrap();
    assert_eq!(problem.knockout_dropped, None);
    assert!(
        (before.knockout_dv - 0.75f64.sqrt()).abs() < 1e-5,
        "{before:?}"
    );
    assert!(before.standing_impact_dv_m_s < 0.25, "{before:?}");
}

/// A line the character's own standing can cross is a doctor warning naming the key and the
/// fix: the bundled mannequin knocked out past 0.0001 m/s is knocked out with no push and lies
/// down; at the fix the doctor names it stands 10 s and the warning is gone.
#[test]
fn a_knockout_below_what_standing_reads_is_a_doctor_warning() {
    use ragdoll_tuner::doctor::{self, Check};
    let dir = tempfile::tempdir().unwrap();
    let low = dir.path().join("low.glb");
    let doc = common::edited(&common::mannequin(), "@balance.knockout_dv=0.0001", &low);
    let found: Vec<_> = doctor::examine(&doc)
        .into_iter()
        .filter(|f| f.check == Check::KnockoutTooLow)
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    let msg = &found[0].message;
    assert!(msg.contains("with no push"), "{msg}");
    let fix: f64 = msg
        .split("fix: at least ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .expect("the fix names a speed");
    let r = simulate(&low, &["--seconds", "3"]);
    assert_eq!(r["fell"], true, "{r}");
    assert!(r["knocked_out_at_s"].as_f64().unwrap() < 0.1, "{r}");

    let fixed = dir.path().join("fixed.glb");
    let doc = common::edited(&low, &format!("@balance.knockout_dv={fix}"), &fixed);
    assert!(
        doctor::examine(&doc)
            .iter()
            .all(|f| f.check != Check::KnockoutTooLow),
        "{fix}"
    );
    let r = simulate(&fixed, &["--seconds", "10"]);
    assert_eq!(r["fell"], false, "{r}");
    assert!(r["knocked_out_at_s"].is_null(), "{r}");
}
