//! A trunk and feet fitted to the skin as the file weights it. A trunk fitted to a tail, wings or a cape skinned to it stands far off the body (a
//! werewolf's pelvis a 0.9 m ball around its tail, a winged demon's chest a capsule round both
//! wings): the generator leaves such vertices out of a humanoid's pelvis, spine and chest
//! (`generate::trunk`), and keeps every vertex of a trunk that carries nothing.

use super::fixtures;
use crate::common::*;
use glam::{DMat4, DVec3};
use ragdoll_tuner::document::{fields::Key, Edit, EditTarget};
use ragdoll_tuner::document::{ColliderShape, Document};
use ragdoll_tuner::generate::{Options, Report};
use ragdoll_tuner::sim::{SimSettings, Simulation};

/// The skin in the world at rest: every vertex of every mesh, and each triangle's centre and
/// edge midpoints (a low-poly mesh's faces are large).
fn skin_points(doc: &Document) -> Vec<DVec3> {
    let geo = doc.load_geometry().unwrap();
    let mut out = Vec::new();
    for prim in &geo.primitives {
        let world: Vec<DVec3> = (0..prim.positions.len())
            .map(|i| {
                let v = DVec3::from_array(prim.positions[i].map(f64::from));
                let m = match prim.skin {
                    Some(s) => {
                        let w = prim.weights[i];
                        let k = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap();
                        let j = prim.joints[i][k] as usize;
                        let node = doc.skeleton.skins[s].joints[j];
                        doc.skeleton.nodes[node].world_from_node * geo.inverse_bind[s][j].as_dmat4()
                    }
                    None => doc.skeleton.nodes[prim.node].world_from_node,
                };
                m.transform_point3(v)
            })
            .collect();
        for t in prim.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| world[t[k] as usize]);
            out.extend([
                (a + b + c) / 3.0,
                (a + b) / 2.0,
                (b + c) / 2.0,
                (c + a) / 2.0,
            ]);
        }
        out.extend(world);
    }
    out
}

/// Points on a collider's surface in its own frame (capsule and box axes as the file's).
fn surface(shape: &ColliderShape) -> Vec<DVec3> {
    let dirs: Vec<DVec3> = (-1..=1)
        .flat_map(|x| (-1..=1).flat_map(move |y| (-1..=1).map(move |z| (x, y, z))))
        .filter(|&d| d != (0, 0, 0))
        .map(|(x, y, z)| DVec3::new(x as f64, y as f64, z as f64).normalize())
        .collect();
    match *shape {
        ColliderShape::Sphere { radius } => dirs.iter().map(|d| *d * radius).collect(),
        ColliderShape::Capsule {
            radius,
            half_height,
        } => dirs
            .iter()
            .map(|d| *d * radius + DVec3::Y * half_height * d.y.signum())
            .collect(),
        ColliderShape::Box { half_extents } => {
            let e = DVec3::from_array(half_extents);
            dirs.iter()
                .map(|d| d.signum() * e * d.abs().ceil())
                .collect()
        }
    }
}

/// Per body (bone name): the farthest point of its collider's surface from the skin (world
/// units).
fn farthest_off_skin(doc: &Document) -> Vec<(String, f64)> {
    let skin = skin_points(doc);
    doc.bone_ids()
        .filter_map(|id| {
            let c = doc.bone(id).collider()?;
            let (_, rot, pos) = doc.skeleton.nodes[doc.bone(id).node]
                .world_from_node
                .to_scale_rotation_translation();
            let place = doc.body_from_collider(id, c);
            let world_from_collider = DMat4::from_rotation_translation(rot, pos)
                * DMat4::from_rotation_translation(place.rotation.normalize(), place.translation);
            let far = surface(&doc.world_shape(id, &c.shape))
                .into_iter()
                .map(|q| {
                    let p = world_from_collider.transform_point3(q);
                    skin.iter()
                        .map(|s| s.distance_squared(p))
                        .fold(f64::INFINITY, f64::min)
                        .sqrt()
                })
                .fold(0.0, f64::max);
            Some((doc.bone(id).name.clone(), far))
        })
        .collect()
}

/// The generated document of a file, its report and its height (`keep`: every trunk vertex
/// fitted, appendages included).
fn generated(path: &std::path::Path, keep: bool) -> (Document, Report, f64) {
    let mut doc = Document::open(path).expect("open");
    let opts = Options {
        keep_appendages: keep,
        ..Default::default()
    };
    let g = ragdoll_tuner::generate::generate(&doc, &opts).expect("generate");
    doc.apply(&g.edit).expect("apply");
    let height = g.report.height;
    (doc, g.report, height)
}

