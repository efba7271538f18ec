//! Real third-party characters load with their full skeletons and meshes.

use crate::common::*;
use ragdoll_tuner::document::*;

#[test]
fn cesium_man_loads_its_skeleton_and_skinned_mesh() {
    let doc = Document::open(cesium_man()).unwrap();
    assert_eq!(doc.format, Format::Glb);
    assert_eq!(doc.skeleton.skins.len(), 1);
    assert_eq!(doc.skeleton.skins[0].joints.len(), 19);
    assert_eq!(doc.bones.len(), 19);
    assert!(doc.bone_by_name("Skeleton_torso_joint_1").is_some());
    assert!(doc.bone_by_name("leg_joint_L_1").is_some());
    assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
    // Every bone but the skeleton root has a bone parent.
    assert_eq!(doc.bones.iter().filter(|b| b.parent.is_none()).count(), 1);
    let geo = doc.load_geometry().unwrap();
    let skinned: Vec<_> = geo.primitives.iter().filter(|p| p.skin.is_some()).collect();
    assert!(!skinned.is_empty());
    for p in skinned {
        assert!(p.positions.len() > 100);
        assert_eq!(p.joints.len(), p.positions.len());
        assert_eq!(p.weights.len(), p.positions.len());
        assert_eq!(p.normals.len(), p.positions.len());
        assert!(!p.indices.is_empty());
    }
    assert_eq!(geo.inverse_bind[0].len(), 19);
}

#[test]
fn fox_glb_and_gltf_load_the_same_skeleton() {
    let glb = Document::open(fox_glb()).unwrap();
    let gltf = Document::open(fox_gltf()).unwrap();
    assert_eq!(gltf.format, Format::Gltf);
    for doc in [&glb, &gltf] {
        assert_eq!(doc.skeleton.skins[0].joints.len(), 24);
        assert_eq!(doc.bones.len(), 24);
        assert!(doc.bone_by_name("b_Hip_01").is_some());
        assert!(doc.bone_by_name("b_LeftLeg01_015").is_some());
    }
    let names = |d: &Document| d.bones.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&glb), names(&gltf));
    let (a, b) = (glb.load_geometry().unwrap(), gltf.load_geometry().unwrap());
    assert_eq!(a.primitives[0].positions, b.primitives[0].positions);
    assert_eq!(a.primitives[0].joints, b.primitives[0].joints);
}

#[test]
fn rest_pose_world_transforms_compose_the_hierarchy() {
    let doc = Document::open(cesium_man()).unwrap();
    for n in &doc.skeleton.nodes {
        let expected = match n.parent {
            Some(p) => doc.skeleton.nodes[p].world_from_node * n.parent_from_node,
            None => n.parent_from_node,
        };
        assert!(n.world_from_node.abs_diff_eq(expected, 1e-9));
    }
    // CesiumMan's root carries a Z-up to Y-up rotation: its world matrix is not identity.
    assert!(!doc.skeleton.nodes[0]
        .world_from_node
        .abs_diff_eq(glam::DMat4::IDENTITY, 1e-6));
}

/// A scene may leave out `nodes` (glTF 2.0: it is optional). A Blender export with an empty
/// scene beside its character had been refused whole ("missing field `nodes`", exit 2).
#[test]
fn a_scene_without_nodes_does_not_refuse_the_file() {
    let mut doc = glb_with_json(&cesium_man(), |j| {
        let scenes = j["scenes"].as_array_mut().unwrap();
        scenes.insert(0, serde_json::json!({ "name": "Face" }));
        j["scene"] = serde_json::json!(1);
    });
    assert_eq!(doc.bones.len(), 19);
    assert!(doc.bone_by_name("leg_joint_L_1").is_some());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two_scenes.glb");
    doc.save_as(&path).unwrap();
    let again = Document::open(&path).unwrap();
    assert_eq!(again.bones.len(), 19);
    let bytes = std::fs::read(&path).unwrap();
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + n]).unwrap();
    assert_eq!(
        json["scenes"][0],
        serde_json::json!({ "name": "Face" }),
        "saved as it was"
    );
}
