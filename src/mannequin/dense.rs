//! A denser test character for frame-time work: the default mannequin plus fingers (three
//! phalanges each), toes and a jaw (50 bones), with a finely tessellated, smoothly weighted
//! skin of about 36,000 vertices and a ragdoll on every bone. Written by
//! `generate-mannequin --dense OUT`; the default mannequin's own output is untouched.
//!
//! It is built from the default mannequin's document (bones, rest positions, physics extras),
//! so it stays a variation of what ships. Each base bone's collider placement is written out
//! explicitly, because the default placement follows a bone's first child and the hands,
//! feet and head gain children here.

use crate::document::container::write_glb;
use crate::document::{
    write, BoneId, BonePhysics, Collider, ColliderOffset, ColliderShape, Constraint,
    ConstraintKind, Document, Drive, UriPolicy,
};
use glam::{DMat4, DVec3, Vec3};
use serde_json::{json, Value};
use std::path::Path;

/// Around-the-axis segments and bands per half-sphere of every body part: 29 x 24 vertices
/// a part.
const SEGMENTS: u32 = 28;
const CAP_RINGS: u32 = 11;
/// Cells per box face edge: 6 x 11 x 11 vertices a box.
const BOX_CELLS: u32 = 10;

/// One bone of the dense character.
struct DenseBone {
    name: String,
    parent: Option<usize>,
    /// Rest position in the world (no bone is rotated at rest).
    world_m: DVec3,
    /// The physics of its node.
    physics: BonePhysics,
}

/// The dense character's GLB bytes. Deterministic.
pub fn generate() -> Result<Vec<u8>, String> {
    let base = Document::from_bytes(
        Path::new("mannequin.glb"),
        super::EMBEDDED_GLB,
        UriPolicy::default(),
    )
    .map_err(|e| e.to_string())?;
    let mut bones = base_bones(&base)?;
    add_extra_bones(&mut bones)?;
    let skeleton = skeleton_json(&bones, &base, None);
    let text = serde_json::to_vec(&skeleton).map_err(|e| e.to_string())?;
    // The skeleton alone, read back: collider placements as the editor and simulation see them.
    let doc = Document::from_bytes(Path::new("dense.gltf"), &text, UriPolicy::default())
        .map_err(|e| e.to_string())?;
    let mesh = skin_mesh(&doc, &bones)?;
    let (bin, buffers) = pack(&mesh, &bones);
    let full = skeleton_json(&bones, &base, Some(buffers));
    let text = serde_json::to_vec(&full).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    write_glb(&mut out, &text, Some(&bin)).map_err(|e| e.to_string())?;
    Ok(out)
}

/// The default mannequin's bones, each with its collider placement made explicit.
fn base_bones(base: &Document) -> Result<Vec<DenseBone>, String> {
    base.bone_ids()
        .map(|id| {
            let b = base.bone(id);
            let node = &base.skeleton.nodes[b.node];
            let mut physics = b
                .physics
                .clone()
                .ok_or_else(|| format!("mannequin bone {} has no physics", b.name))?;
            if let Some(c) = physics.collider.as_mut() {
                let pl = base.collider_placement(id, c);
                let q = pl.rotation;
                c.offset = ColliderOffset {
                    translation: Some(round3(pl.translation)),
                    rotation: Some([q.x, q.y, q.z, q.w].map(|v| (v * 1e6).round() / 1e6)),
                };
            }
            Ok(DenseBone {
                name: b.name.clone(),
                parent: b.parent.map(BoneId::index),
                world_m: node.world_from_node.w_axis.truncate(),
                physics,
            })
        })
        .collect()
}

fn round3(v: DVec3) -> [f64; 3] {
    v.to_array().map(|x| (x * 1e5).round() / 1e5)
}

fn index_of(bones: &[DenseBone], name: &str) -> Result<usize, String> {
    bones
        .iter()
        .position(|b| b.name == name)
        .ok_or_else(|| format!("the mannequin has no bone '{name}'"))
}

