//! The stability doctor: what makes a ragdoll jitter, explode or never settle, found from the
//! document alone (pure: no world is stepped), each finding naming the bones and the fix; and
//! [`stabilize`], the one edit that applies those fixes.
//!
//! Checks (thresholds below): mass ratio across a joint, a heavy child on a light parent,
//! inertia ratio across a joint, bodies overlapping at rest while they collide, limit ranges
//! under 5°, the rest pose outside a limit, a drive whose natural frequency sqrt(k / I) is too
//! high for the solver's step, bodies without damping, a bone with physics but no collider, a
//! mass absurd for the body's size, explicit pairs naming no bone, and an upright trunk
//! joint sagging at rest under the body above it.
//! `validate` prints the findings after the document's diagnostics; the editor's diagnostics
//! panel lists the same ones and marks their bones.

mod checks;
mod knockout;
pub mod live;
mod model;
pub mod pair_table;
mod size;
mod stabilize;
mod trunk;

pub use stabilize::{
    stabilize, StabilizeOptions, Stabilized, JOLT_MAX_MASS_RATIO, NO_RAGDOLL,
    STABLE_ANGULAR_DAMPING, STABLE_LINEAR_DAMPING,
};

use crate::document::fields::Key;
use crate::document::{BoneId, Diagnostic, Document, Severity};
use crate::sim::SimSettings;
use model::Model;

/// A child heavier than its parent by more than this is a warning (a heavy body hanging on a
/// light one; the generator keeps every child within it).
pub use crate::joint::mass_ratio::HEAVY_CHILD_RATIO;
/// A ratio of the largest principal moments across a joint above this is a warning (the
/// generator keeps every jointed pair within it).
pub use crate::joint::mass_ratio::MAX_INERTIA_RATIO;
/// A mass ratio across a joint above this is an error (the generator keeps every jointed pair
/// within it).
pub use crate::joint::mass_ratio::MAX_MASS_RATIO;
/// Overlap at rest deeper than this share of the character's height is an error.
pub const OVERLAP_SHARE: f64 = 1e-3;
/// A limit range narrower than this (deg), but not zero, is an error: lock the axis instead.
pub const MIN_RANGE_DEG: f64 = 5.0;
/// A drive whose natural frequency times the solver's substep exceeds this is an error.
pub const MAX_DRIVE_OMEGA_DT: f64 = 1.0;
/// A body whose mass is this many times (or a fraction of) the nearest mass its joints'
/// mass ratios allow ([`crate::joint::mass_ratio::allowed_mass`]) to what its size suggests
/// at the character's median density is a warning. Never an error. The mass ratios come
/// first, as the solver needs them more: a tail's tip or an eye cannot weigh what its size
/// says and still be within 1:10 of its neighbour, and a humanoid's masses come from Winter's
/// segment fractions, not its colliders' volumes (an avocado character's fruit body weighs
/// a chest's 19 kg, its size at the median density 4,670 kg), so the fix never suggests a
/// mass its joints cannot hold.
pub const ODD_DENSITY: f64 = 20.0;

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Check {
    MassRatio,
    HeavyChild,
    InertiaRatio,
    Overlap,
    TinyLimit,
    RestOutsideLimit,
    DriveTooStiff,
    NoDamping,
    NoCollider,
    LooseBody,
    AbsurdMass,
    /// A collider larger than the solver takes ([`crate::document::fields::MAX_EXTENT`]).
    AbsurdSize,
    UnknownPair,
    TrunkSag,
    /// A character far outside its kind's heights in metres (a file in centimetres).
    ImplausibleSize,
    /// A knock-out line its own standing can cross (`balance.knockout_dv`).
    KnockoutTooLow,
}

/// One finding: the bones it concerns (the first is where it is shown), the key to change,
/// and a message that names the bones and the fix.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub check: Check,
    pub severity: Severity,
    pub bones: Vec<BoneId>,
    pub key: Key,
    pub message: String,
}

impl Finding {
    /// The finding as a document diagnostic (on its first bone).
    pub fn diagnostic(&self, doc: &Document) -> Diagnostic {
        let (node, name) = match self.bones.first() {
            Some(&b) => (Some(doc.bone(b).node), doc.bone(b).name.as_str()),
            None => (None, "document"),
        };
        let d = match self.severity {
            Severity::Error => Diagnostic::error,
            Severity::Warning => Diagnostic::warning,
        };
        d(node, name, self.key.path(), self.message.clone())
    }
}

/// Every finding about a document, at the simulation's default settings.
pub fn examine(doc: &Document) -> Vec<Finding> {
    examine_with(doc, &SimSettings::default())
}

/// Every finding about a document simulated with `settings` (the time step matters).
pub fn examine_with(doc: &Document, settings: &SimSettings) -> Vec<Finding> {
    let model = Model::new(doc, settings);
    let mut out = Vec::new();
    checks::masses(&model, &mut out);
    checks::overlaps(doc, &model, &mut out);
    checks::limits(&model, &mut out);
    checks::drives(&model, &mut out);
    checks::damping(doc, &model, &mut out);
    checks::colliders(doc, &mut out);
    checks::pairs(doc, &mut out);
    let anatomy = crate::anatomy::Anatomy::of(doc);
    trunk::check(doc, &anatomy, &model, &mut out);
    size::check(&anatomy, &model, &mut out);
    knockout::check(doc, &model, &mut out);
    out
}

/// The findings as document diagnostics (what `validate` prints and the editor lists).
pub fn diagnostics(doc: &Document) -> Vec<Diagnostic> {
    examine(doc).iter().map(|f| f.diagnostic(doc)).collect()
}

/// The stiffest drive the solver's step takes on `bone`'s joint (N*m/rad): natural frequency
/// sqrt(k / I) at [`MAX_DRIVE_OMEGA_DT`] / dt of the substep. None when the bone has no joint.
pub fn drive_stiffness_limit(doc: &Document, bone: BoneId) -> Option<f64> {
    let model = Model::new(doc, &SimSettings::default());
    let masses: Vec<f64> = model.bodies.iter().map(|b| b.mass_kg).collect();
    let j = model
        .joints
        .iter()
        .find(|j| model.bodies[j.child].id == bone)?;
    Some(checks::stiffness_cap(
        &model,
        j,
        &masses,
        MAX_DRIVE_OMEGA_DT,
    ))
}
