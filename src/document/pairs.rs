//! Explicit collision pairs (`collision_pairs` on a bone), resolved over the whole document:
//! each unordered pair of bones with the decision the file states. A pair may be stated on
//! either bone; when the two statements disagree, "do not collide" wins (and
//! [`explicit_pairs`] reports the disagreement).

use super::{BoneId, Document};
use std::collections::BTreeMap;

/// An unordered pair of bones, smaller id first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BonePair(pub BoneId, pub BoneId);

impl BonePair {
    pub fn new(a: BoneId, b: BoneId) -> Self {
        if a <= b {
            Self(a, b)
        } else {
            Self(b, a)
        }
    }
}

/// What the file states about pairs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExplicitPairs {
    /// Pair -> collide.
    pub pairs: BTreeMap<BonePair, bool>,
    /// (bone stating it, the name it gives) for names that are no bone, or the bone itself.
    pub unknown: Vec<(BoneId, String)>,
    /// Pairs whose two statements disagree ("do not collide" is used).
    pub conflicts: Vec<BonePair>,
}

impl ExplicitPairs {
    /// The decision for a pair, if the file states one.
    pub fn get(&self, a: BoneId, b: BoneId) -> Option<bool> {
        self.pairs.get(&BonePair::new(a, b)).copied()
    }

    /// True when `id` appears in any pair.
    pub fn involves(&self, id: BoneId) -> bool {
        self.pairs.keys().any(|p| p.0 == id || p.1 == id)
    }
}

/// Every pair the document states.
pub fn explicit_pairs(doc: &Document) -> ExplicitPairs {
    let mut out = ExplicitPairs::default();
    for id in doc.bone_ids() {
        let Some(p) = &doc.bone(id).physics else {
            continue;
        };
        for pair in &p.collision_pairs {
            let other = doc.bone_by_name(&pair.other).filter(|&o| o != id);
            let Some(other) = other else {
                out.unknown.push((id, pair.other.clone()));
                continue;
            };
            let key = BonePair::new(id, other);
            match out.pairs.get(&key) {
                Some(&prev) if prev != pair.collide => {
                    out.conflicts.push(key);
                    out.pairs.insert(key, false);
                }
                _ => {
                    out.pairs.insert(key, pair.collide);
                }
            }
        }
    }
    out
}
