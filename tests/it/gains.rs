//! Gains a person can read and the outside help balance gets: the inertia a joint's drive
//! moves (against hand-computed values), f/ζ <-> k/c through the inspector, and the external
//! assist measured from the upright joint (against kp·θ on a pushed mannequin).

use crate::common;
use crate::editor::harness;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use ragdoll_tuner::app::EditorApp;
use ragdoll_tuner::document::{ColliderShape, Document};
use ragdoll_tuner::joint::inertia::{self, shape_moments};
use ragdoll_tuner::joint::{joint_inertia, Gains, Natural};
use ragdoll_tuner::sim::{SimSettings, Simulation};
use rapier3d::parry::mass_properties::MassProperties;
use rapier3d::prelude::Vector;
use serde_json::json;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}

/// The editor on a copy of the bundled mannequin in `dir` (edits may save), a few frames in.
fn editor_on_a_mannequin_copy(dir: &std::path::Path) -> Harness<'static, EditorApp> {
    let path = dir.join("mannequin.glb");
    std::fs::copy(common::mannequin(), &path).unwrap();
    let mut h = harness(&path);
    h.run_steps(3);
    h
}

/// Opens the Balance panel by its header (the other "Balance" is the simulation's checkbox).
fn open_balance_panel(h: &mut Harness<'static, EditorApp>) {
    h.get_all_by_label("Balance")
        .find(|n| n.accesskit_node().role() != egui::accesskit::Role::CheckBox)
        .expect("the Balance header")
        .click();
    h.run_steps(3);
}

/// upper (sphere r 0.1, 1 kg, at y = 1) -> lower (hinge about Z at x 0.5; box 0.1 x 0.2 x 0.3
/// half extents, 2 kg, centred 0.3 further along X) -> tip (ball socket at x 1.1; sphere
/// r 0.05, 0.5 kg, centred on the joint).
fn chain() -> (tempfile::TempDir, std::path::PathBuf) {
    let nodes = json!([
        {"name": "upper", "translation": [0.0, 1.0, 0.0], "children": [1],
         "extras": {"physics": {"collider": "sphere", "radius": 0.1, "mass": 1.0,
            "offset": {"translation": [0.0, 0.0, 0.0]}}}},
        {"name": "lower", "translation": [0.5, 0.0, 0.0], "children": [2],
         "extras": {"physics": {"collider": "box", "half_extents": [0.1, 0.2, 0.3], "mass": 2.0,
            "offset": {"translation": [0.3, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0, 1.0]},
            "constraint": {"type": "hinge", "parent_bone": "upper", "hinge_axis": [0.0, 0.0, 1.0]}}}},
        {"name": "tip", "translation": [0.6, 0.0, 0.0],
         "extras": {"physics": {"collider": "sphere", "radius": 0.05, "mass": 0.5,
            "offset": {"translation": [0.0, 0.0, 0.0]},
            "constraint": {"type": "ball_socket", "parent_bone": "lower"}}}}
    ]);
    common::write_gltf(&common::gltf_with_nodes(nodes))
}

#[test]
fn gains_inertia_of_a_chain_by_hand() {
    let (_dir, path) = chain();
    let doc = Document::open(&path).unwrap();
    let id = |n: &str| doc.bone_by_name(n).unwrap();
    // Tip: a ball socket at the sphere's centre: 2/5 m r^2 on every axis.
    let tip = 0.4 * 0.5 * 0.05 * 0.05;
    assert!(close(joint_inertia(&doc, id("tip")).unwrap(), tip, 1e-6));
    // Lower, about Z through x = 0.5: the box's own m/3 (hx^2 + hy^2) + m 0.3^2, and the tip's
    // own + m 0.6^2.
    let boxed = 2.0 / 3.0 * (0.01 + 0.04) + 2.0 * 0.09;
    let lower = boxed + tip + 0.5 * 0.36;
    let got = joint_inertia(&doc, id("lower")).unwrap();
    assert!(close(got, lower, 1e-6), "{got} vs {lower}");
    assert!(
        joint_inertia(&doc, id("upper")).is_none(),
        "no joint, no inertia"
    );
    assert_eq!(inertia::subtree(&doc, id("lower")).len(), 2);
}

