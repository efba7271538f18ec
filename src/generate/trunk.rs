//! A trunk body's skin without the appendages that have no bones of their own. A tail, wings
//! or a cape skinned to the pelvis or the chest are vertices of that bone like any other, and
//! a shape fitted to them grows around the appendage: a werewolf's pelvis became a 0.9 m ball
//! behind it (its tail), a winged demon's chest a capsule around both wings. The skeleton says
//! how wide the trunk is: its limbs hang from it, the hip joints inside the pelvis and the
//! shoulder joints at the chest's sides. Vertices farther from the trunk bone than
//! [`TRUNK_REACH`] times half the widest left-right spacing of the limb roots belong to
//! something the trunk carries, not to the trunk.

use super::rig::Rig;
use super::roles::{Anatomy, CharacterKind, Role};
use glam::DVec3;

/// How far a trunk body's skin reaches from its bone, in halves of the limb roots' widest
/// spacing. Measured on the humanoids whose trunks carry nothing (the zoo's eight, CesiumMan,
/// the bundled mannequin, Mixamo's X Bot, Ely and mannequin): their farthest trunk vertices
/// lie 0.45-1.75 of it from the bone (the KayKit mannequin's chunky chest 1.75), and the VRM 0
/// avocado's fruit body 1.95. Past 2.25 lies what the trunk carries: on seventeen Mixamo-rigged
/// outside characters, a werewolf's tail (its pelvis a 0.91 m ball, now 0.12 m), a wendigo's
/// and a cat's (0.52 and 0.47 m, now 0.14 and 0.20 m), a winged demon's wings (its chest 0.55,
/// now 0.25 m).
pub const TRUNK_REACH: f64 = 2.25;

/// Half the widest lateral spacing (along the character's left) of a left and a right limb
/// root of the same kind: the thighs' hip joints, the upper arms' shoulder joints. None
/// without such a pair.
pub fn half_width(rig: &Rig, a: &Anatomy) -> Option<f64> {
    let root = |k: usize| {
        let limb = &a.limbs[k];
        let first = limb
            .path
            .iter()
            .copied()
            .find(|&b| matches!(a.role[b], Role::Thigh | Role::UpperArm))?;
        Some((limb.kind, limb.side?, rig.bones[first].pos))
    };
    let roots: Vec<_> = (0..a.limbs.len()).filter_map(root).collect();
    let mut widest: Option<f64> = None;
    for (i, &(kind, side, p)) in roots.iter().enumerate() {
        for &(k2, s2, q) in &roots[i + 1..] {
            if k2 == kind && s2 != side {
                let w = (p - q).dot(a.left).abs();
                widest = Some(widest.map_or(w, |m: f64| m.max(w)));
            }
        }
    }
    widest.filter(|w| *w > 1e-6 * a.height).map(|w| w / 2.0)
}

/// The points of body `i` that are its trunk: within [`TRUNK_REACH`] half widths of its bone
/// (the segment from its joint `along` `dir` for `len`). Every point for a body that is not
/// pelvis, spine or chest, without a width, or when fewer than `min_points` would be left.
pub fn core(
    a: &Anatomy,
    (i, origin): (usize, DVec3),
    (dir, len): (DVec3, f64),
    points: Vec<DVec3>,
    (half_width, min_points): (Option<f64>, usize),
) -> Vec<DVec3> {
    let trunk = a.kind == CharacterKind::Humanoid
        && matches!(a.role[i], Role::Pelvis | Role::Spine | Role::Chest);
    let Some(w) = half_width.filter(|_| trunk) else {
        return points;
    };
    let reach = TRUNK_REACH * w;
    let near = |p: &DVec3| super::fit::distance_to_segment(*p, origin, dir, len) <= reach;
    let kept = points.iter().filter(|p| near(p)).count();
    if kept == points.len() || kept < min_points {
        return points;
    }
    points.into_iter().filter(near).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_cluster_is_left_out_and_a_near_one_kept() {
        let origin = DVec3::ZERO;
        let body: Vec<DVec3> = (0..40)
            .map(|k| {
                DVec3::new(
                    (k as f64 * 0.7).cos() * 0.15,
                    0.01 * k as f64,
                    (k as f64 * 0.7).sin() * 0.15,
                )
            })
            .collect();
        let tail: Vec<DVec3> = (0..30)
            .map(|k| DVec3::new(0.0, 0.0, -0.5 - 0.05 * k as f64))
            .collect();
        let mut all = body.clone();
        all.extend(&tail);
        let a = pelvis_anatomy();
        let core_of = |half_width| {
            core(
                &a,
                (0, origin),
                (DVec3::Y, 0.4),
                all.clone(),
                (half_width, 6),
            )
        };
        assert_eq!(core_of(Some(0.15)), body, "the tail beyond 0.3 is left out");
        assert_eq!(
            core_of(Some(2.0)).len(),
            all.len(),
            "a wide trunk keeps everything"
        );
        let none = core_of(None);
        assert_eq!(none.len(), all.len(), "no width, no trimming");
    }

    fn pelvis_anatomy() -> Anatomy {
        Anatomy {
            kind: crate::anatomy::CharacterKind::Humanoid,
            role: vec![Role::Pelvis],
            side: vec![None],
            limb_of: vec![None],
            limbs: Vec::new(),
            pelvis: Some(0),
            chest: None,
            head: None,
            up: DVec3::Y,
            forward: DVec3::Z,
            left: DVec3::X,
            height: 1.75,
            ground: 0.0,
            notes: Vec::new(),
        }
    }
}