/// Physics of a small hinged part.
struct Part<'a> {
    collider: ColliderShape,
    offset_m: DVec3,
    mass_kg: f64,
    axis: [f64; 3],
    limits_deg: [f64; 2],
    drive: [f64; 3],
    parent: &'a str,
    group: &'a str,
    mask: &'a str,
}

fn part_physics(p: Part) -> BonePhysics {
    BonePhysics {
        collider: Some(Collider {
            shape: p.collider,
            offset: ColliderOffset {
                translation: Some(round3(p.offset_m)),
                rotation: None,
            },
        }),
        mass: p.mass_kg,
        constraint: Some(Constraint {
            kind: ConstraintKind::Hinge {
                hinge_axis: p.axis,
                limit_min_deg: p.limits_deg[0],
                limit_max_deg: p.limits_deg[1],
            },
            parent_bone: Some(p.parent.to_string()),
            parent_defaulted: false,
            friction_torque_nm: 0.0,
        }),
        drive: Some(Drive {
            stiffness: p.drive[0],
            damping: p.drive[1],
            max_torque: p.drive[2],
            ..Drive::default()
        }),
        collision_group: p.group.to_string(),
        collision_mask: p.mask.to_string(),
        ..BonePhysics::default()
    }
}

/// Adds 5 fingers of 3 phalanges per hand, a toe per foot and a jaw: 33 bones.
fn add_extra_bones(bones: &mut Vec<DenseBone>) -> Result<(), String> {
    for (hand, side) in [("hand_l", 1.0), ("hand_r", -1.0)] {
        add_fingers(bones, hand, side)?;
    }
    for foot in ["foot_l", "foot_r"] {
        add_toe(bones, foot)?;
    }
    add_jaw(bones)
}

/// One finger: its name, where it starts on the palm (m, sideways and forward) and its three
/// phalanges' lengths (m), palm first.
struct Finger {
    name: &'static str,
    dx_m: f64,
    dz_m: f64,
    lengths_m: [f64; 3],
}

/// Five fingers of three phalanges each under `hand`; `side` is +1 left, -1 right.
fn add_fingers(bones: &mut Vec<DenseBone>, hand: &str, side: f64) -> Result<(), String> {
    let h = index_of(bones, hand)?;
    let finger = |name, dx_m, dz_m, lengths_m| Finger {
        name,
        dx_m,
        dz_m,
        lengths_m,
    };
    // Middle finger first: a bone's first child is listed first.
    let fingers = [
        finger("middle", 0.0, 0.0, [0.028, 0.022, 0.018]),
        finger("index", 0.0, 0.019, [0.026, 0.02, 0.016]),
        finger("ring", 0.0, -0.019, [0.026, 0.02, 0.016]),
        finger("pinky", 0.0, -0.036, [0.02, 0.016, 0.014]),
        finger("thumb", -0.018 * side, 0.034, [0.024, 0.02, 0.018]),
    ];
    for f in &fingers {
        add_finger(bones, h, hand, side, f);
    }
    Ok(())
}

