//! Undo/redo of document edits. Every entry keeps the inverse returned by
//! [`Document::apply`]; one continuous drag of one widget merges into a single entry.

use crate::document::{Document, Edit, EditError, EditTarget};

/// One undo step: the edit that undoes it and the one that redoes it (usually an
/// `Edit::Group` each, applied all or nothing by the document).
#[derive(Debug, Clone)]
struct Entry {
    undo: Edit,
    redo: Edit,
}

/// Every target an edit touches.
fn collect_targets(e: &Edit, out: &mut Vec<EditTarget>) {
    match e {
        Edit::Group(list) => list.iter().for_each(|x| collect_targets(x, out)),
        other => out.push(other.target()),
    }
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
    /// Records an edit the document has already taken (`redo` applied, `undo` its exact
    /// inverse from [`Document::apply`]). With `merge` = Some(widget id) while that widget is
    /// being dragged, it folds into the last entry: the entry keeps restoring the state from
    /// before the drag (composing the new inverse in front when it touches new targets) and
    /// redoes the latest edit, which sets the same keys from that state.
    pub fn record(&mut self, undo: Edit, redo: Edit, merge: Option<egui::Id>) {
        self.redo.clear();
        match (merge, self.open, self.undo.last_mut()) {
            (Some(id), Some(open), Some(last)) if id == open => {
                let mut old = Vec::new();
                collect_targets(&last.undo, &mut old);
                let mut new = Vec::new();
                collect_targets(&undo, &mut new);
                if !new.iter().all(|t| old.contains(t)) {
                    let before = std::mem::replace(&mut last.undo, Edit::Group(Vec::new()));
                    last.undo = Edit::Group(vec![undo, before]);
                }
                last.redo = redo;
            }
            _ => self.undo.push(Entry { undo, redo }),
        }
        self.open = merge;
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

    /// Undoes the last step (all of it or, on a failure, none of it).
    pub fn undo(&mut self, doc: &mut Document) -> Result<bool, EditError> {
        self.open = None;
        let Some(e) = self.undo.pop() else {
            return Ok(false);
        };
        match doc.apply(&e.undo) {
            Ok(redo) => {
                self.redo.push(Entry { undo: e.undo, redo });
                Ok(true)
            }
            Err(err) => {
                self.undo.push(e);
                Err(err)
            }
        }
    }

    /// Redoes the last undone step (all of it or none of it).
    pub fn redo(&mut self, doc: &mut Document) -> Result<bool, EditError> {
        self.open = None;
        let Some(e) = self.redo.pop() else {
            return Ok(false);
        };
        match doc.apply(&e.redo) {
            Ok(undo) => {
                self.undo.push(Entry { undo, redo: e.redo });
                Ok(true)
            }
            Err(err) => {
                self.redo.push(e);
                Err(err)
            }
        }
    }

    pub fn clear(&mut self) {
        *self = Self::default();
    }
}
