//! Every character follows its own walk clip (run or idle where there is no walk) with a
//! kinematic root: the measured median and worst joint RMS, ratcheted so a regression fails.
//! Also: no zoo character is reported fallen at t = 0 while it stands.

use crate::common::{characters, shared_asset};
use ragdoll_tuner::document::{Clip, Document};
use ragdoll_tuner::generate::generate;
use ragdoll_tuner::sim::{SimSettings, Simulation};

/// The clip the acceptance follows: the first whose name says walk, else run, else fly (a
/// winged creature's locomotion), else idle, else the first clip.
pub fn acceptance_clip(doc: &Document) -> Option<Clip> {
    let anims = doc.load_animations().ok()?;
    let named = |w: &str| {
        anims
            .clips
            .iter()
            .find(|c| c.name.to_lowercase().contains(w))
    };
    named("walk")
        .or_else(|| named("run"))
        .or_else(|| named("fly"))
        .or_else(|| named("idle"))
        .or_else(|| anims.clips.first())
        .cloned()
}

/// One character's clip-following figures.
#[derive(Debug, Clone)]
pub struct Follow {
    pub clip: String,
    pub median_deg: f32,
    pub worst_deg: f32,
    pub worst_joint: String,
    pub paused: Option<String>,
    pub joints: Vec<(String, f32)>,
}

