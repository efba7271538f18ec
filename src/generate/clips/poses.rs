//! Clips that are a set of held poses, not a motion: a pose library (Rigify's `Poses`, a
//! rig's test poses). Such a clip jumps between poses nobody means a ragdoll to move through
//! (an ankle bent 166°, a wrist twisted 145°), so it widens limits only within anatomical
//! plausibility ([`crate::generate::limits::plausible`]) and does not size the drives.
//!
//! The evidence, from the file: the clip's name says pose, or the clip holds still (every
//! joint slower than [`HOLD_DEG_S`]) in at least two different poses for at least
//! [`MIN_HOLD_S`] each, over at least [`MIN_HELD_SHARE`] of its length. A motion never holds
//! every joint still; an idle or an emote that starts and ends in one pose holds one pose.

use crate::anim::demand::{JointDemand, SAMPLE_HZ};
use glam::DQuat;

/// Every joint slower than this (degrees per second): the clip holds still.
pub const HOLD_DEG_S: f64 = 3.0;
/// A hold lasts at least this long (s).
pub const MIN_HOLD_S: f64 = 0.5;
/// Held for at least this share of the clip.
pub const MIN_HELD_SHARE: f64 = 0.5;
/// Two holds are different poses when some joint differs by more than this (degrees).
pub const DISTINCT_DEG: f64 = 10.0;

fn angle_deg(a: DQuat, b: DQuat) -> f64 {
    2.0 * a.dot(b).abs().min(1.0).acos().to_degrees()
}

/// The held stretches of a clip: (first, last) sample indices of every run of samples where
/// every joint moves slower than [`HOLD_DEG_S`], at least [`MIN_HOLD_S`] long.
fn holds(demands: &[JointDemand]) -> (Vec<(usize, usize)>, usize) {
    let n = demands.iter().map(|d| d.rotations.len()).min().unwrap_or(0);
    let per_sample = HOLD_DEG_S / SAMPLE_HZ;
    let still = |i: usize| {
        demands
            .iter()
            .all(|d| angle_deg(d.rotations[i - 1], d.rotations[i]) < per_sample)
    };
    let min_len = (MIN_HOLD_S * SAMPLE_HZ).ceil() as usize;
    let mut runs = Vec::new();
    let mut start = None;
    for i in 1..=n {
        match (i < n && still(i), start) {
            (true, None) => start = Some(i - 1),
            (false, Some(s)) => {
                if i - s >= min_len {
                    runs.push((s, i - 1));
                }
                start = None;
            }
            _ => {}
        }
    }
    (runs, n)
}

/// Why the clip `name` with the joint demands `demands` is a set of held poses, or None
/// when it is a motion.
pub fn evidence(name: &str, demands: &[JointDemand]) -> Option<String> {
    let named = name
        .to_lowercase()
        .contains("pose")
        .then(|| format!("its name \"{name}\" says poses"));
    let (runs, n) = holds(demands);
    if n < 2 || runs.len() < 2 {
        return named;
    }
    let held: usize = runs.iter().map(|(a, b)| b - a + 1).sum();
    let share = held as f64 / n as f64;
    // Distinct poses: some pair of holds differs at some joint.
    let pose = |r: &(usize, usize)| (r.0 + r.1) / 2;
    let distinct = runs.iter().any(|r| {
        let first = pose(&runs[0]);
        let i = pose(r);
        demands
            .iter()
            .any(|d| angle_deg(d.rotations[first], d.rotations[i]) > DISTINCT_DEG)
    });
    let held = (share >= MIN_HELD_SHARE && distinct).then(|| {
        format!(
            "it holds {} still poses for {:.0}% of its length",
            runs.len(),
            share * 100.0
        )
    });
    held.or(named)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::BoneId;

    fn joint(angles_deg: &[f64]) -> JointDemand {
        JointDemand {
            bone: BoneId(0),
            rotations: angles_deg
                .iter()
                .map(|a| DQuat::from_rotation_x(a.to_radians()))
                .collect(),
            accels: Vec::new(),
            linear: Vec::new(),
        }
    }

    #[test]
    fn held_poses_are_a_pose_set_and_a_motion_is_not() {
        // 1 s at 0°, a 0.2 s jump, 1 s at 60°, a jump back, 1 s at 20°.
        let mut a = vec![0.0; 60];
        a.extend((1..=12).map(|i| 5.0 * i as f64));
        a.extend(vec![60.0; 60]);
        a.extend((1..=12).map(|i| 60.0 - 40.0 / 12.0 * i as f64));
        a.extend(vec![20.0; 60]);
        assert!(evidence("Take 001", &[joint(&a)]).is_some());
        // A walk: always moving.
        let walk: Vec<f64> = (0..240).map(|i| 30.0 * (i as f64 / 20.0).sin()).collect();
        assert_eq!(evidence("Walk", &[joint(&walk)]), None);
        // An emote that starts and ends in the same pose holds one pose.
        let mut emote = vec![0.0; 60];
        emote.extend((0..60).map(|i| 40.0 * (i as f64 / 60.0 * std::f64::consts::PI).sin()));
        emote.extend(vec![0.0; 60]);
        assert_eq!(evidence("Wave", &[joint(&emote)]), None);
        assert!(evidence("Poses", &[joint(&walk)]).is_some());
    }
}
