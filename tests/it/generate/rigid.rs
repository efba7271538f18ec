//! Characters built of rigid parts that their clips animate as nodes, with no skin (Kenney's
//! platformer character: a torso, two arms, two legs and an antenna, each a mesh node
//! turned by its clips). Such files had no bones ("nothing to make a ragdoll of"); the nodes
//! a clip turns or moves are now the bones and each part is its node's body. A file of
//! meshes that nothing animates still has none.

use super::*;
use glam::{Quat, Vec3};
use serde_json::json;

/// Points on a tube of `radius` from `from` to `to` (the part's own frame).
fn tube(from: Vec3, to: Vec3, radius: f32) -> Vec<[f32; 3]> {
    let axis = (to - from).normalize_or(Vec3::Y);
    let (u, v) = (
        axis.any_orthonormal_vector(),
        axis.cross(axis.any_orthonormal_vector()),
    );
    let mut out = Vec::new();
    for r in 0..8 {
        let c = from.lerp(to, (r as f32 + 0.5) / 8.0);
        for k in 0..12 {
            let a = k as f32 / 12.0 * std::f32::consts::TAU;
            out.push((c + (u * a.cos() + v * a.sin()) * radius).to_array());
        }
    }
    out
}

/// The floats of `v` as a little-endian buffer.
fn bytes<const N: usize>(v: &[[f32; N]]) -> Vec<u8> {
    v.iter().flatten().flat_map(|x| x.to_le_bytes()).collect()
}

/// A GLB of `bones` as rigid parts: one node per bone (its translation from its parent's
/// head), a mesh of its own on every bone with a radius, no skin; with `animated`, a clip
/// turning every node a little over one second.
fn rigid_parts(bones: &[fixtures::BoneDef], animated: bool) -> Vec<u8> {
    rigid_parts_shaped(bones, animated, &|b| {
        tube(Vec3::ZERO, b.tail - b.head, b.radius)
    })
}

/// Points on the faces of a cube of half side `half` centred `up` above the part's origin.
fn cube(half: f32, up: f32) -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    let steps = 6;
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            for i in 0..=steps {
                for j in 0..=steps {
                    let (s, t) = (i as f32 / steps as f32, j as f32 / steps as f32);
                    let mut p = [0.0f32; 3];
                    p[axis] = sign * half;
                    p[(axis + 1) % 3] = (2.0 * s - 1.0) * half;
                    p[(axis + 2) % 3] = (2.0 * t - 1.0) * half;
                    p[1] += up;
                    out.push(p);
                }
            }
        }
    }
    out
}

/// As [`rigid_parts`], each part's points (its own frame) from `part`.
fn rigid_parts_shaped(
    bones: &[fixtures::BoneDef],
    animated: bool,
    part: &dyn Fn(&fixtures::BoneDef) -> Vec<[f32; 3]>,
) -> Vec<u8> {
    let mut bin: Vec<u8> = Vec::new();
    let (mut views, mut accessors, mut meshes, mut nodes) = (vec![], vec![], vec![], vec![]);
    let mut push_view = |bin: &mut Vec<u8>, data: &[u8]| {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": data.len()}));
        bin.extend_from_slice(data);
        views.len() - 1
    };
    for (i, b) in bones.iter().enumerate() {
        let head = b.parent.map_or(Vec3::ZERO, |p| bones[p].head);
        let mut node = json!({"name": b.name, "translation": (b.head - head).to_array()});
        let children: Vec<usize> = (0..bones.len())
            .filter(|&c| bones[c].parent == Some(i))
            .collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        if b.radius > 0.0 {
            let points = part(b);
            let (lo, hi) = points
                .iter()
                .fold(([f32::MAX; 3], [f32::MIN; 3]), |(l, h), p| {
                    (
                        std::array::from_fn(|k| l[k].min(p[k])),
                        std::array::from_fn(|k| h[k].max(p[k])),
                    )
                });
            let view = push_view(&mut bin, &bytes(&points));
            accessors.push(json!({"bufferView": view, "componentType": 5126,
                "count": points.len(), "type": "VEC3", "min": lo, "max": hi}));
            meshes.push(json!({"primitives": [{"attributes": {"POSITION": accessors.len() - 1}, "mode": 0}]}));
            node["mesh"] = json!(meshes.len() - 1);
        }
        nodes.push(node);
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "ragdoll-tuner test fixture"},
        "scene": 0,
        "scenes": [{"nodes": (0..bones.len()).filter(|&i| bones[i].parent.is_none()).collect::<Vec<_>>()}],
        "nodes": nodes,
        "meshes": meshes,
    });
    if animated {
        let times = [[0.0f32], [1.0]];
        let turn = Quat::from_rotation_x(0.1).to_array();
        let keys = [Quat::IDENTITY.to_array(), turn];
        let t = push_view(&mut bin, &bytes(&times));
        let k = push_view(&mut bin, &bytes(&keys));
        accessors.push(json!({"bufferView": t, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]}));
        accessors.push(json!({"bufferView": k, "componentType": 5126, "count": 2, "type": "VEC4"}));
        let (input, output) = (accessors.len() - 2, accessors.len() - 1);
        let samplers: Vec<Value> = (0..bones.len())
            .map(|_| json!({"input": input, "output": output}))
            .collect();
        let channels: Vec<Value> = (0..bones.len())
            .map(|i| json!({"sampler": i, "target": {"node": i, "path": "rotation"}}))
            .collect();
        doc["animations"] = json!([{"name": "idle", "samplers": samplers, "channels": channels}]);
    }
    doc["accessors"] = json!(accessors);
    doc["bufferViews"] = json!(views);
    doc["buffers"] = json!([{"byteLength": bin.len()}]);
    fixtures::glb_bytes(&doc, &bin)
}

