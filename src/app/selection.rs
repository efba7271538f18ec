//! The multi-selection beside the primary one. `EditorState::selection` stays the primary
//! (active) bone that the inspector, viewport and plots follow; `extra` holds the other
//! selected bones. The extras belong to the primary they were made with: code that sets
//! `selection` directly (a plain viewport click, a diagnostic) thereby selects one bone only.

use super::state::EditorState;
use crate::document::BoneId;
use serde_json::Value;

/// The bones selected besides the primary, and the primary they go with.
#[derive(Debug, Clone, Default)]
pub struct MultiSelection {
    pub extra: Vec<BoneId>,
    pub primary: Option<BoneId>,
}

impl EditorState {
    /// Every selected bone, the primary first (empty without a primary).
    pub fn selected_bones(&self) -> Vec<BoneId> {
        let Some(p) = self.selection else {
            return Vec::new();
        };
        let mut out = vec![p];
        if self.multi.primary == Some(p) {
            out.extend(self.multi.extra.iter().copied().filter(|&b| b != p));
        }
        out
    }

    /// Selects one bone (or none).
    pub fn select_only(&mut self, id: Option<BoneId>) {
        self.selection = id;
        self.multi = MultiSelection::default();
    }

    /// Ctrl-click: adds a bone to the selection (it becomes the primary) or removes it.
    pub fn toggle_select(&mut self, id: BoneId) {
        let mut all = self.selected_bones();
        if let Some(i) = all.iter().position(|&b| b == id) {
            all.remove(i);
        } else {
            all.insert(0, id);
        }
        self.set_selected(all);
    }

    /// Shift-click: selects the bones from the primary to `id` in `order` (the outliner's
    /// rows as shown), keeping what was selected; `id` becomes the primary.
    pub fn select_range(&mut self, id: BoneId, order: &[BoneId]) {
        let Some(p) = self.selection else {
            return self.select_only(Some(id));
        };
        let (Some(a), Some(b)) = (
            order.iter().position(|&x| x == p),
            order.iter().position(|&x| x == id),
        ) else {
            return self.toggle_select(id);
        };
        let mut all = self.selected_bones();
        for &x in &order[a.min(b)..=a.max(b)] {
            if !all.contains(&x) {
                all.push(x);
            }
        }
        all.retain(|&x| x != id);
        all.insert(0, id);
        self.set_selected(all);
    }

    /// Selects exactly these bones, the first one primary.
    pub fn set_selected(&mut self, bones: Vec<BoneId>) {
        self.selection = bones.first().copied();
        self.multi = MultiSelection {
            extra: bones.into_iter().skip(1).collect(),
            primary: self.selection,
        };
    }

    /// Whether bone `b` has the field `key` the way the primary `p` has it (same collider
    /// shape for shape sizes, same joint type for limits, a joint for drive gains): the
    /// inspector shows the primary's rows, and an edit reaches the selected bones that share
    /// the row.
    pub fn shares_field(&self, p: BoneId, b: BoneId, key: &str) -> bool {
        let (Some(pp), Some(bp)) = (
            self.doc.bone(p).physics.as_ref(),
            self.doc.bone(b).physics.as_ref(),
        ) else {
            return false;
        };
        let shape =
            |x: &crate::document::BonePhysics| x.collider.as_ref().map(|c| c.shape.type_name());
        let joint =
            |x: &crate::document::BonePhysics| x.constraint.as_ref().map(|c| c.kind.type_name());
        use crate::document::fields::{Key, Section};
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

    /// The raw value of a key (`constraint.limit_min_deg`) in a bone's `extras.physics`.
    fn physics_value(&self, id: BoneId, key: &str) -> Option<&Value> {
        let node = self.doc.json().get("nodes")?.get(self.doc.bone(id).node)?;
        let mut v = node.get("extras")?.get(crate::document::write::PHYSICS)?;
        for part in key.split('.') {
            v = v.get(part)?;
        }
        Some(v)
    }

    /// True when the selected bones do not all hold the same value for `key` (a missing
    /// key counts as its own value): the inspector then shows the field as mixed.
    pub fn is_mixed(&self, key: &str) -> bool {
        let bones = self.selected_bones();
        let Some((&first, rest)) = bones.split_first() else {
            return false;
        };
        let v0 = self.physics_value(first, key);
        rest.iter().any(|&b| self.physics_value(b, key) != v0)
    }
}
