//! Degenerate input: a clear message or a partial ragdoll with diagnostics; never a panic, a
//! hang or unbounded memory. Each case runs the real CLI under a time limit.

use super::fixtures::{self, BoneDef, Build};
use crate::common::*;
use glam::Vec3;
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `generate` with a deadline; returns (exit code, stderr).
fn generate_within(input: &Path, out: &Path, limit: Duration) -> (Option<i32>, String) {
    generate_within_with(input, out, limit, &[])
}

/// [`generate_within`] with more arguments.
fn generate_within_with(
    input: &Path,
    out: &Path,
    limit: Duration,
    extra: &[&str],
) -> (Option<i32>, String) {
    let mut child = ragdoll_tuner()
        .args(["generate", path_str(input), "-o", path_str(out)])
        .args(extra)
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

/// A bird: a skinless root holding the body (neck, head, beak; a tail), two legs and two wings
/// with feathers at their tips, each bone as (name, parent, head, tail, radius).
fn bird() -> Vec<BoneDef> {
    type Def = (&'static str, Option<usize>, [f32; 3], [f32; 3], f32);
    let defs: [Def; 21] = [
        ("root", None, [0.0, 0.0, 0.0], [0.0, 0.3, 0.0], 0.0),
        ("body", Some(0), [0.0, 1.73, 0.29], [0.0, 2.06, 0.76], 0.45),
        ("neck", Some(1), [0.0, 2.06, 0.76], [0.0, 2.73, 0.96], 0.2),
        ("head", Some(2), [0.0, 2.73, 0.96], [0.0, 3.1, 1.36], 0.25),
        ("beak", Some(3), [0.0, 3.1, 1.63], [0.0, 2.94, 1.93], 0.06),
        ("tail", Some(1), [0.0, 1.62, 0.17], [0.0, 0.94, -1.97], 0.2),
        (
            "leg_l",
            Some(0),
            [0.19, 1.19, 0.56],
            [0.27, 0.24, 0.28],
            0.08,
        ),
        (
            "ankle_l",
            Some(6),
            [0.27, 0.24, 0.28],
            [0.27, -0.02, 0.3],
            0.06,
        ),
        (
            "foot_l",
            Some(7),
            [0.27, -0.02, 0.3],
            [0.48, -0.05, 0.67],
            0.06,
        ),
        (
            "leg_r",
            Some(0),
            [-0.19, 1.19, 0.56],
            [-0.27, 0.24, 0.28],
            0.08,
        ),
        (
            "ankle_r",
            Some(9),
            [-0.27, 0.24, 0.28],
            [-0.27, -0.02, 0.3],
            0.06,
        ),
        (
            "foot_r",
            Some(10),
            [-0.27, -0.02, 0.3],
            [-0.42, -0.05, 0.7],
            0.06,
        ),
        (
            "wing_l",
            Some(0),
            [0.37, 2.3, 0.68],
            [0.84, 1.17, -0.45],
            0.15,
        ),
        (
            "wing_end_l",
            Some(12),
            [0.84, 1.17, -0.45],
            [0.87, 0.16, -1.08],
            0.12,
        ),
        (
            "feather_a_l",
            Some(13),
            [0.88, -0.28, -1.25],
            [0.9, -0.83, -2.11],
            0.05,
        ),
        (
            "feather_b_l",
            Some(13),
            [0.88, -0.03, -1.32],
            [0.89, -0.21, -2.17],
            0.05,
        ),
        (
            "wing_r",
            Some(0),
            [-0.39, 2.33, 0.68],
            [-0.82, 1.04, -0.28],
            0.15,
        ),
        (
            "wing_end_r",
            Some(16),
            [-0.82, 1.04, -0.28],
            [-0.85, 0.1, -1.01],
            0.12,
        ),
        (
            "feather_a_r",
            Some(17),
            [-0.86, 0.17, -1.17],
            [-0.84, 0.31, -1.85],
            0.05,
        ),
        (
            "feather_b_r",
            Some(17),
            [-0.86, -0.03, -1.3],
            [-0.87, -0.2, -2.1],
            0.05,
        ),
        (
            "feather_c_r",
            Some(17),
            [-0.86, -0.25, -1.25],
            [-0.9, -0.8, -2.1],
            0.05,
        ),
    ];
    let mut bones = Vec::new();
    for (name, parent, head, tail, radius) in defs {
        fixtures::push(&mut bones, name, parent, head, tail, radius);
    }
    bones
}

/// A ragdoll is a tree. A bird read (here told) with a feather as its pelvis hangs every
/// other part from the skinless root above that feather's wing; each part far from the
/// feather is jointed to the body it lies nearest instead, and those choices closed a loop
/// (the body on a shin, that leg on the neck, the neck on the body): `generate` never ended
/// on a bird from a game repository. A part whose choice would close a loop hangs from the
/// root body.
#[test]
fn bodies_hung_from_the_nearest_never_form_a_loop() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bird.glb");
    std::fs::write(&input, fixtures::glb(&bird(), Build::default())).unwrap();
    let out = dir.path().join("out.glb");
    let told = ["--role", "feather_a_l=pelvis"];
    let (code, err) = generate_within_with(&input, &out, Duration::from_secs(60), &told);
    assert_eq!(code, Some(0), "{err}");
    let doc = ragdoll_tuner::document::Document::open(&out).unwrap();
    for id in doc.bone_ids() {
        let mut seen = vec![doc.bone(id).name.clone()];
        while let Some(p) = super::parent_body(&doc, seen.last().unwrap()) {
            assert!(!seen.contains(&p), "a loop: {seen:?} -> {p}");
            seen.push(p);
        }
    }
}

/// Two characters side by side in one file (a file of four cats), each with a tail that is a
/// root of its own beside its hips (a cat's `Bone.020` beside its `Pelvis`, both under its
/// armature, which is no bone): the first character's tail hung from its hips, the second's
/// stayed a body with no joint (the second character lies farther than a third of the file's
/// extent from the first). Each character's roots beside it hang from it; the characters are
/// never jointed to each other.
#[test]
fn a_second_character_in_the_file_keeps_its_tail() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.glb");
    std::fs::write(&input, fixtures::glb(&two_with_tails(), Build::default())).unwrap();
    let out = dir.path().join("out.glb");
    let (code, err) = generate_within(&input, &out, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{err}");
    let doc = ragdoll_tuner::document::Document::open(&out).unwrap();
    for suffix in ["", "_b"] {
        let tail = super::parent_body(&doc, &format!("tail{suffix}"));
        assert_eq!(
            tail,
            Some(format!("mixamorig:Hips{suffix}")),
            "tail{suffix}"
        );
    }
    // No body of one hangs from the other.
    for id in doc.bone_ids() {
        let name = doc.bone(id).name.clone();
        if let Some(p) = super::parent_body(&doc, &name) {
            assert_eq!(name.ends_with("_b"), p.ends_with("_b"), "{name} on {p}");
        }
    }
}

/// A file of four cats side by side was made one ragdoll document of 103 bodies ("Other,
/// 7.8 units tall") and said nothing: the report now says the file holds several skeletons,
/// each rooted where, and that the anatomy and balance take them as one. One character says
/// nothing of the kind.
#[test]
fn a_file_of_two_characters_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    let says = |bones: &[fixtures::BoneDef]| -> Vec<String> {
        let input = dir.path().join("in.glb");
        std::fs::write(&input, fixtures::glb(bones, Build::default())).unwrap();
        let (code, report, stderr) = super::generate(&input, &out, &[]);
        assert_eq!(code, Some(0), "{stderr}");
        (report["diagnostics"].as_array().unwrap().iter())
            .map(|d| d.as_str().unwrap_or("").to_string())
            .filter(|m| m.contains("skeletons apart"))
            .collect()
    };
    let two = says(&two_with_tails());
    assert_eq!(two.len(), 1, "{two:?}");
    assert!(
        two[0].contains("2 skeletons") && two[0].contains("'mixamorig:Hips_b'"),
        "{two:?}"
    );
    let one = says(&fixtures::humanoid());
    assert!(one.is_empty(), "{one:?}");
}

