//! Balance bones from the roles: the pelvis body as torso and pelvis, the lowest body of each
//! leg as a foot.

use super::roles::{Anatomy, Role};
use super::{bone_ref, report, rig, Body};
use crate::document::Document;

/// Torso and pelvis: the pelvis body; feet: the lowest body of each leg.
pub(super) fn balance_bones(
    doc: &Document,
    rig: &rig::Rig,
    a: &Anatomy,
    list: &[Body],
) -> Option<report::BalanceReport> {
    let pelvis = a.pelvis.filter(|p| list.iter().any(|b| b.bone == *p))?;
    let mut feet = Vec::new();
    for l in &a.limbs {
        if !l.kind.is_leg() {
            continue;
        }
        let foot = list
            .iter()
            .rev()
            .filter(|b| a.limb_of[b.bone] == a.limb_of[l.path[0]] && l.path.contains(&b.bone))
            .find(|b| a.role[b.bone] != Role::Toe);
        if let Some(f) = foot {
            feet.push(bone_ref(doc, rig, f.bone));
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
