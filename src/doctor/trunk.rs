//! An upright trunk joint (a humanoid's spine or chest: [`crate::anatomy::Role::stacks_trunk`])
//! whose drive lets it sag under the body above it at rest. Its sag carries the centre of mass
//! toward a heel or a toe, and without the balance assist the character can fall standing
//! still. The rule (how far a stiffness lets it sag, what holds it) is [`crate::joint::load`]'s,
//! the one the generator sizes the trunk by; the check warns and Stabilize applies its fix.

use super::checks::{finding, names};
use super::model::Model;
use super::{Check, Finding, Severity};
use crate::anatomy::Anatomy;
use crate::document::fields::Key;
use crate::document::Document;
use crate::joint::load;

/// A trunk joint sagging past [`load::TRUNK_SAG_WARNING_RAD`] at rest.
pub(super) struct SaggingTrunk {
    /// Index into `model.joints`.
    pub joint: usize,
    /// What the joint holds up (kg).
    pub mass_kg: f64,
    /// The gravity torque on it at rest (N·m).
    pub rest_load_nm: f64,
    /// How far its drive lets it sag (radians).
    pub sag_rad: f64,
}

impl SaggingTrunk {
    /// The stiffness that holds it within [`load::MAX_TRUNK_SAG_RAD`] (N·m/rad).
    pub fn holding_stiffness(&self) -> f64 {
        load::stiffness_holding(self.rest_load_nm)
    }
}

/// Every driven trunk joint that sags more than the warning's bar, at `masses` (one per body:
/// the model's own, or the ones Stabilize evens them to).
pub(super) fn sagging(
    doc: &Document,
    anatomy: &Anatomy,
    model: &Model,
    masses: &[f64],
) -> Vec<SaggingTrunk> {
    let kind = anatomy.kind().coarse();
    let gravity = model.settings.gravity_m_s2.length() as f64;
    let mut out = Vec::new();
    for (index, j) in model.joints.iter().enumerate() {
        let c = &model.bodies[j.child];
        let driven = doc
            .bone(c.id)
            .physics
            .as_ref()
            .is_some_and(|p| p.drive.is_some());
        if !driven || !anatomy.role(c.id).stacks_trunk(kind) {
            continue;
        }
        let above = model.subtree(j.child);
        let mass_kg: f64 = above.iter().map(|&i| masses[i]).sum();
        let centre = above
            .iter()
            .map(|&i| model.bodies[i].world_from_collider.translation.as_dvec3() * masses[i])
            .sum::<glam::DVec3>()
            / mass_kg.max(f64::MIN_POSITIVE);
        let rest_load_nm = load::rest_load_nm(mass_kg, centre - c.joint_at, anatomy.up(), gravity);
        let Some(sag_rad) = load::rest_sag_rad(rest_load_nm, j.drive.stiffness) else {
            continue;
        };
        if sag_rad > load::TRUNK_SAG_WARNING_RAD {
            out.push(SaggingTrunk {
                joint: index,
                mass_kg,
                rest_load_nm,
                sag_rad,
            });
        }
    }
    out
}

/// The warning, naming the stiffness that holds the trunk.
pub(super) fn check(doc: &Document, anatomy: &Anatomy, model: &Model, out: &mut Vec<Finding>) {
    let masses: Vec<f64> = model.bodies.iter().map(|b| b.mass_kg).collect();
    for s in sagging(doc, anatomy, model, &masses) {
        let j = &model.joints[s.joint];
        let (pn, cn) = names(model, j);
        out.push(finding(Check::TrunkSag, Severity::Warning, vec![model.bodies[j.child].id, model.bodies[j.parent].id], Key::Stiffness, format!(
            "{cn} sags about {:.1}° at rest under the {:.1} kg above it (its drive's stiffness {:.1} N·m/rad against {:.1} N·m): a trunk that sags carries the centre of mass toward a heel or a toe, and without the balance assist the character can fall standing still; fix: raise the {pn} - {cn} drive's stiffness to at least {:.1} N·m/rad (it then sags {:.0}°; Stabilize raises it)",
            s.sag_rad.to_degrees(), s.mass_kg, j.drive.stiffness, s.rest_load_nm, s.holding_stiffness(), load::MAX_TRUNK_SAG_RAD.to_degrees())));
    }
}