#[test]
fn gains_shape_moments_match_parry() {
    let (r, h, m) = (0.05f64, 0.2f64, 1.3f64);
    let capsule = ColliderShape::Capsule {
        radius: r,
        half_height: h,
    };
    let vol = std::f64::consts::PI * r * r * (2.0 * h + 4.0 / 3.0 * r);
    let a = Vector::new(0.0, -h as f32, 0.0);
    let b = Vector::new(0.0, h as f32, 0.0);
    let p = MassProperties::from_capsule((m / vol) as f32, a, b, r as f32).principal_inertia();
    let ours = shape_moments(&capsule, m);
    for (x, y) in [(ours.x, p.x), (ours.y, p.y), (ours.z, p.z)] {
        assert!(close(x, y as f64, 1e-4), "capsule {ours} vs parry {p:?}");
    }
    let cube = shape_moments(
        &ColliderShape::Box {
            half_extents: [0.1, 0.2, 0.3],
        },
        m,
    );
    let p = MassProperties::from_cuboid(
        (m / (8.0 * 0.1 * 0.2 * 0.3)) as f32,
        Vector::new(0.1, 0.2, 0.3),
    )
    .principal_inertia();
    assert!(close(cube.x, p.x as f64, 1e-4) && close(cube.z, p.z as f64, 1e-4));
    // Natural <-> gains round trip.
    let g = Gains {
        stiffness: 400.0,
        damping: 12.0,
    };
    let n = g.natural(0.3);
    let back = n.gains(0.3);
    assert!(close(back.stiffness, 400.0, 1e-12) && close(back.damping, 12.0, 1e-12));
    let n2 = Natural {
        freq_hz: 2.0,
        damping_ratio: 1.0,
    }
    .gains(0.5);
    assert!(close(
        n2.stiffness,
        0.5 * (4.0 * std::f64::consts::PI).powi(2),
        1e-12
    ));
}

fn drive_of(doc: &Document, bone: &str) -> (f64, f64) {
    let d = doc
        .bone(doc.bone_by_name(bone).unwrap())
        .physics
        .as_ref()
        .and_then(|p| p.drive)
        .unwrap();
    (d.stiffness, d.damping)
}

#[test]
fn gains_frequency_and_ratio_rows_edit_stiffness_and_damping() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_on_a_mannequin_copy(dir.path());
    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    let doc = &h.state().state.doc;
    let i = joint_inertia(doc, doc.bone_by_name("forearm_l").unwrap()).unwrap();
    let (k0, c0) = drive_of(doc, "forearm_l");
    let z0 = Gains {
        stiffness: k0,
        damping: c0,
    }
    .natural(i)
    .damping_ratio;

    h.get_by_label("Frequency").set_value_accesskit(3.0);
    h.run_steps(3);
    let (k, c) = drive_of(&h.state().state.doc, "forearm_l");
    let w = std::f64::consts::TAU * 3.0;
    assert!(close(k, i * w * w, 1e-6), "k {k} vs {}", i * w * w);
    assert!(close(c, 2.0 * i * z0 * w, 1e-6), "ζ kept: c {c}");

    h.get_by_label("Damping ratio").set_value_accesskit(0.7);
    h.run_steps(3);
    let (k2, c2) = drive_of(&h.state().state.doc, "forearm_l");
    assert!(close(k2, k, 1e-9), "f kept");
    assert!(close(c2, 2.0 * i * 0.7 * w, 1e-6), "c {c2}");

    // Editing the stiffness shows as the frequency.
    h.get_by_label("Stiffness").set_value_accesskit(100.0);
    h.run_steps(3);
    let f = h
        .get_by_label("Frequency")
        .accesskit_node()
        .numeric_value()
        .unwrap();
    let want = (100.0 / i).sqrt() / std::f64::consts::TAU;
    assert!((f - want).abs() < 1e-3, "f {f} vs {want}");

    // One f edit is one undo step and restores both keys.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(drive_of(&h.state().state.doc, "forearm_l"), (k0, c0));
}

#[test]
fn gains_balance_frequency_rows_edit_kp_and_kd() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_on_a_mannequin_copy(dir.path());
    let i = inertia::whole_body_about_ground(&h.state().state.doc).unwrap();
    // A 77 kg mannequin with its centre of mass about 1 m up: I is near m·h².
    assert!((50.0..150.0).contains(&i), "I about the ground {i}");
    eprintln!("whole body about the ground: I = {i:.2} kg·m²");
    open_balance_panel(&mut h);
    h.get_by_label("Upright frequency").set_value_accesskit(1.5);
    h.run_steps(3);
    let b = &h.state().state.doc.balance;
    let w = std::f64::consts::TAU * 1.5;
    assert!(close(b.upright_kp, i * w * w, 1e-6), "kp {}", b.upright_kp);
}

/// The push steps are sized for is a row of the Balance panel: set there, it is the file's
/// `step_catch_dv`, and one undo takes it back to none (0).
#[test]
fn the_balance_panel_sizes_the_steps() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_on_a_mannequin_copy(dir.path());
    open_balance_panel(&mut h);
    assert_eq!(h.state().state.doc.balance.step_catch_dv, 0.0);
    h.get_by_label("Step catches up to (0: any)")
        .set_value_accesskit(1.04);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.balance.step_catch_dv, 1.04);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.balance.step_catch_dv, 0.0);
}

