//! Measuring a generated file independently of the generator: its JSON and BIN, the skin
//! coverage of its colliders as the simulation places them, and runs in the real Rapier world.

use glam::{DMat4, DVec3, Vec3};
use ragdoll_tuner::document::{ColliderShape, Document};
use ragdoll_tuner::sim::{SimSettings, Simulation};
use serde_json::Value;
use std::path::Path;

/// The JSON of a .glb or .gltf and its BIN chunk (None for .gltf).
pub fn json_and_bin(path: &Path) -> (Value, Option<Vec<u8>>) {
    let data = std::fs::read(path).unwrap();
    if data.starts_with(b"glTF") {
        let c = ragdoll_tuner::document::container::parse_glb(&data).unwrap();
        let text = std::str::from_utf8(c.json)
            .unwrap()
            .trim_end_matches([' ', '\0']);
        (
            serde_json::from_str(text).unwrap(),
            c.bin.map(<[u8]>::to_vec),
        )
    } else {
        (serde_json::from_slice(&data).unwrap(), None)
    }
}

/// The JSON with every `extras.physics` removed (and extras left empty by that removed).
pub fn strip_physics(mut v: Value) -> Value {
    let strip = |o: &mut Value| {
        if let Some(e) = o.get_mut("extras").and_then(Value::as_object_mut) {
            e.shift_remove("physics");
            if e.is_empty() {
                o.as_object_mut().unwrap().shift_remove("extras");
            }
        }
    };
    strip(&mut v);
    if let Some(nodes) = v.get_mut("nodes").and_then(Value::as_array_mut) {
        nodes.iter_mut().for_each(strip);
    }
    v
}

pub fn vec3(v: &Value) -> DVec3 {
    let a: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    DVec3::new(a[0], a[1], a[2])
}

/// Numbers (or arrays or objects of numbers) equal within a relative tolerance.
pub fn close_values(a: &Value, b: &Value, rel: f64, what: &str) {
    match (a, b) {
        (Value::Null, Value::Null) => {}
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{what}");
            for (p, q) in x.iter().zip(y) {
                close_values(p, q, rel, what);
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            // Mirror pairs swap the lateral extents (+Z is inward on one side, outward on
            // the other): compare the sorted sets of extents.
            let mut p: Vec<f64> = x.values().filter_map(Value::as_f64).collect();
            let mut q: Vec<f64> = y.values().filter_map(Value::as_f64).collect();
            p.sort_by(f64::total_cmp);
            q.sort_by(f64::total_cmp);
            assert_eq!(p.len(), q.len(), "{what}");
            for (s, t) in p.iter().zip(&q) {
                assert!(
                    (s - t).abs() <= rel * s.abs().max(t.abs()) + 1e-9,
                    "{what}: {a} vs {b}"
                );
            }
        }
        _ => {
            let (s, t) = (a.as_f64(), b.as_f64());
            let (Some(s), Some(t)) = (s, t) else {
                panic!("{what}: {a} vs {b}")
            };
            assert!(
                (s - t).abs() <= rel * s.abs().max(t.abs()) + 1e-9,
                "{what}: {s} vs {t}"
            );
        }
    }
}

fn inside(shape: &ColliderShape, q: DVec3, inflate: f64) -> bool {
    match *shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => {
            let y = q.y.clamp(-half_height, half_height);
            (q - DVec3::new(0.0, y, 0.0)).length() <= radius + inflate
        }
        ColliderShape::Sphere { radius } => q.length() <= radius + inflate,
        ColliderShape::Box { half_extents } => {
            (0..3).all(|k| q[k].abs() <= half_extents[k] + inflate)
        }
    }
}

/// Each body's skin: the vertices it owns (dominant weight on its bone or on a bone without
/// a collider below it), in its collider's frame as the simulation places the collider
/// (world scale applied), with the collider's world shape.
pub struct BodySkin {
    pub name: String,
    pub shape: ColliderShape,
    pub points: Vec<DVec3>,
}

pub fn skin_by_body(doc: &Document) -> Vec<BodySkin> {
    let geo = doc.load_geometry().unwrap();
    let collider = |id: ragdoll_tuner::document::BoneId| {
        doc.bone(id)
            .physics
            .as_ref()
            .and_then(|p| p.collider.as_ref())
    };
    let mut points: Vec<Vec<DVec3>> = vec![Vec::new(); doc.bones.len()];
    for prim in &geo.primitives {
        let Some(s) = prim.skin else { continue };
        let (skin, ibm) = (&doc.skeleton.skins[s], &geo.inverse_bind[s]);
        for (i, p) in prim.positions.iter().enumerate() {
            let w = prim.weights[i];
            let k = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap();
            if w[k] <= 0.0 {
                continue;
            }
            let j = prim.joints[i][k] as usize;
            let node = skin.joints[j];
            let v = DVec3::from_array(p.map(f64::from));
            let world = doc.skeleton.nodes[node].world_from_node * ibm[j].as_dmat4();
            let Some(mut b) = doc.bone_of_node(node) else {
                continue;
            };
            while collider(b).is_none() {
                match doc.bone(b).parent {
                    Some(p) => b = p,
                    None => break,
                }
            }
            let Some(c) = collider(b) else { continue };
            let (_, rot, pos) = doc.skeleton.nodes[doc.bone(b).node]
                .world_from_node
                .to_scale_rotation_translation();
            let place = doc.body_from_collider(b, c);
            let world_from_collider = DMat4::from_rotation_translation(rot, pos)
                * DMat4::from_rotation_translation(place.rotation.normalize(), place.translation);
            let q = world_from_collider
                .inverse()
                .transform_point3(world.transform_point3(v));
            points[b.index()].push(q);
        }
    }
    doc.bone_ids()
        .zip(points)
        .filter(|(_, p)| !p.is_empty())
        .map(|(id, points)| BodySkin {
            name: doc.bone(id).name.clone(),
            shape: doc.world_shape(id, &collider(id).unwrap().shape),
            points,
        })
        .collect()
}

