//! `tune` on real characters: the same seed gives the same bytes; the designed robustness on
//! the bundled mannequin and a zoo humanoid, checked with independent `simulate --push` runs;
//! a zoo character's clip tracking; the editor's Auto-tune dialog (run, apply as one undo
//! step, undo).

use crate::common::{self, ragdoll_tuner, run_ok};
use crate::editor::harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};

/// Issue 19's designed-robustness goals, as `tune` arguments.
pub(crate) const GOALS: [&str; 6] = ["--survive-dv", "0.5", "--fall-dv", "1.5", "--assist", "0"];

pub(crate) fn tune(file: &Path, out: &Path, args: &[&str]) -> serde_json::Value {
    tune_with_stderr(file, out, args).0
}

/// `tune --json`'s object, and what it said on stderr.
fn tune_with_stderr(file: &Path, out: &Path, args: &[&str]) -> (serde_json::Value, String) {
    let o = run_ok(
        ragdoll_tuner()
            .arg("tune")
            .arg(file)
            .arg("-o")
            .arg(out)
            .args(args)
            .arg("--json"),
    );
    let json = serde_json::from_slice(&o.stdout).expect("tune --json prints one object");
    (json, String::from_utf8_lossy(&o.stderr).into_owned())
}

pub(crate) fn simulate(file: &Path, args: &[&str]) -> serde_json::Value {
    let o = run_ok(
        ragdoll_tuner()
            .arg("simulate")
            .arg(file)
            .args(args)
            .arg("--json"),
    );
    serde_json::from_slice(&o.stdout).expect("simulate --json prints one object")
}

/// Same seed, same bytes: the generation is evaluated in parallel and reduced in order.
#[test]
fn the_same_seed_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.glb"), dir.path().join("b.glb"));
    // Standing, limits and effort only: the cheapest goals (a test budget).
    let args = ["--budget", "0", "--bisect", "0", "--seed", "7"];
    let (ra, said) = tune_with_stderr(&common::mannequin(), &a, &args);
    tune(&common::mannequin(), &b, &args);
    // No budget holds the reports and a search: the run says so, with the plan's seconds.
    let total = ra["plan"]["total_s"].as_f64().expect("the plan's seconds");
    assert!(
        said.contains("warning: over budget") && said.contains(&format!("{total:.1} s")),
        "{said}"
    );
    let (ba, bb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(ba, bb, "same seed, same bytes");
    assert_ne!(ba, std::fs::read(common::mannequin()).unwrap(), "{ra}");
    // The smallest search: one generation of the smallest population, then the first stage's
    // best and the mean at the full stage.
    let smallest = ragdoll_tuner::tune::cost::MIN_POPULATION as u64 + 2;
    assert!(ra["evaluations"].as_u64().unwrap() >= smallest, "{ra}");
    assert!(ra["evaluations_per_s"].as_f64().unwrap() > 0.0);
}

/// A budget that is not a non-negative number is refused with a message naming it, and
/// nothing is written (it was taken as "no budget": one generation of the smallest search).
#[test]
fn a_budget_that_is_not_a_number_of_seconds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.glb");
    for bad in ["nan", "-5", "inf"] {
        let o = ragdoll_tuner()
            .arg("tune")
            .arg(common::mannequin())
            .arg("-o")
            .arg(&out)
            .arg(format!("--budget={bad}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{bad}: {err}");
        assert!(err.contains("--budget"), "{bad}: {err}");
        assert!(!out.exists(), "{bad}: wrote {}", out.display());
    }
    // Goals out of their range likewise, each named (the assist is a scale from 0 to 1).
    for (bad, name) in [
        ("--assist=5", "--assist"),
        ("--fall-dv=nan", "--fall-dv"),
        ("--survive-dv=-1", "--survive-dv"),
    ] {
        let o = ragdoll_tuner()
            .arg("tune")
            .arg(common::mannequin())
            .arg("-o")
            .arg(&out)
            .arg(bad)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(name), "{bad}: {err}");
        assert!(!out.exists(), "{bad}: wrote {}", out.display());
    }
}

