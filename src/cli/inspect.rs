//! `inspect`: every bone with its collider, constraint and material (defaults filled in), then the
//! diagnostics; as text or as one JSON object.

use crate::anatomy::{Anatomy, Evidence, Kind, Role, Side};
use crate::document::fields::Key;
use crate::document::{
    BalanceSettings, BodyMaterial, BoneId, ColliderShape, Constraint, Diagnostic, Document, Drive,
    SwingExtentsDeg, UriPolicy,
};
use crate::joint::{self, JointLimits};
use glam::DVec3;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;
use std::process::ExitCode;

pub fn run(file: &Path, as_json: bool, policy: UriPolicy) -> anyhow::Result<ExitCode> {
    let doc = super::open(file, policy)?;
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report(&doc))?);
    } else {
        print_text(&doc);
    }
    Ok(ExitCode::SUCCESS)
}

/// The inspect report (`inspect --json`): the file, every bone with its physics (defaults
/// filled in) and its resolved joint, the balance settings and the diagnostics.
#[derive(Serialize)]
pub struct Report<'a> {
    file: String,
    bones: Vec<BoneReport<'a>>,
    balance: &'a BalanceSettings,
    /// The ground plane the simulation stands the character on (world y, world units).
    ground_y: f64,
    schema_version: u32,
    /// What the anatomy layer reads in the file (as the editor's Anatomy section shows it):
    /// the body plan, facing, and each bone's role and side (in `bones`).
    anatomy: AnatomyReport,
    diagnostics: &'a [Diagnostic],
}

/// The body plan the anatomy layer detects, and where it faces (world, unit vectors).
#[derive(Serialize)]
struct AnatomyReport {
    kind: Kind,
    kind_confidence: f32,
    forward: [f64; 3],
    left: [f64; 3],
}

/// A bone's role and side as the anatomy layer reads them, and the evidence behind them.
#[derive(Serialize)]
struct RoleReport {
    role: Role,
    side: Option<Side>,
    confidence: f32,
    evidence: Evidence,
}

/// One bone of the report; every physics field is null on a bone without physics.
#[derive(Serialize)]
struct BoneReport<'a> {
    node: usize,
    name: &'a str,
    parent: Option<&'a str>,
    collider: Option<ColliderReport<'a>>,
    mass: Option<f64>,
    constraint: Option<&'a Constraint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    joint: Option<JointReport>,
    drive: Option<Drive>,
    collision_group: Option<&'a str>,
    collision_mask: Option<&'a str>,
    /// The body's material, damping and inertia floor, defaults applied.
    material: Option<MaterialReport>,
    anatomy: RoleReport,
}

/// A body's material keys as the simulation uses them: the file's value, else the default.
#[derive(Serialize)]
struct MaterialReport {
    friction: f64,
    restitution: f64,
    linear_damping: f64,
    angular_damping: f64,
    /// rad/s; null: no cap.
    max_angular_speed: Option<f64>,
    /// kg*m^2 (world units); 0: the simulation's own floor alone.
    min_inertia_kg_m2: f64,
    ccd: bool,
}

impl MaterialReport {
    fn of(m: &BodyMaterial) -> Self {
        Self {
            friction: m.friction.unwrap_or(Key::Friction.default_num()),
            restitution: m.restitution_or_default(),
            linear_damping: m.linear_damping_or_default(),
            angular_damping: m.angular_damping_or_default(),
            max_angular_speed: m.max_angular_speed,
            min_inertia_kg_m2: m.min_inertia_kg_m2.unwrap_or(Key::MinInertia.default_num()),
            ccd: m.ccd.unwrap_or(false),
        }
    }
}

/// A collider with its placement resolved (defaults applied). `shape` and `offset` are in
/// the bone's own units (the file's numbers); `world_scale` is the factor the bone's world
/// transform multiplies them by, and `world_shape` the shape in world units (metres), as
/// the simulation builds it.
#[derive(Serialize)]
struct ColliderReport<'a> {
    #[serde(flatten)]
    shape: &'a ColliderShape,
    offset: Placement,
    world_scale: f64,
    world_shape: ColliderShape,
}

