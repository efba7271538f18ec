//! The clip panel: pick an animation clip to drive the ragdoll, play/pause and loop it,
//! scrub its time, set its speed and how the root moves.

use super::clip_link::ClipControls;
use crate::sim::RootMode;

/// What the panel shows about the document's clips and the one playing.
pub struct ClipView<'a> {
    /// (name, duration s) per clip.
    pub clips: &'a [(String, f32)],
    pub problems: &'a [String],
    /// (clip time, duration) of the clip playing now.
    pub clock: Option<(f32, f32)>,
}

pub fn ui(ui: &mut egui::Ui, c: &mut ClipControls, view: &ClipView) {
    c.scrub_to_s = None;
    if view.clips.is_empty() {
        ui.weak("The file has no animation clips.");
    }
    for p in view.problems {
        ui.colored_label(egui::Color32::from_rgb(230, 170, 60), p);
    }
    if view.clips.is_empty() {
        return;
    }
    clip_picker(ui, c, view.clips);
    if c.selected.is_none() {
        return;
    }
    playback(ui, c, view.clock);
}

/// The clip combo box: none (the rest pose) or one of the clips.
fn clip_picker(ui: &mut egui::Ui, c: &mut ClipControls, clips: &[(String, f32)]) {
    let current = c
        .selected
        .and_then(|i| clips.get(i))
        .map_or("none (rest pose)".to_string(), |(n, d)| {
            format!("{n} ({d:.2} s)")
        });
    let l = ui.label("Clip");
    egui::ComboBox::from_id_salt("clip_picker")
        .selected_text(current)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut c.selected, None, "none (rest pose)");
            for (i, (n, d)) in clips.iter().enumerate() {
                ui.selectable_value(&mut c.selected, Some(i), format!("{n} ({d:.2} s)"));
            }
        })
        .response
        .labelled_by(l.id);
}

/// Play/pause, loop, the clip time (s), the speed and the root mode of the clip playing.
fn playback(ui: &mut egui::Ui, c: &mut ClipControls, clock: Option<(f32, f32)>) {
    ui.horizontal(|ui| {
        let label = if c.playing { "Pause clip" } else { "Play clip" };
        if ui.button(label).clicked() {
            c.playing = !c.playing;
        }
        ui.checkbox(&mut c.looping, "Loop");
    });
    if let Some((t, d)) = clock {
        let mut scrub = t;
        let l = ui.label("Clip time");
        let r = ui
            .add(egui::Slider::new(&mut scrub, 0.0..=d.max(1e-3)).suffix(" s"))
            .labelled_by(l.id);
        if r.changed() {
            c.scrub_to_s = Some(scrub);
        }
    }
    let l = ui.label("Clip speed");
    ui.add(
        egui::Slider::new(&mut c.speed, 0.1..=2.0)
            .suffix(" ×")
            .logarithmic(true),
    )
    .labelled_by(l.id);
    ui.horizontal(|ui| {
        ui.label("Root");
        ui.radio_value(&mut c.root, RootMode::Kinematic, "Kinematic")
            .on_hover_text("The root follows the clip's root motion; the limbs are simulated");
        ui.radio_value(&mut c.root, RootMode::Free, "Free")
            .on_hover_text(
                "The root is simulated and balance holds the character (idle-like clips)",
            );
    });
}