/// Per body (bone name): the share of the skin vertices it owns inside its collider grown
/// by `inflate` (see [`skin_by_body`]).
pub fn coverage_by_body(doc: &Document, inflate: f64) -> Vec<(String, f64)> {
    skin_by_body(doc)
        .into_iter()
        .map(|b| {
            let inside = b
                .points
                .iter()
                .filter(|q| inside(&b.shape, **q, inflate))
                .count();
            (b.name, inside as f64 / b.points.len() as f64)
        })
        .collect()
}

/// Per capsule (bone name): how far it reaches past the farthest of the vertices it owns,
/// across its axis (the largest of the four directions; world units). Along the axis a
/// capsule spans its joint to the next, past its own vertices; across it, a capsule that fits
/// its body part reaches no farther than the part's skin. Capsules owning fewer than
/// `min_points` vertices are left out (the generator fits them to more than their own).
pub fn capsule_overreach(doc: &Document, min_points: usize) -> Vec<(String, f64)> {
    skin_by_body(doc)
        .into_iter()
        .filter(|b| b.points.len() >= min_points)
        .filter_map(|b| {
            let ColliderShape::Capsule { radius, .. } = b.shape else {
                return None;
            };
            let hi = b.points.iter().fold(DVec3::MIN, |m, q| m.max(*q));
            let lo = b.points.iter().fold(DVec3::MAX, |m, q| m.min(*q));
            let past = [radius - hi.x, radius - hi.z, lo.x + radius, lo.z + radius];
            Some((b.name, past.into_iter().fold(f64::MIN, f64::max)))
        })
        .collect()
}

/// What a run does.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub seconds: f64,
    pub passive: bool,
    /// (bone, impulse N*s, at s).
    pub push: Option<(String, Vec3, f64)>,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            seconds: 10.0,
            passive: false,
            push: None,
        }
    }
}

/// How it went.
#[derive(Debug, Clone)]
#[allow(dead_code)] // printed with {:?}
pub struct Outcome {
    pub fell_at_s: Option<f64>,
    pub max_tilt_deg: f32,
    pub min_pelvis_ratio: f32,
    pub max_violation_deg: f32,
    pub worst_joint: String,
    pub paused: Option<String>,
    pub grounded_feet_at_end: u32,
    pub length_unit: f32,
}

pub fn run(doc: &Document, s: Scenario) -> Outcome {
    let settings = if s.passive {
        SimSettings::passive()
    } else {
        SimSettings::default()
    };
    let mut sim = Simulation::new(doc, settings).unwrap();
    let steps = (s.seconds / sim.settings().dt_s as f64).round() as u64;
    let mut paused = None;
    let mut pushed = false;
    while sim.steps() < steps {
        if let Some((bone, j, at)) = &s.push {
            if !pushed && sim.time_s() >= *at {
                sim.apply_impulse(bone, *j).unwrap();
                pushed = true;
            }
        }
        if let Err(p) = sim.step() {
            paused = Some(p.to_string());
            break;
        }
    }
    let t = sim.telemetry();
    let (mut v, mut w) = (0.0f32, String::new());
    for (name, st) in t.joint_names.iter().zip(&t.joint_stats) {
        if st.max_violation_deg > v {
            v = st.max_violation_deg;
            w = name.clone();
        }
    }
    Outcome {
        fell_at_s: sim.fell_at_s(),
        max_tilt_deg: t.max_torso_tilt_deg,
        min_pelvis_ratio: t.min_pelvis_height_ratio,
        max_violation_deg: v,
        worst_joint: w,
        paused,
        grounded_feet_at_end: t
            .body
            .latest()
            .map_or(0, |b| b[0].grounded_feet.count_ones()),
        length_unit: sim.settings().length_unit,
    }
}

/// Pairs of bodies (bone names) penetrating after the first step from rest: colliders that
/// overlap at rest and would push each other apart. The ground is not counted.
pub fn rest_contacts(doc: &Document) -> Vec<(String, String)> {
    let mut sim = Simulation::new(doc, SimSettings::passive()).unwrap();
    sim.step().unwrap();
    let w = sim.physics();
    let name_of = |c: rapier3d::prelude::ColliderHandle| {
        let body = w.colliders.get(c)?.parent()?;
        doc.bones
            .iter()
            .find(|b| sim.body_handle(&b.name) == Some(body))
            .map(|b| b.name.clone())
    };
    let tol = 1e-3 * sim.settings().length_unit;
    w.narrow_phase
        .contact_pairs()
        .filter(|p| {
            p.manifolds()
                .iter()
                .flat_map(|m| m.points.iter())
                .any(|pt| pt.dist < -tol)
        })
        .filter_map(|p| Some((name_of(p.collider1)?, name_of(p.collider2)?)))
        .collect()
}