/// Where steps land is a row of the Balance panel too: set there, it is the file's
/// `step_rest_stance`, a value past its range is held at the range's end, and one undo takes
/// it back to the lifted foot's offset (0).
#[test]
fn the_balance_panel_squares_the_steps() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_on_a_mannequin_copy(dir.path());
    open_balance_panel(&mut h);
    assert_eq!(h.state().state.doc.balance.step_rest_stance, 0.0);
    h.get_by_label("Steps square the stance (0-1)")
        .set_value_accesskit(0.5);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.balance.step_rest_stance, 0.5);
    h.get_by_label("Steps square the stance (0-1)")
        .set_value_accesskit(2.0);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.balance.step_rest_stance, 1.0);
    for _ in 0..2 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.run_steps(3);
    }
    assert_eq!(h.state().state.doc.balance.step_rest_stance, 0.0);
}

/// The knock-out is a row of the Balance panel: set there, it is the file's `knockout_dv`,
/// and one undo takes it back to never (0).
#[test]
fn the_balance_panel_sets_the_knockout() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_on_a_mannequin_copy(dir.path());
    open_balance_panel(&mut h);
    assert_eq!(h.state().state.doc.balance.knockout_dv, 0.0);
    h.get_by_label("Knocked out above (0: never)")
        .set_value_accesskit(0.87);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.balance.knockout_dv, 0.87);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(h.state().state.doc.balance.knockout_dv, 0.0);
}

/// The upright controller's torque measured on a pushed mannequin, against kp·θ at the peak
/// tilt (where the tilt rate, and with it the kd term, is about 0).
#[test]
fn gains_assist_torque_matches_kp_theta() {
    let doc = Document::open(common::mannequin()).unwrap();
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    assert!(sim.assist_measured());
    while sim.time_s() < 2.0 {
        sim.step().unwrap();
    }
    sim.apply_impulse("spine_upper", glam::Vec3::new(150.0, 0.0, 0.0))
        .unwrap();
    while sim.time_s() < 4.0 {
        sim.step().unwrap();
    }
    let t = sim.telemetry();
    let peak = t
        .body
        .iter()
        .map(|f| f[0])
        .max_by(|a, b| a.torso_tilt_deg.total_cmp(&b.torso_tilt_deg))
        .unwrap();
    let kp_theta = doc.balance.upright_kp * (peak.torso_tilt_deg as f64).to_radians();
    let tau = peak.assist_torque_n_m as f64;
    assert!(
        peak.torso_tilt_deg > 5.0,
        "pushed: tilt {}",
        peak.torso_tilt_deg
    );
    assert!(
        close(tau, kp_theta, 0.05),
        "assist {tau:.1} N·m vs kp·θ {kp_theta:.1} N·m at {:.2}°",
        peak.torso_tilt_deg
    );
    eprintln!(
        "assist {tau:.1} N·m, kp·θ {kp_theta:.1} N·m at {:.2}°",
        peak.torso_tilt_deg
    );
    let e = t.effort;
    assert!(e.assist_peak_n_m as f64 >= tau);
    let share = e.assist_share().unwrap();
    assert!(share > 0.0 && share < 1.0, "share {share}");
}

fn simulate_json(path: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let out = common::ragdoll_tuner()
        .args(["simulate", common::path_str(path), "--json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn gains_simulate_reports_the_assist() {
    let m = common::mannequin();
    let v = simulate_json(&m, &["--seconds", "4", "--push", "spine_upper:150,0,0@2"]);
    let a = &v["external_assist"];
    let peak = a["peak_torque_n_m"].as_f64().unwrap();
    assert!(peak > 300.0 && peak <= 1000.0, "{a}");
    assert!(a["impulse_n_m_s"].as_f64().unwrap() > 0.0);
    let share = a["share"].as_f64().unwrap();
    assert!(share > 0.0 && share < 1.0, "{a}");
    // No upright joint (no balance bone resolves on a bare chain): null, never a made-up 0.
    let (_dir, chain) = chain();
    let v = simulate_json(&chain, &["--seconds", "0.5"]);
    assert!(v["external_assist"].is_null(), "{}", v["external_assist"]);
}

/// At assist 0 the mannequin stands on its joints and feet alone for 10 s.
#[test]
fn gains_assist_zero_still_stands() {
    let v = simulate_json(
        &common::mannequin(),
        &["--seconds", "10", "--set", "@balance.assist=0"],
    );
    assert_eq!(v["fell"], false, "{v}");
    assert_eq!(v["external_assist"]["peak_torque_n_m"], 0.0);
    assert_eq!(v["external_assist"]["impulse_n_m_s"], 0.0);
    assert_eq!(v["external_assist"]["share"], 0.0);
    assert!(v["max_torso_tilt_deg"].as_f64().unwrap() < 5.0, "{v}");
}
