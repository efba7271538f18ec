//! Generating for animals and for accessories the skin does not deform: a quadruped's hip
//! bone is part of its pelvis and its hock a joint; a rigid mesh hanging from a skinned bone
//! (antlers, a helmet) neither sizes nor weighs its body.

use super::*;

/// The generate report's row of bone `name`.
fn report_row(report: &Value, name: &str) -> Option<Value> {
    let rows = report["bones"].as_array()?;
    rows.iter().find(|b| b["name"] == name).cloned()
}

/// A hind leg hung from a short hip bone across the body (the Quaternius animals'
/// `BackShoulder`) was read from that bone down: the hip bone as the thigh, the thigh as the
/// shin, the shin as the foot and the upright cannon as a toe merged into it, a rigid hock.
/// Such animals stood propped on their hind legs, collapsed over budget (a deer 6.07 s for
/// 4.69 s) or rolled on after 5 s (a wolf at 90% of its height per second).
#[test]
fn a_quadrupeds_hip_bone_is_part_of_its_pelvis_and_its_hock_a_joint() {
    for hip_bones in [true, false] {
        let label = format!("hip bones {hip_bones}");
        let (_dir, out, report) = generated_bones(&quadruped(hip_bones), &label);
        assert_eq!(report["character_type"], "quadruped", "{label}");
        let doc = Document::open(&out).unwrap();
        for side in ["L", "R"] {
            let n = |part: &str| format!("{part}.{side}");
            assert_eq!(
                parent_body(&doc, &n("Thigh")).as_deref(),
                Some("Hips"),
                "{label}"
            );
            assert_eq!(parent_body(&doc, &n("Shin")), Some(n("Thigh")), "{label}");
            assert_eq!(
                parent_body(&doc, &n("Cannon")),
                Some(n("Shin")),
                "{label}: the hock"
            );
            if hip_bones {
                let hip = doc.bone_by_name(&n("HipBone")).unwrap();
                assert!(
                    doc.bone(hip).physics.is_none(),
                    "{label}: the hip bone has a body"
                );
                let row = report_row(&report, &n("HipBone"));
                assert_eq!(
                    row.as_ref().map(|b| &b["role"]),
                    Some(&Value::from("girdle")),
                    "{label}: {row:?}"
                );
            }
        }
        let stand = run(&doc, Scenario::default());
        assert!(stand.fell_at_s.is_none(), "{label}: {stand:?}");
        let passive = run(
            &doc,
            Scenario {
                passive: true,
                ..Scenario::default()
            },
        );
        assert!(passive.fell_at_s.is_some(), "{label}: {passive:?}");
    }
}

/// A hoof weighted to an IK bone at the armature's root (the Quaternius animals') hangs from
/// no leg; it was attached to the structural bone whose head lay nearest its own. A leg's
/// head is at its top, a leg's length from the hoof, so where a root bone sits low between
/// the legs (the Quaternius alpaca's `Body`), the front hooves hung from it: its front legs
/// then ended short of the ground, it was read as a biped walking on its front legs, and its
/// ears as a second spine. A bone with no structural child ends where its skin does: the hoof
/// hangs from the end of its leg.
#[test]
fn a_hoof_on_an_ik_bone_hangs_from_the_end_of_its_leg() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.glb");
    std::fs::write(
        &input,
        fixtures::glb(&ik_hooved(), fixtures::Build::default()),
    )
    .unwrap();
    let out = dir.path().join("out.glb");
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(report["character_type"], "quadruped", "{report}");
    let doc = Document::open(&out).unwrap();
    for side in ["L", "R"] {
        let n = |part: &str| format!("{part}.{side}");
        let hoof = doc.bone(doc.bone_by_name(&n("Hoof")).unwrap());
        let parent = hoof.physics.as_ref().and_then(|p| p.constraint.as_ref());
        let merged = hoof.physics.is_none();
        let row = report_row(&report, &n("Hoof"));
        // Jointed to the lower leg, or merged into its body as the leg's end.
        let on_leg = parent.and_then(|c| c.parent_bone.clone()) == Some(n("Lower"))
            || (merged
                && row
                    .as_ref()
                    .is_some_and(|r| r["outcome"].to_string().contains(&n("Lower"))));
        assert!(on_leg, "{side}: {row:?} {parent:?}");
    }
}

