//! The stability doctor (issue 17): broken ragdolls built from the mannequin each get their
//! matching finding; after Stabilize each simulates 10 s passive without a guard pause,
//! settles and keeps its joints together. Every zoo character, generated, has no doctor error
//! and settles. The figures are measured and printed (`--nocapture`).

use crate::common::*;
use ragdoll_tuner::doctor::{self, Check, StabilizeOptions};
use ragdoll_tuner::document::fields::Key;
use ragdoll_tuner::document::{Document, Edit, Severity};
use ragdoll_tuner::joint;
use ragdoll_tuner::sim::{SimSettings, Simulation};
use serde_json::{json, Value};

pub(crate) fn set(doc: &mut Document, bone: &str, key: Key, value: Value) {
    let id = doc
        .bone_by_name(bone)
        .unwrap_or_else(|| panic!("no bone {bone}"));
    doc.apply(&Edit::Set {
        target: doc.bone_target(id),
        key: key.path().into(),
        value,
    })
    .unwrap_or_else(|e| panic!("{bone}.{}: {e}", key.path()));
}

/// One broken mannequin: what is broken, how, and the finding it must get.
struct Broken {
    name: &'static str,
    build: fn(&mut Document),
    check: Check,
    bones: [&'static str; 2],
}

fn broken() -> Vec<Broken> {
    vec![
        Broken {
            name: "365:1 mass ratio",
            build: |d| {
                set(d, "upper_arm_l", Key::Mass, json!(36.5));
                set(d, "forearm_l", Key::Mass, json!(0.1));
            },
            check: Check::MassRatio,
            bones: ["forearm_l", "upper_arm_l"],
        },
        Broken {
            name: "overlap at rest, collision on",
            build: |d| set(d, "shin_l", Key::CollisionPairs, json!({"thigh_l": true})),
            check: Check::Overlap,
            bones: ["thigh_l", "shin_l"],
        },
        Broken {
            name: "zero damping",
            build: |d| {
                for b in ["pelvis", "thigh_l", "shin_l", "upper_arm_l"] {
                    set(d, b, Key::AngularDamping, json!(0.0));
                    set(d, b, Key::LinearDamping, json!(0.0));
                }
            },
            check: Check::NoDamping,
            // The mannequin ships the generator's damping: the finding lists the four
            // bodies this case takes it from (before, every body had none).
            bones: ["pelvis", "thigh_l"],
        },
        Broken {
            name: "1 degree limits",
            build: |d| {
                set(d, "shin_l", Key::LimitMin, json!(0.0));
                set(d, "shin_l", Key::LimitMax, json!(1.0));
                set(d, "upper_arm_l", Key::TwistRange, json!([-0.5, 0.5]));
            },
            check: Check::TinyLimit,
            bones: ["shin_l", "thigh_l"],
        },
        Broken {
            name: "drive 100x too stiff",
            build: |d| {
                for b in ["thigh_l", "forearm_l"] {
                    let id = d.bone_by_name(b).expect("bone");
                    let cap = doctor::drive_stiffness_limit(d, id).expect("jointed");
                    set(d, b, Key::Stiffness, json!(100.0 * cap));
                }
            },
            check: Check::DriveTooStiff,
            bones: ["thigh_l", "pelvis"],
        },
        Broken {
            name: "heavy hand on a light forearm",
            build: |d| {
                set(d, "forearm_l", Key::Mass, json!(0.4));
                set(d, "hand_l", Key::Mass, json!(6.0));
            },
            check: Check::HeavyChild,
            bones: ["hand_l", "forearm_l"],
        },
    ]
}

/// What a passive run measured.
#[derive(Debug)]
pub(crate) struct Run {
    /// Largest body speed after 5 s, as a share of the character's height per second. The
    /// speed is how far the body's origin moved over a step, per second: what moves. Rapier's
    /// `linvel` after a step also holds the velocity its last relaxation pass leaves on bodies
    /// pressed against the ground or a limit, which moves nothing (the 1° mannequin's lower
    /// spine read 2.9% of its height per second by `linvel` in its last second while its
    /// origin moved 0.2% per second); that is kept as `late_linvel_share`, for the record.
    pub late_speed_share: f64,
    pub late_linvel_share: f64,
    /// Largest joint drift over the run, as a share of the segment's length, and its joint.
    pub drift_share: f64,
    pub drift_joint: String,
    /// The fastest body after 5 s, and the largest speed share in the last second.
    pub late_body: String,
    pub last_second_share: f64,
    pub paused: Option<String>,
    /// When the rag doll fell asleep (None: it never did).
    pub asleep_at: Option<f64>,
}

/// Each joint: (child bone, parent bone, anchor in the parent body, segment length).
fn joints(doc: &Document, sim: &Simulation) -> Vec<(String, String, glam::Vec3, f32)> {
    let mut out = Vec::new();
    for id in doc.bone_ids() {
        let Some(def) = joint::resolve(doc, id) else {
            continue;
        };
        let (c, p) = (doc.bone(id).name.clone(), doc.bone(def.parent).name.clone());
        let (Some(pc), Some(pp)) = (sim.world_from_body(&c), sim.world_from_body(&p)) else {
            continue;
        };
        let anchor = pp.inverse() * pc.translation;
        out.push((c, p, anchor, anchor.length().max(1e-6)));
    }
    out
}

fn passive_run(doc: &Document, seconds: f64) -> Run {
    passive_run_with(doc, SimSettings::passive(), seconds)
}

/// A run of `seconds` with `settings` (a rag doll's: drives and balance off).
pub(crate) fn passive_run_with(doc: &Document, settings: SimSettings, seconds: f64) -> Run {
    let mut sim = Simulation::new(doc, settings).expect("simulation");
    let height = sim.settings().unit() as f64 * 1.75;
    let joints = joints(doc, &sim);
    let names: Vec<String> = doc.bones.iter().map(|b| b.name.clone()).collect();
    let dt = sim.settings().dt_s as f64;
    let mut run = Run {
        late_speed_share: 0.0,
        late_linvel_share: 0.0,
        drift_share: 0.0,
        drift_joint: String::new(),
        late_body: String::new(),
        last_second_share: 0.0,
        paused: None,
        asleep_at: None,
    };
    let origin = |sim: &Simulation, n: &str| sim.world_from_body(n).map(|p| p.translation);
    let mut before: Vec<Option<glam::Vec3>> = names.iter().map(|n| origin(&sim, n)).collect();
    for step in 1..=(seconds / dt).round() as usize {
        if let Err(p) = sim.step() {
            run.paused = Some(p.to_string());
            break;
        }
        for (c, p, anchor, len) in &joints {
            let (pc, pp) = (
                sim.world_from_body(c).unwrap(),
                sim.world_from_body(p).unwrap(),
            );
            let share = ((pp * *anchor - pc.translation).length() / len) as f64;
            if share > run.drift_share {
                run.drift_share = share;
                run.drift_joint = format!("{p}-{c}");
            }
        }
        if step as f64 * dt > 5.0 {
            for (n, was) in names.iter().zip(&before) {
                let (Some(h), Some(was), Some(now)) = (sim.body_handle(n), was, origin(&sim, n))
                else {
                    continue;
                };
                let linvel = sim.physics().bodies[h].linvel().length() as f64 / height;
                run.late_linvel_share = run.late_linvel_share.max(linvel);
                let v = (now - *was).length() as f64 / dt / height;
                if v > run.late_speed_share {
                    run.late_speed_share = v;
                    run.late_body = format!("{n} at {:.2} s", step as f64 * dt);
                }
                if step as f64 * dt > seconds - 1.0 {
                    run.last_second_share = run.last_second_share.max(v);
                }
            }
        }
        if sim.asleep() && run.asleep_at.is_none() {
            run.asleep_at = Some(sim.time_s());
        }
        before = names.iter().map(|n| origin(&sim, n)).collect();
    }
    run
}

fn errors(doc: &Document) -> Vec<String> {
    doctor::examine(doc)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message)
        .collect()
}

