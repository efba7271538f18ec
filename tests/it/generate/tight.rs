//! Capsules that fit their body part: across its axis none reaches far past the skin it was
//! fitted to. A capsule's axis through the median of its vertices sat to one side of a body
//! part whose vertices crowd one side (a densely meshed belly, a calf's folds), and its
//! radius grew to reach the sparse side: a lumberjack's spine stood out behind his back by a
//! quarter of his height, the zoo rat's hind leg by a third of its.

use super::generated;
use super::measure::capsule_overreach;
use crate::common::*;
use ragdoll_tuner::document::Document;

/// Capsules owning fewer vertices than this are fitted to more than their own (the
/// generator's rule): judged only from this many.
const MIN_POINTS: usize = 24;

#[test]
fn no_capsule_reaches_far_past_its_skin() {
    let mut worst = Vec::new();
    let mut all = Vec::new();
    for input in characters() {
        let (_dir, out, report) = generated(&input, "tight.glb");
        let doc = Document::open(&out).unwrap();
        let height = report["height"].as_f64().unwrap();
        let mut past: Vec<(String, f64)> = capsule_overreach(&doc, MIN_POINTS)
            .into_iter()
            .map(|(bone, m)| (bone, m / height))
            .collect();
        past.sort_by(|a, b| b.1.total_cmp(&a.1));
        let name = input.file_name().unwrap().to_string_lossy().to_string();
        eprintln!("{name}: {:?}", &past[..past.len().min(3)]);
        all.extend(past.iter().map(|p| p.1));
        if let Some((bone, m)) = past.first().cloned() {
            worst.push((name, bone, m));
        }
    }
    all.sort_by(f64::total_cmp);
    let at = |q: f64| all[((all.len() - 1) as f64 * q) as usize];
    eprintln!(
        "{} capsules: median {:.4}, p90 {:.4}, max {:.4} of the height",
        all.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
    assert!(at(0.9) <= 0.07, "p90 {}", at(0.9));
    let far: Vec<_> = worst.iter().filter(|w| w.2 > 0.2).collect();
    assert!(far.is_empty(), "past 20% of the height: {far:?}");
}
