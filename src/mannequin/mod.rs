//! Generator of the bundled default character, `assets/mannequin.glb`: a skinned humanoid
//! whose visible mesh matches its colliders, with physics extras on every bone.

pub mod dense;
pub mod spec;

use crate::document::container::write_glb;
use crate::document::fields::Key;
use crate::document::{
    write, BalanceSettings, BodyMaterial, BonePhysics, Collider, ColliderOffset, ColliderShape,
    Constraint, ConstraintKind, Drive, SwingExtentsDeg, TwistRangeDeg,
};
use crate::shapes as mesh;
use glam::{Quat, Vec3};
use serde_json::{json, Value};
use spec::{BoneSpec, Joint, Shape};

/// The committed default character, embedded in the binary.
pub const EMBEDDED_GLB: &[u8] = include_bytes!("../../assets/mannequin.glb");
/// Where the committed file lives in the repository.
pub const ASSET_PATH: &str = "assets/mannequin.glb";

/// Builds the mannequin GLB bytes. Deterministic: the same code gives the same bytes.
pub fn generate() -> Vec<u8> {
    let bones = spec::bones();
    let (bin, accessors, views) = build_buffers(&bones);
    let json = build_json(&bones, accessors, views, bin.len());
    let text = serde_json::to_vec(&json).expect("JSON values always serialize");
    let mut out = Vec::new();
    write_glb(&mut out, &text, Some(&bin)).expect("writing to a Vec cannot fail");
    out
}

fn index_of(bones: &[BoneSpec], name: &str) -> usize {
    bones
        .iter()
        .position(|b| b.name == name)
        .expect("spec parents name spec bones")
}

/// The node index of bone `i` (node 0 is the armature root, node 1 the skinned mesh, a scene root).
fn node_of(i: usize) -> usize {
    i + 2
}

fn local_translation(bones: &[BoneSpec], b: &BoneSpec) -> Vec3 {
    let parent = b.parent.map_or(Vec3::ZERO, |p| {
        Vec3::from_array(bones[index_of(bones, p)].world_m)
    });
    Vec3::from_array(b.world_m) - parent
}

fn rounded(v: Vec3) -> Value {
    json!(v.to_array().map(|x| (x * 1e4).round() / 1e4))
}

/// An `f32` of the spec as the `f64` its decimal spelling names (0.06, not 0.0599999986...).
fn dec(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}

fn dec3(v: [f32; 3]) -> [f64; 3] {
    v.map(dec)
}

/// The typed physics of a spec bone.
fn physics(b: &BoneSpec) -> BonePhysics {
    let kind = constraint_kind(b.joint);
    let [stiffness, damping, max_torque] = b.drive.map(dec);
    BonePhysics {
        collider: Some(collider(b)),
        mass: dec(b.mass_kg),
        drive: kind.as_ref().map(|_| Drive {
            stiffness,
            damping,
            max_torque,
            ..Drive::default()
        }),
        constraint: kind.map(|kind| Constraint {
            kind,
            parent_bone: Some(b.parent.unwrap_or_default().to_string()),
            parent_defaulted: false,
            friction_torque_nm: 0.0,
        }),
        collision_group: b.group.to_string(),
        collision_mask: b.mask.to_string(),
        material: BodyMaterial {
            angular_damping: Some(crate::generate::emit::angular_damping(spec::height_m())),
            ..BodyMaterial::default()
        },
        ..BonePhysics::default()
    }
}

/// The bone's collider, in the document's decimal numbers.
fn collider(b: &BoneSpec) -> Collider {
    let shape = match b.shape {
        Shape::Capsule {
            radius,
            half_height,
        } => ColliderShape::Capsule {
            radius: dec(radius),
            half_height: dec(half_height),
        },
        Shape::Sphere { radius } => ColliderShape::Sphere {
            radius: dec(radius),
        },
        Shape::Box { half_extents } => ColliderShape::Box {
            half_extents: dec3(half_extents),
        },
    };
    let offset = ColliderOffset {
        translation: b.offset_m.map(dec3),
        rotation: b.offset_rotation.map(|r| r.map(dec)),
    };
    Collider { shape, offset }
}

