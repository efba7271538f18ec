//! Undo/redo of document edits. Every entry keeps the inverse returned by
//! [`Document::apply`]; one continuous drag of one widget merges into a single entry.

use crate::document::{Document, Edit, EditError, EditTarget};

#[derive(Debug, Clone)]
struct Entry {
    undo: Edit,
    redo: Edit,
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
    /// The widget whose drag is still merging into the last entry.
    open: Option<egui::Id>,
}

impl History {
    /// Applies `edit`. With `merge` = Some(widget id) while that widget is being dragged, later
    /// changes from the same drag fold into one entry (keeping the first change's inverse).
    pub fn apply(
        &mut self,
        doc: &mut Document,
        edit: Edit,
        merge: Option<egui::Id>,
    ) -> Result<(), EditError> {
        let inverse = doc.apply(&edit)?;
        self.redo.clear();
        match (merge, self.open, self.undo.last_mut()) {
            (Some(id), Some(open), Some(last)) if id == open => last.redo = edit,
            _ => self.undo.push(Entry {
                undo: inverse,
                redo: edit,
            }),
        }
        self.open = merge;
        Ok(())
    }

    /// Applies several edits of one target as a single undo step (e.g. a paste).
    pub fn apply_group(
        &mut self,
        doc: &mut Document,
        target: EditTarget,
        edits: Vec<Edit>,
    ) -> Result<(), EditError> {
        let mut first = None;
        for e in &edits {
            let inv = doc.apply(e)?;
            first.get_or_insert(inv);
        }
        let Some(undo) = first else { return Ok(()) };
        let extras = match target {
            EditTarget::Node(n) => doc
                .json()
                .get("nodes")
                .and_then(|v| v.get(n))
                .and_then(|v| v.get("extras"))
                .cloned(),
            EditTarget::Document => doc.json().get("extras").cloned(),
        };
        self.redo.clear();
        self.open = None;
        self.undo.push(Entry {
            undo,
            redo: Edit::ReplaceExtras { target, extras },
        });
        Ok(())
    }

    /// Ends a merging drag when its widget is no longer dragged.
    pub fn end_drag_unless(&mut self, dragged: Option<egui::Id>) {
        if self.open.is_some() && self.open != dragged {
            self.open = None;
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo(&mut self, doc: &mut Document) -> Result<bool, EditError> {
        self.open = None;
        let Some(e) = self.undo.pop() else {
            return Ok(false);
        };
        let redo = doc.apply(&e.undo)?;
        self.redo.push(Entry { undo: e.undo, redo });
        Ok(true)
    }

    pub fn redo(&mut self, doc: &mut Document) -> Result<bool, EditError> {
        self.open = None;
        let Some(e) = self.redo.pop() else {
            return Ok(false);
        };
        let undo = doc.apply(&e.redo)?;
        self.undo.push(Entry { undo, redo: e.redo });
        Ok(true)
    }

    pub fn clear(&mut self) {
        *self = Self::default();
    }
}
