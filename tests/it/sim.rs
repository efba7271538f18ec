//! The simulation layer on the real mannequin and the real Rapier world.

use crate::common;
use glam::Vec3;
use ragdoll_tuner::document::{Document, Edit};
use ragdoll_tuner::sim::{FrameRing, JointLimits, SimSettings, Simulation};
use serde_json::json;

fn mannequin() -> Document {
    Document::open(common::mannequin()).unwrap()
}

#[derive(Debug)]
#[allow(dead_code)] // printed with {:?}
struct Outcome {
    fell_at_s: Option<f64>,
    max_tilt_deg: f32,
    min_pelvis_ratio: f32,
    final_tilt_deg: f32,
    max_violation_deg: f32,
    worst_joint: String,
    max_off_axis_deg: f32,
}

fn outcome(sim: &Simulation) -> Outcome {
    let t = sim.telemetry();
    let (mut v, mut w, mut off) = (0.0f32, String::new(), 0.0f32);
    for (name, s) in t.joint_names.iter().zip(&t.joint_stats) {
        if s.max_violation_deg > v {
            v = s.max_violation_deg;
            w = name.clone();
        }
        off = off.max(s.max_off_axis_deg);
    }
    Outcome {
        fell_at_s: sim.fell_at_s(),
        max_tilt_deg: t.max_torso_tilt_deg,
        min_pelvis_ratio: t.min_pelvis_height_ratio,
        final_tilt_deg: t.body.latest().map_or(0.0, |b| b[0].torso_tilt_deg),
        max_violation_deg: v,
        worst_joint: w,
        max_off_axis_deg: off,
    }
}

/// Runs `seconds` with an optional shove (N*s, world) on `spine_upper` at `t`.
fn run(settings: SimSettings, seconds: f64, shove: Option<(f64, Vec3)>) -> (Simulation, Outcome) {
    let doc = mannequin();
    let mut sim = Simulation::new(&doc, settings).unwrap();
    let mut shoved = false;
    let steps = (seconds * 120.0).round() as usize;
    for _ in 0..steps {
        if let Some((t, j)) = shove {
            if !shoved && sim.time_s() >= t - 1e-5 {
                sim.apply_impulse("spine_upper", j).unwrap();
                shoved = true;
            }
        }
        sim.step().unwrap();
    }
    let o = outcome(&sim);
    (sim, o)
}

#[test]
fn sim_collision_groups_are_stable_and_documented() {
    let doc = mannequin();
    let sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    let e = sim.groups().entries();
    let names: Vec<(&str, u32)> = e.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    assert_eq!(
        names,
        vec![
            ("world", 0),
            ("arm_l", 1),
            ("arm_r", 2),
            ("leg_l", 3),
            ("leg_r", 4),
            ("torso", 5)
        ]
    );
    assert_eq!(sim.groups().mask("all"), u32::MAX);
    assert_eq!(sim.groups().mask("world,torso"), 0b100001);
}

#[test]
fn sim_stands_10_s_and_recovers_from_150_n_s() {
    let (_, o) = run(SimSettings::default(), 10.0, None);
    println!("stand 10 s: {o:?}");
    assert!(o.fell_at_s.is_none());
    assert!(o.max_tilt_deg < 15.0, "{o:?}");
    assert!(o.min_pelvis_ratio > 0.7, "{o:?}");
    assert!(o.max_violation_deg <= 2.0, "{o:?}");
    for dir in [Vec3::X, Vec3::Z, -Vec3::X, -Vec3::Z] {
        let (_, o) = run(SimSettings::default(), 8.0, Some((2.0, dir * 150.0)));
        println!("balance, 150 N*s {dir:?}: {o:?}");
        assert!(o.fell_at_s.is_none(), "{o:?}");
        assert!(o.final_tilt_deg < 15.0, "{o:?}");
        assert!(o.max_violation_deg <= 2.0, "{o:?}");
    }
}

#[test]
fn sim_falls_without_balance_and_collapses_passive() {
    let no_balance = SimSettings {
        balance: false,
        ..SimSettings::default()
    };
    for dir in [Vec3::X, Vec3::Z] {
        let (_, o) = run(no_balance.clone(), 6.0, Some((2.0, dir * 150.0)));
        println!("no balance, 150 N*s {dir:?}: {o:?}");
        assert!(o.fell_at_s.is_some(), "{o:?}");
    }
    let (_, o) = run(SimSettings::passive(), 3.0, None);
    println!("passive: {o:?}");
    assert!(o.fell_at_s.is_some_and(|t| t <= 2.0), "{o:?}");
    assert!(o.max_violation_deg <= 2.0, "{o:?}");
}

