//! The multi-selection beside the primary one, as plain values over the document (no editor
//! state): `EditorState::selection` stays the primary (active) bone that the inspector,
//! viewport and plots follow; a [`MultiSelection`] holds the other selected bones. The
//! extras belong to the primary they were made with: code that sets the primary directly (a
//! plain viewport click, a diagnostic) thereby selects one bone only.
//!
//! Depends on the document only; `state` composes it (and `symmetry` reads it).

use crate::document::{BoneId, BonePhysics, Document};
use serde_json::Value;

/// The bones selected besides the primary, and the primary they go with.
#[derive(Debug, Clone, Default)]
pub struct MultiSelection {
    pub extra: Vec<BoneId>,
    pub primary: Option<BoneId>,
}

impl MultiSelection {
    /// The selection of exactly `bones`, the first one primary: (primary, the others).
    pub fn of(bones: Vec<BoneId>) -> (Option<BoneId>, Self) {
        let primary = bones.first().copied();
        let extra = bones.into_iter().skip(1).collect();
        (primary, Self { extra, primary })
    }

    /// Every selected bone when `primary` is the primary, it first (empty without one).
    /// Extras made with another primary are not selected.
    pub fn bones(&self, primary: Option<BoneId>) -> Vec<BoneId> {
        let Some(p) = primary else {
            return Vec::new();
        };
        let mut out = vec![p];
        if self.primary == Some(p) {
            out.extend(self.extra.iter().copied().filter(|&b| b != p));
        }
        out
    }
}

/// Ctrl-click on `id`: the selection `all` (primary first) with `id` added as the primary,
/// or removed when it was selected.
pub fn toggled(mut all: Vec<BoneId>, id: BoneId) -> Vec<BoneId> {
    if let Some(i) = all.iter().position(|&b| b == id) {
        all.remove(i);
    } else {
        all.insert(0, id);
    }
    all
}

/// Shift-click on `id`: the bones from the primary (`all[0]`) to `id` in `order` (the
/// outliner's rows as shown) added to `all`, `id` the new primary. None when the primary or
/// `id` is not in `order` (the caller toggles instead).
pub fn ranged(mut all: Vec<BoneId>, id: BoneId, order: &[BoneId]) -> Option<Vec<BoneId>> {
    let p = *all.first()?;
    let a = order.iter().position(|&x| x == p)?;
    let b = order.iter().position(|&x| x == id)?;
    for &x in &order[a.min(b)..=a.max(b)] {
        if !all.contains(&x) {
            all.push(x);
        }
    }
    all.retain(|&x| x != id);
    all.insert(0, id);
    Some(all)
}

/// Whether bone `b` has the field `key` the way the primary `p` has it (same collider
/// shape for shape sizes, same joint type for limits, a joint for drive gains): the
/// inspector shows the primary's rows, and an edit reaches the selected bones that share
/// the row.
pub fn shares_field(doc: &Document, p: BoneId, b: BoneId, key: &str) -> bool {
    use crate::document::fields::{Key, Section};
    let (Some(pp), Some(bp)) = (doc.bone(p).physics.as_ref(), doc.bone(b).physics.as_ref()) else {
        return false;
    };
    let shape = |x: &BonePhysics| x.collider.as_ref().map(|c| c.shape.type_name());
    let joint = |x: &BonePhysics| x.constraint.as_ref().map(|c| c.kind.type_name());
    let Some(k) = Key::from_path(key) else {
        return true;
    };
    match (k, k.field().section) {
        (Key::Radius | Key::HalfHeight | Key::HalfExtents, _)
        | (Key::OffsetTranslation | Key::OffsetRotation, _) => shape(pp) == shape(bp),
        (Key::ConstraintType | Key::ParentBone, _) => true,
        (_, Section::Constraint) => joint(pp) == joint(bp),
        (_, Section::Drive) => joint(bp).is_some(),
        _ => true,
    }
}

/// The raw value of a key (`constraint.limit_min_deg`) in a bone's physics, as the file
/// states it.
fn physics_value<'a>(doc: &'a Document, id: BoneId, key: &str) -> Option<&'a Value> {
    key.split('.')
        .try_fold(doc.physics_json(id)?, |v, part| v.get(part))
}

/// True when `bones` do not all hold the same value for `key` (a missing key counts as its
/// own value): the inspector then shows the field as mixed.
pub fn is_mixed(doc: &Document, bones: &[BoneId], key: &str) -> bool {
    let Some((&first, rest)) = bones.split_first() else {
        return false;
    };
    let v0 = physics_value(doc, first, key);
    rest.iter().any(|&b| physics_value(doc, b, key) != v0)
}
