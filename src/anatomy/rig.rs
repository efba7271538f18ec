//! The skeleton as the anatomy sees it: each bone's rest placement in the world, its name
//! hints, whether it deforms the mesh, and the structural tree in which twist, roll, helper,
//! control and end bones are contracted away (their children hang from the nearest structural
//! ancestor). A deforming bone whose ancestors are all control bones (Rigify's `DEF-thigh.L`
//! under `ORG-`/`MCH-` bones) is attached by position to the nearest deforming bone.

use super::kinds::Role;
use super::name_roles;
use super::names::{self, strip_index, NameHints};
use super::samples::Samples;
use crate::document::Document;
use glam::{DMat4, DQuat, DVec3};

/// One bone (same index as `doc.bones`).
#[derive(Debug, Clone)]
pub struct RigBone {
    pub node: usize,
    pub name: String,
    /// The name as read: without the exporter's prefix every bone's name shares
    /// ([`names::shared_prefix`]; `Bip01_Head` of `idle_Bip01_Head`). Messages show `name`.
    pub read_name: String,
    pub hints: NameHints,
    /// Nearest ancestor bone; for a deforming bone whose ancestors are all control bones, the
    /// deforming bone it is attached to by position.
    pub parent: Option<usize>,
    /// Carries skin weight or a rigid mesh (every bone when the file has no mesh at all).
    pub deforming: bool,
    /// Rest transform in the world (with scale).
    pub world_from_bone: DMat4,
    /// Rest position and rotation (scale removed).
    pub pos: DVec3,
    pub rot: DQuat,
    /// World scale (the mean of the three axes).
    pub scale: f64,
    /// True when the world scale differs between axes by more than 1%.
    pub nonuniform: bool,
    /// Part of the structural tree: not a twist, helper or control bone, and deforming (or
    /// between deforming bones, or named by a VRM map).
    pub structural: bool,
    /// A foot without skin, kept in the structural tree by its name alone (not a VRM map):
    /// [`named_limb_ends`].
    pub end_by_name: bool,
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
    pub fn new(doc: &Document, samples: &Samples) -> Self {
        let mut bones = rig_bones(doc);
        let weighted = |i: usize| {
            samples.weighted.get(i).copied().unwrap_or(false)
                || samples.by_bone.get(i).is_some_and(|v| !v.is_empty())
        };
        let any_skin = (0..bones.len()).any(weighted);
        let pinned = super::vrm::mapped_nodes(doc);
        for (i, b) in bones.iter_mut().enumerate() {
            b.deforming = !any_skin || weighted(i);
        }
        deform_through_twists(&mut bones);
        let between = between_deforming(&bones);
        let hubs = deforming_hubs(&bones);
        let ends = named_limb_ends(&bones);
        let skin_on_helpers_only = skin_on_helpers_only(&bones, any_skin);
        for (i, b) in bones.iter_mut().enumerate() {
            if skin_on_helpers_only && b.deforming && !b.hints.attachment {
                b.hints.helper = false;
            }
            let candidate = !(b.hints.twist || b.hints.helper) || pinned.contains(&b.node);
            b.end_by_name = candidate && ends[i] && !pinned.contains(&b.node);
            let kept = b.deforming || between[i] || hubs[i] || ends[i];
            b.structural =
                candidate && (kept || pinned.contains(&b.node)) && !samples.is_left_out(i);
        }
        let mut rig = Rig {
            bones,
            s_parent: Vec::new(),
            s_children: Vec::new(),
        };
        rig.link();
        if any_skin && rig.attach_orphans(samples) {
            rig.link();
        }
        if any_skin && rig.attach_deforming_helpers() {
            rig.link();
        }
        // Below the face in the file (Rigify's face under `ORG-face`, now hung from the head),
        // and as the bones now hang: an orphan attached under a face bone (a bat's eyes, their
        // own armature's `Bone`, beside its `Face`) is the face too.
        mark_the_face(&mut rig.bones);
        rig
    }

    /// A deforming helper with no bone above it (a hoof weighted to an IK bone at the
    /// armature's root) hangs from the nearest structural bone, so that its skin merges into
    /// that bone's body; returns whether any moved.
    fn attach_deforming_helpers(&mut self) -> bool {
        let extent = self.extent();
        let structural: Vec<usize> = (0..self.len())
            .filter(|&i| self.bones[i].structural)
            .collect();
        let mut moved = false;
        for i in 0..self.len() {
            let b = &self.bones[i];
            if b.structural || !b.deforming || b.parent.is_some() {
                continue;
            }
            let near = structural
                .iter()
                .map(|&s| (s, self.bones[s].pos.distance(b.pos)))
                .filter(|&(s, d)| d < extent / 3.0 && !self.subtree_all(i).contains(&s))
                .min_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((s, _)) = near {
                self.bones[i].parent = Some(s);
                moved = true;
            }
        }
        moved
    }

