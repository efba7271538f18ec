//! The plot buffers of a run: the telemetry rings copied as the world steps, kept as long as
//! the recording, and turned into plot series (a compared run's as an overlay).

use super::{LiveSim, RECORD_SECONDS};
use crate::app::plot::{PlotKind, Series};
use crate::document::{ConstraintKind, Document};
use crate::sim::Telemetry;

/// Plot buffers rebuilt from the telemetry rings when the simulation moved; they keep what
/// the recording keeps, so a scrubbed or compared run plots whole.
#[derive(Default, Clone)]
pub(super) struct PlotData {
    pub(super) times: Vec<f64>,
    pub(super) joint_error: Vec<Vec<f64>>,
    pub(super) joint_names: Vec<String>,
    pub(super) joint_limit_deg: Vec<Option<f64>>,
    pub(super) tilt: Vec<f64>,
    pub(super) com: Vec<f64>,
    pub(super) at_step: u64,
    /// Step of the newest telemetry frame copied.
    pub(super) last_step: Option<u64>,
}

impl LiveSim {
    /// Appends the telemetry frames recorded since the last call to the plot buffers (a full
    /// copy only after a reset), and drops samples older than the rings keep.
    pub(super) fn update_plot(&mut self, doc: &Document) {
        let Some(sim) = self.sim.get_mut() else {
            return;
        };
        if sim.steps() == self.plot.at_step && !self.plot.times.is_empty() {
            return;
        }
        let tel = sim.telemetry();
        let d = &mut self.plot;
        d.refresh_joints(tel, doc);
        let len = tel.body.len();
        let fresh = d.fresh_frames(tel);
        d.append_frames(tel, len - fresh..len);
        // Keep what the recording keeps; trim in batches so the copy is rare.
        let per_s = 1.0 / f64::from(sim.settings().dt_s).max(1e-6);
        let cap = tel
            .body
            .capacity()
            .max((RECORD_SECONDS * per_s) as usize + 1);
        if d.times.len() > cap + cap / 4 {
            d.drop_oldest(d.times.len() - cap);
        }
        d.at_step = sim.steps();
    }
}

impl PlotData {
    /// The joints' names and limits, again when the joints changed or after a reset.
    fn refresh_joints(&mut self, tel: &Telemetry, doc: &Document) {
        if self.joint_names.len() != tel.joint_names.len() || self.at_step == u64::MAX {
            self.joint_names = tel.joint_names.clone();
            self.joint_limit_deg = tel
                .joint_names
                .iter()
                .map(|name| limit_of(doc, name))
                .collect();
        }
    }

    /// How many of the rings' frames are newer than the last one copied (the newest last);
    /// all of them, with the buffers cleared, after a reset or when the joints changed.
    fn fresh_frames(&mut self, tel: &Telemetry) -> usize {
        let n = tel.joint_names.len();
        let len = tel.body.len();
        match self.last_step {
            Some(s) if self.joint_error.len() == n => (0..len)
                .rev()
                .take_while(|&i| tel.body.frame(i).is_some_and(|f| f[0].step > s))
                .count(),
            _ => {
                self.times.clear();
                self.tilt.clear();
                self.com.clear();
                self.joint_error.resize_with(n, Vec::new);
                for e in &mut self.joint_error {
                    e.clear();
                }
                len
            }
        }
    }

    /// Copies the rings' frames `frames` (oldest first) to the buffers.
    fn append_frames(&mut self, tel: &Telemetry, frames: std::ops::Range<usize>) {
        for i in frames {
            let (Some(b), Some(j)) = (tel.body.frame(i), tel.joints.frame(i)) else {
                continue;
            };
            self.times.push(b[0].time_s);
            self.tilt.push(b[0].torso_tilt_deg as f64);
            self.com.push(b[0].com_height_m as f64);
            for (e, s) in self.joint_error.iter_mut().zip(j) {
                e.push(s.error_deg as f64);
            }
            self.last_step = Some(b[0].step);
        }
    }

    /// Drops the `cut` oldest samples of every buffer.
    fn drop_oldest(&mut self, cut: usize) {
        self.times.drain(..cut);
        self.tilt.drain(..cut);
        self.com.drain(..cut);
        for e in &mut self.joint_error {
            e.drain(..cut.min(e.len()));
        }
    }
}

/// The largest angle the joint's limits allow away from rest (deg), drawn as the limit line.
fn limit_of(doc: &Document, name: &str) -> Option<f64> {
    let c = doc.bone(doc.bone_by_name(name)?).constraint()?;
    Some(match c.kind {
        ConstraintKind::BallSocket {
            swing_limit_deg, ..
        } => swing_limit_deg.max(),
        ConstraintKind::Hinge {
            limit_min_deg,
            limit_max_deg,
            ..
        } => limit_min_deg.abs().max(limit_max_deg.abs()),
    })
}

/// The plot series of one run's buffers; `overlay` names a compared run.
pub(super) fn series_of<'a>(d: &'a PlotData, overlay: Option<&str>) -> Vec<Series<'a>> {
    let suffix = overlay.map(|l| format!(" · {l}")).unwrap_or_default();
    {
        let mut out: Vec<Series<'_>> = d
            .joint_names
            .iter()
            .zip(&d.joint_error)
            .zip(&d.joint_limit_deg)
            .map(|((name, values), limit)| Series {
                name: name.clone(),
                plot: PlotKind::JointError,
                times: &d.times,
                values,
                limit: *limit,
                overlay: overlay.map(|_| suffix.clone()),
            })
            .collect();
        // No resolved balance bones: tilt is NaN (not measured), never drawn as 0.
        let measured = d.tilt.last().is_none_or(|v| v.is_finite());
        out.push(Series {
            name: if measured {
                "torso tilt".into()
            } else {
                "torso tilt: not measured (no balance bones)".into()
            },
            plot: PlotKind::Tilt,
            times: &d.times,
            values: &d.tilt,
            limit: Some(60.0),
            overlay: overlay.map(|_| suffix.clone()),
        });
        out.push(Series {
            name: "COM height".into(),
            plot: PlotKind::ComHeight,
            times: &d.times,
            values: &d.com,
            limit: None,
            overlay: overlay.map(|_| suffix.clone()),
        });
        out
    }
}
