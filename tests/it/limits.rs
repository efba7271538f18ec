//! Asymmetric joint limits, checked from body poses with the shared joint math (not from the
//! simulation's telemetry): the solver holds the exact boundary, the gizmo draws it, and
//! `inspect` / `simulate --poses` let anyone check it from outside.

use crate::common;
use glam::{DMat4, DQuat, DVec3, Vec3};
use ragdoll_tuner::document::{BoneId, Document};
use ragdoll_tuner::joint::{self, JointLimits};
use ragdoll_tuner::render::gizmo::joint_segments;
use ragdoll_tuner::render::joint::joint_gizmo;
use ragdoll_tuner::render::Pose;
use ragdoll_tuner::sim::{SimSettings, Simulation};

fn mannequin() -> Document {
    Document::open(common::mannequin()).expect("mannequin opens")
}

/// The mannequin with one leg that touches nothing (its mask names no group), so that only
/// its joints act on it: with the pelvis pinned, the foot would otherwise drag on the ground,
/// and at large swings meet the other leg or a hand.
fn isolated_leg(side: &str) -> Document {
    let mut doc = mannequin();
    for b in ["thigh", "shin", "foot"] {
        let id = doc.bone_by_name(&format!("{b}_{side}")).expect("leg bone");
        let edit = ragdoll_tuner::document::Edit::Set {
            target: doc.bone_target(id),
            key: "collision_mask".into(),
            value: serde_json::json!("nothing"),
        };
        doc.apply(&edit).expect("mask edit");
    }
    doc
}

/// World matrices of every bone: rest, with the simulated bodies' poses where there are bodies.
fn posed(rest: &[DMat4], sim: &Simulation) -> Vec<DMat4> {
    let mut pose = rest.to_vec();
    for (id, p) in sim.body_poses() {
        pose[id.index()] =
            DMat4::from_rotation_translation(p.rotation.as_dquat(), p.translation.as_dvec3());
    }
    pose
}

/// The largest limit violation (deg) of every joint, from body poses.
pub fn violations_from_poses(
    doc: &Document,
    rest: &[DMat4],
    sim: &Simulation,
) -> Vec<(String, f64)> {
    let pose = posed(rest, sim);
    doc.bone_ids()
        .filter_map(|id| {
            let def = joint::resolve(doc, id)?;
            let (i, p) = (id.index(), def.parent.index());
            let q = def.relative_from_matrices(&rest[p], &rest[i], &pose[p], &pose[i]);
            let v = def.limits.measure(q).violation_rad.to_degrees();
            Some((doc.bone(id).name.clone(), v))
        })
        .collect()
}

/// Runs `steps` steps and returns the worst violation from poses (deg) and where.
pub fn worst_violation(
    doc: &Document,
    sim: &mut Simulation,
    steps: usize,
    mut before_step: impl FnMut(&mut Simulation, usize),
) -> (f64, String) {
    let rest = Pose::rest(doc).world_from_bone;
    let mut worst = (0.0, String::new());
    for k in 0..steps {
        before_step(sim, k);
        sim.step().expect("no guard pause");
        for (name, v) in violations_from_poses(doc, &rest, sim) {
            if v > worst.0 {
                worst = (v, name);
            }
        }
    }
    worst
}

fn still_settings() -> SimSettings {
    SimSettings {
        gravity_m_s2: Vec3::ZERO,
        ..SimSettings::passive()
    }
}

/// The world rotation of the hip's parent-side joint frame at rest, and the joint definition.
fn hip(doc: &Document, bone: &str) -> (BoneId, joint::JointDef, DQuat) {
    let id = doc.bone_by_name(bone).expect("thigh");
    let def = joint::resolve(doc, id).expect("the hip is a joint");
    let rest = Pose::rest(doc).world_from_bone;
    let rot = |m: &DMat4| m.to_scale_rotation_translation().1;
    let pfj = def.parent_from_joint(rot(&rest[def.parent.index()]), rot(&rest[id.index()]));
    let world = rot(&rest[def.parent.index()]) * pfj;
    (id, def, world)
}

