//! Balance bones from the roles: the pelvis body as torso and pelvis, the lowest body of each
//! leg as a foot.

use super::roles::{Anatomy, Limb, Role};
use super::{bone_ref, report, rig, Body};
use crate::document::Document;

/// A leg's foot: the last body along its path that is not a toe (an index into `list`).
pub(super) fn leg_foot(a: &Anatomy, list: &[Body], leg: &Limb) -> Option<usize> {
    (0..list.len()).rev().find(|&i| {
        let b = list[i].bone;
        a.limb_of[b] == a.limb_of[leg.path[0]] && leg.path.contains(&b) && a.role[b] != Role::Toe
    })
}

/// Torso and pelvis: the pelvis body; feet: the lowest body of each leg ([`leg_foot`]).
pub(super) fn balance_bones(
    doc: &Document,
    rig: &rig::Rig,
    a: &Anatomy,
    list: &[Body],
) -> Option<report::BalanceReport> {
    let pelvis = a.pelvis.filter(|p| list.iter().any(|b| b.bone == *p))?;
    let mut feet = Vec::new();
    for l in a.limbs.iter().filter(|l| l.kind.is_leg()) {
        if let Some(f) = leg_foot(a, list, l) {
            feet.push(bone_ref(doc, rig, list[f].bone));
        }
    }
    if feet.is_empty() {
        return None;
    }
    let p = bone_ref(doc, rig, pelvis);
    Some(report::BalanceReport {
        torso_bone: p.clone(),
        pelvis_bone: p,
        foot_bones: feet,
    })
}
