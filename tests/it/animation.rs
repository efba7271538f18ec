//! glTF animations: clips read from real files, sampled exactly as the keyframes say, and bad
//! data reported as diagnostics naming the animation, channel and key.

use crate::common;
use base64::Engine;
use glam::{DQuat, DVec3};
use ragdoll_tuner::document::{Document, LocalTrs};
use serde_json::{json, Value};

/// A glTF with one node and the given animation channels. `keys` are (accessor floats, type)
/// pairs appended to one buffer; channels refer to them by index.
fn doc_with(accessors: &[(Vec<f32>, &str)], animation: Value) -> (tempfile::TempDir, Document) {
    let mut bytes = Vec::new();
    let mut views = Vec::new();
    let mut accs = Vec::new();
    for (i, (values, kind)) in accessors.iter().enumerate() {
        let width = match *kind {
            "SCALAR" => 1,
            "VEC3" => 3,
            _ => 4,
        };
        views.push(json!({"buffer": 0, "byteOffset": bytes.len(), "byteLength": values.len() * 4}));
        accs.push(json!({"bufferView": i, "componentType": 5126, "count": values.len() / width, "type": kind}));
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let gltf = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "bone", "translation": [1.0, 2.0, 3.0]}],
        "buffers": [{"byteLength": bytes.len(), "uri": uri}],
        "bufferViews": views,
        "accessors": accs,
        "animations": [animation],
    });
    let (dir, path) = common::write_gltf(&gltf);
    let doc = Document::open(&path).expect("the file opens whatever its animations hold");
    (dir, doc)
}

fn rest() -> LocalTrs {
    LocalTrs {
        translation: DVec3::new(1.0, 2.0, 3.0),
        rotation: DQuat::IDENTITY,
        scale: DVec3::ONE,
    }
}

fn close(a: DVec3, b: DVec3) -> bool {
    (a - b).abs().max_element() < 1e-5
}

fn close_q(a: DQuat, b: DQuat) -> bool {
    a.dot(b).abs() > 1.0 - 1e-10 || (a - b).length() < 1e-5 || (a + b).length() < 1e-5
}

