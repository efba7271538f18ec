//! Axes: forward from the skeleton (the feet of a humanoid, pelvis to head of a quadruped;
//! glTF's +Z when nothing tells), up +Y, left = up x forward; each limb's side from where it
//! hangs, checked against its name.

use super::names::Side;
use super::roles::{Anatomy, CharacterKind, Ctx, LimbKind, Role};
use glam::DVec3;

/// Forward from the feet (humanoid) or from the pelvis to the chest (quadruped); left from
/// forward; each limb's side from geometry, checked against its name.
pub(super) fn sides(cx: &Ctx, a: &mut Anatomy) {
    let horizontal = |v: DVec3| v - a.up * v.dot(a.up);
    let mut fwd = DVec3::ZERO;
    match a.kind {
        CharacterKind::Humanoid => {
            for l in a.limbs.iter().filter(|l| l.kind == LimbKind::Leg) {
                if let Some(&foot) = l.path.iter().find(|&&b| a.role[b] == Role::Foot) {
                    let pts: Vec<DVec3> = cx
                        .rig
                        .subtree(foot)
                        .iter()
                        .flat_map(|&b| cx.samples.by_bone[b].iter().copied())
                        .collect();
                    let tip = match l.path.iter().find(|&&b| a.role[b] == Role::Toe) {
                        Some(&t) => cx.rig.bones[t].pos,
                        None if !pts.is_empty() => pts.iter().sum::<DVec3>() / pts.len() as f64,
                        None => cx.rig.bones[foot].pos,
                    };
                    fwd += horizontal(tip - cx.rig.bones[foot].pos);
                }
            }
        }
        CharacterKind::Quadruped => {
            if let (Some(p), Some(c)) = (a.pelvis, a.head.or(a.chest)) {
                fwd = horizontal(cx.rig.bones[c].pos - cx.rig.bones[p].pos);
            }
        }
        CharacterKind::Other => {}
    }
    if fwd.length() > 0.01 * cx.height {
        a.forward = fwd.normalize();
    } else if a.kind != CharacterKind::Other {
        a.notes
            .push("could not tell forward from the skeleton; assumed +Z (glTF)".into());
    }
    a.left = a.up.cross(a.forward).normalize();
    let mut disagree = 0;
    for l in &mut a.limbs {
        let Some(&top) = l.path.first() else { continue };
        let d = (cx.rig.bones[top].pos - cx.rig.bones[l.root].pos).dot(a.left);
        let by_geometry = if d.abs() > 0.01 * cx.height {
            Some(if d > 0.0 { Side::Left } else { Side::Right })
        } else {
            None
        };
        let by_name = l.path.iter().find_map(|&b| cx.rig.bones[b].hints.side);
        match (by_geometry, by_name) {
            (Some(g), Some(nm)) if g == nm => {}
            (Some(g), Some(_)) => {
                disagree += 1;
                a.notes.push(format!(
                    "'{}' is named {} but lies on the character's {}; using the geometry",
                    cx.rig.bones[top].name,
                    side_word(by_name),
                    side_word(Some(g))
                ));
            }
            _ => {}
        }
        l.side = by_geometry.or(by_name);
    }
    for (k, l) in a.limbs.iter().enumerate() {
        for i in 0..a.side.len() {
            if a.limb_of[i] == Some(k) {
                a.side[i] = l.side;
            }
        }
    }
    if disagree > 0 {
        a.notes.push(format!(
            "{disagree} limb name(s) disagree with the geometry"
        ));
    }
}

fn side_word(s: Option<Side>) -> &'static str {
    match s {
        Some(Side::Left) => "left",
        Some(Side::Right) => "right",
        None => "centre",
    }
}
