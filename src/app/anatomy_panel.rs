//! The Anatomy panel: the detected (or assigned) kind, each role with its bone and confidence,
//! the roles left unassigned and the bones whose name and geometry disagree. Clicking a role
//! and then a bone (in the viewport or the outliner) assigns the role to that bone: one undo
//! step, stored in the root's `extras.physics.anatomy`, so that Regenerate (and any later
//! `generate`) keeps it.

use super::state::EditorState;
use crate::anatomy::{Anatomy, Kind, Role, Side};
use crate::document::{write, BoneId, ManualAnatomy, RoleAssignment};

/// Bones named in one row (a tail's ten segments would widen the panel).
const MAX_NAMES: usize = 3;

/// A role waiting for its bone: the next bone selected gets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RolePick {
    pub role: Role,
    pub side: Option<Side>,
}

impl RolePick {
    pub fn label(&self) -> String {
        slot_label(self.role, self.side)
    }
}

/// "thigh (left)", "pelvis".
pub fn slot_label(role: Role, side: Option<Side>) -> String {
    match side {
        Some(s) => format!("{} ({})", role.name(), s.name()),
        None => role.name().to_string(),
    }
}

/// The roles a character of a kind is expected to have (shown even when unassigned).
fn expected(kind: Kind) -> Vec<(Role, Option<Side>)> {
    let sides = [Some(Side::Left), Some(Side::Right)];
    let mut out = vec![
        (Role::Pelvis, None),
        (Role::Spine, None),
        (Role::Chest, None),
    ];
    out.extend([(Role::Neck, None), (Role::Head, None)]);
    let limbs: &[Role] = match kind {
        Kind::Biped => &Role::LIMBS,
        Kind::Quadruped => &[Role::Thigh, Role::Shin, Role::Foot],
        _ => &[],
    };
    for &r in limbs {
        out.extend(sides.map(|s| (r, s)));
    }
    out
}

/// Roles not listed as slots (they are everywhere and say little on their own).
fn listed(role: Role) -> bool {
    !matches!(
        role,
        Role::Twist | Role::Helper | Role::Other | Role::Finger | Role::Toe
    )
}

/// Every slot to show: the expected ones, then any other role some bone has.
fn slots(a: &Anatomy, n: usize) -> Vec<(Role, Option<Side>)> {
    let mut out = expected(a.kind());
    for i in 0..n {
        let id = BoneId(i as u32);
        let slot = (a.role(id), a.side(id));
        if listed(slot.0) && !out.contains(&slot) {
            out.push(slot);
        }
    }
    out
}

/// Draws the panel.
pub fn ui(ui: &mut egui::Ui, st: &mut EditorState) {
    let anatomy = st.anatomy.get(&st.doc, st.bones_gen).clone();
    kind_row(ui, st, &anatomy);
    if let Some(p) = st.role_pick {
        ui.horizontal(|ui| {
            ui.colored_label(
                egui::Color32::from_rgb(120, 200, 255),
                format!(
                    "Click a bone in the viewport or the outliner for {}",
                    p.label()
                ),
            );
            if ui.button("Cancel").clicked() {
                st.role_pick = None;
            }
        });
    }
    let n = st.doc.bones.len();
    let mut unassigned = Vec::new();
    // One row under another, each wrapping in the panel: long bone names (a Maya export's
    // `Dog_Spine_01SHJnt_26`) in a grid widened the panel until the viewport was a strip.
    for (role, side) in slots(&anatomy, n) {
        let bones: Vec<BoneId> = anatomy
            .bones_with(role)
            .into_iter()
            .filter(|&b| anatomy.side(b) == side)
            .collect();
        if bones.is_empty() {
            unassigned.push(slot_label(role, side));
        }
        role_row(ui, st, &anatomy, (role, side), &bones);
    }
    if !unassigned.is_empty() {
        ui.colored_label(
            egui::Color32::from_rgb(240, 170, 40),
            format!("Unassigned: {}", unassigned.join(", ")),
        );
    }
    notes(ui, st, &anatomy);
    actions(ui, st);
}

fn kind_row(ui: &mut egui::Ui, st: &mut EditorState, a: &Anatomy) {
    let manual = st.doc.manual_anatomy.kind;
    let mut chosen = manual;
    ui.horizontal(|ui| {
        let l = ui.label("Kind");
        let text = match manual {
            Some(k) => format!("{} (set by hand)", k.name()),
            None => format!(
                "{} (detected, {:.0}%)",
                a.kind().name(),
                a.kind_confidence() * 100.0
            ),
        };
        egui::ComboBox::from_id_salt("anatomy_kind")
            .selected_text(text)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut chosen, None, "detect");
                for k in Kind::ALL {
                    ui.selectable_value(&mut chosen, Some(k), k.name());
                }
            })
            .response
            .labelled_by(l.id);
    });
    if chosen != manual {
        let mut m = st.doc.manual_anatomy.clone();
        m.kind = chosen;
        store(
            st,
            m,
            format!("kind set to {}", chosen.map_or("detect", Kind::name)),
        );
    }
}