/// A finger's phalanges, each a child of the one before, hanging down from the palm.
fn add_finger(bones: &mut Vec<DenseBone>, h: usize, hand: &str, side: f64, f: &Finger) {
    let (group, mask) = group_and_mask(&bones[h]);
    let palm = bones[h].world_m + DVec3::new(0.0, -0.115, 0.0);
    let thumb = f.name == "thumb";
    let mut parent = h;
    let start_y = if thumb { 0.05 } else { 0.0 };
    let mut at = palm + DVec3::new(f.dx_m, start_y, f.dz_m);
    for (k, len) in f.lengths_m.into_iter().enumerate() {
        let name = format!("{}_{}_{}", f.name, k + 1, &hand[5..]);
        let radius: f64 = if thumb { 0.009 } else { 0.0075 };
        let extras = part_physics(Part {
            collider: ColliderShape::Capsule {
                radius,
                half_height: (len * 0.5 - radius).max(0.002),
            },
            offset_m: DVec3::new(0.0, -len * 0.5, 0.0),
            mass_kg: 0.03,
            // Fingers hang down, palms facing the body: they curl about the
            // forward axis, towards the palm.
            axis: [0.0, 0.0, -side],
            limits_deg: [-10.0, 90.0],
            drive: [2.0, 0.1, 2.0],
            parent: &bones[parent].name.clone(),
            group: &group,
            mask: &mask,
        });
        bones.push(DenseBone {
            name,
            parent: Some(parent),
            world_m: at,
            physics: extras,
        });
        parent = bones.len() - 1;
        at += DVec3::new(0.0, -len, 0.0);
    }
}

/// A toe hinged at the front of `foot`.
fn add_toe(bones: &mut Vec<DenseBone>, foot: &str) -> Result<(), String> {
    let f = index_of(bones, foot)?;
    let (group, mask) = group_and_mask(&bones[f]);
    let extras = part_physics(Part {
        collider: ColliderShape::Box {
            half_extents: [0.045, 0.02, 0.025],
        },
        offset_m: DVec3::new(0.0, 0.0, 0.025),
        mass_kg: 0.15,
        axis: [1.0, 0.0, 0.0],
        limits_deg: [-40.0, 30.0],
        drive: [40.0, 2.0, 30.0],
        parent: foot,
        group: &group,
        mask: &mask,
    });
    bones.push(DenseBone {
        name: format!("toe_{}", &foot[5..]),
        parent: Some(f),
        world_m: bones[f].world_m + DVec3::new(0.0, -0.06, 0.185),
        physics: extras,
    });
    Ok(())
}

/// The jaw, hinged under the head.
fn add_jaw(bones: &mut Vec<DenseBone>) -> Result<(), String> {
    let head = index_of(bones, "head")?;
    let (group, mask) = group_and_mask(&bones[head]);
    let extras = part_physics(Part {
        collider: ColliderShape::Capsule {
            radius: 0.035,
            half_height: 0.03,
        },
        offset_m: DVec3::new(0.0, -0.02, 0.04),
        mass_kg: 0.3,
        axis: [1.0, 0.0, 0.0],
        limits_deg: [0.0, 25.0],
        drive: [30.0, 2.0, 20.0],
        parent: "head",
        group: &group,
        mask: &mask,
    });
    bones.push(DenseBone {
        name: "jaw".into(),
        parent: Some(head),
        world_m: bones[head].world_m + DVec3::new(0.0, -0.02, 0.02),
        physics: extras,
    });
    Ok(())
}

fn group_and_mask(b: &DenseBone) -> (String, String) {
    (
        b.physics.collision_group.clone(),
        b.physics.collision_mask.clone(),
    )
}

/// Node index of bone `i`: node 0 is the armature root, node 1 the skinned mesh.
fn node_of(i: usize) -> usize {
    i + 2
}

