//! Drive gains scaled to what each joint holds, and the balance settings from the roles.
//!
//! A joint holding mass m whose centre lies L from it needs about m*g*L of torque against
//! gravity; the stiffness is [`STIFFNESS_PER_LOAD`] times that per radian, so the pose sags
//! by a few degrees at most; damping is a fraction of critical for the inertia m*L^2; the
//! torque cap is a multiple of the load. Stance joints (the legs) hold the body above them,
//! shared by the legs. Balance gains scale from the tuned 70 kg, 1.75 m mannequin by mass
//! times height (torques), and by the square root of height (time) for damping.

use super::mass::{REFERENCE_HEIGHT_M, REFERENCE_MASS_KG};
use glam::DVec3;

/// Gravity the gains are sized for (m/s^2), the simulation's default.
pub const GRAVITY_M_S2: f64 = 9.81;
/// Stiffness per unit gravity load (N*m/rad per N*m).
pub const STIFFNESS_PER_LOAD: f64 = 12.0;
/// A creature on four legs or more sags where a biped does not: its trunk is a level beam
/// between two pairs of legs, its head and neck held out in front, and ten or more joints
/// from a front foot to the head each give the few degrees [`STIFFNESS_PER_LOAD`] allows,
/// which add up. Measured over 10 s standing (each body's drop, share of the skeleton's
/// height): a Biped-rigged reindeer's chest 30% and head 56%, a Shiba's chest 22%, a Tripo
/// horse's chest 50%, an alpaca's head 17%; with every drive's load taken as this many times
/// (its stiffness and torque cap doubled, its damping still 0.6 of critical): 0%/9%, 3%,
/// -1%, 3%. The zoo's horse, rat and Fox, within 4% either way, stay so.
pub const BEAM_LOAD_FACTOR: f64 = 2.0;
/// Damping as a fraction of critical.
pub const DAMPING_RATIO: f64 = 0.6;
pub use crate::joint::load::TORQUE_PER_LOAD;

/// The bandwidth a drive needs to follow animation (rad/s): motion up to about 3 Hz, the
/// harmonics of a walk or run cycle.
pub const FOLLOW_BANDWIDTH_RAD_S: f64 = 2.0 * std::f64::consts::PI * 3.0;

/// PD gains of one joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gains {
    pub stiffness: f64,
    pub damping: f64,
    pub max_torque: f64,
    /// Multiplier while following a clip: raises the natural frequency of a drive sized for
    /// gravity (sqrt(12 g / L)) to [`FOLLOW_BANDWIDTH_RAD_S`], never below 1.
    pub follow_strength: f64,
    /// What the drive moves (kg*m^2: the subtree about the joint with each body's floor) and
    /// the gravity load it holds (N*m); not written, used to size it from a clip.
    pub inertia: f64,
    pub load: f64,
}

/// The joint friction the generator gives a joint (N*m), as Jolt's `mMaxFrictionTorque`:
/// [`JOINT_FRICTION_SHARE`] of the child subtree's weight times its lever (its centre of mass
/// from the joint, at least 5% of the height). It acts only while the drive is off (a passive
/// rag doll). A limb then stops once gravity's pull on it is under that share of its largest
/// (held out level): it still falls wherever gravity pulls it more than ~3° off its hanging
/// rest, and the slow creep that kept rag dolls from settling stops. A humanoid's stance
/// joints (a leg's thigh, shin, foot) get none: two legs carry the body above them, and any
/// friction there held a balanced standing rag doll up (at a share of 0.02 the mannequin did
/// not fall within its 3 s collapse budget; `tests/it/collapse.rs`). A creature's legs keep
/// theirs: four legs fold anyway, and without it they crept for seconds after the fall
/// (`tests/it/generate/creatures.rs`). The caller decides which joints are `stance`.
pub fn joint_friction_nm(subtree_mass_kg: f64, lever: f64, stance: bool) -> f64 {
    if stance {
        return 0.0;
    }
    JOINT_FRICTION_SHARE * (subtree_mass_kg * GRAVITY_M_S2 * lever).max(0.0)
}

/// The share of a joint's subtree gravity load its friction holds. Measured on the zoo's
/// passive runs (`tests/it/doctor.rs`, characters faster than 1% of their height per second
/// after 5 s; none at 0: 5): 0.015 3, 0.02 2, 0.03 5 (the lumberjack's hand still moving in
/// the last second), 0.04 4, 0.05 2, 0.06 3, 0.08 4 (the horse's head moving in the last
/// second), 0.1 3, 0.2 3 (the spider then no longer collapses within its budget). Every
/// collapse stays within its budget up to 0.1 (times within 0.1 s of none but the rat's, 1.11
/// to 1.37 s at 0.1). The counts move by a few with any change (the runs are chaotic); 0.05
/// is the best measured, with both neighbours in its range no worse than without friction.
pub const JOINT_FRICTION_SHARE: f64 = 0.05;

