//! Gains a person can read: each PD (a joint's drive, the balance controllers) also shown as a
//! natural frequency f (Hz) and a damping ratio ζ for the inertia it moves
//! ([`crate::joint::inertia`]): k = I·(2πf)², c = 2·I·ζ·(2πf). Editing either form writes only
//! the file's `stiffness`/`damping` (or the balance kp/kd) keys, through the editor's one edit
//! path, both keys as one undo step.

use super::state::EditorState;
use crate::document::fields::Key;
use crate::document::{BoneId, Edit, EditTarget};
use crate::joint::{self, Gains};
use serde_json::json;

/// Which of the two readable numbers a person changed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Change {
    Freq(f64),
    Ratio(f64),
}

impl Change {
    /// New gains for inertia `i`: the changed number set, the other kept as it was.
    fn gains(self, old: Gains, i: f64) -> Gains {
        let mut n = old.natural(i);
        match self {
            Change::Freq(f) => {
                if !n.damping_ratio.is_finite() {
                    // From k = 0 there was no ratio: keep the damping as it is.
                    let w = std::f64::consts::TAU * f;
                    n.damping_ratio = if w > 0.0 {
                        old.damping / (2.0 * i * w)
                    } else {
                        0.0
                    };
                }
                n.freq_hz = f;
            }
            Change::Ratio(z) => n.damping_ratio = z,
        }
        n.gains(i)
    }
}

/// One number row with a tooltip; returns its new value and the drag's merge id.
fn row(
    ui: &mut egui::Ui,
    (label, unit, help): (&str, &str, &str),
    value: f64,
    enabled: bool,
) -> Option<(f64, Option<egui::Id>)> {
    let l = ui.label(label).on_hover_text(help);
    let mut v = if value.is_finite() { value } else { 0.0 };
    let speed = (v.abs() * 0.005).max(0.001);
    let dv = egui::DragValue::new(&mut v)
        .range(0.0..=1.0e4)
        .speed(speed)
        .suffix(unit)
        .max_decimals(4);
    let r = ui
        .add_enabled(enabled, dv)
        .labelled_by(l.id)
        .on_hover_text(help);
    ui.end_row();
    (r.changed() && v != value).then(|| (v, r.dragged().then_some(r.id)))
}

/// The f and ζ rows of one PD; the change a person made, if any.
fn rows(
    ui: &mut egui::Ui,
    (f_label, z_label): (&str, &str),
    g: Gains,
    i: f64,
) -> Option<(Change, Option<egui::Id>)> {
    let n = g.natural(i);
    let about = format!("for I = {i:.4} kg·m²");
    let f_help = format!("Natural frequency: k = I·(2πf)², {about}");
    let z_help = format!("Damping ratio (1 = critical): c = 2·I·ζ·(2πf), {about}");
    let f = row(ui, (f_label, " Hz", &f_help), n.freq_hz, true);
    let ratio_ok = n.damping_ratio.is_finite();
    let z = row(ui, (z_label, "", &z_help), n.damping_ratio, ratio_ok);
    match (f, z) {
        (Some((v, m)), _) => Some((Change::Freq(v), m)),
        (_, Some((v, m))) => Some((Change::Ratio(v), m)),
        _ => None,
    }
}

/// The drive's gains of bone `b`, and the inertia they move.
fn drive_of(st: &EditorState, b: BoneId) -> Option<(Gains, f64)> {
    let d = st.doc.bone(b).physics.as_ref()?.drive?;
    let i = joint::joint_inertia(&st.doc, b)?;
    let g = Gains {
        stiffness: d.stiffness,
        damping: d.damping,
    };
    Some((g, i))
}

/// The Drive section's f and ζ rows for the selected bone `id`. A change sets each selected
/// bone with a drive to the new number for its own inertia, keeping its other number.
pub fn drive(ui: &mut egui::Ui, st: &mut EditorState, id: BoneId) {
    let Some((g, i)) = drive_of(st, id) else {
        ui.label("Frequency");
        ui.weak("no joint in the solver: no inertia to read it by");
        ui.end_row();
        return;
    };
    let Some((change, merge)) = rows(ui, ("Frequency", "Damping ratio"), g, i) else {
        return;
    };
    let bones: Vec<BoneId> = st
        .selected_bones()
        .into_iter()
        .filter(|&b| drive_of(st, b).is_some())
        .collect();
    let mut edits = Vec::new();
    for &b in &bones {
        let Some((old, ib)) = drive_of(st, b) else {
            continue;
        };
        let target = st.doc.bone_target(b);
        edits.extend(set_pair(
            target,
            (Key::Stiffness, Key::Damping),
            change.gains(old, ib),
        ));
    }
    if let Err(e) = st.apply_linked(edits, &bones, merge) {
        st.status = format!("edit refused: {e}");
    }
}

/// The balance controllers' f and ζ rows (upright and ankle), for the whole body's inertia
/// about the ground under its centre of mass.
pub fn balance(ui: &mut egui::Ui, st: &mut EditorState) {
    let Some(i) = joint::whole_body_about_ground(&st.doc) else {
        return;
    };
    let b = st.doc.balance.clone();
    let controllers = [
        (
            ("Upright frequency", "Upright damping ratio"),
            (b.upright_kp, b.upright_kd),
            (Key::UprightKp, Key::UprightKd),
        ),
        (
            ("Ankle frequency", "Ankle damping ratio"),
            (b.ankle_kp, b.ankle_kd),
            (Key::AnkleKp, Key::AnkleKd),
        ),
    ];
    for (labels, (kp, kd), keys) in controllers {
        let g = Gains {
            stiffness: kp,
            damping: kd,
        };
        if let Some((change, merge)) = rows(ui, labels, g, i) {
            let edits = set_pair(EditTarget::Document, keys, change.gains(g, i));
            if let Err(e) = st.apply_linked(edits.to_vec(), &[], merge) {
                st.status = format!("edit refused: {e}");
            }
        }
    }
}

/// The two edits that write gains `g` to the keys (stiffness, damping).
fn set_pair(target: EditTarget, (k, c): (Key, Key), g: Gains) -> [Edit; 2] {
    [(k, g.stiffness), (c, g.damping)].map(|(key, v)| Edit::Set {
        target,
        key: key.path().into(),
        value: json!(v),
    })
}