/// The joint's constraint kind; None for the root.
fn constraint_kind(joint: Joint) -> Option<ConstraintKind> {
    match joint {
        Joint::Root => None,
        Joint::Ball { swing, twist } => Some(ConstraintKind::BallSocket {
            swing_limit_deg: SwingExtentsDeg::circular(dec(swing)),
            twist_limit_deg: TwistRangeDeg::symmetric(dec(twist)),
            swing_y_axis: None,
        }),
        Joint::Swing { swing, twist } => Some(ConstraintKind::BallSocket {
            swing_limit_deg: SwingExtentsDeg::from_array(swing.map(dec)),
            twist_limit_deg: TwistRangeDeg {
                min_deg: dec(twist[0]),
                max_deg: dec(twist[1]),
            },
            swing_y_axis: None,
        }),
        Joint::Hinge { axis, min, max } => Some(ConstraintKind::Hinge {
            hinge_axis: dec3(axis),
            limit_min_deg: dec(min),
            limit_max_deg: dec(max),
        }),
    }
}

fn physics_extras(b: &BoneSpec) -> Value {
    write::extras_with_physics(write::bone_physics(&physics(b)))
}

/// The root's physics: the schema version and the balance settings.
fn root_physics() -> Value {
    let g = |k: Key| {
        spec::BALANCE
            .iter()
            .find(|(key, _)| *key == k)
            .map_or(k.default_num(), |(_, v)| dec(*v))
    };
    write::root_physics(&BalanceSettings {
        enabled: true,
        assist: Key::Assist.default_num(),
        torso_bone: Some(spec::PELVIS.into()),
        pelvis_bone: Some(spec::PELVIS.into()),
        foot_bones: Some(spec::FEET.map(String::from).to_vec()),
        upright_kp: g(Key::UprightKp),
        upright_kd: g(Key::UprightKd),
        upright_max_torque: g(Key::UprightMaxTorque),
        ankle_kp: g(Key::AnkleKp),
        ankle_kd: g(Key::AnkleKd),
        ankle_max_torque: g(Key::AnkleMaxTorque),
        hip_kp: g(Key::HipKp),
        hip_max_torque: g(Key::HipMaxTorque),
        step_gain: g(Key::StepGain),
        step_margin: g(Key::StepMargin),
        step_catch_dv: g(Key::StepCatchDv),
        step_rest_stance: g(Key::StepRestStance),
        knockout_dv: g(Key::KnockoutDv),
    })
}