/// A sustained 50 N*m torque drives the thigh into its asymmetric boundary toward 16
/// azimuths; from body poses it never goes more than 2 degrees past, and it reaches it.
#[test]
fn hip_held_at_the_boundary_in_16_directions_at_50_nm() {
    let doc = isolated_leg("l");
    let (id, def, frame_w) = hip(&doc, "thigh_l");
    let JointLimits::Ball { swing, .. } = &def.limits else {
        panic!("hip is a ball socket")
    };
    let pelvis = doc.bone_by_name("pelvis").expect("pelvis");
    let rest = Pose::rest(&doc).world_from_bone;
    let mut report = Vec::new();
    for k in 0..16 {
        let psi = k as f64 * std::f64::consts::TAU / 16.0;
        let toward = DVec3::new(0.0, psi.cos(), psi.sin());
        let torque_w = (frame_w * DVec3::X.cross(toward)).as_vec3() * 50.0;
        let mut sim = Simulation::new(&doc, still_settings()).expect("world builds");
        sim.set_pinned(pelvis, true).expect("pin");
        let (mut past, mut reached) = (0.0f64, 0.0f64);
        for step in 0..240 {
            let ramp = (step as f32 / 60.0).min(1.0);
            sim.set_external_torque("thigh_l", torque_w * ramp)
                .expect("torque");
            sim.step().expect("no guard pause");
            let pose = posed(&rest, &sim);
            let (i, p) = (id.index(), def.parent.index());
            let q = def.relative_from_matrices(&rest[p], &rest[i], &pose[p], &pose[i]);
            let m = def.limits.measure(q);
            past = past.max(m.violation_rad.to_degrees());
            reached = reached.max(m.limit_use);
        }
        report.push((psi.to_degrees(), past, reached));
    }
    println!(
        "hip at 50 N*m (boundary {:?} deg):",
        swing.extents_rad.map(f64::to_degrees)
    );
    for (az, past, reached) in &report {
        println!(
            "  azimuth {az:>5.1}: {past:.2} deg past, {:.0}% of the range",
            reached * 100.0
        );
    }
    for (az, past, reached) in report {
        assert!(past <= 2.0, "azimuth {az}: {past} deg past the boundary");
        assert!(
            reached >= 0.97,
            "azimuth {az}: never reached the boundary ({reached})"
        );
    }
}

