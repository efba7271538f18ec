//! The status bar's steps per second: simulation steps over wall time while it runs.
//!
//! The figure is there from the second measurement on (a frame or two after Play, or after a
//! `--sim-seconds` fast-forward), not only once a full second has passed, and it keeps its
//! last value while the simulation is paused.

use std::time::{Duration, Instant};

/// Longest window the rate is averaged over.
const WINDOW: Duration = Duration::from_secs(1);
/// A shorter stretch than this gives too noisy a figure to show, unless it holds at least
/// [`MIN_STEPS`] steps (a fast-forward runs many steps in a few milliseconds).
const MIN_SPAN: Duration = Duration::from_millis(20);
const MIN_STEPS: u64 = 50;
/// A gap this long between two measurements is a pause: the window starts again.
const PAUSE_GAP: Duration = Duration::from_millis(500);

/// A sliding-window rate of the step counter.
#[derive(Debug, Clone, Default)]
pub struct StepRate {
    /// (when, step count) at the start of the current window.
    start: Option<(Instant, u64)>,
    /// The last (when, step count) recorded.
    last: Option<(Instant, u64)>,
    /// The last rate measured.
    value: Option<f64>,
}

impl StepRate {
    /// Records the step counter after the simulation moved.
    pub fn record(&mut self, steps: u64, now: Instant) {
        let restart = match (self.start, self.last) {
            (Some((_, s0)), Some((t, s))) => {
                steps < s0 || (now.duration_since(t) > PAUSE_GAP && steps == s)
            }
            _ => true,
        };
        if restart {
            self.start = Some((now, steps));
            self.last = Some((now, steps));
            return;
        }
        self.last = Some((now, steps));
        let Some((t0, s0)) = self.start else { return };
        let span = now.duration_since(t0);
        if steps > s0 && (span >= MIN_SPAN || steps - s0 >= MIN_STEPS) && !span.is_zero() {
            self.value = Some((steps - s0) as f64 / span.as_secs_f64());
        }
        if span >= WINDOW {
            self.start = Some((now, steps));
        }
    }

    /// Steps per second, once measured.
    pub fn per_second(&self) -> Option<f64> {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 120 steps per second of wall time read as 120 after two frames, long before a full
    /// second has passed; a pause keeps the figure; a later run at another rate shows that
    /// rate, not an average over the pause.
    #[test]
    fn rate_is_known_after_two_frames_and_survives_a_pause() {
        let t = Instant::now();
        let ms = |m: u64| t + Duration::from_millis(m);
        let mut r = StepRate::default();
        r.record(0, ms(0));
        assert_eq!(r.per_second(), None);
        r.record(2, ms(16));
        assert_eq!(r.per_second(), None, "16 ms is too short to say");
        r.record(4, ms(33));
        let v = r.per_second().expect("known after two frames");
        assert!((v - 4.0 / 0.033).abs() < 1.0, "{v}");
        for f in 3..100u64 {
            r.record(2 * f, ms(f * 50 / 3));
        }
        let v = r.per_second().expect("steady");
        assert!((v - 120.0).abs() < 2.0, "{v}");
        // Paused for 5 s: the figure stays; stepping again at 60 per second shows 60.
        let resume = 99 * 50 / 3 + 5000;
        r.record(198, ms(resume));
        assert!((r.per_second().expect("kept") - 120.0).abs() < 2.0);
        for k in 1..30u64 {
            r.record(198 + k, ms(resume + k * 50 / 3));
        }
        let v = r.per_second().expect("after the pause");
        assert!((v - 60.0).abs() < 3.0, "{v}");
    }
}
