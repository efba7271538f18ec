//! The balance strategies the search can turn on or scale, each a mapping from one search
//! parameter (x, on the log scale of [`super::params`]) to the document's keys: the hip
//! strategy ([`HipBase`]) and stepping ([`StepBase`]), the hip strategy sized by the
//! character's weight and radius of gyration ([`BodyScale`]). [`super::params`] says when each is searched.

use super::params::MAX_LOG_FACTOR;
use crate::document::Document;
use crate::joint;

/// The hip strategy's gain the search turns it on at, per newton of the character's weight
/// (N·m per metre of capture-point error, per N): a 5 cm error asks for its weight × 1 m.
pub const HIP_KP_PER_WEIGHT: f64 = 20.0;
/// Standard gravity for sizing the hip strategy's gains (m/s²).
const G_M_S2: f64 = 9.81;

/// The stepping strategy's gain the search turns it on at, in the middle of the "on" half
/// (x = 0.75): the swing foot lands 1.5 × as far out as the capture point. A dimensionless
/// ratio of the character's own capture point, so it needs no sizing.
pub const STEP_GAIN_ON: f64 = 1.5;
/// Where in the "on" half the stepping gain is [`STEP_GAIN_ON`].
const STEP_ON_AT: f64 = 0.75;

/// The stepping gains of the search's stepping probes ([`Baseline::probes`]): the swing
/// foot landing at the capture point (1), and one search step (about e^-0.25) short of it,
/// since a fall goal asks for weaker stepping. On the generated UBC superhero at assist 0
/// (`simulate --push`, 8 directions): gain 1.0 survives 0.5 m/s from all 8 and falls at
/// 1.5 m/s from 5; 0.8 survives all 8 and falls from 6; 0.6 falls at 0.5 m/s backward.
pub const STEP_PROBE_GAINS: [f64; 2] = [1.0, 0.78];

/// What the hip strategy's gains are sized by: the character's weight (N) and
/// its radius of gyration about the ground (m).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct BodyScale {
    weight_n: f64,
    gyration_m: f64,
}

impl BodyScale {
    pub(super) fn of(doc: &Document) -> Option<Self> {
        let m = super::probe::total_mass_kg(doc);
        let i = joint::whole_body_about_ground(doc)?;
        let weight_n = m * G_M_S2;
        (weight_n > 0.0).then(|| Self {
            weight_n,
            gyration_m: (i / m).sqrt(),
        })
    }

    /// Weight × radius of gyration (N·m).
    pub(super) fn lever_n_m(&self) -> f64 {
        self.weight_n * self.gyration_m
    }
}

/// The stepping strategy's gain in the document (0: off).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepBase {
    pub gain: f64,
}

impl StepBase {
    pub(super) fn of(doc: &Document) -> Option<Self> {
        let b = &doc.balance;
        b.enabled.then_some(Self { gain: b.step_gain })
    }

    /// The parameter at which the stepping strategy comes on at `gain` when the document
    /// has it off (None when the document already steps: the search starts from its gain).
    pub(super) fn x_for(&self, gain: f64) -> Option<f64> {
        (self.gain <= 0.0 && gain > 0.0).then(|| STEP_ON_AT + (gain / STEP_GAIN_ON).ln())
    }

    /// `step_gain` for parameter x, already clamped.
    pub(super) fn gain(&self, x: f64) -> f64 {
        match (self.gain > 0.0, x > 0.0) {
            (true, _) => self.gain * x.exp(),
            (false, false) => 0.0,
            (false, true) => STEP_GAIN_ON * (x - STEP_ON_AT).exp(),
        }
    }
}

/// The hip strategy's gains in the document, and where the search turns it on when it is off.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HipBase {
    /// The document's `hip_kp` (N·m/m) and `hip_max_torque` (N·m).
    pub kp: f64,
    pub max_torque: f64,
    /// When the document has it off: the gain at x = 0.75 (the middle of the "on" half) and
    /// the torque limit at x = 0 — the weight times [`HIP_KP_PER_WEIGHT`], and the weight
    /// times the body's radius of gyration about the ground.
    pub kp_on: f64,
    pub max_torque_on: f64,
}

impl HipBase {
    pub(super) fn of(doc: &Document) -> Option<Self> {
        let b = &doc.balance;
        let s = BodyScale::of(doc)?;
        b.enabled.then(|| Self {
            kp: b.hip_kp,
            max_torque: b.hip_max_torque,
            kp_on: s.weight_n * HIP_KP_PER_WEIGHT,
            max_torque_on: s.lever_n_m(),
        })
    }

    /// (hip_kp, hip_max_torque) for parameters (xk, xc), already clamped.
    pub(super) fn gains(&self, (xk, xc): (f64, f64)) -> (f64, f64) {
        if self.kp > 0.0 {
            return (self.kp * xk.exp(), self.max_torque * xc.exp());
        }
        if xk <= 0.0 {
            return (0.0, self.max_torque);
        }
        let kp = self.kp_on * (2.0 * xk - MAX_LOG_FACTOR).exp();
        (kp, self.max_torque_on * xc.exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_stays_off_at_x_le_0_and_comes_on_in_the_searched_range() {
        let off = StepBase { gain: 0.0 };
        assert_eq!(off.gain(0.0), 0.0);
        assert_eq!(off.gain(-1.0), 0.0);
        assert!((off.gain(0.75) - STEP_GAIN_ON).abs() < 1e-12);
        let lo = off.gain(1e-9);
        let hi = off.gain(MAX_LOG_FACTOR);
        assert!(lo > 0.7 && lo < 0.72 && hi > 3.1 && hi < 3.2, "{lo} {hi}");
        let on = StepBase { gain: 2.0 };
        assert_eq!(on.gain(0.0), 2.0);
        assert!((on.gain(-0.5) - 2.0 * (-0.5f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn the_stepping_probes_turn_stepping_on_at_their_gains_and_only_when_off() {
        let off = StepBase { gain: 0.0 };
        for g in STEP_PROBE_GAINS {
            let x = off.x_for(g).unwrap();
            assert!(x > 0.0 && x <= MAX_LOG_FACTOR, "{x}");
            assert!((off.gain(x) - g).abs() < 1e-12, "{g}");
        }
        assert_eq!(StepBase { gain: 0.9 }.x_for(1.0), None);
    }
}
