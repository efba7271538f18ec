//! The skin at the bind pose, as the generator sees it: every vertex's rest position in the
//! world, assigned to the bone that carries its dominant weight. Vertices with no usable
//! weight or a non-finite or absurd position are counted and dropped, never trusted.

use crate::document::geometry::{Geometry, MeshPrimitive};
use crate::document::Document;
use glam::{DMat4, DVec3};

/// Positions larger than this (in file units) are treated as broken data.
pub const MAX_COORDINATE: f64 = 1e7;
/// The smallest weight that makes a bone deform the mesh.
pub const MIN_WEIGHT: f32 = 0.01;
/// A non-dominant weight at least this large also counts as the bone's skin for fitting.
pub const SECONDARY_WEIGHT: f32 = 0.3;
/// Fewer vertices than this are too few to be a body's skin: the generator sizes such a
/// body from its bone's length alone (`generate::fit`), and the plausibility checks do not
/// judge a body against them (a Rigify neck's 4 stray vertices, 0.24 units behind its bone,
/// said its length-sized capsule sat outside its skin).
pub const MIN_SKIN_POINTS: usize = 6;

/// Rest-pose vertices grouped by the bone (index into `doc.bones`) that dominates them.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    /// Per bone: world positions of the vertices it dominates.
    pub by_bone: Vec<Vec<DVec3>>,
    /// Per bone: how many of its `by_bone` vertices (the first ones) are skin; the rest are
    /// rigid meshes hanging from it.
    pub skinned_len: Vec<usize>,
    /// Per bone: vertices it does not dominate but weighs at least [`SECONDARY_WEIGHT`]
    /// (helps fit bones that dominate few vertices; not counted in coverage).
    pub secondary: Vec<Vec<DVec3>>,
    /// Per bone: some vertex carries at least [`MIN_WEIGHT`] of it, or a rigid mesh hangs from
    /// it (the bone deforms the mesh).
    pub weighted: Vec<bool>,
    /// Per bone: the vertices left out because the bone carries them: a bone named as an
    /// attachment (`WeaponSlot`, `handslot.l`) holds a prop (a spear, a shield, a helmet),
    /// not the body, whether the prop is skinned to it or hangs from it unskinned.
    pub carried: Vec<usize>,
    /// Vertices read in total (kept or not).
    pub total: usize,
    /// Vertices dropped: zero weights, unknown joints, NaN or huge positions.
    pub dropped: usize,
    /// Meshes neither skinned nor under any bone (a ground plane, a prop beside the
    /// character). Not part of the body, and not broken data.
    pub unattached: Vec<UnattachedMesh>,
    /// In a file that holds several characters ([`super::characters`]): the one read, and
    /// the others, left out.
    pub read_character: Option<super::characters::Character>,
    pub other_characters: Vec<super::characters::Character>,
    /// Per bone (empty when the file holds one character): a bone of a character left out.
    pub left_out: Vec<bool>,
}

/// A mesh node neither skinned nor under any bone.
#[derive(Debug, Clone, PartialEq)]
pub struct UnattachedMesh {
    pub node: usize,
    /// The node's display name.
    pub name: String,
    pub vertices: usize,
}

impl Samples {
    /// All kept vertices.
    pub fn all(&self) -> impl Iterator<Item = &DVec3> {
        self.by_bone.iter().flatten()
    }

    /// The vertices of bone `i` a body of it is fitted to: its skin when it has a skin of
    /// [`MIN_SKIN_POINTS`] or more (a rigid mesh hanging from a skinned bone is an accessory:
    /// a stag's antlers, a helmet, a held sword), else every vertex (a character built of
    /// rigid parts).
    pub fn body_skin(&self, i: usize) -> &[DVec3] {
        let all = self.by_bone.get(i).map_or(&[][..], Vec::as_slice);
        match self.skinned_len.get(i) {
            Some(&n) if n >= MIN_SKIN_POINTS => &all[..n],
            _ => all,
        }
    }

    /// The point of bone `i`'s [`Self::body_skin`] farthest from `head` (its head): where
    /// the bone ends as its skin shows it; None with fewer than [`MIN_SKIN_POINTS`]. A bone
    /// at the end of a chain has no child whose head marks its far end.
    pub fn far_end(&self, i: usize, head: DVec3) -> Option<DVec3> {
        let skin = self.body_skin(i);
        (skin.len() >= MIN_SKIN_POINTS).then_some(())?;
        skin.iter()
            .copied()
            .max_by(|p, q| p.distance(head).total_cmp(&q.distance(head)))
    }

    /// Every bone's [`Self::body_skin`]: the character without its accessories.
    pub fn body(&self) -> impl Iterator<Item = &DVec3> {
        (0..self.by_bone.len()).flat_map(|i| self.body_skin(i))
    }

    /// True when bone `i` belongs to another character of the file, left out.
    pub fn is_left_out(&self, i: usize) -> bool {
        self.left_out.get(i).copied().unwrap_or(false)
    }

    pub fn kept(&self) -> usize {
        self.by_bone.iter().map(Vec::len).sum()
    }
}

fn finite_small(v: DVec3) -> bool {
    v.is_finite() && v.abs().max_element() < MAX_COORDINATE
}

/// Index of the largest finite positive weight.
fn dominant(w: &[f32; 4]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (k, &x) in w.iter().enumerate() {
        if x.is_finite() && x > 0.0 && best.is_none_or(|(_, b)| x > b) {
            best = Some((k, x));
        }
    }
    best.map(|(k, _)| k)
}