/// The glTF JSON: nodes with physics extras and the balance settings, plus (once packed)
/// the mesh, skin, accessors and buffer views.
fn skeleton_json(bones: &[DenseBone], base: &Document, buffers: Option<Packed>) -> Value {
    let mut nodes = vec![
        json!({ "name": "mannequin_dense", "children": [node_of(0)] }),
        json!({ "name": "mannequin_dense_mesh" }),
    ];
    for (i, b) in bones.iter().enumerate() {
        let parent_at = b.parent.map_or(DVec3::ZERO, |p| bones[p].world_m);
        let mut node = json!({ "name": b.name, "translation": round3(b.world_m - parent_at) });
        let children: Vec<usize> = bones
            .iter()
            .enumerate()
            .filter(|(_, c)| c.parent == Some(i))
            .map(|(j, _)| node_of(j))
            .collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        node["extras"] = write::extras_with_physics(write::bone_physics(&b.physics));
        nodes.push(node);
    }
    let mut root = json!({
        "asset": { "version": "2.0", "generator": "ragdoll-tuner dense mannequin generator" },
        "scene": 0,
        "scenes": [{ "name": "mannequin_dense", "nodes": [0, 1] }],
    });
    if let Some(extras) = base.json().get("extras") {
        root["extras"] = extras.clone();
    }
    if let Some(p) = buffers {
        nodes[1] = json!({ "name": "mannequin_dense_mesh", "mesh": 0, "skin": 0 });
        let joints: Vec<usize> = (0..bones.len()).map(node_of).collect();
        root["skins"] = json!([{ "name": "mannequin_dense_skin", "joints": joints,
            "inverseBindMatrices": 5, "skeleton": node_of(0) }]);
        root["meshes"] = json!([{ "name": "mannequin_dense_mesh", "primitives": [{
            "attributes": { "POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3 },
            "indices": 4, "material": 0 }]}]);
        root["materials"] = json!([{ "name": "skin", "pbrMetallicRoughness": {
            "baseColorFactor": [0.82, 0.74, 0.66, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8 } }]);
        root["accessors"] = Value::Array(p.accessors);
        root["bufferViews"] = Value::Array(p.views);
        root["buffers"] = json!([{ "byteLength": p.len }]);
    }
    root["nodes"] = Value::Array(nodes);
    root
}

/// The skin: one finely tessellated part per collider, weighted to its bone and, near the
/// joint, blended with its parent's.
type SkinMesh = super::SkinVertices;

fn skin_mesh(doc: &Document, bones: &[DenseBone]) -> Result<SkinMesh, String> {
    let mut m = SkinMesh::default();
    for (i, b) in bones.iter().enumerate() {
        let id = doc
            .bone_by_name(&b.name)
            .ok_or_else(|| format!("bone {} lost in the skeleton", b.name))?;
        let Some(c) = doc.bone(id).collider() else {
            continue;
        };
        let pl = doc.collider_placement(id, c);
        let world = doc.skeleton.nodes[doc.bone(id).node].world_from_node
            * DMat4::from_rotation_translation(pl.rotation, pl.translation);
        let (part, reach) = tessellate(&c.shape);
        let base = m.positions.len() as u32;
        let joint = b.world_m.as_vec3();
        for (p, n) in part.0.iter().zip(&part.1) {
            let wp = world.transform_point3(p.as_dvec3()).as_vec3();
            m.positions.push(wp);
            m.normals
                .push(world.transform_vector3(n.as_dvec3()).normalize().as_vec3());
            // Half the weight on the parent at the joint, none beyond 1.5 radii from it.
            let t = ((wp - joint).length() / (1.5 * reach)).clamp(0.0, 1.0);
            let w_parent = match b.parent {
                Some(_) => 0.5 * (1.0 - t * t * (3.0 - 2.0 * t)),
                None => 0.0,
            };
            let parent = b.parent.unwrap_or(i) as u16;
            m.joints.push([i as u16, parent, 0, 0]);
            m.weights.push([1.0 - w_parent, w_parent, 0.0, 0.0]);
        }
        m.indices.extend(part.2.iter().map(|k| base + k));
    }
    Ok(m)
}

/// (positions, normals, indices) of a shape in its collider frame, and its radius-like size.
type PartGeometry = (Vec<Vec3>, Vec<Vec3>, Vec<u32>);

fn tessellate(shape: &ColliderShape) -> (PartGeometry, f32) {
    // The skin sits a little inside the collider, as a real character's does more or less:
    // a surface exactly on the translucent shells would flicker through them.
    const INSET: f32 = 0.96;
    match *shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => {
            let r = radius as f32 * INSET;
            (capsule(r, half_height as f32), r)
        }
        ColliderShape::Sphere { radius } => {
            let r = radius as f32 * INSET;
            (capsule(r, 0.0), r)
        }
        ColliderShape::Box { half_extents } => {
            let e = Vec3::from_array(half_extents.map(|x| x as f32)) * INSET;
            (cuboid(e), e.min_element())
        }
    }
}

/// A capsule along +Y, tessellated like every other part (see [`crate::shapes`]).
fn capsule(radius: f32, half_height: f32) -> PartGeometry {
    let m = crate::shapes::capsule_with(radius, half_height, SEGMENTS, CAP_RINGS);
    (m.positions, m.normals, m.indices)
}

/// A box with each face split into a grid of cells.
fn cuboid(e: Vec3) -> PartGeometry {
    let (mut pos, mut nrm, mut idx) = (Vec::new(), Vec::new(), Vec::new());
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut n = Vec3::ZERO;
            n[axis] = sign;
            // Two tangents with u x v = n, so the triangles (counter-clockwise) face outward.
            let (u, v) = match axis {
                0 => (Vec3::Y, Vec3::Z * sign),
                1 => (Vec3::Z, Vec3::X * sign),
                _ => (Vec3::X, Vec3::Y * sign),
            };
            let base = pos.len() as u32;
            for i in 0..=BOX_CELLS {
                for j in 0..=BOX_CELLS {
                    let a = 2.0 * i as f32 / BOX_CELLS as f32 - 1.0;
                    let b = 2.0 * j as f32 / BOX_CELLS as f32 - 1.0;
                    pos.push((n + u * a + v * b) * e);
                    nrm.push(n);
                }
            }
            let row = BOX_CELLS + 1;
            for i in 0..BOX_CELLS {
                for j in 0..BOX_CELLS {
                    let k = base + i * row + j;
                    idx.extend([k, k + row, k + 1, k + 1, k + row, k + row + 1]);
                }
            }
        }
    }
    (pos, nrm, idx)
}

