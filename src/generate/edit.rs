//! The generated ragdoll as one document edit: each body's physics extras, the removal of
//! physics from bones that no longer have a body, and the balance settings.

use super::bodies::{self, Fate};
use super::roles::Anatomy;
use super::{balance, bone_ref, drives, emit, report, rig, Body, Options};
use crate::document::{Document, Edit, EditTarget};

/// The edit and the balance bones it names (None: no legs, balance off).
pub(super) struct BuiltEdit {
    pub edit: Edit,
    pub balance: Option<report::BalanceReport>,
}

/// A node's current extras, if any.
fn node_extras(doc: &Document, node: usize) -> Option<&serde_json::Value> {
    doc.json().get("nodes")?.get(node)?.get("extras")
}

#[allow(clippy::too_many_arguments)]
pub(super) fn build_edit(
    doc: &Document,
    rig: &rig::Rig,
    a: &Anatomy,
    plan: &bodies::Plan,
    list: &[Body],
    masks: &[String],
    opts: &Options,
    total: f64,
) -> BuiltEdit {
    let mut edits = body_edits(doc, rig, a, list, masks);
    if !opts.keep_existing {
        edits.extend(dropped_body_edits(doc, rig, plan));
    }
    let balance = balance::balance_bones(doc, rig, a, list);
    let existing = doc.has_balance_settings();
    if !(opts.keep_existing && existing) {
        edits.extend(balance_edits(a, total, balance.as_ref()));
    }
    BuiltEdit {
        edit: Edit::Group(edits),
        balance,
    }
}

/// Each body's physics extras, written over its node's extras.
fn body_edits(
    doc: &Document,
    rig: &rig::Rig,
    a: &Anatomy,
    list: &[Body],
    masks: &[String],
) -> Vec<Edit> {
    let mut edits = Vec::new();
    for (k, b) in list.iter().enumerate() {
        let bone = &rig.bones[b.bone];
        let parent_bone = b
            .parent
            .map(|p| list[p].bone)
            .or(b.kept_parent.map(|k| k.0));
        let joint = match (parent_bone, b.joint) {
            (Some(p), Some(j)) => Some((bone_ref(doc, rig, p), j, b.gains)),
            _ => None,
        };
        let phys = emit::physics(&emit::BodyOut {
            bone,
            fit: &b.shape.fit,
            mass_kg: b.mass_kg,
            joint,
            group: &b.group,
            mask: &masks[k],
            apart: b
                .apart
                .iter()
                .map(|&o| bone_ref(doc, rig, list[o].bone))
                .collect(),
            angular_damping: emit::angular_damping(a.height),
            friction_torque_nm: b.friction_torque_nm,
        });
        if let Some(extras) = emit::node_extras(node_extras(doc, bone.node), Some(phys)) {
            edits.push(Edit::ReplaceExtras {
                target: EditTarget::Node(bone.node),
                extras,
            });
        }
    }
    edits
}

/// The physics removed from bones that had some and get no body.
fn dropped_body_edits(doc: &Document, rig: &rig::Rig, plan: &bodies::Plan) -> Vec<Edit> {
    let mut edits = Vec::new();
    for (i, f) in plan.fate.iter().enumerate() {
        let node = rig.bones[i].node;
        let has = node_extras(doc, node)
            .and_then(|e| e.get(crate::document::write::PHYSICS))
            .is_some();
        if *f != Fate::Body && has {
            if let Some(extras) = emit::node_extras(node_extras(doc, node), None) {
                edits.push(Edit::ReplaceExtras {
                    target: EditTarget::Node(node),
                    extras,
                });
            }
        }
    }
    edits
}

/// The document's balance settings, one `Set` per key.
fn balance_edits(a: &Anatomy, total: f64, balance: Option<&report::BalanceReport>) -> Vec<Edit> {
    let g = drives::balance_gains(total, a.height, super::gains::legs(a));
    // Without legs (a snake, a fish) there is nothing to stand on: balance is off and no
    // bones are named, so the simulation reports falls and tilt as not measured rather
    // than judging a writhing body by a humanoid's pelvis.
    let settings = match balance {
        Some(b) => emit::balance(true, &b.torso_bone, &b.pelvis_bone, &b.foot_bones, &g),
        None => crate::document::BalanceSettings {
            enabled: false,
            torso_bone: None,
            pelvis_bone: None,
            foot_bones: None,
            ..emit::balance(false, "", "", &[], &g)
        },
    };
    let root = crate::document::write::root_physics(&settings);
    let mut edits = Vec::new();
    for (key, value) in root.as_object().into_iter().flatten() {
        edits.push(Edit::Set {
            target: EditTarget::Document,
            key: key.clone(),
            value: value.clone(),
        });
    }
    edits
}
