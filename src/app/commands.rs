//! The editor's commands in one table: each with its label, keyboard shortcuts, when it is
//! enabled, and what it runs. The menus and the keyboard shortcuts are made from it (and the
//! tests click its labels), so a shortcut shown in a menu is the one that works. Shortcut
//! labels come from egui's formatter, never typed text.

use super::files::{Files, PathAction};
use super::generate_dialog::GenerateDialog;
use super::state::EditorState;
use super::timeline_panel::Request;
use super::tune_dialog::TuneDialog;
use crate::mirror::Direction;
use egui::{Key, KeyboardShortcut, Modifiers};

/// An editor command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Open,
    OpenPath,
    Save,
    SaveAs,
    ExportGlb,
    Quit,
    Undo,
    Redo,
    CopyJoint,
    PasteJoint,
    GenerateRagdoll,
    AutoTune,
    Stabilize,
    DisableOverlappingPairs,
    MirrorSelection,
    MirrorLeftToRight,
    MirrorRightToLeft,
    FrameBack,
    FrameForward,
    Resimulate,
    BakeClip,
}

/// What a command works on.
pub struct Context<'a> {
    pub st: &'a mut EditorState,
    pub files: &'a mut Files,
    pub generate: &'a mut GenerateDialog,
    pub tune: &'a mut TuneDialog,
    pub egui: &'a egui::Context,
    pub timeline: &'a mut super::timeline_panel::TimelinePanel,
}

const fn ctrl(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn ctrl_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}