/// The humanoid fixture without fingers and end bones: a robot of 19 parts.
fn robot() -> Vec<fixtures::BoneDef> {
    let all = fixtures::humanoid();
    let keep: Vec<usize> = (0..all.len())
        .filter(|&i| !all[i].name.contains("Hand") || all[i].name.ends_with("Hand"))
        .filter(|&i| all[i].radius > 0.0)
        .collect();
    let new_index = |old: usize| keep.iter().position(|&k| k == old);
    (keep.iter())
        .map(|&i| fixtures::BoneDef {
            parent: all[i].parent.and_then(new_index),
            ..all[i].clone()
        })
        .collect()
}

#[test]
fn a_robot_of_rigid_parts_its_clips_animate_is_a_ragdoll_of_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("robot.glb"), dir.path().join("out.glb"));
    std::fs::write(&input, rigid_parts(&robot(), true)).unwrap();
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(report["character_type"], "humanoid", "{report}");
    let role_of = |name: &str| {
        let bones = report["bones"].as_array().unwrap();
        let b = bones.iter().find(|b| b["name"] == name).unwrap();
        (
            b["role"].as_str().unwrap_or("").to_string(),
            b["outcome"].clone(),
        )
    };
    for (bone, role) in [
        ("mixamorig:Hips", "pelvis"),
        ("mixamorig:Head", "head"),
        ("mixamorig:LeftForeArm", "forearm"),
        ("mixamorig:RightLeg", "shin"),
        ("mixamorig:LeftFoot", "foot"),
    ] {
        let (r, outcome) = role_of(bone);
        assert_eq!(
            (r.as_str(), outcome.as_str()),
            (role, Some("body")),
            "{bone}"
        );
    }
    let doc = Document::open(&out).unwrap();
    let loose: Vec<_> = (coverage_by_body(&doc, 0.01).into_iter())
        .filter(|(_, share)| *share < 0.9)
        .collect();
    assert!(loose.is_empty(), "parts outside their bodies: {loose:?}");
    let standing = run(
        &doc,
        Scenario {
            seconds: 5.0,
            ..Default::default()
        },
    );
    assert_eq!(standing.fell_at_s, None, "{standing:?}");
    assert!(standing.paused.is_none(), "{standing:?}");
}

#[test]
fn meshes_nothing_animates_are_still_no_ragdoll() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("statue.glb"), dir.path().join("out.glb"));
    std::fs::write(&input, rigid_parts(&robot(), false)).unwrap();
    let (code, _, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no bones"), "{stderr}");
}

/// A blocky figure's head is a cube: the ball round it reached past its faces by 0.28 of a
/// cube 0.386 from centre to face (its corners), and weighed the head as that ball. A
/// humanoid's head whose box holds it in well under the ball's volume is a box, on the cube;
/// a round head stays a ball.
#[test]
fn a_cube_head_is_a_box_and_a_round_head_a_ball() {
    let dir = tempfile::tempdir().unwrap();
    for (cubic, want) in [(true, "box"), (false, "sphere")] {
        let input = dir.path().join(format!("robot_{cubic}.glb"));
        let head = |b: &fixtures::BoneDef| match b.name.ends_with(":Head") && cubic {
            true => cube(0.11, 0.1),
            false => tube(Vec3::ZERO, b.tail - b.head, b.radius),
        };
        std::fs::write(&input, rigid_parts_shaped(&robot(), true, &head)).unwrap();
        let out = dir.path().join(format!("out_{cubic}.glb"));
        let (code, report, stderr) = generate(&input, &out, &[]);
        assert_eq!(code, Some(0), "{stderr}");
        let bones = report["bones"].as_array().unwrap();
        let entry = bones
            .iter()
            .find(|b| b["name"] == "mixamorig:Head")
            .unwrap();
        assert_eq!(entry["shape"], want, "{entry}");
        let doc = Document::open(&out).unwrap();
        let loose: Vec<_> = (coverage_by_body(&doc, 0.01).into_iter())
            .filter(|(name, share)| name.ends_with(":Head") && *share < 0.95)
            .collect();
        assert!(loose.is_empty(), "{loose:?}");
    }
}