/// Two humanoids 6 m apart in one armature, each with a tail hanging beside its hips (a root
/// of its own).
fn two_with_tails() -> Vec<fixtures::BoneDef> {
    let mut bones = Vec::new();
    for (suffix, dx) in [("", 0.0f32), ("_b", 6.0)] {
        let offset = bones.len();
        for mut b in fixtures::humanoid() {
            b.name = format!("{}{suffix}", b.name);
            b.parent = b.parent.map(|p| p + offset);
            b.head.x += dx;
            b.tail.x += dx;
            bones.push(b);
        }
        let hips = bones[offset].head;
        let from = hips + Vec3::new(0.0, 0.0, -0.12);
        let to = from + Vec3::new(0.0, -0.2, -0.5);
        let tail = format!("tail{suffix}");
        fixtures::push(
            &mut bones,
            &tail,
            None,
            from.to_array(),
            to.to_array(),
            0.04,
        );
    }
    bones
}

/// A zero-length `center` at the spine's joint (a Minecraft-style player: `center` and `Body`
/// at one point, `Body` 0.37 m long): the spine merges into it, and the report says why as the
/// rule judges it, by where its joint lies ("too near the joint of the body above it"); it said
/// "smaller than the minimum bone size" of a bone a fifth of the height long.
#[test]
fn a_long_bone_merged_at_its_parent_s_joint_is_not_called_small() {
    let mut bones = fixtures::humanoid();
    let spine = (bones.iter())
        .position(|b| b.name == "mixamorig:Spine")
        .unwrap();
    let (at, hips) = (bones[spine].head.to_array(), bones[spine].parent);
    // Weighted as the player's `center` is: a ring of skin at the joint.
    fixtures::push(&mut bones, "center", hips, at, at, 0.08);
    bones[spine].parent = Some(bones.len() - 1);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("center.glb");
    std::fs::write(&input, fixtures::glb(&bones, Build::default())).unwrap();
    let out = dir.path().join("out.glb");
    let (code, report, err) = super::generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{err}");
    let outcome = (report["bones"].as_array().unwrap().iter())
        .find(|b| b["name"] == "mixamorig:Spine")
        .map(|b| b["outcome"].as_str().unwrap_or_default().to_string())
        .unwrap();
    assert!(outcome.starts_with("merged into center"), "{outcome}");
    assert!(outcome.contains("too near the joint"), "{outcome}");
}

