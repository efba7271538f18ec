//! `tune`'s time (issue 19: "with the default budget, `tune` on a 20-body character finishes
//! within 60 s on 2 cores"): the budget is the whole command's. The cost model plans both
//! reports and gives the search what they leave; the report after the search, whose pushes
//! run as long as the search's gains hold the character up, bisects only as far as the
//! budget's rest allows (a clip tune of the generated horse turned the report before's 8
//! pushes, all survived at the largest Δv, into 6 per direction after: planned as 4.1 s, it
//! took 31 CPU-s where the search took 2 CPU-s per planned second).

use crate::common::{self, ragdoll_tuner, run_ok};
use ragdoll_tuner::tune::REPORT_BISECT;
use std::path::Path;

fn f(v: &serde_json::Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is a number: {v}"))
}

/// The generated zoo horse (30 bodies) tuned to its walk: the plan's phases add up to the
/// whole run, which fits the budget; each report costs no more against its plan than the
/// search does against its own (CPU seconds over planned seconds: a ratio the machine's speed,
/// its load and the build profile scale alike), so the whole run fits the budget at the
/// search's rate.
#[test]
fn the_budget_plans_both_reports() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("horse.glb");
    run_ok(
        ragdoll_tuner()
            .arg("generate")
            .arg(common::shared_asset("zoo/q_horse.glb"))
            .arg("-o")
            .arg(&file),
    );
    let r = tune_json(&file, &dir.path().join("tuned.glb"));
    let (plan, spent) = (&r["plan"], &r["spent"]);
    println!(
        "horse walk, --budget 35: plan {plan}, spent {spent}, wall {}",
        r["wall_s"]
    );
    let total = f(plan, "report_before_s") + f(plan, "search_s") + f(plan, "report_after_s");
    assert!((total - f(plan, "total_s")).abs() < 1e-6, "{plan}");
    assert!(f(plan, "total_s") <= f(plan, "budget_s"), "{plan}");
    assert_eq!(f(plan, "budget_s"), 35.0);
    assert!(f(plan, "report_before_s") > 0.0 && f(plan, "report_after_s") > 0.0);
    // CPU seconds per planned second: the search's rate is this machine's for this build.
    let cpu = |phase: &str| f(&spent[phase], "cpu_s");
    let search = cpu("search") / f(plan, "search_s");
    // The report after may also take what the plan leaves of the budget.
    let slack = f(plan, "budget_s") - f(plan, "total_s");
    for (phase, planned) in [
        ("report_before", f(plan, "report_before_s")),
        ("report_after", f(plan, "report_after_s") + slack),
    ] {
        let ratio = cpu(phase) / planned;
        assert!(
            ratio <= 1.5 * search,
            "{phase}: {ratio:.2} CPU-s per planned s, the search {search:.2}: {spent} {plan}"
        );
    }
    let whole = cpu("report_before") + cpu("search") + cpu("report_after");
    assert!(
        whole <= 1.25 * search * f(plan, "budget_s"),
        "{spent} {plan}"
    );
    let phases: f64 = ["report_before", "search", "report_after"]
        .iter()
        .map(|p| f(&spent[p], "wall_s"))
        .sum();
    assert!(phases <= f(&r, "wall_s") + 1e-3, "{r}");
}