/// Sampled along the drawn boundary: a thigh placed just inside it is left alone by the
/// solver; placed outside, it is brought back to within 1 degree of the drawn curve.
#[test]
fn solver_respects_the_drawn_boundary() {
    let doc = isolated_leg("r");
    let (id, def, frame_w) = hip(&doc, "thigh_r");
    let rest = Pose::rest(&doc).world_from_bone;
    let g = joint_gizmo(&doc, id, &rest, &rest).expect("gizmo");
    let mut segs = Vec::new();
    joint_segments(&g, &mut segs, 0.004);
    let origin = g.origin;
    // The rim's vertices, read back as directions in the joint frame.
    let rim: Vec<(f64, f64)> = segs[..72]
        .iter()
        .map(|s| {
            let d = (frame_w.inverse() * (s.a.as_dvec3() - origin)).normalize();
            (d.x.clamp(-1.0, 1.0).acos(), d.z.atan2(d.y))
        })
        .collect();
    let pelvis = doc.bone_by_name("pelvis").expect("pelvis");
    let subtree = ["thigh_r", "shin_r", "foot_r"];
    let mut worst_inside = 0.0f64;
    let mut worst_outside = 0.0f64;
    for &(drawn_tilt, psi) in rim.iter().step_by(6) {
        for (offset_deg, inside) in [(-1.0, true), (8.0, false)] {
            let tilt = (drawn_tilt + f64::to_radians(offset_deg)).max(0.0);
            let q = joint::swing_twist::compose(tilt, psi, 0.0);
            // Rotate the leg rigidly about the hip: world delta = frame * q * frame^-1.
            let delta = frame_w * q * frame_w.inverse();
            let mut sim = Simulation::new(&doc, still_settings()).expect("world builds");
            sim.set_pinned(pelvis, true).expect("pin");
            for b in subtree {
                let bid = doc.bone_by_name(b).expect("leg bone");
                let m = rest[bid.index()];
                let (_, r, t) = m.to_scale_rotation_translation();
                let t2 = origin + delta * (t - origin);
                let pose = rapier3d::prelude::Pose::from_parts(
                    t2.as_vec3(),
                    (delta * r).as_quat().normalize(),
                );
                sim.set_body_pose(b, pose).expect("pose");
            }
            for _ in 0..60 {
                sim.step().expect("no guard pause");
            }
            let pose = posed(&rest, &sim);
            let (i, p) = (id.index(), def.parent.index());
            let m = def
                .limits
                .measure(def.relative_from_matrices(&rest[p], &rest[i], &pose[p], &pose[i]));
            if inside {
                let moved = (m.tilt_rad - tilt).abs().to_degrees();
                worst_inside = worst_inside.max(moved);
                assert!(moved < 0.5, "inside at {psi}: moved {moved} deg");
            } else {
                let off = (m.tilt_rad - m.max_tilt_rad).to_degrees();
                worst_outside = worst_outside.max(off);
                assert!(
                    off <= 1.0,
                    "outside at {psi}: still {off} deg past the drawn curve"
                );
            }
        }
    }
    println!("inside moved at most {worst_inside:.3} deg; outside left at most {worst_outside:.3} deg past");
}

/// The scenarios the simulation work requires, with the new mannequin limits, checked from
/// body poses: standing, the 150 N*s shove with balance, and the passive collapse stay within
/// 2 degrees; the 600 N*s knock-down within 5.
#[test]
fn limits_hold_from_poses_in_the_mannequin_scenarios() {
    let doc = mannequin();
    let shove = |n_s: f32| {
        move |sim: &mut Simulation, k: usize| {
            if k == 240 {
                sim.apply_impulse("spine_upper", Vec3::new(n_s, 0.0, 0.0))
                    .expect("push");
            }
        }
    };
    let mut stand = Simulation::new(&doc, SimSettings::default()).expect("world");
    let (v, at) = worst_violation(&doc, &mut stand, 1200, |_, _| {});
    println!("stand 10 s: {v:.3} deg ({at})");
    assert!(v <= 2.0);
    assert!(stand.fell_at_s().is_none(), "stands");
    let mut shoved = Simulation::new(&doc, SimSettings::default()).expect("world");
    let (v, at) = worst_violation(&doc, &mut shoved, 720, shove(150.0));
    println!(
        "150 N*s with balance: {v:.3} deg ({at}), fell {:?}",
        shoved.fell_at_s()
    );
    assert!(v <= 2.0);
    assert!(shoved.fell_at_s().is_none(), "recovers");
    let mut passive = Simulation::new(&doc, SimSettings::passive()).expect("world");
    let (v, at) = worst_violation(&doc, &mut passive, 480, |_, _| {});
    println!(
        "passive collapse: {v:.3} deg ({at}), fell {:?}",
        passive.fell_at_s()
    );
    assert!(v <= 2.0);
    assert!(passive.fell_at_s().is_some(), "collapses");
    let mut knocked = Simulation::new(&doc, SimSettings::default()).expect("world");
    let (v, at) = worst_violation(&doc, &mut knocked, 720, shove(600.0));
    println!(
        "600 N*s knock-down: {v:.3} deg ({at}), fell {:?}",
        knocked.fell_at_s()
    );
    assert!(v <= 5.0);
    assert!(knocked.fell_at_s().is_some(), "knocked down");
}

