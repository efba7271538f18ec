//! Edits that reach more than one bone, as plain functions over the document (no editor
//! state): an inspector edit fans out to every selected bone that shares the field, and with
//! symmetric editing on, each edited bone's new physics is mirrored onto its twin (by
//! [`crate::mirror::mirror_bone`], so offsets, axes and asymmetric limits are right in the
//! twin's own bone axes). Also the edits of the editor's mirror commands.
//!
//! Depends on the document, the mirror layer and [`super::selection`]; `state` composes it
//! into one undo step per edit.

use super::selection;
use crate::document::{BoneId, Document, Edit, EditTarget};
use crate::mirror::{self, Direction};
use serde_json::json;

/// (left, right) twin bones.
pub type TwinPairs = Vec<(BoneId, BoneId)>;

/// Twin pairs of the current bones, cached per skeleton generation (`bones_gen`).
#[derive(Debug, Clone, Default)]
pub struct TwinCache {
    gen: u64,
    pairs: TwinPairs,
}

impl TwinCache {
    /// The twin pairs of `doc`, whose skeleton generation is `bones_gen`.
    pub fn pairs(&mut self, doc: &Document, bones_gen: u64) -> TwinPairs {
        if self.gen != bones_gen {
            *self = Self {
                gen: bones_gen,
                pairs: mirror::twins(doc),
            };
        }
        self.pairs.clone()
    }
}

/// The bones an inspector edit of `key` on `target` reaches: when `target` is the primary
/// (`selected[0]`), every selected bone sharing the field; otherwise the bone of `target`
/// (none for the document itself).
pub fn fan_out(doc: &Document, selected: &[BoneId], target: EditTarget, key: &str) -> Vec<BoneId> {
    match selected.first() {
        Some(&p) if doc.bone_target(p) == target => selected
            .iter()
            .copied()
            .filter(|&b| b == p || selection::shares_field(doc, p, b, key))
            .collect(),
        _ => match target {
            EditTarget::Node(n) => doc.bone_of_node(n).into_iter().collect(),
            EditTarget::Document => Vec::new(),
        },
    }
}

/// The edits setting `key` to `value` on each of `bones`, or on `target` alone without bones.
pub fn set_edits(
    doc: &Document,
    bones: &[BoneId],
    target: EditTarget,
    key: &str,
    value: &serde_json::Value,
) -> Vec<Edit> {
    set_each(doc, bones, target, key, |_| value.clone())
}

/// As [`set_edits`] for a length in metres: each bone gets `metres` over its own world scale
/// (the document keeps lengths in the bone's units).
pub fn set_lengths(
    doc: &Document,
    bones: &[BoneId],
    target: EditTarget,
    key: &str,
    metres: &serde_json::Value,
) -> Vec<Edit> {
    let in_units = |k: f64| {
        let div = |x: &serde_json::Value| x.as_f64().map_or(x.clone(), |m| json!(m / k));
        match metres {
            serde_json::Value::Array(a) => a.iter().map(div).collect(),
            v => div(v),
        }
    };
    set_each(doc, bones, target, key, |b| {
        in_units(b.map_or(1.0, |b| doc.bone_world_scale(b).factor))
    })
}

/// One `Set` of `key` per bone (or on `target` alone without bones), each value from the bone
/// it sets (None: a target that is not a bone's).
fn set_each(
    doc: &Document,
    bones: &[BoneId],
    target: EditTarget,
    key: &str,
    value_for: impl Fn(Option<BoneId>) -> serde_json::Value,
) -> Vec<Edit> {
    let set = |target, bone| Edit::Set {
        target,
        key: key.into(),
        value: value_for(bone),
    };
    if bones.is_empty() {
        let bone = match target {
            EditTarget::Node(n) => doc.bone_of_node(n),
            EditTarget::Document => None,
        };
        return vec![set(target, bone)];
    }
    bones
        .iter()
        .map(|&b| set(doc.bone_target(b), Some(b)))
        .collect()
}

/// The edits mirroring each of `bones` (as `doc` holds it now) onto its twin, for the twins
/// not among `bones` themselves.
pub fn mirror_onto_twins(
    doc: &Document,
    bones: &[BoneId],
    pairs: &[(BoneId, BoneId)],
) -> Vec<Edit> {
    bones
        .iter()
        .filter_map(|&b| Some((b, mirror::twin_of(pairs, b)?)))
        .filter(|(_, t)| !bones.contains(t))
        .flat_map(|(b, t)| mirror::mirror_bone(doc, b, t, pairs))
        .collect()
}

/// "Mirror to other side": the edits copying each of `bones` onto its twin, and how many
/// bones had one.
pub fn mirror_selection(
    doc: &Document,
    bones: &[BoneId],
    pairs: &[(BoneId, BoneId)],
) -> (Vec<Edit>, usize) {
    let mut edits = Vec::new();
    let mut count = 0;
    for &b in bones {
        if let Some(t) = mirror::twin_of(pairs, b) {
            edits.extend(mirror::mirror_bone(doc, b, t, pairs));
            count += 1;
        }
    }
    (edits, count)
}

/// "Mirror side L to R / R to L": the whole character's edits and the words for the status.
pub fn mirror_side(doc: &Document, dir: Direction) -> (Vec<Edit>, &'static str) {
    let what = match dir {
        Direction::LeftToRight => "left to right",
        Direction::RightToLeft => "right to left",
    };
    (mirror::mirror_side(doc, dir, None), what)
}