/// Accessors, buffer views and the BIN length of the packed mesh.
struct Packed {
    accessors: Vec<Value>,
    views: Vec<Value>,
    len: usize,
}

fn pack(m: &SkinMesh, bones: &[DenseBone]) -> (Vec<u8>, Packed) {
    let origins: Vec<Vec3> = bones.iter().map(|b| b.world_m.as_vec3()).collect();
    let (bin, accessors, views) = super::pack_skin(m, &origins);
    let len = bin.len();
    (
        bin,
        Packed {
            accessors,
            views,
            len,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// About 50 bones and 35,000 skin vertices, a collider and (but for the root) a joint on
    /// every bone, no error diagnostics, and blended weights that sum to one.
    #[test]
    fn dense_character_has_fifty_bones_a_dense_skin_and_a_clean_ragdoll() {
        let bytes = generate().expect("generates");
        assert_eq!(bytes, generate().expect("again"), "deterministic");
        let doc = Document::from_bytes(Path::new("dense.glb"), &bytes, UriPolicy::default())
            .expect("parses");
        assert!(
            (48..=52).contains(&doc.bones.len()),
            "{} bones",
            doc.bones.len()
        );
        let errors: Vec<_> = doc
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::document::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let jointed = doc
            .bones
            .iter()
            .filter(|b| b.physics.as_ref().is_some_and(|p| p.constraint.is_some()))
            .count();
        assert_eq!(jointed, doc.bones.len() - 1);
        let geo = doc.load_geometry().expect("geometry");
        let verts: usize = geo.primitives.iter().map(|p| p.positions.len()).sum();
        assert!((33_000..=38_000).contains(&verts), "{verts} vertices");
        for p in &geo.primitives {
            assert!(p
                .weights
                .iter()
                .all(|w| (w.iter().sum::<f32>() - 1.0).abs() < 1e-5));
            assert!(
                p.weights.iter().any(|w| w[1] > 0.2),
                "some vertices are blended"
            );
        }
    }
}
