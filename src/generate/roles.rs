//! Roles from topology and geometry, names only as hints: the chains whose ends reach the
//! ground are legs, their common branch is the pelvis; the path from the pelvis to the highest
//! point is spine, chest, neck and head; long side chains from the chest are arms; a second
//! pair of ground chains makes a quadruped (front legs on the chest), and a chain from the
//! pelvis that is neither leg nor spine is the tail. Limb segments are numbered from the body
//! outwards by the tree, never by the numbers in their names (CesiumMan counts its arm bones
//! from the hand inwards).

use super::names::Side;
use super::plans;
use super::rig::Rig;
use super::samples::Samples;
use glam::DVec3;
use serde::Serialize;

/// What a bone is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Pelvis,
    Spine,
    Chest,
    Neck,
    Head,
    Clavicle,
    UpperArm,
    Forearm,
    Hand,
    Finger,
    Thigh,
    Shin,
    Foot,
    Toe,
    Tail,
    Twist,
    Helper,
    Other,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Pelvis => "pelvis",
            Role::Spine => "spine",
            Role::Chest => "chest",
            Role::Neck => "neck",
            Role::Head => "head",
            Role::Clavicle => "clavicle",
            Role::UpperArm => "upper_arm",
            Role::Forearm => "forearm",
            Role::Hand => "hand",
            Role::Finger => "finger",
            Role::Thigh => "thigh",
            Role::Shin => "shin",
            Role::Foot => "foot",
            Role::Toe => "toe",
            Role::Tail => "tail",
            Role::Twist => "twist",
            Role::Helper => "helper",
            Role::Other => "other",
        }
    }
}

/// The body plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum CharacterKind {
    Humanoid,
    Quadruped,
    Other,
}

/// Which kind of limb a chain is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimbKind {
    Leg,
    Arm,
    HindLeg,
    FrontLeg,
    Tail,
}

/// One limb chain, from the body outwards.
#[derive(Debug, Clone)]
pub struct Limb {
    pub kind: LimbKind,
    pub side: Option<Side>,
    /// The bone the limb hangs from (pelvis or chest).
    pub root: usize,
    /// Main path bones, body outwards.
    pub path: Vec<usize>,
}

/// The detected anatomy.
#[derive(Debug, Clone)]
pub struct Anatomy {
    pub kind: CharacterKind,
    pub role: Vec<Role>,
    pub side: Vec<Option<Side>>,
    /// Limb index per bone (main path and its side branches).
    pub limb_of: Vec<Option<usize>>,
    pub limbs: Vec<Limb>,
    pub pelvis: Option<usize>,
    pub chest: Option<usize>,
    pub head: Option<usize>,
    /// World axes (unit): up is +Y (glTF); forward and left from the skeleton and mesh.
    pub up: DVec3,
    pub forward: DVec3,
    pub left: DVec3,
    /// Character height along up, and the lowest point (file units).
    pub height: f64,
    pub ground: f64,
    /// Messages for diagnostics (warnings).
    pub notes: Vec<String>,
}

/// Per-bone extents from the skin: lowest and highest point, vertex count.
pub(super) struct Reach {
    low: Vec<f64>,
    high: Vec<f64>,
    count: Vec<usize>,
    /// Highest point of each structural subtree.
    sub_high: Vec<f64>,
}

fn reach(rig: &Rig, samples: &Samples, up: DVec3) -> Reach {
    let n = rig.len();
    let mut r = Reach {
        low: vec![0.0; n],
        high: vec![0.0; n],
        count: vec![0; n],
        sub_high: vec![0.0; n],
    };
    for i in 0..n {
        let h0 = rig.bones[i].pos.dot(up);
        let v = super::rig::sorted(samples.by_bone[i].iter().map(|p| p.dot(up)));
        r.count[i] = v.len();
        r.low[i] = h0.min(if v.is_empty() {
            h0
        } else {
            super::rig::percentile(&v, 0.02)
        });
        r.high[i] = h0.max(if v.is_empty() {
            h0
        } else {
            super::rig::percentile(&v, 0.98)
        });
    }
    for &i in topo_order(rig).iter().rev() {
        let mut h = r.high[i];
        for &c in &rig.s_children[i] {
            h = h.max(r.sub_high[c]);
        }
        r.sub_high[i] = h;
    }
    r
}

