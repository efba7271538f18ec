//! Stabilize: the doctor's fixes as one edit (one undo step), every change reported.
//! Anchored on Jolt's `RagdollSettings::Stabilize` (after Strunk, "Stop my constraints from
//! blowing up"): each connected ragdoll's masses evened (each body its parent's new mass times
//! its old ratio to it, clamped; Jolt keeps them within 0.8..1.2), then scaled so it keeps its
//! total; then, as Jolt does, each parent's principal moments raised to at least its
//! children's sum (at most doubled) through its `min_inertia_kg_m2`. Then: pairs overlapping at rest disabled, tiny limits widened to 5° and
//! rest poses brought inside their limits, damping added where a body has none, an upright
//! trunk that sags stiffened to hold its rest, and drives capped to a natural frequency the
//! solver's step integrates.

use super::checks::{narrow_ranges, rest_outside, stiffness_cap};
use super::model::{BodyModel, Model};
use super::MIN_RANGE_DEG;
use crate::document::fields::{readable, six_digits, Key};
use crate::document::write::{self, leaf};
use crate::document::{ConstraintKind, Document, Drive, Edit, SwingExtentsDeg, TwistRangeDeg};
use crate::joint::load::{self, TORQUE_PER_LOAD};
use crate::joint::mass_ratio;
use crate::sim::SimSettings;
use glam::DVec3;
use serde_json::{json, Value};

pub use crate::joint::mass_ratio::JOLT_MAX_MASS_RATIO;
/// Damping Stabilize (and the generator) gives a body that has none (1/s).
pub const STABLE_ANGULAR_DAMPING: f64 = 4.0;
pub const STABLE_LINEAR_DAMPING: f64 = 0.4;
/// Tiny ranges are widened to this (deg): Unity's stability page asks for 5-15°, and a
/// mannequin knee widened from 1° to only 5° still jittered (7.9% of its height per second
/// after 9 s, passive).
pub const WIDENED_RANGE_DEG: f64 = 15.0;
/// Drives are capped to this natural frequency times the solver's substep.
pub const STABLE_OMEGA_DT: f64 = 0.5;

/// What Stabilize may change.
#[derive(Debug, Clone, PartialEq)]
pub struct StabilizeOptions {
    /// Largest mass ratio across a joint, either way (>= 1).
    pub max_mass_ratio: f64,
    /// The simulation settings the drives must suit (time step, substeps).
    pub settings: SimSettings,
}

impl Default for StabilizeOptions {
    fn default() -> Self {
        Self {
            max_mass_ratio: JOLT_MAX_MASS_RATIO,
            settings: SimSettings::default(),
        }
    }
}

/// The edit and the report of every change (and of what could not be done).
#[derive(Debug, Clone, PartialEq)]
pub struct Stabilized {
    /// One `Edit::Group`: apply it as one undo step.
    pub edit: Edit,
    pub changes: Vec<String>,
    /// Why nothing could be stabilized, when nothing could (a file without a ragdoll).
    pub nothing: Option<&'static str>,
}

/// Said when a document has no body to stabilize.
pub const NO_RAGDOLL: &str = "no bone has a collider, nothing to change (generate a ragdoll first)";

struct Out<'a> {
    doc: &'a Document,
    edits: Vec<Edit>,
    changes: Vec<String>,
}

impl Out<'_> {
    fn set(&mut self, body: crate::document::BoneId, key: Key, value: Value) {
        self.edits.push(Edit::Set {
            target: self.doc.bone_target(body),
            key: key.path().into(),
            value,
        });
    }
}

