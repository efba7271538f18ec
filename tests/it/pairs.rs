//! The pair view (issue 17): every pair of bodies with whether it collides and why, a toggle
//! per pair that writes `collision_pairs` as one undo step, "Disable pairs overlapping at
//! rest" as one undo step, and the viewport's colours for the selected body's pairs.

use crate::common::mannequin;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use ragdoll_tuner::app::pair_view::shell_colors;
use ragdoll_tuner::app::state::EditorState;
use ragdoll_tuner::app::{EditorApp, Options};
use ragdoll_tuner::doctor::pair_table::{toggle_edits, PairRow, PairTable};
use ragdoll_tuner::doctor::{self, Check};
use ragdoll_tuner::document::fields::Key;
use ragdoll_tuner::document::{Document, Edit};
use ragdoll_tuner::render::colliders::placed_colliders;
use ragdoll_tuner::render::tint;
use ragdoll_tuner::render::Pose;
use serde_json::{json, Value};

fn id(doc: &Document, name: &str) -> ragdoll_tuner::document::BoneId {
    doc.bone_by_name(name)
        .unwrap_or_else(|| panic!("no bone {name}"))
}

/// A bone's `collision_pairs` as the file holds it (None when the key is absent).
fn pairs_in_file(doc: &Document, bone: &str) -> Option<Value> {
    let node = doc.bone(id(doc, bone)).node;
    doc.json()["nodes"][node]["extras"]["physics"]
        .get(Key::CollisionPairs.path())
        .cloned()
}

fn set_pairs(doc: &mut Document, bone: &str, value: Value) {
    let target = doc.bone_target(id(doc, bone));
    doc.apply(&Edit::Set {
        target,
        key: Key::CollisionPairs.path().into(),
        value,
    })
    .expect("sets pairs");
}

/// The mannequin opened from a copy in a fresh folder: the editor autosaves edits beside the
/// file it opened, and a sidecar beside the shared fixture would greet every other test with
/// a recovery prompt.
pub(crate) fn mannequin_copy() -> (tempfile::TempDir, Document) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mannequin.glb");
    std::fs::copy(mannequin(), &path).expect("copies the fixture");
    let doc = Document::open(&path).expect("mannequin copy");
    (dir, doc)
}

pub(crate) fn harness(doc: Document) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size([1280.0, 800.0])
        .build_eframe(move |cc| EditorApp::new(cc, doc, &Options::default()))
}

/// [`harness`] with Balance and Drives unticked in the simulation panel, as a user makes the
/// ragdoll passive.
pub(crate) fn passive_harness(doc: Document) -> Harness<'static, EditorApp> {
    use egui_kittest::kittest::Queryable;
    let mut h = harness(doc);
    h.run_steps(2);
    let balance = h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Balance");
    balance.click_accesskit();
    h.get_by_label("Drives").click_accesskit();
    h.run_steps(2);
    h
}

fn row(doc: &Document, t: &PairTable, a: &str, b: &str) -> PairRow {
    t.row(id(doc, a), id(doc, b))
        .cloned()
        .unwrap_or_else(|| panic!("no pair {a} - {b}"))
}

/// The mannequin's table says why: a joint keeps thigh and shin apart, the groups let the
/// thigh touch the other leg and keep it from the torso; a statement wins over both.
#[test]
fn the_table_says_why_each_pair_collides_or_not() {
    let mut doc = Document::open(mannequin()).expect("mannequin");
    let t = PairTable::new(&doc);
    let knee = row(&doc, &t, "thigh_l", "shin_l");
    assert_eq!(
        (knee.collides(), knee.why().as_str()),
        (false, "jointed; overlapping at rest")
    );
    let legs = row(&doc, &t, "thigh_l", "thigh_r");
    assert_eq!((legs.collides(), legs.why().as_str()), (true, "groups"));
    let torso = row(&doc, &t, "thigh_l", "spine_mid");
    assert_eq!(
        (torso.collides(), torso.why().as_str()),
        (false, "groups exclude")
    );
    set_pairs(&mut doc, "shin_l", json!({"thigh_l": true}));
    let t = PairTable::new(&doc);
    let knee = row(&doc, &t, "thigh_l", "shin_l");
    assert!(knee.collides());
    assert_eq!(knee.why(), "stated (jointed); overlapping at rest");
}

/// Toggling a pair states it on one bone and drops the other bone's statement (so the two
/// never disagree); toggling it back to what joints and groups decide removes the key.
#[test]
fn a_toggle_writes_one_statement_and_toggling_back_removes_it() {
    let mut doc = Document::open(mannequin()).expect("mannequin");
    let original = doc.json().clone();
    set_pairs(
        &mut doc,
        "shin_l",
        json!({"thigh_l": false, "foot_r": true}),
    );
    let row = row(&doc, &PairTable::new(&doc), "thigh_l", "shin_l");
    doc.apply(&Edit::Group(toggle_edits(&doc, &row, true)))
        .expect("toggles on");
    assert_eq!(
        pairs_in_file(&doc, "thigh_l"),
        Some(json!({"shin_l": true}))
    );
    assert_eq!(pairs_in_file(&doc, "shin_l"), Some(json!({"foot_r": true})));
    let knee = super::pairs::row(&doc, &PairTable::new(&doc), "thigh_l", "shin_l");
    doc.apply(&Edit::Group(toggle_edits(&doc, &knee, false)))
        .expect("toggles off");
    assert_eq!(pairs_in_file(&doc, "thigh_l"), None);
    set_pairs(&mut doc, "shin_l", json!({}));
    let shin = doc.bone(id(&doc, "shin_l")).node;
    let mut expected = original;
    expected["nodes"][shin]["extras"]["physics"][Key::CollisionPairs.path()] = json!({});
    assert_eq!(doc.json(), &expected);
}

