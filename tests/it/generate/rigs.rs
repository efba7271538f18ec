//! Full control rigs: a Rigify export that carries its animator's bones beside the ones that
//! deform (`ORG-` originals standing where each `DEF-` bone stands, the deforming bones hung
//! under them) and a face rig under `ORG-face`.

use super::*;
use fixtures::BoneDef;
use glam::Vec3;

/// `bones` generated as a file skinned in hard blocks (each vertex wholly its bone's: a
/// blended first ring would weight the `ORG-` copies above the `DEF-` bones, which a Rigify
/// export never does).
fn generated_hard(bones: &[BoneDef], what: &str) -> (tempfile::TempDir, PathBuf, Value) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.glb");
    let build = fixtures::Build {
        blend: false,
        ..fixtures::Build::default()
    };
    std::fs::write(&input, fixtures::glb(bones, build)).unwrap();
    let out = dir.path().join("out.glb");
    let (code, report, stderr) = generate(&input, &out, &[]);
    assert_eq!(code, Some(0), "{what}: {stderr}");
    (dir, out, report)
}

/// The Rigify fixture as a full control rig: every `DEF-` bone gets an `ORG-` copy with no
/// skin, the copies form the hierarchy (as Rigify's `ORG-` bones do), the spine's `DEF-` bones
/// keep their own chain under a `root` bone, each limb's `DEF-` chain hangs under a copy, and
/// a face rig (`DEF-nose`, `DEF-jaw`, `DEF-tongue`, brows and ears, each a small skinned tube
/// inside the head) hangs under `ORG-face` under the head's copy.
fn control_rig() -> Vec<BoneDef> {
    let deform = fixtures::rigify();
    let mut out: Vec<BoneDef> = Vec::new();
    let root = fixtures::push(&mut out, "root", None, [0.0; 3], [0.0, 0.2, 0.0], 0.0);
    let mut org = vec![0usize; deform.len()];
    for (i, d) in deform.iter().enumerate() {
        let parent = d.parent.map_or(root, |p| org[p]);
        org[i] = out.len();
        out.push(BoneDef {
            name: d.name.replacen("DEF-", "ORG-", 1),
            parent: Some(parent),
            radius: 0.0,
            ..d.clone()
        });
    }
    // As Rigify parents them: the spine's chain under `root`, each limb's chain under the copy
    // of the bone it starts from (a thigh under `ORG-spine`, a shoulder under its own copy).
    let spine = |i: usize| deform[i].name.starts_with("DEF-spine");
    let mut def = vec![0usize; deform.len()];
    for (i, d) in deform.iter().enumerate() {
        let parent = match d.parent {
            None => root,
            Some(p) if spine(i) || !spine(p) => def[p],
            Some(_) if d.name.starts_with("DEF-shoulder") => org[i],
            Some(p) => org[p],
        };
        def[i] = out.len();
        out.push(BoneDef {
            parent: Some(parent),
            ..d.clone()
        });
    }
    let head = deform
        .iter()
        .position(|d| d.name == "DEF-spine.006")
        .unwrap();
    let (at, top) = (deform[head].head, deform[head].tail);
    let mid = at.lerp(top, 0.5);
    let face = fixtures::push(
        &mut out,
        "ORG-face",
        Some(org[head]),
        mid.to_array(),
        (mid + Vec3::Z * 0.05).to_array(),
        0.0,
    );
    let front = Vec3::Z * 0.09;
    for (name, from, to) in [
        ("DEF-nose", mid + Vec3::Y * 0.03, mid + front),
        ("DEF-jaw", at + Vec3::Y * 0.02, at + front + Vec3::Y * 0.01),
        (
            "DEF-tongue",
            at + Vec3::Y * 0.03,
            at + front * 0.6 + Vec3::Y * 0.03,
        ),
        (
            "DEF-brow.L",
            mid + Vec3::new(0.04, 0.05, 0.07),
            mid + Vec3::new(0.01, 0.05, 0.09),
        ),
        (
            "DEF-brow.R",
            mid + Vec3::new(-0.04, 0.05, 0.07),
            mid + Vec3::new(-0.01, 0.05, 0.09),
        ),
        (
            "DEF-ear.L",
            mid + Vec3::new(0.07, 0.0, 0.0),
            mid + Vec3::new(0.09, 0.04, -0.02),
        ),
        (
            "DEF-ear.R",
            mid + Vec3::new(-0.07, 0.0, 0.0),
            mid + Vec3::new(-0.09, 0.04, -0.02),
        ),
    ] {
        fixtures::push(
            &mut out,
            name,
            Some(face),
            from.to_array(),
            to.to_array(),
            0.02,
        );
    }
    out
}

/// A Rigify control rig's face bones (under `ORG-face` under `ORG-spine.006`) are the head's
/// skin, and its shoulders hang from the chest their copies hang from. A Sketchfab export of
/// a full Rigify rig (957 bones) got 10 face bodies chained from the neck through the tongue
/// to the nose, the nose its head, and its shoulders on the neck (`DEF-spine.004`), since
/// nothing above the deforming bones but copies says where they hang.
#[test]
fn a_control_rig_s_face_is_its_head_and_its_arms_hang_from_the_chest() {
    let (_dir, out, report) = generated_hard(&control_rig(), "control rig");
    assert_eq!(report["character_type"], "humanoid", "{report}");
    let bone = |name: &str| {
        (report["bones"].as_array().unwrap().iter())
            .find(|b| b["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {report}"))
            .clone()
    };
    assert_eq!(bone("DEF-spine.006")["role"], "head");
    assert_eq!(bone("DEF-spine.003")["role"], "chest");
    for face in [
        "DEF-nose",
        "DEF-jaw",
        "DEF-tongue",
        "DEF-brow.L",
        "DEF-ear.R",
    ] {
        let outcome = bone(face)["outcome"].as_str().unwrap().to_string();
        assert!(
            outcome.starts_with("merged into DEF-spine.006"),
            "{face}: {outcome}"
        );
    }
    let doc = Document::open(&out).unwrap();
    for side in ["L", "R"] {
        let shoulder = format!("DEF-shoulder.{side}");
        let chest = parent_body(&doc, &shoulder);
        assert_eq!(chest.as_deref(), Some("DEF-spine.003"), "{shoulder}");
    }
    // The same bodies as the rig's deforming bones alone give.
    let (_d, _o, plain) = generated_hard(&fixtures::rigify(), "deform bones only");
    let bodies = |r: &Value| r["body_count"].as_u64().unwrap();
    assert_eq!(bodies(&report), bodies(&plain), "{report}");
    let stand = run(&doc, Scenario::default());
    assert!(stand.fell_at_s.is_none(), "{stand:?}");
}
