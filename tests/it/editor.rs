//! The editor driven headlessly through AccessKit (egui_kittest, no GL): select a bone in the
//! outliner, change a limit in the inspector, undo, redo, save, reopen.

use crate::common::{self, screenshot};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use ragdoll_tuner::app::{EditorApp, Options};
use ragdoll_tuner::document::{ConstraintKind, Document};
use std::path::Path;

pub(crate) fn harness(path: &Path) -> Harness<'static, EditorApp> {
    let doc = Document::open(path).expect("fixture opens");
    Harness::builder()
        .with_size([1280.0, 800.0])
        .build_eframe(move |cc| EditorApp::new(cc, doc, &Options::default()))
}

fn max_limit(doc: &Document, bone: &str) -> f64 {
    let id = doc.bone_by_name(bone).expect("bone exists");
    match doc
        .bone(id)
        .physics
        .as_ref()
        .and_then(|p| p.constraint.as_ref())
        .map(|c| &c.kind)
    {
        Some(ConstraintKind::Hinge { limit_max_deg, .. }) => *limit_max_deg,
        other => panic!("{bone} is not a hinge: {other:?}"),
    }
}

#[test]
fn select_edit_undo_save_reopen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mannequin.glb");
    std::fs::copy(common::mannequin(), &path).expect("copy fixture");
    let mut h = harness(&path);
    h.run_steps(3);

    h.get_by_label("forearm_l").click();
    h.run_steps(3);
    let doc = &h.state().state.doc;
    assert_eq!(h.state().state.selection, doc.bone_by_name("forearm_l"));
    assert_eq!(max_limit(doc, "forearm_l"), 145.0);

    h.get_by_label("Max angle").set_value_accesskit(120.0);
    h.run_steps(3);
    assert_eq!(max_limit(&h.state().state.doc, "forearm_l"), 120.0);
    assert!(h.state().state.doc.is_dirty());
    assert!(
        h.state().state.title().starts_with('●'),
        "title shows the unsaved marker"
    );

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(
        max_limit(&h.state().state.doc, "forearm_l"),
        145.0,
        "undo restores the limit"
    );

    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(3);
    assert_eq!(
        max_limit(&h.state().state.doc, "forearm_l"),
        120.0,
        "redo applies it again"
    );

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(3);
    assert!(
        !h.state().state.doc.is_dirty(),
        "{}",
        h.state().state.status
    );
    drop(h);

    let reopened = Document::open(&path).expect("saved file opens");
    assert_eq!(max_limit(&reopened, "forearm_l"), 120.0);
    let mut h2 = harness(&path);
    h2.run_steps(2);
    h2.get_by_label("forearm_l").click();
    h2.run_steps(3);
    let shown = h2
        .get_by_label("Max angle")
        .value()
        .and_then(|v| v.trim_end_matches(" deg").trim().parse::<f64>().ok());
    assert_eq!(
        shown,
        Some(120.0),
        "the reopened file shows the saved limit"
    );
}

#[test]
fn diagnostics_and_filter_select_bones() {
    let mut h = harness(&common::mannequin());
    h.run_steps(2);
    h.get_by_label("Filter").focus();
    h.get_by_label("Filter").type_text("shin");
    h.run_steps(3);
    assert!(
        h.query_by_label("forearm_l").is_none(),
        "the filter hides other bones"
    );
    h.get_by_label("shin_r").click();
    h.run_steps(2);
    let st = &h.state().state;
    assert_eq!(st.selection, st.doc.bone_by_name("shin_r"));
}

/// Decimation keeps each pixel column's extremes and never more than two points per column.
#[test]
fn plot_decimation_keeps_min_and_max_per_column() {
    use ragdoll_tuner::app::plot::decimate;
    let times: Vec<f64> = (0..12_000).map(|i| i as f64 / 1200.0).collect();
    let mut values: Vec<f64> = times.iter().map(|t| (t * 7.0).sin()).collect();
    values[6001] = 5.5;
    let pts = decimate(&times, &values, 0.0, 10.0, 400);
    assert!(pts.len() <= 800, "{} points", pts.len());
    let max = pts.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
    assert!(max > 5.0, "the one-sample spike survives");
    assert!(
        pts.windows(2).all(|w| w[0][0] <= w[1][0]),
        "time order kept"
    );
    let short = decimate(&times[..10], &values[..10], 0.0, 10.0, 400);
    assert_eq!(short.len(), 10, "few samples pass through unchanged");
}

/// Unsaved edits survive a crash: the sidecar is offered on the next open, and a save removes it.
#[test]
fn autosave_offers_recovery_after_a_crash() {
    use ragdoll_tuner::app::autosave::sidecar_path;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mannequin.glb");
    std::fs::copy(common::mannequin(), &path).expect("copy fixture");
    let mut h = harness(&path);
    h.run_steps(2);
    h.get_by_label("forearm_l").click();
    h.run_steps(2);
    h.get_by_label("Max angle").set_value_accesskit(100.0);
    h.run_steps(2);
    h.state_mut().state.autosave_now();
    assert!(sidecar_path(&path).exists());
    drop(h); // a crash: nothing saved

    assert_eq!(
        max_limit(&Document::open(&path).expect("opens"), "forearm_l"),
        145.0
    );
    let mut h2 = harness(&path);
    h2.run_steps(2);
    h2.get_by_label("Recover").click();
    h2.run_steps(2);
    assert_eq!(max_limit(&h2.state().state.doc, "forearm_l"), 100.0);
    assert!(h2.state().state.doc.is_dirty());
    h2.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h2.run_steps(2);
    assert!(!sidecar_path(&path).exists(), "a save removes the sidecar");
    assert_eq!(
        max_limit(&Document::open(&path).expect("opens"), "forearm_l"),
        100.0
    );
}

