//! The skeleton as the generator sees it: each bone's rest placement in the world, its name
//! hints, and the structural tree in which twist, roll, helper and end bones are contracted
//! away (their children hang from the nearest structural ancestor).

use super::names::{self, NameHints};
use crate::document::Document;
use glam::{DMat4, DQuat, DVec3};

/// One bone (same index as `doc.bones`).
#[derive(Debug, Clone)]
pub struct RigBone {
    pub node: usize,
    pub name: String,
    pub hints: NameHints,
    /// Nearest ancestor bone.
    pub parent: Option<usize>,
    /// Rest transform in the world (with scale).
    pub world_from_bone: DMat4,
    /// Rest position and rotation (scale removed).
    pub pos: DVec3,
    pub rot: DQuat,
    /// World scale (the mean of the three axes).
    pub scale: f64,
    /// True when the world scale differs between axes by more than 1%.
    pub nonuniform: bool,
    /// Part of the structural tree (not a twist, helper or end bone).
    pub structural: bool,
}

/// All bones with the structural tree.
#[derive(Debug, Clone, Default)]
pub struct Rig {
    pub bones: Vec<RigBone>,
    /// Structural parent (nearest structural ancestor).
    pub s_parent: Vec<Option<usize>>,
    /// Structural children, in file order.
    pub s_children: Vec<Vec<usize>>,
}

fn rigid(m: &DMat4) -> (DVec3, DQuat, DVec3) {
    let (s, r, t) = m.to_scale_rotation_translation();
    let r = if r.is_finite() && r.length_squared() > 0.0 {
        r.normalize()
    } else {
        DQuat::IDENTITY
    };
    let t = if t.is_finite() { t } else { DVec3::ZERO };
    (s, r, t)
}

impl Rig {
    pub fn new(doc: &Document) -> Self {
        let mut bones: Vec<RigBone> = doc
            .bones
            .iter()
            .map(|b| {
                let world = doc.skeleton.nodes[b.node].world_from_node;
                let (s, rot, pos) = rigid(&world);
                let s = s.abs();
                let mean = (s.x + s.y + s.z) / 3.0;
                let scale = if mean.is_finite() && mean > 1e-12 {
                    mean
                } else {
                    1.0
                };
                RigBone {
                    node: b.node,
                    name: b.name.clone(),
                    hints: names::hints(&b.name),
                    parent: b.parent.map(|p| p.index()),
                    world_from_bone: world,
                    pos,
                    rot,
                    scale,
                    nonuniform: (s.max_element() - s.min_element()) > 0.01 * mean,
                    structural: true,
                }
            })
            .collect();
        let all_names: std::collections::HashSet<String> =
            bones.iter().map(|b| b.name.clone()).collect();
        for b in &mut bones {
            b.hints.twist |= is_limb_segment_copy(&b.name, &b.hints, &all_names);
            b.structural = !(b.hints.twist || b.hints.helper);
        }
        let n = bones.len();
        let mut s_parent = vec![None; n];
        for i in 0..n {
            let mut p = bones[i].parent;
            // Bounded walk: parents come from a tree, but never trust a count.
            for _ in 0..n {
                match p {
                    Some(q) if !bones[q].structural => p = bones[q].parent,
                    _ => break,
                }
            }
            s_parent[i] = p;
        }
        let mut s_children = vec![Vec::new(); n];
        for i in 0..n {
            if let (true, Some(p)) = (bones[i].structural, s_parent[i]) {
                s_children[p].push(i);
            }
        }
        Rig {
            bones,
            s_parent,
            s_children,
        }
    }

    pub fn len(&self) -> usize {
        self.bones.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }

    /// Bone `i` and its structural descendants, depth first (iterative).
    pub fn subtree(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![i];
        while let Some(b) = stack.pop() {
            out.push(b);
            stack.extend(self.s_children[b].iter().rev().copied());
        }
        out
    }

    /// Structural ancestors of `i`, nearest first.
    pub fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut p = self.s_parent[i];
        while let Some(q) = p {
            if out.len() > self.len() {
                break;
            }
            out.push(q);
            p = self.s_parent[q];
        }
        out
    }

    /// World-space point to bone `i`'s own coordinates (its scale included).
    pub fn to_bone(&self, i: usize, world: DVec3) -> DVec3 {
        self.bones[i]
            .world_from_bone
            .inverse()
            .transform_point3(world)
    }
}

/// Rigify-style numbered copies of a limb bone (`DEF-thigh.L.001` beside `DEF-thigh.L`) are
/// twist segments; numbered spine bones (`DEF-spine.001`) are not.
fn is_limb_segment_copy(
    name: &str,
    hints: &NameHints,
    all: &std::collections::HashSet<String>,
) -> bool {
    const LIMB: &[&str] = &[
        "thigh", "shin", "upper", "forearm", "arm", "leg", "calf", "shoulder",
    ];
    let Some((base, num)) = name.rsplit_once('.') else {
        return false;
    };
    num.len() == 3
        && num.bytes().all(|c| c.is_ascii_digit())
        && all.contains(base)
        && hints.words.iter().any(|w| LIMB.contains(&w.as_str()))
}

/// Percentile `q` (0..1) of an already sorted slice (linear interpolation); 0 when empty.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let x = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (i, f) = (x.floor() as usize, x.fract());
    let a = sorted[i];
    let b = sorted[(i + 1).min(sorted.len() - 1)];
    a + (b - a) * f
}

/// Sorts finite values (non-finite ones dropped).
pub fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    v
}
