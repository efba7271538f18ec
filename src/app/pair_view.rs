//! The pair view: which bodies collide and why (jointed, groups, stated in `collision_pairs`,
//! overlapping at rest), with a toggle per pair that writes `collision_pairs` (one undo step
//! each) and "Disable pairs overlapping at rest" (one undo step). In the viewport, the
//! selected body's pairs colour the other shells blue (collides) or grey (does not); the
//! doctor's findings colour their bodies red or orange and ring their joints.

use super::state::EditorState;
use crate::doctor::pair_table::{disable_overlapping, toggle_edits, PairRow, PairTable};
use crate::document::BoneId;
use crate::render::colliders::PlacedCollider;
use crate::render::gizmo::Segment;
use crate::render::tint::{flag_color, joint_mark, ShellTint};
use crate::render::Pose;
use std::collections::HashMap;
use std::sync::Arc;

/// The pair table for one document revision, and the view's toggles.
#[derive(Debug)]
pub struct PairView {
    doc_gen: Option<u64>,
    pub table: Arc<PairTable>,
    /// Colour the viewport's shells by their pairs with the selected body.
    pub colour_viewport: bool,
}

impl Default for PairView {
    fn default() -> Self {
        Self {
            doc_gen: None,
            table: Arc::default(),
            colour_viewport: true,
        }
    }
}

impl EditorState {
    /// The pair table of the current document (recomputed after an edit).
    pub fn pair_table(&mut self) -> Arc<PairTable> {
        if self.pairs.doc_gen != Some(self.doc_gen()) {
            self.pairs.table = Arc::new(PairTable::new(&self.doc));
            self.pairs.doc_gen = Some(self.doc_gen());
        }
        self.pairs.table.clone()
    }

    /// A pair's toggle: the two collide or not, written to `collision_pairs` (one undo step).
    pub fn set_pair(&mut self, row: &PairRow, collide: bool) {
        let edits = toggle_edits(&self.doc, row, collide);
        let (a, b) = (&self.doc.bone(row.a).name, &self.doc.bone(row.b).name);
        let done = format!(
            "{a} - {b}: {}",
            if collide { "collide" } else { "do not collide" }
        );
        self.apply_command(edits, done);
    }

    /// "Disable pairs overlapping at rest": one undo step; the pairs are listed under
    /// Diagnostics like Stabilize's changes.
    pub fn disable_overlapping_pairs(&mut self) {
        let table = self.pair_table();
        let (edits, report) = disable_overlapping(&self.doc, &table);
        if edits.is_empty() {
            self.status = "no colliding pair overlaps at rest".into();
            return;
        }
        let n = report.len();
        self.apply_command(
            edits,
            format!("disabled {n} pair(s) overlapping at rest, listed under Diagnostics"),
        );
        self.doctor.report = report;
    }
}

/// The rows the table shows: the selected body's pairs, or with nothing selected the pairs
/// worth a look (jointed, stated or overlapping at rest).
fn shown_rows(table: &PairTable, pick: Option<BoneId>) -> Vec<&PairRow> {
    table
        .rows
        .iter()
        .filter(|r| match pick {
            Some(id) => r.involves(id),
            None => r.jointed || r.stated.is_some() || r.overlap.is_some(),
        })
        .collect()
}

/// The panel.
pub fn ui(ui: &mut egui::Ui, st: &mut EditorState) {
    let table = st.pair_table();
    ui.checkbox(
        &mut st.pairs.colour_viewport,
        "Colour the viewport by the selected body's pairs",
    )
    .on_hover_text("Blue: collides with the selected body; grey: does not");
    let overlapping = table.overlapping_colliding().count();
    let label = format!("{} ({overlapping})", DISABLE_OVERLAPPING);
    let r = ui.add_enabled(overlapping > 0, egui::Button::new(label));
    if r.clicked() {
        st.disable_overlapping_pairs();
    }
    let pick = st.selection;
    let rows = shown_rows(&table, pick);
    match pick {
        Some(id) => ui.weak(format!(
            "Pairs of {} (checked: collides)",
            st.doc.bone(id).name
        )),
        None => ui.weak("Jointed, stated and overlapping pairs (checked: collides)"),
    };
    let mut toggled = None;
    egui::ScrollArea::vertical()
        .id_salt("pairs")
        .max_height(220.0)
        .show(ui, |ui| {
            egui::Grid::new("pair grid").striped(true).show(ui, |ui| {
                for row in rows {
                    // The selected body first.
                    let (a, b) = match pick {
                        Some(p) => (p, row.other(p)),
                        None => (row.a, row.b),
                    };
                    let (a, b) = (&st.doc.bone(a).name, &st.doc.bone(b).name);
                    let mut on = row.collides();
                    if ui.checkbox(&mut on, format!("{a} - {b}")).changed() {
                        toggled = Some((row.clone(), on));
                    }
                    ui.label(row.why());
                    ui.end_row();
                }
            });
        });
    if let Some((row, on)) = toggled {
        st.set_pair(&row, on);
    }
}

/// The label of the command (and of the panel's button).
pub const DISABLE_OVERLAPPING: &str = "Disable pairs overlapping at rest";

/// Each shell's colour (in the order of `colliders`): the selection, the doctor's findings,
/// and in the pair view the selected body's pairs (see [`ShellTint::of`]).
pub fn shell_colors(st: &mut EditorState, colliders: &[PlacedCollider]) -> Vec<[u8; 4]> {
    st.refresh_doctor();
    let selected = st.selected_bones();
    let pick = st.selection.filter(|_| st.pairs.colour_viewport);
    // The picked body's pairs: other bone -> collides.
    let pairs: HashMap<BoneId, bool> = match pick {
        Some(p) => st
            .pair_table()
            .rows
            .iter()
            .filter(|r| r.involves(p))
            .map(|r| (r.other(p), r.collides()))
            .collect(),
        None => HashMap::new(),
    };
    colliders
        .iter()
        .map(|c| {
            let collides = pairs.get(&c.bone).copied();
            let flag = st.doctor.bodies.get(&c.bone).copied();
            ShellTint::of(selected.contains(&c.bone), flag, collides).color()
        })
        .collect()
}

/// Rings around the joints the doctor flags (at the child bone's origin under `pose`),
/// `size` the character's size.
pub fn joint_marks(st: &mut EditorState, pose: &Pose, size: f32, out: &mut Vec<Segment>) {
    st.refresh_doctor();
    for (&id, &flag) in &st.doctor.joints {
        if let Some(m) = pose.get(id) {
            let centre = m.w_axis.truncate().as_vec3();
            joint_mark(centre, 0.03 * size, 0.003 * size, flag_color(flag), out);
        }
    }
}
