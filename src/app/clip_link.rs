//! The editor's side of a playing animation clip: the clip controls (picker, play/pause,
//! loop, speed, scrubber, root mode), and turning them into the simulation's [`ClipDriver`].
//! The simulation itself aims the drives every step ([`crate::sim::Simulation::set_clip`]).

use crate::anim::Playback;
use crate::document::{Clip, Document};
use crate::sim::{ClipDriver, RootMode, Simulation};

/// What the clip panel asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipControls {
    /// Index into the document's clips; None: no clip, drives hold the rest pose.
    pub selected: Option<usize>,
    /// Clip time advances (else it holds where it is).
    pub playing: bool,
    pub looping: bool,
    /// Clip seconds per simulated second.
    pub speed: f32,
    pub root: RootMode,
    /// A scrub request: show the clip at this time (s), once.
    pub scrub_to_s: Option<f32>,
}

impl Default for ClipControls {
    fn default() -> Self {
        Self {
            selected: None,
            playing: true,
            looping: true,
            speed: 1.0,
            root: RootMode::Kinematic,
            scrub_to_s: None,
        }
    }
}

/// The clips of the open document and what was last applied to the simulation.
#[derive(Debug, Default)]
pub struct ClipLink {
    pub clips: Vec<Clip>,
    /// Problems reading the animations (shown under the clip picker).
    pub problems: Vec<String>,
    applied: Option<ClipControls>,
    /// What the clips were read from (a change means they must be read again).
    source: ClipSource,
}

/// The parts of the glTF the clips are read from: the animations as written, and each
/// buffer's byte length (a bake appends to them; a buffer's data, which may be a long data
/// URI, is not copied).
#[derive(Debug, Clone, Default, PartialEq)]
struct ClipSource {
    animations: Option<serde_json::Value>,
    buffer_lengths: Vec<Option<u64>>,
}

impl ClipSource {
    fn of(doc: &Document) -> Self {
        let json = doc.json();
        let buffers = json.get("buffers").and_then(|b| b.as_array());
        Self {
            animations: json.get("animations").cloned(),
            buffer_lengths: buffers
                .into_iter()
                .flatten()
                .map(|b| b.get("byteLength").and_then(|l| l.as_u64()))
                .collect(),
        }
    }
}

impl ClipLink {
    /// Reads the document's clips (the buffers are read once, here).
    pub fn load(doc: &Document) -> Self {
        let source = ClipSource::of(doc);
        match doc.load_animations() {
            Ok(a) => Self {
                clips: a.clips,
                problems: a.diagnostics.iter().map(|d| d.to_string()).collect(),
                applied: None,
                source,
            },
            Err(e) => Self {
                problems: vec![format!("animations not read: {e}")],
                source,
                ..Self::default()
            },
        }
    }

    /// True when `doc`'s animations (or the buffers they read) are not those read.
    pub fn is_stale(&self, doc: &Document) -> bool {
        ClipSource::of(doc) != self.source
    }

    /// Forgets what was applied (a new world was built).
    pub fn reset(&mut self) {
        self.applied = None;
    }

    /// Brings the simulation's clip to the controls: a new driver when the clip or root mode
    /// changes, the playback edited in place otherwise. Returns an error message to show.
    pub fn apply(
        &mut self,
        sim: &mut Simulation,
        doc: &Document,
        c: &ClipControls,
    ) -> Result<(), String> {
        if self.applied.as_ref() == Some(c) {
            return Ok(());
        }
        let prev = self.applied.replace(c.clone());
        let Some(clip) = c.selected.and_then(|i| self.clips.get(i)) else {
            return sim.set_clip(None).map_err(|e| e.to_string());
        };
        let t = sim.time_s();
        let same = prev
            .as_ref()
            .is_some_and(|p| p.selected == c.selected && p.root == c.root);
        if !same {
            let playback = Playback {
                speed: if c.playing { c.speed } else { 0.0 },
                looping: c.looping,
                start_s: -(t as f32) * if c.playing { c.speed } else { 0.0 },
            };
            let driver = ClipDriver::new(doc, clip.clone(), playback, c.root);
            sim.set_clip(None).map_err(|e| e.to_string())?;
            return sim.set_clip(Some(driver)).map_err(|e| e.to_string());
        }
        if let Some(d) = sim.clip_mut() {
            // Keep the clip where it is now, then continue at the new speed (or hold).
            let now = c.scrub_to_s.unwrap_or_else(|| d.clip_time_s(t));
            let speed = if c.playing { c.speed } else { 0.0 };
            d.playback = Playback {
                speed,
                looping: c.looping,
                start_s: now - t as f32 * speed,
            };
        }
        Ok(())
    }
}

/// The clip's time and duration now, if one plays.
pub fn clip_clock(sim: &Simulation) -> Option<(f32, f32)> {
    let d = sim.clip()?;
    Some((d.clip_time_s(sim.time_s()), d.clip.duration_s))
}
