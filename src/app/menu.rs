//! The menu bar, made from the command table ([`super::commands`]).

use super::commands::{menu_item, Command, Context};

pub fn bar(ui: &mut egui::Ui, cx: &mut Context) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            menu_item(ui, Command::Open, cx);
            menu_item(ui, Command::OpenPath, cx);
            ui.menu_button("Open recent", |ui| {
                if cx.st.recent.is_empty() {
                    ui.weak("(none)");
                }
                for p in cx.st.recent.clone() {
                    if ui.button(p.display().to_string()).clicked() {
                        cx.files.request_open(p, cx.st);
                    }
                }
            });
            ui.separator();
            for c in [Command::Save, Command::SaveAs, Command::ExportGlb] {
                menu_item(ui, c, cx);
            }
            ui.separator();
            menu_item(ui, Command::Quit, cx);
        });
        ui.menu_button("Edit", |ui| {
            menu_item(ui, Command::Undo, cx);
            menu_item(ui, Command::Redo, cx);
            ui.separator();
            menu_item(ui, Command::CopyJoint, cx);
            menu_item(ui, Command::PasteJoint, cx);
            ui.separator();
            menu_item(ui, Command::GenerateRagdoll, cx);
            menu_item(ui, Command::AutoTune, cx);
            menu_item(ui, Command::Stabilize, cx);
            menu_item(ui, Command::DisableOverlappingPairs, cx);
        });
        ui.menu_button("Symmetry", |ui| symmetry_menu(ui, cx));
        ui.menu_button("Presets", |ui| super::presets_menu::ui(ui, cx.st));
        ui.menu_button("Timeline", |ui| {
            for c in [
                Command::FrameBack,
                Command::FrameForward,
                Command::Resimulate,
                Command::BakeClip,
            ] {
                menu_item(ui, c, cx);
            }
        });
    });
}

/// Symmetric editing and the mirror commands (each one undo step).
fn symmetry_menu(ui: &mut egui::Ui, cx: &mut Context) {
    let has_twins = !cx.st.twin_pairs().is_empty();
    ui.add_enabled(
        has_twins,
        egui::Checkbox::new(&mut cx.st.symmetric, "Symmetric editing"),
    )
    .on_hover_text("An edit on one side also applies to the twin bone, mirrored");
    ui.separator();
    for c in [
        Command::MirrorSelection,
        Command::MirrorLeftToRight,
        Command::MirrorRightToLeft,
    ] {
        menu_item(ui, c, cx);
    }
}
