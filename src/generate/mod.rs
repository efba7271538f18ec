//! Generates a ragdoll for any rigged character: recognises the skeleton (roles from names,
//! topology and geometry), fits shapes to the skin, sets joints and limits by anatomy, masses
//! by segment fractions, drives scaled to their load and balance settings from the roles.
//! Pure document-layer code: the result is one [`Edit::Group`] for [`Document::apply`], so the
//! CLI saves it losslessly and the editor undoes it in one step.
//!
//! Everything is relative to the character's size (its height along +Y), in the file's own
//! units; sizes and offsets are written in each bone's own coordinates (see the README's
//! schema units).

mod balance;
pub mod bodies;
pub mod clips;
mod crown;
pub mod drives;
mod edit;
pub mod emit;
mod ends;
pub mod fit;
mod gains;
pub mod groups;
mod input;
pub mod limits;
pub mod mass;
pub mod report;
pub mod shapes;
mod soles;
mod symmetry;
pub mod trunk;

pub use crate::anatomy::{names, rig, samples};
use crate::document::geometry::Geometry;
use crate::document::{Diagnostic, Document, Edit};
use bodies::Fate;
use glam::DVec3;
pub use report::Report;
use roles::Anatomy;
pub use roles::{CharacterKind, Role};
pub use soles::SOLE_TOLERANCE;

/// The anatomy as the generator indexes it (by bone position, like its per-bone arrays).
pub(crate) mod roles {
    pub use crate::anatomy::rig::topo_all;
    pub use crate::anatomy::{
        CharacterKind, Indexed as Anatomy, IndexedLimb as Limb, LimbKind, Role,
    };
}

/// The user's choices.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Leave bones that already have physics (and existing balance settings) as they are.
    pub keep_existing: bool,
    /// Bones smaller than this share of the height merge into their parent's body.
    pub min_bone_size: f64,
    pub fingers: bool,
    pub toes: bool,
    pub tail: bool,
    pub twist: bool,
    /// Bodies for hair and clothing chains named as such (`Hair1`, `J_Sec_L_SkirtBack0_01`,
    /// `hair-pink.001.l`): by default they are left to the skin (secondary motion is a spring
    /// system's, as in every engine's ragdoll builder), and their share of the mass to the body.
    pub cloth: bool,
    /// Total mass (kg); None: from the height (70 kg at 1.75 m, cubic).
    pub total_mass_kg: Option<f64>,
    /// The body plan when detection is wrong.
    pub kind: Option<CharacterKind>,
    /// Wrists and ankles as hinges instead of ball sockets.
    pub hinge_wrists_ankles: bool,
    /// Fit a humanoid's pelvis, spine and chest to every vertex skinned to them, a tail's,
    /// wings' or cape's included, and a head to its antlers or horns (by default those are
    /// left out: [`trunk::core`], `crown::core`).
    pub keep_appendages: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            keep_existing: false,
            min_bone_size: 0.04,
            fingers: false,
            toes: false,
            tail: true,
            twist: false,
            cloth: false,
            total_mass_kg: None,
            kind: None,
            hinge_wrists_ankles: false,
            keep_appendages: false,
        }
    }
}

/// A failure to generate anything at all.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("{path}: no bones: the file has no skin joints, no nodes its clips animate and no node with physics, so there is nothing to make a ragdoll of")]
    NoBones { path: String },
    #[error("{path}: {what}")]
    BadOption { path: String, what: String },
    #[error("{path}: no bone became a body: all {bones} bones were taken for helper, control, twist or end bones (`inspect` lists each bone's role); give the body's bones their roles with --role BONE=ROLE")]
    NoBodies { path: String, bones: usize },
}

/// The generated ragdoll: one group edit, the report and the diagnostics about the input.
#[derive(Debug, Clone)]
pub struct Generated {
    pub edit: Edit,
    pub report: Report,
    pub diagnostics: Vec<Diagnostic>,
}

/// Generates from the document's own geometry (a geometry that cannot be read gives a
/// warning and shapes from the bones alone).
pub fn generate(doc: &Document, opts: &Options) -> Result<Generated, GenerateError> {
    let fit = doc.fitting_geometry();
    let warnings = fit
        .notes()
        .map(|text| Diagnostic::warning(None, "document", "geometry", text.clone()))
        .collect();
    generate_with(doc, &fit.geometry, opts, warnings)
}

