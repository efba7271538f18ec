//! `inspect`: every bone with its collider and constraint (defaults filled in), then the
//! diagnostics; as text or as one JSON object.

use crate::document::{BoneId, Document, UriPolicy};
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
        "drive": p.drive,
        "collision_group": p.collision_group,
        "collision_mask": p.collision_mask,
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
            swing_limit_deg,
            twist_limit_deg,
        } => {
            format!("ball_socket swing {swing_limit_deg} deg twist +-{twist_limit_deg} deg")
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