/// A VRM exporter's test file whose mesh is one triangle for a 54-bone skeleton: every body
/// came from the bone lengths (coverage 0 everywhere) and the report said nothing, as if
/// they had been fitted to a skin. Fewer skinned vertices than bones say so.
#[test]
fn a_skin_of_a_few_vertices_says_its_shapes_come_from_the_bones() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    let says = |bones: &[fixtures::BoneDef], vertices: usize| -> Vec<String> {
        let input = dir.path().join("in.glb");
        let build = Build {
            vertices,
            ..Build::default()
        };
        std::fs::write(&input, fixtures::glb(bones, build)).unwrap();
        let (code, report, stderr) = super::generate(&input, &out, &[]);
        assert_eq!(code, Some(0), "{stderr}");
        (report["diagnostics"].as_array().unwrap().iter())
            .map(|d| d.as_str().unwrap_or("").to_string())
            .filter(|m| m.contains("bone lengths"))
            .collect()
    };
    // One ring of 12 vertices round the hips, for every bone of the humanoid.
    let mut bones = fixtures::humanoid();
    for b in bones.iter_mut().filter(|b| b.name != "mixamorig:Hips") {
        b.radius = 0.0;
    }
    let few = says(&bones, 12);
    assert_eq!(few.len(), 1, "{few:?}");
    assert!(few[0].contains("only 12 skinned vertices"), "{few:?}");
    let enough = says(&fixtures::humanoid(), Build::default().vertices);
    assert!(enough.is_empty(), "{enough:?}");
}
