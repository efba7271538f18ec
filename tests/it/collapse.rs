//! Issue 20's passive collapse on the real corpus: every character with legs (the zoo's
//! bipeds, quadrupeds, spider and dragon, CesiumMan, the Fox, the mannequin), generated and
//! simulated with drives and balance off, is reported fallen within 3·√(H / 1.75 m) s, H its
//! reported height. Fall detection reads
//! the whole body's centre of mass against its rest and lying heights, so a body propped on
//! its limbs at their limits (the rat, the spider) or crouched on its heels under a big
//! pelvis sphere (the Rigify lumberjack) is a fall; before, these three were not reported
//! fallen in 10 s. The snake has no legs: falls are not measured. And standing 10 s with
//! balance, none of them is reported fallen.

use crate::common::characters;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::generate::generate;
use ragdoll_tuner::sim::{SimSettings, Simulation};
use std::path::Path;

/// The passive run of one character: when it was reported fallen (None: not in `seconds`),
/// whether falls are measured at all.
fn passive_fall(doc: &Document, seconds: f64) -> (Option<f64>, bool) {
    let mut sim = Simulation::new(doc, SimSettings::passive()).expect("world");
    let steps = (seconds / sim.settings().dt_s as f64).ceil() as u64;
    while sim.steps() < steps && sim.fell_at_s().is_none() {
        if sim.step().is_err() {
            break;
        }
    }
    (sim.fell_at_s(), sim.falls_measured())
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().to_string()
}

#[test]
fn every_character_with_legs_collapses_passively_within_its_budget() {
    let mut failures = Vec::new();
    let mut measured = Vec::new();
    for p in characters() {
        let mut doc = Document::open(&p).expect("opens");
        let g = generate(&doc, &Default::default()).expect("generates");
        doc.apply(&g.edit).expect("applies");
        let budget_s = 3.0 * (g.report.height / 1.75).sqrt();
        let legless = name(&p) == "q_snake.glb";
        let (fell, falls_measured) = passive_fall(&doc, budget_s);
        measured.push(format!(
            "{} ({:?}): fell at {fell:?} (budget {budget_s:.2} s)",
            name(&p),
            g.report.character_type
        ));
        if legless {
            if falls_measured {
                failures.push(format!("{}: falls measured without legs", name(&p)));
            }
            continue;
        }
        if !fell.is_some_and(|t| t <= budget_s) {
            failures.push(format!(
                "{}: fell at {fell:?}, budget {budget_s:.2} s",
                name(&p)
            ));
        }
    }
    eprintln!("{measured:#?}");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The other side of the same criterion: every character with legs, standing 10 s with
/// balance, is not reported fallen and tilts at most 10° (the centre of mass test must not
/// call a standing body fallen; the lowest standing, the spider, keeps its centre of mass
/// 0.67 of the way from lying to rest, the threshold is 0.55).
#[test]
fn every_character_with_legs_stands_10_s_not_fallen() {
    let mut failures = Vec::new();
    for p in characters() {
        if name(&p) == "q_snake.glb" {
            continue;
        }
        let mut doc = Document::open(&p).expect("opens");
        let g = generate(&doc, &Default::default()).expect("generates");
        doc.apply(&g.edit).expect("applies");
        let mut sim = Simulation::new(&doc, SimSettings::default()).expect("world");
        let steps = (10.0 / sim.settings().dt_s as f64).round() as u64;
        let mut paused = None;
        while sim.steps() < steps && sim.fell_at_s().is_none() {
            if let Err(e) = sim.step() {
                paused = Some(format!("{e:?}"));
                break;
            }
        }
        let tilt = sim.telemetry().max_torso_tilt_deg;
        if sim.fell_at_s().is_some() || paused.is_some() || !tilt.is_finite() || tilt > 10.0 {
            failures.push(format!(
                "{}: fell at {:?}, tilt {tilt:.1}°, paused {paused:?}",
                name(&p),
                sim.fell_at_s()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
