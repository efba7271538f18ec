//! Roles from topology and geometry, names only as hints: the chains whose ends reach the
//! ground are legs, their common branch is the pelvis; the path from the pelvis to the highest
//! point is spine, chest, neck and head; long side chains from the chest are arms; a second
//! pair of ground chains makes a quadruped (front legs on the chest), and a chain from the
//! pelvis that is neither leg nor spine is the tail. Limb segments are numbered from the body
//! outwards by the tree, never by the numbers in their names (CesiumMan counts its arm bones
//! from the hand inwards).

use super::names::Side;
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
struct Reach {
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
        r.low[i] = h0.min(if v.is_empty() { h0 } else { super::rig::percentile(&v, 0.02) });
        r.high[i] = h0.max(if v.is_empty() { h0 } else { super::rig::percentile(&v, 0.98) });
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

struct Ctx<'a> {
    rig: &'a Rig,
    samples: &'a Samples,
    reach: Reach,
    height: f64,
    ground: f64,
}

impl Ctx<'_> {
    fn dist(&self, a: usize, b: usize) -> f64 {
        self.rig.bones[a].pos.distance(self.rig.bones[b].pos)
    }

    /// Drops trailing bones of a path that carry no skin (end bones), when there is a skin.
    fn trim(&self, mut path: Vec<usize>) -> Vec<usize> {
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
        let leaves = (0..rig.len()).filter(|&i| rig.bones[i].structural && rig.s_children[i].is_empty());
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
    fn highest_path(&self, from: usize, skip: &[usize]) -> Vec<usize> {
        let mut path = Vec::new();
        let mut cur = from;
        for _ in 0..self.rig.len() {
            let next = self.rig.s_children[cur]
                .iter()
                .copied()
                .filter(|c| !skip.contains(c))
                .max_by(|&a, &b| self.reach.sub_high[a].total_cmp(&self.reach.sub_high[b]));
            let Some(n) = next else { break };
            path.push(n);
            cur = n;
        }
        self.trim(path)
    }

    /// From `from`, descend into the child whose subtree reaches farthest from `origin`.
    fn farthest_path(&self, from: usize, origin: DVec3, skip: &[usize]) -> Vec<usize> {
        let far: Vec<f64> = (0..self.rig.len())
            .map(|i| {
                self.rig
                    .subtree(i)
                    .iter()
                    .map(|&b| self.rig.bones[b].pos.distance(origin))
                    .fold(0.0, f64::max)
            })
            .collect();
        let mut path = Vec::new();
        let mut cur = from;
        for _ in 0..self.rig.len() {
            let next = self.rig.s_children[cur]
                .iter()
                .copied()
                .filter(|c| !skip.contains(c))
                .max_by(|&a, &b| far[a].total_cmp(&far[b]));
            let Some(n) = next else { break };
            path.push(n);
            cur = n;
        }
        self.trim(path)
    }

    /// The limb path down to its first branch (the hand or foot), end bones trimmed.
    fn limb_path(&self, top: usize) -> Vec<usize> {
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
        height: if height.is_finite() && height > 0.0 { height } else { 1.0 },
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
    let pairs: Vec<&(usize, Vec<Vec<usize>>)> = roots.iter().filter(|(_, l)| l.len() >= 2).collect();
    let quadruped = pairs.iter().find_map(|h| {
        pairs
            .iter()
            .find(|f| f.0 != h.0 && rig.ancestors(f.0).contains(&h.0))
            .map(|f| ((*h).clone(), (*f).clone()))
    });
    let biped = pairs.first().map(|p| (*p).clone());
    let want = forced;
    match (quadruped, biped) {
        (Some((hind, front)), _) if want != Some(CharacterKind::Humanoid) && want != Some(CharacterKind::Other) => {
            quadruped_plan(&cx, &mut a, hind, front)
        }
        (_, Some(pel)) if want != Some(CharacterKind::Other) && want != Some(CharacterKind::Quadruped) => {
            biped_plan(&cx, &mut a, pel)
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
            other_plan(&cx, &mut a)
        }
    }
    fill_subtrees(rig, &mut a);
    sides(&cx, &mut a);
    a
}

fn assign(a: &mut Anatomy, path: &[usize], roles: &[Role]) {
    for (k, &b) in path.iter().enumerate() {
        a.role[b] = roles.get(k).copied().unwrap_or(*roles.last().unwrap_or(&Role::Other));
    }
}

/// Roles of a leg path: thigh, shin, foot, then toes.
fn leg_roles(a: &mut Anatomy, path: &[usize]) {
    assign(a, path, &[Role::Thigh, Role::Shin, Role::Foot, Role::Toe]);
}

/// Roles of an arm path: an optional short clavicle, upper arm, forearm, hand, then fingers.
fn arm_roles(cx: &Ctx, a: &mut Anatomy, path: &[usize]) {
    let seg = |k: usize| match (path.get(k), path.get(k + 1)) {
        (Some(&x), Some(&y)) => cx.dist(x, y),
        _ => 0.0,
    };
    let clavicle = path.len() >= 4 && seg(0) < 0.7 * seg(1);
    let roles: &[Role] = if clavicle {
        &[Role::Clavicle, Role::UpperArm, Role::Forearm, Role::Hand, Role::Finger]
    } else {
        &[Role::UpperArm, Role::Forearm, Role::Hand, Role::Finger]
    };
    assign(a, path, roles);
}

fn push_limb(a: &mut Anatomy, kind: LimbKind, root: usize, path: Vec<usize>) {
    let k = a.limbs.len();
    for &b in &path {
        a.limb_of[b] = Some(k);
    }
    a.limbs.push(Limb {
        kind,
        side: None,
        root,
        path,
    });
}

fn biped_plan(cx: &Ctx, a: &mut Anatomy, (pelvis, legs): (usize, Vec<Vec<usize>>)) {
    a.kind = CharacterKind::Humanoid;
    a.pelvis = Some(pelvis);
    a.role[pelvis] = Role::Pelvis;
    let mut legs = legs;
    legs.truncate(2);
    let tops: Vec<usize> = legs.iter().filter_map(|p| p.first().copied()).collect();
    for path in legs {
        let path = cx.limb_path(path[0]);
        leg_roles(a, &path);
        push_limb(a, LimbKind::Leg, pelvis, path);
    }
    let path = cx.highest_path(pelvis, &tops);
    // Side chains off the spine path that reach far: the two longest are the arms.
    let mut side_chains: Vec<(f64, usize, usize)> = Vec::new(); // (reach, path index, top)
    for (k, &b) in path.iter().enumerate() {
        let next = path.get(k + 1).copied();
        for &c in &cx.rig.s_children[b] {
            if Some(c) == next {
                continue;
            }
            let far = cx.rig.subtree(c).iter().map(|&d| cx.dist(b, d)).fold(0.0, f64::max);
            if far > 0.2 * cx.height {
                side_chains.push((far, k, c));
            }
        }
    }
    side_chains.sort_by(|x, y| y.0.total_cmp(&x.0));
    side_chains.truncate(2);
    let chest_k = match side_chains.iter().map(|s| s.1).max() {
        Some(k) => Some(k),
        None if path.len() >= 3 => Some(path.len() - 3),
        None if path.len() == 2 => Some(0),
        None => None,
    };
    for (k, &b) in path.iter().enumerate() {
        a.role[b] = match chest_k {
            Some(c) if k < c => Role::Spine,
            Some(c) if k == c => Role::Chest,
            _ if k + 1 == path.len() => Role::Head,
            _ => Role::Neck,
        };
    }
    a.chest = chest_k.and_then(|k| path.get(k).copied());
    a.head = path.last().copied().filter(|&h| a.role[h] == Role::Head);
    for (_, _, top) in side_chains {
        let p = cx.limb_path(top);
        arm_roles(cx, a, &p);
        let root = cx.rig.s_parent[top].unwrap_or(pelvis);
        push_limb(a, LimbKind::Arm, root, p);
    }
}

fn quadruped_plan(
    cx: &Ctx,
    a: &mut Anatomy,
    (hind, hind_legs): (usize, Vec<Vec<usize>>),
    (front, front_legs): (usize, Vec<Vec<usize>>),
) {
    a.kind = CharacterKind::Quadruped;
    a.pelvis = Some(hind);
    a.chest = Some(front);
    a.role[hind] = Role::Pelvis;
    a.role[front] = Role::Chest;
    let mut tops = Vec::new();
    for (legs, kind, root) in [(hind_legs, LimbKind::HindLeg, hind), (front_legs, LimbKind::FrontLeg, front)] {
        for path in legs.into_iter().take(2) {
            let path = cx.limb_path(path[0]);
            tops.push(path[0]);
            match kind {
                LimbKind::HindLeg => leg_roles(a, &path),
                _ => arm_roles(cx, a, &path),
            }
            push_limb(a, kind, root, path);
        }
    }
    let spine: Vec<usize> = cx.rig.ancestors(front).into_iter().take_while(|&b| b != hind).collect();
    for &b in &spine {
        a.role[b] = Role::Spine;
    }
    let origin = cx.rig.bones[hind].pos;
    let head_path = cx.farthest_path(front, origin, &tops);
    for (k, &b) in head_path.iter().enumerate() {
        a.role[b] = if k + 1 == head_path.len() { Role::Head } else { Role::Neck };
    }
    a.head = head_path.last().copied();
    let mut skip = tops.clone();
    skip.extend(spine.last().copied().or(Some(front)));
    let tail = cx.limb_path_from(hind, &skip);
    if let Some(tail) = tail {
        for &b in &tail {
            a.role[b] = Role::Tail;
        }
        push_limb(a, LimbKind::Tail, hind, tail);
    }
}

impl Ctx<'_> {
    /// The child chain of `from` reaching farthest from it, skipping `skip` (a tail).
    fn limb_path_from(&self, from: usize, skip: &[usize]) -> Option<Vec<usize>> {
        let origin = self.rig.bones[from].pos;
        let reach_of = |t: usize| {
            self.rig
                .subtree(t)
                .iter()
                .map(|&b| self.rig.bones[b].pos.distance(origin))
                .fold(0.0, f64::max)
        };
        let c = self.rig.s_children[from]
            .iter()
            .copied()
            .filter(|c| !skip.contains(c))
            .max_by(|&x, &y| reach_of(x).total_cmp(&reach_of(y)))?;
        if reach_of(c) < 0.1 * self.height {
            return None;
        }
        let mut path = vec![c];
        path.extend(self.farthest_path(c, origin, &[]));
        Some(self.trim(path))
    }
}