/// Generates a ragdoll for `path` and follows its acceptance clip for `loops` loops with a
/// kinematic root at 120 Hz. None when the character has no clip.
pub fn follow(path: &std::path::Path, loops: f32) -> Option<Follow> {
    let mut doc = Document::open(path).expect("opens");
    let g = generate(&doc, &Default::default()).expect("generates");
    doc.apply(&g.edit).expect("applies");
    for w in &g.report.widened {
        println!(
            "  widened {}: {} -> {} ({:?})",
            w.bone, w.from, w.to, w.clips
        );
    }
    let clip = acceptance_clip(&doc)?;
    let name = clip.name.clone();
    // The clip by its index: names need not be unique.
    let (joints, paused) = crate::follow::play(&doc, &clip.index.to_string(), loops, true);
    let mut sorted: Vec<f32> = joints.iter().map(|j| j.1).collect();
    sorted.sort_by(f32::total_cmp);
    let median_deg = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let (worst_joint, worst_deg) = joints
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .unwrap_or_default();
    Some(Follow {
        clip: name,
        median_deg,
        worst_deg,
        worst_joint,
        paused,
        joints,
    })
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// Measured figures (median, worst joint RMS in degrees, two loops of the acceptance clip)
/// of every character with clips; a regression past them (with room for float noise) fails.
const MEASURED: [(&str, f32, f32); 11] = [
    ("godot_robot.glb", 0.31, 1.07),
    ("kaykit_mannequin.glb", 0.59, 1.32),
    // 1.28 / 3.15 at 8 solver substeps; at 16 (the default since the zoo settles with it) its
    // worst joint, the right hand, tracks at 4.34 (the acceptance is 10).
    ("mannequiny_gdquest.glb", 1.24, 4.34),
    // 0.07 / 1.10 before session 40, when its wings' capsules were up to 4 times their
    // volume (their axes through the median of vertices crowding the wing's leading edge).
    ("q_dragon_meshopt.glb", 0.11, 1.75),
    ("q_horse.glb", 0.11, 0.42),
    ("q_rat.glb", 0.14, 0.77),
    ("q_snake.glb", 0.19, 0.68),
    // Its legs' masses evened (the generator's limb evening): 0.29 / 0.95 before.
    ("q_spider.glb", 0.26, 0.55),
    ("rigify_lumberjack.glb", 0.69, 1.41),
    ("CesiumMan.glb", 0.79, 2.02),
    ("Fox.glb", 0.37, 3.70),
];

/// Every character with clips follows its walk (run, fly or idle where there is none) with a
/// kinematic root, without a guard pause, at or under today's measured median and worst
/// joint RMS; a character without clips is not in the table.
#[test]
fn every_character_follows_its_clip_at_the_measured_figures() {
    let mut failures = Vec::new();
    for p in characters() {
        let name = file_name(&p);
        let got = follow(&p, 2.0);
        let want = MEASURED.iter().find(|m| m.0 == name);
        let (Some(f), Some(&(_, median, worst))) = (&got, want) else {
            assert!(
                got.is_none() && want.is_none(),
                "{name}: clips and the table disagree"
            );
            continue;
        };
        println!(
            "{name} {}: median {:.2}, worst {:.2} ({}); every joint: {:?}",
            f.clip, f.median_deg, f.worst_deg, f.worst_joint, f.joints
        );
        if f.paused.is_some() {
            failures.push(format!("{name}: paused {:?}", f.paused));
        }
        if f.median_deg > median * 1.1 + 0.1 || f.worst_deg > worst * 1.1 + 0.3 {
            failures.push(format!(
                "{name}: median {:.2} (was {median}), worst {:.2} {} (was {worst})",
                f.median_deg, f.worst_deg, f.worst_joint
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// No zoo character, generated and standing with balance, is reported fallen at the start
/// (fall detection reads the anatomy: a standing rat has not fallen at 0 s).
#[test]
fn no_zoo_character_is_fallen_at_the_start() {
    let mut fallen = Vec::new();
    for p in characters()
        .into_iter()
        .filter(|p| p.starts_with(shared_asset("zoo")))
    {
        let mut doc = Document::open(&p).expect("opens");
        let g = generate(&doc, &Default::default()).expect("generates");
        doc.apply(&g.edit).expect("applies");
        let mut sim = Simulation::new(&doc, SimSettings::default()).expect("world");
        for _ in 0..12 {
            if sim.step().is_err() {
                break;
            }
        }
        if let Some(t) = sim.fell_at_s() {
            fallen.push(format!("{}: fell at {t:.3} s", file_name(&p)));
        }
    }
    assert!(fallen.is_empty(), "{fallen:#?}");
}

/// The Rigify lumberjack's `Poses` clip is a pose library (it holds three still poses for most
/// of its length), recognised from its keys: it widens no ankle or wrist past anatomical
/// plausibility (it asks for 145° of wrist twist) and the report names what it did not
/// widen; its Walk still widens what a walk needs. (Its ankles asked for 166° of swing while
/// a limit widened only the extent nearer a pose's azimuth; widened by the least in sum, its
/// still poses fit within 82°, and they are granted.) Its axe, skinned to a
/// bone under the right hand, keeps that hand's own fit: coverage median ≥ 0.90 and every
/// limb ≥ 0.75 (the evened hand covered 0.60).
#[test]
fn a_pose_library_widens_limits_only_within_plausibility() {
    use ragdoll_tuner::document::ConstraintKind;
    let path = shared_asset("zoo/rigify_lumberjack.glb");
    let mut doc = Document::open(&path).expect("opens");
    let g = generate(&doc, &Default::default()).expect("generates");
    let refused: Vec<_> = g.report.not_widened.iter().collect();
    println!("{refused:#?}");
    let n = refused
        .iter()
        .find(|n| n.bone == "DEF-hand.L_049")
        .unwrap_or_else(|| panic!("DEF-hand.L_049 not reported: {refused:#?}"));
    assert_eq!(n.clip, "Poses");
    assert!(n.evidence.contains("still poses"), "{}", n.evidence);
    assert!(refused.iter().all(|n| n.clip == "Poses"), "{refused:#?}");
    doc.apply(&g.edit).expect("applies");
    for id in doc.bone_ids() {
        let b = doc.bone(id);
        let Some(c) = b.physics.as_ref().and_then(|p| p.constraint.as_ref()) else {
            continue;
        };
        let ConstraintKind::BallSocket {
            swing_limit_deg: s,
            twist_limit_deg: t,
            ..
        } = &c.kind
        else {
            continue;
        };
        let swing = s.pos_y.max(s.neg_y).max(s.pos_z).max(s.neg_z);
        let twist = (-t.min_deg).max(t.max_deg);
        if b.name.starts_with("DEF-foot") || b.name.starts_with("DEF-hand") {
            assert!(
                swing <= 90.0 + 1e-6 && twist <= 90.0 + 1e-6,
                "{}: {s:?} {t:?}",
                b.name
            );
        }
        if b.name.starts_with("DEF-foot") {
            // Walk alone asks 82° and 84°: still granted.
            assert!(s.pos_y.min(s.neg_y) > 80.0, "{}: {s:?}", b.name);
        }
    }
    let cov = &g.report.coverage;
    assert!(cov.median.unwrap() >= 0.9, "{cov:?}");
    assert!(cov.min_limb.unwrap() >= 0.75, "{cov:?}");
}
