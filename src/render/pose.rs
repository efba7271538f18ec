//! Poses: a world transform per bone, indexed by [`BoneId`]. The viewport draws whatever pose it
//! is given; the rest pose comes from the document, a running simulation supplies its own.

use crate::document::{BoneId, Document};
use glam::DMat4;

/// `world_from_bone` for every bone of a document, plus a counter that changes with the pose.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pose {
    pub world_from_bone: Vec<DMat4>,
}

impl Pose {
    /// The document's rest pose.
    pub fn rest(doc: &Document) -> Self {
        let world_from_bone = doc
            .bones
            .iter()
            .map(|b| doc.skeleton.nodes[b.node].world_from_node)
            .collect();
        Self { world_from_bone }
    }

    pub fn get(&self, id: BoneId) -> Option<&DMat4> {
        self.world_from_bone.get(id.index())
    }
}