/// Pixels of the viewport (between the side panels, above the plots) by class.
#[derive(Debug, Default)]
struct ViewportPixels {
    green: usize,
    red: usize,
    body: usize,
    /// The highest row (from the top) with a body pixel.
    body_top: Option<usize>,
}

fn classify(w: usize, h: usize, buf: &[u8]) -> ViewportPixels {
    let mut px = ViewportPixels::default();
    for y in h / 10..h * 6 / 10 {
        for x in w / 4..w * 7 / 10 {
            let p = &buf[(y * w + x) * 4..(y * w + x) * 4 + 3];
            let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
            if g > 150 && r < 120 && b < 100 {
                px.green += 1;
            } else if r > 170 && g < 90 && b < 90 {
                px.red += 1;
            } else if r > 120 && (r - g).abs() < 25 && (g - b).abs() < 30 && r < 235 {
                px.body += 1;
                px.body_top.get_or_insert(y);
            }
        }
    }
    px
}

/// The real window under X (Xvfb in CI): the screenshot hook writes a PNG whose viewport shows
/// the mannequin and the gizmo colours. Skipped when no X display is set.
#[test]
fn screenshot_shows_mannequin_and_gizmos() {
    if common::needs_display() {
        return;
    }
    let (w, h, buf) = screenshot(None, &["--select", "forearm_l"]);
    assert!(w >= 1000 && h >= 600, "whole window: {w}x{h}");
    let px = classify(w, h, &buf);
    assert!(px.body > 5_000, "mannequin pixels: {px:?}");
    assert!(px.green > 200, "green gizmo pixels: {px:?}");
    // At rest no joint uses any of its range (telemetry says 0%): nothing is drawn red.
    assert!(px.red < 20, "red gizmo pixels at rest: {px:?}");
    // An elbow whose range starts at 20 degrees is past its limit at rest: drawn red. (On a
    // copy: the edit is autosaved beside the file it was made on.)
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("mannequin.glb");
    std::fs::copy(common::mannequin(), &copy).expect("copy fixture");
    let (w, h, buf) = screenshot(
        Some(&copy),
        &[
            "--select",
            "forearm_l",
            "--apply",
            "forearm_l.constraint.limit_min_deg=20",
        ],
    );
    let px = classify(w, h, &buf);
    assert!(px.red > 100, "red gizmo pixels past the limit: {px:?}");
}

/// The drawn mesh follows the simulation: with every joint drive at zero stiffness the
/// mannequin collapses, and its top drops well down the viewport.
#[test]
fn screenshot_mesh_follows_the_simulation() {
    if common::needs_display() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let limp = common::limp_mannequin(dir.path());
    let (w, h, standing) = screenshot(Some(&limp), &[]);
    let (_, _, fallen) = screenshot(Some(&limp), &["--sim-seconds", "4"]);
    let (standing, fallen) = (classify(w, h, &standing), classify(w, h, &fallen));
    let (top0, top1) = (
        standing.body_top.expect("standing mannequin drawn"),
        fallen.body_top.expect("fallen mannequin drawn"),
    );
    assert!(
        top1 > top0 + h / 8,
        "the fallen mesh's top row {top1} should lie well below the standing one's {top0}"
    );
}

#[test]
fn inspector_edits_reach_the_running_simulation() {
    use ragdoll_tuner::sim::JointLimits;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mannequin.glb");
    std::fs::copy(common::mannequin(), &path).expect("copy fixture");
    let mut h = harness(&path);
    h.run_steps(2);
    h.get_by_label("Step").click();
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("sim 0.01 s").is_some(),
        "status shows the simulation time"
    );
    let limits = |h: &Harness<'static, EditorApp>| {
        h.state()
            .simulation()
            .and_then(|s| s.joint_limits("forearm_l"))
    };
    let Some(JointLimits::Hinge { max_rad, .. }) = limits(&h) else {
        panic!("elbow is a hinge")
    };
    assert!((max_rad.to_degrees() - 145.0).abs() < 1e-3);
    h.get_by_label("forearm_l").click();
    h.run_steps(2);
    h.get_by_label("Max angle").set_value_accesskit(110.0);
    h.run_steps(3);
    let Some(JointLimits::Hinge { max_rad, .. }) = limits(&h) else {
        panic!("elbow is a hinge")
    };
    assert!(
        (max_rad.to_degrees() - 110.0).abs() < 1e-3,
        "the solver now enforces {}",
        max_rad.to_degrees()
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    let Some(JointLimits::Hinge { max_rad, .. }) = limits(&h) else {
        panic!("elbow is a hinge")
    };
    assert!(
        (max_rad.to_degrees() - 145.0).abs() < 1e-3,
        "undo reaches the solver too"
    );
}
