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

/// The heights a fix aims for (m): a person's, and a creature's nearest power of ten.
const TYPICAL_HUMANOID_M: f64 = 1.7;
const TYPICAL_CREATURE_M: f64 = 1.0;

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
    // The power of ten that brings it nearest a typical height of its kind, within its
    // kind's heights (the Fox, 82 units: 0.01, a fox 0.82 m tall; a giant 26 units: 0.1).
    let tall = h > *plausible.end();
    let typical = match kind {
        crate::anatomy::CharacterKind::Humanoid => TYPICAL_HUMANOID_M,
        _ => TYPICAL_CREATURE_M,
    };
    let mut scale = 10f64.powf((typical / h).log10().round());
    while scale * h > *plausible.end() {
        scale /= 10.0;
    }
    while scale * h < *plausible.start() {
        scale *= 10.0;
    }
    let unit = match scale {
        s if (s - 0.01).abs() < 1e-12 => "centimetres",
        s if (s - 0.001).abs() < 1e-15 => "millimetres",
        _ => "another unit than metres",
    };
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