#[derive(Serialize)]
struct Placement {
    translation: [f64; 3],
    rotation: [f64; 4],
}

/// The joint frame's X and Y axes in the child bone's space.
#[derive(Serialize)]
struct JointFrame {
    x: [f64; 3],
    y: [f64; 3],
}

/// The joint the solver builds, resolved by the shared joint math, in the child bone's space.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum JointReport {
    BallSocket {
        parent_bone: String,
        joint_frame: JointFrame,
        swing_deg: SwingExtentsDeg,
        twist_deg: [f64; 2],
        swing_boundary_deg: Vec<f64>,
        solver_cones: usize,
    },
    Hinge {
        parent_bone: String,
        joint_frame: JointFrame,
        hinge_axis: [f64; 3],
        hinge_deg: [f64; 2],
    },
}

/// The inspect report as JSON: `{file, bones, balance, ground_y, schema_version, anatomy,
/// diagnostics}`.
pub fn report(doc: &Document) -> Value {
    let a = Anatomy::of(doc);
    let r = Report {
        file: doc.path.display().to_string(),
        bones: doc.bone_ids().map(|id| bone_report(doc, &a, id)).collect(),
        balance: &doc.balance,
        ground_y: doc.ground_y(),
        schema_version: doc.schema_version,
        anatomy: AnatomyReport {
            kind: a.kind(),
            kind_confidence: a.kind_confidence(),
            forward: a.forward().to_array(),
            left: a.left().to_array(),
        },
        diagnostics: &doc.diagnostics,
    };
    serde_json::to_value(&r).unwrap_or(Value::Null)
}

fn bone_report<'a>(doc: &'a Document, a: &Anatomy, id: BoneId) -> BoneReport<'a> {
    let b = doc.bone(id);
    let p = b.physics.as_ref();
    let collider = p.and_then(|p| p.collider.as_ref()).map(|c| {
        let place = doc.collider_placement(id, c);
        ColliderReport {
            shape: &c.shape,
            offset: Placement {
                translation: place.translation.to_array(),
                rotation: place.rotation.to_array(),
            },
            world_scale: doc.bone_world_scale(id).factor,
            world_shape: doc.world_shape(id, &c.shape),
        }
    });
    BoneReport {
        node: b.node,
        name: &b.name,
        parent: b.parent.map(|p| doc.bone(p).name.as_str()),
        collider,
        mass: p.map(|p| p.mass),
        constraint: p.and_then(|p| p.constraint.as_ref()),
        joint: p.and_then(|_| joint_report(doc, id)),
        drive: p.and_then(|p| p.drive),
        collision_group: p.map(|p| p.collision_group.as_str()),
        collision_mask: p.map(|p| p.collision_mask.as_str()),
        material: p.map(|p| MaterialReport::of(&p.material)),
        anatomy: RoleReport {
            role: a.role(id),
            side: a.side(id),
            confidence: a.confidence(id),
            evidence: a.bone(id).evidence,
        },
    }
}

/// The joint the solver builds: frame, limits and the sampled swing boundary. None where the
/// solver has no joint.
fn joint_report(doc: &Document, id: BoneId) -> Option<JointReport> {
    let def = joint::resolve(doc, id)?;
    let joint_frame = JointFrame {
        x: (def.bone_from_joint * DVec3::X).to_array(),
        y: (def.bone_from_joint * DVec3::Y).to_array(),
    };
    let parent_bone = doc.bone(def.parent).name.clone();
    // Degrees as the file states them (the radians round trip would print 119.99999999999999).
    let deg = |r: f64| (r.to_degrees() * 1e9).round() / 1e9;
    Some(match &def.limits {
        JointLimits::Ball {
            swing,
            twist_min_rad,
            twist_max_rad,
        } => JointReport::BallSocket {
            parent_bone,
            joint_frame,
            swing_deg: SwingExtentsDeg::from_array(swing.extents_rad.map(deg)),
            twist_deg: [deg(*twist_min_rad), deg(*twist_max_rad)],
            swing_boundary_deg: swing
                .sampled_deg(5.0)
                .into_iter()
                .map(|d| (d * 1e9).round() / 1e9)
                .collect(),
            solver_cones: swing.cones().len(),
        },
        JointLimits::Hinge { min_rad, max_rad } => JointReport::Hinge {
            parent_bone,
            hinge_axis: joint_frame.x,
            joint_frame,
            hinge_deg: [deg(*min_rad), deg(*max_rad)],
        },
    })
}