fn build_json(
    bones: &[BoneSpec],
    accessors: Vec<Value>,
    views: Vec<Value>,
    bin_len: usize,
) -> Value {
    let mut nodes = vec![
        json!({ "name": "mannequin", "children": [node_of(0)] }),
        json!({ "name": "mannequin_mesh", "mesh": 0, "skin": 0 }),
    ];
    for b in bones {
        let children: Vec<usize> = bones
            .iter()
            .enumerate()
            .filter(|(_, c)| c.parent == Some(b.name))
            .map(|(j, _)| node_of(j))
            .collect();
        let mut node =
            json!({ "name": b.name, "translation": rounded(local_translation(bones, b)) });
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        node["extras"] = physics_extras(b);
        nodes.push(node);
    }
    let joints: Vec<usize> = (0..bones.len()).map(node_of).collect();
    json!({
        "asset": { "version": "2.0", "generator": "ragdoll-tuner mannequin generator" },
        "extras": write::extras_with_physics(root_physics()),
        "scene": 0,
        "scenes": [{ "name": "mannequin", "nodes": [0, 1] }],
        "nodes": nodes,
        "skins": [{ "name": "mannequin_skin", "joints": joints, "inverseBindMatrices": 5, "skeleton": node_of(0) }],
        "meshes": [{ "name": "mannequin_mesh", "primitives": [{
            "attributes": { "POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3 },
            "indices": 4,
            "material": 0
        }]}],
        "materials": [{ "name": "skin", "pbrMetallicRoughness": { "baseColorFactor": [0.82, 0.74, 0.66, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8 } }],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{ "byteLength": bin_len }]
    })
}

/// A skinned mesh's vertex data, one entry per vertex (and its triangle list).
#[derive(Debug, Default)]
pub(crate) struct SkinVertices {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
}

/// Vertex data of all parts, each bound rigidly to its bone.
fn part_vertices(bones: &[BoneSpec]) -> SkinVertices {
    let mut v = SkinVertices::default();
    for (i, b) in bones.iter().enumerate() {
        let part = match b.shape {
            Shape::Capsule {
                radius,
                half_height,
            } => mesh::capsule(radius, half_height),
            Shape::Sphere { radius } => mesh::capsule(radius, 0.0),
            Shape::Box { half_extents } => mesh::cuboid(Vec3::from_array(half_extents)),
        };
        let first_child = bones.iter().find(|c| c.parent == Some(b.name));
        let to_child =
            first_child.map(|c| Vec3::from_array(c.world_m) - Vec3::from_array(b.world_m));
        let centre = b
            .offset_m
            .map(Vec3::from_array)
            .or(to_child.map(|d| d * 0.5))
            .unwrap_or(Vec3::ZERO);
        let rot = match (b.offset_m, to_child) {
            (None, Some(d)) => Quat::from_rotation_arc(Vec3::Y, d.normalize()),
            _ => Quat::IDENTITY,
        };
        let origin = Vec3::from_array(b.world_m) + centre;
        let base = v.positions.len() as u32;
        v.positions
            .extend(part.positions.iter().map(|p| origin + rot * *p));
        v.normals.extend(part.normals.iter().map(|n| rot * *n));
        v.joints.extend(std::iter::repeat_n(
            [i as u16, 0, 0, 0],
            part.positions.len(),
        ));
        v.weights.extend(std::iter::repeat_n(
            [1.0, 0.0, 0.0, 0.0],
            part.positions.len(),
        ));
        v.indices.extend(part.indices.iter().map(|k| base + k));
    }
    v
}

/// Packs vertex data and inverse bind matrices; returns (bin, accessors, bufferViews).
fn build_buffers(bones: &[BoneSpec]) -> (Vec<u8>, Vec<Value>, Vec<Value>) {
    let origins: Vec<Vec3> = bones.iter().map(|b| Vec3::from_array(b.world_m)).collect();
    pack_skin(&part_vertices(bones), &origins)
}

/// Packs a skinned mesh and the inverse bind matrices of unrotated bones at `bone_origins`
/// into one BIN; returns (bin, accessors, bufferViews): positions, normals, joints, weights,
/// indices, inverse bind matrices, in that order.
pub(crate) fn pack_skin(
    v: &SkinVertices,
    bone_origins: &[Vec3],
) -> (Vec<u8>, Vec<Value>, Vec<Value>) {
    let count = v.positions.len();
    let (min, max) = v.positions.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let f32s =
        |xs: &mut dyn Iterator<Item = f32>| xs.flat_map(f32::to_le_bytes).collect::<Vec<u8>>();
    let ibm = f32s(
        &mut bone_origins
            .iter()
            .flat_map(|o| glam::Mat4::from_translation(-*o).to_cols_array()),
    );
    let chunks: [(Vec<u8>, Option<u32>); 6] = [
        (
            f32s(&mut v.positions.iter().flat_map(|p| p.to_array())),
            Some(34962),
        ),
        (
            f32s(&mut v.normals.iter().flat_map(|p| p.to_array())),
            Some(34962),
        ),
        (
            v.joints
                .iter()
                .flatten()
                .flat_map(|j| j.to_le_bytes())
                .collect(),
            Some(34962),
        ),
        (f32s(&mut v.weights.iter().flatten().copied()), Some(34962)),
        (
            v.indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
            Some(34963),
        ),
        (ibm, None),
    ];
    let mut bin = Vec::new();
    let mut views = Vec::new();
    for (data, target) in &chunks {
        let mut view = json!({ "buffer": 0, "byteOffset": bin.len(), "byteLength": data.len() });
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        views.push(view);
        bin.extend_from_slice(data);
    }
    let accessors = vec![
        json!({ "bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3", "min": min.to_array(), "max": max.to_array() }),
        json!({ "bufferView": 1, "componentType": 5126, "count": count, "type": "VEC3" }),
        json!({ "bufferView": 2, "componentType": 5123, "count": count, "type": "VEC4" }),
        json!({ "bufferView": 3, "componentType": 5126, "count": count, "type": "VEC4" }),
        json!({ "bufferView": 4, "componentType": 5125, "count": v.indices.len(), "type": "SCALAR" }),
        json!({ "bufferView": 5, "componentType": 5126, "count": bone_origins.len(), "type": "MAT4" }),
    ];
    (bin, accessors, views)
}
