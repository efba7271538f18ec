//! The codec's reader of ball-socket limits: the exact keys (`swing_extents_deg`,
//! `twist_range_deg`) preferred to the seed's numbers, version 1's objects inside the seed's
//! keys read with a note, and a warning where the seed's number is not the exact key's
//! approximation.

use super::{join, Ctx, Range};
use crate::document::fields::Key;
use crate::document::schema::*;
use crate::document::write::{self, leaf, SWING_EXTENT_KEYS};
use serde_json::{Map, Value};

/// The note on version 1's form of a limit: read, and rewritten by the next save.
fn legacy_note(cx: &mut Ctx, key: &str, exact: &str, approx: f64) {
    cx.warning(
        key,
        format!(
            "an earlier version's form (schema 1): a loader that knows only the seed reads a \
             non-number here as 0, a locked joint. Read as the exact limit; saving rewrites it \
             as the number {approx} (the seed's approximation) plus `{exact}`"
        ),
    );
}

/// Warns when the seed's number is not the approximation of the exact key beside it (another
/// tool changed one of them): the tool uses the exact key, a seed loader the number.
fn check_approx(cx: &mut Ctx, obj: &Map<String, Value>, (seed, exact): (Key, Key), approx: f64) {
    let Some(n) = obj.get(leaf(seed)).and_then(Value::as_f64) else {
        return;
    };
    if (n - approx).abs() > 1e-9 {
        cx.warning(
            seed.path(),
            format!(
                "{n} disagrees with `{}` (whose approximation for seed loaders is {approx}): \
                 this tool uses `{}`, a loader that knows only the seed uses {n}; set either \
                 one to make them agree",
                leaf(exact),
                leaf(exact)
            ),
        );
    }
}

/// The swing limit: `swing_extents_deg` when present, else the seed's `swing_limit_deg`
/// (a number; version 1's four-extent object is read with a note).
pub(super) fn parse_swing(obj: &Map<String, Value>, cx: &mut Ctx) -> SwingExtentsDeg {
    let default = SwingExtentsDeg::circular(Key::SwingLimit.default_num());
    if let Some(v) = obj.get(leaf(Key::SwingExtents)) {
        let Some(s) = parse_extents(v, Key::SwingExtents.path(), cx) else {
            return default;
        };
        check_approx(
            cx,
            obj,
            (Key::SwingLimit, Key::SwingExtents),
            write::swing_approx_deg(&s),
        );
        return s;
    }
    let Some(value) = obj.get(leaf(Key::SwingLimit)) else {
        return default;
    };
    let key = Key::SwingLimit.path();
    if value.is_object() {
        let s = parse_extents(value, key, cx);
        if let Some(s) = &s {
            legacy_note(cx, key, leaf(Key::SwingExtents), write::swing_approx_deg(s));
        }
        return s.unwrap_or(default);
    }
    if !value.is_number() {
        cx.wrong_type(key, "a number", value, default.pos_y);
        return default;
    }
    SwingExtentsDeg::circular(cx.key(obj, "constraint", Key::SwingLimit))
}

/// The four-extent object `{pos_y, neg_y, pos_z, neg_z}` (each 0..175), or None (with an error).
fn parse_extents(value: &Value, key: &str, cx: &mut Ctx) -> Option<SwingExtentsDeg> {
    let Some(obj) = value.as_object() else {
        cx.wrong_type(
            key,
            "an object {pos_y, neg_y, pos_z, neg_z}",
            value,
            "no limit",
        );
        return None;
    };
    cx.unknown_keys(obj, key, &SWING_EXTENT_KEYS);
    let mut out = [0.0; 4];
    for (o, name) in out.iter_mut().zip(SWING_EXTENT_KEYS) {
        if !obj.contains_key(name) {
            cx.error(
                &join(key, name),
                "missing; the four-extent form needs pos_y, neg_y, pos_z and neg_z; using the default 180 (no limit)",
            );
            return None;
        }
        let range = Range::Within(0.0, MAX_SWING_EXTENT_DEG);
        let before = cx.diags.len();
        *o = cx.number(obj, key, name, Key::SwingLimit.default_num(), range);
        if cx.diags.len() > before {
            // One bad extent makes the whole limit the default (no limit), as the message says.
            return None;
        }
    }
    Some(SwingExtentsDeg::from_array(out))
}

/// The twist range: `twist_range_deg` when present, else the seed's `twist_limit_deg`
/// (± a number; version 1's `[min, max]` is read with a note).
pub(super) fn parse_twist(obj: &Map<String, Value>, cx: &mut Ctx) -> TwistRangeDeg {
    let default = TwistRangeDeg::symmetric(Key::TwistLimit.default_num());
    if let Some(v) = obj.get(leaf(Key::TwistRange)) {
        let Some(t) = parse_range(v, Key::TwistRange.path(), cx) else {
            return default;
        };
        check_approx(
            cx,
            obj,
            (Key::TwistLimit, Key::TwistRange),
            write::twist_approx_deg(&t),
        );
        return t;
    }
    let Some(value) = obj.get(leaf(Key::TwistLimit)) else {
        return default;
    };
    let key = Key::TwistLimit.path();
    if value.is_array() {
        let t = parse_range(value, key, cx);
        if let Some(t) = &t {
            legacy_note(cx, key, leaf(Key::TwistRange), write::twist_approx_deg(t));
        }
        return t.unwrap_or(default);
    }
    if !value.is_number() {
        cx.wrong_type(key, "a number", value, default.max_deg);
        return default;
    }
    TwistRangeDeg::symmetric(cx.key(obj, "constraint", Key::TwistLimit))
}

/// `[min, max]`, each -180..180, min <= max; or None (with an error).
fn parse_range(value: &Value, key: &str, cx: &mut Ctx) -> Option<TwistRangeDeg> {
    let (prefix, name) = key.rsplit_once('.').unwrap_or(("", key));
    let wrap = serde_json::Map::from_iter([(name.to_string(), value.clone())]);
    let [lo, hi] = cx.vector::<2>(&wrap, prefix, name)?;
    if !(-180.0..=180.0).contains(&lo) || !(-180.0..=180.0).contains(&hi) {
        cx.error(
            key,
            format!(
                "[{lo}, {hi}] is out of range: both must lie within -180..180; using the default"
            ),
        );
        return None;
    }
    if lo > hi {
        cx.error(
            key,
            format!("min {lo} is greater than max {hi}; using the default -180..180"),
        );
        return None;
    }
    Some(TwistRangeDeg {
        min_deg: lo,
        max_deg: hi,
    })
}
