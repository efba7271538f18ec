//! The simulation timeline: snapshots that branch a run bit for bit, `simulate --branch-at`,
//! and baking what the ragdoll did into a glTF clip.

mod bake;
mod editor;
mod editor_bake;
mod tape;

use crate::common::*;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::sim::{SimSettings, Simulation};

/// Every body's pose, as bits.
fn pose_bits(sim: &Simulation) -> Vec<[u32; 7]> {
    sim.body_poses()
        .map(|(_, p)| {
            let (t, r) = (p.translation, p.rotation);
            [t.x, t.y, t.z, r.x, r.y, r.z, r.w].map(f32::to_bits)
        })
        .collect()
}

/// A snapshot steps exactly as the original: mid-fall, mid-contact, with drives, balance and
/// a shove, the copy and the original agree bit for bit 2 s later.
#[test]
fn a_snapshot_steps_bit_for_bit_as_the_original() {
    for (path, settings) in [
        (mannequin(), SimSettings::default()),
        (
            mannequin(),
            SimSettings {
                balance: false,
                drives: false,
                ..SimSettings::default()
            },
        ),
    ] {
        let doc = Document::open(&path).expect("open");
        let mut sim = Simulation::new(&doc, settings).expect("sim");
        for i in 0..240 {
            if i == 60 {
                sim.apply_impulse("spine_upper", glam::Vec3::new(40.0, 0.0, 10.0))
                    .expect("push");
            }
            sim.step().expect("step");
        }
        let mut copy = sim.clone();
        assert_eq!(pose_bits(&copy), pose_bits(&sim));
        for _ in 0..240 {
            sim.step().expect("step");
            copy.step().expect("step copy");
        }
        assert_eq!(pose_bits(&copy), pose_bits(&sim), "the branches parted");
        assert_eq!(copy.time_s(), sim.time_s());
    }
}

/// Pixels of the plots' cursor colour (a warm yellow) in the plot strip of a screenshot.
fn cursor_pixels((w, h, px): (usize, usize, Vec<u8>)) -> usize {
    let (x0, x1) = (w * 23 / 100, w * 71 / 100);
    let (y0, y1) = (h * 70 / 100, h * 90 / 100);
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = &px[4 * (y * w + x)..4 * (y * w + x) + 3];
            p[0] > 230 && p[1] > 185 && p[1] < 230 && p[2] < 120
        })
        .count()
}

/// The `--scrub T` hook scrubs the timeline back before the screenshot: the plots draw the
/// cursor line, which a plain run does not.
#[test]
fn the_scrub_hook_draws_the_plots_cursor() {
    if crate::common::needs_display() {
        return;
    }
    let scrubbed = cursor_pixels(screenshot(None, &["--sim-seconds", "2", "--scrub", "0.5"]));
    let live = cursor_pixels(screenshot(None, &["--sim-seconds", "2"]));
    assert!(scrubbed > 100, "cursor pixels when scrubbed: {scrubbed}");
    assert!(
        live * 10 < scrubbed,
        "cursor pixels live {live} vs scrubbed {scrubbed}"
    );
}

/// Pixels of the compared run's colour (a light blue-grey, `plot::OVERLAY`) in the plot strip.
fn overlay_pixels((w, h, px): (usize, usize, Vec<u8>)) -> usize {
    let (x0, x1) = (w * 23 / 100, w * 71 / 100);
    let (y0, y1) = (h * 70 / 100, h * 90 / 100);
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = &px[4 * (y * w + x)..4 * (y * w + x) + 3];
            let near = |c: u8, want: i32| (i32::from(c) - want).abs() <= 14;
            near(p[0], 190) && near(p[1], 190) && near(p[2], 200) && p[2] > p[0]
        })
        .count()
}

/// The `--branch-at T` hook branches the run with an edit and overlays the first run: the
/// plots draw the compared run's lines, which a plain run does not.
#[test]
fn the_branch_hook_draws_both_runs_in_the_plots() {
    if crate::common::needs_display() {
        return;
    }
    let common = ["--select", "spine_mid", "--sim-seconds", "3"];
    let branch = [
        "--branch-at",
        "1",
        "--branch-set",
        "spine_mid.drive.stiffness=0",
        "--branch-set",
        "spine_upper.drive.stiffness=0",
    ];
    let args: Vec<&str> = common.iter().chain(&branch).copied().collect();
    let branched = overlay_pixels(screenshot(None, &args));
    let plain = overlay_pixels(screenshot(None, &common));
    assert!(branched > 100, "overlay pixels when branched: {branched}");
    assert!(
        plain * 10 < branched,
        "overlay pixels plain {plain} vs branched {branched}"
    );
}
