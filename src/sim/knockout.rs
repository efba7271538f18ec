//! Knock-out: an impact past the document's `balance.knockout_dv` lets the balance go and the
//! drives go limp, so a character takes a shove and falls when hit hard (PuppetMaster's
//! puppet loses its pins and muscle strength on a hard collision; Euphoria's characters go
//! limp past a threshold).
//!
//! An impact is read from the body, never from who pushed it: the whole body's horizontal
//! velocity (across gravity) against the velocity it has kept over the last moment
//! ([`WINDOW_S`], a low-pass), so a push applied in one step reads its full speed change,
//! while what the feet's friction and the balance do to the centre of mass (accelerations
//! of a few m/s², a few cm/s over the moment) stays far below any threshold a designer sets.
//! Watched while the character stands: a body that has fallen is no longer knocked out by
//! the ground it lands on.

use glam::Vec3;

/// How long the body's kept velocity takes to follow a change (s, a person's time; times the
/// character's natural time scale). A hit spread over a few steps (a car, not an impulse)
/// still reads most of its speed change; a steady deceleration `a` reads `a` times this.
pub const WINDOW_S: f32 = 0.05;

/// The lowest line a person's size keeps clear of its own standing (m/s). Measured
/// (`simulate --json`'s `peak_impact_dv_m_s`, 10 s standing, generated): the zoo's 13 read at
/// most 0.26 m/s at their own sizes (the snake settling; the spider 0.18, the rat 0.13, its
/// humanoids under 0.04).
pub const KNOCKOUT_FLOOR_M_S: f64 = 0.3;

/// The lowest knock-out line (m/s) clear of the standing of a character `size` times a
/// person's ([`crate::sim::SimSettings::length_unit`]): a character's own speeds grow with
/// the square root of its size (the zoo rat ×100 reads 1.35 units/s settling).
pub fn knockout_floor_m_s(size: f64) -> f64 {
    KNOCKOUT_FLOOR_M_S * size.max(0.0).sqrt()
}

/// What the knock-out watch has seen of one ragdoll.
#[derive(Debug, Clone, Default)]
pub(crate) struct KnockWatch {
    /// The horizontal centre-of-mass velocity the body has kept over the last moment (world
    /// units/s); None before the first reading.
    kept: Option<Vec3>,
    /// The largest sudden horizontal speed change read so far (world units/s).
    pub peak_dv: f32,
    /// When the character was knocked out (s).
    pub knocked_at_s: Option<f64>,
    /// Whether its drives have been let go (done by the ragdoll's next control pass).
    pub limp: bool,
}

/// One reading: the body's state after a step and the document's threshold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    /// The whole body's centre-of-mass velocity (world units/s).
    pub vcom: Vec3,
    /// Gravity (world units/s²): "horizontal" is across it (world XZ without gravity).
    pub gravity: Vec3,
    /// Seconds since the last reading.
    pub dt_s: f32,
    /// The moment's length ([`WINDOW_S`] times the natural time scale), s.
    pub window_s: f32,
    /// `knockout_dv` (world units/s; 0: never).
    pub threshold: f32,
    pub time_s: f64,
}

impl KnockWatch {
    /// Folds in one reading; knocks the character out when the speed change passes a
    /// positive threshold.
    pub fn read(&mut self, r: Reading) {
        let up = (-r.gravity).try_normalize().unwrap_or(Vec3::Y);
        let v = r.vcom - up * r.vcom.dot(up);
        if !v.is_finite() {
            return;
        }
        let kept = *self.kept.get_or_insert(v);
        let dv = (v - kept).length();
        self.peak_dv = self.peak_dv.max(dv);
        if r.threshold > 0.0 && dv > r.threshold && self.knocked_at_s.is_none() {
            self.knocked_at_s = Some(r.time_s);
        }
        let follow = (r.dt_s / r.window_s.max(1e-6)).clamp(0.0, 1.0);
        self.kept = Some(kept + (v - kept) * follow);
    }

    pub fn knocked_out(&self) -> bool {
        self.knocked_at_s.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(vcom: Vec3, threshold: f32, time_s: f64) -> Reading {
        Reading {
            vcom,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            dt_s: 1.0 / 120.0,
            window_s: WINDOW_S,
            threshold,
            time_s,
        }
    }

    #[test]
    fn a_sudden_change_knocks_out_and_a_steady_one_does_not() {
        let mut w = KnockWatch::default();
        // Decelerating at 5 m/s² from 1 m/s, falling at 3 m/s: never past 0.5 m/s.
        for k in 0..24 {
            let v = 1.0 - 5.0 * k as f32 / 120.0;
            w.read(reading(Vec3::new(v, -3.0, 0.0), 0.5, k as f64 / 120.0));
        }
        assert!(!w.knocked_out(), "{w:?}");
        assert!(w.peak_dv < 0.3, "{w:?}");
        // A push of 0.8 m/s across: knocked out at once, its peak the push.
        w.read(reading(Vec3::new(0.8, 0.0, 0.8), 0.5, 0.2));
        assert_eq!(w.knocked_at_s, Some(0.2));
        assert!(w.peak_dv > 0.7, "{w:?}");
    }

    #[test]
    fn a_zero_threshold_measures_but_never_knocks_out() {
        let mut w = KnockWatch::default();
        w.read(reading(Vec3::ZERO, 0.0, 0.0));
        w.read(reading(Vec3::new(5.0, 0.0, 0.0), 0.0, 0.01));
        assert!(!w.knocked_out());
        assert!((w.peak_dv - 5.0).abs() < 1e-5);
    }
}
