//! "Bake to clip…" in the editor (egui_kittest, no GL): the command opens the dialog from the
//! Timeline menu, a refused bake says why in it (no name, a name taken, an empty range), a
//! bake adds a clip that the clip panel lists and the editor's own player plays, and one
//! undo removes it, the document's bytes as before.

use crate::editor::harness;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use ragdoll_tuner::app::EditorApp;
use std::path::Path;

type H = Harness<'static, EditorApp>;

/// The document as it would be written.
fn bytes(h: &H, dir: &Path) -> Vec<u8> {
    let out = dir.join("now.glb");
    h.state().state.doc.write_to(&out).expect("written");
    std::fs::read(out).expect("read back")
}

fn clips(h: &H) -> Vec<(String, f32)> {
    h.state().simulation().expect("simulation").clips().0
}

/// How many labels show `text`.
fn shown(h: &H, text: &str) -> usize {
    h.query_all_by_label_contains(text).count()
}

/// Opens the dialog from the Timeline menu, sets its fields, clicks Bake.
fn bake(h: &mut H, name: &str, from_s: f64, to_s: f64) {
    if h.query_by_label("Clip name").is_none() {
        h.get_by_label("Timeline").click();
        h.run_steps(2);
        h.get_by_label("Bake to clip…").click();
        h.run_steps(3);
    }
    let d = &mut h.state_mut().timeline.bake;
    (d.name, d.from_s, d.to_s) = (name.into(), from_s, to_s);
    h.run_steps(1);
    h.get_by_label("Bake").click();
    h.run_steps(3);
}

#[test]
fn baking_from_the_editor_adds_a_clip_that_plays_and_one_undo_removes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(&super::editor::scratch_mannequin(dir.path()));
    h.run_steps(2);
    h.state_mut().fast_forward(2.0);
    h.run_steps(2);
    let before = bytes(&h, dir.path());
    let clips_before = clips(&h);

    // Opened from the menu, the fields default to the recorded range and a free name.
    h.get_by_label("Timeline").click();
    h.run_steps(2);
    h.get_by_label("Bake to clip…").click();
    h.run_steps(3);
    let d = h.state().timeline.bake.clone();
    assert!(d.open && !d.name.is_empty(), "{d:?}");
    assert!(
        d.from_s == 0.0 && d.to_s > 1.99,
        "the recorded range: {d:?}"
    );

    for (name, from, to, says) in [
        ("  ", 0.5, 1.5, "the clip needs a name"),
        ("fall", 1.5, 0.5, "the range is empty"),
        ("fall", 1.0, 1.0, "the range is empty"),
    ] {
        bake(&mut h, name, from, to);
        assert!(
            shown(&h, says) >= 2,
            "'{says}' shown in the dialog and the status bar"
        );
        assert_eq!(bytes(&h, dir.path()), before, "refused: nothing changed");
    }

    bake(&mut h, "fall", 0.5, 1.5);
    assert!(
        h.query_by_label("Clip name").is_none(),
        "the dialog closes after a bake"
    );
    let now = clips(&h);
    assert_eq!(now.len(), clips_before.len() + 1, "{now:?}");
    let (name, duration_s) = now.last().expect("the new clip").clone();
    assert_eq!(name, "fall");
    assert!(
        (duration_s - 1.0).abs() < 0.02,
        "30 keys/s over 1 s: {duration_s}"
    );
    assert!(
        h.state().state.status.starts_with("baked 'fall'"),
        "{}",
        h.state().state.status
    );

    // A second clip of the same name is refused.
    bake(&mut h, "fall", 0.0, 1.0);
    assert!(shown(&h, "already has an animation named 'fall'") >= 2);
    assert_eq!(clips(&h).len(), clips_before.len() + 1);
    h.get_by_label("Cancel").click();
    h.run_steps(2);

    // The clip panel lists it, and the editor's player plays it.
    h.get_by_label("Clip").click();
    h.run_steps(2);
    h.get_by_label("fall (1.00 s)").click();
    h.run_steps(2);
    h.state_mut().fast_forward(0.5);
    h.run_steps(2);
    let clock = h.state().simulation().and_then(|s| s.clip_clock());
    let (t, d) = clock.expect("the baked clip plays");
    assert!(t > 0.3 && (d - 1.0).abs() < 0.02, "clip clock {t} of {d}");

    // One undo: the clip is gone and the document is byte for byte as before.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(clips(&h), clips_before);
    assert_eq!(bytes(&h, dir.path()), before, "undo restores the bytes");

    // With a loop range set, the dialog offers it (ordered).
    h.state_mut().timeline.loop_range = Some((1.5, 0.25));
    h.get_by_label("Timeline").click();
    h.run_steps(2);
    h.get_by_label("Bake to clip…").click();
    h.run_steps(3);
    let d = &h.state().timeline.bake;
    assert_eq!((d.from_s, d.to_s), (0.25, 1.5), "the loop range: {d:?}");
}