    /// Bone `i` and every bone below it in the bone tree (structural or not).
    pub fn subtree_all(&self, i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut k = 0;
        while k < out.len() {
            out.extend(self.children_in_file(out[k]));
            k += 1;
        }
        out
    }

    /// The bones right under bone `i` in the file (structural or not).
    pub fn children_in_file(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(move |&c| self.bones[c].parent == Some(i))
    }

    /// Structural parents and children from `parent` and `structural`.
    fn link(&mut self) {
        let n = self.bones.len();
        let mut s_parent = vec![None; n];
        for (i, slot) in s_parent.iter_mut().enumerate() {
            let mut p = self.bones[i].parent;
            // Bounded walk: parents come from a tree, but never trust a count.
            for _ in 0..n {
                match p {
                    Some(q) if !self.bones[q].structural => p = self.bones[q].parent,
                    _ => break,
                }
            }
            *slot = p;
        }
        let mut s_children = vec![Vec::new(); n];
        for (i, parent) in s_parent.iter().enumerate() {
            if let (true, Some(p)) = (self.bones[i].structural, *parent) {
                s_children[p].push(i);
            }
        }
        self.s_parent = s_parent;
        self.s_children = s_children;
    }

    /// Attaches structural roots other than the main one ([`super::orphans`]); returns whether
    /// any moved.
    fn attach_orphans(&mut self, samples: &Samples) -> bool {
        let moves = super::orphans::plan(self, samples);
        for &(r, to) in &moves {
            self.bones[r].parent = Some(to);
        }
        !moves.is_empty()
    }

    /// The main one of structural `roots`: central (no side in its name), with the largest
    /// structural subtree, the lowest on a tie.
    pub(super) fn main_root(&self, roots: &[usize]) -> usize {
        let sided = |i: usize| self.bones[i].hints.side.is_some();
        let size = |r: usize| self.subtree(r).len();
        *roots
            .iter()
            .max_by(|&&x, &&y| {
                (!sided(x), size(x))
                    .cmp(&(!sided(y), size(y)))
                    .then(self.bones[y].pos.y.total_cmp(&self.bones[x].pos.y))
            })
            .expect("two roots")
    }

    /// The bones beside `main` under the same bone in the file: a control bone holding the
    /// root body and more (Godot's `MASTER` holds `body` and four legs) stands for the root
    /// body.
    pub(super) fn beside(&self, main: usize) -> Vec<bool> {
        let holder = self.bones[main].parent;
        (self.bones.iter())
            .map(|b| holder.is_some() && b.parent == holder)
            .collect()
    }

    /// The role and side of the segment right above `r`'s in a limb, as `r`'s name says it
    /// (an upper arm's shoulder, a forearm's upper arm). Names before nearness: a Rigify
    /// export of its deform bones alone hangs every chain from the armature, and a pectoral
    /// bone whose skin reaches the armpit lay nearer the upper arm's head (0.042 of 1.26 m)
    /// than the shoulder (0.098): the arm hung from the breast.
    pub(super) fn parent_name(&self, r: usize) -> Option<(Role, names::Side)> {
        let child = name_roles::role_of(&self.bones[r].hints)?;
        Some((child.role.segment_above()?, child.side?))
    }

    /// Whether `b`'s name says `role` on `side`.
    pub(super) fn named_as(&self, b: usize, (role, side): (Role, names::Side)) -> bool {
        name_roles::role_of(&self.bones[b].hints)
            .is_some_and(|n| n.role == role && n.side == Some(side))
    }

    /// How near bone `r`'s head lies to bone `b`: to its head, or, for a bone that ends a
    /// chain (no structural child marks its far end; it hangs from a parent), to its tail as
    /// its own skin shows it, the skin's point farthest from its head. A child hangs from its
    /// parent's far end: a hoof weighted to an IK bone at the armature's root (the Quaternius
    /// alpaca's) starts where the lower leg's skin ends, a leg's length from the lower leg's
    /// head and nearer the body's root bone. A lone orphan's skin does not offer a tail: the
    /// Rigify lumberjack's pectoral bones, orphans themselves, reach its upper arms' heads,
    /// whose parents they are not.
    pub(super) fn nearness(&self, samples: &Samples, r: usize, b: usize) -> f64 {
        let (at, head) = (self.bones[r].pos, self.bones[b].pos);
        let end = self.s_children[b].is_empty() && self.s_parent[b].is_some();
        let tail = end.then(|| samples.far_end(b, head)).flatten();
        let to_tail = tail.map_or(f64::INFINITY, |t| t.distance(at));
        head.distance(at).min(to_tail)
    }

