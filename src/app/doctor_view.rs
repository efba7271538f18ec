//! The stability doctor in the editor: its findings, kept for the document generation they
//! were computed for (the diagnostics panel lists them after the document's own, the
//! outliner marks their bones), and the Stabilize command (one undo step) with its report.

use super::state::EditorState;
use crate::document::{BoneId, Diagnostic, Edit};

/// The doctor's findings for one document generation, and the last Stabilize report.
#[derive(Debug, Default)]
pub struct DoctorCache {
    doc_gen: u64,
    pub diagnostics: Vec<Diagnostic>,
    /// Bones any finding concerns.
    pub bones: Vec<BoneId>,
    /// What the last Stabilize changed.
    pub report: Vec<String>,
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
        self.doctor.doc_gen = self.doc_gen();
    }

    /// Edit > Stabilize: the doctor's fixes as one undo step; the report is kept for the
    /// diagnostics panel.
    pub fn stabilize(&mut self) {
        let s = crate::doctor::stabilize(&self.doc, &Default::default());
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
