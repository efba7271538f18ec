//! Telemetry: per joint and whole-body samples every step, in bounded ring buffers that are
//! allocated once (no allocation per step), running statistics over the whole run, and CSV.

use crate::joint::JointLimits;
use glam::Quat;
use std::io::Write;

/// One joint at one step. Angles in degrees, relative to the rest pose (the error: to the drive
/// target, the rest pose or an animation clip's pose), all
/// from the shared joint math ([`crate::joint`]).
///
/// For a ball socket `swing_deg` is the tilt of the bone's primary axis, `azimuth_deg` its
/// direction (from +Y toward +Z of the joint frame) and `twist_deg` the rotation about it. For
/// a hinge `twist_deg` is the hinge angle and `swing_deg` how far the hinge bends off its axis.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct JointSample {
    /// Angle of the rotation between the current and the target pose.
    pub error_deg: f32,
    pub swing_deg: f32,
    pub azimuth_deg: f32,
    pub twist_deg: f32,
    /// How much of the limit range is in use, 0..=100.
    pub limit_use_pct: f32,
    /// How far past its limits the joint is (for a hinge, also its off-axis bend); 0 inside.
    pub violation_deg: f32,
}

/// The whole body at one step.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BodySample {
    pub step: u64,
    pub time_s: f64,
    /// Angle between the balance torso bone's rest-up direction and world up.
    pub torso_tilt_deg: f32,
    /// Height of the centre of mass above the ground plane (m).
    pub com_height_m: f32,
    /// Pelvis height over its rest height.
    pub pelvis_height_ratio: f32,
    /// Bit i set: foot i of the balance settings has an active contact with the ground.
    pub grounded_feet: u32,
    /// The upright controller's torque from its world anchor (N·m); NaN without an upright
    /// joint (not measured), 0 while it is off.
    pub assist_torque_n_m: f32,
}

/// Fixed-capacity ring of frames, each `width` values wide, allocated once.
#[derive(Debug, Clone)]
pub struct FrameRing<T> {
    width: usize,
    capacity: usize,
    data: Vec<T>,
    head: usize,
    len: usize,
}

impl<T: Copy + Default> FrameRing<T> {
    pub fn new(width: usize, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Self {
            width,
            capacity,
            data: vec![T::default(); width * capacity],
            head: 0,
            len: 0,
        }
    }

    /// The slot for the next frame (overwriting the oldest when full).
    pub fn push_frame(&mut self) -> &mut [T] {
        let start = self.head * self.width;
        self.head = (self.head + 1) % self.capacity;
        self.len = (self.len + 1).min(self.capacity);
        &mut self.data[start..start + self.width]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Frame `i`, 0 = oldest kept.
    pub fn frame(&self, i: usize) -> Option<&[T]> {
        if i >= self.len {
            return None;
        }
        let slot = (self.head + self.capacity - self.len + i) % self.capacity;
        Some(&self.data[slot * self.width..(slot + 1) * self.width])
    }

    /// The newest frame.
    pub fn latest(&self) -> Option<&[T]> {
        self.len.checked_sub(1).and_then(|i| self.frame(i))
    }

    /// Frames oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &[T]> + '_ {
        (0..self.len).filter_map(move |i| self.frame(i))
    }
}

/// Whole-run statistics of one joint.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct JointStats {
    pub samples: u64,
    pub sum_sq_error_deg2: f64,
    pub max_error_deg: f32,
    pub max_violation_deg: f32,
    /// Hinges: the largest off-axis bend.
    pub max_off_axis_deg: f32,
    pub max_violation_time_s: f64,
}

impl JointStats {
    pub fn rms_error_deg(&self) -> f32 {
        if self.samples == 0 {
            0.0
        } else {
            (self.sum_sq_error_deg2 / self.samples as f64).sqrt() as f32
        }
    }
}