fn print_text(doc: &Document) {
    println!("{}: {} bones", doc.path.display(), doc.bones.len());
    for id in doc.bone_ids() {
        let b = doc.bone(id);
        let parent = b
            .parent
            .map_or("-".to_string(), |p| doc.bone(p).name.clone());
        let mark = if b.has_problems { "  [!]" } else { "" };
        println!("node {:>3}  {}  (parent {parent}){mark}", b.node, b.name);
        let Some(p) = &b.physics else {
            println!("          no physics");
            continue;
        };
        match &p.collider {
            Some(c) => println!(
                "          collider {}  mass {} kg  group {}  mask {}",
                shape_text(doc, id, &c.shape),
                p.mass,
                p.collision_group,
                p.collision_mask
            ),
            None => println!("          no collider"),
        }
        let set = crate::document::write::material_entries(&p.material);
        if !set.is_empty() {
            let parts: Vec<String> = set
                .iter()
                .map(|(k, v)| format!("{} {v}", k.path()))
                .collect();
            println!("          material {}", parts.join("  "));
        }
        if let Some(c) = &p.constraint {
            let to = c.parent_bone.as_deref().unwrap_or("?");
            println!("          constraint {} -> {to}", kind_text(&c.kind));
        }
        if let Some(d) = &p.drive {
            println!(
                "          drive stiffness {} N*m/rad  damping {} N*m*s/rad  max torque {} N*m",
                d.stiffness, d.damping, d.max_torque
            );
        }
    }
    println!("{} diagnostics", doc.diagnostics.len());
    for d in &doc.diagnostics {
        println!("  {d}");
    }
}

/// A shape in world units (metres, as simulated); under a scaled node also the file's own
/// numbers, labelled as bone units.
fn shape_text(doc: &Document, id: BoneId, s: &ColliderShape) -> String {
    let k = doc.bone_world_scale(id).factor;
    let world = sizes_text(&doc.world_shape(id, s), "m");
    if (k - 1.0).abs() <= 1e-9 {
        world
    } else {
        format!(
            "{world} (file: {}, world scale {k})",
            sizes_text(s, "bone units")
        )
    }
}

fn sizes_text(s: &ColliderShape, unit: &str) -> String {
    use crate::document::ColliderShape::*;
    match s {
        Capsule {
            radius,
            half_height,
        } => format!("capsule radius {radius} {unit} half_height {half_height} {unit}"),
        Sphere { radius } => format!("sphere radius {radius} {unit}"),
        Box { half_extents } => format!("box half_extents {half_extents:?} {unit}"),
    }
}

fn kind_text(k: &crate::document::ConstraintKind) -> String {
    use crate::document::ConstraintKind::*;
    match k {
        BallSocket {
            swing_limit_deg: s,
            twist_limit_deg: t,
            ..
        } => {
            let swing = match s.as_circular() {
                Some(e) => format!("{e}"),
                None => format!(
                    "+Y {} -Y {} +Z {} -Z {}",
                    s.pos_y, s.neg_y, s.pos_z, s.neg_z
                ),
            };
            format!(
                "ball_socket swing {swing} deg twist {}..{} deg",
                t.min_deg, t.max_deg
            )
        }
        Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => {
            format!("hinge axis {hinge_axis:?} {limit_min_deg}..{limit_max_deg} deg")
        }
    }
}
