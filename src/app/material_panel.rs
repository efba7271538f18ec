//! The inspector's "Material and damping" section: per-body friction, restitution, damping,
//! the angular speed cap and CCD. A key the file does not set shows its default.

use super::state::EditorState;
use super::widgets::{self, Num};
use crate::document::fields::Key;
use crate::document::{BonePhysics, Edit, EditTarget};

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, p: &BonePhysics) {
    let m = p.material;
    let global = f64::from(crate::sim::SimSettings::default().friction);
    let rows = [
        (
            "Friction",
            Key::Friction,
            m.friction.unwrap_or(global),
            "",
            0.0..=10.0,
            0.01,
        ),
        (
            "Restitution",
            Key::Restitution,
            m.restitution_or_default(),
            "",
            0.0..=1.0,
            0.01,
        ),
        (
            "Linear damping",
            Key::LinearDamping,
            m.linear_damping_or_default(),
            "1/s",
            0.0..=100.0,
            0.01,
        ),
        (
            "Angular damping",
            Key::AngularDamping,
            m.angular_damping_or_default(),
            "1/s",
            0.0..=100.0,
            0.05,
        ),
    ];
    for (label, key, value, unit, range, speed) in rows {
        let n = Num {
            label,
            value,
            key: key.path(),
            unit,
            range,
            speed,
            slider: false,
        };
        widgets::num(ui, st, target, n);
    }
    let cap = Num {
        label: "Max angular speed",
        value: m.max_angular_speed.unwrap_or(f64::from(
            crate::sim::SimSettings::default().max_angular_speed_rad_s,
        )),
        key: Key::MaxAngularSpeed.path(),
        unit: "rad/s",
        range: 0.1..=1.0e4,
        speed: 1.0,
        slider: false,
    };
    widgets::num(ui, st, target, cap);
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
