//! Balance bones from the roles: the pelvis body as torso and pelvis, the lowest body of each
//! leg as a foot. Used by the generator, and by the simulation for files without settings.

use super::roles::{Anatomy, LimbKind, Role};
use super::{bone_ref, report, rig, roles, samples, Body};
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
        if !matches!(
            l.kind,
            LimbKind::Leg | LimbKind::HindLeg | LimbKind::FrontLeg
        ) {
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

/// Balance bones found by role (for a document without balance settings): the pelvis body,
/// and the lowest body of each leg. Only bones with colliders count. None when the skeleton
/// has no recognisable pelvis and feet.
pub fn balance_by_role(doc: &Document) -> Option<report::BalanceReport> {
    let rig = rig::Rig::new(doc);
    if rig.is_empty() {
        return None;
    }
    let empty = samples::Samples {
        by_bone: vec![Vec::new(); rig.len()],
        secondary: vec![Vec::new(); rig.len()],
        ..samples::Samples::default()
    };
    let a = roles::detect(&rig, &empty, None);
    let has_body = |i: usize| doc.bones[i].collider().is_some();
    let pelvis_bone = a.pelvis?;
    let pelvis = std::iter::once(pelvis_bone)
        .chain(rig.bones.iter().scan(pelvis_bone, |cur, _| {
            let p = rig.bones[*cur].parent?;
            *cur = p;
            Some(p)
        }))
        .find(|&b| has_body(b))?;
    let feet: Vec<String> = a
        .limbs
        .iter()
        .filter(|l| {
            matches!(
                l.kind,
                LimbKind::Leg | LimbKind::HindLeg | LimbKind::FrontLeg
            )
        })
        .filter_map(|l| {
            let on_path: Vec<usize> = l.path.iter().copied().filter(|&b| has_body(b)).collect();
            let foot = on_path.iter().rev().find(|&&b| a.role[b] != Role::Toe);
            foot.or(on_path.last()).map(|&b| bone_ref(doc, &rig, b))
        })
        .collect();
    if feet.is_empty() {
        return None;
    }
    let p = bone_ref(doc, &rig, pelvis);
    Some(report::BalanceReport {
        torso_bone: p.clone(),
        pelvis_bone: p,
        foot_bones: feet,
    })
}