/// Telemetry of one ragdoll.
#[derive(Debug, Clone)]
pub struct Telemetry {
    pub joint_names: Vec<String>,
    pub foot_names: Vec<String>,
    pub joints: FrameRing<JointSample>,
    pub body: FrameRing<BodySample>,
    pub joint_stats: Vec<JointStats>,
    pub max_torso_tilt_deg: f32,
    pub min_pelvis_height_ratio: f32,
    /// Whole-run corrective effort: the external assist, the ankle torque and the drives.
    pub effort: super::effort::Effort,
}

impl Telemetry {
    pub fn new(joint_names: Vec<String>, foot_names: Vec<String>, capacity: usize) -> Self {
        let n = joint_names.len();
        Self {
            joints: FrameRing::new(n, capacity),
            body: FrameRing::new(1, capacity),
            joint_stats: vec![JointStats::default(); n],
            joint_names,
            foot_names,
            max_torso_tilt_deg: 0.0,
            min_pelvis_height_ratio: f32::INFINITY,
            effort: Default::default(),
        }
    }

    /// Statistics reset (buffers kept), e.g. after a warm-up.
    pub fn reset_stats(&mut self) {
        self.joint_stats
            .iter_mut()
            .for_each(|s| *s = JointStats::default());
        self.max_torso_tilt_deg = 0.0;
        self.min_pelvis_height_ratio = f32::INFINITY;
        self.effort = Default::default();
    }

    pub fn record_body(&mut self, s: BodySample) {
        self.max_torso_tilt_deg = self.max_torso_tilt_deg.max(s.torso_tilt_deg);
        self.min_pelvis_height_ratio = self.min_pelvis_height_ratio.min(s.pelvis_height_ratio);
        self.body.push_frame()[0] = s;
    }

    /// Writes every kept frame as CSV: one row per step, body columns then 6 per joint.
    pub fn write_csv(&self, mut w: impl Write) -> std::io::Result<()> {
        write!(
            w,
            "step,time_s,torso_tilt_deg,com_height_m,pelvis_height_ratio"
        )?;
        for f in &self.foot_names {
            write!(w, ",{f}.grounded")?;
        }
        for j in &self.joint_names {
            write!(
                w,
                ",{j}.error_deg,{j}.swing_deg,{j}.azimuth_deg,{j}.twist_deg,{j}.limit_use_pct,{j}.violation_deg"
            )?;
        }
        writeln!(w)?;
        for (b, js) in self.body.iter().zip(self.joints.iter()) {
            let b = b[0];
            write!(
                w,
                "{},{:.6},{},{},{}",
                b.step, b.time_s, b.torso_tilt_deg, b.com_height_m, b.pelvis_height_ratio
            )?;
            for i in 0..self.foot_names.len() {
                write!(w, ",{}", (b.grounded_feet >> i) & 1)?;
            }
            for s in js {
                write!(
                    w,
                    ",{},{},{},{},{},{}",
                    s.error_deg,
                    s.swing_deg,
                    s.azimuth_deg,
                    s.twist_deg,
                    s.limit_use_pct,
                    s.violation_deg
                )?;
            }
            writeln!(w)?;
        }
        Ok(())
    }
}

/// Measures one joint from the relative rotation `q` = (parent frame)^-1 * (child frame),
/// with the shared joint math; the error is to `target` (the rest pose when None). Returns
/// the sample and, for a hinge, its off-axis bend (deg).
pub(crate) fn measure_joint(
    q: Quat,
    target: Option<Quat>,
    limits: &JointLimits,
) -> (JointSample, f32) {
    let target = target.map_or(glam::DQuat::IDENTITY, |t| t.as_dquat());
    let m = limits.measure_to(q.as_dquat(), target);
    let deg = |r: f64| r.to_degrees() as f32;
    let s = JointSample {
        error_deg: deg(m.error_rad),
        swing_deg: deg(m.tilt_rad),
        azimuth_deg: deg(m.azimuth_rad),
        twist_deg: deg(m.twist_rad),
        limit_use_pct: (m.limit_use * 100.0) as f32,
        violation_deg: deg(m.violation_rad),
    };
    let off_axis = match limits {
        JointLimits::Hinge { .. } => s.swing_deg,
        JointLimits::Ball { .. } => 0.0,
    };
    (s, off_axis)
}
