//! The balance strategies the search can turn on or scale, each a mapping from one search
//! parameter (x, on the log scale of [`super::params`]) to the document's keys: the hip
//! strategy ([`HipBase`]), stepping ([`StepBase`]) and the legs' torque cap ([`LegCapBase`]),
//! sized by the character's weight and radius of gyration ([`BodyScale`]) where they need a
//! size. [`super::params`] says when each is searched.

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

/// The legs' torque cap the search turns on at x = [`LEG_CAP_AT`], as a share of the
/// character's weight times its radius of gyration about the ground (the gravity torque of
/// the whole body held level about its feet). Measured with `simulate --push`, assist 0, the
/// legs capped and nothing else changed: the generated lumberjack (lever 387 N·m) falls at
/// 1.5 m/s from 8 of 8 directions at 24 N·m (6.2%) and 5 at 31 N·m (8%), surviving 0.5 m/s
/// from all 8; the KayKit mannequin (1215 N·m) from 6 of 8 at 79-95 N·m (6.5-7.8%), its
/// sideways pushes held by its wide stance.
pub const LEG_CAP_ON: f64 = 0.065;
/// Where in the "on" half the cap is [`LEG_CAP_ON`] × the lever. The "on" half spans 0.35 ×
/// the lever (x → 0) to 0.017 × (x = 1.5): where the large push fells and the small one does
/// not differs fourfold between characters, by how far their legs bend under their weight
/// (the lumberjack and the KayKit mannequin at 6-8% of the lever; the generated Godot robot,
/// whose legs stand bent, at 200-400 N·m, 16-33%: below it a 0.5 m/s forward push fells it,
/// and the range before session 29 stopped at 12%). The probes ([`LEG_CAP_PROBE_SHARES`])
/// start the search at whichever share suits the character.
pub const LEG_CAP_AT: f64 = 0.84;
/// How fast the cap falls with x (log units per unit of x).
pub const LEG_CAP_SLOPE: f64 = 2.0;
/// The caps the search's leg probes try, as shares of the lever (the document with only the
/// cap on, scored before the search like the stepping probes): [`LEG_CAP_ON`] and two and
/// four times it.
pub const LEG_CAP_PROBE_SHARES: [f64; 3] = [LEG_CAP_ON, 2.0 * LEG_CAP_ON, 4.0 * LEG_CAP_ON];

/// What the torque caps the search turns on are sized by: the character's weight (N) and
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

/// The legs' torque cap: off in the document, and what it is sized by when the search
/// turns it on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegCapBase {
    /// Weight × radius of gyration about the ground (N·m).
    pub lever_n_m: f64,
}

impl LegCapBase {
    /// The cap (N·m) for parameter x, already clamped; None (the document's limits) at x ≤ 0.
    pub fn cap_n_m(&self, x: f64) -> Option<f64> {
        (x > 0.0).then(|| self.lever_n_m * LEG_CAP_ON * (-LEG_CAP_SLOPE * (x - LEG_CAP_AT)).exp())
    }

    /// The parameter at which the cap is `share` × the lever (None outside the "on" half).
    pub fn x_for_share(share: f64) -> Option<f64> {
        let x = LEG_CAP_AT - (share / LEG_CAP_ON).ln() / LEG_CAP_SLOPE;
        (x > 0.0 && x <= MAX_LOG_FACTOR).then_some(x)
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

    #[test]
    fn the_legs_cap_stays_off_at_x_le_0_and_falls_with_x() {
        let c = LegCapBase { lever_n_m: 400.0 };
        assert_eq!(c.cap_n_m(0.0), None);
        assert_eq!(c.cap_n_m(-1.0), None);
        let on = c.cap_n_m(LEG_CAP_AT).unwrap();
        assert!((on - 400.0 * LEG_CAP_ON).abs() < 1e-9, "{on}");
        let (lo, hi) = (c.cap_n_m(MAX_LOG_FACTOR).unwrap(), c.cap_n_m(1e-9).unwrap());
        assert!(lo < on && on < hi, "{lo} {on} {hi}");
        assert!((hi / on - (LEG_CAP_SLOPE * LEG_CAP_AT).exp()).abs() < 1e-6);
    }
}