impl Command {
    /// Every command, in menu order.
    pub const ALL: &'static [Command] = &[
        Command::Open,
        Command::OpenPath,
        Command::Save,
        Command::SaveAs,
        Command::ExportGlb,
        Command::Quit,
        Command::Undo,
        Command::Redo,
        Command::CopyJoint,
        Command::PasteJoint,
        Command::GenerateRagdoll,
        Command::AutoTune,
        Command::Stabilize,
        Command::DisableOverlappingPairs,
        Command::MirrorSelection,
        Command::MirrorLeftToRight,
        Command::MirrorRightToLeft,
        Command::FrameBack,
        Command::FrameForward,
        Command::Resimulate,
        Command::BakeClip,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Command::Open => "Open…",
            Command::OpenPath => "Open path…",
            Command::Save => "Save",
            Command::SaveAs => "Save As…",
            Command::ExportGlb => "Export GLB…",
            Command::Quit => "Quit",
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::CopyJoint => "Copy joint",
            Command::PasteJoint => "Paste joint",
            Command::GenerateRagdoll => "Generate ragdoll…",
            Command::AutoTune => "Auto-tune…",
            Command::Stabilize => "Stabilize",
            Command::DisableOverlappingPairs => super::pair_view::DISABLE_OVERLAPPING,
            Command::MirrorSelection => "Mirror to other side",
            Command::MirrorLeftToRight => "Mirror side L to R",
            Command::MirrorRightToLeft => "Mirror side R to L",
            Command::FrameBack => "Frame back",
            Command::FrameForward => "Frame forward",
            Command::Resimulate => "Resimulate from here",
            Command::BakeClip => "Bake to clip…",
        }
    }

    /// The command's name on the command line (`--command`): its label in lower case,
    /// words joined by '-' ("Auto-tune…" is `auto-tune`, "Bake to clip…" is `bake-to-clip`).
    pub fn id(self) -> String {
        let words = self.label().split(|c: char| !c.is_alphanumeric());
        let words: Vec<String> = words
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        words.join("-")
    }

    /// The command named `id` (see [`Command::id`]); the error lists every name.
    pub fn parse_id(id: &str) -> Result<Command, String> {
        let found = Command::ALL.iter().find(|c| c.id() == id);
        found.copied().ok_or_else(|| {
            let names: Vec<String> = Command::ALL.iter().map(|c| c.id()).collect();
            format!("no command '{id}'; the commands are: {}", names.join(", "))
        })
    }

    /// The keyboard shortcuts, the first one shown in menus.
    pub fn shortcuts(self) -> &'static [KeyboardShortcut] {
        const SAVE: &[KeyboardShortcut] = &[ctrl(Key::S)];
        const UNDO: &[KeyboardShortcut] = &[ctrl(Key::Z)];
        const REDO: &[KeyboardShortcut] = &[ctrl_shift(Key::Z), ctrl(Key::Y)];
        const OPEN: &[KeyboardShortcut] = &[ctrl(Key::O)];
        const BACK: &[KeyboardShortcut] = &[KeyboardShortcut::new(Modifiers::NONE, Key::Comma)];
        const FORWARD: &[KeyboardShortcut] = &[KeyboardShortcut::new(Modifiers::NONE, Key::Period)];
        match self {
            Command::Save => SAVE,
            Command::Undo => UNDO,
            Command::Redo => REDO,
            Command::Open => OPEN,
            Command::FrameBack => BACK,
            Command::FrameForward => FORWARD,
            _ => &[],
        }
    }

    /// A tooltip, where the label needs one.
    pub fn hover(self) -> Option<&'static str> {
        match self {
            Command::MirrorSelection => {
                Some("Mirror the selected bones' collider, limits and drive onto their twins")
            }
            Command::CopyJoint => Some("Copy the selected joint's limits and drive gains"),
            Command::AutoTune => Some(
                "Search the drive and balance gains for goals you set (pushes to survive and to \
                 fall from, a clip to follow, an assist cap), then apply them as one undo step",
            ),
            Command::Stabilize => Some(
                "The stability doctor's fixes as one undo step: mass ratios clamped, \
                 overlapping pairs disabled, tiny limits widened, damping added, drives capped",
            ),
            Command::PasteJoint => Some("Paste the copied limits and gains onto the selection"),
            Command::Resimulate => Some(
                "Restart the simulation from the exact state at the timeline's moment with the \
                 current settings (the run it leaves is kept in the branch list)",
            ),
            Command::BakeClip => Some(
                "Bake a range of the recorded run into a new animation clip of the document \
                 (a rotation channel per body, translation for the root), one undo step",
            ),
            Command::DisableOverlappingPairs => Some(
                "Stop every pair of bodies that overlap at rest from colliding \
                 (`collision_pairs`), as one undo step",
            ),
            _ => None,
        }
    }

    /// Whether the command can run now.
    pub fn enabled(self, st: &mut EditorState) -> bool {
        let jointed = st
            .selection
            .is_some_and(|id| st.doc.bone(id).constraint().is_some());
        match self {
            Command::Undo => st.history.can_undo(),
            Command::Redo => st.history.can_redo(),
            Command::CopyJoint => jointed,
            Command::AutoTune => st
                .doc
                .bones
                .iter()
                .any(|b| b.physics.as_ref().is_some_and(|p| p.drive.is_some())),
            Command::Stabilize | Command::DisableOverlappingPairs => {
                st.doc.bones.iter().any(|b| b.physics.is_some())
            }
            Command::PasteJoint => st.selection.is_some() && st.joint_clipboard.is_some(),
            Command::MirrorSelection => st.selection.is_some() && !st.twin_pairs().is_empty(),
            Command::MirrorLeftToRight | Command::MirrorRightToLeft => !st.twin_pairs().is_empty(),
            _ => true,
        }
    }

    /// Runs the command (the caller checked [`Command::enabled`]).
    pub fn run(self, cx: &mut Context) {
        let st = &mut *cx.st;
        match self {
            Command::Open => cx.files.ask(PathAction::Open, st),
            Command::OpenPath => cx.files.typed = Some((PathAction::Open, String::new())),
            Command::Save => st.save(),
            Command::SaveAs => cx.files.ask(PathAction::SaveAs, st),
            Command::ExportGlb => cx.files.ask(PathAction::ExportGlb, st),
            Command::Quit => cx.egui.send_viewport_cmd(egui::ViewportCommand::Close),
            Command::Undo => st.undo(),
            Command::Redo => st.redo(),
            Command::CopyJoint => st.copy_joint(),
            Command::PasteJoint => st.paste_joint(),
            Command::GenerateRagdoll => cx.generate.open(),
            Command::AutoTune => cx.tune.open(&st.doc),
            Command::Stabilize => st.stabilize(),
            Command::DisableOverlappingPairs => st.disable_overlapping_pairs(),
            Command::MirrorSelection => st.mirror_selection(),
            Command::MirrorLeftToRight => st.mirror_whole_side(Direction::LeftToRight),
            Command::MirrorRightToLeft => st.mirror_whole_side(Direction::RightToLeft),
            Command::FrameBack => cx.timeline.pending.push(Request::Frames(-1)),
            Command::FrameForward => cx.timeline.pending.push(Request::Frames(1)),
            Command::Resimulate => cx.timeline.request_resimulate(),
            Command::BakeClip => cx.timeline.bake.request(),
        }
    }

    /// The text a menu shows for the first shortcut, from egui's formatter ("" for none).
    pub fn shortcut_text(self, ctx: &egui::Context) -> String {
        self.shortcuts()
            .first()
            .map_or_else(String::new, |s| ctx.format_shortcut(s))
    }
}

