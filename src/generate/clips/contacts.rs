//! Bodies a clip drives into each other: where two bodies that would collide interpenetrate
//! in the clip's clamped pose (the pose the drives aim at), the clip cannot be followed, so
//! the pair is kept apart by an explicit `collision_pairs` entry (only that pair: the rest of
//! their groups still collide).

use super::super::fit::WorldFit;
use super::super::groups::overlap;
use super::super::Body;
use crate::anim::Follower;
use crate::document::{Clip, Document};
use glam::DMat4;
use std::collections::BTreeSet;

/// Penetration (share of the character's height) past which a clip's pose is a contact.
pub const PENETRATION: f64 = 0.01;
/// Clip samples per second for contacts.
pub const SAMPLE_HZ: f64 = 30.0;

/// `fit` moved with its bone from the rest matrix to `now` (scale ignored).
fn posed(fit: &WorldFit, rest: &DMat4, now: &DMat4) -> WorldFit {
    let (_, rr, rt) = rest.to_scale_rotation_translation();
    let (_, nr, nt) = now.to_scale_rotation_translation();
    let q = nr * rr.inverse();
    WorldFit {
        center: nt + q * (fit.center - rt),
        rotation: (q * fit.rotation).normalize(),
        ..*fit
    }
}

fn in_mask(mask: &str, group: &str) -> bool {
    mask.split(',').any(|m| m == group || m == "all")
}

/// Adds to `out` every pair (i < j, indices of `list`) that collides under the groups and
/// masks, is not jointed, and interpenetrates in `clip`'s clamped pose.
pub(super) fn in_clip(
    doc: &Document,
    f: &Follower,
    clip: &Clip,
    list: &[Body],
    masks: &[String],
    height: f64,
    out: &mut BTreeSet<(usize, usize)>,
) {
    let n = list.len();
    let collides = |i: usize, j: usize| {
        list[i].parent != Some(j)
            && list[j].parent != Some(i)
            && in_mask(&masks[i], &list[j].group)
            && in_mask(&masks[j], &list[i].group)
    };
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| ((i + 1)..n).map(move |j| (i, j)))
        .filter(|&(i, j)| collides(i, j))
        .collect();
    if pairs.is_empty() {
        return;
    }
    let rest: Vec<DMat4> = list
        .iter()
        .map(|b| {
            let node = doc.bones.get(b.bone).map_or(usize::MAX, |x| x.node);
            doc.skeleton
                .nodes
                .get(node)
                .map_or(DMat4::IDENTITY, |x| x.world_from_node)
        })
        .collect();
    let samples = ((clip.duration_s as f64 * SAMPLE_HZ).ceil() as usize).clamp(1, 1800);
    for s in 0..=samples {
        let t = clip.duration_s * s as f32 / samples as f32;
        let pose = f.clamped_pose(&f.bone_pose(clip, t));
        let fits: Vec<WorldFit> = list
            .iter()
            .zip(&rest)
            .map(|(b, r)| posed(&b.shape.fit, r, pose.get(b.bone).unwrap_or(r)))
            .collect();
        for &(i, j) in &pairs {
            if !out.contains(&(i, j)) && overlap(&fits[i], &fits[j], -PENETRATION * height) {
                out.insert((i, j));
            }
        }
    }
}