/// Structural bones, parents before children (iterative).
pub fn topo_order(rig: &Rig) -> Vec<usize> {
    let mut out = Vec::with_capacity(rig.len());
    let mut stack: Vec<usize> = (0..rig.len())
        .filter(|&i| rig.bones[i].structural && rig.s_parent[i].is_none())
        .rev()
        .collect();
    while let Some(i) = stack.pop() {
        out.push(i);
        stack.extend(rig.s_children[i].iter().rev().copied());
    }
    out
}

/// Height and ground level along +Y from the skin (robust percentiles) or the bones.
fn extent(rig: &Rig, samples: &Samples) -> (f64, f64) {
    let mut v = super::rig::sorted(samples.all().map(|p| p.y));
    if v.len() < 16 {
        v = super::rig::sorted(rig.bones.iter().map(|b| b.pos.y));
    }
    let lo = super::rig::percentile(&v, 0.002);
    let hi = super::rig::percentile(&v, 0.998);
    (hi - lo, lo)
}

pub(super) struct Ctx<'a> {
    pub rig: &'a Rig,
    pub samples: &'a Samples,
    pub reach: Reach,
    pub height: f64,
    pub ground: f64,
}

impl Ctx<'_> {
    pub fn dist(&self, a: usize, b: usize) -> f64 {
        self.rig.bones[a].pos.distance(self.rig.bones[b].pos)
    }

    /// Drops trailing bones of a path that carry no skin (end bones), when there is a skin.
    pub fn trim(&self, mut path: Vec<usize>) -> Vec<usize> {
        let skinned = self.reach.count.iter().any(|&c| c > 0);
        while skinned && path.len() > 1 && path.last().is_some_and(|&b| self.reach.count[b] == 0) {
            path.pop();
        }
        path
    }

    /// Chains whose lowest point reaches the ground: (root branch, path top..leaf).
    fn ground_chains(&self) -> Vec<(usize, Vec<usize>)> {
        let rig = self.rig;
        let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
        let leaves =
            (0..rig.len()).filter(|&i| rig.bones[i].structural && rig.s_children[i].is_empty());
        let mut best: Vec<(usize, f64)> = Vec::new(); // (top, lowest) per chain top
        let mut tops: Vec<(usize, usize, usize)> = Vec::new(); // (top, root, leaf)
        for leaf in leaves {
            if self.reach.low[leaf] > self.ground + 0.1 * self.height {
                continue;
            }
            let mut a = leaf;
            let mut root = None;
            for _ in 0..rig.len() {
                let Some(p) = rig.s_parent[a] else { break };
                if rig.s_children[p].len() >= 2 && self.dist(p, leaf) > 0.25 * self.height {
                    root = Some(p);
                    break;
                }
                a = p;
            }
            let Some(root) = root else { continue };
            match best.iter_mut().position(|(t, _)| *t == a) {
                Some(k) if self.reach.low[leaf] < best[k].1 => {
                    best[k].1 = self.reach.low[leaf];
                    tops[k] = (a, root, leaf);
                }
                Some(_) => {}
                None => {
                    best.push((a, self.reach.low[leaf]));
                    tops.push((a, root, leaf));
                }
            }
        }
        for (top, root, leaf) in tops {
            let mut path = vec![leaf];
            path.extend(rig.ancestors(leaf).into_iter().take_while(|&b| b != root));
            path.reverse();
            debug_assert_eq!(path.first(), Some(&top));
            out.push((root, path));
        }
        out
    }

    /// From `from`, descend into the child whose subtree reaches highest (excluding `skip`).
    pub fn highest_path(&self, from: usize, skip: &[usize]) -> Vec<usize> {
        self.descend(from, skip, &self.reach.sub_high)
    }

    /// From `from`, descend into the child whose subtree reaches farthest from `origin`.
    pub fn farthest_path(&self, from: usize, origin: DVec3, skip: &[usize]) -> Vec<usize> {
        let far: Vec<f64> = (0..self.rig.len())
            .map(|i| {
                self.rig
                    .subtree(i)
                    .iter()
                    .map(|&b| self.rig.bones[b].pos.distance(origin))
                    .fold(0.0, f64::max)
            })
            .collect();
        self.descend(from, skip, &far)
    }

    /// From `from`, step into the child (not in `skip`) with the largest `score` until a leaf;
    /// end bones trimmed.
    fn descend(&self, from: usize, skip: &[usize], score: &[f64]) -> Vec<usize> {
        let mut path = Vec::new();
        let mut cur = from;
        for _ in 0..self.rig.len() {
            let next = self.rig.s_children[cur]
                .iter()
                .copied()
                .filter(|c| !skip.contains(c))
                .max_by(|&a, &b| score[a].total_cmp(&score[b]));
            let Some(n) = next else { break };
            path.push(n);
            cur = n;
        }
        self.trim(path)
    }

    /// The limb path down to its first branch (the hand or foot), end bones trimmed.
    pub fn limb_path(&self, top: usize) -> Vec<usize> {
        let mut path = vec![top];
        let mut cur = top;
        for _ in 0..self.rig.len() {
            match self.rig.s_children[cur].as_slice() {
                [only] => {
                    path.push(*only);
                    cur = *only;
                }
                _ => break,
            }
        }
        self.trim(path)
    }
}

