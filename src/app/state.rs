//! The editor's state outside any panel: the document, selection, history, files and messages.
//!
//! `EditorState` composes the plain parts below it: the multi-selection
//! ([`super::selection`]) and the fan-out and mirroring of edits ([`super::symmetry`]),
//! neither of which knows of it; every edit they make goes through [`EditorState::execute`]'s
//! one path.

use super::autosave;
use super::history::History;
use super::loader::{Loaded, Loading};
use super::selection::{self, MultiSelection};
use super::symmetry::{self, TwinCache, TwinPairs};
use crate::document::geometry::Geometry;
use crate::document::{BoneId, Document, Edit, EditError, EditTarget, UriPolicy};
use crate::mirror::Direction;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The display path of the bundled default character until it is saved somewhere.
pub const UNTITLED_NAME: &str = "untitled mannequin.glb";

/// Unsaved edits reach the autosave sidecar at most this long after they are made.
pub const AUTOSAVE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(2);

/// How many recent files are kept.
const MAX_RECENT: usize = 8;

/// The document being edited and everything every panel shares.
pub struct EditorState {
    pub doc: Document,
    /// The primary (active) selected bone; see [`super::selection`] for the others.
    pub selection: Option<BoneId>,
    /// The bones selected besides the primary (Ctrl/Shift-click).
    pub multi: MultiSelection,
    /// Symmetric editing: an edit on one side also applies to the twin (see
    /// [`super::symmetry`]). On by default when the character has twins.
    pub symmetric: bool,
    pub twin_cache: TwinCache,
    /// The name typed for a new user preset.
    pub preset_name: String,
    pub history: History,
    /// Bumped when a different document is loaded.
    pub load_gen: u64,
    /// Bumped whenever bone ids may have changed meaning: a load, or a Save As that
    /// renumbered the bones. Whatever is indexed by [`BoneId`] (pose, skin, simulation) is
    /// rebuilt then.
    pub bones_gen: u64,
    pub recent: Vec<PathBuf>,
    /// The last message for the status bar.
    pub status: String,
    pub policy: UriPolicy,
    /// Limits and gains copied from one joint, to paste onto another.
    /// A copied joint: every constraint and drive key of the field table (but the parent
    /// bone) with the value the file gave it, or None where it takes the default.
    pub joint_clipboard: Option<Vec<(String, Option<serde_json::Value>)>>,
    /// Save asks where to save first (the bundled default character is untitled: saving must
    /// never overwrite the copy that ships with the tool).
    pub wants_save_as: bool,
    /// A file being opened in the background.
    pub loading: Option<Loading>,
    /// Meshes read with the last loaded document, for the viewport to take.
    pub loaded_geometry: Option<Result<Geometry, String>>,
    /// Unsaved edits found in an autosave sidecar, offered for recovery.
    pub recovery: Option<Vec<Edit>>,
    /// The stability doctor's findings and the last Stabilize report.
    pub doctor: super::doctor_view::DoctorCache,
    /// The document's revision at the last autosave, and when it was written.
    autosaved: (u64, Instant),
    /// The anatomy, shared by the Anatomy panel, the empty state and the diagnostics.
    pub anatomy: super::anatomy_cache::AnatomyCache,
    /// A role clicked in the Anatomy panel, waiting for its bone.
    pub role_pick: Option<super::anatomy_panel::RolePick>,
    /// A panel asked to generate the ragdoll (with the Generate dialog's options).
    pub wants_generate: bool,
    /// The pair view's table and toggles.
    pub pairs: super::pair_view::PairView,
}

impl EditorState {
    pub fn new(doc: Document, policy: UriPolicy) -> Self {
        Self {
            doc,
            selection: None,
            multi: Default::default(),
            symmetric: false,
            twin_cache: Default::default(),
            preset_name: String::new(),
            history: History::default(),
            load_gen: 1,
            bones_gen: 1,
            recent: Vec::new(),
            status: String::new(),
            policy,
            joint_clipboard: None,
            wants_save_as: false,
            loading: None,
            loaded_geometry: None,
            recovery: None,
            doctor: Default::default(),
            autosaved: (1, Instant::now()),
            anatomy: Default::default(),
            role_pick: None,
            wants_generate: false,
            pairs: Default::default(),
        }
        .with_recovery_check()
    }

