//! Left/right twins and the mid-plane: limbs of the same kind on opposite sides pair bone by
//! bone along their paths; other bones pair by their names (`thigh_l`/`thigh_r`). The
//! mid-plane is perpendicular to the character's left, through the twins' midpoints.

use super::detect::Indexed;
use super::names::{NameIndex, Side};
use super::rig::Rig;
use crate::document::BoneId;
use glam::DVec3;

/// A left/right pair of bones (the character's own left first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Twin {
    pub left: BoneId,
    pub right: BoneId,
}

/// The plane of symmetry: the points `p` with `p.dot(normal) == offset`; `normal` points to
/// the character's left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MidPlane {
    pub normal: DVec3,
    pub offset: f64,
}

impl MidPlane {
    /// Signed distance of a point, positive on the character's left.
    pub fn distance(&self, p: DVec3) -> f64 {
        p.dot(self.normal) - self.offset
    }

    /// The mirror image of a point.
    pub fn reflect(&self, p: DVec3) -> DVec3 {
        p - self.normal * (2.0 * self.distance(p))
    }
}

fn id(i: usize) -> BoneId {
    BoneId(i as u32)
}

pub(super) fn twins(rig: &Rig, a: &Indexed) -> Vec<Twin> {
    let mut out = Vec::new();
    let mut paired = vec![false; rig.len()];
    let mut used = vec![false; a.limbs.len()];
    for l in 0..a.limbs.len() {
        if used[l] || a.limbs[l].side != Some(Side::Left) {
            continue;
        }
        let Some(r) = (0..a.limbs.len()).find(|&r| {
            !used[r] && a.limbs[r].side == Some(Side::Right) && a.limbs[r].kind == a.limbs[l].kind
        }) else {
            continue;
        };
        used[l] = true;
        used[r] = true;
        for (&x, &y) in a.limbs[l].path.iter().zip(&a.limbs[r].path) {
            if x != y && !paired[x] && !paired[y] {
                paired[x] = true;
                paired[y] = true;
                out.push(Twin {
                    left: id(x),
                    right: id(y),
                });
            }
        }
    }
    let index = NameIndex::new(
        rig.bones
            .iter()
            .enumerate()
            .map(|(i, b)| (i, b.read_name.as_str())),
    );
    for (i, b) in rig.bones.iter().enumerate() {
        let Some((j, Side::Left)) = index.twin(&b.read_name) else {
            continue;
        };
        if i != j && !paired[i] && !paired[j] {
            paired[i] = true;
            paired[j] = true;
            out.push(Twin {
                left: id(i),
                right: id(j),
            });
        }
    }
    out
}

pub(super) fn mid_plane(rig: &Rig, a: &Indexed, twins: &[Twin]) -> MidPlane {
    let normal = a.left;
    let mids: Vec<f64> = twins
        .iter()
        .map(|t| (rig.bones[t.left.index()].pos + rig.bones[t.right.index()].pos).dot(normal) / 2.0)
        .collect();
    let offset = if !mids.is_empty() {
        mids.iter().sum::<f64>() / mids.len() as f64
    } else if let Some(p) = a.pelvis {
        rig.bones[p].pos.dot(normal)
    } else {
        let n = rig.len().max(1) as f64;
        rig.bones.iter().map(|b| b.pos.dot(normal)).sum::<f64>() / n
    };
    MidPlane { normal, offset }
}
