//! Tiny synthetic files for what the real ones lack: accessors without a buffer view,
//! sparse accessors, quantized attributes, shared skins and duplicate names, required
//! extensions, and faults where the tool never looks.

use crate::common::*;
use glam::{DVec3, Mat4};
use ragdoll_tuner::document::*;
use serde_json::{json, Value};

#[test]
fn a_required_extension_the_tool_cannot_read_is_named() {
    let mut doc = gltf_with_nodes(json!([{"name": "a"}]));
    doc["extensionsUsed"] = json!(["KHR_materials_variants", "EXT_mesh_gpu_instancing"]);
    doc["extensionsRequired"] = json!(["KHR_materials_variants", "EXT_mesh_gpu_instancing"]);
    let (_dir, path) = write_gltf(&doc);
    let err = Document::open(&path).unwrap_err();
    assert!(matches!(err, DocError::RequiredExtension { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("test.gltf") && msg.contains("EXT_mesh_gpu_instancing"),
        "{msg}"
    );
    // An extension that only changes the look does not stop the file from opening.
    doc["extensionsRequired"] = json!(["KHR_materials_variants"]);
    let (_dir, path) = write_gltf(&doc);
    assert!(Document::open(&path).is_ok());
}

/// A glTF with one buffer (as a data URI) holding `bin`.
fn with_buffer(mut doc: Value, bin: &[u8]) -> Value {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(bin);
    doc["buffers"] = json!([{
        "byteLength": bin.len(),
        "uri": format!("data:application/octet-stream;base64,{b64}")
    }]);
    doc
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// One triangle skinned to two joints; `attrs` and `accessors` complete it.
fn triangle_doc(accessors: Value, attrs: Value, bin: &[u8]) -> Value {
    with_buffer(
        json!({
            "asset": {"version": "2.0"},
            "scene": 0,
            "scenes": [{"nodes": [0, 2]}],
            "nodes": [
                {"name": "hip", "children": [1]},
                {"name": "leg", "translation": [0, -1, 0]},
                {"name": "body", "mesh": 0, "skin": 0}
            ],
            "skins": [{"joints": [0, 1]}],
            "meshes": [{"primitives": [{"attributes": attrs, "indices": 0}]}],
            "accessors": accessors,
            "bufferViews": [
                {"buffer": 0, "byteOffset": 0, "byteLength": 6},
                {"buffer": 0, "byteOffset": 8, "byteLength": 36}
            ]
        }),
        bin,
    )
}

fn triangle_bin() -> Vec<u8> {
    let mut bin: Vec<u8> = [0u16, 1, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    bin.extend([0, 0]);
    bin.extend(f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0, 0.0]));
    bin
}

fn indices_and_positions() -> Vec<Value> {
    vec![
        json!({"bufferView": 0, "componentType": 5123, "count": 3, "type": "SCALAR"}),
        json!({"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3",
               "min": [0, -1, 0], "max": [1, 0, 0]}),
    ]
}

#[test]
fn accessors_without_a_buffer_view_read_as_zeros_and_sparse_fills_them() {
    let mut bin = triangle_bin();
    // Sparse data: indices [0, 1, 2] (u8, padded) and weights 1, 0.5 and 0.25 on joint 0.
    let sparse_at = bin.len();
    bin.extend([0u8, 1, 2, 0]);
    bin.extend(f32s(&[
        1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.25, 0.75, 0.0, 0.0,
    ]));
    let mut acc = indices_and_positions();
    // JOINTS_0 without a view: all joint 0. WEIGHTS_0 on zeros, filled by a sparse part.
    acc.push(json!({"componentType": 5121, "count": 3, "type": "VEC4"}));
    acc.push(json!({"componentType": 5126, "count": 3, "type": "VEC4",
        "sparse": {"count": 3,
            "indices": {"bufferView": 2, "componentType": 5121},
            "values": {"bufferView": 2, "byteOffset": 4}}}));
    let mut doc = triangle_doc(
        Value::Array(acc),
        json!({"POSITION": 1, "JOINTS_0": 2, "WEIGHTS_0": 3}),
        &bin,
    );
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": sparse_at, "byteLength": 52}));
    // A clip whose key times are zeros with a sparse 1.0, and whose translations are zeros.
    let times_at = bin.len();
    bin.extend([1u8, 0, 0, 0]);
    bin.extend(f32s(&[1.0]));
    doc = with_buffer(doc, &bin);
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": times_at, "byteLength": 8}));
    let acc = doc["accessors"].as_array_mut().unwrap();
    acc.push(
        json!({"componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1],
        "sparse": {"count": 1,
            "indices": {"bufferView": 3, "componentType": 5121},
            "values": {"bufferView": 3, "byteOffset": 4}}}),
    );
    acc.push(json!({"componentType": 5126, "count": 2, "type": "VEC3"}));
    doc["animations"] = json!([{"name": "still",
        "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
        "samplers": [{"input": 4, "output": 5}]}]);
    let (_dir, path) = write_gltf(&doc);
    let d = Document::open(&path).unwrap();
    let anims = d.load_animations().unwrap();
    assert!(anims.diagnostics.is_empty(), "{:?}", anims.diagnostics);
    let ch = &anims.clips[0].channels[0];
    assert_eq!(ch.times_s, vec![0.0, 1.0]);
    assert_eq!(ch.sample_vec3(0.5), DVec3::ZERO);
    let geo = d.load_geometry().unwrap();
    let p = &geo.primitives[0];
    assert_eq!(p.joints, vec![[0; 4]; 3]);
    assert_eq!(p.weights[1], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(p.weights[2], [0.25, 0.75, 0.0, 0.0]);
    assert_eq!(p.indices, vec![0, 1, 2]);
    // No inverse bind matrices: identities, one per joint.
    assert_eq!(geo.inverse_bind[0], vec![Mat4::IDENTITY; 2]);
}

#[test]
fn a_sparse_accessor_on_a_view_overrides_its_elements() {
    let mut bin = triangle_bin();
    let sparse_at = bin.len();
    bin.extend(1u16.to_le_bytes());
    bin.extend([0, 0]);
    bin.extend(f32s(&[5.0, 6.0, 7.0]));
    let mut acc = indices_and_positions();
    acc[1]["sparse"] = json!({"count": 1,
        "indices": {"bufferView": 2, "componentType": 5123},
        "values": {"bufferView": 2, "byteOffset": 4}});
    let mut doc = triangle_doc(Value::Array(acc), json!({"POSITION": 1}), &bin);
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": sparse_at, "byteLength": 16}));
    let (_dir, path) = write_gltf(&doc);
    let geo = Document::open(&path).unwrap().load_geometry().unwrap();
    let pos = &geo.primitives[0].positions;
    assert_eq!(
        pos,
        &vec![[0.0, 0.0, 0.0], [5.0, 6.0, 7.0], [0.0, -1.0, 0.0]]
    );
    // An index past the accessor's elements is an error naming it.
    doc["accessors"][1]["sparse"]["count"] = json!(1);
    let mut wrong = bin.clone();
    wrong[sparse_at] = 9;
    let doc = with_buffer(doc, &wrong);
    let (_dir, path) = write_gltf(&doc);
    let err = Document::open(&path)
        .unwrap()
        .load_geometry()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("accessors[1].sparse.indices[0]") && err.contains("test.gltf"),
        "{err}"
    );
}

#[test]
fn quantized_attributes_read_through_the_node_transform() {
    // KHR_mesh_quantization: u16 positions (not normalized) scaled by the node, i8 normalized
    // normals, u8 normalized weights, u8 joints.
    let mut bin: Vec<u8> = [0u16, 1, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    bin.extend([0, 0]);
    for p in [[0u16, 0, 0], [1000, 0, 0], [0, 1000, 0]] {
        bin.extend(p.iter().flat_map(|x| x.to_le_bytes()));
        bin.extend([0, 0]); // 8-byte stride
    }
    let normals_at = bin.len();
    for _ in 0..3 {
        bin.extend([0u8, 0, 127, 0]);
    }
    let weights_at = bin.len();
    for _ in 0..3 {
        bin.extend([255u8, 0, 0, 0]);
    }
    let joints_at = bin.len();
    for _ in 0..3 {
        bin.extend([1u8, 0, 0, 0]);
    }
    let mut doc = triangle_doc(
        json!([
            {"bufferView": 0, "componentType": 5123, "count": 3, "type": "SCALAR"},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "VEC3",
             "min": [0, 0, 0], "max": [1000, 1000, 0]},
            {"bufferView": 2, "componentType": 5120, "normalized": true, "count": 3, "type": "VEC3"},
            {"bufferView": 3, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC4"},
            {"bufferView": 4, "componentType": 5121, "count": 3, "type": "VEC4"}
        ]),
        json!({"POSITION": 1, "NORMAL": 2, "WEIGHTS_0": 3, "JOINTS_0": 4}),
        &bin,
    );
    doc["bufferViews"][1] =
        json!({"buffer": 0, "byteOffset": 8, "byteLength": 24, "byteStride": 8});
    for (at, len) in [(normals_at, 12), (weights_at, 12), (joints_at, 12)] {
        let stride = if at == normals_at {
            json!(4)
        } else {
            Value::Null
        };
        let mut v = json!({"buffer": 0, "byteOffset": at, "byteLength": len});
        if !stride.is_null() {
            v["byteStride"] = stride;
        }
        doc["bufferViews"].as_array_mut().unwrap().push(v);
    }
    doc["nodes"][2]["scale"] = json!([0.001, 0.001, 0.001]);
    doc["nodes"][2].as_object_mut().unwrap().remove("skin");
    doc["nodes"][1]["children"] = json!([2]);
    doc["scenes"][0]["nodes"] = json!([0]);
    doc["extensionsUsed"] = json!(["KHR_mesh_quantization"]);
    doc["extensionsRequired"] = json!(["KHR_mesh_quantization"]);
    let (_dir, path) = write_gltf(&doc);
    let d = Document::open(&path).unwrap();
    let geo = d.load_geometry().unwrap();
    let p = &geo.primitives[0];
    assert_eq!(p.positions[1], [1000.0, 0.0, 0.0]);
    assert_eq!(p.normals[0], [0.0, 0.0, 1.0]);
    assert_eq!(p.weights[0], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(p.joints[0], [1, 0, 0, 0]);
    // A rigid mesh under the leg: placed by its node, carried by the leg.
    let leg = d.bone_by_name("leg").unwrap();
    assert_eq!(d.carrier_bone(p.node), Some(leg));
    let world = d.skeleton.nodes[p.node].world_from_node;
    let v = world.transform_point3(DVec3::new(1000.0, 0.0, 0.0));
    assert!((v - DVec3::new(1.0, -1.0, 0.0)).length() < 1e-6, "{v}");
}

#[test]
fn shared_joints_duplicate_names_and_joints_with_meshes() {
    // Two skins over the same two joints; the second joint has the first's name and carries a
    // mesh itself; a rigid mesh hangs under it.
    let bin = triangle_bin();
    let mut doc = triangle_doc(
        Value::Array(indices_and_positions()),
        json!({"POSITION": 1}),
        &bin,
    );
    doc["nodes"] = json!([
        {"name": "bone", "children": [1]},
        {"name": "bone", "translation": [0, -1, 0], "mesh": 0, "children": [4]},
        {"name": "skinned_a", "mesh": 0, "skin": 0},
        {"name": "skinned_b", "mesh": 0, "skin": 1},
        {"name": "rigid", "mesh": 0, "translation": [0, -0.5, 0]}
    ]);
    doc["skins"] = json!([{"joints": [0, 1]}, {"joints": [1, 0]}]);
    doc["scenes"][0]["nodes"] = json!([0, 2, 3]);
    let (_dir, path) = write_gltf(&doc);
    let d = Document::open(&path).unwrap();
    assert_eq!(d.bones.len(), 2);
    let (first, second) = (
        d.bone_by_name("bone").unwrap(),
        d.bone_by_name("node1").unwrap(),
    );
    assert_ne!(first, second);
    let geo = d.load_geometry().unwrap();
    assert_eq!(geo.primitives.len(), 4);
    assert_eq!(geo.inverse_bind.len(), 2);
    let carrier = |node: usize| d.carrier_bone(node);
    assert_eq!(carrier(1), Some(second), "a joint with a mesh carries it");
    assert_eq!(
        carrier(4),
        Some(second),
        "a rigid mesh goes with its parent bone"
    );
    assert_eq!(carrier(2), None);
}

#[test]
fn faults_where_the_tool_never_looks_do_not_stop_a_file() {
    // POSITION without min/max (the spec wants them, many exporters omit them) and a material
    // whose texture does not exist.
    let mut acc = indices_and_positions();
    let pos = acc[1].as_object_mut().unwrap();
    pos.remove("min");
    pos.remove("max");
    let mut doc = triangle_doc(Value::Array(acc), json!({"POSITION": 1}), &triangle_bin());
    doc["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 7}}}]);
    doc["meshes"][0]["primitives"][0]["material"] = json!(0);
    let (_dir, path) = write_gltf(&doc);
    let d = Document::open(&path).unwrap();
    assert_eq!(d.load_geometry().unwrap().primitives[0].positions.len(), 3);
    // A fault in what the tool reads still stops it, naming the key.
    doc["nodes"][2]["mesh"] = json!(5);
    let (_dir, path) = write_gltf(&doc);
    let err = Document::open(&path).unwrap_err().to_string();
    assert!(err.contains("nodes[2].mesh"), "{err}");
}