/// Masses the simulation refuses ([`Model::refused`]) set to the median body's, on a copy
/// of `doc` the rest of Stabilize then reads; None when there are none.
fn unrefused(
    doc: &Document,
    model: &Model,
    changes: &mut Vec<String>,
) -> Option<(Document, Vec<Edit>)> {
    let median = model.median_mass_kg();
    let mut edits: Vec<Edit> = model
        .refused
        .iter()
        .filter_map(|r| Some((r.id, &r.name, r.mass_kg?, median?)))
        .map(|(id, name, kg, median)| {
            changes.push(format!(
                "{name}: mass {} -> {median:.4} kg (the median body's: the simulation refuses it at this size)",
                readable(kg)
            ));
            Edit::Set {
                target: doc.bone_target(id),
                key: Key::Mass.path().into(),
                value: json!(median),
            }
        })
        .collect();
    for r in model.refused.iter().filter(|r| r.key == Key::MinInertia) {
        changes.push(format!(
            "{}: {} removed (the simulation refuses it: {})",
            r.name,
            leaf(Key::MinInertia),
            r.what
        ));
        edits.push(Edit::Remove {
            target: doc.bone_target(r.id),
            key: Key::MinInertia.path().into(),
        });
    }
    if edits.is_empty() {
        return None;
    }
    let mut fixed = doc.clone();
    fixed.apply(&Edit::Group(edits.clone())).ok()?;
    Some((fixed, edits))
}

/// The stabilizing edit of a document.
pub fn stabilize(doc: &Document, opts: &StabilizeOptions) -> Stabilized {
    let mut changes = Vec::new();
    let first = Model::new(doc, &opts.settings);
    let fixed = unrefused(doc, &first, &mut changes);
    let (doc, edits) = match &fixed {
        Some((d, e)) => (d, e.clone()),
        None => (doc, Vec::new()),
    };
    let model = match fixed {
        Some(_) => Model::new(doc, &opts.settings),
        None => first,
    };
    let mut out = Out {
        doc,
        edits,
        changes,
    };
    let masses = clamp_masses(&model, opts.max_mass_ratio.max(1.0));
    for (b, (&new, body)) in masses.iter().zip(&model.bodies).enumerate() {
        if (new - body.mass_kg).abs() > 1e-9 * body.mass_kg {
            out.set(body.id, Key::Mass, json!(new));
            out.changes.push(format!(
                "{}: mass {:.4} -> {new:.4} kg",
                model.bodies[b].name, body.mass_kg
            ));
        }
    }
    raise_parent_inertia(&model, &masses, &mut out);
    disable_overlaps(doc, &model, &mut out);
    fix_limits(&model, &mut out);
    add_damping(doc, &model, &mut out);
    fix_drives(doc, &model, &masses, &mut out);
    Stabilized {
        nothing: (model.bodies.is_empty() && out.edits.is_empty()).then_some(NO_RAGDOLL),
        edit: Edit::Group(out.edits),
        changes: out.changes,
    }
}

/// Masses with every jointed pair within `r` either way, each connected ragdoll evened as
/// Jolt does (parents first, its total mass kept): the one evening the generator also applies
/// to its limbs ([`mass_ratio::even`]).
/// A child never ends heavier than [`mass_ratio::HEAVY_CHILD_RATIO`] times its parent, whatever
/// `r`.
fn clamp_masses(model: &Model, r: f64) -> Vec<f64> {
    let parent = model.parents();
    let mut m: Vec<f64> = model.bodies.iter().map(|b| b.mass_kg).collect();
    let bounds = [1.0 / r, r.min(mass_ratio::HEAVY_CHILD_RATIO)];
    for tree in mass_ratio::trees(&parent) {
        mass_ratio::even(&mut m, &parent, &tree, bounds);
    }
    m.into_iter().map(round6).collect()
}

/// Each parent's principal moments raised (its `min_inertia_kg_m2`) to at least its
/// children's sum, at most twice its own largest, as Jolt does
/// ([`mass_ratio::parent_inertia_minimums`]). Read from the shapes' moments at the evened
/// masses with the simulation's floor, not from the floors a file already sets, so a second
/// Stabilize changes nothing; a floor the file sets higher is kept.
fn raise_parent_inertia(model: &Model, masses: &[f64], out: &mut Out) {
    let floor = model.floor();
    let own: Vec<DVec3> = model
        .bodies
        .iter()
        .zip(masses)
        .map(|(b, &m)| b.moments(m, floor))
        .collect();
    let largest: Vec<f64> = own.iter().map(|i| i.max_element()).collect();
    let minimums = mass_ratio::parent_inertia_minimums(&largest, &model.parents());
    for ((b, min), (i, &m)) in model
        .bodies
        .iter()
        .zip(minimums)
        .zip(own.iter().zip(masses))
    {
        let Some(min) = min else { continue };
        let now = b.moments(m, floor.max(b.min_inertia_kg_m2));
        if min <= now.min_element() * (1.0 + 1e-6) {
            continue;
        }
        let value = six_digits(min, true);
        out.set(b.id, Key::MinInertia, json!(value));
        out.changes.push(format!(
            "{}: inertia [{}] -> each moment at least {} kg*m^2 (its children's sum, at most twice its largest: Jolt's Stabilize)",
            b.name,
            i.to_array().map(|x| readable(round6(x))).join(", "),
            readable(value)
        ));
    }
}