#[test]
fn each_broken_ragdoll_gets_its_finding_and_settles_after_stabilize() {
    let mut unsettled = Vec::new();
    for case in broken() {
        let mut doc = Document::open(mannequin()).expect("mannequin");
        (case.build)(&mut doc);
        let findings = doctor::examine(&doc);
        let names_first = |f: &&doctor::Finding| {
            f.bones.first().map(|&b| doc.bone(b).name.as_str()) == Some(case.bones[0])
        };
        let hit = findings
            .iter()
            .filter(|f| f.check == case.check)
            .find(names_first)
            .unwrap_or_else(|| panic!("{}: no {:?} in {findings:#?}", case.name, case.check));
        let named: Vec<&str> = hit
            .bones
            .iter()
            .map(|&b| doc.bone(b).name.as_str())
            .collect();
        for b in case.bones {
            assert!(named.contains(&b), "{}: {named:?} lacks {b}", case.name);
            assert!(hit.message.contains(b), "{}: {}", case.name, hit.message);
        }
        assert!(hit.message.contains("fix:"), "{}", hit.message);
        let fixed = doctor::stabilize(&doc, &StabilizeOptions::default());
        assert!(matches!(fixed.edit, Edit::Group(_)), "one undo step");
        assert!(!fixed.changes.is_empty(), "{}: changes reported", case.name);
        doc.apply(&fixed.edit).expect("stabilize applies");
        let left = errors(&doc);
        assert!(left.is_empty(), "{}: after Stabilize {left:#?}", case.name);
        let run = passive_run(&doc, 10.0);
        println!(
            "{}: {:?} found ({}); {} changes; passive 10 s: late speed {:.4}% of height/s ({}, last second {:.4}%; linvel {:.4}%), drift {:.3}% ({})",
            case.name, case.check, hit.message, fixed.changes.len(),
            100.0 * run.late_speed_share, run.late_body, 100.0 * run.last_second_share,
            100.0 * run.late_linvel_share,
            100.0 * run.drift_share, run.drift_joint
        );
        assert!(run.paused.is_none(), "{}: {:?}", case.name, run.paused);
        assert!(run.drift_share < 0.01, "{}: {run:?}", case.name);
        if run.late_speed_share >= 0.01 {
            unsettled.push(format!("{}: {run:?}", case.name));
        }
    }
    // Measured with parent inertia raised as Jolt does (session 48): every case 0 after 5 s,
    // drift at most 0.22%. Before it (16 substeps; speed = a body origin's travel over a step; Stabilize evening
    // each ragdoll's masses as Jolt does, `joint::mass_ratio::even`; sleeping): all six
    // settle. After 5 s: 365:1 0 (asleep before 5 s; 0.05% before sleeping), overlap 0.31%,
    // zero damping 0 (0.08%), 1° limits 0.35%, drive 100x 0.40%, heavy hand 0 (0.03%); in the
    // last second all 0 (at most 0.24% before sleeping). Before (each body clamped to its
    // new parent's mass, not its old ratio to it), the 365:1 case's sphere head, perched on a
    // shoulder after the collapse, rolled off it (9.7% at 6.2 s). Which case rolls on is
    // chaotic: before Stabilize added linear damping to bodies with only angular damping, the
    // head rolled off in the 100x-drive case instead.
    assert!(unsettled.is_empty(), "{unsettled:#?}");
}