/// The simulation's default inertia floor for a 1.75 m, 70 kg character (kg*m^2; it scales
/// with size^5): every body it simulates turns at least this heavily, so a drive on a light
/// hand must move that, not the hand's own m*L^2 (`sim::SimSettings::inertia_floor_kg_m2`).
pub const SIM_INERTIA_FLOOR_KG_M2: f64 = 0.02;

/// Gains for a joint holding `mass_kg` at `lever` (file units as metres), that turns the
/// inertia `inertia` (kg*m^2: what it must move, the subtree about the joint with each
/// body's floor; at least `mass_kg * lever^2`). The stiffness holds the load against
/// gravity; the damping and the follow strength are sized on the inertia, so a light distal
/// body on the simulation's inertia floor gets the bandwidth it needs to follow a clip.
pub fn gains(mass_kg: f64, lever: f64, inertia: f64) -> Gains {
    let load = mass_kg * GRAVITY_M_S2 * lever;
    let stiffness = STIFFNESS_PER_LOAD * load;
    let inertia = inertia.max(mass_kg * lever * lever);
    Gains {
        stiffness,
        damping: DAMPING_RATIO * 2.0 * (stiffness * inertia).sqrt(),
        max_torque: TORQUE_PER_LOAD * load,
        follow_strength: follow_strength(stiffness, inertia),
        inertia,
        load,
    }
}

/// The multiplier that raises a drive of `stiffness` on `inertia` to
/// [`FOLLOW_BANDWIDTH_RAD_S`] while it follows a clip (its natural frequency^2 is
/// stiffness / inertia: 12 g / lever for a point mass on the load rule), never below 1.
fn follow_strength(stiffness: f64, inertia: f64) -> f64 {
    let omega2 = if inertia > 0.0 {
        stiffness / inertia
    } else {
        0.0
    };
    if omega2 > 0.0 {
        (FOLLOW_BANDWIDTH_RAD_S * FOLLOW_BANDWIDTH_RAD_S / omega2).max(1.0)
    } else {
        1.0
    }
}

/// `g` made stiff enough to hold `rest_load_nm` (the gravity torque on the joint in the rest
/// pose, [`crate::joint::load::rest_load_nm`]) within
/// [`crate::joint::load::MAX_TRUNK_SAG_RAD`], keeping its damping ratio and its follow
/// bandwidth. The load rule ([`STIFFNESS_PER_LOAD`] times the weight times the whole lever)
/// lets a joint whose load hangs off to the side sag by up to 1/12 rad. An upright trunk
/// sagging backward carries the centre of mass toward the heels: Mixamo's X Bot stands with it
/// 3 cm in front of them, its three spine joints sagged 1.7°, 2.2° and 2.7°, and at assist 0
/// it fell backward at 2.6 s (with those joints twice as stiff it stood).
pub fn holding_rest(g: Gains, rest_load_nm: f64) -> Gains {
    let stiffness = crate::joint::load::stiffness_holding(rest_load_nm);
    // Also when either is NaN: a joint with no measurable load keeps its gains.
    if !stiffness.is_finite()
        || stiffness.partial_cmp(&g.stiffness) != Some(std::cmp::Ordering::Greater)
    {
        return g;
    }
    let scale = stiffness / g.stiffness.max(1e-12);
    Gains {
        stiffness,
        damping: g.damping * scale.sqrt(),
        max_torque: g.max_torque.max(TORQUE_PER_LOAD * rest_load_nm),
        follow_strength: follow_strength(stiffness, g.inertia),
        ..g
    }
}

/// The tracking error a clip-sized drive aims at (radians) for the clip's typical angular
/// acceleration: the drive's natural frequency^2 is that acceleration over this error.
pub const CLIP_TRACKING_RAD: f64 = 1.0 * std::f64::consts::PI / 180.0;
/// The highest natural frequency a clip may ask of a drive (rad/s): 20 Hz, well under the
/// 120 Hz step.
pub const MAX_CLIP_OMEGA_RAD_S: f64 = 2.0 * std::f64::consts::PI * 20.0;
/// The torque cap covers this multiple of the clip's peak demand (inertia times the peak
/// angular acceleration, plus the gravity load).
pub const CLIP_TORQUE_MARGIN: f64 = 1.5;

/// What a clip asks of one joint: the typical (90th percentile) and peak (99th) angular
/// acceleration of the body it turns (rad/s^2) and linear acceleration of the joint (file
/// units/s^2, the units the gravity load is sized in).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ClipDemand {
    pub angular_typical: f64,
    pub angular_peak: f64,
    pub linear_typical: f64,
    pub linear_peak: f64,
}