    fn with_recovery_check(mut self) -> Self {
        self.reset_symmetric();
        self.recovery = autosave::recovery_edits(&self.doc);
        self
    }

    /// Writes the autosave sidecar when there are unsaved edits not yet autosaved, at most
    /// every [`AUTOSAVE_INTERVAL`]. When it is too early, a frame is requested for the moment
    /// it is due: an idle window draws no frames, and the last edit must still reach the
    /// sidecar within the interval.
    pub fn autosave_tick(&mut self, ctx: &egui::Context) {
        if !self.doc.is_dirty() || self.autosaved.0 == self.doc_gen() {
            return;
        }
        let since = self.autosaved.1.elapsed();
        if since >= AUTOSAVE_INTERVAL {
            self.autosave_now();
        } else {
            ctx.request_repaint_after(AUTOSAVE_INTERVAL - since);
        }
    }

    /// Counts the document as it is now as autosaved, writing no sidecar: a headless hook's
    /// scripted edits must never be offered for recovery in a later session.
    pub fn skip_autosave(&mut self) {
        self.autosaved = (self.doc_gen(), Instant::now());
    }

    pub fn autosave_now(&mut self) {
        if let Err(e) = autosave::write(&self.doc) {
            self.status = format!("autosave failed: {e}");
        }
        self.autosaved = (self.doc_gen(), Instant::now());
    }

    /// Applies (true) or discards (false) the edits found in the sidecar.
    pub fn resolve_recovery(&mut self, recover: bool) {
        let Some(edits) = self.recovery.take() else {
            return;
        };
        if recover {
            // One group: all of the autosave or none of it, undone in one step.
            let n = edits.len();
            let done = format!("recovered {n} unsaved change(s)");
            if let Err(err) = self.execute(Edit::Group(edits), None, done) {
                self.status = format!("recovery failed, nothing changed: {err}");
            }
        } else {
            autosave::remove(&self.doc.path);
        }
    }

    /// Picks up a finished background open.
    pub fn poll_loading(&mut self) {
        let Some(res) = self.loading.as_ref().and_then(Loading::poll) else {
            return;
        };
        let Some(loading) = self.loading.take() else {
            return;
        };
        self.finish_open(&loading.path, res);
    }

    fn finish_open(&mut self, path: &Path, res: Loaded) {
        match res {
            Ok((doc, geo)) => {
                self.replace(doc);
                self.loaded_geometry = Some(geo);
                self.push_recent(path);
                self.recovery = autosave::recovery_edits(&self.doc);
                self.status = format!("opened {}", path.display());
            }
            Err(e) => self.status = format!("could not open: {e}"),
        }
    }

    /// The bundled mannequin (never fails: it is generated by this crate's own code).
    /// The bundled default character, as an untitled document (see [`Self::is_untitled`]).
    pub fn mannequin_document() -> Document {
        let path = Path::new(UNTITLED_NAME);
        Document::from_bytes(path, crate::mannequin::EMBEDDED_GLB, UriPolicy::default())
            .unwrap_or_else(|e| panic!("the embedded mannequin must parse: {e}"))
    }

    /// Copies the selected joint's limits and drive gains: the constraint and drive keys of
    /// the field table, as the file states them.
    pub fn copy_joint(&mut self) {
        let Some(id) = self.selection else { return };
        if self.doc.bone(id).constraint().is_none() {
            return;
        }
        let physics = self.doc.physics_json(id);
        let values = joint_fields()
            .map(|path| {
                let pointer = format!("/{}", path.replace('.', "/"));
                let v = physics.and_then(|p| p.pointer(&pointer)).cloned();
                (path, v)
            })
            .collect();
        self.joint_clipboard = Some(values);
        self.status = format!("copied the joint of {}", self.doc.bone(id).name);
    }

