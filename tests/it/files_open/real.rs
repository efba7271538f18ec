//! The real characters of `../shared/assets`: all open, read and generate; the meshopt dragon
//! decodes, samples and saves losslessly; rigid parts are carried by their bones.

use crate::common::*;
use glam::{DMat4, DVec3, Vec3};
use ragdoll_tuner::document::geometry::Geometry;
use ragdoll_tuner::document::*;
use ragdoll_tuner::render::pose::Pose;
use ragdoll_tuner::render::skin::{skin, SkinModel};
use serde_json::{json, Value};
use std::path::PathBuf;

fn dragon() -> PathBuf {
    shared_asset("zoo/q_dragon_meshopt.glb")
}

/// Every character of `../shared/assets` and its zoo.
pub fn every_real_file() -> Vec<PathBuf> {
    let zoo = shared_asset("zoo");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&zoo)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "glb" || e == "vrm"))
        .collect();
    files.sort();
    files.extend([cesium_man(), fox_glb(), fox_gltf()]);
    files
}

/// A skinned primitive's vertices in world space at rest (dominant joint's world transform
/// times its inverse bind matrix); a rigid one's through its node.
fn rest_world_vertices(doc: &Document, geo: &Geometry) -> Vec<DVec3> {
    let mut out = Vec::new();
    for p in &geo.primitives {
        for (i, v) in p.positions.iter().enumerate() {
            let v = DVec3::from_array(v.map(f64::from));
            let m = match p.skin {
                Some(s) => {
                    let w = p.weights[i];
                    let k = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap();
                    let j = p.joints[i][k] as usize;
                    let node = doc.skeleton.skins[s].joints[j];
                    doc.skeleton.nodes[node].world_from_node * geo.inverse_bind[s][j].as_dmat4()
                }
                None => doc.skeleton.nodes[p.node].world_from_node,
            };
            out.push(m.transform_point3(v));
        }
    }
    out
}

fn bounds(points: impl IntoIterator<Item = DVec3>) -> (DVec3, DVec3) {
    points.into_iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    )
}

#[test]
fn every_real_file_opens_with_its_meshes_and_clips() {
    for path in every_real_file() {
        let name = path.display();
        let doc = Document::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let geo = doc.load_geometry().unwrap_or_else(|e| panic!("{e}"));
        let verts: usize = geo.primitives.iter().map(|p| p.positions.len()).sum();
        assert!(verts > 100, "{name}: {verts} vertices");
        for p in &geo.primitives {
            assert!(p.indices.len() % 3 == 0 && !p.indices.is_empty(), "{name}");
            assert!(
                p.positions.iter().flatten().all(|x| x.is_finite()),
                "{name}"
            );
        }
        let anims = doc.load_animations().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            anims.diagnostics.is_empty(),
            "{name}: {:?}",
            anims.diagnostics
        );
    }
}

