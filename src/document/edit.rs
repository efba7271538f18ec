//! Edits are commands: each changes keys the tool owns and returns its exact inverse, so
//! undo/redo, batch `--set` and live simulation updates all go through [`Document::apply`].

use super::canonical;
use super::error::EditError;
use super::fields::{self, Key, Section};
use super::schema::{constraint_keys, drive_keys, offset_keys, physics_keys};
use super::write;
use super::{BoneId, Document};
use serde_json::{Map, Value};

/// What an edit changes: one node's `extras`, or the document root's `extras`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditTarget {
    Node(usize),
    Document,
}

/// One edit. `key` is a dotted path inside `extras.physics` (e.g. `constraint.limit_min_deg`,
/// or `balance.upright_kp` on the document).
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    Set {
        target: EditTarget,
        key: String,
        value: Value,
    },
    Remove {
        target: EditTarget,
        key: String,
    },
    /// Replaces the whole `extras` value (None removes it): the inverse of every edit.
    ReplaceExtras {
        target: EditTarget,
        extras: Option<Value>,
    },
    /// Appends objects to top-level arrays of the glTF ([`APPENDABLE`]: new buffers, views,
    /// accessors, animations; a baked clip), creating a missing array. Indices inside the new
    /// objects are the caller's: they count from the arrays' current lengths.
    Append {
        arrays: Vec<(String, Vec<Value>)>,
    },
    /// Truncates top-level arrays back to these lengths (None removes the array): the inverse
    /// of [`Edit::Append`].
    Truncate {
        lens: Vec<(String, Option<usize>)>,
    },
    /// Several edits applied in order, all or nothing, as one command (one undo step).
    /// Its inverse is the group of the inverses in reverse order.
    Group(Vec<Edit>),
}

impl Edit {
    /// The target of a single edit; a group's first edit's target (the document's for an
    /// empty group).
    pub fn target(&self) -> EditTarget {
        match self {
            Edit::Set { target, .. }
            | Edit::Remove { target, .. }
            | Edit::ReplaceExtras { target, .. } => *target,
            Edit::Group(list) => list.first().map_or(EditTarget::Document, Edit::target),
            Edit::Append { .. } | Edit::Truncate { .. } => EditTarget::Document,
        }
    }
}

/// The top-level arrays an [`Edit::Append`] may grow.
pub const APPENDABLE: &[&str] = &["buffers", "bufferViews", "accessors", "animations"];

/// Checks a key path against the schema, so a typo is refused rather than written: a key of
/// the field table in the target's sections, or a whole object (`constraint`, `drive`,
/// `offset` on a node; `balance` on the document).
fn check_key(target: EditTarget, key: &str, doc: &Document) -> Result<(), EditError> {
    let on_document = matches!(target, EditTarget::Document);
    let section_fits = |s: Section| match s {
        Section::Balance | Section::Root => on_document,
        Section::Bone | Section::Constraint | Section::Drive => !on_document,
    };
    if Key::from_path(key).is_some_and(|k| section_fits(k.field().section)) {
        return Ok(());
    }
    let whole = if on_document {
        key == write::BALANCE || key == write::top(Key::AnatomyKind)
    } else {
        physics_keys().contains(&key)
    };
    if whole {
        return Ok(());
    }
    let EditTarget::Node(node) = target else {
        return Err(EditError::UnknownDocumentKey {
            key: key.into(),
            known: fields::FIELDS
                .iter()
                .filter(|f| section_fits(f.section))
                .map(|f| f.id.path())
                .collect::<Vec<_>>()
                .join(", "),
        });
    };
    let head = key.split('.').next().unwrap_or(key);
    let known = if head == write::top(Key::Constraint) {
        constraint_keys()
    } else if head == write::top(Key::Drive) {
        drive_keys()
    } else if head == write::top(Key::OffsetTranslation) {
        offset_keys()
    } else {
        physics_keys()
    };
    Err(EditError::UnknownKey {
        node,
        bone: doc.skeleton.nodes[node].name.clone(),
        key: key.into(),
        known: known.join(", "),
    })
}

impl Document {
    /// The `extras` value an edit target owns.
    fn extras_slot(&self, target: EditTarget) -> Option<&Value> {
        match target {
            EditTarget::Node(n) => self.json.get("nodes")?.get(n)?.get("extras"),
            EditTarget::Document => self.json.get("extras"),
        }
    }

    fn owner_mut(&mut self, target: EditTarget) -> Option<&mut Map<String, Value>> {
        match target {
            EditTarget::Node(n) => self.json.get_mut("nodes")?.get_mut(n)?.as_object_mut(),
            EditTarget::Document => self.json.as_object_mut(),
        }
    }

    fn target_name(&self, target: EditTarget) -> (usize, String) {
        match target {
            EditTarget::Node(n) => (n, self.skeleton.nodes[n].name.clone()),
            EditTarget::Document => (usize::MAX, "document".into()),
        }
    }

