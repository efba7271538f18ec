//! Plausibility diagnostics on deliberately broken ragdolls: each names the bones and points
//! to the Anatomy panel; a sound ragdoll has none.

use super::{generate_into, role, zoo};
use ragdoll_tuner::anatomy::plausible;
use ragdoll_tuner::document::{write, Diagnostic, Document, Edit, ManualAnatomy};
use serde_json::json;

fn generated(name: &str) -> Document {
    let mut doc = Document::open(zoo(name)).unwrap();
    generate_into(&mut doc);
    doc
}

fn with_roles(doc: &mut Document, roles: &[(&str, &str)]) {
    let mut m = ManualAnatomy::default();
    for (bone, r) in roles {
        m.assign(bone, role(r));
    }
    doc.apply(&write::anatomy_edit(&m)).unwrap();
}

/// The warnings mentioning `what`, each naming every bone in `bones` and the panel.
fn found<'a>(all: &'a [Diagnostic], what: &str, bones: &[&str]) -> Vec<&'a Diagnostic> {
    let hits: Vec<&Diagnostic> = all.iter().filter(|d| d.message.contains(what)).collect();
    assert!(!hits.is_empty(), "no '{what}' in {all:#?}");
    for d in &hits {
        assert!(d.message.contains("Anatomy panel"), "{}", d.message);
        for b in bones {
            assert!(d.message.contains(b), "{b} not named in {}", d.message);
        }
    }
    hits
}

#[test]
fn a_sound_ragdoll_has_no_plausibility_warning() {
    for name in [
        "kaykit_mannequin.glb",
        "ubc_superhero_male_notex.glb",
        "q_horse.glb",
        "q_rat.glb",
    ] {
        let doc = generated(name);
        let w = plausible::of(&doc);
        assert!(w.is_empty(), "{name}: {w:#?}");
    }
}

#[test]
fn a_pelvis_away_from_the_thighs_and_a_foot_above_it() {
    let mut doc = generated("kaykit_mannequin.glb");
    with_roles(&mut doc, &[("head", "pelvis")]);
    let w = plausible::of(&doc);
    found(
        &w,
        "not between the thighs",
        &["head", "upperleg.l", "upperleg.r"],
    );
    let mut doc = generated("kaykit_mannequin.glb");
    with_roles(&mut doc, &[("hand.l", "foot:left")]);
    found(
        &plausible::of(&doc),
        "is above the pelvis",
        &["hand.l", "hips"],
    );
}

#[test]
fn one_body_with_most_of_the_mass() {
    let mut doc = generated("kaykit_mannequin.glb");
    let target = doc.bone_target(doc.bone_by_name("chest").unwrap());
    let key = ragdoll_tuner::document::fields::Key::Mass
        .path()
        .to_string();
    doc.apply(&Edit::Set {
        target,
        key,
        value: json!(5000.0),
    })
    .unwrap();
    found(&plausible::of(&doc), "of the total mass", &["chest"]);
}

#[test]
fn a_limb_without_its_twin() {
    let mut doc = generated("kaykit_mannequin.glb");
    with_roles(&mut doc, &[("upperleg.r", "other")]);
    found(&plausible::of(&doc), "has no right twin", &["upperleg.l"]);
}

#[test]
fn a_body_far_from_its_skin() {
    let mut doc = generated("kaykit_mannequin.glb");
    let target = doc.bone_target(doc.bone_by_name("lowerarm.l").unwrap());
    let key = ragdoll_tuner::document::fields::Key::OffsetTranslation
        .path()
        .to_string();
    doc.apply(&Edit::Set {
        target,
        key,
        value: json!([0.0, 0.0, 3.0]),
    })
    .unwrap();
    found(
        &plausible::of(&doc),
        "outside the skin it claims",
        &["lowerarm.l"],
    );
}
