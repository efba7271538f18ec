//! The goals a tuned (or untuned) character still misses, as a person reads them: the CLI
//! warns of them and writes them to its JSON, the editor's dialog lists them. A goal whose
//! figures were not measured is not called missed.

use super::eval::MAX_VIOLATION_DEG;
use super::{Figures, Goals};

/// A clip joint's RMS tracking error the clip goal allows (degrees).
pub const MAX_CLIP_RMS_DEG: f64 = 10.0;

impl Figures {
    /// Each goal of `goals` these figures miss, in words (empty when all are met).
    pub fn unmet(&self, goals: &Goals) -> Vec<String> {
        let mut out = Vec::new();
        if self.stands_10s == Some(false) {
            out.push("does not stand 10 s".to_string());
        }
        let count = |f: fn(&super::report::DirectionFigures) -> Option<bool>| {
            let measured: Vec<bool> = self.directions.iter().filter_map(f).collect();
            (measured.iter().filter(|&&m| m).count(), measured.len())
        };
        if let Some(dv) = goals.survive_dv_m_s {
            let (k, n) = count(|d| d.survives_goal);
            if k < n {
                out.push(format!("survives {dv:.2} m/s from {k} of {n} directions"));
            }
        }
        if let Some(dv) = goals.fall_dv_m_s {
            let (k, n) = count(|d| d.falls_at_goal);
            if k < n {
                out.push(format!("falls at {dv:.2} m/s from {k} of {n} directions"));
            }
        }
        let violation = self.max_limit_violation_deg;
        if violation > f64::from(MAX_VIOLATION_DEG) {
            out.push(format!(
                "a limit is violated by {violation:.1} deg (at most {MAX_VIOLATION_DEG} allowed)"
            ));
        }
        if let Some(rms) = self.clip_max_rms_deg.filter(|&r| r > MAX_CLIP_RMS_DEG) {
            out.push(format!(
                "a joint follows the clip at {rms:.1} deg RMS (at most {MAX_CLIP_RMS_DEG} allowed)"
            ));
        }
        out
    }
}