/// In the pair table (egui_kittest): selecting thigh_l lists its pairs; ticking the jointed
/// thigh_l - shin_l writes `collision_pairs` on thigh_l; one undo removes it.
#[test]
fn ticking_a_pair_in_the_panel_writes_the_file_and_undo_removes_it() {
    let (_dir, doc) = mannequin_copy();
    let original = doc.json().clone();
    let mut h = harness(doc);
    h.run_steps(3);
    h.get_by_label("thigh_l").click();
    h.run_steps(2);
    // The right panel's lower sections are below the window: click them through AccessKit.
    h.get_by_label("Collision pairs").click_accesskit();
    h.run_steps(3);
    assert!(
        h.query_by_label("Colour the viewport by the selected body's pairs")
            .is_some(),
        "the panel opened"
    );
    assert!(
        h.query_by_label("thigh_l - thigh_r").is_some(),
        "its pairs are listed"
    );
    h.get_by_label("thigh_l - shin_l").click_accesskit();
    h.run_steps(3);
    let st = &h.state().state;
    assert_eq!(
        pairs_in_file(&st.doc, "thigh_l"),
        Some(json!({"shin_l": true})),
        "{}",
        st.status
    );
    assert!(h
        .query_by_label("stated (jointed); overlapping at rest")
        .is_some());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    let st = &h.state().state;
    assert_eq!(pairs_in_file(&st.doc, "thigh_l"), None);
    assert_eq!(st.doc.json(), &original, "one undo step");
}

/// Edit > "Disable pairs overlapping at rest" on a mannequin whose shin collides with the thigh
/// it overlaps: the overlap finding goes, the pair is stated apart, one undo restores it all.
#[test]
fn disable_pairs_overlapping_at_rest_is_one_undo_step() {
    let (_dir, mut doc) = mannequin_copy();
    set_pairs(&mut doc, "shin_l", json!({"thigh_l": true}));
    set_pairs(&mut doc, "hand_l", json!({"spine_upper": true}));
    let overlaps = |d: &Document| {
        doctor::examine(d)
            .iter()
            .filter(|f| f.check == Check::Overlap)
            .count()
    };
    assert_eq!(
        overlaps(&doc),
        1,
        "the knee overlaps; the hand is far from the chest"
    );
    let broken = doc.json().clone();
    let mut h = harness(doc);
    h.run_steps(3);
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Disable pairs overlapping at rest").click();
    h.run_steps(3);
    let st = &h.state().state;
    assert_eq!(overlaps(&st.doc), 0, "{}", st.status);
    assert_eq!(
        pairs_in_file(&st.doc, "thigh_l"),
        Some(json!({"shin_l": false}))
    );
    assert_eq!(
        pairs_in_file(&st.doc, "shin_l"),
        None,
        "the contrary statement goes"
    );
    assert_eq!(
        pairs_in_file(&st.doc, "hand_l"),
        Some(json!({"spine_upper": true})),
        "a pair that does not overlap is left alone"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().state.doc.json(), &broken, "one undo step");
}

/// The viewport's colours with thigh_l selected: amber for it, blue for what it collides with
/// (the other thigh), grey for what it does not (its shin, across the knee; the chest, by
/// groups); the doctor's warning about the head, made 6 kg on its 2.2 kg neck, is orange (the
/// mannequin ships a head within twice its neck's mass, and no warning). With the pair view's
/// colours off, the others are plain (the pair view's blue is the plain one).
#[test]
fn the_selected_body_colours_the_others_by_their_pairs() {
    let mut doc = Document::open(mannequin()).expect("mannequin");
    let head = id(&doc, "head");
    doc.apply(&Edit::Set {
        target: doc.bone_target(head),
        key: Key::Mass.path().into(),
        value: json!(6.0),
    })
    .expect("heavy head");
    let colliders = placed_colliders(&doc, &Pose::rest(&doc));
    let mut st = EditorState::new(doc, Default::default());
    st.selection = Some(id(&st.doc, "thigh_l"));
    let colour_of = |st: &mut EditorState, bone: &str| {
        let colours = shell_colors(st, &colliders);
        let b = id(&st.doc, bone);
        colours[colliders.iter().position(|c| c.bone == b).unwrap()]
    };
    assert_eq!(colour_of(&mut st, "thigh_l"), tint::SELECTED);
    assert_eq!(colour_of(&mut st, "thigh_r"), tint::COLLIDES);
    assert_eq!(colour_of(&mut st, "shin_l"), tint::APART);
    assert_eq!(colour_of(&mut st, "spine_upper"), tint::APART);
    assert_eq!(colour_of(&mut st, "head"), tint::WARNING);
    st.pairs.colour_viewport = false;
    assert_eq!(colour_of(&mut st, "shin_l"), tint::PLAIN);
}