/// Reads the samples: skinned vertices by dominant weight, through the joint's rest world
/// transform times its inverse bind matrix; unskinned meshes under a bone go to that bone;
/// what an attachment bone carries is counted in [`Samples::carried`] and left out.
/// A spear and a shield skinned to a soldier's `WeaponSlot` and `ShieldSlot` (helpers under
/// its right hand and left forearm) made its hand a capsule 2.6 m long and its forearm one
/// 0.8 m thick, and the spear rising over its head made its right arm read as its neck.
pub fn collect(doc: &Document, geo: &Geometry) -> Samples {
    let mut bone_of_node = vec![None; doc.skeleton.nodes.len()];
    for (i, b) in doc.bones.iter().enumerate() {
        if let Some(slot) = bone_of_node.get_mut(b.node) {
            *slot = Some(i);
        }
    }
    let mut s = Samples {
        by_bone: vec![Vec::new(); doc.bones.len()],
        secondary: vec![Vec::new(); doc.bones.len()],
        weighted: vec![false; doc.bones.len()],
        carried: vec![0; doc.bones.len()],
        ..Samples::default()
    };
    let carries: Vec<bool> = (doc.bones.iter())
        .map(|b| super::names::hints(&b.name).attachment)
        .collect();
    let mut rigid = vec![Vec::new(); doc.bones.len()];
    for prim in &geo.primitives {
        s.total += prim.positions.len();
        let skin = prim
            .skin
            .and_then(|k| Some((doc.skeleton.skins.get(k)?, geo.inverse_bind.get(k)?)));
        match skin {
            Some((skin, ibm)) if prim.joints.len() == prim.positions.len() => {
                // Per skin joint: (bone, world_from_mesh at rest).
                let joint_xf: Vec<JointXf> = skin
                    .joints
                    .iter()
                    .enumerate()
                    .map(|(k, &node)| {
                        let bone = (*bone_of_node.get(node)?)?;
                        let m = ibm.get(k)?.as_dmat4();
                        Some((bone, doc.skeleton.nodes[node].world_from_node * m))
                    })
                    .collect();
                add_skinned(prim, (&joint_xf, &carries), &mut s);
            }
            _ => add_rigid(doc, (&bone_of_node, &carries), prim, &mut s, &mut rigid),
        }
    }
    s.skinned_len = s.by_bone.iter().map(Vec::len).collect();
    for (skin, parts) in s.by_bone.iter_mut().zip(rigid) {
        skin.extend(parts);
    }
    super::characters::keep_one(doc, &mut s);
    s
}

/// Per skin joint: the bone it is and its world_from_mesh at rest.
type JointXf = Option<(usize, DMat4)>;

/// The vertices of a skinned primitive, given each skin joint's [`JointXf`] and which bones
/// carry what they dominate.
fn add_skinned(prim: &MeshPrimitive, (joint_xf, carries): (&[JointXf], &[bool]), s: &mut Samples) {
    let bone_at = |j: u16| joint_xf.get(usize::from(j)).and_then(|x| x.as_ref());
    for (i, p) in prim.positions.iter().enumerate() {
        let (ws, js) = (prim.weights.get(i).copied(), prim.joints[i]);
        for k in 0..4 {
            match (ws, bone_at(js[k])) {
                (Some(w), Some((o, _))) if w[k] >= MIN_WEIGHT => s.weighted[*o] = true,
                _ => {}
            }
        }
        let hit = ws.as_ref().and_then(dominant).and_then(|k| bone_at(js[k]));
        let v = DVec3::from_array(p.map(f64::from));
        let Some((b, w)) = hit.map(|(b, m)| (*b, m.transform_point3(v))) else {
            s.dropped += 1;
            continue;
        };
        if !(finite_small(w) && finite_small(v)) {
            s.dropped += 1;
            continue;
        }
        if carries[b] {
            s.carried[b] += 1;
            continue;
        }
        s.by_bone[b].push(w);
        let ws = ws.unwrap_or_default();
        for k in 0..4 {
            match bone_at(js[k]) {
                Some((o, _)) if *o != b && ws[k] >= SECONDARY_WEIGHT => s.secondary[*o].push(w),
                _ => {}
            }
        }
    }
}

/// The vertices of an unskinned primitive: a rigid part of the nearest bone at or above its
/// node.
fn add_rigid(
    doc: &Document,
    (bone_of_node, carries): (&[Option<usize>], &[bool]),
    prim: &MeshPrimitive,
    s: &mut Samples,
    rigid: &mut [Vec<DVec3>],
) {
    let owner = std::iter::once(prim.node)
        .chain(doc.skeleton.ancestors(prim.node))
        .find_map(|n| *bone_of_node.get(n)?);
    if let Some(b) = owner {
        s.weighted[b] = true;
        if carries[b] {
            s.carried[b] += prim.positions.len();
            return;
        }
    }
    if owner.is_none() {
        match s.unattached.iter_mut().find(|u| u.node == prim.node) {
            Some(u) => u.vertices += prim.positions.len(),
            None => s.unattached.push(UnattachedMesh {
                node: prim.node,
                name: doc.skeleton.nodes[prim.node].name.clone(),
                vertices: prim.positions.len(),
            }),
        }
        return;
    }
    let m = doc.skeleton.nodes[prim.node].world_from_node;
    for p in &prim.positions {
        let v = DVec3::from_array(p.map(f64::from));
        let w = m.transform_point3(v);
        match owner {
            Some(b) if finite_small(w) => rigid[b].push(w),
            _ => s.dropped += 1,
        }
    }
}
