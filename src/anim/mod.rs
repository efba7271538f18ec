//! Animation clips as drive targets (pure: document and joint math, no Rapier): the clip's
//! pose by forward kinematics, each joint's target rotation in its joint frame (clamped into
//! its limits), and the root's animated world pose.
//!
//! A joint's target is the clip's rotation of the child relative to its constraint parent,
//! taken relative to the rest pose and expressed in the joint frame of [`crate::joint`]:
//! the same relative rotation the solver's drives and limits act on. The tracking error is
//! the angle between the simulated and the target relative rotation.

mod pose;

pub use pose::{clip_time_s, world_pose, Playback};

use crate::document::{BoneId, Clip, Document, Skeleton};
use crate::joint::{self, JointDef};
use glam::{DMat4, DQuat};

/// One joint's target: the relative rotation (parent joint frame to child joint frame) the
/// drives pull toward, already inside the limits.
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
        let rest: Vec<DMat4> = doc
            .bones
            .iter()
            .map(|b| doc.skeleton.nodes.get(b.node).map_or(DMat4::IDENTITY, |n| n.world_from_node))
            .collect();
        let joints: Vec<JointDef> = doc.bone_ids().filter_map(|id| joint::resolve(doc, id)).collect();
        let has_body = |id: BoneId| {
            doc.bone(id)
                .physics
                .as_ref()
                .is_some_and(|p| p.collider.is_some())
        };
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

    /// The joint targets of a bone pose (from [`Self::bone_pose`]), clamped into the limits.
    pub fn targets(&self, pose: &[DMat4]) -> Vec<JointTarget> {
        self.joints
            .iter()
            .filter_map(|j| {
                let (c, p) = (j.bone.index(), j.parent.index());
                let q = j.relative_from_matrices(
                    self.rest.get(p)?,
                    self.rest.get(c)?,
                    pose.get(p)?,
                    pose.get(c)?,
                );
                Some(JointTarget {
                    bone: j.bone,
                    relative: j.limits.clamp(q),
                })
            })
            .collect()
    }
}
