//! Animation clips as drive targets (pure: document and joint math, no Rapier): the clip's
//! pose by forward kinematics, each joint's target rotation in its joint frame (clamped into
//! its limits), and the root's animated world pose.
//!
//! A joint's target is the clip's rotation of the child relative to its constraint parent,
//! taken relative to the rest pose and expressed in the joint frame of [`crate::joint`]:
//! the same relative rotation the solver's drives and limits act on. The tracking error is
//! the angle between the simulated and the target relative rotation.

pub mod demand;
pub mod ground;
mod pose;

pub use pose::{clip_time_s, loops_done, world_pose, Playback};

use crate::document::{BoneId, Clip, Document, Skeleton};
use crate::joint::{self, JointDef};
use glam::{DMat4, DQuat};

/// One joint's target: the clip's relative rotation (parent joint frame to child joint
/// frame) that the drives pull toward once clamped into the limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointTarget {
    pub bone: BoneId,
    pub relative: DQuat,
}

/// Everything needed to turn a clip pose into joint targets, resolved once per document.
#[derive(Debug, Clone)]
pub struct Follower {
    skeleton: Skeleton,
    /// The node of every bone.
    bone_nodes: Vec<usize>,
    joints: Vec<JointDef>,
    /// The rest world matrix of every bone.
    rest: Vec<DMat4>,
    /// The root bones: bodies without a joint to a parent (kinematic in kinematic-root mode).
    pub roots: Vec<BoneId>,
}

impl Follower {
    pub fn new(doc: &Document) -> Self {
        let rest = doc.rest_world_from_bone();
        let joints = parent_first(
            doc.bone_ids()
                .filter_map(|id| joint::resolve(doc, id))
                .collect(),
        );
        let has_body = |id: BoneId| doc.bone(id).collider().is_some();
        let roots = doc
            .bone_ids()
            .filter(|&id| has_body(id) && !joints.iter().any(|j| j.bone == id))
            .collect();
        Self {
            skeleton: doc.skeleton.clone(),
            bone_nodes: doc.bones.iter().map(|b| b.node).collect(),
            joints,
            rest,
            roots,
        }
    }

    /// The horizontal distance the roots travel over one loop of the clip (world units): a
    /// looping clip with root motion carries on from where the last loop ended.
    pub fn loop_travel(&self, clip: &Clip) -> glam::DVec3 {
        let Some(root) = self.roots.first() else {
            return glam::DVec3::ZERO;
        };
        let at = |t: f32| {
            self.bone_pose(clip, t)
                .get(root.index())
                .map_or(glam::DVec3::ZERO, |m| m.w_axis.truncate())
        };
        let d = at(clip.duration_s) - at(0.0);
        glam::DVec3::new(d.x, 0.0, d.z)
    }

    /// The joints that have targets.
    pub fn joints(&self) -> &[JointDef] {
        &self.joints
    }

    /// Every bone's world matrix in the clip at `t_s`.
    pub fn bone_pose(&self, clip: &Clip, t_s: f32) -> Vec<DMat4> {
        let nodes = world_pose(&self.skeleton, clip, t_s);
        self.bone_nodes
            .iter()
            .map(|&n| nodes.get(n).copied().unwrap_or(DMat4::IDENTITY))
            .collect()
    }

    /// How far (world units, >= 0) the clip must be lifted so that no collider of its
    /// clamped pose comes closer to the floor at `floor_y` than [`ground::CLEARANCE`] of the
    /// character's height, over `samples` times of the clip.
    pub fn grounding_lift(&self, doc: &Document, clip: &Clip, samples: usize, floor_y: f64) -> f64 {
        if doc.lowest_collider_y(&self.rest).is_none() {
            return 0.0;
        }
        let rest_low = floor_y + ground::CLEARANCE * ground::height(&self.rest);
        let n = samples.max(2);
        (0..n)
            .filter_map(|i| {
                let t = clip.duration_s * i as f32 / (n - 1) as f32;
                doc.lowest_collider_y(&self.clamped_pose(&self.bone_pose(clip, t)))
            })
            .map(|low| rest_low - low)
            .fold(0.0, f64::max)
    }

