//! Edits that reach more than one bone, each as one undo step: an inspector edit fans out to
//! every selected bone, and with symmetric editing on, each edited bone's new physics is
//! mirrored onto its twin (by [`crate::mirror::mirror_bone`], so offsets, axes and asymmetric
//! limits are right in the twin's own bone axes). Also the editor's mirror commands.

use super::state::EditorState;
use crate::document::{BoneId, Edit, EditError, EditTarget};
use crate::mirror::{self, Direction};

/// Twin pairs of the current bones, cached per `bones_gen`.
#[derive(Debug, Clone, Default)]
pub struct TwinCache {
    gen: u64,
    pairs: Vec<(BoneId, BoneId)>,
}

impl EditorState {
    /// The (left, right) twin pairs of the current document.
    pub fn twin_pairs(&mut self) -> Vec<(BoneId, BoneId)> {
        if self.twin_cache.gen != self.bones_gen {
            self.twin_cache = TwinCache {
                gen: self.bones_gen,
                pairs: mirror::twins(&self.doc),
            };
        }
        self.twin_cache.pairs.clone()
    }

    /// Turns symmetric editing on when the (newly loaded) character has twins, off otherwise.
    pub fn reset_symmetric(&mut self) {
        self.symmetric = !self.twin_pairs().is_empty();
    }

    /// Applies one key's edit as the inspector makes it: to `target`, and when `target` is
    /// the primary selected bone, to every selected bone; then (symmetric editing on) mirrors
    /// each edited bone onto its twin. One undo step; a drag (`merge`) stays one step.
    pub fn edit(
        &mut self,
        target: EditTarget,
        key: &str,
        value: serde_json::Value,
        merge: Option<egui::Id>,
    ) {
        let primary = self.selection.map(|id| self.doc.bone_target(id));
        let bones: Vec<BoneId> = if primary == Some(target) {
            let all = self.selected_bones();
            let p = all[0];
            all.into_iter()
                .filter(|&b| b == p || self.shares_field(p, b, key))
                .collect()
        } else {
            match target {
                EditTarget::Node(n) => self.doc.bone_of_node(n).into_iter().collect(),
                EditTarget::Document => Vec::new(),
            }
        };
        let mut targets: Vec<EditTarget> = bones.iter().map(|&b| self.doc.bone_target(b)).collect();
        if targets.is_empty() {
            targets.push(target);
        }
        let edits = targets
            .into_iter()
            .map(|t| Edit::Set {
                target: t,
                key: key.into(),
                value: value.clone(),
            })
            .collect();
        if let Err(e) = self.apply_linked(edits, &bones, merge) {
            self.status = format!("edit refused: {e}");
        }
    }

    /// Applies `edits` (to `bones`), then their mirror onto the twins not among `bones` when
    /// symmetric editing is on, as one `Edit::Group` and one undo step, all or nothing.
    pub fn apply_linked(
        &mut self,
        edits: Vec<Edit>,
        bones: &[BoneId],
        merge: Option<egui::Id>,
    ) -> Result<(), EditError> {
        let pairs = if self.symmetric {
            self.twin_pairs()
        } else {
            Vec::new()
        };
        let mirror = |doc: &crate::document::Document| -> Vec<Edit> {
            bones
                .iter()
                .filter_map(|&b| Some((b, mirror::twin_of(&pairs, b)?)))
                .filter(|(_, t)| !bones.contains(t))
                .flat_map(|(b, t)| mirror::mirror_bone(doc, b, t, &pairs))
                .collect()
        };
        let (undo, redo) = self.doc.apply_then(&Edit::Group(edits), mirror)?;
        self.history.record(undo, redo, merge);
        Ok(())
    }

    /// Applies a precomputed group (a mirror command, a preset) as one undo step, reporting
    /// `done` or the refusal in the status bar.
    pub fn apply_command(&mut self, edits: Vec<Edit>, done: String) {
        if edits.is_empty() {
            self.status = "nothing to change".into();
            return;
        }
        // A refusal is reported in the status bar by `execute`.
        self.execute(Edit::Group(edits), None, done).ok();
    }

    /// "Mirror to other side": each selected bone's physics onto its twin.
    pub fn mirror_selection(&mut self) {
        let pairs = self.twin_pairs();
        let bones = self.selected_bones();
        let mut edits = Vec::new();
        let mut count = 0;
        for &b in &bones {
            if let Some(t) = mirror::twin_of(&pairs, b) {
                edits.extend(mirror::mirror_bone(&self.doc, b, t, &pairs));
                count += 1;
            }
        }
        if count == 0 {
            self.status = "no twin found for the selected bone(s)".into();
            return;
        }
        self.apply_command(edits, format!("mirrored {count} bone(s) to the other side"));
    }

    /// "Mirror side L to R / R to L": the whole character.
    pub fn mirror_whole_side(&mut self, dir: Direction) {
        let edits = mirror::mirror_side(&self.doc, dir, None);
        let what = match dir {
            Direction::LeftToRight => "left to right",
            Direction::RightToLeft => "right to left",
        };
        self.apply_command(edits, format!("mirrored {what}"));
    }
}