/// Detects the body plan and every bone's role. `forced` overrides the detected kind when the
/// topology allows it.
pub fn detect(rig: &Rig, samples: &Samples, forced: Option<CharacterKind>) -> Anatomy {
    let up = DVec3::Y;
    let (height, ground) = extent(rig, samples);
    let cx = Ctx {
        rig,
        samples,
        reach: reach(rig, samples, up),
        height: if height.is_finite() && height > 0.0 {
            height
        } else {
            1.0
        },
        ground,
    };
    let n = rig.len();
    let mut a = Anatomy {
        kind: CharacterKind::Other,
        role: vec![Role::Other; n],
        side: vec![None; n],
        limb_of: vec![None; n],
        limbs: Vec::new(),
        pelvis: None,
        chest: None,
        head: None,
        up,
        forward: DVec3::Z,
        left: DVec3::X,
        height: cx.height,
        ground,
        notes: Vec::new(),
    };
    for (i, b) in rig.bones.iter().enumerate() {
        a.role[i] = if b.hints.twist {
            Role::Twist
        } else if b.hints.helper {
            Role::Helper
        } else {
            Role::Other
        };
    }
    let chains = cx.ground_chains();
    let mut roots: Vec<(usize, Vec<Vec<usize>>)> = Vec::new();
    for (root, path) in chains {
        match roots.iter_mut().find(|(r, _)| *r == root) {
            Some((_, list)) => list.push(path),
            None => roots.push((root, vec![path])),
        }
    }
    let pairs: Vec<&(usize, Vec<Vec<usize>>)> =
        roots.iter().filter(|(_, l)| l.len() >= 2).collect();
    let quadruped = pairs.iter().find_map(|h| {
        pairs
            .iter()
            .find(|f| f.0 != h.0 && rig.ancestors(f.0).contains(&h.0))
            .map(|f| ((*h).clone(), (*f).clone()))
    });
    let biped = pairs.first().map(|p| (*p).clone());
    let want = forced;
    match (quadruped, biped) {
        (Some((hind, front)), _)
            if want != Some(CharacterKind::Humanoid) && want != Some(CharacterKind::Other) =>
        {
            plans::quadruped(&cx, &mut a, hind, front)
        }
        (_, Some(pel))
            if want != Some(CharacterKind::Other) && want != Some(CharacterKind::Quadruped) =>
        {
            plans::biped(&cx, &mut a, pel)
        }
        _ => {
            if want.is_some_and(|k| k != CharacterKind::Other) {
                a.notes.push(format!(
                    "the skeleton does not have the limbs of a {}: generated as 'other'",
                    want.map_or("", |k| match k {
                        CharacterKind::Humanoid => "humanoid",
                        CharacterKind::Quadruped => "quadruped",
                        CharacterKind::Other => "other",
                    })
                ));
            }
            plans::other(&cx, &mut a)
        }
    }
    plans::fill_subtrees(rig, &mut a);
    super::axes::sides(&cx, &mut a);
    a
}

/// All bones, parents before children (bone tree, not only structural).
pub fn topo_all(rig: &Rig) -> Vec<usize> {
    let n = rig.len();
    let mut children = vec![Vec::new(); n];
    for i in 0..n {
        if let Some(p) = rig.bones[i].parent {
            children[p].push(i);
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut stack: Vec<usize> = (0..n)
        .filter(|&i| rig.bones[i].parent.is_none())
        .rev()
        .collect();
    while let Some(i) = stack.pop() {
        out.push(i);
        stack.extend(children[i].iter().rev().copied());
    }
    out
}