/// The gains `g` sized from what a clip asks of the joint instead of a fixed bandwidth. The
/// follow strength is the larger of: the natural frequency sqrt(angular / [`CLIP_TRACKING_RAD`])
/// on the drive's inertia, and what holds the joint's own linear acceleration (which swings
/// the subtree as gravity does: the gravity-sized stiffness sags 1/12 rad per g) to the same
/// error; never below 1. The torque cap while following covers the peak demand: inertia times
/// the peak angular acceleration plus the load at 1 g plus the peak linear acceleration.
pub fn from_clip(g: Gains, d: ClipDemand) -> Gains {
    let omega2 = (d.angular_typical / CLIP_TRACKING_RAD).min(MAX_CLIP_OMEGA_RAD_S.powi(2));
    let angular = if g.stiffness > 0.0 {
        omega2 * g.inertia / g.stiffness
    } else {
        0.0
    };
    let linear = d.linear_typical / (STIFFNESS_PER_LOAD * GRAVITY_M_S2 * CLIP_TRACKING_RAD);
    let cap = MAX_CLIP_OMEGA_RAD_S.powi(2) * g.inertia / g.stiffness.max(1e-12);
    let follow_strength = angular.max(linear.min(cap)).max(1.0);
    let peak = CLIP_TORQUE_MARGIN
        * (g.inertia * d.angular_peak + g.load * (1.0 + d.linear_peak / GRAVITY_M_S2));
    Gains {
        follow_strength,
        max_torque: g.max_torque.max(peak / follow_strength),
        ..g
    }
}

/// The inertia body `k`'s joint turns (kg*m^2): each body of its subtree as a point mass at
/// its centre about `joint`, plus the simulation's inertia floor per body.
pub(super) fn subtree_inertia(list: &[super::Body], k: usize, joint: DVec3, floor: f64) -> f64 {
    // Bounded: parents come from a tree, but never trust a count.
    let in_subtree = |i: usize| {
        std::iter::successors(Some(i), |&p| list[p].parent)
            .take(list.len())
            .any(|p| p == k)
    };
    (0..list.len())
        .filter(|&i| in_subtree(i))
        .map(|i| list[i].mass_kg * list[i].shape.fit.center.distance_squared(joint) + floor)
        .sum()
}

/// The balance controller's gains for a character of this mass and height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BalanceGains {
    pub upright_kp: f64,
    pub upright_kd: f64,
    pub upright_max_torque: f64,
    pub ankle_kp: f64,
    pub ankle_kd: f64,
    pub ankle_max_torque: f64,
}

/// A character standing on more legs than this gets no ankle counter-torque.
pub const MAX_ANKLE_STRATEGY_LEGS: usize = 4;

/// The mannequin's tuned balance gains scaled to `mass_kg` and `height` (torques with mass
/// times height, time with the square root of height: under a uniform scale s at the same
/// density, kp goes with s^4 and kd with s^4.5, the lean's natural frequency with s^-1/2).
/// A character on more than [`MAX_ANKLE_STRATEGY_LEGS`] legs stands on a wide polygon of
/// feet and gets no ankle counter-torque: split over eight light feet as an explicit torque
/// per step, it only shook them (the spider leaned 2.3° with it and 0.75° without; at 0.01
/// scale, where the feet respond ten times faster per step, 35° against 0.8°).
pub fn balance_gains(mass_kg: f64, height: f64, legs: usize) -> BalanceGains {
    let torque = (mass_kg / REFERENCE_MASS_KG) * (height / REFERENCE_HEIGHT_M);
    let time = (height / REFERENCE_HEIGHT_M).sqrt();
    let ankle = if legs > MAX_ANKLE_STRATEGY_LEGS {
        0.0
    } else {
        1.0
    };
    BalanceGains {
        upright_kp: 3000.0 * torque,
        upright_kd: 300.0 * torque * time,
        upright_max_torque: 1000.0 * torque,
        ankle_kp: 300.0 * torque * ankle,
        ankle_kd: 60.0 * torque * time * ankle,
        ankle_max_torque: 150.0 * torque * ankle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_grow_with_load() {
        let a = gains(10.0, 0.5, 0.0);
        let b = gains(20.0, 0.5, 0.0);
        assert!((b.stiffness / a.stiffness - 2.0).abs() < 1e-9);
        let g = balance_gains(REFERENCE_MASS_KG, REFERENCE_HEIGHT_M, 2);
        assert!((g.upright_kp - 3000.0).abs() < 1e-9);
    }
}