    /// Records the depth of `root`'s structural subtree (root at `d`) and adds it to `out`.
    pub(super) fn mark(&self, root: usize, d: usize, depth: &mut [usize], out: &mut Vec<usize>) {
        let mut stack = vec![(root, d)];
        while let Some((b, k)) = stack.pop() {
            depth[b] = k;
            out.push(b);
            stack.extend(self.s_children[b].iter().map(|&c| (c, k + 1)));
        }
    }

    /// The largest side of the bones' bounding box (1e-9 at least).
    pub fn extent(&self) -> f64 {
        extent_of(self.bones.iter().map(|b| b.pos))
    }

    /// The largest side of the bounding box of `bones` (1e-9 at least).
    pub fn extent_of(&self, bones: &[usize]) -> f64 {
        extent_of(bones.iter().map(|&i| self.bones[i].pos))
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

    /// Ancestors of `i` in the bone tree (structural or not), nearest first; bounded by the
    /// rig's size.
    pub fn ancestors_in_file(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.bones[i].parent, |&q| self.bones[q].parent).take(self.len())
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

/// Every bone's rig view, names read past the prefix they all share (and the exporter's node
/// index they all carry), numbered copies of a
/// limb bone marked as twist segments.
fn rig_bones(doc: &Document) -> Vec<RigBone> {
    let names: Vec<&str> = doc.bones.iter().map(|b| b.name.as_str()).collect();
    let prefix = names::shared_prefix(&names).unwrap_or("");
    let suffixed = names::index_suffixed(&names);
    let mut bones: Vec<RigBone> = (doc.bones.iter())
        .map(|b| rig_bone(doc, b, prefix, suffixed))
        .collect();
    let all_names: std::collections::HashSet<String> = bones
        .iter()
        .map(|b| strip_index(&b.read_name).to_string())
        .collect();
    let copies: Vec<bool> = (0..bones.len())
        .map(|i| {
            let b = &bones[i];
            is_limb_segment_copy(&b.read_name, &b.hints, &all_names)
                && continues_its_parent(&bones, i)
        })
        .collect();
    for (b, copy) in bones.iter_mut().zip(copies) {
        b.hints.twist |= copy;
    }
    mark_the_face(&mut bones);
    bones
}

/// The largest side of the points' bounding box (1e-9 at least).
fn extent_of(points: impl Iterator<Item = DVec3>) -> f64 {
    let (lo, hi) = points.fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(a, b), p| (a.min(p), b.max(p)),
    );
    (hi - lo).max_element().max(1e-9)
}

/// Marks every bone below a bone named as the face ([`under_the_face`]).
fn mark_the_face(bones: &mut [RigBone]) {
    let face: Vec<bool> = (0..bones.len()).map(|i| under_the_face(bones, i)).collect();
    for (b, face) in bones.iter_mut().zip(face) {
        b.hints.face |= face;
    }
}

/// Whether a bone above bone `i` in the file is named as the face (Rigify's `ORG-face` holds
/// every face bone: the nose, lids, brows, lips, tongue and jaw).
fn under_the_face(bones: &[RigBone], i: usize) -> bool {
    std::iter::successors(bones[i].parent, |&q| bones[q].parent)
        .take(bones.len())
        .any(|q| bones[q].hints.face)
}

/// The largest bend (degrees) at a numbered copy's head for it to be a twist segment: Rigify
/// splits one straight bone (`DEF-thigh.L`, `DEF-thigh.L.001`), where Blender numbers every
/// bone extruded from another (a crab's `Leg1.R.002` ... `.005` bend 60-110 deg at each joint).
const SEGMENT_COPY_MAX_BEND_DEG: f64 = 30.0;

/// True when bone `i` carries on along its parent's line: the direction from its parent's head
/// to its own and from its head to one of its children's differ by at most
/// [`SEGMENT_COPY_MAX_BEND_DEG`]. A copy with no child ends its chain, which a split segment
/// never does (Rigify's `.001` always carries the next segment); one on its parent's head or
/// without a parent carries on.
fn continues_its_parent(bones: &[RigBone], i: usize) -> bool {
    let b = &bones[i];
    let Some(into) = b
        .parent
        .map(|p| b.pos - bones[p].pos)
        .and_then(|v| v.try_normalize())
    else {
        return true;
    };
    let mut outs = (bones.iter())
        .filter(|c| c.parent == Some(i))
        .filter_map(|c| (c.pos - b.pos).try_normalize());
    let min_cos = SEGMENT_COPY_MAX_BEND_DEG.to_radians().cos();
    outs.any(|out| into.dot(out) >= min_cos)
}

/// A segment whose skin is all on its twist bones (Character Creator's and AccuRIG's
/// `L_ThighTwist01` under an unweighted `L_Thigh`) deforms through them.
fn deform_through_twists(bones: &mut [RigBone]) {
    for i in 0..bones.len() {
        if !(bones[i].hints.twist && bones[i].deforming) {
            continue;
        }
        let mut up = bones[i].parent;
        while let Some(p) = up.filter(|&p| bones[p].hints.twist) {
            up = bones[p].parent;
        }
        if let Some(p) = up {
            bones[p].deforming = true;
        }
    }
}

/// The rig's view of bone `b`, its name read without the `prefix` every bone's name shares
/// ([`names::shared_prefix`]).
/// Bone `b`'s rig view: its name read past the exporter's `prefix` and, where the file's
/// names carry one (`suffixed`), past the exporter's node index.
fn rig_bone(doc: &Document, b: &crate::document::Bone, prefix: &str, suffixed: bool) -> RigBone {
    let read_name = b.name.strip_prefix(prefix).unwrap_or(&b.name);
    let said = if suffixed {
        strip_index(read_name)
    } else {
        read_name
    };
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
        read_name: read_name.to_string(),
        hints: names::hints(said),
        parent: b.parent.map(|p| p.index()),
        deforming: true,
        world_from_bone: world,
        pos,
        rot,
        scale,
        nonuniform: (s.max_element() - s.min_element()) > 0.01 * mean,
        structural: true,
        end_by_name: false,
    }
}