/// A quadruped whose hips (with the hind legs) and spine (with the front legs) hang side by
/// side from a root bone on the floor with no skin (an Ivysaur from a web game): the front
/// legs' bone was not below the hind legs', so it was read as a biped on its front legs. The
/// bare bone above the hips joins them, as a chibi's trunk is found beside its hips.
#[test]
fn a_quadruped_whose_hips_and_spine_hang_side_by_side_is_a_quadruped() {
    let mut bones = quadruped(false);
    let root = fixtures::push(
        &mut bones,
        "Root",
        None,
        [0.0, 0.0, -0.3],
        [0.0, 0.2, -0.3],
        0.0,
    );
    let hips = bones.iter().position(|b| b.name == "Hips").unwrap();
    let spine = bones.iter().position(|b| b.name == "Spine").unwrap();
    bones[hips].parent = Some(root);
    bones[spine].parent = Some(root);
    let (_dir, out, report) = generated_bones(&bones, "hips and spine side by side");
    assert_eq!(report["character_type"], "quadruped", "{report}");
    let role = |name: &str| report_row(&report, name).map(|r| r["role"].clone());
    for (bone, want) in [
        ("Hips", "pelvis"),
        ("Thigh.L", "thigh"),
        ("Upper.R", "upper_arm"),
        ("Head", "head"),
        ("Spine", "spine"),
    ] {
        assert_eq!(role(bone), Some(Value::from(want)), "{bone}: {report}");
    }
    let doc = Document::open(&out).unwrap();
    let stand = run(&doc, Scenario::default());
    assert!(stand.fell_at_s.is_none(), "{stand:?}");
}

/// [`quadruped`] (no hip bones) under a root bone low between the legs, with its front
/// hooves on bones of their own under IK bones at the armature's root: each hoof's head
/// nearer the root bone's head than its lower leg's.
fn ik_hooved() -> Vec<fixtures::BoneDef> {
    use fixtures::push;
    let mut b = quadruped(false);
    let body = push(&mut b, "Body", None, [0.0, 0.15, 0.0], [0.0, 0.3, 0.0], 0.0);
    b[0].parent = Some(body);
    for (side, x) in [("L", 0.15f32), ("R", -0.15)] {
        let n = |part: &str| format!("{part}.{side}");
        let upper = b.iter().position(|d| d.name == n("Upper")).unwrap();
        b[upper].tail = glam::Vec3::new(x, 0.65, 0.45);
        let lower = b.iter().position(|d| d.name == n("Lower")).unwrap();
        b[lower].head = glam::Vec3::new(x, 0.65, 0.45);
        b[lower].tail = glam::Vec3::new(x, 0.12, 0.45);
        let ik = push(
            &mut b,
            &n("IKFrontLeg"),
            None,
            [x, 0.12, 0.45],
            [x, 0.3, 0.45],
            0.0,
        );
        push(
            &mut b,
            &n("Hoof"),
            Some(ik),
            [x, 0.12, 0.45],
            [x, 0.0, 0.47],
            0.045,
        );
    }
    b
}

/// An unskinned mesh hanging from the skinned head, a ball 0.5 m across (a stag's antlers
/// are 3254 such vertices on a head of a few hundred), was fitted into the head's sphere and
/// weighed by its volume: the stag's head took 390 kg of 2029 and it fell forward standing.
/// The head keeps the size it has without the accessory. A bone with no skin of its own
/// (a character built of rigid parts) still fits its rigid meshes.
#[test]
fn a_rigid_mesh_on_a_skinned_bone_neither_sizes_nor_weighs_its_body() {
    let dir = tempfile::tempdir().unwrap();
    let bones = fixtures::humanoid();
    let head = bones
        .iter()
        .position(|b| b.name == "mixamorig:Head")
        .unwrap();
    let head_of = |build: fixtures::Build, name: &str| {
        let input = dir.path().join(format!("{name}.glb"));
        std::fs::write(&input, fixtures::glb(&bones, build)).unwrap();
        let out = dir.path().join(format!("{name}.out.glb"));
        let (code, _, stderr) = generate(&input, &out, &[]);
        assert_eq!(code, Some(0), "{name}: {stderr}");
        let doc = Document::open(&out).unwrap();
        let p = doc
            .bone(doc.bone_by_name("mixamorig:Head").unwrap())
            .physics
            .clone();
        let p = p.expect("the head has a body");
        (p.mass, format!("{:?}", p.collider))
    };
    let plain = head_of(fixtures::Build::default(), "plain");
    let with = head_of(
        fixtures::Build {
            rigid_on: Some((head, 0.25)),
            ..fixtures::Build::default()
        },
        "antlers",
    );
    assert_eq!(with, plain, "the accessory changed the head");
    let mut bare = bones.clone();
    bare[head].radius = 0.0;
    let input = dir.path().join("rigid_head.glb");
    let build = fixtures::Build {
        rigid_on: Some((head, 0.12)),
        ..fixtures::Build::default()
    };
    std::fs::write(&input, fixtures::glb(&bare, build)).unwrap();
    let out = dir.path().join("rigid_head.out.glb");
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let head_row = report_row(&report, "mixamorig:Head");
    let doc = Document::open(&out).unwrap();
    let p = doc
        .bone(doc.bone_by_name("mixamorig:Head").unwrap())
        .physics
        .clone();
    use ragdoll_tuner::document::ColliderShape;
    let r = match p.and_then(|p| p.collider).map(|c| c.shape) {
        Some(ColliderShape::Sphere { radius }) => radius,
        Some(ColliderShape::Capsule { radius, .. }) => radius,
        other => panic!("{other:?} {head_row:?}"),
    };
    assert!(
        (0.1..0.16).contains(&r),
        "a rigid head of radius 0.12 fits {r}"
    );
}

