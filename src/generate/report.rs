//! The generator's report: what it detected and what it made of each bone, with the coverage
//! figures. Serialised by `generate --json`; deterministic (no timings).

use super::names::Side;
use super::roles::{CharacterKind, Role};
use serde::Serialize;

/// One bone's outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BoneReport {
    pub name: String,
    pub node: usize,
    pub role: Role,
    pub side: Option<Side>,
    /// `body`, `kept` (existing physics), `merged into NAME` or `skipped: why`.
    pub outcome: String,
    /// Body bones only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joint: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass_kg: Option<f64>,
    /// Share of the body's vertices inside its shape inflated by 2% of the height; null when
    /// the body has no vertices to measure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<usize>,
}

/// Coverage over bodies.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CoverageReport {
    /// Median over bodies with vertices (null when none has any).
    pub median: Option<f64>,
    /// Smallest over limb bodies (arms and legs; null when there are none).
    pub min_limb: Option<f64>,
    /// The tolerance the shapes were inflated by (file units): 2% of the height.
    pub tolerance: f64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub character_type: CharacterKind,
    /// Height along up, in file units (metres by glTF's convention).
    pub height: f64,
    pub up: [f64; 3],
    pub forward: [f64; 3],
    pub body_count: usize,
    pub total_mass_kg: f64,
    pub coverage: CoverageReport,
    /// Skin vertices read and dropped (no weight, NaN or huge).
    pub vertices: usize,
    pub vertices_dropped: usize,
    pub balance: Option<BalanceReport>,
    pub bones: Vec<BoneReport>,
    /// Diagnostics of the generation (warnings), as text.
    pub diagnostics: Vec<String>,
}

/// The balance bones chosen.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BalanceReport {
    pub torso_bone: String,
    pub pelvis_bone: String,
    pub foot_bones: Vec<String>,
}