    /// Pastes copied limits and gains onto every selected bone (and, with symmetric
    /// editing, their twins): one undo step, all or nothing.
    pub fn paste_joint(&mut self) {
        let (Some(id), Some(values)) = (self.selection, self.joint_clipboard.clone()) else {
            return;
        };
        let bones = self.selected_bones();
        let edits = bones
            .iter()
            .flat_map(|&b| joint_edits(self.doc.bone_target(b), &values))
            .collect();
        match self.apply_linked(edits, &bones, None) {
            Ok(()) => self.status = format!("pasted the joint onto {}", self.doc.bone(id).name),
            Err(e) => self.status = format!("paste refused: {e}"),
        }
    }

    pub fn undo(&mut self) {
        match self.history.undo(&mut self.doc) {
            Ok(true) => {
                self.status = "undone".into();
            }
            Ok(false) => self.status = "nothing to undo".into(),
            Err(e) => self.status = format!("undo failed: {e}"),
        }
    }

    pub fn redo(&mut self) {
        match self.history.redo(&mut self.doc) {
            Ok(true) => {
                self.status = "redone".into();
            }
            Ok(false) => self.status = "nothing to redo".into(),
            Err(e) => self.status = format!("redo failed: {e}"),
        }
    }

    /// The document's revision: derived views (simulation, viewport, autosave) rebuild when it
    /// changes; every edit, undo and load changes it.
    pub fn doc_gen(&self) -> u64 {
        self.doc.revision()
    }

    /// The one path of every edit: applies it as one command, records it for undo (a drag,
    /// `merge`, stays one step), and says `done` in the status bar, or why it was refused
    /// (then nothing changed).
    pub fn execute(
        &mut self,
        edit: Edit,
        merge: Option<egui::Id>,
        done: impl Into<String>,
    ) -> Result<(), crate::document::EditError> {
        match self.doc.apply(&edit) {
            Ok(undo) => {
                self.history.record(undo, edit, merge);
                self.status = done.into();
                Ok(())
            }
            Err(e) => {
                self.status = format!("refused: {e}");
                Err(e)
            }
        }
    }

    /// Applies `edits` (to `bones`), then their mirror onto the twins not among `bones` when
    /// symmetric editing is on, as one `Edit::Group` and one undo step, all or nothing.
    pub fn apply_linked(
        &mut self,
        edits: Vec<Edit>,
        bones: &[BoneId],
        merge: Option<egui::Id>,
    ) -> Result<(), EditError> {
        let pairs = if self.symmetric {
            self.twin_pairs()
        } else {
            Vec::new()
        };
        let mirror = |doc: &Document| symmetry::mirror_onto_twins(doc, bones, &pairs);
        let (undo, redo) = self.doc.apply_then(&Edit::Group(edits), mirror)?;
        self.history.record(undo, redo, merge);
        Ok(())
    }

    /// Applies one key's edit as the inspector makes it: to `target`, and when `target` is
    /// the primary selected bone, to every selected bone sharing the field; then (symmetric
    /// editing on) mirrors each edited bone onto its twin. One undo step; a drag (`merge`)
    /// stays one step.
    pub fn edit(
        &mut self,
        target: EditTarget,
        key: &str,
        value: serde_json::Value,
        merge: Option<egui::Id>,
    ) {
        self.edit_each(target, key, merge, |doc, bones| {
            symmetry::set_edits(doc, bones, target, key, &value)
        });
    }

    /// Sets a length key given in metres (a number or a vector) on every bone [`Self::edit`]
    /// would set: each gets the metres over its own world scale, in its own units.
    pub fn edit_lengths(
        &mut self,
        target: EditTarget,
        key: &str,
        metres: serde_json::Value,
        merge: Option<egui::Id>,
    ) {
        self.edit_each(target, key, merge, |doc, bones| {
            symmetry::set_lengths(doc, bones, target, key, &metres)
        });
    }

    /// The bones an edit of `key` on `target` reaches, their edits made by `make`, applied as
    /// [`Self::edit`] describes.
    fn edit_each(
        &mut self,
        target: EditTarget,
        key: &str,
        merge: Option<egui::Id>,
        make: impl FnOnce(&Document, &[BoneId]) -> Vec<Edit>,
    ) {
        let bones = symmetry::fan_out(&self.doc, &self.selected_bones(), target, key);
        let edits = make(&self.doc, &bones);
        if let Err(e) = self.apply_linked(edits, &bones, merge) {
            self.status = format!("edit refused: {e}");
        }
    }