#[test]
fn sim_knocked_down_by_600_n_s_within_5_deg() {
    for dir in [Vec3::X, Vec3::Z, -Vec3::Z] {
        let (_, o) = run(SimSettings::default(), 5.0, Some((2.0, dir * 600.0)));
        println!("balance, 600 N*s {dir:?}: {o:?}");
        assert!(o.fell_at_s.is_some(), "{o:?}");
        assert!(o.max_violation_deg <= 5.0, "{o:?}");
    }
}

/// Drives one joint into its limits with large torques (equal and opposite on child and
/// parent, ramped up over 0.5 s then held, no gravity, no drives) and returns (max violation, max off-axis) in degrees.
fn drive_into_limits(child: &str, parent: &str, torques: &[Vec3]) -> (f32, f32) {
    let doc = mannequin();
    let s = SimSettings {
        gravity_m_s2: Vec3::ZERO,
        ..SimSettings::passive()
    };
    let mut sim = Simulation::new(&doc, s).unwrap();
    let i = sim
        .telemetry()
        .joint_names
        .iter()
        .position(|n| n == child)
        .unwrap();
    for &tau in torques {
        let mut phase_max = 0.0f32;
        let mut phase_use = 0.0f32;
        let mut worst = Default::default();
        for k in 0..180 {
            // Ramped over 0.5 s, then held: the joint is pressed into its limit, not slammed.
            let ramp = (k as f32 / 60.0).min(1.0);
            sim.set_external_torque(child, tau * ramp).unwrap();
            sim.set_external_torque(parent, -tau * ramp).unwrap();
            sim.step().unwrap();
            let s = sim.telemetry().joints.latest().unwrap()[i];
            if s.violation_deg > phase_max {
                phase_max = s.violation_deg;
                worst = s;
            }
            phase_use = phase_use.max(s.limit_use_pct);
        }
        println!("  {child} torque {tau:?} N*m: max violation {phase_max:.3} deg, max limit use {phase_use:.0}%; worst sample {worst:?}");
    }
    let t = sim.telemetry();
    let st = t.joint_stats[i];
    let last = t.joints.latest().unwrap()[i];
    println!(
        "{child}: max violation {:.3} deg, max off-axis {:.3} deg, last {last:?}",
        st.max_violation_deg, st.max_off_axis_deg
    );
    assert!(
        t.joints.iter().any(|f| f[i].limit_use_pct >= 99.0),
        "{child} never reached its limit"
    );
    (st.max_violation_deg, st.max_off_axis_deg)
}

#[test]
fn sim_joint_limits_hold_under_large_torques() {
    // Hinge (knee, axis +X): bend, straighten, twist and bend sideways.
    let knee = [
        Vec3::X * 300.0,
        -Vec3::X * 300.0,
        Vec3::new(150.0, 0.0, 300.0),
        Vec3::new(0.0, 300.0, 0.0),
    ];
    let (v, off) = drive_into_limits("shin_l", "thigh_l", &knee);
    assert!(
        v <= 2.0 && off <= 2.0,
        "knee: violation {v}, off-axis {off}"
    );
    // Elbow hinge.
    let (v, off) = drive_into_limits(
        "forearm_l",
        "upper_arm_l",
        &[-Vec3::X * 150.0, Vec3::X * 150.0, Vec3::Z * 150.0],
    );
    assert!(
        v <= 2.0 && off <= 2.0,
        "elbow: violation {v}, off-axis {off}"
    );
    // Ball sockets: swing both ways, twist both ways, swing + twist.
    let ball = [
        Vec3::Z * 300.0,
        Vec3::X * 300.0,
        Vec3::Y * 200.0,
        -Vec3::Y * 200.0,
        Vec3::new(200.0, 150.0, 200.0),
    ];
    let (v, _) = drive_into_limits("upper_arm_l", "spine_upper", &ball);
    assert!(v <= 2.0, "shoulder: violation {v}");
    let (v, _) = drive_into_limits("thigh_r", "pelvis", &ball);
    assert!(v <= 2.0, "hip: violation {v}");
    let (v, _) = drive_into_limits("head", "neck", &ball.map(|t| t * 0.3));
    assert!(v <= 2.0, "head: violation {v}");
}

