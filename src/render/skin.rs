//! CPU skinning: three-d does no skinning, so vertices are blended here from the inverse bind
//! matrices and the current pose, and uploaded only when the pose changed.

use super::pose::Pose;
use crate::document::geometry::{Geometry, MeshPrimitive};
use crate::document::{BoneId, Document};
use glam::{Mat4, Vec3};

/// One primitive ready for skinning: rest data plus each skin joint's bone.
#[derive(Debug, Clone, Default)]
pub struct SkinnedPrimitive {
    pub prim: MeshPrimitive,
    /// Per skin joint: (bone, joint_from_mesh). Empty for an unskinned primitive.
    pub joints: Vec<(Option<BoneId>, Mat4)>,
    /// The node's rest world transform, used when the primitive has no skin.
    pub world_from_mesh: Mat4,
    /// For a rigid (unskinned) mesh carried by a bone: the bone and bone_from_mesh, so the
    /// mesh moves with the bone.
    pub carrier: Option<(BoneId, Mat4)>,
}

impl SkinnedPrimitive {
    /// Where an unskinned primitive is under `pose`: with its carrying bone, or at rest.
    pub fn rigid_matrix(&self, pose: &Pose) -> Mat4 {
        self.carrier
            .and_then(|(b, bone_from_mesh)| Some(pose.get(b)?.as_mat4() * bone_from_mesh))
            .unwrap_or(self.world_from_mesh)
    }
}

/// The character's meshes with what skinning needs.
#[derive(Debug, Clone, Default)]
pub struct SkinModel {
    pub primitives: Vec<SkinnedPrimitive>,
}

impl SkinModel {
    pub fn new(doc: &Document, geo: Geometry) -> Self {
        let primitives = geo
            .primitives
            .into_iter()
            .map(|mut prim| {
                if prim.normals.len() != prim.positions.len() {
                    prim.normals = smooth_normals(&prim.positions, &prim.indices);
                }
                let joints = prim
                    .skin
                    .and_then(|s| Some((doc.skeleton.skins.get(s)?, geo.inverse_bind.get(s)?)))
                    .map(|(skin, ibm)| {
                        skin.joints
                            .iter()
                            .enumerate()
                            .map(|(k, &node)| {
                                (
                                    doc.bone_of_node(node),
                                    ibm.get(k).copied().unwrap_or(Mat4::IDENTITY),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let world_from_mesh = world_from_node(doc, prim.node).as_mat4();
                let carrier = doc.carrier_bone(prim.node).map(|b| {
                    let world_from_bone = doc.skeleton.nodes[doc.bone(b).node].world_from_node;
                    (
                        b,
                        (world_from_bone.inverse() * world_from_node(doc, prim.node)).as_mat4(),
                    )
                });
                SkinnedPrimitive {
                    prim,
                    joints,
                    world_from_mesh,
                    carrier,
                }
            })
            .collect();
        Self { primitives }
    }
}

fn world_from_node(doc: &Document, node: usize) -> glam::DMat4 {
    doc.skeleton
        .nodes
        .get(node)
        .map_or(glam::DMat4::IDENTITY, |n| n.world_from_node)
}

impl SkinModel {
    /// The box (min, max) around every vertex of the model skinned to `pose`; None for a
    /// model without vertices.
    pub fn bounds(&self, pose: &Pose) -> Option<(Vec3, Vec3)> {
        let mut out: Option<(Vec3, Vec3)> = None;
        for p in &self.primitives {
            let (pos, _) = skin(p, pose);
            for v in pos.into_iter().filter(|v| v.is_finite()) {
                out = Some(match out {
                    Some((lo, hi)) => (lo.min(v), hi.max(v)),
                    None => (v, v),
                });
            }
        }
        out
    }
}

/// Area-weighted vertex normals, for a primitive that has none (glTF leaves them to the
/// viewer); without them it would be lit as one flat silhouette.
fn smooth_normals(positions: &[[f32; 3]], indices: &[u32]) -> Vec<[f32; 3]> {
    let mut acc = vec![Vec3::ZERO; positions.len()];
    let p = |i: u32| positions.get(i as usize).map(|v| Vec3::from_array(*v));
    for t in indices.chunks_exact(3) {
        if let (Some(a), Some(b), Some(c)) = (p(t[0]), p(t[1]), p(t[2])) {
            let n = (b - a).cross(c - a);
            for &i in t {
                acc[i as usize] += n;
            }
        }
    }
    acc.iter()
        .map(|n| n.normalize_or(Vec3::Y).to_array())
        .collect()
}

/// Skinned world positions and normals of one primitive under `pose`.
pub fn skin(p: &SkinnedPrimitive, pose: &Pose) -> (Vec<Vec3>, Vec<Vec3>) {
    let mats: Vec<Mat4> = p
        .joints
        .iter()
        .map(|(bone, ibm)| match bone.and_then(|b| pose.get(b)) {
            Some(w) => w.as_mat4() * *ibm,
            None => Mat4::IDENTITY,
        })
        .collect();
    let prim = &p.prim;
    let rigid = p.rigid_matrix(pose);
    let mut pos = Vec::with_capacity(prim.positions.len());
    let mut nrm = Vec::with_capacity(prim.positions.len());
    for (i, v) in prim.positions.iter().enumerate() {
        let v = Vec3::from_array(*v);
        let n = prim
            .normals
            .get(i)
            .map_or(Vec3::Y, |n| Vec3::from_array(*n));
        let m = match (prim.joints.get(i), prim.weights.get(i)) {
            // Rigidly bound vertices (one joint, full weight) need no blending.
            (Some(j), Some(w)) if !mats.is_empty() && w[0] == 1.0 => {
                *mats.get(j[0] as usize).unwrap_or(&Mat4::IDENTITY)
            }
            (Some(j), Some(w)) if !mats.is_empty() => {
                let mut m = Mat4::ZERO;
                for k in 0..4 {
                    if w[k] != 0.0 {
                        m += *mats.get(j[k] as usize).unwrap_or(&Mat4::IDENTITY) * w[k];
                    }
                }
                m
            }
            _ => rigid,
        };
        pos.push(m.transform_point3(v));
        nrm.push(m.transform_vector3(n).normalize_or(Vec3::Y));
    }
    (pos, nrm)
}

#[cfg(test)]
mod tests {
    use super::smooth_normals;

    #[test]
    fn missing_normals_point_out_of_the_faces() {
        // Two triangles of the unit square in the XY plane, wound counter-clockwise seen from +Z.
        let pos = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ];
        let n = smooth_normals(&pos, &[0, 1, 2, 0, 2, 3]);
        assert!(n.iter().all(|v| (v[2] - 1.0).abs() < 1e-6), "{n:?}");
    }
}