/// A bisection past any meaning is refused at once, naming the option and its range: asked
/// for a billion halvings, the planning counted for 48 s before the report ran (and for
/// usize::MAX it would not have ended).
#[test]
fn a_bisection_past_any_resolution_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.glb");
    for bad in ["1000000000", "21", "-1", "five"] {
        let t0 = std::time::Instant::now();
        let o = ragdoll_tuner()
            .arg("tune")
            .arg(common::mannequin())
            .arg("-o")
            .arg(&out)
            .args(["--survive-dv", "0.5", &format!("--bisect={bad}")])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{bad}: {err}");
        assert!(
            err.contains("--bisect") && err.contains("0 to 20"),
            "{bad}: {err}"
        );
        assert!(t0.elapsed().as_secs_f64() < 5.0, "{bad}: refused at once");
        assert!(!out.exists(), "{bad}: wrote {}", out.display());
    }
}

/// The eight push vectors `tune` uses for `file` (N·s for Δv = `dv`), as `simulate --push`
/// arguments at 1 s on the balance pelvis.
pub(crate) fn pushes(file: &Path, dv: f64) -> Vec<String> {
    use ragdoll_tuner::tune::{eval, probe};
    let doc = ragdoll_tuner::document::Document::open(file).unwrap();
    let mass = probe::total_mass_kg(&doc);
    let forward = ragdoll_tuner::anatomy::Anatomy::of(&doc).forward();
    let pelvis = doc.balance.pelvis_bone.clone().unwrap_or("pelvis".into());
    eval::directions(forward)
        .iter()
        .map(|d| {
            let j = d.world.as_dvec3() * dv * mass;
            format!("{pelvis}:{:.4},0,{:.4}@1", j.x, j.z)
        })
        .collect()
}

/// (stands 10 s, pushes of `survive` survived of 8, pushes of `fall` that felled it of 8),
/// each from an independent `simulate` run of 6 s (the stand: 10 s).
pub(crate) fn robustness(file: &Path, survive: f64, fall: f64) -> (bool, usize, usize) {
    let stand = simulate(file, &["--seconds", "10"]);
    let stood = stand["fell"] == false && stand["paused"].is_null();
    let fell = |p: &str| {
        let r = simulate(file, &["--seconds", "6", "--push", p]);
        r["fell"] == true
    };
    let survived = pushes(file, survive).iter().filter(|p| !fell(p)).count();
    let felled = pushes(file, fall).iter().filter(|p| fell(p)).count();
    (stood, survived, felled)
}

/// Designed robustness on the bundled mannequin: after `tune --survive-dv 0.5 --fall-dv 1.5
/// --assist 0` it stands 10 s and falls at 1.5 m/s from at least 6 of 8 directions, and
/// survives 0.5 m/s from more directions than before (see the README for the figures of the
/// full budget: the backward pushes are out of its reach without a step).
/// A goal out of reach is named after the run, on stderr and in the JSON, not left to be
/// read off the table: a 17-bone character with no feet that did not stand after tuning was
/// written with `changed: true` and no word of it. At assist 0 the mannequin survives no
/// 4 m/s push from most directions; it stands, so standing is not listed.
#[test]
fn goals_out_of_reach_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tuned.glb");
    let args = [
        "--survive-dv",
        "4",
        "--assist",
        "0",
        "--budget",
        "0",
        "--bisect",
        "0",
    ];
    let (r, said) = tune_with_stderr(&common::mannequin(), &out, &args);
    let unmet: Vec<&str> = r["unmet_goals"]
        .as_array()
        .expect("unmet_goals")
        .iter()
        .filter_map(|g| g.as_str())
        .collect();
    let survived = r["after"]["directions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["survives_goal"] == true)
        .count();
    assert!(survived < 8, "{r}");
    let missed = format!("survives 4.00 m/s from {survived} of 8 directions");
    assert_eq!(unmet, [missed.as_str()], "{r}");
    assert!(
        said.contains(&format!("warning: after tuning, goals not met: {missed}")),
        "{said}"
    );
}