/// STEP, LINEAR and CUBICSPLINE samples equal the values computed from the keyframes by the
/// glTF formulas, to 1e-5.
#[test]
fn sampling_matches_the_keyframes() {
    let times = vec![0.0, 1.0, 3.0];
    let tr = vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0, -1.0, 4.0, 0.5];
    let (qa, qb, qc) = (
        DQuat::IDENTITY,
        DQuat::from_rotation_y(1.2),
        DQuat::from_rotation_x(-0.7) * DQuat::from_rotation_z(0.4),
    );
    let rot: Vec<f32> = [qa, qb, qc]
        .iter()
        .flat_map(|q| q.to_array().map(|x| x as f32))
        .collect();
    // Cubic spline scale: (in-tangent, value, out-tangent) per key.
    let cubic = vec![
        0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.5, -1.0, 2.0, //
        1.0, 1.0, 1.0, 2.0, 0.5, 1.5, -0.5, 0.0, 1.0, //
        0.2, 0.2, 0.2, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0,
    ];
    let anim = json!({
        "name": "test",
        "samplers": [
            {"input": 0, "output": 1, "interpolation": "STEP"},
            {"input": 0, "output": 2, "interpolation": "LINEAR"},
            {"input": 0, "output": 3, "interpolation": "CUBICSPLINE"},
        ],
        "channels": [
            {"sampler": 0, "target": {"node": 0, "path": "translation"}},
            {"sampler": 1, "target": {"node": 0, "path": "rotation"}},
            {"sampler": 2, "target": {"node": 0, "path": "scale"}},
        ],
    });
    let (_dir, doc) = doc_with(
        &[
            (times.clone(), "SCALAR"),
            (tr.clone(), "VEC3"),
            (rot, "VEC4"),
            (cubic.clone(), "VEC3"),
        ],
        anim,
    );
    let anims = doc.load_animations().expect("buffers read");
    assert!(anims.diagnostics.is_empty(), "{:?}", anims.diagnostics);
    let clip = anims.find("test").expect("clip by name");
    assert_eq!(
        anims.find("0").map(|c| &c.name),
        Some(&clip.name),
        "and by index"
    );
    assert!((clip.duration_s - 3.0).abs() < 1e-9);
    let v3 =
        |a: &[f32], k: usize| DVec3::new(a[3 * k] as f64, a[3 * k + 1] as f64, a[3 * k + 2] as f64);
    for &t in &[-0.5f32, 0.0, 0.25, 0.999, 1.0, 1.7, 2.5, 3.0, 4.0] {
        let got = clip.sample_node(0, t, rest());
        // STEP: the key at or before t.
        let k = times.iter().rposition(|&x| x <= t).unwrap_or(0);
        assert!(close(got.translation, v3(&tr, k)), "step at {t}");
        // LINEAR: slerp between the surrounding keys (clamped outside).
        let (q, cubic_want) = match t {
            t if t <= 0.0 => (qa, v3(&cubic, 1)),
            t if t >= 3.0 => (qc, v3(&cubic, 7)),
            t => {
                let (k0, k1) = if t < 1.0 { (0, 1) } else { (1, 2) };
                let (t0, t1) = (times[k0] as f64, times[k1] as f64);
                let s = (t as f64 - t0) / (t1 - t0);
                let qs = [qa, qb, qc];
                let dt = t1 - t0;
                let (s2, s3) = (s * s, s * s * s);
                let p = v3(&cubic, 3 * k0 + 1) * (2.0 * s3 - 3.0 * s2 + 1.0)
                    + v3(&cubic, 3 * k0 + 2) * dt * (s3 - 2.0 * s2 + s)
                    + v3(&cubic, 3 * k1 + 1) * (-2.0 * s3 + 3.0 * s2)
                    + v3(&cubic, 3 * k1) * dt * (s3 - s2);
                (qs[k0].slerp(qs[k1], s), p)
            }
        };
        assert!(
            close_q(got.rotation, q),
            "linear at {t}: {:?} vs {q:?}",
            got.rotation
        );
        assert!(
            close(got.scale, cubic_want),
            "cubic at {t}: {:?} vs {cubic_want:?}",
            got.scale
        );
    }
}

/// A cubic-spline rotation is normalized after interpolation (glTF spec).
#[test]
fn cubic_spline_rotation_is_normalized() {
    let q = DQuat::from_rotation_z(0.9);
    let keys: Vec<f32> = [
        [0.0; 4],
        [0.0, 0.0, 0.0, 1.0],
        [0.0; 4],
        [0.0; 4],
        q.to_array().map(|x| x as f32),
        [0.0; 4],
    ]
    .concat();
    let anim = json!({
        "samplers": [{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}],
        "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}],
    });
    let (_dir, doc) = doc_with(&[(vec![0.0, 2.0], "SCALAR"), (keys, "VEC4")], anim);
    let anims = doc.load_animations().expect("read");
    let clip = &anims.clips[0];
    assert_eq!(clip.name, "animation0");
    let r = clip.sample_node(0, 1.0, rest()).rotation;
    assert!((r.length() - 1.0).abs() < 1e-9);
    // With zero tangents the value at mid-interval is the normalized midpoint of the keys.
    let mid = (DQuat::IDENTITY + q) * 0.5;
    assert!(close_q(r, mid.normalize()));
}

