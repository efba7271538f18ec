//! The run on tape: any recorded moment restores exactly (a snapshot stepped forward), and
//! resimulating from it with no change reproduces the recorded run bit for bit.

use super::pose_bits;
use crate::common::*;
use ragdoll_tuner::document::Document;
use ragdoll_tuner::sim::{SimSettings, Simulation};
use ragdoll_tuner::timeline::Tape;

fn frame_bits(tape: &Tape, step: u64) -> Vec<[u32; 7]> {
    let i = tape.recording.index_of_step(step).expect("recorded step");
    let f = tape.recording.frame(i).expect("frame");
    f.poses
        .iter()
        .map(|p| {
            let (t, r) = (p.translation, p.rotation);
            [t.x, t.y, t.z, r.x, r.y, r.z, r.w].map(f32::to_bits)
        })
        .collect()
}

/// 3 s of the mannequin with a shove at 1.5 s, on tape.
fn taped_run() -> (Tape, Simulation) {
    let doc = Document::open(mannequin()).expect("open");
    let mut sim = Simulation::new(&doc, SimSettings::default()).expect("sim");
    let mut tape = Tape::new(&sim, 60.0);
    for i in 0..360 {
        if i == 180 {
            sim.apply_impulse("spine_upper", glam::Vec3::new(40.0, 0.0, 10.0))
                .expect("push");
            tape.mark_changed();
        }
        tape.step(&mut sim).expect("step");
    }
    (tape, sim)
}

#[test]
fn every_recorded_moment_restores_exactly_and_replays_bit_for_bit() {
    let (tape, sim) = taped_run();
    assert_eq!(tape.recording.len(), 361, "the start and every step");
    assert!(
        tape.snapshots() >= 4,
        "about one a second, and one at the push"
    );
    // Before the push, at it, just after it, mid-second (the snapshot is stepped forward).
    for step in [0, 100, 180, 181, 250, 359] {
        let mut again = tape.restore(step).expect("restorable");
        assert_eq!(again.steps(), step);
        assert_eq!(
            pose_bits(&again),
            frame_bits(&tape, step),
            "restored {step}"
        );
        // Resimulating from here with no change reproduces the recorded run (up to the
        // shove, which a replay from before it does not make).
        let end = if step < 180 { 180 } else { sim.steps() };
        while again.steps() < end {
            again.step().expect("step");
            assert_eq!(
                pose_bits(&again),
                frame_bits(&tape, again.steps()),
                "replay from {step} parted at {}",
                again.steps()
            );
        }
    }
}

#[test]
fn a_branch_forgets_the_old_future_and_records_its_own() {
    let (mut tape, _) = taped_run();
    let mut branch = tape.restore(240).expect("restorable");
    tape.truncate_after(240);
    assert_eq!(tape.recording.len(), 241);
    assert!(tape.restore(241).is_none_or(|s| s.steps() == 241));
    branch.settings_mut().gravity_m_s2 = glam::Vec3::ZERO;
    tape.mark_changed();
    for _ in 0..60 {
        tape.step(&mut branch).expect("step");
    }
    assert_eq!(tape.recording.len(), 301);
    let last = tape.recording.frame(300).expect("frame");
    assert_eq!(last.step, 300);
    // The branch's own moments restore exactly too.
    let again = tape.restore(280).expect("restorable");
    assert_eq!(pose_bits(&again), frame_bits(&tape, 280));
}