/// The doctor's error of `check` on `doc` (panics, listing the findings, without one).
fn error_of(doc: &Document, check: Check) -> doctor::Finding {
    let findings = doctor::examine(doc);
    findings
        .iter()
        .find(|f| f.check == check && f.severity == Severity::Error)
        .cloned()
        .unwrap_or_else(|| panic!("no {check:?} error: {findings:#?}"))
}

/// A mass past what the simulation takes at the character's size is an error naming the bone
/// and a fix (at 1e12 kg a thigh had only the "share of the total" warning while `simulate`
/// refused the file); Stabilize sets it to the median body's, reports it, and the result
/// simulates.
#[test]
fn a_mass_the_simulation_refuses_is_an_error_and_stabilize_fixes_it() {
    let mut doc = Document::open(mannequin()).expect("mannequin");
    set(&mut doc, "thigh_l", Key::Mass, json!(1e12));
    assert!(Simulation::new(&doc, SimSettings::default()).is_err());
    let hit = error_of(&doc, Check::AbsurdMass);
    let thigh = doc.bone_by_name("thigh_l").unwrap();
    assert_eq!(hit.bones, vec![thigh]);
    assert!(
        hit.message.contains("thigh_l") && hit.message.contains("fix:"),
        "{}",
        hit.message
    );
    let fixed = doctor::stabilize(&doc, &StabilizeOptions::default());
    assert!(
        fixed
            .changes
            .iter()
            .any(|c| c.starts_with("thigh_l: mass 1.000e12")),
        "{:#?}",
        fixed.changes
    );
    doc.apply(&fixed.edit).expect("stabilize applies");
    let left = errors(&doc);
    assert!(left.is_empty(), "after Stabilize {left:#?}");
    let run = passive_run(&doc, 3.0);
    assert!(run.paused.is_none(), "{run:?}");
}

