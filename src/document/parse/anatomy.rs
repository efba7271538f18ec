//! Reads the root's `extras.physics.anatomy` (the kind and bone roles a person assigned)
//! into [`ManualAnatomy`], every problem a diagnostic naming the key; the inverse of
//! [`crate::document::write::anatomy`].

use super::{join, Ctx};
use crate::anatomy::Kind;
use crate::document::fields::{self, Key, Section};
use crate::document::manual_anatomy::{ManualAnatomy, RoleAssignment};
use crate::document::write::{leaf, top};
use crate::document::{BoneId, Diagnostic};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Reads `anatomy` from the root's `extras.physics` object (empty when absent).
pub(crate) fn parse_anatomy(root_physics: Option<&Value>, cx: &mut Ctx) -> ManualAnatomy {
    let mut out = ManualAnatomy::default();
    let container = top(Key::AnatomyKind);
    let Some(value) = root_physics.and_then(|p| p.get(container)) else {
        return out;
    };
    let Some(obj) = value.as_object() else {
        cx.wrong_type(
            container,
            "an object {kind, roles}",
            value,
            "detected anatomy",
        );
        return out;
    };
    cx.unknown_keys(obj, container, &fields::sub_keys(Section::Root, container));
    out.kind = parse_kind(obj, cx);
    out.roles = parse_roles(obj, cx);
    out
}

fn parse_kind(obj: &Map<String, Value>, cx: &mut Ctx) -> Option<Kind> {
    let key = Key::AnatomyKind.path();
    match obj.get(leaf(Key::AnatomyKind))? {
        Value::String(s) => {
            let kind = Kind::from_name(s);
            if kind.is_none() {
                cx.error(
                    key,
                    format!(
                        "unknown kind '{s}'; expected one of {}; using the detected kind",
                        Kind::ALL.map(Kind::name).join(", ")
                    ),
                );
            }
            kind
        }
        v => {
            cx.wrong_type(key, "a string (biped, quadruped, ...)", v, "detected");
            None
        }
    }
}

fn parse_roles(obj: &Map<String, Value>, cx: &mut Ctx) -> Vec<(String, RoleAssignment)> {
    let key = Key::AnatomyRoles.path();
    let Some(value) = obj.get(leaf(Key::AnatomyRoles)) else {
        return Vec::new();
    };
    let Some(map) = value.as_object() else {
        cx.wrong_type(
            key,
            "an object {bone: \"ROLE[:left|right]\"}",
            value,
            "detected roles",
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (bone, v) in map {
        let at = join(key, bone);
        match v {
            Value::String(s) => match RoleAssignment::parse(s) {
                Ok(a) => out.push((bone.clone(), a)),
                Err(why) => cx.error(&at, format!("{why}; the bone's role is detected")),
            },
            v => cx.wrong_type(&at, "a string \"ROLE[:left|right]\"", v, "detected"),
        }
    }
    out
}

/// Warns about assignments to bones the document does not have, and drops them.
pub(crate) fn check_bones(m: &mut ManualAnatomy, names: &HashMap<String, BoneId>, cx: &mut Ctx) {
    m.roles.retain(|(bone, _)| {
        let known = names.contains_key(bone);
        if !known {
            cx.warning(
                &join(Key::AnatomyRoles.path(), bone),
                format!("no bone named '{bone}': this assignment is ignored"),
            );
        }
        known
    });
}

/// Reads an `anatomy` object on its own: the inverse of [`crate::document::write::anatomy`].
pub fn read_anatomy(value: &Value) -> (ManualAnatomy, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut cx = Ctx {
        node: None,
        bone: "document",
        diags: &mut diags,
    };
    let mut root = Map::new();
    root.insert(top(Key::AnatomyKind).into(), value.clone());
    let m = parse_anatomy(Some(&Value::Object(root)), &mut cx);
    (m, diags)
}
