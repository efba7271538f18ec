//! Labelled edit rows shared by the inspector and balance panels. Each row turns a widget change
//! into one document edit; a drag merges into one undo step.

use super::state::EditorState;
use crate::document::EditTarget;
use serde_json::{json, Value};

/// A row's label, with the schema key's help text (from the field table) as its tooltip.
fn labelled(ui: &mut egui::Ui, label: &str, key: &str) -> egui::Response {
    let r = ui.label(label);
    match crate::document::fields::help(key) {
        "" => r,
        help => r.on_hover_text(help),
    }
}

/// A numeric field with a unit.
pub struct Num<'a> {
    pub label: &'a str,
    pub value: f64,
    pub key: &'a str,
    pub unit: &'a str,
    pub range: std::ops::RangeInclusive<f64>,
    pub speed: f64,
    /// Show a slider instead of a drag value.
    pub slider: bool,
}

/// Shows a label + widget row in a two-column grid; applies an edit on change.
pub fn num(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, n: Num) {
    let (old, key) = (n.value, n.key);
    let mixed = st.is_mixed(key);
    if let Some((v, merge)) = num_row(ui, n, mixed) {
        if v != old {
            st.edit(target, key, json!(v), merge);
        }
    }
}

/// A number row that reports its change instead of editing: the new value and, while it is
/// dragged, the widget id that merges the drag into one undo step. `mixed` (the selected
/// bones differ) shows "—" with a tooltip; a change then sets every selected bone.
pub fn num_row(ui: &mut egui::Ui, n: Num, mixed: bool) -> Option<(f64, Option<egui::Id>)> {
    let label = labelled(ui, n.label, n.key);
    let mut v = n.value;
    // Drag in proportion to the value, so a character tens of units tall drags as one metre does.
    let speed = n.speed.max(v.abs() * 0.005);
    let (range, unit) = (n.range.clone(), format!(" {}", n.unit));
    // The value box accepts what the schema allows (a 60-unit character's sizes and gains are
    // far past any slider's span); the slider, if any, spans the given range.
    // (Only where the schema's range holds the row's: the twist rows edit `[min, max]`, whose
    // ends go below the number form's 0.)
    let allowed = crate::document::fields::find(n.key)
        .and_then(|f| f.num)
        .filter(|s| s.min <= *range.start() && s.max >= *range.end())
        .map_or(range.clone(), |s| s.min..=s.max);
    let mut changed = None;
    ui.horizontal(|ui| {
        // The value box carries the accessible label; the slider is an extra handle on it.
        let dv = egui::DragValue::new(&mut v)
            .range(allowed)
            .speed(speed)
            .suffix(unit)
            .max_decimals(4);
        let r = add_drag(ui, dv, mixed, label.id);
        if r.changed() {
            changed = Some(r.dragged().then_some(r.id));
        }
        if n.slider {
            let s = ui.add(egui::Slider::new(&mut v, range).show_value(false));
            if s.changed() {
                changed = Some(s.dragged().then_some(s.id));
            }
        }
    });
    ui.end_row();
    changed.map(|m| (v, m))
}

/// What a mixed value shows, and its tooltip.
pub const MIXED: &str = "—";
pub const MIXED_HELP: &str = "Mixed: the selected bones differ here; a change sets all of them";

/// A vector of three numbers (axis, extents, offset) under one label.
pub fn vec3(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    target: EditTarget,
    (label, key, unit, speed): (&str, &str, &str, f64),
    value: [f64; 3],
) {
    let mixed = st.is_mixed(key);
    if let Some((v, merge)) = vec3_row(ui, (label, key, unit, speed), value, mixed) {
        st.edit(target, key, json!(v), merge);
    }
}

/// A length row shown and edited in metres: `value` is in the bone's own units (the file's
/// numbers), `metres_per_unit` its world scale; each edited bone gets the metres over its own
/// scale, so a bone under a scaled node shows what the simulation builds.
pub fn length(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    target: EditTarget,
    n: Num,
    metres_per_unit: f64,
) {
    let (key, shown) = (n.key, n.value * metres_per_unit);
    let mixed = st.is_mixed(key);
    if let Some((v, merge)) = num_row(ui, Num { value: shown, ..n }, mixed) {
        if v != shown {
            st.edit_lengths(target, key, json!(v), merge);
        }
    }
}

/// [`length`] for a vector (half extents, offset).
pub fn length3(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    target: EditTarget,
    (label, key, speed): (&str, &str, f64),
    value: [f64; 3],
    metres_per_unit: f64,
) {
    let shown = value.map(|x| x * metres_per_unit);
    let mixed = st.is_mixed(key);
    if let Some((v, merge)) = vec3_row(ui, (label, key, " m", speed), shown, mixed) {
        st.edit_lengths(target, key, json!(v), merge);
    }
}