/// Six significant digits.
fn round6(x: f64) -> f64 {
    six_digits(x, false)
}

fn disable_overlaps(doc: &Document, model: &Model, out: &mut Out) {
    let table = super::pair_table::PairTable::of_model(doc, model);
    let (edits, changes) = super::pair_table::disable_overlapping(doc, &table);
    out.edits.extend(edits);
    out.changes.extend(changes);
}

/// `[lo, hi]` holding 0, and [`WIDENED_RANGE_DEG`] wide when it was under [`MIN_RANGE_DEG`]
/// (a zero range stays locked).
fn widened([lo, hi]: [f64; 2]) -> [f64; 2] {
    let (mut lo, mut hi) = (lo.min(0.0), hi.max(0.0));
    if hi - lo > 0.0 && hi - lo < MIN_RANGE_DEG {
        let c = (lo + hi) / 2.0;
        let half = WIDENED_RANGE_DEG / 2.0;
        (lo, hi) = (c - half, c + half);
        let shift = if lo > 0.0 {
            -lo
        } else if hi < 0.0 {
            -hi
        } else {
            0.0
        };
        (lo, hi) = ((lo + shift).max(-180.0), (hi + shift).min(180.0));
    }
    [lo, hi]
}

fn fix_limits(model: &Model, out: &mut Out) {
    for j in &model.joints {
        if narrow_ranges(&j.kind).is_empty() && rest_outside(&j.kind).is_none() {
            continue;
        }
        let c = &model.bodies[j.child];
        match &j.kind {
            ConstraintKind::Hinge {
                limit_min_deg,
                limit_max_deg,
                ..
            } => {
                let [lo, hi] = widened([*limit_min_deg, *limit_max_deg]);
                out.set(c.id, Key::LimitMin, json!(lo));
                out.set(c.id, Key::LimitMax, json!(hi));
                out.changes.push(format!(
                    "{}: hinge range [{limit_min_deg}, {limit_max_deg}]° -> [{lo}, {hi}]°",
                    c.name
                ));
            }
            ConstraintKind::BallSocket {
                swing_limit_deg: s,
                twist_limit_deg: t,
                ..
            } => fix_ball_limits(c, s, t, out),
        }
    }
}

/// Widens a ball joint's narrow twist range and its narrow swing extents.
fn fix_ball_limits(c: &BodyModel, s: &SwingExtentsDeg, t: &TwistRangeDeg, out: &mut Out) {
    let [lo, hi] = widened([t.min_deg, t.max_deg]);
    if [lo, hi] != [t.min_deg, t.max_deg] {
        out.set(c.id, Key::TwistRange, json!([lo, hi]));
        out.changes.push(format!(
            "{}: twist range [{}, {}]° -> [{lo}, {hi}]°",
            c.name, t.min_deg, t.max_deg
        ));
    }
    let half = WIDENED_RANGE_DEG / 2.0;
    let grow = |a: f64, b: f64| {
        if a + b > 0.0 && a + b < MIN_RANGE_DEG {
            (a.max(half), b.max(half))
        } else {
            (a, b)
        }
    };
    let (py, ny) = grow(s.pos_y, s.neg_y);
    let (pz, nz) = grow(s.pos_z, s.neg_z);
    let new = SwingExtentsDeg {
        pos_y: py,
        neg_y: ny,
        pos_z: pz,
        neg_z: nz,
    };
    if new != *s {
        out.set(c.id, Key::SwingExtents, write::swing_extents(&new));
        out.changes.push(format!(
            "{}: swing extents {:?}° -> {:?}°",
            c.name,
            s.to_array(),
            new.to_array()
        ));
    }
}

