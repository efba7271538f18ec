//! Left/right twins: by name (`_l`/`_r`, `.L`/`.R`, `Left`/`Right`, `L_`/`R_`, `_L_`, ...),
//! failing that by position mirrored across the character's mid-plane.

use crate::document::{BoneId, Document};
use glam::DVec3;

pub use crate::anatomy::names::{swapped_name, Side};

/// The character's lateral axis (toward its left) and the mid-plane's offset along it. From
/// the bones whose names say their side: the mean direction from right to left twin, the
/// plane through their midpoints. Without such names, glTF's convention (the character faces
/// +Z, its left is +X) and the plane through the bones' mean.
pub fn mid_plane(doc: &Document) -> (DVec3, f64) {
    let mut sum = DVec3::ZERO;
    let mut mids = Vec::new();
    for id in doc.bone_ids() {
        let Some((other, Side::Left)) = swapped_name(&doc.bone(id).name) else {
            continue;
        };
        let Some(twin) = doc.bone_by_name(&other) else {
            continue;
        };
        let (l, r) = (rest_position(doc, id), rest_position(doc, twin));
        sum += l - r;
        mids.push((l + r) * 0.5);
    }
    if sum.length() > 1e-9 && !mids.is_empty() {
        let axis = sum.normalize();
        let mid = mids.iter().map(|m| m.dot(axis)).sum::<f64>() / mids.len() as f64;
        return (axis, mid);
    }
    let xs: Vec<f64> = doc.bone_ids().map(|id| rest_position(doc, id).x).collect();
    let mid = if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    (DVec3::X, mid)
}

fn rest_position(doc: &Document, id: BoneId) -> DVec3 {
    doc.skeleton
        .nodes
        .get(doc.bone(id).node)
        .map_or(DVec3::ZERO, |n| n.world_from_node.w_axis.truncate())
}

/// Every (left, right) pair of bones: by name first, when the named twin also sits where
/// the bone's mirror image is (names can mislead: CesiumMan numbers one arm from the hand
/// inwards); then bones left without a twin are matched by position mirrored across the
/// mid-plane. Tolerances are shares of the skeleton's extent: 10% for a named pair, 2% for
/// one found by position alone.
pub fn twins(doc: &Document) -> Vec<(BoneId, BoneId)> {
    let (axis, mid) = mid_plane(doc);
    let pos: Vec<DVec3> = doc.bone_ids().map(|id| rest_position(doc, id)).collect();
    let (lo, hi) = pos.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(a, b), p| (a.min(*p), b.max(*p)),
    );
    let extent = (hi - lo).max_element().max(1e-9);
    let off = |p: DVec3| p.dot(axis) - mid;
    let mirror = |p: DVec3| p - axis * (2.0 * off(p));
    let at = |id: BoneId| pos.get(id.index()).copied().unwrap_or(DVec3::ZERO);
    let mut out: Vec<(BoneId, BoneId)> = Vec::new();
    let paired =
        |out: &Vec<(BoneId, BoneId)>, id: BoneId| out.iter().any(|&(l, r)| l == id || r == id);
    for id in doc.bone_ids() {
        let Some((other, side)) = swapped_name(&doc.bone(id).name) else {
            continue;
        };
        let Some(twin) = doc.bone_by_name(&other) else {
            continue;
        };
        if twin == id || paired(&out, id) || paired(&out, twin) {
            continue;
        }
        if mirror(at(id)).distance(at(twin)) > 0.10 * extent {
            continue;
        }
        out.push(if side == Side::Left {
            (id, twin)
        } else {
            (twin, id)
        });
    }
    let tol = 0.02 * extent;
    for id in doc.bone_ids() {
        let p = at(id);
        if paired(&out, id) || off(p) <= tol {
            continue;
        }
        let best = doc
            .bone_ids()
            .filter(|&o| o != id && !paired(&out, o) && off(at(o)) < -tol)
            .map(|o| (o, at(o).distance(mirror(p))))
            .filter(|&(_, d)| d <= tol)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((twin, _)) = best {
            out.push((id, twin));
        }
    }
    out
}

/// The twin of a bone, if it has one.
pub fn twin_of(pairs: &[(BoneId, BoneId)], id: BoneId) -> Option<BoneId> {
    pairs.iter().find_map(|&(l, r)| {
        if l == id {
            Some(r)
        } else if r == id {
            Some(l)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_swap_across_conventions() {
        for (a, b) in [
            ("thigh_l", "thigh_r"),
            ("upperarm_twist_01_l", "upperarm_twist_01_r"),
            ("thigh.L", "thigh.R"),
            ("DEF-upper_arm.L", "DEF-upper_arm.R"),
            ("thigh.L.001", "thigh.R.001"),
            ("mixamorig:LeftUpLeg", "mixamorig:RightUpLeg"),
            ("leftUpperLeg", "rightUpperLeg"),
            ("leg_joint_L_1", "leg_joint_R_1"),
            ("Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_R__4_"),
            ("b_LeftLeg01_015", "b_RightLeg01_015"),
            ("L_Hand", "R_Hand"),
        ] {
            assert_eq!(swapped_name(a).map(|x| x.0), Some(b.to_string()), "{a}");
            assert_eq!(swapped_name(b).map(|x| x.0), Some(a.to_string()), "{b}");
        }
        assert_eq!(swapped_name("spine_01"), None);
        assert_eq!(swapped_name("pelvis"), None);
    }
}