#[test]
fn sim_live_knee_limit_edit_holds_from_then_on() {
    let mut doc = mannequin();
    let s = SimSettings {
        gravity_m_s2: Vec3::ZERO,
        ..SimSettings::passive()
    };
    let mut sim = Simulation::new(&doc, s).unwrap();
    let handle = sim.body_handle("shin_l").unwrap();
    sim.set_external_torque("shin_l", Vec3::X * 200.0).unwrap();
    sim.set_external_torque("thigh_l", -Vec3::X * 200.0)
        .unwrap();
    let knee = |sim: &Simulation| {
        let t = sim.telemetry();
        let i = t.joint_names.iter().position(|n| n == "shin_l").unwrap();
        t.joints.latest().unwrap()[i].twist_deg
    };
    for _ in 0..120 {
        sim.step().unwrap();
    }
    let before = knee(&sim);
    assert!(
        before > 120.0,
        "the knee bends to its 135 deg limit first: {before}"
    );
    let id = doc.bone_by_name("shin_l").unwrap();
    doc.apply(&Edit::Set {
        target: doc.bone_target(id),
        key: "constraint.limit_max_deg".into(),
        value: json!(60.0),
    })
    .unwrap();
    let t_edit = sim.time_s();
    assert!(sim.sync(&doc).unwrap() >= 1);
    assert_eq!(
        sim.joint_limits("shin_l"),
        Some(JointLimits::Hinge {
            min_rad: 0.0,
            max_rad: 60f64.to_radians()
        })
    );
    let mut worst_after_settle = 0.0f32;
    let mut settle_s = None;
    for k in 0..240 {
        sim.step().unwrap();
        let a = knee(&sim);
        if settle_s.is_none() && a <= 62.0 {
            settle_s = Some(k as f64 / 120.0);
        }
        if settle_s.is_some() {
            worst_after_settle = worst_after_settle.max(a);
        }
    }
    println!("knee {before:.1} deg before the edit; back inside 60+2 deg after {settle_s:?} s; worst after that {worst_after_settle:.2} deg");
    assert!(settle_s.is_some_and(|t| t < 0.5));
    assert!(worst_after_settle <= 62.0);
    assert_eq!(
        sim.body_handle("shin_l"),
        Some(handle),
        "bodies are not rebuilt"
    );
    assert!(sim.time_s() > t_edit + 1.9, "time continues");
    // An unchanged document is a no-op; a settings change applies at the next step.
    assert_eq!(sim.sync(&doc).unwrap(), 0);
    sim.settings_mut().gravity_m_s2 = Vec3::new(0.0, -9.81, 0.0);
    sim.step().unwrap();
    assert_eq!(sim.physics().gravity, Vec3::new(0.0, -9.81, 0.0));
}

#[test]
fn sim_live_edits_of_mass_size_gains_and_balance() {
    let mut doc = mannequin();
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    for _ in 0..60 {
        sim.step().unwrap();
    }
    let handle = sim.body_handle("head").unwrap();
    for (bone, key, value) in [
        ("head", "mass", json!(6.0)),
        ("head", "radius", json!(0.12)),
        ("thigh_l", "drive.stiffness", json!(1800.0)),
        ("upper_arm_l", "constraint.swing_limit_deg", json!(80.0)),
        (
            "forearm_l",
            "constraint.hinge_axis",
            json!([-1.0, 0.0, 0.1]),
        ),
    ] {
        let id = doc.bone_by_name(bone).unwrap();
        doc.apply(&Edit::Set {
            target: doc.bone_target(id),
            key: key.into(),
            value,
        })
        .unwrap();
    }
    doc.apply(&Edit::Set {
        target: ragdoll_tuner::document::EditTarget::Document,
        key: "balance.upright_kp".into(),
        value: json!(3500.0),
    })
    .unwrap();
    let changed = sim.sync(&doc).unwrap();
    assert!(changed >= 5, "{changed}");
    sim.step().unwrap();
    let rb = &sim.physics().bodies[handle];
    assert!((rb.mass() - 6.0).abs() < 1e-4, "{}", rb.mass());
    for _ in 0..240 {
        sim.step().unwrap();
    }
    assert!(sim.fell_at_s().is_none());
    // A bad value is refused and the world keeps running.
    let id = doc.bone_by_name("hand_l").unwrap();
    doc.apply(&Edit::Set {
        target: doc.bone_target(id),
        key: "mass".into(),
        value: json!(1e12),
    })
    .unwrap();
    let e = sim.sync(&doc).unwrap_err();
    assert!(e.to_string().contains("hand_l"), "{e}");
    sim.step().unwrap();
}

