//! Bones: every skin joint plus every node with `extras.physics` (and, in a file with no skin,
//! every node its clips turn or move), with typed ids and name lookup.

use super::schema::{BodyMaterial, BonePhysics, Collider, Constraint};
use super::skeleton::Skeleton;
use serde_json::Value;
use std::collections::HashMap;

/// Index of a bone in [`super::Document::bones`]. Stable for the document's lifetime:
/// a node that gains physics is appended, never inserted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct BoneId(pub u32);

impl BoneId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A bone: its node, display name, nearest ancestor bone and parsed physics.
#[derive(Debug, Clone)]
pub struct Bone {
    pub node: usize,
    pub name: String,
    pub parent: Option<BoneId>,
    pub physics: Option<BonePhysics>,
    /// True when one of the document's diagnostics names this bone's node.
    pub has_problems: bool,
}

impl Bone {
    /// The bone's collider, if it has physics with one.
    pub fn collider(&self) -> Option<&Collider> {
        self.physics.as_ref()?.collider.as_ref()
    }

    /// The bone's joint to its parent, if it has physics with one.
    pub fn constraint(&self) -> Option<&Constraint> {
        self.physics.as_ref()?.constraint.as_ref()
    }

    /// The bone's body material (friction, damping, ...): the defaults without physics.
    pub fn material(&self) -> BodyMaterial {
        self.physics
            .as_ref()
            .map(|p| p.material)
            .unwrap_or_default()
    }
}

/// `nodes[i].extras.physics` of the raw JSON, if present.
pub(crate) fn node_physics(json: &Value, node: usize) -> Option<&Value> {
    json.get("nodes")?
        .get(node)?
        .get("extras")?
        .get(super::write::PHYSICS)
}

/// The bone nodes, keeping `previous` in order and appending newly qualifying nodes.
pub(crate) fn bone_nodes(json: &Value, skeleton: &Skeleton, previous: &[usize]) -> Vec<usize> {
    let mut is_bone = vec![false; skeleton.nodes.len()];
    for skin in &skeleton.skins {
        for &j in &skin.joints {
            is_bone[j] = true;
        }
    }
    if skeleton.skins.is_empty() {
        for n in animated_nodes(json) {
            if let Some(flag) = is_bone.get_mut(n) {
                *flag = true;
            }
        }
    }
    for (i, flag) in is_bone.iter_mut().enumerate() {
        *flag |= node_physics(json, i).is_some();
    }
    let mut out = previous.to_vec();
    for &p in previous {
        is_bone[p] = false;
    }
    out.extend((0..is_bone.len()).filter(|&i| is_bone[i]));
    out
}

/// The nodes a clip turns or moves: the bones of a character built of rigid parts that
/// its clips animate as nodes, with no skin (a Kenney platformer character: torso, arms,
/// legs and antenna each a mesh node). Fewer than two is no such character (a turning prop).
fn animated_nodes(json: &Value) -> Vec<usize> {
    let channels = (json
        .get("animations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten())
    .filter_map(|a| a.get("channels")?.as_array())
    .flatten();
    let mut nodes: Vec<usize> = channels
        .filter_map(|c| c.get("target"))
        .filter(|t| {
            matches!(
                t.get("path").and_then(Value::as_str),
                Some("rotation" | "translation")
            )
        })
        .filter_map(|t| usize::try_from(t.get("node")?.as_u64()?).ok())
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    if nodes.len() < 2 {
        nodes.clear();
    }
    nodes
}

/// Nearest ancestor of each bone that is itself a bone.
pub(crate) fn bone_parents(skeleton: &Skeleton, nodes: &[usize]) -> Vec<Option<BoneId>> {
    let by_node: HashMap<usize, BoneId> = nodes
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, BoneId(i as u32)))
        .collect();
    nodes
        .iter()
        .map(|&n| skeleton.ancestors(n).find_map(|a| by_node.get(&a).copied()))
        .collect()
}
