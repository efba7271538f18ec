//! What a clip asks of each joint: the relative rotations it reaches (unclamped, to fit the
//! limits to) and the world angular accelerations of the body the joint turns (to size the
//! drive that must produce them).

use super::Follower;
use crate::document::{BoneId, Clip};
use crate::joint::frame::rotation_of;
use glam::{DQuat, DVec3};

/// Clip samples per second for the rotations reached.
pub const SAMPLE_HZ: f64 = 60.0;
/// Accelerations are finite differences over this many samples (1/30 s, the key spacing of
/// most clips: a finer step sees a linear clip's corners as spikes).
pub const ACCEL_STRIDE: usize = 2;
/// Samples per clip at most (a very long clip is sampled more coarsely).
pub const MAX_SAMPLES: usize = 3600;

/// One joint's demand over one clip.
#[derive(Debug, Clone, PartialEq)]
pub struct JointDemand {
    pub bone: BoneId,
    /// Every sampled relative rotation (parent joint frame to child joint frame).
    pub rotations: Vec<DQuat>,
    /// The child body's world angular acceleration at each interior sample (rad/s^2).
    pub accels: Vec<f64>,
    /// The joint's (the child bone origin's) world linear acceleration at each interior
    /// sample (file units/s^2): it swings the subtree as gravity does.
    pub linear: Vec<f64>,
}

/// The rotation vector taking `a` to `b` (world frame, radians).
fn rotvec(a: DQuat, b: DQuat) -> DVec3 {
    let q = b * a.inverse();
    let q = if q.w < 0.0 { -q } else { q };
    let (axis, angle) = q.to_axis_angle();
    if angle.is_finite() {
        axis * angle
    } else {
        DVec3::ZERO
    }
}

/// The demand of every joint of `f` over `clip`.
pub fn demand(f: &Follower, clip: &Clip) -> Vec<JointDemand> {
    let d = clip.duration_s.max(0.0) as f64;
    let n = ((d * SAMPLE_HZ).ceil() as usize).clamp(1, MAX_SAMPLES) + 1;
    let dt = if n > 1 { d / (n - 1) as f64 } else { 0.0 };
    let mut out: Vec<JointDemand> = f
        .joints()
        .iter()
        .map(|j| JointDemand {
            bone: j.bone,
            rotations: Vec::with_capacity(n),
            accels: Vec::new(),
            linear: Vec::new(),
        })
        .collect();
    // World rotation of each joint's child bone at every sample.
    let mut world: Vec<Vec<DQuat>> = vec![Vec::with_capacity(n); out.len()];
    let mut origin: Vec<Vec<DVec3>> = vec![Vec::with_capacity(n); out.len()];
    for i in 0..n {
        let pose = f.bone_pose(clip, (i as f64 * dt) as f32);
        for (k, t) in f.targets(&pose).iter().enumerate() {
            let Some(jd) = out.get_mut(k).filter(|jd| jd.bone == t.bone) else {
                continue;
            };
            jd.rotations.push(t.relative);
        }
        for (k, j) in f.joints().iter().enumerate() {
            let m = pose.get(j.bone.index());
            world[k].push(m.map_or(DQuat::IDENTITY, rotation_of));
            origin[k].push(m.map_or(DVec3::ZERO, |m| m.w_axis.truncate()));
        }
    }
    let h = ACCEL_STRIDE as f64 * dt;
    if h > 0.0 {
        let s = ACCEL_STRIDE;
        for (jd, o) in out.iter_mut().zip(&origin) {
            jd.linear = (s..o.len().saturating_sub(s))
                .map(|i| ((o[i + s] - o[i]) - (o[i] - o[i - s])).length() / (h * h))
                .collect();
        }
        for (jd, w) in out.iter_mut().zip(&world) {
            jd.accels = (ACCEL_STRIDE..w.len().saturating_sub(ACCEL_STRIDE))
                .map(|i| {
                    let before = rotvec(w[i - ACCEL_STRIDE], w[i]) / h;
                    let after = rotvec(w[i], w[i + ACCEL_STRIDE]) / h;
                    (after - before).length() / h
                })
                .collect();
        }
    }
    out
}

/// The `p` quantile (0..1) of `v` (0 when empty).
pub fn quantile(v: &[f64], p: f64) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return 0.0;
    }
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * p.clamp(0.0, 1.0)).round() as usize]
}