#[test]
fn designed_robustness_on_the_mannequin() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tuned.glb");
    let args = [&GOALS[..], &["--budget", "10", "--bisect", "0"]].concat();
    let r = tune(&common::mannequin(), &out, &args);
    assert_eq!(r["changed"], true, "{r}");
    // The report names the legs' strongest torque limit as the tuned file has it.
    let tuned = ragdoll_tuner::document::Document::open(&out).unwrap();
    let legs = ["thigh_l", "shin_l", "foot_l", "thigh_r", "shin_r", "foot_r"].map(|b| {
        tuned
            .bone(tuned.bone_by_name(b).unwrap())
            .physics
            .as_ref()
            .unwrap()
    });
    let strongest = legs
        .iter()
        .map(|p| p.drive.unwrap().max_torque)
        .fold(0.0, f64::max);
    let reported = r["after"]["legs_max_torque_n_m"].as_f64();
    assert!(
        reported.is_some_and(|t| (t - strongest).abs() < 1e-6 * strongest),
        "{r}"
    );
    // Without bisection each direction's figures are the goals' pushes' bracket.
    for d in r["after"]["directions"].as_array().expect("directions") {
        assert_eq!(d["halvings"], 0, "{d}");
        let survived = d["survived_dv_m_s"]
            .as_f64()
            .expect("the largest push survived");
        if d["survives_goal"] == true {
            assert!(survived >= 0.5, "{d}");
        }
        if d["falls_at_goal"] == true {
            assert!(d["fell_dv_m_s"].as_f64().is_some_and(|f| f <= 1.5), "{d}");
        }
    }
    let zero = dir.path().join("assist0.glb");
    run_ok(
        ragdoll_tuner()
            .arg("edit")
            .arg(common::mannequin())
            .args(["--set", "@balance.assist=0", "-o"])
            .arg(&zero),
    );
    let before = robustness(&zero, 0.5, 1.5);
    let after = robustness(&out, 0.5, 1.5);
    println!("mannequin, assist 0: before {before:?}, after {after:?}; tune said {r}");
    assert!(after.0, "stands 10 s");
    assert!(after.2 >= 6, "falls at 1.5 m/s from {} of 8", after.2);
    assert!(
        after.1 > before.1,
        "survives 0.5 m/s from {} of 8 (before {})",
        after.1,
        before.1
    );
}

/// Designed robustness met in full on a zoo humanoid: after `tune --survive-dv 0.5
/// --fall-dv 1.5 --assist 0` (the default budget and report) the generated Ready Player Me
/// character stands 10 s, survives 0.5 m/s from all 8 directions (7 before: backward felled
/// it) and falls at 1.5 m/s from at least 6. Before the stepping strategy's parameter the
/// search got there by turning the hip strategy on; with the parameter vector one longer it
/// gets there through the gains alone (README, "Measured (issue 19, section 3)"); the report
/// says which strategies the result uses.
#[test]
fn designed_robustness_on_a_zoo_humanoid() {
    let (r, after) = tuned_to_the_goals("rpm_preview_apose.glb");
    println!("rpm_preview_apose, assist 0: after {after:?}; tune said {r}");
    assert!(r["after"]["hip_kp"].is_f64(), "{r}");
    assert!(r["after"]["step_gain"].is_f64(), "{r}");
    assert_meets_the_goals(after);
}

/// The zoo character `zoo`, generated and tuned to [`GOALS`]: `tune`'s report, and
/// [`robustness`] of the file it wrote.
pub(crate) fn tuned_to_the_goals(zoo: &str) -> (serde_json::Value, (bool, usize, usize)) {
    tuned_to_the_goals_from(&common::shared_asset(&format!("zoo/{zoo}")))
}

/// The character at `src`, generated and tuned to [`GOALS`], as [`tuned_to_the_goals`].
pub(crate) fn tuned_to_the_goals_from(src: &Path) -> (serde_json::Value, (bool, usize, usize)) {
    let dir = tempfile::tempdir().unwrap();
    let file = generated_from(dir.path(), src);
    let out = dir.path().join("tuned.glb");
    let r = tune(&file, &out, &GOALS);
    (r, robustness(&out, 0.5, 1.5))
}