/// One slot: a button with the role, its bones and their confidence; clicking it waits for
/// a bone. Manual assignments are marked and can be cleared.
fn role_row(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    a: &Anatomy,
    (role, side): (Role, Option<Side>),
    bones: &[BoneId],
) {
    let label = slot_label(role, side);
    let pick = RolePick { role, side };
    let waiting = st.role_pick == Some(pick);
    let text = match bones {
        [] => format!("{label}: unassigned"),
        _ => {
            let list: Vec<String> = bones
                .iter()
                .map(|&b| {
                    let f = a.bone(b);
                    let hand = if f.evidence == crate::anatomy::Evidence::Manual {
                        ", by hand"
                    } else {
                        ""
                    };
                    format!("{} {:.0}%{hand}", st.doc.bone(b).name, f.confidence * 100.0)
                })
                .collect();
            let more = list.len().saturating_sub(MAX_NAMES);
            let mut text = format!("{label}: {}", list[..list.len() - more].join(", "));
            if more > 0 {
                text += &format!(" and {more} more");
            }
            text
        }
    };
    let rich = match bones {
        [] => egui::RichText::new(text).color(egui::Color32::from_rgb(240, 170, 40)),
        _ => egui::RichText::new(text),
    };
    let resp = ui
        .add(egui::Button::selectable(waiting, rich).wrap())
        .on_hover_text(
            "Click, then click a bone in the viewport or the outliner to give it this role",
        );
    if resp.clicked() {
        start_pick(st, pick);
    }
    let manual: Vec<String> = bones
        .iter()
        .map(|&b| st.doc.bone_ref(b))
        .filter(|r| st.doc.manual_anatomy.role_of(r).is_some())
        .collect();
    if !manual.is_empty() && ui.small_button(format!("Detect {label} again")).clicked() {
        let mut m = st.doc.manual_anatomy.clone();
        for r in &manual {
            m.unassign(r);
        }
        store(st, m, format!("{label} left to detection"));
    }
}

/// Waits for a bone: the selection is cleared so that any click selects (and assigns).
fn start_pick(st: &mut EditorState, pick: RolePick) {
    st.role_pick = Some(pick);
    st.select_only(None);
    st.status = format!(
        "click a bone in the viewport or the outliner for {}",
        pick.label()
    );
}

/// Assigns a waiting role to the bone just selected (called once a frame, after the panels).
pub fn resolve_pick(st: &mut EditorState) {
    let (Some(pick), Some(id)) = (st.role_pick, st.selection) else {
        return;
    };
    st.role_pick = None;
    let bone = st.doc.bone_ref(id);
    let mut m = st.doc.manual_anatomy.clone();
    m.assign(
        &bone,
        RoleAssignment {
            role: pick.role,
            side: pick.side,
        },
    );
    store(st, m, format!("{} is now the {}", bone, pick.label()));
}

/// Stores a manual anatomy as one undo step.
fn store(st: &mut EditorState, m: ManualAnatomy, what: String) {
    let edit = write::anatomy_edit(&m);
    let done = format!("{what} (Ctrl+Z undoes; Regenerate rebuilds the ragdoll with it)");
    if let Err(e) = st.execute(edit, None, done) {
        st.status = format!("the anatomy could not be stored: {e}");
    }
}

/// Bones whose name and geometry disagree; clicking one selects it.
fn notes(ui: &mut egui::Ui, st: &mut EditorState, a: &Anatomy) {
    let with_bone: Vec<_> = a.notes().iter().filter(|n| n.bone.is_some()).collect();
    if with_bone.is_empty() {
        return;
    }
    ui.separator();
    ui.strong("Name and geometry disagree");
    for n in with_bone {
        let resp = ui.add(egui::Label::new(&n.text).wrap().sense(egui::Sense::click()));
        if resp.clicked() {
            st.select_only(n.bone);
        }
    }
}

fn actions(ui: &mut egui::Ui, st: &mut EditorState) {
    ui.horizontal(|ui| {
        if ui
            .button("Regenerate")
            .on_hover_text("Generate the ragdoll again; roles and kind set by hand are kept")
            .clicked()
        {
            st.wants_generate = true;
        }
        let any = !st.doc.manual_anatomy.is_empty();
        if ui
            .add_enabled(any, egui::Button::new("Clear manual roles"))
            .clicked()
        {
            store(st, ManualAnatomy::default(), "manual roles cleared".into());
        }
    });
}
