//! Degenerate input: a clear message or a partial ragdoll with diagnostics; never a panic, a
//! hang or unbounded memory. Each case runs the real CLI under a time limit.

use super::fixtures::{self, BoneDef, Build};
use crate::common::*;
use glam::Vec3;
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `generate` with a deadline; returns (exit code, stderr).
fn generate_within(input: &Path, out: &Path, limit: Duration) -> (Option<i32>, String) {
    let mut child = ragdoll_tuner()
        .args(["generate", path_str(input), "-o", path_str(out)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (status.code(), err);
        }
        if t0.elapsed() > limit {
            child.kill().unwrap();
            panic!(
                "{}: generate did not finish within {limit:?}",
                input.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn check(label: &str, bytes: Vec<u8>, expect_written: bool) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.glb");
    std::fs::write(&input, bytes).unwrap();
    let out = dir.path().join("out.glb");
    let (code, err) = generate_within(&input, &out, Duration::from_secs(60));
    eprintln!("{label}: exit {code:?}: {err}");
    assert_ne!(code, Some(101), "{label}: panicked: {err}");
    assert!(matches!(code, Some(0..=2)), "{label}: exit {code:?}: {err}");
    if code != Some(0) {
        assert!(
            err.contains("in.glb"),
            "{label}: the message names the file: {err}"
        );
    }
    assert_eq!(code == Some(0), expect_written, "{label}: {err}");
    if code == Some(0) {
        let o = ragdoll_tuner()
            .args(["validate", path_str(&out)])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{label}: {}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

fn chain(n: usize, step: f32) -> Vec<BoneDef> {
    (0..n)
        .map(|i| BoneDef {
            name: format!("seg{i}"),
            parent: i.checked_sub(1),
            head: Vec3::new(0.0, 0.1 + step * i as f32, 0.0),
            tail: Vec3::new(0.0, 0.1 + step * (i + 1) as f32, 0.0),
            radius: 0.02,
        })
        .collect()
}

#[test]
fn no_skin_gives_a_clear_message() {
    let doc = gltf_with_nodes(
        serde_json::json!([{"name": "a", "children": [1]}, {"name": "b", "translation": [0, 1, 0]}]),
    );
    let bytes = fixtures::glb_bytes(&doc, &[]);
    check("no skin", bytes, false);
}

#[test]
fn degenerate_skeletons_and_skins_never_panic_or_hang() {
    let human = fixtures::humanoid();
    check(
        "all weights zero",
        fixtures::glb(
            &human,
            Build {
                zero_weights: true,
                ..Build::default()
            },
        ),
        true,
    );
    check(
        "NaN and huge positions",
        fixtures::glb(
            &human,
            Build {
                poison: true,
                ..Build::default()
            },
        ),
        true,
    );
    check(
        "two skins sharing joints",
        fixtures::glb(
            &human,
            Build {
                skins: 2,
                ..Build::default()
            },
        ),
        true,
    );
    check(
        "a single bone",
        fixtures::glb(&chain(1, 0.5), Build::default()),
        true,
    );
    let zero: Vec<BoneDef> = human
        .iter()
        .map(|b| BoneDef {
            head: Vec3::ZERO,
            tail: Vec3::ZERO,
            ..b.clone()
        })
        .collect();
    check(
        "zero-length bones",
        fixtures::glb(&zero, Build::default()),
        true,
    );
    check(
        "a 1,000-bone chain",
        fixtures::glb(
            &chain(1000, 0.01),
            Build {
                vertices: 30_000,
                ..Build::default()
            },
        ),
        true,
    );
    check(
        "tiny",
        fixtures::glb(
            &human,
            Build {
                size: 0.1,
                ..Build::default()
            },
        ),
        true,
    );
    check(
        "huge",
        fixtures::glb(
            &human,
            Build {
                size: 30.0,
                ..Build::default()
            },
        ),
        true,
    );
}

/// A skeleton without a mesh (an animation exported "without skin") still says where the
/// skull ends: Mixamo's `HeadTop_End` under `Head`. Its head had been merged into the neck as
/// "zero length and no skin", and its height read from the joints alone stopped under the
/// head joint (a Mixamo skeleton 1.555 m tall under its head at 1.601 m, 49 kg against 74 with
/// its skin). The zoo avocado's skeleton without its meshes: the head is a body, and the
/// height reaches the head's end.
#[test]
fn a_skeleton_without_a_mesh_keeps_its_head() {
    let src = shared_asset("zoo/vrm0_avocado_pm.vrm");
    let doc = glb_with_json(&src, |j| {
        for node in j["nodes"].as_array_mut().into_iter().flatten() {
            if let Some(n) = node.as_object_mut() {
                n.remove("mesh");
            }
        }
    });
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generates");
    let head = (g.report.bones.iter())
        .find(|b| b.name == "mixamorig:Head")
        .expect("the head's line");
    assert_eq!(head.outcome, "body", "{head:?}");
    let y = |name: &str| {
        let node = doc.bone(doc.bone_by_name(name).expect(name)).node;
        doc.skeleton.nodes[node].world_from_node.w_axis.y
    };
    let lowest = (doc.bone_ids())
        .map(|id| {
            doc.skeleton.nodes[doc.bone(id).node]
                .world_from_node
                .w_axis
                .y
        })
        .fold(f64::INFINITY, f64::min);
    let span = y("mixamorig:HeadTop_End") - lowest;
    assert!(
        g.report.height >= 0.97 * span,
        "height {} under the {span} from the lowest joint to the head's end",
        g.report.height
    );
}