fn other_plan(cx: &Ctx, a: &mut Anatomy) {
    a.kind = CharacterKind::Other;
    let root = topo_order(cx.rig)
        .into_iter()
        .filter(|&i| cx.rig.s_parent[i].is_none())
        .max_by_key(|&i| cx.rig.subtree(i).len());
    if let Some(r) = root {
        a.pelvis = Some(r);
        a.role[r] = Role::Pelvis;
    }
}

/// Bones below a limb's main path take the limb's end role (fingers under the hand, toes
/// under the foot); everything keeps its limb index.
fn fill_subtrees(rig: &Rig, a: &mut Anatomy) {
    for k in 0..a.limbs.len() {
        let path = a.limbs[k].path.clone();
        let Some(&end) = path.last() else { continue };
        let below = match a.role[end] {
            Role::Hand | Role::Finger => Role::Finger,
            Role::Foot | Role::Toe => Role::Toe,
            Role::Tail => Role::Tail,
            _ => Role::Other,
        };
        for b in rig.subtree(end) {
            if a.limb_of[b].is_none() {
                a.limb_of[b] = Some(k);
                if a.role[b] == Role::Other {
                    a.role[b] = below;
                }
            }
        }
    }
    // Twist and helper bones (outside the structural tree) belong to their parent's limb.
    for i in topo_all(rig) {
        if !rig.bones[i].structural {
            if let Some(p) = rig.bones[i].parent {
                a.limb_of[i] = a.limb_of[p];
            }
        }
    }
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
    let mut stack: Vec<usize> = (0..n).filter(|&i| rig.bones[i].parent.is_none()).rev().collect();
    while let Some(i) = stack.pop() {
        out.push(i);
        stack.extend(children[i].iter().rev().copied());
    }
    out
}

/// Forward from the feet (humanoid) or from the pelvis to the chest (quadruped); left from
/// forward; each limb's side from geometry, checked against its name.
fn sides(cx: &Ctx, a: &mut Anatomy) {
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
        a.notes.push("could not tell forward from the skeleton; assumed +Z (glTF)".into());
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
        a.notes.push(format!("{disagree} limb name(s) disagree with the geometry"));
    }
}

fn side_word(s: Option<Side>) -> &'static str {
    match s {
        Some(Side::Left) => "left",
        Some(Side::Right) => "right",
        None => "centre",
    }
}
