//! The editor's timeline driven through AccessKit (egui_kittest, no GL): scrubbing shows the
//! recorded pose and the plot cursor, `,` and `.` step frames, "Resimulate from here"
//! branches (labelled with what changed) and the plots overlay two runs; a branch with no
//! change reproduces the run it left bit for bit.

use crate::common::*;
use crate::editor::harness;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use ragdoll_tuner::app::timeline_panel::{Request, TimelineView};
use ragdoll_tuner::app::EditorApp;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::sim::{SimSettings, Simulation};

type H = Harness<'static, EditorApp>;

fn view(h: &H) -> TimelineView {
    h.state()
        .simulation()
        .and_then(|s| s.timeline())
        .cloned()
        .expect("the live simulation records")
}

/// Every body's translation in the viewport pose (f64, as the viewport holds it).
fn shown(h: &H, sim: &Simulation) -> Vec<[f64; 3]> {
    let pose = h.state().viewport_pose();
    sim.body_poses()
        .map(|(id, _)| {
            pose.world_from_bone[id.index()]
                .w_axis
                .truncate()
                .to_array()
        })
        .collect()
}

/// The bodies' translations after `steps` steps of an independent simulation of `doc`.
fn simulated(doc: &Document, steps: u64) -> (Simulation, Vec<[f64; 3]>) {
    let mut sim = Simulation::new(doc, SimSettings::default()).expect("sim");
    while sim.steps() < steps {
        sim.step().expect("step");
    }
    let t = sim
        .body_poses()
        .map(|(_, p)| p.translation.to_array().map(f64::from))
        .collect();
    (sim, t)
}

/// A copy of the mannequin in `dir`, for a test that edits it (an autosave sidecar then goes
/// there, never beside the bundled asset).
pub(super) fn scratch_mannequin(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("mannequin.glb");
    std::fs::copy(mannequin(), &path).expect("copy the mannequin");
    path
}

fn scrub(h: &mut H, t: f64) {
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Recorded moment")
        .set_value_accesskit(t);
    h.run_steps(3);
}

#[test]
fn scrubbing_shows_the_recorded_pose_and_the_plot_cursor() {
    let doc = Document::open(mannequin()).expect("open");
    let mut h = harness(&mannequin());
    h.run_steps(2);
    h.state_mut().fast_forward(2.0);
    h.run_steps(2);
    let v = view(&h);
    assert!(v.start_s == 0.0 && v.end_s > 1.99, "recorded {v:?}");
    assert_eq!(v.cursor_s, None);
    assert!(v.bytes > 1_000_000, "memory shown: {}", v.bytes);
    assert!(
        h.query_by_label_contains("rec ").is_some(),
        "status bar memory"
    );

    scrub(&mut h, 1.0);
    let v = view(&h);
    let at = v.cursor_s.expect("scrubbed");
    assert!((at - 1.0).abs() < 0.005, "cursor at {at}");
    assert_eq!(
        h.state().plot_cursor(),
        Some(at),
        "the plots' cursor is there"
    );
    let (sim, want) = simulated(&doc, 120);
    assert_eq!(
        shown(&h, &sim),
        want,
        "the viewport shows the pose at step 120"
    );

    // `.` and `,` step one recorded frame.
    h.key_press(egui::Key::Period);
    h.run_steps(3);
    let (sim, want) = simulated(&doc, 121);
    assert_eq!(shown(&h, &sim), want, "one frame forward");
    h.key_press(egui::Key::Comma);
    h.key_press(egui::Key::Comma);
    h.run_steps(3);
    let (sim, want) = simulated(&doc, 119);
    assert_eq!(shown(&h, &sim), want, "two frames back");
    assert!(view(&h).cursor_s.expect("scrubbed") < at);

    h.get_by_label("Live").click();
    h.run_steps(3);
    assert_eq!(view(&h).cursor_s, None);
    assert_eq!(h.state().plot_cursor(), None);
    let (sim, want) = simulated(&doc, 240);
    assert_eq!(shown(&h, &sim), want, "back to the live end");
}

#[test]
fn a_branch_is_listed_with_what_changed_and_the_plots_overlay_both_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(&scratch_mannequin(dir.path()));
    h.run_steps(2);
    h.state_mut().fast_forward(2.0);
    h.run_steps(2);
    scrub(&mut h, 1.0);
    h.get_by_label("forearm_l").click();
    h.run_steps(2);
    h.get_by_label("Max angle").set_value_accesskit(60.0);
    h.run_steps(3);
    h.get_by_label("Resimulate from here").click();
    h.run_steps(3);
    let v = view(&h);
    assert_eq!(v.runs.len(), 2, "{:?}", v.runs);
    assert_eq!(v.runs[0], "first run");
    assert!(
        v.runs[1].starts_with("1.00 s: ") && v.runs[1].contains("forearm_l"),
        "labelled with the moment and the edit: {:?}",
        v.runs[1]
    );
    assert_eq!(v.active, 1);
    assert!((v.end_s - 1.0).abs() < 0.005, "the branch starts there");
    h.state_mut().fast_forward(1.0);
    h.run_steps(2);
    assert!(view(&h).end_s > 1.99);

    h.state_mut()
        .timeline
        .pending
        .push(Request::Compare(Some(0)));
    h.run_steps(3);
    assert_eq!(view(&h).compare, Some(0));
    let lines = h.state().plot_lines();
    for name in [
        "torso tilt",
        "torso tilt · first run",
        "COM height · first run",
    ] {
        assert!(lines.iter().any(|l| l == name), "{name} drawn: {lines:?}");
    }

    // Back to the first run: it is whole, and the branch stays listed.
    h.get_by_label("first run").click();
    h.run_steps(3);
    let v = view(&h);
    assert_eq!((v.active, v.runs.len()), (0, 2));
    assert!(v.end_s > 1.99);
}

