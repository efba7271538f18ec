//! A character far outside the heights its kind has in metres (glTF's unit): a file in
//! centimetres read as metres is a giant 100 times too tall, simulated at that size (it falls
//! as slowly as a giant would, its masses those of a giant). Generate says so once; the
//! doctor keeps saying it, in `validate` and the editor, with the scale that fixes it (a
//! 186-unit humanoid's generated file validated with no warning).

use super::checks::finding;
use super::model::Model;
use super::{Check, Finding, Severity};
use crate::anatomy::Anatomy;
use crate::document::fields::{fixed_or_readable, readable, Key};

pub(super) fn check(anatomy: &Anatomy, model: &Model, out: &mut Vec<Finding>) {
    let kind = anatomy.kind().coarse();
    let h = model.height;
    let plausible = kind.plausible_height_m();
    if plausible.contains(&h) || !h.is_finite() || h <= 0.0 {
        return;
    }
    let Some(root) = model
        .bodies
        .iter()
        .max_by(|a, b| a.mass_kg.total_cmp(&b.mass_kg))
    else {
        return;
    };
    let tall = h > *plausible.end();
    let scale = kind.unit_fix(h);
    let unit = crate::anatomy::CharacterKind::unit_named(scale);
    let pace = match tall {
        true => "a giant's slow fall",
        false => "a toy's quick fall",
    };
    out.push(finding(
        Check::ImplausibleSize,
        Severity::Warning,
        vec![root.id],
        Key::Collider,
        format!(
            "the ragdoll is {} units tall: implausible in metres (glTF's unit) for a {} ({} to {} m); it is simulated at that size ({pace}, a mass to match); fix: if the file is in {unit}, scale its root node by {} and generate again",
            fixed_or_readable(h, 4),
            anatomy.kind().name(),
            plausible.start(),
            plausible.end(),
            readable(scale)
        ),
    ));
}