/// Angular damping for a body without it, and linear damping for a body without it. Angular
/// damping slows only a body's spin (I * w): a sphere or capsule rolling on the ground carries
/// m * r^2 more about its contact, which only linear damping reaches. With angular damping
/// alone the mannequin's sphere head, perched on its shoulder after a passive collapse, rolled
/// off it at 4-6 s (5.6% of the height per second); with both it comes to rest.
fn add_damping(doc: &Document, model: &Model, out: &mut Out) {
    for b in &model.bodies {
        let m = doc.bone(b.id).material();
        let mut added = Vec::new();
        if m.angular_damping_or_default() <= 0.0 {
            out.set(b.id, Key::AngularDamping, json!(STABLE_ANGULAR_DAMPING));
            added.push(format!(
                "{} {STABLE_ANGULAR_DAMPING}/s",
                leaf(Key::AngularDamping)
            ));
        }
        if m.linear_damping_or_default() <= 0.0 {
            out.set(b.id, Key::LinearDamping, json!(STABLE_LINEAR_DAMPING));
            added.push(format!(
                "{} {STABLE_LINEAR_DAMPING}/s",
                leaf(Key::LinearDamping)
            ));
        }
        if !added.is_empty() {
            out.changes
                .push(format!("{}: {} (it had none)", b.name, added.join(", ")));
        }
    }
}

/// Trunk joints raised to hold their rest ([`super::trunk`]), then every drive capped to a
/// natural frequency the step integrates (the cap wins: a trunk that sags is a warning, a
/// drive the solver cannot integrate is an error). Damping keeps its ratio to critical.
fn fix_drives(doc: &Document, model: &Model, masses: &[f64], out: &mut Out) {
    let mut drives: Vec<Drive> = model.joints.iter().map(|j| j.drive).collect();
    let mut why: Vec<Vec<String>> = vec![Vec::new(); drives.len()];
    let anatomy = crate::anatomy::Anatomy::of(doc);
    for s in super::trunk::sagging(doc, &anatomy, model, masses) {
        let d = &mut drives[s.joint];
        restiffen(d, s.holding_stiffness());
        let torque = round6(TORQUE_PER_LOAD * s.rest_load_nm);
        if d.max_torque < torque {
            d.max_torque = torque;
        }
        why[s.joint].push(format!(
            "the trunk sagged {:.1}° at rest under {:.1} kg: it now holds within {:.0}°",
            s.sag_rad.to_degrees(),
            s.mass_kg,
            load::MAX_TRUNK_SAG_RAD.to_degrees()
        ));
    }
    for ((j, d), why) in model.joints.iter().zip(&mut drives).zip(&mut why) {
        let cap = stiffness_cap(model, j, masses, STABLE_OMEGA_DT);
        if d.stiffness > cap {
            restiffen(d, cap);
            why.push(format!(
                "natural frequency within {STABLE_OMEGA_DT}/dt of the solver's step"
            ));
        }
    }
    for ((j, d), why) in model.joints.iter().zip(&drives).zip(why) {
        if why.is_empty() {
            continue;
        }
        write_drive(&model.bodies[j.child], &j.drive, d, &why, out);
    }
}

/// `d` at stiffness `k` (rounded), its damping scaled to keep its ratio to critical.
fn restiffen(d: &mut Drive, k: f64) {
    let k = round6(k);
    d.damping = round6(d.damping * (k / d.stiffness).sqrt());
    d.stiffness = k;
}

/// The edits from `old` to `new` and one line reporting them.
fn write_drive(c: &BodyModel, old: &Drive, new: &Drive, why: &[String], out: &mut Out) {
    let mut parts = Vec::new();
    for (key, a, b) in [
        (Key::Stiffness, old.stiffness, new.stiffness),
        (Key::Damping, old.damping, new.damping),
        (Key::MaxTorque, old.max_torque, new.max_torque),
    ] {
        if a != b {
            out.set(c.id, key, json!(b));
            parts.push(format!("{} {a} -> {b}", leaf(key)));
        }
    }
    out.changes.push(format!(
        "{}: drive {} ({})",
        c.name,
        parts.join(", "),
        why.join("; ")
    ));
}
