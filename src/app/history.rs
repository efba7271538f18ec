//! Undo/redo of document edits. Every entry keeps the inverse returned by
//! [`Document::apply`]; one continuous drag of one widget merges into a single entry.

use crate::document::{Document, Edit, EditError, EditTarget};

/// One undo step: the edits that undo it and those that redo it, each list applied in order
/// (usually one `Edit::Group` each).
#[derive(Debug, Clone)]
struct Entry {
    undo: Vec<Edit>,
    redo: Vec<Edit>,
}

/// Every target an edit touches.
fn collect_targets(e: &Edit, out: &mut Vec<EditTarget>) {
    match e {
        Edit::Group(list) => list.iter().for_each(|x| collect_targets(x, out)),
        other => out.push(other.target()),
    }
}

/// Puts back the extras saved before a group started. Restoring a value the document held a
/// moment ago does not fail in practice; if it ever did, it is said on stderr (the group's
/// own error is what the user is shown).
fn rollback(doc: &mut Document, before: &[Edit]) {
    for b in before.iter().rev() {
        if let Err(e) = doc.apply(b) {
            eprintln!("error: rolling back a refused group of edits failed: {e}");
        }
    }
}

/// Applies a step's edits; on a failure, the ones already applied are undone again.
fn apply_all(doc: &mut Document, edits: &[Edit]) -> Result<Vec<Edit>, EditError> {
    let mut inverses = Vec::with_capacity(edits.len());
    for e in edits {
        match doc.apply(e) {
            Ok(inv) => inverses.push(inv),
            Err(err) => {
                rollback(doc, &inverses);
                return Err(err);
            }
        }
    }
    Ok(inverses)
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
            (Some(id), Some(open), Some(last)) if id == open => last.redo = vec![edit],
            _ => self.undo.push(Entry {
                undo: vec![inverse],
                redo: vec![edit],
            }),
        }
        self.open = merge;
        Ok(())
    }

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
                for e in &last.undo {
                    collect_targets(e, &mut old);
                }
                let mut new = Vec::new();
                collect_targets(&undo, &mut new);
                if !new.iter().all(|t| old.contains(t)) {
                    let before = std::mem::take(&mut last.undo);
                    last.undo = vec![undo, Edit::Group(before)];
                }
                last.redo = vec![redo];
            }
            _ => self.undo.push(Entry {
                undo: vec![undo],
                redo: vec![redo],
            }),
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

    pub fn undo(&mut self, doc: &mut Document) -> Result<bool, EditError> {
        self.open = None;
        let Some(e) = self.undo.pop() else {
            return Ok(false);
        };
        match apply_all(doc, &e.undo) {
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

    pub fn redo(&mut self, doc: &mut Document) -> Result<bool, EditError> {
        self.open = None;
        let Some(e) = self.redo.pop() else {
            return Ok(false);
        };
        match apply_all(doc, &e.redo) {
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