    /// Applies a precomputed group (a mirror command, a preset) as one undo step, reporting
    /// `done` or the refusal in the status bar.
    pub fn apply_command(&mut self, edits: Vec<Edit>, done: String) {
        if edits.is_empty() {
            self.status = "nothing to change".into();
            return;
        }
        // A refusal is reported in the status bar by `execute`.
        self.execute(Edit::Group(edits), None, done).ok();
    }

    /// The (left, right) twin pairs of the current document.
    pub fn twin_pairs(&mut self) -> TwinPairs {
        self.twin_cache.pairs(&self.doc, self.bones_gen)
    }

    /// Turns symmetric editing on when the (newly loaded) character has twins, off otherwise.
    pub fn reset_symmetric(&mut self) {
        self.symmetric = !self.twin_pairs().is_empty();
    }

    /// "Mirror to other side": each selected bone's physics onto its twin.
    pub fn mirror_selection(&mut self) {
        let pairs = self.twin_pairs();
        let (edits, count) = symmetry::mirror_selection(&self.doc, &self.selected_bones(), &pairs);
        if count == 0 {
            self.status = "no twin found for the selected bone(s)".into();
            return;
        }
        self.apply_command(edits, format!("mirrored {count} bone(s) to the other side"));
    }

    /// "Mirror side L to R / R to L": the whole character.
    pub fn mirror_whole_side(&mut self, dir: Direction) {
        let (edits, what) = symmetry::mirror_side(&self.doc, dir);
        self.apply_command(edits, format!("mirrored {what}"));
    }

    /// Every selected bone, the primary first (empty without a primary).
    pub fn selected_bones(&self) -> Vec<BoneId> {
        self.multi.bones(self.selection)
    }

    /// Selects one bone (or none).
    pub fn select_only(&mut self, id: Option<BoneId>) {
        self.selection = id;
        self.multi = MultiSelection::default();
    }

    /// Selects exactly these bones, the first one primary.
    pub fn set_selected(&mut self, bones: Vec<BoneId>) {
        (self.selection, self.multi) = MultiSelection::of(bones);
    }

    /// Ctrl-click: adds a bone to the selection (it becomes the primary) or removes it.
    pub fn toggle_select(&mut self, id: BoneId) {
        self.set_selected(selection::toggled(self.selected_bones(), id));
    }

    /// Shift-click: selects the bones from the primary to `id` in `order` (the outliner's
    /// rows as shown), keeping what was selected; `id` becomes the primary.
    pub fn select_range(&mut self, id: BoneId, order: &[BoneId]) {
        if self.selection.is_none() {
            return self.select_only(Some(id));
        }
        match selection::ranged(self.selected_bones(), id, order) {
            Some(all) => self.set_selected(all),
            None => self.toggle_select(id),
        }
    }

    /// True when the selected bones do not all hold the same value for `key`.
    pub fn is_mixed(&self, key: &str) -> bool {
        selection::is_mixed(&self.doc, &self.selected_bones(), key)
    }

    /// Replaces the document with `doc` (history and selection reset).
    pub fn replace(&mut self, doc: Document) {
        self.selection = self
            .selection
            .and_then(|s| doc.bone_by_name(&self.doc.bone(s).name));
        self.multi = Default::default();
        self.doc = doc;
        self.history.clear();
        self.load_gen += 1;
        self.bones_gen += 1;
        self.reset_symmetric();
    }

    /// Starts opening a file in the background; the document is replaced when it is read.
    pub fn open(&mut self, path: &Path) {
        self.loading = Some(Loading::start(path, self.policy));
        self.status = format!("opening {}…", path.display());
    }

    /// Opens a file and waits for it (tests, scripts).
    pub fn open_blocking(&mut self, path: &Path) {
        let res = Loading::start(path, self.policy).wait();
        self.finish_open(path, res);
    }