#[test]
fn dragon_meshopt_decodes_to_plausible_positions() {
    let doc = Document::open(dragon()).unwrap();
    let t = std::time::Instant::now();
    let geo = doc.load_geometry().unwrap();
    eprintln!("dragon geometry decoded in {:?}", t.elapsed());
    let verts: usize = geo.primitives.iter().map(|p| p.positions.len()).sum();
    assert_eq!(geo.primitives.len(), 6);
    let declared: u64 = doc.json()["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["primitives"].as_array().unwrap())
        .map(|p| {
            doc.json()["accessors"][p["attributes"]["POSITION"].as_u64().unwrap() as usize]["count"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(verts as u64, declared);
    eprintln!(
        "dragon: {verts} vertices in {} primitives",
        geo.primitives.len()
    );
    let g = ragdoll_tuner::generate::generate_with(&doc, &geo, &Default::default(), Vec::new())
        .unwrap();
    assert_eq!((g.report.vertices, g.report.vertices_dropped), (verts, 0));
    // Quantized normals (8-bit, octahedral filter) decode to unit vectors.
    for p in &geo.primitives {
        assert_eq!(p.normals.len(), p.positions.len());
        for n in &p.normals {
            let l = Vec3::from_array(*n).length();
            assert!((l - 1.0).abs() < 0.03, "normal length {l}");
        }
        for w in &p.weights {
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 0.02, "{w:?}");
        }
    }
    // The skinned body lies where the skeleton is: its box and the joints' box agree.
    let world = rest_world_vertices(&doc, &geo);
    let (lo, hi) = bounds(world.iter().copied());
    let joints = &doc.skeleton.skins[0].joints;
    let (jlo, jhi) = bounds(
        joints
            .iter()
            .map(|&j| doc.skeleton.nodes[j].world_from_node.w_axis.truncate()),
    );
    eprintln!("dragon mesh {lo:.3?}..{hi:.3?}, joints {jlo:.3?}..{jhi:.3?}");
    let size = (jhi - jlo).length();
    assert!(size > 0.5, "joint box {size}");
    assert!((hi - lo).length() < 2.0 * size && (hi - lo).length() > 0.5 * size);
    for (a, b) in [(lo, jlo), (hi, jhi)] {
        assert!((a - b).abs().max_element() < 0.4 * size, "{a} vs {b}");
    }
    // The eyes are a rigid mesh under the (non-joint) Eyes node: carried by the head's bone,
    // and placed at the head.
    let eyes = geo.primitives.iter().find(|p| p.skin.is_none()).unwrap();
    let carrier = doc.carrier_bone(eyes.node).expect("carried by a bone");
    let bone = doc.skeleton.nodes[doc.bone(carrier).node].world_from_node;
    let m = doc.skeleton.nodes[eyes.node].world_from_node;
    let v = m.transform_point3(DVec3::from_array(eyes.positions[0].map(f64::from)));
    assert!((v - bone.w_axis.truncate()).length() < 0.25 * size, "{v}");
}

#[test]
fn dragon_clips_decode_and_sample() {
    let doc = Document::open(dragon()).unwrap();
    let anims = doc.load_animations().unwrap();
    assert_eq!(anims.clips.len(), 5);
    assert!(anims.diagnostics.is_empty(), "{:?}", anims.diagnostics);
    for clip in &anims.clips {
        assert!(clip.duration_s > 0.1, "{}: {}", clip.name, clip.duration_s);
        for c in &clip.channels {
            for v in &c.values {
                assert!(v.iter().all(|x| x.is_finite() && x.abs() < 1e4), "{v:?}");
            }
            if c.path == ChannelPath::Rotation {
                for v in &c.values {
                    let l = glam::Vec4::from_array(*v).length();
                    assert!(
                        (l - 1.0).abs() < 0.01,
                        "{}: quaternion length {l}",
                        clip.name
                    );
                }
            }
        }
        // Sampling moves some bone away from the rest pose.
        let moved = doc.bones.iter().any(|b| {
            let n = &doc.skeleton.nodes[b.node];
            let (s, r, t) = n.parent_from_node.to_scale_rotation_translation();
            let rest = LocalTrs {
                translation: t,
                rotation: r,
                scale: s,
            };
            let p = clip.sample_node(b.node, clip.duration_s * 0.5, rest);
            p.rotation.angle_between(r) > 0.05
        });
        assert!(moved, "{} does not move", clip.name);
    }
}

/// A GLB's JSON and BIN chunk.
pub(super) fn glb_chunks(path: &std::path::Path) -> (Value, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    let c = container::parse_glb(&bytes).unwrap();
    let json = serde_json::from_slice(c.json).unwrap();
    (json, c.bin.unwrap().to_vec())
}

/// `path` opened, `bone`'s collider made a sphere, saved into a temporary folder; the
/// document, the folder and the saved file's JSON, with the BIN chunk checked unchanged.
pub(super) fn saved_with_an_edit(
    path: &std::path::Path,
    bone: &str,
) -> (Document, tempfile::TempDir, PathBuf, Value) {
    let mut doc = Document::open(path).unwrap();
    let bone = doc.bone_by_name(bone).unwrap();
    let node = doc.bone(bone).node;
    doc.apply(&Edit::Set {
        target: EditTarget::Node(node),
        key: "collider".into(),
        value: json!("sphere"),
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saved.glb");
    doc.write_to(&out).unwrap();
    let (j0, bin0) = glb_chunks(path);
    let (j1, bin1) = glb_chunks(&out);
    assert!(bin0 == bin1, "BIN chunk changed");
    assert_eq!(j0["extensionsRequired"], j1["extensionsRequired"]);
    (doc, dir, out, j1)
}

#[test]
fn dragon_saves_its_compressed_buffers_untouched() {
    let (doc, _dir, out, saved) = saved_with_an_edit(&dragon(), "Head");
    assert_eq!(glb_chunks(&dragon()).0["bufferViews"], saved["bufferViews"]);
    let again = Document::open(&out).unwrap();
    let (a, b) = (doc.load_geometry().unwrap(), again.load_geometry().unwrap());
    assert_eq!(a.primitives[2].positions, b.primitives[2].positions);
    assert_eq!(
        doc.load_animations().unwrap().clips,
        again.load_animations().unwrap().clips
    );
}

#[test]
fn hostile_compressed_view_is_an_error_naming_it() {
    let (mut json, bin) = glb_chunks(&dragon());
    json["bufferViews"][1]["extensions"]["EXT_meshopt_compression"]["count"] = json!(1u64 << 40);
    let mut bytes = Vec::new();
    container::write_glb(&mut bytes, &serde_json::to_vec(&json).unwrap(), Some(&bin)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad_meshopt.glb");
    std::fs::write(&path, bytes).unwrap();
    let err = Document::open(&path)
        .unwrap()
        .load_geometry()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bad_meshopt.glb") && err.contains("bufferViews[1]"),
        "{err}"
    );
}

#[test]
fn rigid_parts_are_read_carried_fitted_and_posed() {
    let doc = Document::open(shared_asset("zoo/vrm1_rigid_parts.vrm")).unwrap();
    let geo = doc.load_geometry().unwrap();
    assert_eq!(geo.primitives.len(), 10);
    let mut carried = Vec::new();
    for p in &geo.primitives {
        assert!(p.skin.is_none());
        let b = doc
            .carrier_bone(p.node)
            .expect("every part hangs under a bone");
        carried.push(doc.bone(b).name.clone());
    }
    for name in [
        "head",
        "spine",
        "upper_arm.L",
        "hand.R",
        "lower_leg.L",
        "upper_leg.R",
    ] {
        assert!(
            carried.iter().any(|c| c == name),
            "{name} carries nothing: {carried:?}"
        );
    }
    // The generator fits its shapes to the parts: every vertex is used and covered.
    let total: usize = geo.primitives.iter().map(|p| p.positions.len()).sum();
    let g = ragdoll_tuner::generate::generate_with(&doc, &geo, &Default::default(), Vec::new())
        .unwrap();
    assert_eq!((g.report.vertices, g.report.vertices_dropped), (total, 0));
    assert!(
        g.report.coverage.median.unwrap() > 0.95,
        "{:?}",
        g.report.coverage
    );
    // The renderer moves a part with its bone: lift the head 1 m and its sphere follows.
    let model = SkinModel::new(&doc, geo);
    let rest = Pose::rest(&doc);
    let head = doc.bone_by_name("head").unwrap();
    let mut lifted = rest.clone();
    lifted.world_from_bone[head.index()] =
        DMat4::from_translation(DVec3::Y) * lifted.world_from_bone[head.index()];
    let part = model
        .primitives
        .iter()
        .find(|p| p.carrier.map(|c| c.0) == Some(head))
        .unwrap();
    let (a, _) = skin(part, &rest);
    let (b, _) = skin(part, &lifted);
    assert!(
        (b[0] - a[0] - Vec3::Y).length() < 1e-4,
        "{} -> {}",
        a[0],
        b[0]
    );
    // The model's rest vertices are where the file puts them.
    let world = doc.skeleton.nodes[part.prim.node].world_from_node.as_mat4();
    let expect = world.transform_point3(Vec3::from_array(part.prim.positions[0]));
    assert!((a[0] - expect).length() < 1e-4);
}

#[test]
fn dragon_round_trips_through_gltf_and_back_to_glb() {
    let doc = Document::open(dragon()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("dragon.gltf");
    doc.write_to(&gltf).unwrap();
    let split = Document::open(&gltf).unwrap();
    let glb = dir.path().join("packed.glb");
    split.write_to(&glb).unwrap();
    let packed = Document::open(&glb).unwrap();
    let original = doc.load_geometry().unwrap();
    for d in [&split, &packed] {
        let g = d.load_geometry().unwrap();
        for (a, b) in original.primitives.iter().zip(&g.primitives) {
            assert_eq!(a.positions, b.positions);
            assert_eq!(a.indices, b.indices);
        }
        assert_eq!(d.load_animations().unwrap().clips.len(), 5);
    }
    // The fallback buffer stays a buffer of its own, without bytes.
    let (json, _) = glb_chunks(&glb);
    assert_eq!(json["buffers"].as_array().unwrap().len(), 2);
    assert!(json["buffers"][1]["extensions"]["EXT_meshopt_compression"]["fallback"] == json!(true));
}

/// `inspect` and `generate` through the real binary on every real file: exit 0, and the
/// generator read the mesh (no "cannot be read" warning).
#[test]
fn cli_inspects_and_generates_every_real_file() {
    let dir = tempfile::tempdir().unwrap();
    for path in every_real_file() {
        let out = ragdoll_tuner()
            .args(["inspect", path_str(&path)])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "inspect {}: {err}", path.display());
        let dest = dir.path().join("x.glb");
        let out = ragdoll_tuner()
            .args(["generate", path_str(&path), "-o", path_str(&dest)])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "generate {}: {err}", path.display());
        assert!(!err.contains("cannot be read"), "{}: {err}", path.display());
        assert!(Document::open(&dest).is_ok());
    }
}