/// One generated body, while it is being built.
#[derive(Debug, Clone)]
pub(crate) struct Body {
    pub bone: usize,
    pub parent: Option<usize>,
    /// The parent when it is a bone whose existing physics is kept: (bone, its primary axis
    /// in the world).
    pub kept_parent: Option<(usize, DVec3)>,
    pub shape: shapes::BodyShape,
    pub mass_kg: f64,
    pub joint: Option<limits::JointPlan>,
    pub gains: drives::Gains,
    /// Joint friction (N*m), see [`drives::joint_friction_nm`].
    pub friction_torque_nm: f64,
    pub group: String,
    /// Bodies (indices) kept apart by an explicit pair: they interpenetrate in a clip.
    pub apart: Vec<usize>,
    /// Skin vertices left out of its shape as an appendage with no bone ([`trunk::core`]).
    pub appendage_vertices: usize,
}

fn check_options(doc: &Document, o: &Options) -> Result<(), GenerateError> {
    let bad = |what: String| GenerateError::BadOption {
        path: doc.path.display().to_string(),
        what,
    };
    if !(o.min_bone_size.is_finite() && (0.0..0.5).contains(&o.min_bone_size)) {
        return Err(bad(format!(
            "minimum bone size {} is not a share of the height in 0..0.5",
            o.min_bone_size
        )));
    }
    if let Some(m) = o.total_mass_kg {
        if !(m.is_finite() && m > 0.0 && m < 1e9) {
            return Err(bad(format!("total mass {m} kg is not in (0, 1e9)")));
        }
    }
    Ok(())
}

/// What the generator reads: the document, its rig, skin samples and anatomy, and which
/// bones already have physics.
struct Input<'a> {
    doc: &'a Document,
    rig: &'a rig::Rig,
    samples: &'a samples::Samples,
    anatomy: &'a Anatomy,
    has_physics: &'a [bool],
}

/// Keeping some bodies: each new one weighs what it would in a whole generated ragdoll.
fn masses_as_if_whole(input: &Input, opts: &Options, total: f64, list: &mut [Body]) {
    let Input {
        doc,
        rig,
        samples,
        anatomy,
        has_physics,
    } = *input;
    let all = Options {
        keep_existing: false,
        ..opts.clone()
    };
    let full_plan = bodies::plan(rig, samples, anatomy, &all, has_physics);
    let mut full = build_bodies(doc, rig, samples, anatomy, (&full_plan, opts));
    assign_masses(anatomy, &mut full, total);
    for b in list {
        if let Some(f) = full.iter().find(|f| f.bone == b.bone) {
            b.mass_kg = f.mass_kg;
        }
    }
}

/// The pairs of bodies kept apart (no collision), by bone name.
fn kept_apart(rig: &rig::Rig, list: &[Body]) -> Vec<[String; 2]> {
    (list.iter())
        .flat_map(|b| b.apart.iter().map(move |&o| (b.bone, list[o].bone)))
        .map(|(x, y)| [x, y].map(|i| rig.bones[i].name.clone()))
        .collect()
}

/// The rig, or `NoBones` when the document has none.
fn non_empty_rig(doc: &Document, samples: &samples::Samples) -> Result<rig::Rig, GenerateError> {
    let rig = rig::Rig::new(doc, samples);
    if rig.is_empty() {
        return Err(GenerateError::NoBones {
            path: doc.path.display().to_string(),
        });
    }
    Ok(rig)
}