/// The zoo character `zoo` tuned to [`GOALS`], its report saying it is knocked out at the
/// goals' geometric mean (0.87 m/s for 0.5 and 1.5): [`robustness`] of the file written.
pub(crate) fn tuned_with_the_line(zoo: &str) -> (bool, usize, usize) {
    let (r, after) = tuned_to_the_goals(zoo);
    let ko = r["after"]["knockout_dv"].as_f64().unwrap();
    println!("{zoo}, assist 0: after {after:?}; knocked out past {ko} m/s");
    assert!((ko - 0.75f64.sqrt()).abs() < 1e-4, "between the goals: {r}");
    after
}

/// Issue 19's designed robustness: stands 10 s, survives 0.5 m/s from all 8 directions and
/// falls at 1.5 m/s from at least 6.
pub(crate) fn assert_meets_the_goals((stood, survived, felled): (bool, usize, usize)) {
    assert!(stood, "stands 10 s");
    assert_eq!(survived, 8, "survives 0.5 m/s from {survived} of 8");
    assert!(felled >= 6, "falls at 1.5 m/s from {felled} of 8");
}

/// (per-joint RMS in degrees by name) of one loop of `clip` with a kinematic root.
fn clip_rms(file: &Path, clip: &str) -> Vec<(String, f64)> {
    let r = simulate(file, &["--clip", clip, "--loops", "1"]);
    assert!(r["paused"].is_null(), "{r}");
    r["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["name"].as_str().unwrap().to_string(),
                j["rms_error_deg"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn median(v: &[(String, f64)]) -> f64 {
    let mut x: Vec<f64> = v.iter().map(|p| p.1).collect();
    x.sort_by(f64::total_cmp);
    x[x.len() / 2]
}

pub(crate) fn generated(dir: &Path, zoo: &str) -> PathBuf {
    generated_from(dir, &common::shared_asset(&format!("zoo/{zoo}")))
}

/// The character at `src` generated, in `dir` under its own file name.
pub(crate) fn generated_from(dir: &Path, src: &Path) -> PathBuf {
    let out = dir.join(src.file_name().expect("a file name"));
    run_ok(ragdoll_tuner().arg("generate").arg(src).arg("-o").arg(&out));
    out
}

/// `zoo` with its scene's roots under a new node scaled by `s`, generated, in `dir`.
pub(crate) fn generated_scaled(dir: &Path, zoo: &str, s: f64) -> PathBuf {
    use crate::generate::{fixtures::glb_bytes, measure::json_and_bin};
    let (mut json, bin) = json_and_bin(&common::shared_asset(&format!("zoo/{zoo}")));
    let roots = json["scenes"][0]["nodes"].take();
    let nodes = json["nodes"].as_array_mut().unwrap();
    nodes.push(serde_json::json!({"name": "scaled", "scale": [s, s, s], "children": roots}));
    json["scenes"][0]["nodes"] = serde_json::json!([nodes.len() - 1]);
    let scaled = dir.join(format!("scaled_{zoo}"));
    std::fs::write(&scaled, glb_bytes(&json, &bin.unwrap())).unwrap();
    let out = dir.join(format!("generated_{zoo}"));
    run_ok(
        ragdoll_tuner()
            .arg("generate")
            .arg(&scaled)
            .arg("-o")
            .arg(&out),
    );
    out
}

/// A character that stands is never tuned into one that does not. The UBC superhero at 1.8 cm
/// (×0.01) stands at assist 0, but every 0.5 m/s push (28 of its heights a second) fells it
/// and no 1.5 m/s one does: a candidate that collapsed before any push met the fall goal and
/// missed nothing more than the document did, and won (it fell at 0.28 s); a fall before the
/// pushes now costs more than the fall goal can (`eval::FELL_SETTLING_COST`).
#[test]
fn a_tiny_character_is_not_tuned_into_a_collapse() {
    let dir = tempfile::tempdir().unwrap();
    let file = generated_scaled(dir.path(), "ubc_superhero_male_notex.glb", 0.01);
    let out = dir.path().join("tuned.glb");
    let r = tune(&file, &out, &[&GOALS[..], &["--budget", "15"]].concat());
    // The report's mass is the character's (about 78 mg), not rounded to a zero that makes
    // every push built from it (Δv × mass) no push at all.
    let mass = r["mass_kg"].as_f64().unwrap();
    assert!((5e-5..1e-4).contains(&mass), "mass {mass} kg");
    // Its trials run in its own time, about a sixth of a person's (it falls that much faster),
    // so the plan fits the budget: 11.5 of 15 s, where a person's times planned 30.0 (session
    // 33), with a step of 128 substeps where a person's takes 16.
    let scale = r["time_scale"].as_f64().expect("time_scale");
    assert!((0.1..0.25).contains(&scale), "time scale {scale}");
    let plan = &r["plan"];
    assert!(
        plan["total_s"].as_f64().unwrap() <= plan["budget_s"].as_f64().unwrap(),
        "{plan}"
    );
    assert_eq!(r["before"]["stands_10s"], true, "{r}");
    assert_eq!(r["after"]["stands_10s"], true, "{r}");
    let stand = simulate(&out, &["--seconds", "10"]);
    assert_eq!(stand["fell"], false, "tuned: {stand}");
}

/// A clip tune never hands back gains that fall standing where the document's stood. The
/// zoo horse's clip-only search, before it held the character still (session 19), found
/// gains that track its walk 59% better and fall 5.78 s into standing; such gains are
/// reported as rejected, the document's gains are kept, and the file written stands. Held
/// still, the search finds gains that stand (-56%, session 20).
///
/// With the default budget it also meets the clip acceptance: its reports measure no push
/// limits (a clip tune has no push goal; `tune::Goals::report_bisect`), which had taken a
/// third of the budget, 8 pushes of 5 s it survived at the largest Δv in each report; with
/// them the search ran 43 evaluations and tracked the walk 15% better (session 27), without
/// them 53 and 36% (session 28).
#[test]
fn a_clip_tune_never_hands_back_gains_that_fall_standing() {
    let dir = tempfile::tempdir().unwrap();
    let file = generated(dir.path(), "q_horse.glb");
    let out = dir.path().join("tuned.glb");
    let r = tune(&file, &out, &["--clip", "AnimalArmature|Walk"]);
    assert_eq!(r["before"]["stands_10s"], true, "{r}");
    assert_eq!(r["after"]["stands_10s"], true, "{r}");
    let rejected = &r["rejected"];
    println!(
        "horse walk tune: changed {}, rejected {rejected}",
        r["changed"]
    );
    if !rejected.is_null() {
        assert_eq!(rejected["stands_10s"], false, "{r}");
        assert_eq!(r["changed"], false, "{r}");
    }
    let stand = simulate(&out, &["--seconds", "10"]);
    assert_eq!(stand["fell"], false, "tuned: {stand}");
    for report in ["before", "after"] {
        assert_eq!(r[report]["bisect"], 0, "{r}");
        let dirs = r[report]["directions"].as_array().expect("directions");
        assert!(
            dirs.iter().all(|d| d["survived_dv_m_s"].is_null()),
            "push limits not measured: {r}"
        );
    }
    let clip = "AnimalArmature|Walk";
    let (before, after) = (clip_rms(&file, clip), clip_rms(&out, clip));
    println!(
        "horse walk: {} evaluations, median {:.3} -> {:.3}",
        r["evaluations"],
        median(&before),
        median(&after)
    );
    assert!(median(&after) <= 0.7 * median(&before));
    for ((name, b), (_, a)) in before.iter().zip(&after) {
        assert!(*a <= 10.0, "{name}: {a:.2}°");
        assert!(*a <= b + 1.0, "{name}: {b:.2}° -> {a:.2}°");
    }
}

/// Clip tracking on a zoo humanoid with a walk: the median joint's RMS at least 30% lower
/// than with the generated defaults, every joint within 10°, none worse by more than 1°.
#[test]
fn clip_tracking_on_a_zoo_walk() {
    let dir = tempfile::tempdir().unwrap();
    let file = generated(dir.path(), "rigify_lumberjack.glb");
    let out = dir.path().join("tuned.glb");
    let r = tune(
        &file,
        &out,
        // 20 s at session 14's rate (36,000 body-steps per CPU-s) bought the search 15 s did
        // at 47,000 (README, Auto-tune, "Session 14"). Since the clip-only search holds the
        // character still (session 20) an evaluation costs about twice as much: at 20 s the
        // search fit 53 evaluations and reached -29%; 35 s buys it what 20 s did. Since its
        // capsules are fitted round the middle of their vertices (session 40), 35 s (53
        // evaluations) reach -24%, 45 s (73) -39%, the default 55 s (93) -54%.
        &["--clip", "Walk", "--budget", "45", "--bisect", "0"],
    );
    let (before, after) = (clip_rms(&file, "Walk"), clip_rms(&out, "Walk"));
    println!(
        "lumberjack Walk: median {:.3} -> {:.3}, max {:.3} -> {:.3}; tune said {r}",
        median(&before),
        median(&after),
        before.iter().map(|p| p.1).fold(0.0, f64::max),
        after.iter().map(|p| p.1).fold(0.0, f64::max)
    );
    assert!(median(&after) <= 0.7 * median(&before));
    for ((name, b), (_, a)) in before.iter().zip(&after) {
        assert!(*a <= 10.0, "{name}: {a:.2}°");
        assert!(*a <= b + 1.0, "{name}: {b:.2}° -> {a:.2}°");
    }
}

/// The editor's Auto-tune dialog: open it from the Edit menu, run a tiny search on the
/// background thread, apply it as one undo step; undo restores the document's bytes.
#[test]
fn the_auto_tune_dialog_applies_as_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.glb");
    std::fs::copy(common::mannequin(), &path).unwrap();
    let mut h = harness(&path);
    h.run_steps(3);
    let original = h.state().state.doc.json().clone();
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Auto-tune…").click();
    h.run_steps(3);
    // Goals: standing (always) and a small push; no per-direction limits; the least budget.
    h.get_by_label("Measure push limits per direction").click();
    h.get_by_label("Time budget (s)").set_value_accesskit(0.0);
    h.get_by_label("Δv m/s").set_value_accesskit(0.2);
    h.run_steps(2);
    h.get_by_label("Run").click();
    h.run_steps(2);
    assert!(
        h.query_by_label("Cancel").is_some(),
        "a running search can be cancelled"
    );
    let t0 = std::time::Instant::now();
    while !h.state().state.status.starts_with("auto-tune:") {
        assert!(t0.elapsed().as_secs() < 300, "the search did not finish");
        std::thread::sleep(std::time::Duration::from_millis(200));
        h.run_steps(1);
    }
    assert!(h.query_by_label("Before").is_some(), "a before/after table");
    println!("{}", h.state().state.status);
    h.get_by_label("Apply").click();
    h.run_steps(3);
    let st = &h.state().state;
    assert_ne!(st.doc.json(), &original, "{}", st.status);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(
        h.state().state.doc.json(),
        &original,
        "one undo step restores it"
    );
}

/// Clip tracking on a quadruped from outside the zoo (the glTF sample Fox, its walk): the
/// clip acceptance. Its front legs carry arm roles; tuned with the arms (their drives 4-5
/// times stiffer than its hind legs'), the search reached -17% (session 34); tuned as legs,
/// -42%.
#[test]
fn clip_tracking_on_a_quadrupeds_walk() {
    let dir = tempfile::tempdir().unwrap();
    let file = generated_from(dir.path(), &common::shared_asset("Fox/Fox.glb"));
    let out = dir.path().join("tuned.glb");
    let r = tune(&file, &out, &["--clip", "Walk"]);
    let (before, after) = (clip_rms(&file, "Walk"), clip_rms(&out, "Walk"));
    println!(
        "fox Walk: {} evaluations, median {:.3} -> {:.3}",
        r["evaluations"],
        median(&before),
        median(&after)
    );
    assert_eq!(r["after"]["stands_10s"], true, "{r}");
    assert!(median(&after) <= 0.7 * median(&before));
    for ((name, b), (_, a)) in before.iter().zip(&after) {
        assert!(*a <= 10.0, "{name}: {a:.2}°");
        assert!(*a <= b + 1.0, "{name}: {b:.2}° -> {a:.2}°");
    }
}