/// Three drag values under one label; the new vector (when changed) and the drag's merge id.
fn vec3_row(
    ui: &mut egui::Ui,
    (label, key, unit, speed): (&str, &str, &str, f64),
    value: [f64; 3],
    mixed: bool,
) -> Option<([f64; 3], Option<egui::Id>)> {
    let l = labelled(ui, label, key);
    let mut v = value;
    let mut merge = None;
    let mut changed = false;
    // Drag in proportion to the value, as `num_row` does.
    let speed = speed.max(value.iter().fold(0.0_f64, |m, x| m.max(x.abs())) * 0.005);
    ui.horizontal(|ui| {
        for (i, axis) in ["x", "y", "z"].iter().enumerate() {
            let dv = egui::DragValue::new(&mut v[i])
                .speed(speed)
                .prefix(format!("{axis} "))
                .suffix(unit)
                .max_decimals(4);
            let r = add_drag(ui, dv, mixed, l.id);
            if r.changed() {
                changed = true;
                merge = r.dragged().then_some(r.id);
            }
        }
    });
    ui.end_row();
    (changed && v != value).then_some((v, merge))
}

/// One non-negative gain row: label, current value, key, unit, drag speed.
pub type GainRow<'a> = (&'a str, f64, &'a str, &'a str, f64);

/// Rows of non-negative gains (drive and balance panels), each a `num` without a slider.
pub fn gains(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, rows: &[GainRow<'_>]) {
    for &(label, value, key, unit, speed) in rows {
        // The schema's range where it is narrower (a share, 0 to 1), else any gain.
        let range = crate::document::fields::find(key)
            .and_then(|f| f.num)
            .map_or(0.0..=1.0e6, |s| s.min.max(0.0)..=s.max.min(1.0e6));
        let n = Num {
            label,
            value,
            key,
            unit,
            range,
            speed,
            slider: false,
        };
        num(ui, st, target, n);
    }
}

/// A collapsible section holding a two-column grid, open by default.
pub fn section(ui: &mut egui::Ui, title: &str, add: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(title)
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new(("grid", title))
                .num_columns(2)
                .striped(true)
                .show(ui, add);
        });
}

/// A choice among fixed strings.
pub fn choice(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    target: EditTarget,
    label: &str,
    key: &str,
    current: &str,
    options: &[String],
) {
    let l = labelled(ui, label, key);
    let mut picked = None;
    let shown = if st.is_mixed(key) { MIXED } else { current };
    egui::ComboBox::from_id_salt(key)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for o in options {
                if ui.selectable_label(o == current, o).clicked() && o != current {
                    picked = Some(o.clone());
                }
            }
        })
        .response
        .labelled_by(l.id);
    ui.end_row();
    if let Some(p) = picked {
        st.edit(target, key, Value::String(p), None);
    }
}

/// A free text field, committed when focus leaves it or Enter is pressed.
pub fn text(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    target: EditTarget,
    label: &str,
    key: &str,
    current: &str,
) {
    let l = labelled(ui, label, key);
    let id = ui.scope_id().with(key);
    // A mixed value starts empty with "—" as its hint; leaving it empty changes nothing.
    let mixed = st.is_mixed(key);
    let shown = if mixed { "" } else { current };
    let mut buf = ui
        .data_mut(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| shown.to_string());
    let edit = egui::TextEdit::singleline(&mut buf)
        .hint_text(if mixed { MIXED } else { "" })
        .desired_width(ui.available_width().max(140.0));
    let resp = ui.add(edit).labelled_by(l.id);
    let resp = if mixed {
        resp.on_hover_text(MIXED_HELP)
    } else {
        resp
    };
    ui.end_row();
    if resp.lost_focus() {
        ui.data_mut(|d| d.remove::<String>(id));
        if buf != shown {
            st.edit(target, key, Value::String(buf), None);
        }
    } else if resp.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buf));
    }
}

/// The marker of a bone with diagnostics (outliner) and of a warning (diagnostics panel). It
/// must be a glyph of the font the editor's proportional text uses (egui's bundled Ubuntu
/// Light, which has no emoji and no warning sign), or it shows as an empty box.
pub const DIAGNOSTIC_MARKER: &str = "∆";
/// The marker of an error line in the diagnostics panel (same rule).
pub const ERROR_MARKER: &str = "◊";

/// Adds the value box `dv`, labelled by `label`; where the selected bones' values differ
/// (`mixed`) it reads [`MIXED`] and says why on hover.
fn add_drag(
    ui: &mut egui::Ui,
    dv: egui::DragValue<'_>,
    mixed: bool,
    label: egui::Id,
) -> egui::Response {
    let dv = match mixed {
        true => dv.custom_formatter(|_, _| MIXED.to_string()),
        false => dv,
    };
    let r = ui.add(dv).labelled_by(label);
    match mixed {
        true => r.on_hover_text(MIXED_HELP),
        false => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The markers are glyphs of the bundled fonts, in the text style they are drawn in.
    #[test]
    fn markers_are_glyphs_of_the_bundled_font() {
        let ctx = egui::Context::default();
        // One frame loads the fonts; its texture upload is not needed here.
        ctx.run_ui(egui::RawInput::default(), |_| {})
            .textures_delta
            .clear();
        for marker in [DIAGNOSTIC_MARKER, ERROR_MARKER] {
            for style in [egui::TextStyle::Body, egui::TextStyle::Small] {
                let font = style.resolve(&ctx.global_style());
                assert!(
                    ctx.fonts_mut(|f| f.has_glyphs(&font, marker)),
                    "{marker} is missing from {font:?}"
                );
            }
        }
    }
}