/// Generates from given geometry.
pub fn generate_with(
    doc: &Document,
    geo: &Geometry,
    opts: &Options,
    mut diagnostics: Vec<Diagnostic>,
) -> Result<Generated, GenerateError> {
    check_options(doc, opts)?;
    let samples = samples::collect(doc, geo);
    let rig = non_empty_rig(doc, &samples)?;
    let detected = crate::anatomy::Anatomy::detect(doc, &rig, &samples, opts.kind);
    let anatomy = detected.indexed();
    input::input_diagnostics(&rig, &samples, (anatomy, detected.kind()), &mut diagnostics);
    let has_physics: Vec<bool> = doc.bones.iter().map(|b| b.physics.is_some()).collect();
    let plan = bodies::plan(&rig, &samples, anatomy, opts, &has_physics);
    let mut list = build_bodies(doc, &rig, &samples, anatomy, (&plan, opts));
    if list.is_empty() && !plan.fate.contains(&Fate::Kept) {
        return Err(GenerateError::NoBodies {
            path: doc.path.display().to_string(),
            bones: doc.bones.len(),
        });
    }
    symmetry::even_shapes(anatomy, &samples, &plan, &mut list);
    let total = opts
        .total_mass_kg
        .unwrap_or_else(|| mass::total_from_height(anatomy.height));
    assign_masses(anatomy, &mut list, total);
    if plan.fate.contains(&Fate::Kept) {
        let input = Input {
            doc,
            rig: &rig,
            samples: &samples,
            anatomy,
            has_physics: &has_physics,
        };
        masses_as_if_whole(&input, opts, total, &mut list);
    }
    assign_joints(anatomy, &mut list, opts.hinge_wrists_ankles);
    symmetry::even_joints(anatomy, &mut list);
    gains::assign_gains(&rig, anatomy, &mut list, total);
    let masks = assign_groups(anatomy, &mut list);
    let fitted = clips::fit(doc, anatomy, &mut list, &masks, |l| {
        edit::build_edit(doc, &rig, anatomy, &plan, l, &masks, opts, total).edit
    });
    let edit::BuiltEdit { edit, balance } =
        edit::build_edit(doc, &rig, anatomy, &plan, &list, &masks, opts, total);
    let mut report = report::build(
        &rig,
        anatomy,
        &plan,
        &list,
        &samples,
        total,
        balance,
        &diagnostics,
    );
    report.widened = fitted.widened;
    report.not_widened = fitted.not_widened;
    report.kept_apart = kept_apart(&rig, &list);
    Ok(Generated {
        edit,
        report,
        diagnostics,
    })
}

/// What every body's fit reads: the rig, the skin samples, the anatomy, the plan.
struct FitInputs<'a> {
    doc: &'a Document,
    rig: &'a rig::Rig,
    samples: &'a samples::Samples,
    a: &'a Anatomy,
    plan: &'a bodies::Plan,
    /// Each kept bone's index in the list of bodies.
    index: std::collections::HashMap<usize, usize>,
    /// The trunk's half width that separates appendages from its core (None: keep them).
    half_width: Option<f64>,
    /// Fit every vertex, appendages included (trunks and heads).
    keep_appendages: bool,
    /// Feet without skin, each with the body above it (`ends`).
    ends: Vec<(usize, usize)>,
}

fn build_bodies(
    doc: &Document,
    rig: &rig::Rig,
    samples: &samples::Samples,
    a: &Anatomy,
    (plan, opts): (&bodies::Plan, &Options),
) -> Vec<Body> {
    let index = plan
        .bodies
        .iter()
        .enumerate()
        .map(|(k, &b)| (b, k))
        .collect();
    let half_width = trunk::half_width(rig, a).filter(|_| !opts.keep_appendages);
    let ends = plan
        .bodies
        .iter()
        .filter_map(|&b| Some((plan.parent_body[b]?, b)))
        .filter(|&(_, b)| ends::takes_skin(rig, a, b, samples.body_skin(b).len()))
        .collect();
    let inputs = FitInputs {
        doc,
        rig,
        samples,
        a,
        plan,
        index,
        half_width,
        keep_appendages: opts.keep_appendages,
        ends,
    };
    let mut list: Vec<Body> = plan.bodies.iter().map(|&b| fit_body(&inputs, b)).collect();
    soles::keep_legs_above_their_soles(a, &mut list, |i| own_core(&inputs, plan.bodies[i]).0);
    list
}

