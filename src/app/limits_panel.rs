//! The ball-socket limit rows of the inspector: four swing extents with a "circular" toggle
//! that keeps them equal, the twist range, and the joint frame's Y axis. Each row writes the
//! whole swing or twist limit through the codec (the seed's number, plus the exact key when
//! the limit is asymmetric), so one drag is one undo step and the file keeps the simplest
//! form that says it.

use super::state::EditorState;
use super::widgets::{self, Num};
use crate::document::fields::Key;
use crate::document::{write, BoneId, EditTarget, SwingExtentsDeg, TwistRangeDeg};
use crate::joint;
use glam::DVec3;
use serde_json::json;

const SWING_KEY: Key = Key::SwingLimit;
const TWIST_KEY: Key = Key::TwistLimit;

fn deg(label: &str, value: f64, key: Key, max: f64) -> Num<'_> {
    Num {
        label,
        value,
        key: key.path(),
        unit: "deg",
        range: 0.0..=max,
        speed: 0.5,
        slider: true,
    }
}

/// The anatomical word for a world direction (glTF: +Y up, the character faces +Z, its left
/// is +X), when one axis dominates.
fn direction_word(w: DVec3) -> Option<&'static str> {
    let a = w.abs();
    let words = if a.x >= a.y && a.x >= a.z {
        (w.x, "left", "right", a.x)
    } else if a.y >= a.z {
        (w.y, "up", "down", a.y)
    } else {
        (w.z, "forward", "back", a.z)
    };
    (words.3 > 0.7).then_some(if words.0 > 0.0 { words.1 } else { words.2 })
}

/// Labels of the four extents ("+Y: forward"), from the joint frame at rest in the world.
fn extent_labels(st: &EditorState, id: BoneId) -> [String; 4] {
    let plain = ["+Y", "-Y", "+Z", "-Z"];
    let Some(def) = joint::resolve(&st.doc, id) else {
        return plain.map(String::from);
    };
    let node = st.doc.bone(id).node;
    let Some(n) = st.doc.skeleton.nodes.get(node) else {
        return plain.map(String::from);
    };
    let (_, world_from_bone, _) = n.world_from_node.to_scale_rotation_translation();
    let frame = world_from_bone * def.bone_from_joint;
    let dirs = [DVec3::Y, -DVec3::Y, DVec3::Z, -DVec3::Z];
    std::array::from_fn(|k| match direction_word(frame * dirs[k]) {
        Some(w) => format!("Swing {}: {w}", plain[k]),
        None => format!("Swing {}", plain[k]),
    })
}

/// The swing, twist and Y-axis rows of a ball socket.
pub fn ball_socket(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    (target, id): (EditTarget, BoneId),
    swing: SwingExtentsDeg,
    twist: TwistRangeDeg,
    swing_y_axis: Option<[f64; 3]>,
) {
    let circular = swing.as_circular();
    ui.label("Swing cone");
    // Four equal extents are a circle in the file; showing them as four rows is a view choice.
    let split_id = egui::Id::unique(("asymmetric_swing", id.0));
    let split = ui.data(|d| d.get_temp::<bool>(split_id)).unwrap_or(false);
    let mut keep_equal = circular.is_some() && !split;
    let toggled = ui
        .checkbox(&mut keep_equal, "Circular swing")
        .on_hover_text("Keep the four swing extents equal (a circular cone)")
        .changed();
    ui.end_row();
    if toggled {
        ui.data_mut(|d| d.insert_temp(split_id, !keep_equal));
        if keep_equal && circular.is_none() {
            st.edit(target, SWING_KEY.path(), json!(swing.max()), None);
        }
        return;
    }
    match circular {
        Some(e) if keep_equal => {
            widgets::num(ui, st, target, deg("Swing limit", e, SWING_KEY, 180.0))
        }
        _ => extents(ui, st, (target, id), swing),
    }
    twist_rows(ui, st, target, twist);
    let y = swing_y_axis.unwrap_or([0.0, 0.0, 1.0]);
    widgets::vec3(
        ui,
        st,
        target,
        ("Swing Y axis", Key::SwingYAxis.path(), "", 0.01),
        y,
    );
}

fn extents(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    (target, id): (EditTarget, BoneId),
    swing: SwingExtentsDeg,
) {
    let labels = extent_labels(st, id);
    let mixed = st.is_mixed(SWING_KEY.path()) || st.is_mixed(Key::SwingExtents.path());
    let mut values = swing.to_array();
    let mut merge = None;
    let mut changed = false;
    for k in 0..4 {
        let n = deg(
            &labels[k],
            values[k],
            SWING_KEY,
            crate::document::MAX_SWING_EXTENT_DEG,
        );
        if let Some((v, m)) = widgets::num_row(ui, n, mixed) {
            values[k] = v;
            merge = m;
            changed = true;
        }
    }
    if changed && values != swing.to_array() {
        let v = write::swing_extents(&SwingExtentsDeg::from_array(values));
        st.edit(target, Key::SwingExtents.path(), v, merge);
    }
}

fn twist_rows(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, twist: TwistRangeDeg) {
    let mixed = st.is_mixed(TWIST_KEY.path()) || st.is_mixed(Key::TwistRange.path());
    let mut range = [twist.min_deg, twist.max_deg];
    let mut merge = None;
    let mut changed = false;
    for (k, label) in ["Twist min", "Twist max"].into_iter().enumerate() {
        let n = Num {
            label,
            value: range[k],
            key: TWIST_KEY.path(),
            unit: "deg",
            range: -180.0..=180.0,
            speed: 0.5,
            slider: true,
        };
        if let Some((v, m)) = widgets::num_row(ui, n, mixed) {
            range[k] = v;
            merge = m;
            changed = true;
        }
    }
    if changed && range != [twist.min_deg, twist.max_deg] {
        // Dragging one end past the other moves both: the range stays ordered.
        let (lo, hi) = (range[0].min(range[1]), range[0].max(range[1]));
        let v = write::twist_range(&TwistRangeDeg {
            min_deg: lo,
            max_deg: hi,
        });
        st.edit(target, Key::TwistRange.path(), v, merge);
    }
}
