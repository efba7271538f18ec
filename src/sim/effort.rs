//! Corrective torque, measured from the solver after each step: the external assist (the
//! upright controller's torque from its world anchor, which has no reaction on the ground),
//! the ankle counter-torque and the drives' joint torques.
//!
//! A motor's torque is its impulse over the last substep divided by the substep's length
//! (dt / substeps). Rapier writes a motor row's impulse to `GenericJoint::motors[axis].impulse`
//! (its `impulses` array holds only the locked axes, and the upright joint locks none: its
//! `impulses[3..6]` stay 0). Magnitudes are the length of the torque vector over the motor
//! axes (the upright joint's two tilt axes; a drive's one to three axes).

use super::balance::BalanceRig;
use super::joints::JointRec;
use rapier3d::prelude::*;

/// Whole-run corrective effort of one ragdoll.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Effort {
    /// Largest assist torque (N·m).
    pub assist_peak_n_m: f32,
    /// ∫|τ_assist| dt (N·m·s).
    pub assist_impulse_n_m_s: f64,
    /// ∫|τ_ankle| dt (N·m·s).
    pub ankle_impulse_n_m_s: f64,
    /// Σ over the drives of ∫|τ_drive| dt (N·m·s).
    pub drive_impulse_n_m_s: f64,
}

/// The corrective torques of one step (N·m).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EffortSample {
    /// NaN when there is no upright joint (not measured).
    pub assist_n_m: f32,
    pub ankle_n_m: f32,
    /// Sum of the drives' torque magnitudes.
    pub drives_n_m: f32,
}

impl Effort {
    pub fn add(&mut self, s: EffortSample, dt_s: f32) {
        let dt = dt_s as f64;
        if s.assist_n_m.is_finite() {
            self.assist_peak_n_m = self.assist_peak_n_m.max(s.assist_n_m);
            self.assist_impulse_n_m_s += s.assist_n_m as f64 * dt;
        }
        self.ankle_impulse_n_m_s += s.ankle_n_m as f64 * dt;
        self.drive_impulse_n_m_s += s.drives_n_m as f64 * dt;
    }

    /// The assist's share of all corrective torque (∫|τ| dt), 0..1; None when there was none
    /// at all (a passive run): a share of nothing is not 0.
    pub fn assist_share(&self) -> Option<f64> {
        let total = self.assist_impulse_n_m_s + self.ankle_impulse_n_m_s + self.drive_impulse_n_m_s;
        (total > 0.0).then(|| self.assist_impulse_n_m_s / total)
    }
}

/// |τ| of a joint's motors on `axes` over the last substep.
fn motor_torque(joint: Option<&ImpulseJoint>, axes: std::ops::Range<usize>, dt_sub: f32) -> f32 {
    let Some(j) = joint else { return 0.0 };
    let sq: f32 = j.data.motors[axes]
        .iter()
        .map(|m| m.impulse * m.impulse)
        .sum();
    sq.sqrt() / dt_sub
}

/// The upright controller's torque now (N·m): 0 while its joint is off, NaN without one.
pub(crate) fn assist_torque(world: &PhysicsWorld, rig: &BalanceRig, dt_sub: f32) -> f32 {
    match rig.upright {
        None => f32::NAN,
        Some(_) if !rig.upright_enabled => 0.0,
        // AngY and AngZ: the two tilt axes (yaw is free).
        Some(h) => motor_torque(world.impulse_joints.get(h), 4..6, dt_sub),
    }
}

/// This step's corrective torques.
pub(crate) fn sample(
    world: &PhysicsWorld,
    rig: &BalanceRig,
    joints: &[JointRec],
    dt_sub: f32,
) -> EffortSample {
    let drives_n_m = joints
        .iter()
        .filter(|j| j.motor_gains.is_some())
        .map(|j| motor_torque(world.impulse_joints.get(j.motor_handle()), 3..6, dt_sub))
        .sum();
    EffortSample {
        assist_n_m: assist_torque(world, rig, dt_sub),
        ankle_n_m: rig.applied_torque.length(),
        drives_n_m,
    }
}