/// An inertia floor the simulation refuses (1e30 kg*m^2 on a thigh: cast to the solver's f32
/// it was infinite, the thigh could not turn, and nothing said so) is an error naming the key;
/// Stabilize removes it (and raises the thigh's inertia as a parent's again), and the result
/// simulates.
#[test]
fn an_inertia_floor_the_simulation_refuses_is_an_error_and_stabilize_removes_it() {
    let mut doc = Document::open(mannequin()).expect("mannequin");
    set(&mut doc, "thigh_l", Key::MinInertia, json!(1e30));
    assert!(Simulation::new(&doc, SimSettings::default()).is_err());
    let hit = error_of(&doc, Check::AbsurdSize);
    assert_eq!(hit.key, Key::MinInertia);
    assert!(hit.message.contains("min_inertia_kg_m2"), "{}", hit.message);
    let fixed = doctor::stabilize(&doc, &StabilizeOptions::default());
    assert!(
        (fixed.changes.iter()).any(|c| c.starts_with("thigh_l: min_inertia_kg_m2 removed")),
        "{:#?}",
        fixed.changes
    );
    doc.apply(&fixed.edit).expect("stabilize applies");
    assert!(errors(&doc).is_empty(), "{:#?}", errors(&doc));
    let run = passive_run(&doc, 3.0);
    assert!(run.paused.is_none(), "{run:?}");
}

/// A collider past the largest extent the solver takes is an error naming the bone, the key
/// and a fix; a capsule of radius 1e30 made the doctor's contact query panic (parry's EPA
/// indexed out of bounds), so `validate` crashed on the file.
#[test]
fn a_collider_too_large_to_simulate_is_an_error_not_a_panic() {
    for (key, value) in [(Key::Radius, json!(1e30)), (Key::HalfHeight, json!(1e9))] {
        let mut doc = Document::open(mannequin()).expect("mannequin");
        set(&mut doc, "thigh_l", key, value.clone());
        assert!(Simulation::new(&doc, SimSettings::default()).is_err());
        let hit = error_of(&doc, Check::AbsurdSize);
        assert_eq!(hit.bones, vec![doc.bone_by_name("thigh_l").unwrap()]);
        assert!(
            hit.message.contains("thigh_l") && hit.message.contains("fix:"),
            "{}",
            hit.message
        );
    }
}

/// Stabilize on a file without a ragdoll says so (it printed "0 change(s)").
#[test]
fn stabilize_says_when_there_is_no_ragdoll() {
    let bare = Document::open(shared_asset("CesiumMan/CesiumMan.glb")).expect("CesiumMan");
    let s = doctor::stabilize(&bare, &StabilizeOptions::default());
    assert_eq!(s.nothing, Some(doctor::NO_RAGDOLL), "{s:?}");
    assert!(s.changes.is_empty());
    let doc = Document::open(mannequin()).expect("mannequin");
    assert_eq!(
        doctor::stabilize(&doc, &StabilizeOptions::default()).nothing,
        None
    );
}

#[test]
fn stabilize_is_one_undo_step_and_files_without_the_keys_read_as_before() {
    // The mannequin with the material keys it ships (its damping) taken out: a file without
    // the new keys.
    let mut original = Document::open(mannequin()).expect("mannequin");
    let ids: Vec<_> = original.bone_ids().collect();
    for id in ids {
        if original.bone(id).physics.is_some() {
            let edit = Edit::Remove {
                target: original.bone_target(id),
                key: Key::AngularDamping.path().into(),
            };
            original.apply(&edit).expect("remove");
        }
    }
    for b in &original.bones {
        let m = b.physics.as_ref().map(|p| p.material).unwrap_or_default();
        assert_eq!(
            m,
            Default::default(),
            "{}: no material keys in the file",
            b.name
        );
    }
    let mut doc = original.clone();
    let fixed = doctor::stabilize(&doc, &StabilizeOptions::default());
    let undo = doc.apply(&fixed.edit).expect("applies");
    assert_ne!(doc.json(), original.json());
    doc.apply(&undo).expect("undo");
    assert_eq!(
        doc.json(),
        original.json(),
        "one undo step gives back the file"
    );
}

