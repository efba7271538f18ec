//! A knock-out line so low the character's own standing crosses it: `balance.knockout_dv`
//! below what standing and settling read knocks the character out with no push (set to
//! 0.0001 m/s, the bundled mannequin was knocked out 0.01 s into the run and lay down). Measured
//! (`simulate --json`'s `peak_impact_dv_m_s`, 10 s standing, generated): the zoo's 13 read at
//! most 0.26 m/s at their own sizes (the snake settling; the spider 0.18, the rat 0.13, its
//! humanoids under 0.04), and a character's own speeds grow with the square root of its size
//! (the rat ×100 reads 1.35 units/s).

use super::checks::finding;
use super::model::Model;
use super::{Check, Finding, Severity};
use crate::document::fields::{readable, Key};
use crate::document::Document;

/// The lowest line a person's size keeps clear of its own standing (m/s), above the zoo's
/// 0.26; times √(size / a person's).
pub const KNOCKOUT_FLOOR_M_S: f64 = 0.3;

/// The lowest knock-out line (m/s) clear of the standing of a character `size` times a
/// person's ([`crate::sim::SimSettings::length_unit`]).
pub fn knockout_floor_m_s(size: f64) -> f64 {
    KNOCKOUT_FLOOR_M_S * size.max(0.0).sqrt()
}

pub(super) fn check(doc: &Document, model: &Model, out: &mut Vec<Finding>) {
    let line = doc.balance.knockout_dv;
    let floor = knockout_floor_m_s(f64::from(model.settings.unit()));
    if !(line > 0.0 && line < floor) {
        return;
    }
    // Rounded up to the hundredth, so the fix clears the floor.
    let fix = format!("{:.2}", (floor * 100.0).ceil() / 100.0);
    out.push(finding(
        Check::KnockoutTooLow,
        Severity::Warning,
        Vec::new(),
        Key::KnockoutDv,
        format!(
            "knocked out past {} m/s: a character of this size reads up to about {} m/s of sudden speed change standing and settling, so it can be knocked out with no push; fix: at least {} m/s (0: never)",
            readable(line),
            fix,
            fix
        ),
    ));
}