/// `inspect --json` reports the resolved frame, limits and the sampled boundary.
#[test]
fn inspect_reports_resolved_frames_and_limits() {
    let out = common::ragdoll_tuner()
        .args(["inspect", common::path_str(&common::mannequin()), "--json"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let bone = |n: &str| {
        v["bones"]
            .as_array()
            .and_then(|b| b.iter().find(|b| b["name"] == n))
            .cloned()
            .expect("bone listed")
    };
    let hip = bone("thigh_l")["joint"].clone();
    assert_eq!(hip["type"], "ball_socket");
    assert_eq!(hip["swing_deg"]["pos_y"], 120.0);
    assert_eq!(hip["twist_deg"], serde_json::json!([-45.0, 45.0]));
    let b = hip["swing_boundary_deg"].as_array().expect("boundary");
    assert_eq!(b.len(), 72);
    assert!((b[0].as_f64().unwrap() - 120.0).abs() < 1e-6);
    assert!((b[36].as_f64().unwrap() - 15.0).abs() < 1e-6);
    let x: Vec<f64> = serde_json::from_value(hip["joint_frame"]["x"].clone()).expect("x");
    assert!(
        (x[1] + 1.0).abs() < 1e-9,
        "the thigh's axis points down: {x:?}"
    );
    let knee = bone("shin_l")["joint"].clone();
    assert_eq!(knee["hinge_deg"], serde_json::json!([0.0, 135.0]));
    assert_eq!(bone("pelvis")["joint"], serde_json::Value::Null);
}

/// `simulate --poses` writes every body at every step; the hip's limit checked from that CSV
/// alone (our joint math on the file's numbers) holds during a passive collapse.
#[test]
fn simulate_writes_poses_that_check_the_limits() {
    let dir = tempfile::tempdir().expect("temp");
    let csv = dir.path().join("poses.csv");
    let st = common::ragdoll_tuner()
        .args([
            "simulate",
            common::path_str(&common::mannequin()),
            "--passive",
            "--seconds",
            "2",
            "--poses",
            common::path_str(&csv),
        ])
        .status()
        .expect("runs");
    assert!(st.success());
    let text = std::fs::read_to_string(&csv).expect("csv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("step,time_s,bone,px,py,pz,qx,qy,qz,qw"));
    let doc = mannequin();
    let bodies = doc
        .bones
        .iter()
        .filter(|b| b.physics.as_ref().is_some_and(|p| p.collider.is_some()))
        .count();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), bodies * 241, "every body at steps 0..=240");
    let (id, def, _) = hip(&doc, "thigh_l");
    let rest = Pose::rest(&doc).world_from_bone;
    let rot_of = |row: &Vec<&str>| {
        let f = |i: usize| row[i].parse::<f64>().expect("number");
        DQuat::from_xyzw(f(6), f(7), f(8), f(9))
    };
    let mut worst = 0.0f64;
    for step in 0..=240 {
        let find = |name: &str| {
            rows.iter()
                .find(|r| r[0] == step.to_string() && r[2] == name)
                .map(rot_of)
                .expect("row")
        };
        let (pr, tr) = (find("pelvis"), find("thigh_l"));
        let rot = |m: &DMat4| m.to_scale_rotation_translation().1;
        let pfj = def.parent_from_joint(rot(&rest[def.parent.index()]), rot(&rest[id.index()]));
        let q = def.relative(pfj, pr, tr);
        worst = worst.max(def.limits.measure(q).violation_rad.to_degrees());
    }
    println!("hip from the poses CSV: worst {worst:.3} deg past");
    assert!(worst <= 2.0);
}

/// The inspector edits the four extents (labelled anatomically), keeps them equal under the
/// "circular" toggle, edits the twist range, and each edit reaches the running solver.
#[test]
fn inspector_edits_asymmetric_limits() {
    use egui_kittest::kittest::Queryable;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mannequin.glb");
    std::fs::copy(common::mannequin(), &path).expect("copy fixture");
    let mut h = crate::editor::harness(&path);
    h.run_steps(2);
    h.get_by_label("thigh_l").click();
    h.run_steps(2);
    h.get_by_label("Swing +Y: forward")
        .set_value_accesskit(100.0);
    h.run_steps(3);
    h.get_by_label("Twist min").set_value_accesskit(-20.0);
    h.run_steps(3);
    let swing_of = |h: &egui_kittest::Harness<'static, ragdoll_tuner::app::EditorApp>| {
        let st = &h.state().state;
        let id = st.doc.bone_by_name("thigh_l").expect("bone");
        match &st
            .doc
            .bone(id)
            .physics
            .as_ref()
            .and_then(|p| p.constraint.as_ref())
            .expect("joint")
            .kind
        {
            ragdoll_tuner::document::ConstraintKind::BallSocket {
                swing_limit_deg,
                twist_limit_deg,
                ..
            } => (*swing_limit_deg, *twist_limit_deg),
            other => panic!("{other:?}"),
        }
    };
    let (swing, twist) = swing_of(&h);
    assert_eq!(swing.to_array(), [100.0, 15.0, 30.0, 45.0]);
    assert_eq!((twist.min_deg, twist.max_deg), (-20.0, 45.0));
    let solver = h
        .state()
        .simulation()
        .and_then(|s| s.joint_limits("thigh_l"));
    let Some(JointLimits::Ball {
        swing: b,
        twist_min_rad,
        ..
    }) = solver
    else {
        panic!("the solver has the hip")
    };
    assert!((b.extents_rad[0].to_degrees() - 100.0).abs() < 1e-9);
    assert!((twist_min_rad.to_degrees() + 20.0).abs() < 1e-9);
    // Circular: the four become one number, the largest.
    h.get_by_label("Circular swing").click();
    h.run_steps(3);
    assert_eq!(swing_of(&h).0.as_circular(), Some(100.0));
    assert!(h.query_by_label("Swing limit").is_some(), "one slider now");
}

