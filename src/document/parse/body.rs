//! The reader of a body's material, damping and explicit collision pairs (part of the codec's
//! reader, [`super::parse`]; the writer is [`super::write::material_entries`] and
//! [`super::write::collision_pairs`]). A key the file does not set stays None: the
//! simulation then behaves as before the key existed.

use super::Ctx;
use crate::document::fields::Key;
use crate::document::schema::{BodyMaterial, CollisionPair};
use crate::document::write::leaf;
use serde_json::{Map, Value};

/// A number key when present (None when absent or invalid; an invalid one is an error).
fn optional(obj: &Map<String, Value>, cx: &mut Ctx, key: Key) -> Option<f64> {
    obj.get(leaf(key))?;
    let before = cx.diags.len();
    let x = cx.key(obj, "", key);
    (cx.diags.len() == before && x.is_finite()).then_some(x)
}

/// `friction`, `restitution`, the dampings, `max_angular_speed`, `min_inertia_kg_m2` and `ccd`.
pub(crate) fn material(obj: &Map<String, Value>, cx: &mut Ctx) -> BodyMaterial {
    let ccd = match obj.get(leaf(Key::Ccd)) {
        None => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(v) => {
            cx.wrong_type(Key::Ccd.path(), "a boolean", v, false);
            None
        }
    };
    BodyMaterial {
        friction: optional(obj, cx, Key::Friction),
        restitution: optional(obj, cx, Key::Restitution),
        linear_damping: optional(obj, cx, Key::LinearDamping),
        angular_damping: optional(obj, cx, Key::AngularDamping),
        max_angular_speed: optional(obj, cx, Key::MaxAngularSpeed),
        min_inertia_kg_m2: optional(obj, cx, Key::MinInertia),
        ccd,
    }
}

/// `collision_pairs`: an object of bone names to booleans. A non-boolean entry is an error
/// naming it and is left out.
pub(crate) fn collision_pairs(obj: &Map<String, Value>, cx: &mut Ctx) -> Vec<CollisionPair> {
    let key = Key::CollisionPairs.path();
    let Some(v) = obj.get(leaf(Key::CollisionPairs)) else {
        return Vec::new();
    };
    let Some(m) = v.as_object() else {
        cx.wrong_type(
            key,
            "an object {bone: true or false}",
            v,
            "no explicit pairs",
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (other, c) in m {
        match c {
            Value::Bool(collide) => out.push(CollisionPair {
                other: other.clone(),
                collide: *collide,
            }),
            _ => cx.error(
                &format!("{key}.{other}"),
                format!("expected true or false, found {c}; the pair is left to groups and masks"),
            ),
        }
    }
    out
}