/// A menu item for `cmd`: its label, shortcut text, enabled state and tooltip; runs it when
/// clicked.
pub fn menu_item(ui: &mut egui::Ui, cmd: Command, cx: &mut Context) {
    let enabled = cmd.enabled(cx.st);
    let shortcut = cmd.shortcut_text(ui.ctx());
    let mut button = egui::Button::new(cmd.label());
    if !shortcut.is_empty() {
        button = button.shortcut_text(shortcut);
    }
    let mut r = ui.add_enabled(enabled, button);
    if let Some(h) = cmd.hover() {
        r = r.on_hover_text(h);
    }
    if r.clicked() {
        cmd.run(cx);
    }
}

/// Runs the `--command` commands, as if picked from the menu; one that cannot run now is
/// said in the status bar and on stderr.
pub fn run_at_start(cmds: &[Command], cx: &mut Context) {
    for &cmd in cmds {
        if cmd.enabled(cx.st) {
            cmd.run(cx);
        } else {
            let msg = format!("--command {}: not available for this document", cmd.id());
            eprintln!("error: {msg}");
            cx.st.status = msg;
        }
    }
}

/// Every (command, shortcut) pair, those with more modifiers first: egui matches a shortcut
/// ignoring extra Shift, so Ctrl+Shift+Z must be taken before Ctrl+Z can take it.
pub fn shortcut_order() -> Vec<(Command, KeyboardShortcut)> {
    let mut all: Vec<(Command, KeyboardShortcut)> = Command::ALL
        .iter()
        .flat_map(|&c| c.shortcuts().iter().map(move |&s| (c, s)))
        .collect();
    let weight = |m: Modifiers| {
        [m.alt, m.ctrl || m.command || m.mac_cmd, m.shift]
            .iter()
            .filter(|&&x| x)
            .count()
    };
    all.sort_by_key(|(_, s)| std::cmp::Reverse(weight(s.modifiers)));
    all
}

/// Runs the commands whose shortcut was pressed this frame. A pressed shortcut is taken even
/// when its command is disabled (Ctrl+Shift+Z with nothing to redo must not undo).
pub fn shortcuts(cx: &mut Context) {
    let typing = cx.egui.egui_wants_keyboard_input();
    for (cmd, s) in shortcut_order() {
        // A bare key (`,` `.`) typed into a text field is text, not a command.
        if typing && s.modifiers.is_none() {
            continue;
        }
        if cx.egui.input_mut(|i| i.consume_shortcut(&s)) && cmd.enabled(cx.st) {
            cmd.run(cx);
        }
    }
}