#[test]
fn sim_is_deterministic_bit_for_bit() {
    let csv = |_| {
        let (sim, _) = run(
            SimSettings::default(),
            3.0,
            Some((1.0, Vec3::new(300.0, 0.0, 200.0))),
        );
        let mut out = Vec::new();
        sim.telemetry().write_csv(&mut out).unwrap();
        (out, sim.state_hash())
    };
    let (a, ha) = csv(0);
    let (b, hb) = csv(1);
    assert_eq!(ha, hb);
    assert!(a == b, "telemetry differs between identical runs");
}

#[test]
fn sim_nan_or_runaway_pauses_naming_the_bone() {
    let doc = mannequin();
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    sim.step().unwrap();
    sim.set_body_velocity("hand_l", Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO)
        .unwrap();
    let p = sim.step().unwrap_err();
    println!("{p}");
    assert_eq!(p.bone, "hand_l");
    assert!(p.to_string().contains("hand_l") && p.to_string().contains("non-finite"));
    assert!(sim.step().is_err(), "stays paused");
    // Runaway velocity.
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    sim.set_body_velocity("head", Vec3::new(0.0, 5000.0, 0.0), Vec3::ZERO)
        .unwrap();
    let p = sim.step().unwrap_err();
    assert_eq!(p.bone, "head");
    // An absurd (but accepted) mass ratio never panics: it runs or pauses naming a bone.
    let mut doc = mannequin();
    let id = doc.bone_by_name("hand_r").unwrap();
    doc.apply(&Edit::Set {
        target: doc.bone_target(id),
        key: "mass".into(),
        value: json!(5e8),
    })
    .unwrap();
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    for _ in 0..240 {
        if let Err(p) = sim.step() {
            println!("absurd mass: {p}");
            assert!(!p.bone.is_empty());
            break;
        }
    }
}

#[test]
fn sim_telemetry_ring_is_bounded_and_exports_csv() {
    let mut ring: FrameRing<u32> = FrameRing::new(2, 5);
    for k in 0..12u32 {
        ring.push_frame().copy_from_slice(&[k, k * 10]);
    }
    assert_eq!(ring.len(), 5);
    assert_eq!(ring.frame(0), Some(&[7, 70][..]));
    assert_eq!(ring.latest(), Some(&[11, 110][..]));
    let doc = mannequin();
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    assert!(
        sim.telemetry().joints.capacity() >= 2400,
        "at least 20 s at 120 Hz"
    );
    for _ in 0..30 {
        sim.step().unwrap();
    }
    let mut out = Vec::new();
    sim.telemetry().write_csv(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 31);
    assert!(lines[0].starts_with("step,time_s,torso_tilt_deg,com_height_m,pelvis_height_ratio,foot_l.grounded,foot_r.grounded"));
    assert!(lines[0].contains("shin_l.violation_deg"));
    let cols = lines[0].split(',').count();
    assert!(lines.iter().all(|l| l.split(',').count() == cols));
    let last = sim.telemetry().body.latest().unwrap()[0];
    assert_eq!(last.grounded_feet, 0b11, "both feet on the ground");
    assert!(last.com_height_m > 0.8 && last.com_height_m < 1.2);
}

#[test]
fn sim_cli_simulate_prints_the_json_report_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let out = common::ragdoll_tuner()
        .args([
            "simulate",
            common::path_str(&common::mannequin()),
            "--seconds",
            "1",
            "--push",
            "spine_upper:50,0,0@0.5",
        ])
        .args([
            "--set",
            "shin_l.constraint.limit_max_deg=120",
            "--json",
            "--csv",
            common::path_str(&csv),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["steps"], 120);
    assert_eq!(v["fell"], false);
    assert!(v["fell_at_s"].is_null());
    for key in [
        "seconds",
        "max_torso_tilt_deg",
        "min_pelvis_height_ratio",
        "wall_ms",
    ] {
        assert!(v[key].is_number(), "{key}: {v}");
    }
    let joints = v["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 17);
    let shin = joints.iter().find(|j| j["name"] == "shin_l").unwrap();
    for key in ["rms_error_deg", "max_error_deg", "max_limit_violation_deg"] {
        assert!(shin[key].is_number());
    }
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 121);
    // A malformed push is a clear error (exit 2).
    let out = common::ragdoll_tuner()
        .args([
            "simulate",
            common::path_str(&common::mannequin()),
            "--push",
            "spine_upper:50,0@1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("BONE:X,Y,Z@T"));
}
