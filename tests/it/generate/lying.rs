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
