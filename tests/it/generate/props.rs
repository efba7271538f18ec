//! What an attachment bone carries is not the body. A low-poly soldier from a web game's kit
//! holds a spear skinned to a `WeaponSlot` under its right hand and a shield skinned to a
//! `ShieldSlot` on its left forearm: generated, its right hand was a capsule 2.6 m long
//! around the spear, its left forearm one 0.8 m thick around the shield, it read 2.79 m tall,
//! and the spear rising over its head made its right arm read as its neck and head (its
//! `Neck` and `Head`, named as such, were taken for an arm).

use super::*;

/// A bone index by its name in a fixture.
fn index(bones: &[fixtures::BoneDef], name: &str) -> usize {
    bones.iter().position(|b| b.name == name).unwrap()
}

/// The report's entry for bone `name`.
fn bone<'a>(report: &'a Value, name: &str) -> &'a Value {
    let bones = report["bones"].as_array().unwrap();
    bones.iter().find(|b| b["name"] == name).unwrap()
}

#[test]
fn a_spear_and_a_shield_on_attachment_bones_are_not_the_body() {
    let mut bones = fixtures::humanoid();
    let (hand, fore) = (
        index(&bones, "mixamorig:RightHand"),
        index(&bones, "mixamorig:LeftForeArm"),
    );
    let (at_hand, at_fore) = (bones[hand].tail, bones[fore].tail);
    let weapon = fixtures::push(
        &mut bones,
        "WeaponSlot",
        Some(hand),
        at_hand.to_array(),
        (at_hand + glam::Vec3::Y * 0.05).to_array(),
        0.0,
    );
    let shield = fixtures::push(
        &mut bones,
        "ShieldSlot",
        Some(fore),
        at_fore.to_array(),
        (at_fore + glam::Vec3::X * 0.05).to_array(),
        0.0,
    );
    // The spear from below the hand to 0.7 m over the head; the shield a disc 0.9 m across
    // beside the forearm.
    let spear = fixtures::Appendage {
        bone: weapon,
        from: glam::Vec3::new(at_hand.x, 0.3, 0.1),
        to: glam::Vec3::new(at_hand.x, 2.45, 0.1),
        radius: 0.02,
    };
    let disc = fixtures::Appendage {
        bone: shield,
        from: glam::Vec3::new(at_fore.x + 0.08, 1.0, 0.0),
        to: glam::Vec3::new(at_fore.x + 0.12, 1.0, 0.0),
        radius: 0.45,
    };
    let build = fixtures::Build {
        appendages: [Some(spear), Some(disc)],
        ..Default::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("soldier.glb");
    std::fs::write(&input, fixtures::glb(&bones, build)).unwrap();
    let out = dir.path().join("out.glb");
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    for slot in ["WeaponSlot", "ShieldSlot"] {
        assert_eq!(
            bone(&report, slot)["outcome"],
            "skipped: carries a prop, not the body"
        );
        let carried = bone(&report, slot)["carried_vertices"].as_u64();
        assert!(
            carried.is_some_and(|n| n > 0),
            "{slot}: {}",
            bone(&report, slot)
        );
    }
    let height = report["height"].as_f64().unwrap();
    assert!((height - 1.76).abs() < 0.05, "height {height}");
    for (name, role) in [
        ("mixamorig:Neck", "neck"),
        ("mixamorig:Head", "head"),
        ("mixamorig:RightArm", "upper_arm"),
        ("mixamorig:RightHand", "hand"),
        ("mixamorig:LeftForeArm", "forearm"),
    ] {
        assert_eq!(bone(&report, name)["role"], role, "{name}");
    }
    let doc = Document::open(&out).unwrap();
    for name in ["mixamorig:RightHand", "mixamorig:LeftForeArm"] {
        let size = world_size(&doc, name);
        assert!(size < 0.3, "{name}: a body {size} m across");
    }
}

/// The largest extent of bone `name`'s collider in the world (m).
fn world_size(doc: &Document, name: &str) -> f64 {
    use ragdoll_tuner::sim::{SimSettings, Simulation};
    let sim = Simulation::new(doc, SimSettings::passive()).expect("simulation");
    let w = sim.physics();
    let body = sim.body_handle(name).expect(name);
    let aabb = w.colliders[w.bodies[body].colliders()[0]].compute_aabb();
    f64::from((aabb.maxs - aabb.mins).max_element())
}

/// A humanoid whose rest pose holds its right arm out in front (a sword, a spear, a torch):
/// its forward stays square to its hips and shoulders. From every named left-right pair, its
/// forearm, hand and fifteen finger pairs turned it 39° toward its raised arm (a Saxon
/// holding its sword forward: 13°); the pairs hanging from one bone (thighs from the hips,
/// clavicles from the chest), which no pose of the limbs turns, now decide.
#[test]
fn an_arm_held_forward_in_the_rest_pose_does_not_turn_the_character() {
    let mut bones = fixtures::humanoid();
    let arm = index(&bones, "mixamorig:RightArm");
    let pivot = bones[arm].head;
    let turn = glam::Quat::from_rotation_x(-1.2);
    let mut chain = vec![arm];
    for (i, b) in bones.iter().enumerate() {
        if b.parent.is_some_and(|p| chain.contains(&p)) {
            chain.push(i);
        }
    }
    for &i in &chain {
        bones[i].head = pivot + turn * (bones[i].head - pivot);
        bones[i].tail = pivot + turn * (bones[i].tail - pivot);
    }
    let (_dir, _out, report) = generated_bones(&bones, "right arm held forward");
    let f = &report["forward"];
    let forward = glam::DVec3::new(f[0].as_f64().unwrap(), 0.0, f[2].as_f64().unwrap());
    let off_deg = forward.normalize().dot(glam::DVec3::Z).acos().to_degrees();
    assert!(
        off_deg < 1.0,
        "forward {forward} is {off_deg:.1} deg off +Z"
    );
}

/// A mesh beside the character that is neither skinned nor under a bone (a fish file's
/// `Sphere`, a ground plane) was counted as dropped, "1184 of 5150 vertices dropped (no
/// weight, unknown joint, NaN or huge position)": read as a broken file. It is named as left
/// out of the ragdoll, and the dropped count stays for broken data.
#[test]
fn a_mesh_outside_the_skeleton_is_named_not_dropped() {
    let doc = glb_with_json(&mannequin(), |j| {
        let nodes = j["nodes"].as_array_mut().unwrap();
        nodes.push(serde_json::json!({"name": "Ground plane", "mesh": 0}));
        let node = nodes.len() - 1;
        let scene = j["scene"].as_u64().unwrap_or(0) as usize;
        j["scenes"][scene]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(node.into());
    });
    let geo = doc.load_geometry().unwrap();
    let plane = geo.primitives.iter().filter(|p| p.skin.is_none());
    let plane_vertices: usize = plane.map(|p| p.positions.len()).sum();
    assert!(plane_vertices > 0);
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).unwrap();
    let r = &g.report;
    assert_eq!(
        (r.vertices_dropped, r.vertices_unattached),
        (0, plane_vertices)
    );
    let named = g.diagnostics.iter().find(|d| d.bone == "Ground plane");
    let named = named.expect("a diagnostic names the mesh");
    assert!(
        named.message.contains("left out of the ragdoll"),
        "{named:?}"
    );
}

