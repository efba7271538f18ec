//! The stability doctor in the editor: its findings, kept for the document generation they
//! were computed for (the diagnostics panel lists them after the document's own, the
//! outliner marks their bones), and the Stabilize command (one undo step) with its report.

use super::state::EditorState;
use crate::doctor::live::LiveWatch;
use crate::doctor::{Check, Finding};
use crate::document::{BoneId, Diagnostic, Edit, Severity};
use crate::render::tint::Flag;
use std::collections::BTreeMap;

/// The doctor's findings for one document generation, and the last Stabilize report.
#[derive(Debug, Default)]
pub struct DoctorCache {
    doc_gen: u64,
    pub diagnostics: Vec<Diagnostic>,
    /// Bones any finding concerns.
    pub bones: Vec<BoneId>,
    /// What the viewport highlights: bodies and joints (by their child bone) with the worst
    /// finding about them (see [`highlights`]).
    pub bodies: BTreeMap<BoneId, Flag>,
    pub joints: BTreeMap<BoneId, Flag>,
    /// What the last Stabilize changed.
    pub report: Vec<String>,
    /// The live checks on the running simulation, and the (bones, document) generation
    /// they watch (a reset or an edit starts a new watch).
    pub live: Option<LiveWatch>,
    live_key: (u64, u64),
}

impl EditorState {
    /// Recomputes the findings when the document changed since they were computed.
    pub fn refresh_doctor(&mut self) {
        if self.doctor.doc_gen == self.doc_gen() {
            return;
        }
        let findings = crate::doctor::examine(&self.doc);
        self.doctor.diagnostics = findings.iter().map(|f| f.diagnostic(&self.doc)).collect();
        let mut bones: Vec<BoneId> = findings.iter().flat_map(|f| f.bones.clone()).collect();
        bones.sort();
        bones.dedup();
        self.doctor.bones = bones;
        (self.doctor.bodies, self.doctor.joints) = highlights(&findings);
        self.doctor.doc_gen = self.doc_gen();
    }

    /// Feeds the simulation's pose at simulated time `t` (s) to the live checks; bodies are
    /// not judged for rest while a clip plays.
    pub fn observe_live(&mut self, t: f64, pose: &crate::render::Pose, clip_playing: bool) {
        let key = (self.bones_gen, self.doc_gen());
        let seen = self.doctor.live.as_ref().and_then(LiveWatch::span);
        if seen.is_some_and(|(_, now)| now == t) && self.doctor.live_key == key {
            return;
        }
        let restarted = seen.is_some_and(|(_, now)| t < now);
        if self.doctor.live.is_none() || restarted || self.doctor.live_key != key {
            self.doctor.live = Some(LiveWatch::new(&self.doc));
            self.doctor.live_key = key;
        }
        if let Some(w) = &mut self.doctor.live {
            w.observe(t, &pose.world_from_bone, !clip_playing);
        }
    }

    /// Edit > Stabilize: the doctor's fixes as one undo step; the report is kept for the
    /// diagnostics panel.
    pub fn stabilize(&mut self) {
        let s = crate::doctor::stabilize(&self.doc, &Default::default());
        if let Some(why) = s.nothing {
            self.status = format!("stabilize: {why}");
            return;
        }
        let Edit::Group(edits) = s.edit else {
            return;
        };
        let n = s.changes.len();
        self.apply_command(
            edits,
            format!("stabilized: {n} change(s), listed under Diagnostics"),
        );
        self.doctor.report = s.changes;
    }
}

/// The bodies and joints the viewport marks, each with its worst finding. A finding about a
/// joint (mass, inertia, limit, drive) marks the joint, at its child bone, and both bodies;
/// an overlap or an odd mass marks its bodies. Missing damping (usually every body) and
/// pairs naming no bone are left to the diagnostics list: they mark nothing in space.
pub fn highlights(findings: &[Finding]) -> (BTreeMap<BoneId, Flag>, BTreeMap<BoneId, Flag>) {
    let mut bodies = BTreeMap::new();
    let mut joints = BTreeMap::new();
    let worst = |m: &mut BTreeMap<BoneId, Flag>, id: BoneId, f: Flag| {
        let e = m.entry(id).or_insert(f);
        *e = (*e).max(f);
    };
    for f in findings {
        let flag = match f.severity {
            Severity::Error => Flag::Error,
            Severity::Warning => Flag::Warning,
        };
        let joint = match f.check {
            Check::NoDamping
            | Check::UnknownPair
            | Check::NoCollider
            | Check::ImplausibleSize
            | Check::KnockoutTooLow => continue,
            Check::Overlap | Check::AbsurdMass | Check::AbsurdSize | Check::LooseBody => false,
            Check::MassRatio
            | Check::HeavyChild
            | Check::InertiaRatio
            | Check::TinyLimit
            | Check::RestOutsideLimit
            | Check::DriveTooStiff
            | Check::TrunkSag => true,
        };
        for &b in &f.bones {
            worst(&mut bodies, b, flag);
        }
        if let (true, Some(&child)) = (joint, f.bones.first()) {
            worst(&mut joints, child, flag);
        }
    }
    (bodies, joints)
}