#[test]
fn a_disabled_pair_stops_contacts_and_an_enabled_jointed_pair_collides() {
    // Hung from nothing, a shin stated to collide with its thigh is pushed out of it at once.
    let contacts = |doc: &Document| {
        let mut sim = Simulation::new(doc, SimSettings::passive()).expect("sim");
        sim.step().expect("step");
        let (a, b) = (
            sim.body_handle("thigh_l").unwrap(),
            sim.body_handle("shin_l").unwrap(),
        );
        let w = sim.physics();
        let ca = w.bodies[a].colliders()[0];
        let cb = w.bodies[b].colliders()[0];
        w.narrow_phase
            .contact_pair(ca, cb)
            .is_some_and(|p| p.has_any_active_contact())
    };
    let mut doc = Document::open(mannequin()).expect("mannequin");
    assert!(!contacts(&doc), "jointed pairs do not collide by default");
    set(
        &mut doc,
        "shin_l",
        Key::CollisionPairs,
        json!({"thigh_l": true}),
    );
    assert!(contacts(&doc), "an enabled jointed pair collides");
    set(
        &mut doc,
        "thigh_l",
        Key::CollisionPairs,
        json!({"shin_l": false}),
    );
    assert!(!contacts(&doc), "stated both ways, false wins");
}

#[test]
fn every_generated_zoo_character_has_no_doctor_error_and_settles() {
    let files = zoo_files();
    assert!(files.len() >= 10, "the zoo: {files:?}");
    let (mut unsettled, mut moving_at_end) = (Vec::new(), Vec::new());
    for f in files {
        let mut doc = Document::open(&f).expect("open");
        let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
        doc.apply(&g.edit).expect("apply");
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let left = errors(&doc);
        assert!(left.is_empty(), "{name}: {left:#?}");
        let run = passive_run(&doc, 10.0);
        println!(
            "{name}: passive 10 s: late speed {:.4}% of height/s ({}, last second {:.4}%; linvel {:.4}%), drift {:.3}% ({}), pause {:?}",
            100.0 * run.late_speed_share, run.late_body, 100.0 * run.last_second_share, 100.0 * run.late_linvel_share, 100.0 * run.drift_share, run.drift_joint, run.paused
        );
        assert!(run.paused.is_none(), "{name}: {:?}", run.paused);
        if run.late_speed_share >= 0.01 {
            unsettled.push(format!("{name}: {run:?}"));
        }
        if run.last_second_share >= 0.01 {
            moving_at_end.push(name);
        }
    }
    // Measured: all 13 under 1% of their height per second after 5 s and in the last second.
    // Until session 37 the rat was over (its neck and head, balls resting on the ground,
    // turned about their one contact from about 3.5 s until a limit stopped them at 6.6 s:
    // Rapier resists no spin on a one-point contact); `sim::spin` gives a ball's contact a
    // patch's torsional friction. The history of these figures, each character's creep traced
    // and every cure tried with its counts (damping, sleep thresholds, friction models,
    // substeps, inertia floors, joint friction shares, rolling and torsional friction), is in
    // the README, "Stability doctor" (the settling sections) and "Settling on the Quaternius
    // animals".
    println!(
        "unsettled after 5 s: {unsettled:#?}\nstill moving in the last second: {moving_at_end:?}"
    );
    assert!(unsettled.is_empty(), "{unsettled:#?}");
    assert!(moving_at_end.is_empty(), "{moving_at_end:?}");
}

/// A character far outside its kind's heights in metres (a file in centimetres read as
/// metres: a giant 100 times too tall, falling as slowly as one) is a warning that names the
/// scale that fixes it, in `validate` and the editor alike; generate said it once and the
/// generated file of a 186-unit humanoid then validated clean.
#[test]
fn a_character_a_hundred_times_too_tall_is_told_the_scale_that_fixes_it() {
    let size = |doc: &Document| {
        let found = doctor::examine(doc);
        found
            .into_iter()
            .filter(|f| f.check == Check::ImplausibleSize)
            .collect::<Vec<_>>()
    };
    let plain = Document::open(mannequin()).expect("mannequin");
    assert!(size(&plain).is_empty(), "{:?}", size(&plain));
    for (scale, fix) in [(100.0, "by 0.01"), (0.01, "by 100")] {
        let node = json!({"name": "unit", "scale": [scale, scale, scale]});
        let doc = placed_glb(&mannequin(), node);
        let found = size(&doc);
        assert_eq!(found.len(), 1, "x{scale}: {found:?}");
        assert_eq!(found[0].severity, Severity::Warning);
        assert!(
            found[0].message.contains(fix),
            "x{scale}: {}",
            found[0].message
        );
    }
}
