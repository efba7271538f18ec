//! The doctor's live checks, on a running simulation: joints that come apart (drift) and bodies
//! that never come to rest. They read the bones' world poses over simulated time (a body's
//! pose is its bone's), so they need nothing from the world but what the editor draws.
//!
//! - **Drift**: the child's origin against where its parent carries the joint's anchor (the
//!   child's rest place in the parent's frame); the largest since the watch started, above
//!   [`MAX_DRIFT_SHARE`] of the segment (the bar) is a warning.
//! - **Never at rest**: after [`SETTLE_S`] of simulated time, a body that has not stayed under
//!   [`REST_SPEED_SHARE`] of the character's height per second for [`REST_HOLD_S`] at a
//!   stretch through the last [`RESTLESS_S`] is a warning. A rocking or swinging body passes
//!   through zero speed at every turn, so "moving in every window" never caught one (the
//!   shipped mannequin's undamped head rocked above 1% for 10 s and was never flagged); being
//!   still for a while is what rest is (the test physics engines put bodies to sleep by).
//!   Not judged while a clip plays (the character is meant to move).

use super::model::Model;
use crate::document::fields::Key;
use crate::document::{BoneId, Diagnostic, Document};
use crate::joint;
use crate::sim::SimSettings;
use glam::{DMat4, DVec3};

/// Drift above this share of the segment's length is a warning.
pub const MAX_DRIFT_SHARE: f64 = 0.01;
/// A body faster than this share of the character's height per second is moving: the bar
/// the simulation's sleeping uses too ([`crate::sim::SLEEP_SPEED_SHARE`], one fact).
pub const REST_SPEED_SHARE: f64 = crate::sim::SLEEP_SPEED_SHARE as f64;
/// Bodies are judged at rest or not after this much simulated time (s).
pub const SETTLE_S: f64 = 5.0;
/// A body restless this long (s) after [`SETTLE_S`] never comes to rest.
pub const RESTLESS_S: f64 = 2.0;
/// A body under the speed limit this long (s) at a stretch has come to rest (Rapier's
/// `time_until_sleep`).
pub const REST_HOLD_S: f64 = 0.5;
/// Speeds are measured over windows of this much simulated time (s), so a jitter that goes
/// back and forth within a step still counts by its reach.
const WINDOW_S: f64 = 0.1;

/// The shortest segment a joint's drift is measured against, as a share of the character's
/// height. A child whose origin lies on its parent's (a `face` bone at its neck's origin) has
/// no segment: measured against nothing, the solver's last tenth of a millimetre read as a
/// drift of 5603% of it.
const MIN_SEGMENT_SHARE: f64 = 0.02;

#[derive(Debug)]
struct JointWatch {
    child: BoneId,
    parent: BoneId,
    /// The child's rest origin in the parent bone's frame.
    anchor: DVec3,
    segment: f64,
    worst: f64,
}

/// What the watch has seen since it started (a reset or an edit starts a new one).
#[derive(Debug)]
pub struct LiveWatch {
    joints: Vec<JointWatch>,
    bodies: Vec<BoneId>,
    height: f64,
    /// The last window's start: time and body positions.
    window: Option<(f64, Vec<DVec3>)>,
    /// Per body: since when it has not been still for [`REST_HOLD_S`] at a stretch (None: at
    /// rest), and since when it has been under the limit (None: moving in the last window).
    moving_since: Vec<Option<f64>>,
    still_since: Vec<Option<f64>>,
    started: Option<f64>,
    now: f64,
}

