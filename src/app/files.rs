//! File actions: rfd dialogs with a typed-path fallback, drag and drop, and the unsaved-changes
//! prompt before opening another file or closing.

use super::state::EditorState;
use std::path::{Path, PathBuf};

/// What a chosen path is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathAction {
    Open,
    SaveAs,
    ExportGlb,
    ExportCsv,
}

/// An action waiting for the user to confirm discarding unsaved edits.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    Open(PathBuf),
    Close,
}

/// File-related UI state.
#[derive(Default)]
pub struct Files {
    /// The typed-path window, when shown.
    pub typed: Option<(PathAction, String)>,
    pub pending: Option<Pending>,
    /// Set once the user agreed to close with unsaved edits.
    pub close_confirmed: bool,
    /// CSV text waiting for a path.
    pub csv: Option<String>,
}

pub fn is_gltf(p: &Path) -> bool {
    matches!(
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("gltf" | "glb")
    )
}

impl Files {
    /// Asks rfd for a path; when no dialog can be shown (or it was cancelled) the typed-path
    /// window opens instead.
    pub fn ask(&mut self, action: PathAction, st: &mut EditorState) {
        let dir = std::fs::canonicalize(st.doc.base_dir()).unwrap_or_default();
        let dlg = rfd::FileDialog::new().set_directory(&dir);
        let picked = match action {
            PathAction::Open => dlg.add_filter("glTF", &["gltf", "glb", "vrm"]).pick_file(),
            PathAction::SaveAs => dlg.add_filter("glTF", &["gltf", "glb", "vrm"]).save_file(),
            PathAction::ExportGlb => dlg.add_filter("GLB", &["glb"]).save_file(),
            PathAction::ExportCsv => dlg.add_filter("CSV", &["csv"]).save_file(),
        };
        match picked {
            Some(p) => self.run(action, p, st),
            None => self.typed = Some((action, format!("{}/", dir.display()))),
        }
    }

    /// Performs an action on a chosen path.
    pub fn run(&mut self, action: PathAction, path: PathBuf, st: &mut EditorState) {
        match action {
            PathAction::Open => self.request_open(path, st),
            PathAction::SaveAs => st.save_as(&path),
            PathAction::ExportGlb => st.export_glb(&path.with_extension("glb")),
            PathAction::ExportCsv => {
                let text = self.csv.take().unwrap_or_default();
                st.status = match std::fs::write(&path, text) {
                    Ok(()) => format!("wrote {}", path.display()),
                    Err(e) => format!("could not write {}: {e}", path.display()),
                };
            }
        }
    }

    /// Opens at once, or after the unsaved-changes prompt.
    pub fn request_open(&mut self, path: PathBuf, st: &mut EditorState) {
        if st.doc.is_dirty() {
            self.pending = Some(Pending::Open(path));
        } else {
            st.open(&path);
        }
    }

    /// Files dropped on the window: the first .gltf/.glb is opened.
    pub fn handle_drops(&mut self, ctx: &egui::Context, st: &mut EditorState) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(p) = dropped.iter().find(|p| is_gltf(p)) {
            self.request_open(p.clone(), st);
        } else if !dropped.is_empty() {
            st.status = "only .gltf and .glb files can be opened".into();
        }
    }

    /// The typed-path window and the unsaved-changes prompt.
    pub fn windows(&mut self, ctx: &egui::Context, st: &mut EditorState) {
        self.typed_path_window(ctx, st);
        if st.recovery.is_some() {
            recovery_modal(ctx, st);
            return;
        }
        self.unsaved_modal(ctx, st);
    }

    /// The window to type a path in when no file dialog is available.
    fn typed_path_window(&mut self, ctx: &egui::Context, st: &mut EditorState) {
        let Some((action, mut text)) = self.typed.take() else {
            return;
        };
        let mut open = true;
        let mut go = false;
        egui::Window::new("Type a path")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label("No file dialog is available (or it was cancelled). Type the path:");
                let l = ui.label("Path");
                let r = ui
                    .add(egui::TextEdit::singleline(&mut text).desired_width(420.0))
                    .labelled_by(l.id);
                go = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                go |= ui.button("OK").clicked();
            });
        if go {
            self.run(action, PathBuf::from(text.trim()), st);
        } else if open {
            self.typed = Some((action, text));
        }
    }

    /// Asks what to do with unsaved edits before the pending open or close, and does it.
    fn unsaved_modal(&mut self, ctx: &egui::Context, st: &mut EditorState) {
        let Some(pending) = self.pending.clone() else {
            return;
        };
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!("{} has unsaved edits.", st.doc.path.display()));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    choice = Some(UnsavedChoice::Save);
                }
                if ui.button("Discard").clicked() {
                    choice = Some(UnsavedChoice::Discard);
                }
                if ui.button("Cancel").clicked() {
                    choice = Some(UnsavedChoice::Cancel);
                }
            });
        });
        let Some(c) = choice else { return };
        self.pending = None;
        match c {
            UnsavedChoice::Cancel => return,
            UnsavedChoice::Save => {
                st.save();
                if st.doc.is_dirty() {
                    return;
                }
            }
            UnsavedChoice::Discard => {}
        }
        match pending {
            Pending::Open(p) => st.open(&p),
            Pending::Close => {
                super::autosave::remove(&st.doc.path);
                self.close_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}

/// The answer to "Unsaved changes".
#[derive(Clone, Copy)]
enum UnsavedChoice {
    Save,
    Discard,
    Cancel,
}

/// Asks whether to recover the autosaved edits of an earlier session.
fn recovery_modal(ctx: &egui::Context, st: &mut EditorState) {
    let Some(edits) = &st.recovery else {
        return;
    };
    let n = edits.len();
    let mut choice = None;
    egui::Modal::new(egui::Id::unique("recovery")).show(ctx, |ui| {
        ui.heading("Recover unsaved edits?");
        ui.label(format!(
            "An autosave of {} holds {n} unsaved change(s) from an earlier session.",
            st.doc.path.display()
        ));
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                choice = Some(true);
            }
            if ui.button("Discard autosave").clicked() {
                choice = Some(false);
            }
        });
    });
    if let Some(c) = choice {
        st.resolve_recovery(c);
    }
}
