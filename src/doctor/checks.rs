//! The doctor's checks, each pushing findings that name the bones and the fix.

use super::model::{JointModel, Model};
use super::*;
use crate::document::fields::readable;
use crate::document::pairs::explicit_pairs;
use crate::document::write::leaf;
use crate::document::ConstraintKind;
use crate::joint::mass_ratio;

pub(super) fn finding(
    check: Check,
    severity: Severity,
    bones: Vec<BoneId>,
    key: Key,
    message: String,
) -> Finding {
    Finding {
        check,
        severity,
        bones,
        key,
        message,
    }
}

pub(super) fn names<'a>(model: &'a Model, j: &JointModel) -> (&'a str, &'a str) {
    (&model.bodies[j.parent].name, &model.bodies[j.child].name)
}

/// Mass and inertia ratios across joints, and masses absurd for a body's size.
pub(super) fn masses(model: &Model, out: &mut Vec<Finding>) {
    for j in &model.joints {
        let (p, c) = (&model.bodies[j.parent], &model.bodies[j.child]);
        let (pn, cn) = names(model, j);
        let ids = vec![c.id, p.id];
        let ratio = p.mass_kg.max(c.mass_kg) / p.mass_kg.min(c.mass_kg);
        if ratio > MAX_MASS_RATIO {
            out.push(finding(Check::MassRatio, Severity::Error, ids.clone(), Key::Mass, format!(
                "mass ratio {ratio:.0}:1 across the joint {pn} ({:.3} kg) - {cn} ({:.3} kg), above {MAX_MASS_RATIO}:1: the solver cannot hold it; fix: bring the masses within {MAX_MASS_RATIO}:1 (Stabilize evens them out)",
                p.mass_kg, c.mass_kg)));
        }
        if c.mass_kg > HEAVY_CHILD_RATIO * p.mass_kg {
            out.push(finding(Check::HeavyChild, Severity::Warning, ids.clone(), Key::Mass, format!(
                "{cn} ({:.3} kg) hangs on the lighter {pn} ({:.3} kg), {:.1} times its mass: a heavy body on a light one cannot hold its joint; fix: lighten {cn} or make {pn} heavier (Stabilize)",
                c.mass_kg, p.mass_kg, c.mass_kg / p.mass_kg)));
        }
        let ip = p.inertia(p.mass_kg, model.floor()).1;
        let ic = c.inertia(c.mass_kg, model.floor()).1;
        let ir = ip.max(ic) / ip.min(ic);
        if ir > MAX_INERTIA_RATIO {
            out.push(finding(Check::InertiaRatio, Severity::Warning, ids, Key::Mass, format!(
                "inertia ratio {}:1 across the joint {pn} - {cn}, above {MAX_INERTIA_RATIO}:1; fix: even out the masses or sizes, or raise the smaller body's {} (a floor on its moments)", readable(ir.round()), leaf(Key::MinInertia))));
        }
    }
    density(model, out);
    beyond_the_simulation(model, out);
}

/// Colliders the simulation refuses (a mass past what it takes at this size, a shape past
/// its largest extent): errors, since they cannot be simulated, with a fix. At 1e12 kg a thigh
/// had only the "share of the total" warning, its joints' ratios unchecked, and `simulate`
/// refused the file; a capsule of radius 1e30 made `validate` panic.
fn beyond_the_simulation(model: &Model, out: &mut Vec<Finding>) {
    let median = model.median_mass_kg();
    for r in &model.refused {
        let fix = match (r.mass_kg, median) {
            (Some(_), Some(m)) => format!(
                "a mass like the others' (the median body weighs {} kg)",
                readable(m)
            ),
            (Some(_), None) => {
                format!("a mass under {} kg", readable(model.settings.max_mass_kg()))
            }
            (None, _) if r.key == Key::MinInertia => format!(
                "remove {} (Stabilize does) or set one like its neighbours' moments",
                leaf(Key::MinInertia)
            ),
            (None, _) => "a size like its neighbours'".into(),
        };
        let check = match r.mass_kg {
            Some(_) => Check::AbsurdMass,
            None => Check::AbsurdSize,
        };
        out.push(finding(
            check,
            Severity::Error,
            vec![r.id],
            r.key,
            format!(
                "{}: the simulation refuses it ({}); fix: {fix}",
                r.name, r.what
            ),
        ));
    }
}

