//! The inspector's "Material and damping" section: per-body friction, restitution, damping,
//! the angular speed cap, the inertia floor (Stabilize's raised parent inertia) and CCD. A key the file does not set shows its default.

use super::state::EditorState;
use super::widgets::{self, Num};
use crate::document::fields::Key;
use crate::document::{BodyMaterial, BonePhysics, Edit, EditTarget};

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, p: &BonePhysics) {
    let m = p.material;
    for n in number_fields(&m) {
        widgets::num(ui, st, target, n);
    }
    ccd_checkbox(ui, st, target, &m);
}

/// Friction, restitution, damping, the angular speed cap and the inertia floor, each its
/// default when unset (the inertia floor's: 0, the simulation's own floor alone).
fn number_fields(m: &BodyMaterial) -> [Num<'static>; 6] {
    let defaults = crate::sim::SimSettings::default();
    let num = |label, key: Key, value, unit, range, speed| Num {
        label,
        value,
        key: key.path(),
        unit,
        range,
        speed,
        slider: false,
    };
    [
        num(
            "Friction",
            Key::Friction,
            m.friction.unwrap_or(f64::from(defaults.friction)),
            "",
            0.0..=10.0,
            0.01,
        ),
        num(
            "Restitution",
            Key::Restitution,
            m.restitution_or_default(),
            "",
            0.0..=1.0,
            0.01,
        ),
        num(
            "Linear damping",
            Key::LinearDamping,
            m.linear_damping_or_default(),
            "1/s",
            0.0..=100.0,
            0.01,
        ),
        num(
            "Angular damping",
            Key::AngularDamping,
            m.angular_damping_or_default(),
            "1/s",
            0.0..=100.0,
            0.05,
        ),
        num(
            "Max angular speed",
            Key::MaxAngularSpeed,
            m.max_angular_speed
                .unwrap_or(f64::from(defaults.max_angular_speed_rad_s)),
            "rad/s",
            0.1..=1.0e4,
            1.0,
        ),
        num(
            "Min inertia",
            Key::MinInertia,
            m.min_inertia_kg_m2.unwrap_or(0.0),
            "kg*m^2",
            0.0..=1.0e6,
            0.001,
        ),
    ]
}

/// Continuous collision detection, one undo step per toggle.
fn ccd_checkbox(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, m: &BodyMaterial) {
    let mut ccd = m.ccd.unwrap_or(false);
    let help = crate::document::fields::help(Key::Ccd.path());
    if ui.checkbox(&mut ccd, "CCD").on_hover_text(help).changed() {
        let edit = Edit::Set {
            target,
            key: Key::Ccd.path().into(),
            value: ccd.into(),
        };
        st.apply_command(
            vec![edit],
            format!("CCD {}", if ccd { "on" } else { "off" }),
        );
    }
}