    /// The pose the drives actually aim at: from the roots down, each joint at its clamped
    /// target rotation, each child at its rest offset from its parent (joints do not stretch);
    /// bones without a joint carried along from the clip by their nearest moved ancestor.
    pub fn clamped_pose(&self, pose: &[DMat4]) -> Vec<DMat4> {
        let mut out = pose.to_vec();
        // `joints` is parent first: each parent is placed before its children.
        for j in &self.joints {
            let (c, p) = (j.bone.index(), j.parent.index());
            let (Some(rest_c), Some(rest_p), Some(q)) =
                (self.rest.get(c), self.rest.get(p), self.relative(j, pose))
            else {
                continue;
            };
            let q = j.limits.clamp(q);
            let Some(new_p) = out.get(p).copied() else {
                continue;
            };
            let (_, rp_rest, tp_rest) = rest_p.to_scale_rotation_translation();
            let (sc, rc_rest, tc_rest) = rest_c.to_scale_rotation_translation();
            let (_, rp, tp) = new_p.to_scale_rotation_translation();
            let pfj = j.parent_from_joint(rp_rest, rc_rest);
            let rc = (rp * pfj * q * j.bone_from_joint.inverse()).normalize();
            let offset = rp_rest.inverse() * (tc_rest - tp_rest);
            let m = DMat4::from_scale_rotation_translation(sc, rc, tp + rp * offset);
            if let Some(slot) = out.get_mut(c) {
                *slot = m;
            }
        }
        self.carry_unjointed(pose, &mut out);
        out
    }

    /// Bones that are neither roots nor jointed follow their nearest jointed ancestor bone
    /// as they do in the clip.
    fn carry_unjointed(&self, clip: &[DMat4], out: &mut [DMat4]) {
        let moved = |b: usize| self.joints.iter().any(|j| j.bone.index() == b);
        for b in 0..out.len() {
            if moved(b) || self.roots.iter().any(|r| r.index() == b) {
                continue;
            }
            let node = self.bone_nodes.get(b).copied();
            let ancestor = node.and_then(|n| {
                self.skeleton.ancestors(n).find_map(|a| {
                    self.bone_nodes
                        .iter()
                        .position(|&x| x == a)
                        .filter(|&i| moved(i))
                })
            });
            let (Some(a), Some(m)) = (ancestor, clip.get(b)) else {
                continue;
            };
            if let (Some(ca), Some(na)) = (clip.get(a), out.get(a).copied()) {
                if let Some(slot) = out.get_mut(b) {
                    *slot = na * ca.inverse() * *m;
                }
            }
        }
    }

    /// The clip's relative rotation of joint `j` in a bone pose (parent joint frame to child
    /// joint frame), as the clip has it (not clamped).
    fn relative(&self, j: &JointDef, pose: &[DMat4]) -> Option<DQuat> {
        let (c, p) = (j.bone.index(), j.parent.index());
        Some(j.relative_from_matrices(
            self.rest.get(p)?,
            self.rest.get(c)?,
            pose.get(p)?,
            pose.get(c)?,
        ))
    }

    /// The joint targets of a bone pose (from [`Self::bone_pose`]), as the clip has them; the
    /// simulation clamps them into the limits ([`crate::sim::Simulation::set_joint_targets`]).
    pub fn targets(&self, pose: &[DMat4]) -> Vec<JointTarget> {
        self.joints
            .iter()
            .filter_map(|j| {
                Some(JointTarget {
                    bone: j.bone,
                    relative: self.relative(j, pose)?,
                })
            })
            .collect()
    }
}

/// Joints ordered so that every parent body's joint comes before its children's.
fn parent_first(joints: Vec<JointDef>) -> Vec<JointDef> {
    let depth = |j: &JointDef| {
        std::iter::successors(Some(j.parent), |b| {
            joints.iter().find(|k| k.bone == *b).map(|k| k.parent)
        })
        .take(joints.len() + 1)
        .count()
    };
    let mut keyed: Vec<(usize, JointDef)> = joints.iter().map(|j| (depth(j), j.clone())).collect();
    keyed.sort_by_key(|(d, _)| *d);
    keyed.into_iter().map(|(_, j)| j).collect()
}