/// Bones without skin whose name says they are a foot, hanging from a deforming bone: a leg's
/// end part whose vertices its parent carries (Mixamo's auto-rigger leaves many characters'
/// `LeftFoot` unweighted, the foot's vertices on `LeftLeg`). The leg continues to them
/// (`evidence::extend_limbs`) and the generator gives them the shin's vertices past the ankle.
/// Not hands: a bat's wing membranes hang from its forearms, and a hand fitted to them covered
/// half of them.
fn named_limb_ends(bones: &[RigBone]) -> Vec<bool> {
    bones
        .iter()
        .map(|b| {
            !b.deforming
                && b.parent.is_some_and(|p| bones[p].deforming)
                && name_roles::role_of(&b.hints).is_some_and(|n| n.role == Role::Foot)
        })
        .collect()
}

/// Is the skin weighted to helper-named bones alone (a Rigify export skinned to its `ORG-`
/// bones, no `DEF-` bone deforming)? Then the skin, not the names, says which bones are the
/// body: those it weights are not helpers.
fn skin_on_helpers_only(bones: &[RigBone], any_skin: bool) -> bool {
    let deforming = || bones.iter().filter(|b| b.deforming);
    any_skin
        && deforming().any(|b| b.hints.helper)
        && deforming().all(|b| b.hints.helper || b.hints.twist)
}

/// Per bone: it has a deforming ancestor and a deforming descendant (a bone without weight
/// inside a chain, such as a forearm without a rigid mesh between an upper arm and a hand).
fn between_deforming(bones: &[RigBone]) -> Vec<bool> {
    let n = bones.len();
    let mut above = vec![false; n];
    let mut below = vec![false; n];
    for i in 0..n {
        let mut p = bones[i].parent;
        for _ in 0..n {
            let Some(q) = p else { break };
            if bones[i].deforming {
                below[q] = true;
            }
            if bones[q].deforming {
                above[i] = true;
            }
            p = bones[q].parent;
        }
    }
    (0..n).map(|i| above[i] && below[i]).collect()
}

/// Bones without skin that two or more deforming chains (a deforming child with a deforming
/// child of its own) hang from: the body a spider's legs attach to when its skin is all on
/// the legs, abdomen and head. Without it every leg would be a root of its own.
fn deforming_hubs(bones: &[RigBone]) -> Vec<bool> {
    let n = bones.len();
    let mut chain = vec![false; n];
    for b in bones {
        if let Some(p) = b.parent.filter(|_| b.deforming) {
            chain[p] |= bones[p].deforming;
        }
    }
    let mut chains = vec![0usize; n];
    for (i, b) in bones.iter().enumerate() {
        if let Some(p) = b.parent.filter(|_| chain[i]) {
            chains[p] += 1;
        }
    }
    (0..n)
        .map(|i| !bones[i].deforming && chains[i] >= 2)
        .collect()
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
    let Some((base, num)) = strip_index(name).rsplit_once('.') else {
        return false;
    };
    num.len() == 3
        && num.bytes().all(|c| c.is_ascii_digit())
        && all.contains(base)
        && hints.words.iter().any(|w| LIMB.contains(&w.as_str()))
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
