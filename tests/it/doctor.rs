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

fn set(doc: &mut Document, bone: &str, key: Key, value: Value) {
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
    // Measured (16 substeps; speed = a body origin's travel over a step; Stabilize evening
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
    let zoo = root().join("../shared/assets/zoo");
    let mut files: Vec<_> = std::fs::read_dir(&zoo)
        .expect("zoo")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "glb" || x == "vrm"))
        .collect();
    files.sort();
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
    // With a quadruped's hip bone read as part of its pelvis, creature legs keeping joint
    // friction and accessories not weighing bodies (session 19): 1 of 13 faster than 1% after
    // 5 s, the rat 8.45% (Neck at 6.48 s: its head rolls slowly off its neck from 4.5 s,
    // speeding up, and comes to rest at 6.75 s; 0 in the last second; 0 before, its legs
    // without friction); the horse 0.32% (FF.R at 5.00 s), the other 11 0.16% at most.
    // With the horse's named `Head` as its head (the anatomy had taken its left ear, a
    // four-bone chain reaching farther, for the neck and head; now both ears are one body
    // each, alike): the horse 1.07% (its tail tip at 5.16 s; 0 in the last second), the
    // other 12 0 after 5 s. Why the horse (session 12, traced): Tail7's origin is the far end
    // of Tail6, which lies on the ground, sliding and sticking by turns, and turns at 0.15-0.17
    // rad/s, while the floored tip (3.7 kg at 3.98 kg*m^2, zeta 1.14 with its damping) sinks
    // off its end to the ground (touching at 5.5 s; asleep at 6.5 s). Probes, each a
    // simulation change alone, not adopted (the horse's late speed): damping of floored bodies
    // capped at a damping ratio of 1.2 / 1.0 / 0.9 / 0.8 / 0.7 / 0.6 / 0.5 / 0.3 of their
    // pendulum about the joint, 1.45 / 1.29 / 1.56 / 1.04 / 0.92 (0 of 13 over) / 2.12 /
    // 1.66 / 2.04%; raised to 1-3, 5 characters over each time; their angular damping x1.3 /
    // 1.6 / 2, 1.39 / 1.51 / 0.91% (the rat, the lumberjack over at x1.3 and x2); the floor
    // capped by a minimum pendulum frequency of 1.5-4 rad/s, the horse 0.59-43% and the
    // avocado over each time; the floor only as high as a 50:1 / 10:1 / 3:1 inertia ratio
    // needs, 5 / 2 / 3 over; a passive joint damper (zeta 0.3 / 0.6 / 1 of the subtree's
    // pendulum) on every ball joint with friction, 4 / 6 / 5 over. The horse has several
    // creeps near the bar (the tail, the front hooves, the neck and ears over a resting
    // head); every change picks which one is last (README, "The horse's tail, traced").
    // With the robot's head jointed to its neck (the generator passes over its skinless
    // `headtracker`) and joint friction: 1 of 13 faster than 1% after 5 s, the horse (12.35%,
    // an ear at 5.01 s; 0.84% in the last second, the only body moving then); the robot
    // settles (0% after 5 s), as do the other 11.
    // With joint friction (`constraint.friction_torque_nm`, Jolt's mMaxFrictionTorque; the
    // generator gives each non-stance joint 0.05 of its subtree's gravity load, see
    // `generate::drives::JOINT_FRICTION_SHARE`): 2 of 13 faster than 1% after 5 s, godot_robot
    // 3.95% (its head at 5.55 s; friction never took it under 3.6%: its head and vent are a
    // loose two-body piece, the rig parents `head` to `headtracker`, which has no body, so no
    // joint ties the head to the neck and no joint friction reaches it) and the horse 12.35% (its
    // head, an ear at 5.01 s; 0.84% in the last second, the most); the spider, mannequiny and
    // the lumberjack settle (0% after 5 s). Shares tried: 0.015 3, 0.02 2, 0.03 5 (the
    // lumberjack's hand 1.02% in the last second), 0.04 4, 0.05 2, 0.06 3, 0.08 4 (the horse
    // 1.09% in the last second), 0.1 3, 0.2 3; friction on stance joints too (0.02, 0.05) held
    // the standing mannequin up past its collapse budget. Before friction:
    // Re-measured after the generator took the doctor's mass, heavy-child and inertia rules
    // (joint::mass_ratio) and the lumberjack's axe became a held prop, with sleeping: 5 of 13
    // faster than 1% after 5 s (godot_robot 5.39%, its head at 5.91 s; the horse 3.86%, Neck2
    // at 6.78 s; the spider 2.97%, its abdomen at 6.07 s; mannequiny 1.60%, a hand at 5.83 s;
    // the lumberjack 1.08%, a hand at 5.15 s); the dragon 0.98%; nothing moves in the last
    // second but the robot's head (0.81%). The figures below are from before those changes.
    // Measured (speed = a body origin's travel over a step, see `Run`; 16 solver substeps),
    // with the generator's angular damping (4/s at 1.75 m, scaled with size), 0.15 of it as
    // linear damping on bodies that roll (spheres and capsules), Winter's head and neck split
    // 0.053 / 0.028, each limb whose masses come from volume evened as Jolt's Stabilize does
    // (neighbours within 0.8-1.2), and sleeping (`SimSettings::let_sleep`: a rag doll sleeps
    // once every body has stayed under 1% of its height per second at its farthest point for
    // 0.5 s, the bar this test judges by): 12 of 13 sleep by 8.7 s; the lumberjack, whose
    // arms creep at 0.7-0.8%, does not (0.78% in its last second, the most; every other 0).
    // 5 of 13 are still faster than 1% after 5 s, ending a collapse, a roll or a slow sag,
    // the same figures as before sleeping: the spider (8.5% at 5.65 s: it stands passively and
    // a front leg folds under it, its foot sliding, until 6 s), the lumberjack (7.4%, a foot
    // slipping at 5.0 s while it sits), godot_robot (4.8%, a foot at 5.0 s; its ball head rolls
    // back about its neck until 7 s), mannequiny's hand (1.6% at 5.8 s) and the dragon's nose
    // (1.3% at 5.3 s). Sleeping took the horse off (3.95%, its neck sliding at 7-8.5 s; it
    // now sleeps at 5.6 s, 0.47% after 5 s).
    // Tried with sleeping, none adopted: sleep thresholds of 1.7% (Jolt's 0.03 m/s), 3% and
    // 5.7% (Rapier's default) left the same 5, 3 and 3 (the spider, the lumberjack and the
    // robot are still collapsing at 5 s); angular damping 0.25-0.85 times with 0.15-1.0 of it
    // as linear damping on rolling bodies, 4-8 (heads rolled on; at 0.25-0.5 times something
    // still moved in the last second); Rapier's Coulomb friction model 8, friction in the
    // bias pass 5, no contact recycling 6, 24 or 32 substeps 4 (at 1.5-2 times the cost); a
    // rolling friction against the ground (an angular impulse up to 0.02-0.1 of the contact's
    // normal impulse times the lever) 6, 4 and 4 with bodies moving in the last second; the
    // inertia floor halved or doubled 7 and 8, global friction 0.6, 1.0 and 1.2 7, 5 and 4,
    // each with bodies moving in the last second. The robot was never under 1% at 5 s.
    // Before sleeping: 6 after 5 s and none in the last second (lumberjack 0.78%, mannequiny
    // 0.65%). Before the evening (spheres alone at 0.1 of the angular damping): 5 after 5 s
    // and 2 in the last second (the spider's light middle leg links, 0.23 kg between a 1.59 kg
    // thigh and a 0.44 kg foot, 7:1, jittering at their limits, 157% at 9.79 s; godot_robot's
    // leg 1.3%). These runs are chaotic: over the damping choices tried with the evening
    // (linear share 0, 0.1, 0.15, 0.25 and 0.5 on spheres, capsules or every body, angular
    // damping 1-3 times), 3-9 characters moved after 5 s and 0-5 in the last second; evening
    // humanoids' Winter limbs too gave 8 and 3.
    println!(
        "unsettled after 5 s: {unsettled:#?}\nstill moving in the last second: {moving_at_end:?}"
    );
    assert!(unsettled.len() <= 1, "{unsettled:#?}");
    assert!(moving_at_end.is_empty(), "{moving_at_end:?}");
}

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