/// Antlers skinned to the head (a reindeer's: 884 of its head's 1,731 vertices, spreading
/// 0.5 m from a 0.15 m skull) were fitted into the head's shape: a 45 cm ball round them on a
/// 1 m animal took 4.8 of its 15 kg, and it fell standing at 1.8 s. The head is fitted to its
/// skull, the antler vertices counted as left out (`generate::crown`); `--keep-appendages`
/// still fits every vertex.
#[test]
fn antlers_skinned_to_the_head_neither_size_nor_weigh_it() {
    use glam::Vec3;
    let dir = tempfile::tempdir().unwrap();
    let mut bones = quadruped(false);
    let head = bones.iter().position(|b| b.name == "Head").unwrap();
    let (skull, tip) = ([0.0, 1.35, 1.0], [0.0, 1.35, 1.1]);
    fixtures::push(&mut bones, "HeadEnd", Some(head), skull, tip, 0.0);
    let antler = |x: f32| fixtures::Appendage {
        bone: head,
        from: Vec3::new(0.04 * x, 1.45, 0.85),
        to: Vec3::new(0.45 * x, 1.95, 0.75),
        radius: 0.015,
    };
    let head_of = |antlers: bool, keep: bool| {
        let name = format!("antlers_{antlers}_{keep}");
        let build = fixtures::Build {
            appendages: if antlers {
                [Some(antler(1.0)), Some(antler(-1.0))]
            } else {
                [None; 2]
            },
            ..Default::default()
        };
        let input = dir.path().join(format!("{name}.glb"));
        std::fs::write(&input, fixtures::glb(&bones, build)).unwrap();
        let out = dir.path().join(format!("{name}.out.glb"));
        let extra: &[&str] = if keep { &["--keep-appendages"] } else { &[] };
        let (code, report, stderr) = generate(&input, &out, extra);
        assert_eq!(code, Some(0), "{name}: {stderr}");
        let rows = report["bones"].as_array().unwrap();
        let total: f64 = rows.iter().filter_map(|b| b["mass_kg"].as_f64()).sum();
        let row = report_row(&report, "Head").unwrap();
        let doc = Document::open(&out).unwrap();
        let id = doc.bone_by_name("Head").unwrap();
        let c = doc.bone(id).collider().unwrap().clone();
        let r = ragdoll_tuner::joint::inertia::bounding_radius(&doc.world_shape(id, &c.shape));
        let share = row["mass_kg"].as_f64().unwrap() / total;
        (share, r, row["appendage_vertices"].as_u64())
    };
    let plain = head_of(false, false);
    let antlered = head_of(true, false);
    let whole = head_of(true, true);
    // Measured: the head's share of the mass and its bounding radius (m).
    println!("head (mass share, bounding radius, left out): plain {plain:?}, antlered {antlered:?}, fitted to its antlers {whole:?}");
    assert_eq!(plain.2, None, "a plain head keeps its whole skin");
    assert!(antlered.2.is_some_and(|n| n >= 300), "{antlered:?}");
    assert!(antlered.0 < 1.25 * plain.0, "{antlered:?} {plain:?}");
    assert!(antlered.1 < 1.3 * plain.1, "{antlered:?} {plain:?}");
    assert!(whole.1 > 2.0 * plain.1, "fitted to the antlers: {whole:?}");
}