/// Many meshes outside the skeleton (an Auto-Rig Pro horse's 45 control widgets,
/// `cs_circle_ik` and the like) were a warning each, 45 lines before anything else the report
/// said. Past three they are one warning with their count, their vertices and the first names.
#[test]
fn many_meshes_outside_the_skeleton_are_one_warning() {
    let doc = glb_with_json(&mannequin(), |j| {
        let scene = j["scene"].as_u64().unwrap_or(0) as usize;
        for k in 0..5 {
            let nodes = j["nodes"].as_array_mut().unwrap();
            nodes.push(serde_json::json!({"name": format!("cs_widget_{k}"), "mesh": 0}));
            let node = nodes.len() - 1;
            j["scenes"][scene]["nodes"]
                .as_array_mut()
                .unwrap()
                .push(node.into());
        }
    });
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).unwrap();
    let about: Vec<_> = (g.diagnostics.iter())
        .filter(|d| d.message.contains("neither skinned nor under a bone"))
        .collect();
    assert_eq!(about.len(), 1, "{about:?}");
    let m = &about[0].message;
    assert!(
        m.starts_with("5 meshes") && m.contains("'cs_widget_0'") && m.contains("and 2 more"),
        "{m}"
    );
}

/// A sword skinned to bones of its own under the hand (`arme_020`, `arme2_021`, `arme3_022`
/// on a Sketchfab skeleton) is a held prop, not fingers: each bone spans under a quarter of
/// the height, but the three reach 1 m from the hand, and merged into it as fingers they
/// made the hand a capsule 1.6 m long. Here three blade bones of 0.3 m each: the hand stays
/// hand-sized and none of them gives it its skin.
#[test]
fn a_blade_skinned_to_bones_of_its_own_under_the_hand_is_not_the_hand() {
    let mut bones = fixtures::humanoid();
    let hand = index(&bones, "mixamorig:RightHand");
    let mut at = bones[hand].tail;
    let mut parent = hand;
    let step = glam::Vec3::new(-0.05, 0.0, 0.3);
    let mut blade = Vec::new();
    for k in 1..=3 {
        let name = format!("Blade_{k}");
        parent = fixtures::push(
            &mut bones,
            &name,
            Some(parent),
            at.to_array(),
            (at + step).to_array(),
            0.03,
        );
        at += step;
        blade.push(name);
    }
    let (_dir, out, report) = generated_bones(&bones, "a blade under the right hand");
    for name in &blade {
        let outcome = bone(&report, name)["outcome"].as_str().unwrap_or_default();
        assert!(!outcome.starts_with("merged"), "{name}: {outcome}");
    }
    let doc = Document::open(&out).unwrap();
    let size = world_size(&doc, "mixamorig:RightHand");
    let left = world_size(&doc, "mixamorig:LeftHand");
    assert!(
        size < 1.5 * left,
        "the right hand is {size} m across, the left {left} m"
    );
}
