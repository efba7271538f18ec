//! The outliner: the skeleton as a tree with collider and constraint types, a diagnostics
//! marker and a name filter. Clicking a bone selects it everywhere; Ctrl-click adds or
//! removes a bone, Shift-click selects the rows from the primary selection to it.

use super::state::EditorState;
use crate::document::{BoneId, Document};

/// Outliner state kept between frames.
#[derive(Default)]
pub struct Outliner {
    pub filter: String,
}

/// Short "collider / constraint" text of a bone.
fn kinds(doc: &Document, id: BoneId) -> String {
    let Some(p) = doc.bone(id).physics.as_ref() else {
        return "no physics".into();
    };
    let collider = p.collider.as_ref().map_or("-", |c| c.shape.type_name());
    let joint = p.constraint.as_ref().map_or("-", |c| c.kind.type_name());
    format!("{collider} / {joint}")
}

impl Outliner {
    pub fn ui(&mut self, ui: &mut egui::Ui, st: &mut EditorState) {
        ui.horizontal(|ui| {
            let l = ui.label("Filter");
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("bone name")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(l.id);
        });
        ui.separator();
        let doc = &st.doc;
        let mut children: Vec<Vec<BoneId>> = vec![Vec::new(); doc.bones.len()];
        let mut roots = Vec::new();
        for id in doc.bone_ids() {
            match doc.bone(id).parent {
                Some(p) => children[p.index()].push(id),
                None => roots.push(id),
            }
        }
        let filter = self.filter.trim().to_lowercase();
        let mut rows = Rows {
            selected: st.selected_bones(),
            doctor: st.doctor.bones.clone(),
            order: Vec::new(),
            clicked: None,
        };
        egui::ScrollArea::vertical()
            .id_salt("outliner")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if filter.is_empty() {
                    for r in roots {
                        tree_row(ui, doc, &children, r, 0, &mut rows);
                    }
                } else {
                    for id in doc
                        .bone_ids()
                        .filter(|&id| doc.bone(id).name.to_lowercase().contains(&filter))
                    {
                        row(ui, doc, id, 0, &mut rows);
                    }
                }
            });
        if let Some((id, m)) = rows.clicked {
            if m.shift {
                st.select_range(id, &rows.order);
            } else if m.command || m.ctrl {
                st.toggle_select(id);
            } else {
                st.select_only(Some(id));
            }
        }
    }
}

/// What the rows share while they are drawn: the selection, the rows in display order (for
/// Shift-click ranges), and the click with its modifiers.
struct Rows {
    selected: Vec<BoneId>,
    /// Bones the stability doctor has findings about.
    doctor: Vec<BoneId>,
    order: Vec<BoneId>,
    clicked: Option<(BoneId, egui::Modifiers)>,
}

fn tree_row(
    ui: &mut egui::Ui,
    doc: &Document,
    children: &[Vec<BoneId>],
    id: BoneId,
    depth: usize,
    rows: &mut Rows,
) {
    row(ui, doc, id, depth, rows);
    for &c in &children[id.index()] {
        tree_row(ui, doc, children, c, depth + 1, rows);
    }
}

fn row(ui: &mut egui::Ui, doc: &Document, id: BoneId, depth: usize, rows: &mut Rows) {
    rows.order.push(id);
    let bone = doc.bone(id);
    ui.horizontal(|ui| {
        ui.add_space(depth as f32 * 12.0);
        let resp = ui.selectable_label(rows.selected.contains(&id), &bone.name);
        if resp.clicked() {
            rows.clicked = Some((id, ui.input(|i| i.modifiers)));
        }
        if bone.has_problems || rows.doctor.contains(&id) {
            ui.colored_label(
                egui::Color32::from_rgb(240, 170, 40),
                super::widgets::DIAGNOSTIC_MARKER,
            )
            .on_hover_text("has diagnostics");
        }
        ui.weak(kinds(doc, id));
    });
}
