//! Stabilize raises parent inertia as Jolt's `RagdollSettings::Stabilize` does (issue 17),
//! checked in the real Rapier world.

use crate::common::*;
use crate::doctor::set;
use ragdoll_tuner::doctor::{self, StabilizeOptions};
use ragdoll_tuner::document::fields::Key;
use ragdoll_tuner::document::{Document, Edit};
use ragdoll_tuner::joint;
use ragdoll_tuner::sim::{SimSettings, Simulation};
use serde_json::json;
use std::collections::BTreeMap;

/// Every body's principal moments in the Rapier world, by bone.
fn world_moments(doc: &Document) -> BTreeMap<String, glam::Vec3> {
    let sim = Simulation::new(doc, SimSettings::passive()).expect("simulation");
    doc.bones
        .iter()
        .filter_map(|b| {
            let rb = &sim.physics().bodies[sim.body_handle(&b.name)?];
            Some((
                b.name.clone(),
                rb.mass_properties().local_mprops.principal_inertia(),
            ))
        })
        .collect()
}

/// `doc` without any `min_inertia_kg_m2`: its bodies as their shapes and masses make them.
fn without_inertia_floors(doc: &Document) -> Document {
    let mut own = doc.clone();
    for id in doc.bone_ids() {
        let p = doc.bone(id).physics.as_ref();
        if p.and_then(|p| p.material.min_inertia_kg_m2).is_some() {
            let edit = Edit::Remove {
                target: own.bone_target(id),
                key: Key::MinInertia.path().into(),
            };
            own.apply(&edit).expect("remove");
        }
    }
    own
}

/// Each jointed parent's children, by bone name.
fn jointed_children(doc: &Document) -> BTreeMap<String, Vec<String>> {
    let mut children: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for id in doc.bone_ids() {
        if let Some(def) = joint::resolve(doc, id) {
            let (c, p) = (&doc.bone(id).name, &doc.bone(def.parent).name);
            children.entry(p.clone()).or_default().push(c.clone());
        }
    }
    children
}

/// The sum of the largest moments of every body below `b` (Jolt's "child sum").
fn below(b: &str, kids: &BTreeMap<String, Vec<String>>, own: &BTreeMap<String, glam::Vec3>) -> f32 {
    kids.get(b)
        .into_iter()
        .flatten()
        .map(|c| own[c].max_element() + below(c, kids, own))
        .sum()
}

/// Stabilize raises parent inertia as Jolt's `RagdollSettings::Stabilize` does: in the Rapier
/// world, each body's principal moments are at least the sum of its jointed children's
/// largest moments (their own children's included), at most twice its own largest, where
/// "own" is the body as it is without the raise; a second Stabilize raises nothing.
#[test]
fn stabilize_raises_parent_inertia_to_its_children_s_sum_as_jolt_does() {
    let mut doc = Document::open(mannequin()).expect("mannequin");
    set(&mut doc, "forearm_l", Key::Mass, json!(0.4));
    set(&mut doc, "hand_l", Key::Mass, json!(6.0));
    let once = doctor::stabilize(&doc, &StabilizeOptions::default());
    doc.apply(&once.edit).expect("applies");
    let reported = |changes: &[String]| changes.iter().filter(|c| c.contains("inertia")).count();
    let raised = reported(&once.changes);
    assert!(raised >= 3, "{:#?}", once.changes);
    let (own, after) = (
        world_moments(&without_inertia_floors(&doc)),
        world_moments(&doc),
    );
    let children = jointed_children(&doc);
    let mut raised_bodies = 0;
    for b in children.keys() {
        let sum = below(b, &children, &own);
        let want = sum.min(2.0 * own[b].max_element());
        let got = after[b].min_element();
        println!(
            "{b}: children's sum {sum:.5}, own {:?} -> {:?}",
            own[b], after[b]
        );
        assert!(got >= want * 0.9999, "{b}: {:?} under {want}", after[b]);
        raised_bodies += usize::from(got > own[b].min_element() * 1.0001);
    }
    assert_eq!(raised_bodies, raised, "each raised body reported once");
    for (b, m) in &after {
        if !children.contains_key(b) {
            assert_eq!(*m, own[b], "{b}: a body without children keeps its inertia");
        }
    }
    let twice = doctor::stabilize(&doc, &StabilizeOptions::default());
    assert_eq!(
        reported(&twice.changes),
        0,
        "a second Stabilize raises nothing: {:#?}",
        twice.changes
    );
}