impl LiveWatch {
    pub fn new(doc: &Document) -> Self {
        let model = Model::new(doc, &SimSettings::default());
        let bodies: Vec<BoneId> = model.bodies.iter().map(|b| b.id).collect();
        let rest = |id: BoneId| doc.skeleton.nodes[doc.bone(id).node].world_from_node;
        let joints = model
            .joints
            .iter()
            .filter_map(|j| {
                let (child, parent) = (model.bodies[j.child].id, model.bodies[j.parent].id);
                let def = joint::resolve(doc, child)?;
                (def.parent == parent).then_some(())?;
                let anchor = rest(parent)
                    .inverse()
                    .transform_point3(rest(child).w_axis.truncate());
                let segment = (rest(child).w_axis - rest(parent).w_axis)
                    .truncate()
                    .length();
                Some(JointWatch {
                    child,
                    parent,
                    anchor,
                    segment: segment.max(MIN_SEGMENT_SHARE * model.height).max(1e-9),
                    worst: 0.0,
                })
            })
            .collect();
        Self {
            moving_since: vec![None; bodies.len()],
            still_since: vec![None; bodies.len()],
            joints,
            bodies,
            height: model.height,
            window: None,
            started: None,
            now: 0.0,
        }
    }

    /// One observation: simulated time `t` (s) and every bone's world pose. `judge_rest` is
    /// false while the character is meant to move (a clip plays).
    pub fn observe(&mut self, t: f64, world_from_bone: &[DMat4], judge_rest: bool) {
        let at = |id: BoneId| world_from_bone.get(id.index()).copied();
        for j in &mut self.joints {
            let (Some(c), Some(p)) = (at(j.child), at(j.parent)) else {
                continue;
            };
            let gap = (c.w_axis.truncate() - p.transform_point3(j.anchor)).length();
            j.worst = j.worst.max(gap / j.segment);
        }
        self.started.get_or_insert(t);
        self.now = t;
        let positions: Vec<DVec3> = self
            .bodies
            .iter()
            .map(|&b| at(b).map_or(DVec3::ZERO, |m| m.w_axis.truncate()))
            .collect();
        let Some((t0, p0)) = &self.window else {
            self.window = Some((t, positions));
            return;
        };
        if t - t0 < WINDOW_S {
            return;
        }
        let limit = REST_SPEED_SHARE * self.height;
        for (i, (a, b)) in p0.iter().zip(&positions).enumerate() {
            let moving = judge_rest && a.distance(*b) / (t - t0) > limit;
            if moving {
                self.still_since[i] = None;
                self.moving_since[i].get_or_insert(*t0);
            } else {
                let still = *self.still_since[i].get_or_insert(*t0);
                if t - still >= REST_HOLD_S - 1e-9 {
                    self.moving_since[i] = None;
                }
            }
        }
        self.window = Some((t, positions));
    }

    /// The simulated time the watch started at, and the last it saw.
    pub fn span(&self) -> Option<(f64, f64)> {
        self.started.map(|s| (s, self.now))
    }

    /// The findings so far, as diagnostics (warnings).
    pub fn diagnostics(&self, doc: &Document) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for j in self.joints.iter().filter(|j| j.worst > MAX_DRIFT_SHARE) {
            let (c, p) = (&doc.bone(j.child).name, &doc.bone(j.parent).name);
            out.push(Diagnostic::warning(
                Some(doc.bone(j.child).node),
                c,
                Key::Constraint.path(),
                format!(
                    "live: the joint {p} - {c} drifted apart by {:.1}% of its segment (above {:.0}%): the solver cannot hold it; fix: even out the masses, add substeps or damping (Stabilize)",
                    j.worst * 100.0,
                    MAX_DRIFT_SHARE * 100.0
                ),
            ));
        }
        let Some(start) = self.started else {
            return out;
        };
        for (i, since) in self.moving_since.iter().enumerate() {
            let Some(since) = since else { continue };
            let settled_by = (start + SETTLE_S).max(*since);
            if self.now < start + SETTLE_S || self.now - settled_by < RESTLESS_S {
                continue;
            }
            let b = doc.bone(self.bodies[i]);
            out.push(Diagnostic::warning(
                Some(b.node),
                &b.name,
                Key::AngularDamping.path(),
                format!(
                    "live: {} has not come to rest in {:.1} s (never under {:.0}% of the height per second for {REST_HOLD_S} s since {since:.1} s); fix: damping, friction, wider tiny limits, or disable pairs overlapping at rest (Stabilize)",
                    b.name,
                    self.now - start,
                    REST_SPEED_SHARE * 100.0
                ),
            ));
        }
        out
    }
}