/// Bone `b`'s skin: its own, with a skinless foot's share of the body above it moved down
/// to the foot.
fn own_skin(f: &FitInputs, b: usize) -> Vec<DVec3> {
    let skin_of = |b: usize| bodies::body_points(f.plan, f.samples, b);
    let mut own = skin_of(b);
    for &(above, end) in &f.ends {
        if end == b {
            own.extend(ends::split(f.rig, (above, end), skin_of(above)).1);
        } else if above == b {
            own = ends::split(f.rig, (above, end), own).0;
        }
    }
    own
}

/// Bone `b`'s skin without appendages (its trunk core, a head's core) and how many vertices
/// that left out.
fn own_core(f: &FitInputs, b: usize) -> (Vec<DVec3>, usize) {
    let own = own_skin(f, b);
    let axis = shapes::bone_direction(f.rig, f.a, b, &own);
    let skin = own.len();
    let own = trunk::core(
        f.a,
        (b, f.rig.bones[b].pos),
        axis,
        own,
        (f.half_width, fit::MIN_POINTS),
    );
    let own = if f.a.role[b] == Role::Head && !f.keep_appendages {
        let joint = f.rig.bones[b].pos;
        let tip = f
            .rig
            .children_in_file(b)
            .map(|c| f.rig.bones[c].pos)
            .max_by(|p, q| p.distance(joint).total_cmp(&q.distance(joint)));
        crown::core(own, (joint, tip))
    } else {
        own
    };
    let skipped = skin - own.len();
    (own, skipped)
}

/// Bone `b`'s body: its shape fitted to its skin (its trunk core, without appendages), its
/// parent body; mass, joint and gains come later.
fn fit_body(f: &FitInputs, b: usize) -> Body {
    let (rig, a, plan) = (f.rig, f.a, f.plan);
    let (own, appendage_vertices) = own_core(f, b);
    let mut pts = bodies::fit_points(plan, f.samples, b, &own);
    if own.len() < bodies::FIT_MIN_OWN && f.ends.iter().any(|&(_, e)| e == b) {
        pts.extend(ends::sole_points(rig, a, b));
    }
    let mut shape = shapes::fit_body(rig, a, b, &pts);
    shape.fit.coverage = fit::coverage(&own, &shape.fit, 0.02 * a.height);
    shape.points = own.len();
    let kept_parent = plan.parent_body[b]
        .filter(|&p| plan.fate[p] == Fate::Kept)
        .map(|p| {
            let axis = f.doc.primary_axis(crate::document::BoneId(p as u32));
            (p, rig.bones[p].rot * axis)
        });
    Body {
        bone: b,
        parent: plan.parent_body[b].and_then(|p| f.index.get(&p).copied()),
        kept_parent,
        shape,
        mass_kg: 0.0,
        joint: None,
        gains: drives::gains(0.0, 0.0, 0.0),
        friction_torque_nm: 0.0,
        group: String::new(),
        apart: Vec::new(),
        appendage_vertices,
    }
}

fn assign_masses(a: &Anatomy, list: &mut [Body], total: f64) {
    let inputs: Vec<mass::MassInput> = list
        .iter()
        .map(|b| mass::MassInput {
            role: a.role[b.bone],
            same_role_count: list
                .iter()
                .filter(|o| a.role[o.bone] == a.role[b.bone] && a.side[o.bone] == a.side[b.bone])
                .count(),
            volume: b.shape.fit.shape.volume(),
            parent: b.parent,
        })
        .collect();
    let m = mass::distribute(a.kind, &inputs, total);
    let by_volume = mass::by_volume(a.kind, &inputs);
    for (b, m) in list.iter_mut().zip(m) {
        b.mass_kg = m;
    }
    // Evening twins can undo the ratio cap and the cap can part twins: alternate, limbs evened
    // before the cap, the cap last (the solver's limit matters more than a twin's last gram).
    let parents: Vec<Option<usize>> = list.iter().map(|b| b.parent).collect();
    let (per_kg, floor) = moments_of(list, total);
    let moments = crate::joint::mass_ratio::Moments {
        per_kg: &per_kg,
        floor,
    };
    for _ in 0..4 {
        symmetry::even_masses(a, list);
        let mut m: Vec<f64> = list.iter().map(|b| b.mass_kg).collect();
        mass::even_limbs(&mut m, &parents, &by_volume);
        mass::cap_ratios_and_inertia(&mut m, &parents, total, &moments);
        for (b, m) in list.iter_mut().zip(m) {
            b.mass_kg = m;
        }
    }
}