/// A budget that cannot hold one generation of CMA-ES's population beside the two reports:
/// the reports' bisection gives way first (decided before the report before runs, so at a
/// typical report's cost), then the population shrinks until one generation fits. The
/// mannequin's pushes at 29 s (24 s until session 26's model, which costs the mannequin's
/// 52 joints too: 1.21 times the seconds, so 24 s no longer held its smallest search): fewer
/// bisection steps in both reports, fewer candidates, the
/// whole run within the budget by the model and, at the search's rate, as measured (before
/// session 13, one generation of 12 was planned over the budget whatever the budget).
#[test]
fn a_small_budget_shrinks_the_search_to_fit() {
    let dir = tempfile::tempdir().unwrap();
    let budget = 29.0;
    let budget_arg = budget.to_string();
    let args = [&crate::tune::GOALS[..], &["--budget", &budget_arg]].concat();
    let r = crate::tune::tune(&common::mannequin(), &dir.path().join("t.glb"), &args);
    let (plan, spent) = (&r["plan"], &r["spent"]);
    println!("mannequin pushes, --budget {budget}: plan {plan}, spent {spent}");
    let dims = r["parameters"]
        .as_u64()
        .expect("parameters: the search's dimensions") as usize;
    let full = ragdoll_tuner::tune::search::population(dims);
    assert!(f(plan, "population") < full as f64, "{full}: {plan}");
    assert!(f(plan, "population") >= ragdoll_tuner::tune::cost::MIN_POPULATION as f64);
    let bisect = |report: &str| {
        r[report]["bisect"]
            .as_u64()
            .expect("the report's bisection")
    };
    assert!(bisect("before") < REPORT_BISECT as u64, "{r}");
    assert_eq!(bisect("after"), bisect("before"), "{r}");
    assert!(f(plan, "total_s") <= budget, "{plan}");
    let cpu = |phase: &str| f(&spent[phase], "cpu_s");
    let search = cpu("search") / f(plan, "search_s");
    let whole = cpu("report_before") + cpu("search") + cpu("report_after");
    assert!(whole <= 1.25 * search * budget, "{spent} {plan}");
}

fn tune_json(file: &Path, out: &Path) -> serde_json::Value {
    crate::tune::tune(
        file,
        out,
        // The robustness figures asked for: what this file tests is a report's pushes planned
        // (a clip tune measures none by default).
        &[
            "--clip",
            "AnimalArmature|Walk",
            "--budget",
            "35",
            "--bisect",
            "5",
        ],
    )
}

/// A giant's trials run in its own time: a character over three times a person's size falls
/// slower (its natural times grow with the square root of its size), so every trial time, a
/// person's 1 s of settling and 5 s after a push, runs
/// `SimSettings::natural_time_scale` times longer. The generated KayKit mannequin at 100
/// times its size (2.4 m → 2.4 hm: 6.7 times), at assist 0, pushed backward at 20 m/s (2 m/s
/// at a person's size by the Froude number) falls 22 s after the push: a person's 5 s trial
/// called it survived (the ×100 CesiumMan's report said it survived 30 m/s from 7 of 8
/// directions, session 30).
#[test]
fn a_giants_trials_run_in_its_own_time() {
    use ragdoll_tuner::tune::{eval, probe, report};
    let dir = tempfile::tempdir().unwrap();
    let generated = crate::tune::generated_scaled(dir.path(), "kaykit_mannequin.glb", 100.0);
    let file = dir.path().join("assist0.glb");
    run_ok(
        ragdoll_tuner()
            .args(["edit", "--set", "@balance.assist=0", "-o"])
            .arg(&file)
            .arg(&generated),
    );
    let doc = ragdoll_tuner::document::Document::open(&file).unwrap();
    let size = probe::world_size(&doc).unwrap();
    let settled = probe::settle(&doc).unwrap();
    let unit = f64::from(settled.settings().unit());
    assert!(unit > 100.0, "size {unit} times a person's");
    assert!(
        (size.time_scale - (unit / 3.0).sqrt()).abs() < 1e-3,
        "{size:?}"
    );
    let settled_s = settled.time_s();
    assert!(
        (settled_s - size.trial_s(probe::PUSH_AT_S)).abs() < 0.01,
        "settled {settled_s} s"
    );
    let forward = ragdoll_tuner::anatomy::Anatomy::of(&doc).forward();
    let back = eval::directions(forward)[4].world;
    let mass = probe::total_mass_kg(&doc) as f32;
    let t = probe::push(&settled, (back, 20.0, mass), report::AFTER_S, true);
    println!("×100 KayKit mannequin pushed back at 20 m/s: {t:?}, time scale {size:?}");
    assert_eq!(t.fell, Some(true), "{t:?}");
    let after_s = t.fell_after_s.expect("fell");
    assert!(after_s > report::AFTER_S, "fell {after_s} s after the push");
}