#[test]
fn the_trunks_of_real_humanoids_keep_all_their_skin() {
    // Trunks that carry nothing: no vertex of any pelvis, spine or chest is left out.
    let zoo = root().join("../shared/assets/zoo");
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(zoo.join("truth.json")).unwrap()).unwrap();
    let mut files: Vec<_> = truth["kind"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, k)| *k == "humanoid")
        .map(|(f, _)| zoo.join(f))
        .collect();
    files.sort();
    files.extend([cesium_man(), mannequin()]);
    assert!(files.len() >= 10, "{files:?}");
    for f in &files {
        let (doc, report, _) = generated(f, false);
        let left_out: Vec<_> = report
            .bones
            .iter()
            .filter_map(|b| b.appendage_vertices.map(|n| (&b.name, n)))
            .collect();
        assert!(left_out.is_empty(), "{}: {left_out:?}", f.display());
        let (whole, _, _) = generated(f, true);
        assert_eq!(doc.json(), whole.json(), "{}", f.display());
    }
}

#[test]
fn a_tail_skinned_to_the_pelvis_sizes_it_far_less() {
    // The synthetic humanoid, with and without a 0.9 m tail of vertices weighted wholly to
    // its hips (no bone of its own), running back from the hips.
    let dir = tempfile::tempdir().unwrap();
    let bones = fixtures::humanoid();
    let hips = bones.iter().position(|b| b.name.ends_with("Hips")).unwrap();
    let sized = |tail: bool, keep: bool| {
        let o = fixtures::Build {
            appendages: [
                tail.then_some(fixtures::Appendage {
                    bone: hips,
                    from: bones[hips].head,
                    to: bones[hips].head + glam::Vec3::new(0.0, 0.0, -0.9),
                    radius: 0.05,
                }),
                None,
            ],
            ..Default::default()
        };
        let path = dir.path().join(format!("tail_{tail}.glb"));
        std::fs::write(&path, fixtures::glb(&bones, o)).unwrap();
        let (doc, report, height) = generated(&path, keep);
        let far = farthest_off_skin(&doc);
        let left_out = report
            .bones
            .iter()
            .find(|b| b.name == bones[hips].name)
            .and_then(|b| b.appendage_vertices);
        let id = doc.bone_by_name(&bones[hips].name).unwrap();
        let c = doc.bone(id).collider().unwrap();
        let r = ragdoll_tuner::joint::inertia::bounding_radius(&doc.world_shape(id, &c.shape));
        let off = far.iter().find(|(n, _)| *n == bones[hips].name).unwrap().1;
        (r / height, off / height, left_out)
    };
    let (plain, plain_off, none) = sized(false, false);
    let (tailed, tailed_off, left_out) = sized(true, false);
    let (whole, whole_off, _) = sized(true, true);
    // Measured: bounding radius 0.075 of the height without the tail, 0.157 with it and 0.314
    // with every tail vertex fitted; the farthest point of its surface from the skin 0.070,
    // 0.110 and 0.237 of the height. The tail's root, within reach of the hips, still counts.
    println!(
        "pelvis bounding radius / height: {plain:.3} without the tail, {tailed:.3} with it, \
         {whole:.3} fitted to the tail; farthest off the skin {plain_off:.3} / {tailed_off:.3} \
         / {whole_off:.3}; left out {left_out:?}"
    );
    assert_eq!(none, None, "nothing left out without a tail");
    assert!(left_out.is_some_and(|n| n > 0), "{left_out:?}");
    assert!(
        tailed - plain < 0.6 * (whole - plain),
        "{tailed} {whole} {plain}"
    );
    assert!(tailed_off - plain_off < 0.6 * (whole_off - plain_off));
}