/// A four-legged animal standing holds its rest pose: its trunk is a level beam between two
/// pairs of legs with its head held out in front, and the few degrees each of its joints gave
/// added up: a Biped-rigged reindeer's head sank 56% of its skeleton's height in 10 s, a
/// Shiba's chest 22%, a Tripo horse's chest 50% (now 7%, 3% and 1%:
/// `drives::BEAM_LOAD_FACTOR`). The synthetic quadruped, 10 s standing: every joint within
/// 3.5 deg of its rest pose (RMS; the head 2.4, 4.7 with half the gains).
#[test]
fn a_quadruped_holds_its_rest_pose_standing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("quadruped.glb");
    let build = fixtures::Build::default();
    std::fs::write(&input, fixtures::glb(&quadruped(false), build)).unwrap();
    let out = dir.path().join("quadruped.out.glb");
    let (code, _, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let o = crate::common::ragdoll_tuner()
        .args(["simulate", path_str(&out), "--json", "--seconds", "10"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["fell"], false, "{r}");
    let rms: Vec<(String, f64)> = (r["joints"].as_array().unwrap().iter())
        .map(|j| {
            (
                j["name"].as_str().unwrap().to_string(),
                j["rms_error_deg"].as_f64().unwrap(),
            )
        })
        .collect();
    println!("quadruped joint RMS (deg): {rms:?}");
    let worst = rms.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert!(worst.1 <= 3.5, "{worst:?}");
}

/// A 1.5 m long four-legged animal facing +Z: pelvis, spine, chest, neck, head and tail; the
/// front legs hang from the chest (upper, lower to the ground); each hind leg is thigh, shin
/// and an upright cannon (a digitigrade foot) to the ground, below a short hip bone lying
/// across the body when `hip_bones` (a Quaternius animal's `BackShoulder`).
fn quadruped(hip_bones: bool) -> Vec<fixtures::BoneDef> {
    use fixtures::push;
    let mut b = Vec::new();
    let hips = push(
        &mut b,
        "Hips",
        None,
        [0.0, 1.0, -0.6],
        [0.0, 1.0, -0.3],
        0.2,
    );
    let spine = [0.0, 1.0, -0.3];
    let spine = push(&mut b, "Spine", Some(hips), spine, [0.0, 1.0, 0.2], 0.22);
    let chest = [0.0, 1.0, 0.2];
    let chest = push(&mut b, "Chest", Some(spine), chest, [0.0, 1.05, 0.5], 0.22);
    let neck = [0.0, 1.05, 0.5];
    let neck = push(&mut b, "Neck", Some(chest), neck, [0.0, 1.35, 0.75], 0.1);
    push(
        &mut b,
        "Head",
        Some(neck),
        [0.0, 1.35, 0.75],
        [0.0, 1.35, 1.0],
        0.12,
    );
    push(
        &mut b,
        "Tail",
        Some(hips),
        [0.0, 1.0, -0.6],
        [0.0, 0.9, -0.9],
        0.04,
    );
    for (side, x) in [("L", 0.15f32), ("R", -0.15)] {
        let n = |part: &str| format!("{part}.{side}");
        let up = push(
            &mut b,
            &n("Upper"),
            Some(chest),
            [x, 0.9, 0.45],
            [x, 0.5, 0.45],
            0.07,
        );
        push(
            &mut b,
            &n("Lower"),
            Some(up),
            [x, 0.5, 0.45],
            [x, 0.0, 0.45],
            0.04,
        );
        let hip = [x, 0.95, -0.55];
        let top = hip_bones.then(|| {
            push(
                &mut b,
                &n("HipBone"),
                Some(hips),
                [x / 3.0, 0.95, -0.55],
                hip,
                0.06,
            )
        });
        let thigh = push(
            &mut b,
            &n("Thigh"),
            top.or(Some(hips)),
            hip,
            [x, 0.65, -0.45],
            0.08,
        );
        let knee = [x, 0.65, -0.45];
        let shin = push(&mut b, &n("Shin"), Some(thigh), knee, [x, 0.35, -0.6], 0.05);
        push(
            &mut b,
            &n("Cannon"),
            Some(shin),
            [x, 0.35, -0.6],
            [x, 0.0, -0.58],
            0.035,
        );
    }
    b
}

/// A bird standing on its legs with its wings spread, 2.4 times as wide as it is tall (a
/// Rigify eagle, 2.5): not "flat along Y" (it was warned to fix a Z-up root), while the same
/// bird lying on its back still is.
#[test]
fn a_bird_with_its_wings_spread_is_not_flat() {
    let mut b = Vec::new();
    let push = fixtures::push;
    let body = push(
        &mut b,
        "spine",
        None,
        [0.0, 0.3, -0.12],
        [0.0, 0.32, 0.1],
        0.08,
    );
    let neck = push(
        &mut b,
        "neck",
        Some(body),
        [0.0, 0.32, 0.1],
        [0.0, 0.4, 0.16],
        0.04,
    );
    push(
        &mut b,
        "head",
        Some(neck),
        [0.0, 0.4, 0.16],
        [0.0, 0.45, 0.24],
        0.04,
    );
    for (x, s) in [(1.0f32, "L"), (-1.0, "R")] {
        let t = push(
            &mut b,
            &format!("thigh.{s}"),
            Some(body),
            [0.05 * x, 0.26, -0.02],
            [0.05 * x, 0.15, 0.0],
            0.03,
        );
        let sh = push(
            &mut b,
            &format!("shin.{s}"),
            Some(t),
            [0.05 * x, 0.15, 0.0],
            [0.05 * x, 0.04, -0.01],
            0.02,
        );
        push(
            &mut b,
            &format!("foot.{s}"),
            Some(sh),
            [0.05 * x, 0.04, -0.01],
            [0.05 * x, 0.0, 0.06],
            0.015,
        );
        let w = push(
            &mut b,
            &format!("Wing.{s}"),
            Some(body),
            [0.07 * x, 0.34, 0.02],
            [0.3 * x, 0.36, 0.0],
            0.03,
        );
        let w1 = push(
            &mut b,
            &format!("Wing.001.{s}"),
            Some(w),
            [0.3 * x, 0.36, 0.0],
            [0.45 * x, 0.37, -0.02],
            0.025,
        );
        push(
            &mut b,
            &format!("Wing.002.{s}"),
            Some(w1),
            [0.45 * x, 0.37, -0.02],
            [0.58 * x, 0.37, -0.05],
            0.02,
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bird.glb");
    std::fs::write(&input, fixtures::glb(&b, fixtures::Build::default())).unwrap();
    let (code, report, err) = generate(&input, &dir.path().join("o.glb"), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        report["bones"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["role"] == "thigh")
            .count(),
        2,
        "{report}"
    );
    assert!(!err.contains("flat along Y"), "{err}");
    // On its back: the same bones turned 90 deg about X (Y up becomes Z up).
    let lying: Vec<fixtures::BoneDef> = b
        .iter()
        .map(|d| {
            let turn = |v: glam::Vec3| glam::Vec3::new(v.x, -v.z, v.y);
            fixtures::BoneDef {
                head: turn(d.head),
                tail: turn(d.tail),
                ..d.clone()
            }
        })
        .collect();
    let input = dir.path().join("lying.glb");
    std::fs::write(&input, fixtures::glb(&lying, fixtures::Build::default())).unwrap();
    let (_, _, err) = generate(&input, &dir.path().join("p.glb"), &[]);
    assert!(err.contains("flat along Y"), "{err}");
}

/// A flier with no legs, its wings spread and its body level (a flying dragon 4.2 x 1.5 x
/// 2.4, a bee) was told "flat along Y: fix its root rotation"; the same flier Z-up, its
/// body along Y, still is.
#[test]
fn a_flier_with_its_wings_spread_is_not_flat() {
    let push = fixtures::push;
    let mut b = Vec::new();
    let body = push(
        &mut b,
        "Torso",
        None,
        [0.0, 1.0, -0.3],
        [0.0, 1.0, 0.2],
        0.12,
    );
    let neck = push(
        &mut b,
        "Neck",
        Some(body),
        [0.0, 1.0, 0.2],
        [0.0, 1.05, 0.4],
        0.06,
    );
    push(
        &mut b,
        "Head",
        Some(neck),
        [0.0, 1.05, 0.4],
        [0.0, 1.05, 0.6],
        0.08,
    );
    for (x, s) in [(1.0f32, "L"), (-1.0, "R")] {
        let mut parent = body;
        let mut from = [0.1 * x, 1.05, 0.0];
        for k in 0..3 {
            let to = [from[0] + 0.6 * x, 1.05 + 0.02 * k as f32, -0.05 * k as f32];
            parent = push(
                &mut b,
                &format!("Wing{k}.{s}"),
                Some(parent),
                from,
                to,
                0.04,
            );
            from = to;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let flat_told = |bones: &[fixtures::BoneDef], name: &str| {
        let input = dir.path().join(format!("{name}.glb"));
        std::fs::write(&input, fixtures::glb(bones, fixtures::Build::default())).unwrap();
        let (code, report, err) =
            generate(&input, &dir.path().join(format!("{name}.out.glb")), &[]);
        assert_eq!(code, Some(0), "{err}");
        for (bone, role) in [("Neck", "neck"), ("Head", "head")] {
            let row = report_row(&report, bone).unwrap();
            assert_eq!(row["role"], role, "{name}: {row}");
        }
        err.contains("flat along Y")
    };
    assert!(!flat_told(&b, "flier"), "a level flier is not flat");
    let z_up: Vec<fixtures::BoneDef> = b
        .iter()
        .map(|d| {
            let turn = |v: glam::Vec3| glam::Vec3::new(v.x, v.z + 1.0, 1.0 - v.y);
            fixtures::BoneDef {
                head: turn(d.head),
                tail: turn(d.tail),
                ..d.clone()
            }
        })
        .collect();
    assert!(flat_told(&z_up, "z_up"), "Z-up, it is");
}

/// A walker whose body and four legs hang side by side from a control bone with no skin
/// (Godot's platformer enemy: `MASTER` holds `body` and `r-frontleg`...). Its legs reach out
/// farther than a third of its width, so they were left as ragdolls of their own (three
/// free, one jointed to the eyes), and `validate` found nothing. The bone they share stands
/// for the root body: every leg is jointed to the body, and the ragdoll is one piece.
#[test]
fn legs_beside_the_body_under_a_control_bone_hang_from_the_body() {
    let mut b = Vec::new();
    let master = fixtures::push(&mut b, "MASTER", None, [0.0; 3], [0.0, 0.3, 0.0], 0.0);
    let body = fixtures::push(
        &mut b,
        "body",
        Some(master),
        [0.0, 0.66, 0.0],
        [0.0, 1.14, 0.0],
        0.55,
    );
    fixtures::push(
        &mut b,
        "eyes",
        Some(body),
        [0.0, 1.14, 0.3],
        [0.0, 1.2, 0.5],
        0.1,
    );
    for (name, x, z) in [
        ("r-frontleg", -0.91, 0.63),
        ("l-frontleg", 0.91, 0.63),
        ("r-backleg", -1.05, -0.65),
        ("l-backleg", 1.05, -0.65),
    ] {
        let knee = [x * 1.35, 0.45, z * 1.35];
        let top = fixtures::push(&mut b, name, Some(master), [x, 0.66, z], knee, 0.12);
        let foot = [x * 1.4, 0.0, z * 1.4];
        fixtures::push(&mut b, &format!("{name}001"), Some(top), knee, foot, 0.1);
    }
    let (_dir, out, _) = generated_bones(&b, "walker");
    let doc = Document::open(&out).unwrap();
    let roots: Vec<&str> = (doc.bones.iter())
        .filter(|x| x.collider().is_some() && x.constraint().is_none())
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(roots, ["body"], "one piece");
    for leg in ["r-frontleg", "l-frontleg", "r-backleg", "l-backleg"] {
        assert_eq!(parent_body(&doc, leg).as_deref(), Some("body"), "{leg}");
    }
}

/// A spider standing on its eight legs is wide and low (5.8 x 1.8 x 5.0): it was told to fix
/// a Z-up root. A creature standing on its legs is not flat, whatever its kind.
#[test]
fn a_spider_on_its_legs_is_not_told_to_fix_its_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let input = crate::common::shared_asset("zoo/q_spider.glb");
    let (code, report, err) = generate(&input, &dir.path().join("o.glb"), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!bones_with_role(&report, "thigh").is_empty(), "{report}");
    assert!(!err.contains("flat along Y"), "{err}");
}
