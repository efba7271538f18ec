//! The document's anatomy as the editor shows it, computed once per document and manual
//! assignment (the skin samples once per set of bones), and its plausibility warnings once
//! per document revision.

use crate::anatomy::{plausible, rig::Rig, samples, samples::Samples, Anatomy};
use crate::document::{Diagnostic, Document, ManualAnatomy};

/// What the anatomy panel, the empty state and the diagnostics panel share.
#[derive(Default)]
pub struct AnatomyCache {
    /// (bones_gen, samples, rig).
    skin: Option<(u64, Samples, Rig)>,
    /// (bones_gen, the manual anatomy it was detected with, the anatomy).
    anatomy: Option<(u64, ManualAnatomy, Anatomy)>,
    /// (doc_gen, warnings).
    checks: Option<(u64, Vec<Diagnostic>)>,
    /// The warnings about mesh primitives left out (with the skin samples).
    left_out: Vec<Diagnostic>,
}

impl AnatomyCache {
    fn skin(&mut self, doc: &Document, bones_gen: u64) -> &(u64, Samples, Rig) {
        if self.skin.as_ref().is_none_or(|s| s.0 != bones_gen) {
            // A mesh that cannot be read leaves the anatomy to the bones (the viewport and
            // the status bar already say why the mesh is missing); primitives left out are
            // listed with the plausibility warnings, as `validate` lists them.
            let fit = doc.fitting_geometry();
            self.left_out = plausible::left_out(&fit);
            let samples = samples::collect(doc, &fit.geometry);
            let rig = Rig::new(doc, &samples);
            self.skin = Some((bones_gen, samples, rig));
        }
        self.skin.as_ref().expect("just filled")
    }

    /// The anatomy of the document (`bones_gen` tells when its bones changed).
    pub fn get(&mut self, doc: &Document, bones_gen: u64) -> &Anatomy {
        let fresh = self
            .anatomy
            .as_ref()
            .is_some_and(|(g, m, _)| *g == bones_gen && *m == doc.manual_anatomy);
        if !fresh {
            let (_, samples, rig) = self.skin(doc, bones_gen);
            let a = Anatomy::detect(doc, rig, samples, None);
            self.anatomy = Some((bones_gen, doc.manual_anatomy.clone(), a));
        }
        &self.anatomy.as_ref().expect("just filled").2
    }

    /// The plausibility warnings of the document as it is now.
    pub fn checks(&mut self, doc: &Document, bones_gen: u64, doc_gen: u64) -> &[Diagnostic] {
        if self.checks.as_ref().is_none_or(|c| c.0 != doc_gen) {
            self.get(doc, bones_gen);
            let (Some((_, samples, rig)), Some((_, _, a))) = (&self.skin, &self.anatomy) else {
                return &[];
            };
            let mut found = self.left_out.clone();
            found.extend(plausible::check(doc, rig, samples, a));
            self.checks = Some((doc_gen, found));
        }
        &self.checks.as_ref().expect("just filled").1
    }
}
