//! `inspect`: every bone with its collider and constraint (defaults filled in), then the
//! diagnostics; as text or as one JSON object.

use crate::document::{BoneId, Document, UriPolicy};
use crate::joint::{self, JointLimits};
use glam::DVec3;
use serde_json::{json, Value};
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

/// The inspect report as JSON: `{file, bones, balance, diagnostics}`.
pub fn report(doc: &Document) -> Value {
    let bones: Vec<Value> = doc.bone_ids().map(|id| bone_json(doc, id)).collect();
    json!({
        "file": doc.path.display().to_string(),
        "bones": bones,
        "balance": doc.balance,
        "diagnostics": doc.diagnostics,
    })
}

fn bone_json(doc: &Document, id: BoneId) -> Value {
    let b = doc.bone(id);
    let parent = b.parent.map(|p| doc.bone(p).name.clone());
    let Some(p) = &b.physics else {
        return json!({
            "node": b.node, "name": b.name, "parent": parent, "collider": null, "mass": null,
            "constraint": null, "drive": null, "collision_group": null, "collision_mask": null,
        });
    };
    let collider = p.collider.as_ref().map(|c| {
        let place = doc.collider_placement(id, c);
        let mut v = serde_json::to_value(&c.shape).unwrap_or(Value::Null);
        v["offset"] = json!({
            "translation": place.translation.to_array(),
            "rotation": place.rotation.to_array(),
        });
        v
    });
    json!({
        "node": b.node,
        "name": b.name,
        "parent": parent,
        "collider": collider,
        "mass": p.mass,
        "constraint": p.constraint,
        "joint": joint_json(doc, id),
        "drive": p.drive,
        "collision_group": p.collision_group,
        "collision_mask": p.collision_mask,
    })
}

/// The joint the solver builds, resolved by the shared joint math, in the child bone's
/// space: frame, limits and the sampled swing boundary. Null where the solver has no joint.
fn joint_json(doc: &Document, id: BoneId) -> Value {
    let Some(def) = joint::resolve(doc, id) else {
        return Value::Null;
    };
    let x = (def.bone_from_joint * DVec3::X).to_array();
    let y = (def.bone_from_joint * DVec3::Y).to_array();
    let parent = doc.bone(def.parent).name.clone();
    // Degrees as the file states them (the radians round trip would print 119.99999999999999).
    let deg = |r: f64| (r.to_degrees() * 1e9).round() / 1e9;
    match &def.limits {
        JointLimits::Ball {
            swing,
            twist_min_rad,
            twist_max_rad,
        } => {
            let [pos_y, neg_y, pos_z, neg_z] = swing.extents_rad.map(deg);
            json!({
                "type": "ball_socket",
                "parent_bone": parent,
                "joint_frame": {"x": x, "y": y},
                "swing_deg": {"pos_y": pos_y, "neg_y": neg_y, "pos_z": pos_z, "neg_z": neg_z},
                "twist_deg": [deg(*twist_min_rad), deg(*twist_max_rad)],
                "swing_boundary_deg": swing.sampled_deg(5.0).into_iter().map(|d| (d * 1e9).round() / 1e9).collect::<Vec<_>>(),
                "solver_cones": swing.cones().len(),
            })
        }
        JointLimits::Hinge { min_rad, max_rad } => json!({
            "type": "hinge",
            "parent_bone": parent,
            "joint_frame": {"x": x, "y": y},
            "hinge_axis": x,
            "hinge_deg": [deg(*min_rad), deg(*max_rad)],
        }),
    }
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
                shape_text(&c.shape),
                p.mass,
                p.collision_group,
                p.collision_mask
            ),
            None => println!("          no collider"),
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

fn shape_text(s: &crate::document::ColliderShape) -> String {
    use crate::document::ColliderShape::*;
    match s {
        Capsule {
            radius,
            half_height,
        } => format!("capsule radius {radius} m half_height {half_height} m"),
        Sphere { radius } => format!("sphere radius {radius} m"),
        Box { half_extents } => format!("box half_extents {half_extents:?} m"),
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
