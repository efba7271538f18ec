//! The viewport draws a new simulation pose only when something in it moved visibly: a
//! ragdoll standing balanced is not drawn again frame after frame, a falling one is. Checked
//! on the real window (under Xvfb) through the frame benchmark's count of redrawn frames.

use crate::common;

/// Runs the frame benchmark for `frames` editor frames and returns its JSON report.
fn bench(file: Option<&std::path::Path>, args: &[&str], frames: usize) -> serde_json::Value {
    let mut cmd = common::ragdoll_tuner();
    cmd.args(file)
        .args(args)
        .args(["--bench-frames", &frames.to_string()]);
    let out = common::run_ok(&mut cmd);
    let line = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(line.trim()).expect("one JSON line")
}

fn drawn(report: &serde_json::Value) -> u64 {
    report["scene_drawn_frames"].as_u64().expect("count")
}

#[test]
fn a_standing_ragdoll_is_not_drawn_again_a_falling_one_is() {
    if common::needs_display() {
        return;
    }
    const FRAMES: usize = 120;
    // Standing balanced after 3 s: it sways by thousandths of a pixel.
    let still = bench(None, &["--sim-seconds", "3"], FRAMES);
    // Limp: it collapses during the benchmark.
    let dir = tempfile::tempdir().expect("temp dir");
    let limp = common::limp_mannequin(dir.path());
    let falling = bench(Some(&limp), &[], FRAMES);
    println!("standing: {still}\nfalling: {falling}");
    assert!(drawn(&still) <= FRAMES as u64 / 20, "{still}");
    assert!(drawn(&falling) >= FRAMES as u64 / 5, "{falling}");
    // The redrawn frames' own median is reported when there are some (null when none).
    let drawn_ms = falling["scene_drawn_median_frame_ms"].as_f64();
    assert!(drawn_ms.is_some_and(|ms| ms > 0.0), "{falling}");
}