    /// Applies an edit, re-derives physics and diagnostics, and returns the inverse edit.
    /// A group applies all or nothing: on the first failure the edits already applied are
    /// undone and the error is returned.
    pub fn apply(&mut self, edit: &Edit) -> Result<Edit, EditError> {
        let inverse = self.apply_raw(edit)?;
        self.edits_since_save += 1;
        self.analyse();
        self.bump_revision();
        Ok(inverse)
    }

    /// Applies `first`, then the edits `then` derives from the result (a symmetric edit's
    /// mirror onto the twins), all or nothing, as one command: returns (undo, redo). On any
    /// failure nothing has changed.
    pub fn apply_then(
        &mut self,
        first: &Edit,
        then: impl FnOnce(&Document) -> Vec<Edit>,
    ) -> Result<(Edit, Edit), EditError> {
        let undo_first = self.apply_raw(first)?;
        self.analyse();
        let derived = then(self);
        if derived.is_empty() {
            self.edits_since_save += 1;
            self.bump_revision();
            return Ok((undo_first, first.clone()));
        }
        let second = Edit::Group(derived);
        match self.apply_raw(&second) {
            Ok(undo_second) => {
                self.edits_since_save += 1;
                self.analyse();
                self.bump_revision();
                Ok((
                    Edit::Group(vec![undo_second, undo_first]),
                    Edit::Group(vec![first.clone(), second]),
                ))
            }
            Err(e) => {
                // Inverses are whole-extras replacements of targets just written: they cannot
                // fail, and a failure here would leave nothing to restore.
                self.apply_raw(&undo_first).ok();
                self.analyse();
                Err(e)
            }
        }
    }

    /// Applies an edit to the JSON only (no re-analysis), returning its inverse.
    fn apply_raw(&mut self, edit: &Edit) -> Result<Edit, EditError> {
        let Edit::Group(list) = edit else {
            return self.apply_one(edit);
        };
        let mut inverses = Vec::with_capacity(list.len());
        for e in list {
            match self.apply_raw(e) {
                Ok(inv) => inverses.push(inv),
                Err(err) => {
                    for inv in inverses.iter().rev() {
                        // Inverses are whole-extras replacements of targets just written:
                        // they cannot fail, and a failure here would leave nothing to restore.
                        self.apply_raw(inv).ok();
                    }
                    return Err(err);
                }
            }
        }
        inverses.reverse();
        Ok(Edit::Group(inverses))
    }

    fn apply_one(&mut self, edit: &Edit) -> Result<Edit, EditError> {
        match edit {
            Edit::Append { arrays } => return self.append(arrays),
            Edit::Truncate { lens } => return self.truncate(lens),
            _ => {}
        }
        let target = edit.target();
        if let EditTarget::Node(n) = target {
            if n >= self.skeleton.nodes.len() {
                return Err(EditError::UnknownBone(format!("node{n}")));
            }
        }
        if let Edit::Set { key, .. } | Edit::Remove { key, .. } = edit {
            check_key(target, key, self)?;
        }
        let before = self.extras_slot(target).cloned();
        let (node, bone) = self.target_name(target);
        let not_object = |key: &str, reason: &str| EditError::NotAnObject {
            node,
            bone: bone.clone(),
            key: key.into(),
            reason: reason.into(),
        };
        let owner = self
            .owner_mut(target)
            .ok_or_else(|| not_object("extras", "the node is not a JSON object"))?;
        match edit {
            Edit::ReplaceExtras { extras, .. } => match extras {
                Some(v) => {
                    owner.insert("extras".into(), v.clone());
                }
                None => {
                    owner.remove("extras");
                }
            },
            Edit::Set { key, value, .. } => {
                let slot = physics_object(owner).map_err(|r| not_object(key, r))?;
                for (k, v) in canonical::expand_set(key, value) {
                    match v {
                        Some(v) => set_path(slot, &k, v).map_err(|r| not_object(&k, &r))?,
                        None => remove_path(slot, &k),
                    }
                }
            }
            Edit::Remove { key, .. } => {
                let slot = physics_object(owner).map_err(|r| not_object(key, r))?;
                for (k, _) in canonical::expand_remove(key) {
                    remove_path(slot, &k);
                }
            }
            Edit::Group(_) | Edit::Append { .. } | Edit::Truncate { .. } => {
                unreachable!("groups are split in apply_raw; appends are applied above")
            }
        }
        Ok(Edit::ReplaceExtras {
            target,
            extras: before,
        })
    }