#[test]
fn resimulating_with_no_change_reproduces_the_run_bit_for_bit() {
    let mut h = harness(&mannequin());
    h.run_steps(2);
    h.state_mut().fast_forward(3.0);
    h.run_steps(2);
    // Mid-second: the nearest snapshot is stepped forward to the moment.
    scrub(&mut h, 1.5);
    h.get_by_label("Resimulate from here").click();
    h.run_steps(3);
    assert_eq!(view(&h).runs.len(), 2);
    h.state_mut().fast_forward(1.5);
    h.run_steps(2);
    let pose_at = |h: &mut H, t: f64| {
        scrub(h, t);
        h.state().viewport_pose().world_from_bone.clone()
    };
    let mut branch = Vec::new();
    for t in [1.6, 2.5, 2.99] {
        branch.push(pose_at(&mut h, t));
    }
    h.get_by_label("first run").click();
    h.run_steps(3);
    for (t, b) in [1.6, 2.5, 2.99].into_iter().zip(&branch) {
        assert_eq!(&pose_at(&mut h, t), b, "the runs parted by {t} s");
    }
    assert_ne!(
        branch[0], branch[2],
        "the ragdoll moved between the moments"
    );
}

/// Recording memory is bounded: after more than the 60 s kept it stops growing, and stays
/// within the budget (100 MB for 60 s of a 50-body character).
#[test]
fn recording_memory_is_bounded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dense = dir.path().join("dense.glb");
    run_ok(ragdoll_tuner().args(["generate-mannequin", "--dense", path_str(&dense)]));
    for (path, budget_mb) in [(mannequin(), 20.0), (dense, 100.0)] {
        let mut h = harness(&path);
        h.run_steps(2);
        h.state_mut().fast_forward(65.0);
        h.run_steps(2);
        let full = view(&h);
        h.state_mut().fast_forward(5.0);
        h.run_steps(2);
        let later = view(&h);
        let mb = later.bytes as f64 / 1e6;
        eprintln!("{}: {mb:.1} MB for the last 60 s", path.display());
        assert!(
            (later.end_s - later.start_s - 60.0).abs() < 0.02,
            "{later:?}"
        );
        assert!(
            later.bytes <= full.bytes + full.bytes / 50,
            "{full:?} then {later:?}"
        );
        assert!(mb <= budget_mb, "{mb:.1} MB");
    }
}

/// A real pointer drag along the timeline's slider (press, move, release): the cursor
/// follows the pointer, the plots draw it there, and the viewport shows the recorded pose
/// of that step.
#[test]
fn dragging_the_timeline_with_the_pointer_scrubs() {
    let doc = Document::open(mannequin()).expect("open");
    let mut h = harness(&mannequin());
    h.run_steps(2);
    h.state_mut().fast_forward(2.0);
    h.run_steps(2);
    let rail = h
        .get_by_role_and_label(egui::accesskit::Role::Slider, "Recorded moment")
        .rect();
    let y = rail.center().y;
    h.drag_at(egui::pos2(rail.right() - 4.0, y));
    h.run_steps(2);
    let mut seen = Vec::new();
    for f in [0.75, 0.5, 0.25] {
        h.hover_at(egui::pos2(rail.left() + rail.width() * f, y));
        h.run_steps(2);
        seen.push(view(&h).cursor_s.expect("scrubbed while dragging"));
    }
    h.drop_at(egui::pos2(rail.left() + rail.width() * 0.25, y));
    h.run_steps(3);
    assert!(
        seen.windows(2).all(|w| w[1] < w[0]),
        "the cursor follows the pointer back: {seen:?}"
    );
    let at = view(&h).cursor_s.expect("still scrubbed after the drop");
    assert!(at > 0.1 && at < 1.0, "a quarter along 0..2 s: {at}");
    assert_eq!(h.state().plot_cursor(), Some(at), "the plots' cursor");
    let step = (at * 120.0).round() as u64;
    let (sim, want) = simulated(&doc, step);
    assert_eq!(shown(&h, &sim), want, "the viewport shows step {step}");
}

/// The `--branch-at` hook's work (scrub, edit, resimulate, run on, overlay): two runs in
/// the branch list, labelled with the edit, and the plots draw both.
#[test]
fn the_branch_hook_leaves_two_runs_overlaid() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(&scratch_mannequin(dir.path()));
    h.run_steps(2);
    h.state_mut().fast_forward(3.0);
    let sets = ["spine_mid.drive.stiffness=0".to_string()];
    h.state_mut().branch_and_compare(1.0, &sets, 3.0);
    h.run_steps(3);
    let v = view(&h);
    assert_eq!(
        (v.runs.len(), v.active, v.compare),
        (2, 1, Some(0)),
        "{v:?}"
    );
    assert!(v.runs[1].contains("spine_mid drive gains"), "{:?}", v.runs);
    assert!(
        (v.end_s - 3.0).abs() < 0.01,
        "the branch ran on to 3 s: {v:?}"
    );
    assert!(
        h.query_all_by_label_contains("1.00 s: spine_mid").count() >= 2,
        "the branch in the run list (and the status bar)"
    );
    let lines = h.state().plot_lines();
    for name in ["COM height", "COM height · first run"] {
        assert!(lines.iter().any(|l| l == name), "{name} drawn: {lines:?}");
    }
}