/// Each body's largest principal moment per kilogram (world units squared) and the inertia
/// floor the simulation will give this ragdoll of `total` kg: its length unit from the
/// colliders' vertical extent, as `sim::length_unit_for` measures it.
fn moments_of(list: &[Body], total: f64) -> (Vec<f64>, f64) {
    use crate::joint::inertia::{bounding_radius, inertia_floor, length_unit, shape_moments};
    let shapes: Vec<_> = list.iter().map(|b| b.shape.fit.shape.collider()).collect();
    let per_kg = shapes
        .iter()
        .map(|s| shape_moments(s, 1.0).max_element())
        .collect();
    let spheres = list
        .iter()
        .zip(&shapes)
        .map(|(b, s)| (b.shape.fit.center.y, bounding_radius(s)));
    let length_unit = length_unit(spheres, mass::REFERENCE_HEIGHT_M);
    let mass_unit = (total / mass::REFERENCE_MASS_KG).clamp(1e-12, 1e15);
    let floor = inertia_floor(
        drives::SIM_INERTIA_FLOOR_KG_M2 as f32,
        length_unit as f32,
        mass_unit as f32,
    );
    (per_kg, floor as f64)
}

fn assign_joints(a: &Anatomy, list: &mut [Body], hinge_wrists_ankles: bool) {
    let has_neck = list.iter().any(|b| a.role[b.bone] == Role::Neck);
    for k in 0..list.len() {
        let parent_axis = match (list[k].parent, list[k].kept_parent) {
            (Some(p), _) => list[p].shape.axis,
            (None, Some((_, axis))) => axis,
            (None, None) => continue,
        };
        let b = &list[k];
        let input = limits::JointInput {
            role: a.role[b.bone],
            side: a.side[b.bone],
            limb: a.limb_of[b.bone].map(|l| a.limbs[l].kind),
            axis: b.shape.axis,
            parent_axis,
            head_without_neck: !has_neck,
            hinge_wrists_ankles,
        };
        list[k].joint = Some(limits::joint_for(a, &input));
    }
}

/// Bodies closer than this share of the height at rest count as overlapping (their groups
/// ignore each other), so nothing starts in or near contact.
pub const GROUP_MARGIN: f64 = 0.015;

/// One group per limb plus the torso; returns each body's mask.
fn assign_groups(a: &Anatomy, list: &mut [Body]) -> Vec<String> {
    let mut limb_names: Vec<String> = Vec::new();
    for b in list.iter_mut() {
        let name = match a.limb_of[b.bone].map(|l| &a.limbs[l]) {
            Some(l) => {
                let kind = l.kind.name();
                match l.side {
                    Some(names::Side::Left) => format!("{kind}_l"),
                    Some(names::Side::Right) => format!("{kind}_r"),
                    None => kind.to_string(),
                }
            }
            None => "torso".to_string(),
        };
        if !limb_names.contains(&name) && limb_names.len() >= groups::MAX_GROUPS {
            b.group = "limbs".into();
        } else {
            if !limb_names.contains(&name) {
                limb_names.push(name.clone());
            }
            b.group = name;
        }
    }
    let fits: Vec<fit::WorldFit> = list.iter().map(|b| b.shape.fit).collect();
    let groups: Vec<String> = list.iter().map(|b| b.group.clone()).collect();
    let jointed: Vec<(usize, usize)> = list
        .iter()
        .enumerate()
        .filter_map(|(k, b)| b.parent.map(|p| (k, p)))
        .collect();
    groups::masks(&groups, &fits, &jointed, GROUP_MARGIN * a.height)
}

/// A reference to a bone that `Document::bone_by_name` resolves back to it.
pub(crate) fn bone_ref(doc: &Document, rig: &rig::Rig, i: usize) -> String {
    let name = &rig.bones[i].name;
    match doc.bone_by_name(name) {
        Some(id) if id.index() == i => name.clone(),
        _ => format!("node{}", rig.bones[i].node),
    }
}