    /// Appends objects to top-level arrays; the inverse truncates them back.
    fn append(&mut self, arrays: &[(String, Vec<Value>)]) -> Result<Edit, EditError> {
        let refuse = |key: &str, reason: &str| EditError::NotAnObject {
            node: usize::MAX,
            bone: "document".into(),
            key: key.into(),
            reason: reason.into(),
        };
        for (key, items) in arrays {
            if !APPENDABLE.contains(&key.as_str()) {
                return Err(refuse(
                    key,
                    "only buffers, bufferViews, accessors and animations grow",
                ));
            }
            if items.iter().any(|v| !v.is_object())
                || self.json.get(key).is_some_and(|a| !a.is_array())
            {
                return Err(refuse(key, "appends objects to an array"));
            }
        }
        let root = self
            .json
            .as_object_mut()
            .ok_or_else(|| refuse("", "the glTF root is not an object"))?;
        let mut lens = Vec::new();
        for (key, items) in arrays {
            let before = root.get(key).and_then(Value::as_array).map(Vec::len);
            lens.push((key.clone(), before));
            let list = root
                .entry(key.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(a) = list {
                a.extend(items.iter().cloned());
            }
        }
        lens.reverse();
        Ok(Edit::Truncate { lens })
    }

    /// Truncates top-level arrays; the inverse appends what was cut.
    fn truncate(&mut self, lens: &[(String, Option<usize>)]) -> Result<Edit, EditError> {
        let mut arrays = Vec::new();
        let root = self.json.as_object_mut().ok_or(EditError::NotAnObject {
            node: usize::MAX,
            bone: "document".into(),
            key: String::new(),
            reason: "the glTF root is not an object".into(),
        })?;
        for (key, len) in lens {
            let cut: Vec<Value> = match (root.get_mut(key), len) {
                (Some(Value::Array(a)), Some(n)) => a.split_off((*n).min(a.len())),
                (Some(Value::Array(_)), None) => match root.shift_remove(key) {
                    Some(Value::Array(a)) => a,
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            arrays.push((key.clone(), cut));
        }
        arrays.reverse();
        Ok(Edit::Append { arrays })
    }

    /// The target for a bone's edits.
    pub fn bone_target(&self, id: BoneId) -> EditTarget {
        EditTarget::Node(self.bone(id).node)
    }

    /// Resolves `BONE.KEY` (or `@KEY` for document keys) to a target and key. `BONE` is the
    /// longest known bone name the text starts with, so names may contain dots or colons.
    pub fn resolve_key(&self, lhs: &str) -> Result<(EditTarget, String), EditError> {
        if let Some(key) = lhs.strip_prefix('@') {
            return Ok((EditTarget::Document, key.to_string()));
        }
        let best = self
            .names
            .iter()
            .filter(|(name, _)| {
                lhs.len() > name.len() + 1
                    && lhs.starts_with(name.as_str())
                    && lhs.as_bytes()[name.len()] == b'.'
            })
            .max_by_key(|(name, _)| name.len());
        if let Some((name, id)) = best {
            return Ok((self.bone_target(*id), lhs[name.len() + 1..].to_string()));
        }
        // Any node can gain physics, addressed by name or node<index>.
        for (i, n) in self.skeleton.nodes.iter().enumerate() {
            for name in [n.name.clone(), format!("node{i}")] {
                if let Some(key) = lhs.strip_prefix(&name).and_then(|r| r.strip_prefix('.')) {
                    return Ok((EditTarget::Node(i), key.to_string()));
                }
            }
        }
        let bone = lhs.split('.').next().unwrap_or(lhs);
        Err(EditError::UnknownBone(bone.to_string()))
    }

    /// Marks the document as saved (called by the save functions).
    pub(crate) fn mark_saved(&mut self) {
        self.edits_since_save = 0;
    }
}

/// `extras.physics` of an owner object, created when absent.
fn physics_object(owner: &mut Map<String, Value>) -> Result<&mut Map<String, Value>, &'static str> {
    let extras = owner
        .entry("extras")
        .or_insert_with(|| Value::Object(Map::new()));
    let extras = extras
        .as_object_mut()
        .ok_or("its 'extras' is not a JSON object")?;
    let physics = extras
        .entry(super::write::PHYSICS)
        .or_insert_with(|| Value::Object(Map::new()));
    physics
        .as_object_mut()
        .ok_or("its 'extras.physics' is not a JSON object")
}

fn set_path(obj: &mut Map<String, Value>, key: &str, value: Value) -> Result<(), String> {
    let (head, rest) = match key.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (key, None),
    };
    match rest {
        None => {
            obj.insert(head.to_string(), value);
            Ok(())
        }
        Some(rest) => {
            let child = obj.entry(head).or_insert_with(|| Value::Object(Map::new()));
            let child = child
                .as_object_mut()
                .ok_or_else(|| format!("'{head}' holds a non-object value"))?;
            set_path(child, rest, value)
        }
    }
}

fn remove_path(obj: &mut Map<String, Value>, key: &str) {
    match key.split_once('.') {
        None => {
            obj.shift_remove(key);
        }
        Some((head, rest)) => {
            if let Some(child) = obj.get_mut(head).and_then(Value::as_object_mut) {
                remove_path(child, rest);
            }
        }
    }
}

/// Splits `BONE.KEY=VALUE`; VALUE is JSON when it parses as JSON, else a plain string.
pub fn parse_assignment(text: &str) -> Result<(String, Value), EditError> {
    let (lhs, rhs) = text
        .split_once('=')
        .ok_or_else(|| EditError::Syntax(text.into()))?;
    if lhs.is_empty() || !lhs.contains('.') {
        return Err(EditError::Syntax(text.into()));
    }
    let value = serde_json::from_str(rhs.trim()).unwrap_or_else(|_| Value::String(rhs.to_string()));
    Ok((lhs.to_string(), value))
}
