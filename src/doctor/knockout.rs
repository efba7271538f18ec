//! A knock-out line so low the character's own standing crosses it: `balance.knockout_dv`
//! below [`knockout_floor_m_s`] knocks the character out with no push (set to 0.0001 m/s, the
//! bundled mannequin was knocked out 0.01 s into the run and lay down).

use super::checks::finding;
use super::model::Model;
use super::{Check, Finding, Severity};
use crate::document::fields::{readable, Key};
use crate::document::Document;
use crate::sim::knockout_floor_m_s;

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