    /// True for the bundled default character, which has no file of its own yet.
    pub fn is_untitled(&self) -> bool {
        self.doc.path == Path::new(UNTITLED_NAME)
    }

    pub fn save(&mut self) {
        if self.is_untitled() {
            self.wants_save_as = true;
            self.status = "the default character is untitled: choose where to save it".into();
            return;
        }
        let path = self.doc.path.clone();
        match self.doc.save() {
            Ok(written) => {
                autosave::remove(&path);
                self.push_recent(&path);
                self.status = with_warnings(format!("saved {}", path.display()), &written);
            }
            Err(e) => self.status = format!("save failed: {e}"),
        }
    }

    /// Saves to a new path. The document is read back from there, and bones are numbered as
    /// that file lists them (a node that gained physics during the session moves to its
    /// place in node order): the selection follows its node, and `bones_gen` tells the
    /// viewport and the simulation to rebuild what they index by bone. Undo history targets
    /// nodes, so it stays valid.
    pub fn save_as(&mut self, path: &Path) {
        let old = self.doc.path.clone();
        let old_nodes: Vec<usize> = self.doc.bones.iter().map(|b| b.node).collect();
        let selected_node = self.selection.map(|id| self.doc.bone(id).node);
        match self.doc.save_as(path) {
            Ok(written) => {
                autosave::remove(&old);
                autosave::remove(path);
                self.push_recent(path);
                self.status = with_warnings(format!("saved as {}", path.display()), &written);
                if self.doc.bones.iter().map(|b| b.node).ne(old_nodes) {
                    self.selection = selected_node.and_then(|n| self.doc.bone_of_node(n));
                    self.multi = Default::default();
                    self.bones_gen += 1;
                }
            }
            Err(e) => self.status = format!("save failed: {e}"),
        }
    }

    /// Writes a self-contained .glb copy; the document keeps its own path.
    pub fn export_glb(&mut self, path: &Path) {
        match self.doc.write_to(path) {
            Ok(written) => {
                self.status = with_warnings(format!("exported {}", path.display()), &written)
            }
            Err(e) => self.status = format!("export failed: {e}"),
        }
    }

    fn push_recent(&mut self, path: &Path) {
        let p = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|r| r != &p);
        self.recent.insert(0, p);
        self.recent.truncate(MAX_RECENT);
    }

    /// The window title: file name, an unsaved marker, the app name.
    pub fn title(&self) -> String {
        let name = self
            .doc
            .path
            .file_name()
            .map_or_else(|| "untitled".into(), |n| n.to_string_lossy().into_owned());
        let dirty = if self.doc.is_dirty() { "● " } else { "" };
        format!("{dirty}{name} - ragdoll-tuner")
    }
}

/// The edits that give `target` a joint's type, limits and drive gains.
/// The paths of the constraint and drive keys of the field table a joint copy carries
/// (`constraint.swing_limit_deg`, `drive.stiffness`, ...): all but the parent bone.
fn joint_fields() -> impl Iterator<Item = String> {
    use crate::document::fields::{self, Key, Section};
    let constraint = fields::section(Section::Constraint)
        .filter(|f| f.id != Key::ParentBone)
        .map(|f| format!("constraint.{}", f.key));
    constraint.chain(fields::section(Section::Drive).map(|f| format!("drive.{}", f.key)))
}

/// The edits that give `target` a copied joint: each key set as copied, or removed where the
/// copy had none (so it takes the same default).
fn joint_edits(target: EditTarget, values: &[(String, Option<serde_json::Value>)]) -> Vec<Edit> {
    values
        .iter()
        .map(|(key, v)| match v {
            Some(value) => Edit::Set {
                target,
                key: key.clone(),
                value: value.clone(),
            },
            None => Edit::Remove {
                target,
                key: key.clone(),
            },
        })
        .collect()
}

/// A status line followed by what the write could not carry, each in the reader's words.
fn with_warnings(status: String, written: &crate::document::Written) -> String {
    std::iter::once(status)
        .chain(written.warnings())
        .collect::<Vec<_>>()
        .join("; ")
}