/// Every kind of bad data gives a diagnostic naming animation, channel and key; the file
/// opens and the good channels still play.
#[test]
fn bad_animation_data_is_reported_not_fatal() {
    let ok_times = (vec![0.0, 1.0], "SCALAR");
    let anim = json!({
        "name": "broken",
        "samplers": [
            {"input": 0, "output": 1},                 // 0: fine
            {"input": 0, "output": 2},                 // 1: NaN key
            {"input": 0, "output": 3},                 // 2: 3 values for 2 keys
            {"input": 4, "output": 1},                 // 3: times that go back
            {"input": 0, "output": 9},                 // 4: accessor that does not exist
            {"input": 0, "output": 1, "interpolation": "SMOOTH"},
        ],
        "channels": [
            {"sampler": 0, "target": {"node": 0, "path": "translation"}},
            {"sampler": 1, "target": {"node": 0, "path": "translation"}},
            {"sampler": 2, "target": {"node": 0, "path": "translation"}},
            {"sampler": 3, "target": {"node": 0, "path": "translation"}},
            {"sampler": 4, "target": {"node": 0, "path": "translation"}},
            {"sampler": 0, "target": {"node": 7, "path": "translation"}},
            {"sampler": 5, "target": {"node": 0, "path": "translation"}},
            {"sampler": 8, "target": {"node": 0, "path": "translation"}},
        ],
    });
    let (_dir, doc) = doc_with(
        &[
            ok_times,
            (vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0], "VEC3"),
            (vec![0.0, 0.0, 0.0, f32::NAN, 1.0, 1.0], "VEC3"),
            (vec![0.0; 9], "VEC3"),
            (vec![1.0, 0.5], "SCALAR"),
        ],
        anim,
    );
    let anims = doc.load_animations().expect("buffers read");
    let keys: Vec<&str> = anims.diagnostics.iter().map(|d| d.key.as_str()).collect();
    for want in [
        "animations[0].channels[1].sampler.output",
        "animations[0].channels[2].sampler.output",
        "animations[0].channels[3].sampler.input",
        "animations[0].channels[4].sampler.output",
        "animations[0].channels[5].target.node",
        "animations[0].channels[6].sampler.interpolation",
        "animations[0].channels[7].sampler",
    ] {
        assert!(keys.contains(&want), "no diagnostic on {want}: {keys:?}");
    }
    assert!(anims.diagnostics.iter().all(|d| d.bone.contains("broken")));
    assert_eq!(anims.clips[0].channels.len(), 1, "the good channel plays");
}

/// The real clips: CesiumMan's walk and the Fox's Survey, Walk and Run, sampled at their key
/// times, give their key values.
#[test]
fn real_clips_load_and_sample_at_their_keys() {
    for (path, want) in [
        (common::cesium_man(), vec!["animation0"]),
        (common::fox_glb(), vec!["Survey", "Walk", "Run"]),
        (common::fox_gltf(), vec!["Survey", "Walk", "Run"]),
    ] {
        let doc = Document::open(&path).expect("opens");
        let anims = doc.load_animations().expect("read");
        assert!(anims.diagnostics.is_empty(), "{:?}", anims.diagnostics);
        let names: Vec<&str> = anims.clips.iter().map(|c| c.name.as_str()).collect();
        if path == common::cesium_man() {
            assert_eq!(names.len(), 1);
        } else {
            assert_eq!(names, want);
        }
        for clip in &anims.clips {
            assert!(clip.duration_s > 0.5, "{}: {}", clip.name, clip.duration_s);
            for ch in &clip.channels {
                for (k, &t) in ch.times_s.iter().enumerate().step_by(7) {
                    let v = ch.values[k];
                    match ch.path {
                        ragdoll_tuner::document::ChannelPath::Rotation => {
                            let q = DQuat::from_xyzw(
                                v[0] as f64,
                                v[1] as f64,
                                v[2] as f64,
                                v[3] as f64,
                            )
                            .normalize();
                            assert!(close_q(ch.sample_rotation(t), q));
                        }
                        _ => {
                            let p = DVec3::new(v[0] as f64, v[1] as f64, v[2] as f64);
                            assert!(close(ch.sample_vec3(t), p));
                        }
                    }
                }
            }
        }
    }
}