/// Bodies whose mass is far from what their size suggests, as near to it as the mass ratios
/// of their joints allow (see [`ODD_DENSITY`]).
fn density(model: &Model, out: &mut Vec<Finding>) {
    let mut d: Vec<f64> = model.bodies.iter().map(|b| b.mass_kg / b.volume).collect();
    if d.len() < 3 {
        return;
    }
    d.sort_by(f64::total_cmp);
    let median = d[d.len() / 2];
    let masses: Vec<f64> = model.bodies.iter().map(|b| b.mass_kg).collect();
    let parents = model.parents();
    for (i, b) in model.bodies.iter().enumerate() {
        let r = b.mass_kg / b.volume / median;
        let by_size = b.mass_kg / r;
        let [lo, hi] = mass_ratio::allowed_mass(&masses, &parents, i);
        if lo > hi {
            // Its neighbours are out of ratio with each other: the ratio findings name them.
            continue;
        }
        let likely = by_size.clamp(lo, hi);
        let off = (b.mass_kg / likely).max(likely / b.mass_kg);
        if off <= ODD_DENSITY {
            continue;
        }
        let held = if likely != by_size {
            " (as near its size's as the mass ratios of its joints allow)"
        } else {
            ""
        };
        out.push(finding(Check::AbsurdMass, Severity::Warning, vec![b.id], Key::Mass, format!(
            "{} weighs {:.3} kg, {r:.3} times what its size suggests at the character's median density; fix: a mass near {likely:.3} kg{held}",
            b.name, b.mass_kg)));
    }
}

/// Pairs of bodies (indices into the model) that overlap at rest while they collide, with
/// the overlap depth (world units), deepest first.
pub(crate) fn overlapping(doc: &Document, model: &Model) -> Vec<(usize, usize, f64)> {
    let table = super::pair_table::PairTable::of_model(doc, model);
    let mut out: Vec<(usize, usize, f64)> = table
        .overlapping_colliding()
        .map(|r| (r.ia, r.ib, r.overlap.unwrap_or(0.0)))
        .collect();
    out.sort_by(|x, y| y.2.total_cmp(&x.2));
    out
}

/// Bodies that overlap at rest while they collide.
pub(super) fn overlaps(doc: &Document, model: &Model, out: &mut Vec<Finding>) {
    for (a, b, depth) in overlapping(doc, model) {
        let (ba, bb) = (&model.bodies[a], &model.bodies[b]);
        out.push(finding(Check::Overlap, Severity::Error, vec![ba.id, bb.id], Key::CollisionPairs, format!(
            "{} and {} overlap by {depth:.4} at rest and collide: they push apart from the first step; fix: disable the pair (`collision_pairs`, Stabilize does) or shrink a collider",
            ba.name, bb.name)));
    }
}

/// The narrow ranges of a joint's limit: (key, width in degrees).
pub(crate) fn narrow_ranges(kind: &ConstraintKind) -> Vec<(Key, f64)> {
    let tiny = |w: f64| w > 0.0 && w < MIN_RANGE_DEG;
    let mut out = Vec::new();
    match kind {
        ConstraintKind::Hinge {
            limit_min_deg,
            limit_max_deg,
            ..
        } => {
            out.push((Key::LimitMin, limit_max_deg - limit_min_deg));
        }
        ConstraintKind::BallSocket {
            swing_limit_deg: s,
            twist_limit_deg: t,
            ..
        } => {
            let swing = if s.as_circular().is_some() {
                Key::SwingLimit
            } else {
                Key::SwingExtents
            };
            out.push((swing, s.pos_y + s.neg_y));
            out.push((swing, s.pos_z + s.neg_z));
            out.push((Key::TwistRange, t.max_deg - t.min_deg));
        }
    }
    out.retain(|&(_, w)| tiny(w));
    out
}

