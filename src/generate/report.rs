//! The generator's report: what it detected and what it made of each bone, with the coverage
//! figures. Serialised by `generate --json`; deterministic (no timings).

use super::bodies::{Fate, Plan};
use super::names::Side;
use super::roles::{Anatomy, CharacterKind, LimbKind, Role};
use super::{emit, fit, limits, rig, samples, Body};
use crate::document::Diagnostic;
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
    /// Skin vertices left out of the body's shape: an appendage with no bone of its own (a
    /// tail, wings, a cape) skinned to a trunk bone (`generate::trunk`). Absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appendage_vertices: Option<usize>,
    /// Vertices the bone carries, left out of every body: a bone named as an attachment
    /// (`WeaponSlot`) holds a prop, not the body (`anatomy::samples`). Absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried_vertices: Option<usize>,
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
    /// Vertices of meshes neither skinned nor under a bone (a ground plane, a prop beside the
    /// character): read, not part of the body, not dropped.
    pub vertices_unattached: usize,
    pub balance: Option<BalanceReport>,
    pub bones: Vec<BoneReport>,
    /// Limits widened to the range the character's own clips reach.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub widened: Vec<super::clips::Widened>,
    /// Widenings refused: a clip of held poses reached past what a joint plausibly does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_widened: Vec<super::clips::NotWidened>,
    /// Body pairs kept apart (`collision_pairs` false): a clip drives them into each other.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept_apart: Vec<[String; 2]>,
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

#[allow(clippy::too_many_arguments)]
pub(super) fn build(
    rig: &rig::Rig,
    a: &Anatomy,
    plan: &Plan,
    list: &[Body],
    samples: &samples::Samples,
    total: f64,
    balance: Option<BalanceReport>,
    diags: &[Diagnostic],
) -> Report {
    let bones: Vec<BoneReport> = (0..rig.len())
        .map(|i| bone_report((rig, a, plan), (list, samples), i))
        .collect();
    Report {
        character_type: a.kind,
        height: emit::round(a.height),
        up: a.up.to_array().map(emit::round),
        forward: a.forward.to_array().map(|x| (x * 1e4).round() / 1e4),
        body_count: list.len(),
        total_mass_kg: emit::round(total),
        coverage: coverage_report(a, list),
        vertices: samples.total,
        vertices_dropped: samples.dropped,
        vertices_unattached: samples.unattached.iter().map(|u| u.vertices).sum(),
        balance,
        bones,
        widened: Vec::new(),
        not_widened: Vec::new(),
        kept_apart: Vec::new(),
        diagnostics: diags.iter().map(|d| d.to_string()).collect(),
    }
}

/// Bone `i`'s outcome, with its body's shape, joint, mass and coverage when it has one.
fn bone_report(
    (rig, a, plan): (&rig::Rig, &Anatomy, &Plan),
    (list, samples): (&[Body], &samples::Samples),
    i: usize,
) -> BoneReport {
    let b = list.iter().find(|b| b.bone == i);
    BoneReport {
        name: rig.bones[i].name.clone(),
        node: rig.bones[i].node,
        role: a.role[i],
        side: a.side[i],
        outcome: outcome(rig, &plan.fate[i]),
        shape: b.map(|b| shape_name(&b.shape.fit.shape)),
        joint: b.and_then(|b| b.joint).map(|j| joint_name(&j)),
        mass_kg: b.map(|b| emit::round(b.mass_kg)),
        coverage: b.and_then(|b| b.shape.fit.coverage).map(emit::round),
        vertices: b.map(|b| b.shape.points),
        appendage_vertices: b.map(|b| b.appendage_vertices).filter(|&n| n > 0),
        carried_vertices: samples.carried.get(i).copied().filter(|&n| n > 0),
    }
}

/// `body`, `kept`, `merged into NAME (why)` or `skipped: why`.
fn outcome(rig: &rig::Rig, fate: &Fate) -> String {
    match fate {
        Fate::Body => "body".to_string(),
        Fate::Kept => "kept".to_string(),
        Fate::Merged { into, why } => {
            format!("merged into {} ({why})", rig.bones[*into].name)
        }
        Fate::Skipped { why } => format!("skipped: {why}"),
    }
}

fn shape_name(shape: &fit::Shape) -> &'static str {
    match shape {
        fit::Shape::Capsule { .. } => "capsule",
        fit::Shape::Sphere { .. } => "sphere",
        fit::Shape::Box { .. } => "box",
    }
}

fn joint_name(joint: &limits::JointPlan) -> &'static str {
    match joint {
        limits::JointPlan::Ball { .. } => "ball_socket",
        limits::JointPlan::Hinge { .. } => "hinge",
    }
}

/// The median coverage over bodies and the smallest over limb bodies (arms and legs, not
/// tails, fingers, toes or twist segments).
fn coverage_report(a: &Anatomy, list: &[Body]) -> CoverageReport {
    let all = rig::sorted(list.iter().filter_map(|b| b.shape.fit.coverage));
    let median = (!all.is_empty()).then(|| emit::round(rig::percentile(&all, 0.5)));
    let limbs = rig::sorted(
        list.iter()
            .filter(|b| {
                a.limb_of[b.bone].is_some_and(|l| a.limbs[l].kind != LimbKind::Tail)
                    && !matches!(a.role[b.bone], Role::Finger | Role::Toe | Role::Twist)
            })
            .filter_map(|b| b.shape.fit.coverage),
    );
    CoverageReport {
        median,
        min_limb: limbs.first().copied().map(emit::round),
        tolerance: emit::round(0.02 * a.height),
    }
}
