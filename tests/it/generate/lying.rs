//! Characters lying as they live: the orientation warning and creatures flat by nature.

use super::*;

/// A snake lying along the ground (a legless creature: read so only when it lies longer than
/// twice its height) is as flat as it is: one 12.1 long and 0.43 high was told "flat along Y:
/// if it is Z-up or lies down, fix its root rotation", advice that would stand it on its tail.
#[test]
fn a_snake_lying_on_the_ground_is_not_told_to_fix_its_rotation() {
    let mut b = Vec::new();
    let mut parent = None;
    for k in 0..10 {
        let z = 0.3 * k as f32;
        let name = format!("seg{k}");
        let at = fixtures::push(
            &mut b,
            &name,
            parent,
            [0.0, 0.06, z],
            [0.0, 0.06, z + 0.3],
            0.05,
        );
        parent = Some(at);
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("snake.glb");
    std::fs::write(&input, fixtures::glb(&b, fixtures::Build::default())).unwrap();
    let (code, report, err) = generate(&input, &dir.path().join("o.glb"), &[]);
    assert_eq!(code, Some(0), "{err}");
    let doc = Document::open(dir.path().join("o.glb")).unwrap();
    let kind = ragdoll_tuner::anatomy::Anatomy::of(&doc).kind();
    assert_eq!(kind, ragdoll_tuner::anatomy::Kind::Legless, "{report}");
    assert!(!err.contains("flat along Y"), "{err}");
}

/// `path`'s scene under a new root turned +90 degrees about X: its +Y up becomes +Z, as a
/// file exported Z-up (Blender's "+Y Up" unticked).
fn z_up(path: &Path, dir: &Path) -> PathBuf {
    let (mut json, bin) = json_and_bin(path);
    let scene = json["scene"].as_u64().unwrap_or(0) as usize;
    let roots = json["scenes"][scene]["nodes"].clone();
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let nodes = json["nodes"].as_array_mut().unwrap();
    nodes
        .push(serde_json::json!({"name": "z_up", "rotation": [s, 0.0, 0.0, s], "children": roots}));
    let wrap = nodes.len() - 1;
    json["scenes"][scene]["nodes"] = serde_json::json!([wrap]);
    let name = path.file_stem().unwrap().to_string_lossy();
    let out = dir.join(format!("{name}-z-up.glb"));
    std::fs::write(&out, fixtures::glb_bytes(&json, &bin.unwrap())).unwrap();
    out
}

/// A humanoid exported Z-up lies on its back. Read by its extents it was told "flat along
/// Y" at best, and nothing when it was read as legless (a Character Creator figure: "Other,
/// 0.261 units tall, 0.23 kg"). Its bones named as the head and the feet say which way is its
/// up, and the warning names it. Standing, the same files and the zoo's four-legged creatures
/// (heads forward of their feet, low) are told nothing of the kind.
#[test]
fn a_humanoid_exported_z_up_is_told_its_up_by_its_names() {
    let dir = tempfile::tempdir().unwrap();
    let says_up = |input: &Path| -> bool {
        let (code, _, err) = generate(input, &dir.path().join("o.glb"), &[]);
        assert_eq!(code, Some(0), "{err}");
        err.contains("say this character's up is +Z")
    };
    for file in [
        "zoo/godot_robot.glb",
        "zoo/mannequiny_gdquest.glb",
        "zoo/ubc_superhero_male_notex.glb",
    ] {
        let standing = shared_asset(file);
        assert!(says_up(&z_up(&standing, dir.path())), "{file} Z-up");
        assert!(!says_up(&standing), "{file} standing");
    }
    for file in [
        "zoo/q_rat.glb",
        "zoo/q_horse.glb",
        "zoo/q_dragon_meshopt.glb",
    ] {
        assert!(!says_up(&shared_asset(file)), "{file}");
    }
}
