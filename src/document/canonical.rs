//! Edits in the file's canonical form, so that the seed's keys always mean what the seed says.
//! Every `Set` and `Remove` goes through [`expand_set`] / [`expand_remove`] inside
//! [`super::Document::apply`]: setting a limit writes the seed's number and the exact key
//! together (as [`super::write`] does), setting the seed's number alone drops the exact key
//! (the number is then the whole limit), and version 1's objects inside the seed's keys (old
//! scripts, presets, autosaves) are rewritten as the new form. [`migration`] rewrites a
//! version-1 document the same way when it is saved.

use super::fields::{Key, SCHEMA_VERSION};
use super::schema::{SwingExtentsDeg, TwistRangeDeg};
use super::write::{self, leaf, SWING_EXTENT_KEYS};
use super::{Document, Edit, EditTarget};
use serde_json::{Map, Value};

/// One key-level change: a value to set, or None to remove the key.
pub type KeyChange = (String, Option<Value>);

/// The four extents of an object, when it is exactly the valid four-extent form.
fn extents_of(v: &Value) -> Option<SwingExtentsDeg> {
    let obj = v.as_object()?;
    if obj.len() != 4 {
        return None;
    }
    let mut out = [0.0; 4];
    for (o, k) in out.iter_mut().zip(SWING_EXTENT_KEYS) {
        *o = obj.get(k)?.as_f64().filter(|x| x.is_finite())?;
    }
    Some(SwingExtentsDeg::from_array(out))
}

/// `[min, max]` when it is exactly two finite numbers.
fn range_of(v: &Value) -> Option<TwistRangeDeg> {
    match v.as_array()?.as_slice() {
        [a, b] => Some(TwistRangeDeg {
            min_deg: a.as_f64().filter(|x| x.is_finite())?,
            max_deg: b.as_f64().filter(|x| x.is_finite())?,
        }),
        _ => None,
    }
}

fn changes(entries: Vec<(Key, Option<Value>)>) -> Vec<KeyChange> {
    entries
        .into_iter()
        .map(|(k, v)| (k.path().to_string(), v))
        .collect()
}

/// The key-level changes a `Set` of `key` to `value` makes. A value that is not a valid limit
/// is written as given (the reader then reports it, and `edit` refuses it).
pub fn expand_set(key: &str, value: &Value) -> Vec<KeyChange> {
    let as_given = || vec![(key.to_string(), Some(value.clone()))];
    let Some(k) = Key::from_path(key) else {
        return as_given();
    };
    match k {
        Key::SwingLimit if value.is_number() => {
            vec![as_given().remove(0), (Key::SwingExtents.path().into(), None)]
        }
        Key::SwingLimit | Key::SwingExtents => match extents_of(value) {
            Some(s) => changes(write::swing_entries(&s)),
            None => as_given(),
        },
        Key::TwistLimit if value.is_number() => {
            vec![as_given().remove(0), (Key::TwistRange.path().into(), None)]
        }
        Key::TwistLimit | Key::TwistRange => match range_of(value).filter(|t| t.min_deg <= t.max_deg) {
            Some(t) => changes(write::twist_entries(&t)),
            None => as_given(),
        },
        Key::Constraint => match value.as_object() {
            Some(obj) => vec![(key.into(), Some(Value::Object(canonical_constraint(obj))))],
            None => as_given(),
        },
        _ => as_given(),
    }
}

/// The key-level changes a `Remove` of `key` makes: the seed's limit goes with its exact key.
pub fn expand_remove(key: &str) -> Vec<KeyChange> {
    let mut out = vec![(key.to_string(), None)];
    match Key::from_path(key) {
        Some(Key::SwingLimit) => out.push((Key::SwingExtents.path().into(), None)),
        Some(Key::TwistLimit) => out.push((Key::TwistRange.path().into(), None)),
        _ => {}
    }
    out
}

/// A constraint object with its limit keys in the canonical form, other keys in place. The
/// exact key wins where both are given.
fn canonical_constraint(obj: &Map<String, Value>) -> Map<String, Value> {
    let mut out = obj.clone();
    let pick = |exact: Key, seed: Key| obj.get(leaf(exact)).or_else(|| obj.get(leaf(seed)));
    let mut entries = Vec::new();
    if let Some(s) = pick(Key::SwingExtents, Key::SwingLimit).and_then(extents_of) {
        entries.extend(write::swing_entries(&s));
    }
    let twist = pick(Key::TwistRange, Key::TwistLimit).and_then(range_of);
    if let Some(t) = twist.filter(|t| t.min_deg <= t.max_deg) {
        entries.extend(write::twist_entries(&t));
    }
    for (k, v) in entries {
        match v {
            Some(v) => {
                out.insert(leaf(k).into(), v);
            }
            None => {
                out.shift_remove(leaf(k));
            }
        }
    }
    out
}

/// Sets `key` (a path inside the section object `obj`, e.g. `swing_limit_deg` inside a
/// `constraint` object whose section prefix is `constraint`) the way an edit would: the same
/// canonical key-level changes.
pub fn overlay(obj: &mut Map<String, Value>, prefix: &str, key: &str, value: &Value) {
    for (path, v) in expand_set(&format!("{prefix}.{key}"), value) {
        let Some(k) = path.strip_prefix(prefix).and_then(|r| r.strip_prefix('.')) else {
            continue;
        };
        match v {
            Some(v) => {
                obj.insert(k.to_string(), v);
            }
            None => {
                obj.shift_remove(k);
            }
        }
    }
}

/// True when a constraint object holds version 1's form (an object or array in a seed key).
fn is_legacy(constraint: &Map<String, Value>) -> bool {
    let swing = constraint.get(leaf(Key::SwingLimit));
    let twist = constraint.get(leaf(Key::TwistLimit));
    swing.is_some_and(|v| extents_of(v).is_some()) || twist.is_some_and(|v| range_of(v).is_some())
}

/// The edits that bring a document to this build's schema before it is written, or None when
/// it needs none: version 1's limits rewritten (each re-set through [`expand_set`]), and the
/// schema version stamped on a document this build changed or migrated.
pub fn migration(doc: &Document) -> Option<Edit> {
    let mut edits = Vec::new();
    for b in &doc.bones {
        let Some(c) = doc
            .physics_json_of_node(b.node)
            .and_then(|p| p.get(leaf(Key::Constraint)))
            .and_then(Value::as_object)
        else {
            continue;
        };
        if !is_legacy(c) {
            continue;
        }
        for key in [Key::SwingLimit, Key::TwistLimit] {
            if let Some(v) = c.get(leaf(key)).filter(|v| !v.is_number()) {
                edits.push(Edit::Set {
                    target: EditTarget::Node(b.node),
                    key: key.path().into(),
                    value: v.clone(),
                });
            }
        }
    }
    let has_physics = doc.bones.iter().any(|b| b.physics.is_some());
    let stamp = (doc.is_dirty() || !edits.is_empty()) && has_physics;
    if stamp && doc.schema_version != SCHEMA_VERSION {
        edits.push(Edit::Set {
            target: EditTarget::Document,
            key: Key::SchemaVersion.path().into(),
            value: SCHEMA_VERSION.into(),
        });
    }
    (!edits.is_empty()).then_some(Edit::Group(edits))
}