/// The ranges that leave out the rest pose (angle 0): (key, [min, max]).
pub(crate) fn rest_outside(kind: &ConstraintKind) -> Option<(Key, [f64; 2])> {
    let (key, lo, hi) = match kind {
        ConstraintKind::Hinge {
            limit_min_deg,
            limit_max_deg,
            ..
        } => (Key::LimitMin, *limit_min_deg, *limit_max_deg),
        ConstraintKind::BallSocket {
            twist_limit_deg: t, ..
        } => (Key::TwistRange, t.min_deg, t.max_deg),
    };
    (lo > 0.0 || hi < 0.0).then_some((key, [lo, hi]))
}

/// Limit ranges under 5° and limits that leave out the rest pose.
pub(super) fn limits(model: &Model, out: &mut Vec<Finding>) {
    for j in &model.joints {
        let (pn, cn) = names(model, j);
        let ids = vec![model.bodies[j.child].id, model.bodies[j.parent].id];
        for (key, w) in narrow_ranges(&j.kind) {
            out.push(finding(Check::TinyLimit, Severity::Error, ids.clone(), key, format!(
                "the joint {pn} - {cn} allows only {w:.2}° on `{}`: a range under {MIN_RANGE_DEG}° jitters against its stops; fix: lock the axis (range 0) or widen it to {MIN_RANGE_DEG}° (Stabilize widens)",
                leaf(key))));
        }
        if let Some((key, [lo, hi])) = rest_outside(&j.kind) {
            out.push(finding(Check::RestOutsideLimit, Severity::Error, ids, key, format!(
                "the rest pose of {cn} lies outside its limit [{lo}, {hi}]° on `{}`: the joint snaps at the first step; fix: a range that holds 0 (Stabilize extends it)",
                leaf(key))));
        }
    }
}

/// The stiffest a joint's drive may be for the solver's substep (N*m/rad).
pub(crate) fn stiffness_cap(model: &Model, j: &JointModel, masses: &[f64], omega_dt: f64) -> f64 {
    let i = model.drive_inertia(j, masses);
    let w = omega_dt / model.substep_s();
    i * w * w
}

/// Drives whose natural frequency is too high for the solver's step.
pub(super) fn drives(model: &Model, out: &mut Vec<Finding>) {
    let masses: Vec<f64> = model.bodies.iter().map(|b| b.mass_kg).collect();
    let h = model.substep_s();
    for j in &model.joints {
        let k = j.drive.stiffness;
        let i = model.drive_inertia(j, &masses);
        let wdt = (k / i).sqrt() * h;
        if wdt > MAX_DRIVE_OMEGA_DT {
            let (pn, cn) = names(model, j);
            let cap = stiffness_cap(model, j, &masses, MAX_DRIVE_OMEGA_DT);
            out.push(finding(Check::DriveTooStiff, Severity::Error, vec![model.bodies[j.child].id, model.bodies[j.parent].id], Key::Stiffness, format!(
                "the drive of {cn} (on {pn}) has natural frequency sqrt(k/I) = {:.0} rad/s, {wdt:.1} times 1/dt of the solver's step ({h:.5} s): stiffness {k} on an inertia of {i:.4}; fix: stiffness at most {cap:.1} (Stabilize caps it)",
                wdt / h)));
        }
    }
}

/// Bodies without any damping.
pub(super) fn damping(doc: &Document, model: &Model, out: &mut Vec<Finding>) {
    let undamped: Vec<&model::BodyModel> = model
        .bodies
        .iter()
        .filter(|b| doc.bone(b.id).material().is_undamped())
        .collect();
    if undamped.is_empty() {
        return;
    }
    let listed: Vec<&str> = undamped.iter().take(6).map(|b| b.name.as_str()).collect();
    let more = undamped.len().saturating_sub(listed.len());
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    out.push(finding(Check::NoDamping, Severity::Warning, undamped.iter().map(|b| b.id).collect(), Key::AngularDamping, format!(
        "{} of {} bodies have no damping ({}{tail}): limbs may spin and jitter without ever settling; fix: some angular and linear damping (Stabilize adds it)",
        undamped.len(), model.bodies.len(), listed.join(", "))));
}

