//! The node hierarchy: display names, parents, rest transforms (local and world) and skins.
//! Built iteratively, so a 100,000-deep chain or a cycle is an error, never a stack overflow.

use glam::{DMat4, DQuat, DVec3};

/// One glTF node as the tool sees it.
#[derive(Debug, Clone)]
pub struct NodeInfo {
    /// The node's name, or `node<index>` when it has none.
    pub name: String,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Rest transform relative to the parent (from TRS or matrix).
    pub parent_from_node: DMat4,
    /// Rest transform in the scene's world frame.
    pub world_from_node: DMat4,
    pub mesh: Option<usize>,
    pub skin: Option<usize>,
}

/// A skin: its joint nodes (inverse bind matrices are read with the geometry).
#[derive(Debug, Clone)]
pub struct SkinInfo {
    pub name: String,
    pub joints: Vec<usize>,
    pub skeleton_root: Option<usize>,
}

/// All nodes and skins of a document.
#[derive(Debug, Clone, Default)]
pub struct Skeleton {
    pub nodes: Vec<NodeInfo>,
    pub skins: Vec<SkinInfo>,
}

/// Display name of a node: its own name, or `node<index>`.
pub fn display_name(name: Option<&str>, index: usize) -> String {
    match name {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("node{index}"),
    }
}

fn local_matrix(t: gltf::scene::Transform) -> DMat4 {
    match t {
        gltf::scene::Transform::Matrix { matrix } => {
            DMat4::from_cols_array_2d(&matrix.map(|c| c.map(f64::from)))
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let q = DQuat::from_array(rotation.map(f64::from));
            let q = if q.length_squared() > 0.0 {
                q.normalize()
            } else {
                DQuat::IDENTITY
            };
            DMat4::from_scale_rotation_translation(
                DVec3::from_array(scale.map(f64::from)),
                q,
                DVec3::from_array(translation.map(f64::from)),
            )
        }
    }
}

impl Skeleton {
    /// Reads nodes and skins from a validated glTF document. Errors on a node with two
    /// parents or a cycle in `children`.
    pub fn from_gltf(doc: &gltf::Document) -> Result<Self, String> {
        let mut nodes: Vec<NodeInfo> = doc
            .nodes()
            .map(|n| NodeInfo {
                name: display_name(n.name(), n.index()),
                parent: None,
                children: n.children().map(|c| c.index()).collect(),
                parent_from_node: local_matrix(n.transform()),
                world_from_node: DMat4::IDENTITY,
                mesh: n.mesh().map(|m| m.index()),
                skin: n.skin().map(|s| s.index()),
            })
            .collect();
        for i in 0..nodes.len() {
            for c in nodes[i].children.clone() {
                if c == i {
                    return Err(format!(
                        "node {i} lists itself as a child (cycle in node children)"
                    ));
                }
                if let Some(p) = nodes[c].parent {
                    return Err(format!(
                        "node {c} is a child of both node {p} and node {i} (the node hierarchy must be a tree)"
                    ));
                }
                nodes[c].parent = Some(i);
            }
        }
        compute_world(&mut nodes)?;
        let skins = doc
            .skins()
            .map(|s| SkinInfo {
                name: display_name(s.name(), s.index()),
                joints: s.joints().map(|j| j.index()).collect(),
                skeleton_root: s.skeleton().map(|n| n.index()),
            })
            .collect();
        Ok(Self { nodes, skins })
    }

    /// Ancestors of `node`, nearest first.
    pub fn ancestors(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.nodes[node].parent, move |&p| self.nodes[p].parent)
    }
}

/// World transforms by an explicit-stack walk from the roots; a node never reached is in a cycle.
fn compute_world(nodes: &mut [NodeInfo]) -> Result<(), String> {
    let mut visited = vec![false; nodes.len()];
    let mut stack: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].parent.is_none())
        .collect();
    while let Some(i) = stack.pop() {
        visited[i] = true;
        let parent_world = nodes[i]
            .parent
            .map_or(DMat4::IDENTITY, |p| nodes[p].world_from_node);
        nodes[i].world_from_node = parent_world * nodes[i].parent_from_node;
        stack.extend(nodes[i].children.iter().copied());
    }
    match visited.iter().position(|v| !v) {
        Some(i) => Err(format!("node {i} is part of a cycle in node children")),
        None => Ok(()),
    }
}
