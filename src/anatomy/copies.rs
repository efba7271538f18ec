//! Control copies. A full rig exports the bones its animator poses beside the ones that deform
//! the mesh: Rigify's `ORG-spine.006` (and `MCH-` mechanism bones) stands exactly where
//! `DEF-spine.006`, the head that deforms, stands. A deforming bone hung under a copy (Rigify's
//! face, `DEF-nose` under `ORG-face` under `ORG-spine.006`; a shoulder under `ORG-spine.003`)
//! belongs to the deforming bone the copy stands for, whatever lies nearer to it.

use super::names::strip_index;
use super::rig::Rig;

/// The prefixes that mark a rig's copies of one bone (Rigify's original, mechanism and
/// deforming bones).
const COPY_PREFIXES: &[&str] = &["ORG-", "MCH-", "DEF-"];

/// How near (a share of the skeleton's extent) a copy's head lies to the bone it stands for.
pub(super) const COPY_REACH: f64 = 0.01;

/// The name a bone shares with its copies: without an exporter's index suffix and a copy
/// prefix (`ORG-spine.006_0105` and `DEF-spine.006_015` -> `spine.006`).
fn copy_key(read_name: &str) -> &str {
    let name = strip_index(read_name);
    (COPY_PREFIXES.iter())
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

impl Rig {
    /// The bone among `candidates` that a copy above bone `r` in the file stands for: the
    /// nearest ancestor named like a candidate (not like `r` itself: `ORG-thigh.L` above
    /// `DEF-thigh.L` is its own copy) and standing where it stands (within [`COPY_REACH`] of
    /// the skeleton's `extent`).
    pub(super) fn copied_parent(
        &self,
        r: usize,
        candidates: &[usize],
        extent: f64,
    ) -> Option<usize> {
        let own = copy_key(&self.bones[r].read_name);
        let reach = COPY_REACH * extent;
        let below = self.subtree_all(r);
        self.ancestors_in_file(r).find_map(|a| {
            let key = copy_key(&self.bones[a].read_name);
            (key != own && !key.is_empty()).then_some(())?;
            candidates.iter().copied().find(|&b| {
                !below.contains(&b)
                    && copy_key(&self.bones[b].read_name) == key
                    && self.bones[b].pos.distance(self.bones[a].pos) <= reach
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::copy_key;

    #[test]
    fn copies_share_a_key() {
        assert_eq!(copy_key("ORG-spine.006_0105"), "spine.006");
        assert_eq!(copy_key("DEF-spine.006_015"), "spine.006");
        assert_eq!(copy_key("MCH-spine.003"), "spine.003");
        assert_eq!(copy_key("mixamorig:Hips"), "mixamorig:Hips");
    }
}