/// Bones with physics (a constraint or a mass) but no collider: not simulated.
pub(super) fn colliders(doc: &Document, out: &mut Vec<Finding>) {
    for id in doc.bone_ids() {
        let b = doc.bone(id);
        let Some(p) = &b.physics else { continue };
        let states_mass = doc
            .physics_json(id)
            .and_then(|v| v.get(leaf(Key::Mass)))
            .is_some();
        if p.collider.is_none() && (p.constraint.is_some() || states_mass) {
            out.push(finding(Check::NoCollider, Severity::Warning, vec![id], Key::Collider, format!(
                "{} has physics but no collider: it gets no body and its joint is not simulated; fix: give it a collider, or remove its physics",
                b.name)));
        }
        loose(doc, id, out);
    }
    apart(doc, out);
}

/// Bodies with no joint and no body above them are ragdolls of their own: all but the
/// heaviest (the ragdoll's root) are named. Godot's walker, its legs hung beside its body
/// from a control bone with no body, was generated as five ragdolls and found clean.
fn apart(doc: &Document, out: &mut Vec<Finding>) {
    let mut roots: Vec<BoneId> = (doc.bone_ids())
        .filter(|&id| doc.bone(id).collider().is_some() && doc.bone(id).constraint().is_none())
        .filter(|&id| body_above(doc, id).is_none())
        .collect();
    let mass = |id: BoneId| doc.bone(id).physics.as_ref().map_or(0.0, |p| p.mass);
    roots.sort_by(|&a, &b| mass(b).total_cmp(&mass(a)));
    let Some((&root, others)) = roots.split_first() else {
        return;
    };
    let root_name = &doc.bone(root).name;
    for &id in others {
        let name = &doc.bone(id).name;
        out.push(finding(Check::LooseBody, Severity::Warning, vec![id, root], Key::Constraint, format!(
            "{name} has a body but no joint, and no body above it: it is a ragdoll of its own, apart from the one rooted at {root_name}; fix: give {name} a constraint to the body it belongs to (`parent_bone`), or remove its collider if it is meant to be apart")));
    }
}

/// A body with no joint below an ancestor with a body: simulated loose, it falls off the
/// ragdoll (the Godot robot's head, whose parent `headtracker` has no body, did). A warning:
/// a part meant to fall free (a hat) is a choice.
fn loose(doc: &Document, id: BoneId, out: &mut Vec<Finding>) {
    let b = doc.bone(id);
    if b.collider().is_none() || b.constraint().is_some() {
        return;
    }
    if let Some(a) = body_above(doc, id) {
        let anc = &doc.bone(a).name;
        out.push(finding(Check::LooseBody, Severity::Warning, vec![id, a], Key::Constraint, format!(
            "{} has a body but no joint, below {anc}, which has one: it is simulated loose and falls off the ragdoll; fix: give {} a constraint to {anc}, or remove its collider if it is meant to fall free",
            b.name, b.name)));
    }
}

/// The nearest bone above `id` in the file that has a body.
fn body_above(doc: &Document, id: BoneId) -> Option<BoneId> {
    std::iter::successors(doc.bone(id).parent, |&p| doc.bone(p).parent)
        .find(|&a| doc.bone(a).collider().is_some())
}

/// Explicit pairs naming no bone, and pairs stated both ways.
pub(super) fn pairs(doc: &Document, out: &mut Vec<Finding>) {
    let p = explicit_pairs(doc);
    for (id, name) in &p.unknown {
        out.push(finding(
            Check::UnknownPair,
            Severity::Warning,
            vec![*id],
            Key::CollisionPairs,
            format!(
            "`{}` names '{name}', which is no other bone: the entry is ignored; fix: a bone name",
            leaf(Key::CollisionPairs)),
        ));
    }
    for pair in &p.conflicts {
        out.push(finding(Check::UnknownPair, Severity::Warning, vec![pair.0, pair.1], Key::CollisionPairs, format!(
            "{} and {} state their pair both ways: they do not collide (false wins); fix: state it once",
            doc.bone(pair.0).name, doc.bone(pair.1).name)));
    }
}
