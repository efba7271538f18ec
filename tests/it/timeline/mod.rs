//! The simulation timeline: snapshots that branch a run bit for bit, `simulate --branch-at`,
//! and baking what the ragdoll did into a glTF clip.

mod bake;
mod editor;
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