/// Bones sharing a name (four cats in one file: four `Head`s, three `Pelvis`es) are told apart
/// in the poses CSV as `validate` tells them apart (`node<index>` for all but the first):
/// every row of a step names a different body; a reader keyed by name had read one body's
/// path as jumps of 1,078 units per second between two cats.
#[test]
fn poses_name_every_body_apart_when_bones_share_a_name() {
    let dir = tempfile::tempdir().expect("temp");
    let mut bones = crate::generate::fixtures::humanoid();
    for b in &mut bones {
        if b.name.ends_with("UpLeg") {
            b.name = "thigh".into();
        }
    }
    let input = dir.path().join("twins.glb");
    let glb = crate::generate::fixtures::glb(&bones, crate::generate::fixtures::Build::default());
    std::fs::write(&input, glb).expect("write");
    let out = dir.path().join("out.glb");
    let (code, _, err) = crate::generate::generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{err}");
    let csv = dir.path().join("poses.csv");
    let st = common::ragdoll_tuner()
        .args([
            "simulate",
            common::path_str(&out),
            "--passive",
            "--seconds",
            "0.05",
        ])
        .args(["--poses", common::path_str(&csv)])
        .status()
        .expect("runs");
    assert!(st.success());
    let text = std::fs::read_to_string(&csv).expect("csv");
    let rest: Vec<&str> = (text.lines().skip(1))
        .filter(|l| l.starts_with("0,"))
        .map(|l| l.split(',').nth(2).expect("bone"))
        .collect();
    let mut unique = rest.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), rest.len(), "{rest:?}");
    // The first keeps the name (as `Document::bone_ref` resolves it back), the other is
    // `node<index>`.
    assert_eq!(
        rest.iter().filter(|&&b| b == "thigh").count(),
        1,
        "{rest:?}"
    );
    assert_eq!(
        rest.iter().filter(|b| b.starts_with("node")).count(),
        1,
        "{rest:?}"
    );
}