/// Many characters from Mixamo's auto-rigger leave `LeftFoot` unweighted, the foot's vertices
/// on `LeftLeg`: the legs ended at the shins, whose capsules reached down through the feet to
/// the ground, and at assist 0 those characters fell in about 1.4 s (a knight, a bat, an
/// armoured robot, a bone demon, a wendigo: 7 of 16 outside characters now stand). Here the
/// synthetic humanoid with its feet and toes unweighted and each foot's tube of skin weighted
/// to its shin: the feet get bodies fitted to the shin's vertices past the ankle, the shins end
/// at the ankles, and it stands 10 s at assist 0 on its feet.
#[test]
fn a_foot_whose_vertices_are_the_shins_gets_a_body_of_them() {
    let mut bones = fixtures::humanoid();
    let names: Vec<String> = bones.iter().map(|b| b.name.clone()).collect();
    let idx = |n: &str| names.iter().position(|b| b.ends_with(n)).unwrap();
    let mut appendages = [None; 2];
    for (k, side) in ["Left", "Right"].iter().enumerate() {
        let (shin, foot, toe) = (
            idx(&format!("{side}Leg")),
            idx(&format!("{side}Foot")),
            idx(&format!("{side}ToeBase")),
        );
        appendages[k] = Some(fixtures::Appendage {
            bone: shin,
            from: bones[foot].head,
            to: bones[toe].tail,
            radius: 0.035,
        });
        bones[foot].radius = 0.0;
        bones[toe].radius = 0.0;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("auto_rigged_feet.glb");
    let o = fixtures::Build {
        appendages,
        ..Default::default()
    };
    std::fs::write(&path, fixtures::glb(&bones, o)).unwrap();
    let (mut doc, report, height) = generated(&path, false);
    let body = |n: &str| {
        let b = report.bones.iter().find(|b| b.name.ends_with(n)).unwrap();
        (b.outcome.clone(), b.shape)
    };
    println!("feet: {:?} {:?}", body("LeftFoot"), body("RightFoot"));
    assert_eq!(body("LeftFoot"), ("body".to_string(), Some("box")));
    assert_eq!(body("RightFoot"), ("body".to_string(), Some("box")));
    let feet = doc.balance.foot_bones.clone().expect("feet");
    assert!(feet.iter().all(|f| f.ends_with("Foot")), "{feet:?}");
    // The shin's capsule ends at the ankle: its lowest point stays above the sole.
    let shin = doc.bone_by_name(&bones[idx("LeftLeg")].name).unwrap();
    let c = doc.bone(shin).collider().unwrap().clone();
    let (_, rot, pos) = doc.skeleton.nodes[doc.bone(shin).node]
        .world_from_node
        .to_scale_rotation_translation();
    let place = doc.body_from_collider(shin, &c);
    let centre = pos + rot * place.translation;
    let r = ragdoll_tuner::joint::inertia::bounding_radius(&doc.world_shape(shin, &c.shape));
    let ankle_y = f64::from(bones[idx("LeftFoot")].head.y);
    println!(
        "shin collider reaches down to {:.3} m, the ankle at {ankle_y:.3} m",
        centre.y - r
    );
    assert!(centre.y - r > 0.5 * ankle_y, "the shin ends near the ankle");
    let edit = Edit::Set {
        target: EditTarget::Document,
        key: Key::Assist.path().into(),
        value: serde_json::json!(0.0),
    };
    doc.apply(&edit).unwrap();
    let mut sim = Simulation::new(&doc, SimSettings::default()).unwrap();
    while sim.time_s() < 10.0 {
        sim.step().expect("no guard pause");
    }
    assert_eq!(
        sim.fell_at_s(),
        None,
        "it stands 10 s at assist 0 ({height:.2} m)"
    );
}

/// A foot bone with no skin whose shin leaves it (almost) nothing past the ankle (a knight's
/// 10 vertices, a cat's 3) gets a sole from its skeleton: a box from a heel behind the ankle
/// to the end of its toes, 0.38 of that long wide. Fitted to the few vertices alone, the
/// knight's foot was a 2.8 cm cube and it fell at 2.1 s at assist 0; now the knight and the cat
/// stand. Here the synthetic humanoid with its feet and toes unweighted and no skin below the
/// ankles at all.
#[test]
fn a_foot_with_no_vertices_anywhere_gets_a_sole_from_its_skeleton() {
    let mut bones = fixtures::humanoid();
    for b in bones.iter_mut() {
        if b.name.ends_with("Foot") || b.name.ends_with("ToeBase") {
            b.radius = 0.0;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bare_feet.glb");
    std::fs::write(&path, fixtures::glb(&bones, Default::default())).unwrap();
    let (mut doc, _, _) = generated(&path, false);
    let foot = doc.bone_by_name("mixamorig:LeftFoot").unwrap();
    let c = doc.bone(foot).collider().expect("a foot body").clone();
    let ColliderShape::Box { half_extents: e } = doc.world_shape(foot, &c.shape) else {
        panic!("a box foot: {:?}", c.shape);
    };
    println!("sole half extents {e:?}");
    // The skeleton's foot runs 0.19 m from the ankle to the toes' end.
    assert!(e.iter().cloned().fold(0.0, f64::max) > 0.09, "{e:?}");
    assert_eq!(
        fell_at_assist_0(&mut doc),
        None,
        "it stands 10 s at assist 0"
    );
}

/// When `doc`, set to assist 0, falls in a 10 s run with balance (None: it stands).
fn fell_at_assist_0(doc: &mut Document) -> Option<f64> {
    let edit = Edit::Set {
        target: EditTarget::Document,
        key: Key::Assist.path().into(),
        value: serde_json::json!(0.0),
    };
    doc.apply(&edit).unwrap();
    let mut sim = Simulation::new(doc, SimSettings::default()).unwrap();
    while sim.time_s() < 10.0 {
        sim.step().expect("no guard pause");
    }
    sim.fell_at_s()
}
