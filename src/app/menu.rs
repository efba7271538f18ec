//! The menu bar and keyboard shortcuts.

use super::files::{Files, PathAction};
use super::generate_dialog::GenerateDialog;
use super::state::EditorState;

/// Ctrl+S, Ctrl+Z, Ctrl+Shift+Z (also Ctrl+Y).
pub fn shortcuts(ctx: &egui::Context, st: &mut EditorState) {
    use egui::{Key, KeyboardShortcut, Modifiers};
    let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
    let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
    let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
    let (r, u, ry, s) = ctx.input_mut(|i| {
        let r = i.consume_shortcut(&redo);
        (
            r,
            i.consume_shortcut(&undo),
            i.consume_shortcut(&redo_y),
            i.consume_shortcut(&save),
        )
    });
    if r || ry {
        st.redo();
    } else if u {
        st.undo();
    }
    if s {
        st.save();
    }
}

pub fn bar(ui: &mut egui::Ui, st: &mut EditorState, files: &mut Files, gen: &mut GenerateDialog) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open…").clicked() {
                files.ask(PathAction::Open, st);
            }
            if ui.button("Open path…").clicked() {
                files.typed = Some((PathAction::Open, String::new()));
            }
            ui.menu_button("Open recent", |ui| {
                if st.recent.is_empty() {
                    ui.weak("(none)");
                }
                for p in st.recent.clone() {
                    if ui.button(p.display().to_string()).clicked() {
                        files.request_open(p, st);
                    }
                }
            });
            ui.separator();
            if ui
                .add(egui::Button::new("Save").shortcut_text("Ctrl+S"))
                .clicked()
            {
                st.save();
            }
            if ui.button("Save As…").clicked() {
                files.ask(PathAction::SaveAs, st);
            }
            if ui.button("Export GLB…").clicked() {
                files.ask(PathAction::ExportGlb, st);
            }
            ui.separator();
            if ui.button("Quit").clicked() {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        });
        ui.menu_button("Edit", |ui| {
            if ui
                .add_enabled(
                    st.history.can_undo(),
                    egui::Button::new("Undo").shortcut_text("Ctrl+Z"),
                )
                .clicked()
            {
                st.undo();
            }
            if ui
                .add_enabled(
                    st.history.can_redo(),
                    egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z"),
                )
                .clicked()
            {
                st.redo();
            }
            ui.separator();
            if ui.button("Generate ragdoll…").clicked() {
                gen.open();
            }
            if ui
                .button("Stabilize")
                .on_hover_text(
                    "The stability doctor's fixes as one undo step: mass ratios clamped, \
                     overlapping pairs disabled, tiny limits widened, damping added, drives capped",
                )
                .clicked()
            {
                st.stabilize();
            }
        });
        ui.menu_button("Symmetry", |ui| symmetry_menu(ui, st));
        ui.menu_button("Presets", |ui| super::presets_menu::ui(ui, st));
    });
}

/// Symmetric editing and the mirror commands (each one undo step).
fn symmetry_menu(ui: &mut egui::Ui, st: &mut EditorState) {
    let has_twins = !st.twin_pairs().is_empty();
    ui.add_enabled(
        has_twins,
        egui::Checkbox::new(&mut st.symmetric, "Symmetric editing"),
    )
    .on_hover_text("An edit on one side also applies to the twin bone, mirrored");
    ui.separator();
    if ui
        .add_enabled(
            st.selection.is_some() && has_twins,
            egui::Button::new("Mirror to other side"),
        )
        .on_hover_text("Mirror the selected bones' collider, limits and drive onto their twins")
        .clicked()
    {
        st.mirror_selection();
    }
    if ui
        .add_enabled(has_twins, egui::Button::new("Mirror side L to R"))
        .clicked()
    {
        st.mirror_whole_side(crate::mirror::Direction::LeftToRight);
    }
    if ui
        .add_enabled(has_twins, egui::Button::new("Mirror side R to L"))
        .clicked()
    {
        st.mirror_whole_side(crate::mirror::Direction::RightToLeft);
    }
}
