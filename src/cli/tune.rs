//! `tune`: search the drive and balance gains for the goals given, write them to OUT through
//! the codec, and report before and after.

use crate::document::UriPolicy;
use crate::tune::report::sig;
use crate::tune::{self, Figures, Goals, Options, Outcome};
use anyhow::Context;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// The options of one `tune` run.
#[derive(Debug, Clone, clap::Args)]
pub struct TuneArgs {
    /// Where to write the tuned document (.gltf or .glb).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Survive a speed change of this size at the pelvis from all 8 horizontal directions
    /// (an impulse of Δv times the whole body's mass), back within 5° of upright in 2 s.
    #[arg(long, value_name = "M/S")]
    pub survive_dv: Option<f64>,
    /// Fall from pushes of this size.
    #[arg(long, value_name = "M/S")]
    pub fall_dv: Option<f64>,
    /// Track this clip (name or index) with a kinematic root.
    #[arg(long, value_name = "NAME")]
    pub clip: Option<String>,
    /// The balance assist scale at most this (0..1): 0 balances through joints and feet alone.
    #[arg(long, value_name = "MAX")]
    pub assist: Option<f64>,
    /// Time of the whole run (search and reports) on the reference machine (2 idle cores,
    /// release build), in seconds; a cost model turns it into a fixed number of evaluations,
    /// so the result does not depend on the clock.
    #[arg(long, value_name = "SECONDS", default_value_t = tune::DEFAULT_BUDGET_S)]
    pub budget: f64,
    /// The search's random seed: the same seed gives the same bytes.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Bisection steps per direction for the before/after robustness figures (0: only the
    /// goals' pushes). Default: 5 with a push goal (--survive-dv, --fall-dv), 0 without (a
    /// clip tune's budget goes to its clip).
    #[arg(long, value_name = "N", value_parser = bisect_steps)]
    pub bisect: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `--bisect`: a count of halvings up to [`tune::MAX_REPORT_BISECT`].
fn bisect_steps(s: &str) -> Result<usize, String> {
    let max = tune::MAX_REPORT_BISECT;
    match s.parse::<usize>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "'{s}' is not a count of halvings from 0 to {max} ({max} halve 0..{} m/s, or 0..twice the largest goal, to {:.1e} m/s)",
            tune::report::DV_MAX_M_S,
            tune::report::DV_MAX_M_S / (1u64 << max) as f64
        )),
    }
}

fn opt(x: Option<f64>) -> serde_json::Value {
    x.map_or(serde_json::Value::Null, |v| {
        json!((v * 1000.0).round() / 1000.0)
    })
}

fn figures_json(f: &Figures) -> serde_json::Value {
    let mut v = serde_json::to_value(f).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "clip_rms_by_joint".into(),
            f.clip_rms_by_joint
                .iter()
                .map(|(n, r)| json!({"name": n, "rms_deg": opt(Some(*r))}))
                .collect(),
        );
    }
    v
}

fn report_json(o: &Outcome, run: tune::timing::Spent) -> serde_json::Value {
    json!({
        "before": figures_json(&o.before),
        "after": figures_json(&o.after),
        "changed": o.edit.is_some(),
        // The search's best, not applied: it fell standing where the document stood.
        "rejected": o.rejected.as_ref().map(figures_json),
        // The goals the figures after miss, in words (empty: all met or not measured).
        "unmet_goals": o.unmet,
        "knockout_note": o.knockout_note(),
        "score_before": opt(Some(o.search.start_score)),
        "score_after": opt(Some(o.search.score)),
        "evaluations": o.search.evaluations,
        "evaluations_per_s": opt(Some(o.evaluations_per_s)),
        "search_s": opt(Some(o.search.seconds)),
        "wall_s": opt(Some(run.wall_s)),
        "cpu_s": opt(run.cpu_s),
        "model_s": opt(Some(o.model_s)),
        "plan": o.plan,
        "spent": o.spent,
        "bodies": o.size.bodies,
        "joints": o.size.joints,
        "substeps": o.size.substeps,
        // How many times a person's the trials' times run (a giant falls slower, a tiny
        // character faster).
        "time_scale": opt(Some(o.size.time_scale)),
        "parameters": o.dims,
        // Not rounded: CesiumMan at 1.5 cm weighs 45 mg, and a push is Δv times this.
        "mass_kg": o.mass_kg,
        "population": o.population,
        "generations": o.generations,
    })
}

fn show(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), sig)
}

/// A push's Δv (m/s, two decimals; "-" when not measured).
fn dv(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map_or_else(|| "-".into(), |v| format!("{v:.2}"))
}

fn yes(x: Option<bool>) -> &'static str {
    match x {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    }
}

fn print_text(o: &Outcome, run: tune::timing::Spent) {
    let (b, a) = (&o.before, &o.after);
    println!("{:<14} {:>22} {:>22}", "", "before", "after");
    println!(
        "{:<14} {:>22} {:>22}",
        "stands 10 s",
        yes(b.stands_10s),
        yes(a.stands_10s)
    );
    print_pushes(b, a);
    print_goals(b, a);
    print_clip(b, a);
    print_effort(b, a);
    print_gains(b, a);
    if let Some(r) = &o.rejected {
        println!(
            "the search's best was not applied: it fell standing within 10 s where the \
             document's own gains stand (its clip median RMS {} deg); the figures after are \
             the document's",
            show(r.clip_median_rms_deg)
        );
    }
    println!(
        "{} evaluations in {:.1} s ({:.1}/s), score {:.3} -> {:.3}; total {:.1} s \
         ({:.1} s planned on the reference machine)",
        o.search.evaluations,
        o.search.seconds,
        o.evaluations_per_s,
        o.search.start_score,
        o.search.score,
        run.wall_s,
        o.model_s
    );
    print_phases(o, run);
    if let Some(note) = o.time_scale_note() {
        println!("{note}");
    }
}

/// Each phase's seconds: planned on the reference machine, then measured (wall, CPU).
fn print_phases(o: &Outcome, run: tune::timing::Spent) {
    let (p, s) = (&o.plan, &o.spent);
    let cpu = |x: Option<f64>| x.map_or_else(|| "-".into(), |v| format!("{v:.1}"));
    println!(
        "planned {:.1} + {:.1} + {:.1} = {:.1} s of a {:.1} s budget (report before, search, \
         report after); took {:.1} + {:.1} + {:.1} s wall, {} + {} + {} CPU-s; the whole \
         command {:.1} s wall, {} CPU-s",
        p.report_before_s,
        p.search_s,
        p.report_after_s,
        p.total_s,
        p.budget_s,
        s.report_before.wall_s,
        s.search.wall_s,
        s.report_after.wall_s,
        cpu(s.report_before.cpu_s),
        cpu(s.search.cpu_s),
        cpu(s.report_after.cpu_s),
        run.wall_s,
        cpu(run.cpu_s)
    );
    let after = match p.report_after {
        tune::cost::AfterReport::AsBefore => "as long as the report before",
        tune::cost::AfterReport::GoalsOnly => {
            "the goals' pushes, bisecting only with what the budget left"
        }
    };
    println!(
        "search: {} generation(s) of {} ({} planned); report after: {after}; bisection: {} step(s)",
        o.generations, p.population, p.generations, o.before.bisect
    );
}

/// Per direction: the largest push survived and the smallest felled, before and after.
fn print_pushes(b: &Figures, a: &Figures) {
    let measured = |f: &Figures| f.directions.iter().any(|d| d.survived_dv_m_s.is_finite());
    if !measured(b) && !measured(a) {
        println!(
            "push limits per direction: not measured (no bisection: --bisect N, within a \
             budget that holds it)"
        );
        return;
    }
    println!(
        "{:<14} {:>11}{:>11} {:>11}{:>11}",
        "push (m/s)", "survives", "fells", "survives", "fells"
    );
    for (db, da) in b.directions.iter().zip(&a.directions) {
        println!(
            "{:<14} {:>11}{:>11} {:>11}{:>11}",
            db.direction,
            dv(Some(db.survived_dv_m_s)),
            dv(db.fell_dv_m_s),
            dv(Some(da.survived_dv_m_s)),
            dv(da.fell_dv_m_s)
        );
    }
}

/// How many directions meet the goal pushes ("-" without such a goal).
fn print_goals(b: &Figures, a: &Figures) {
    let count = |f: &Figures, g: fn(&tune::report::DirectionFigures) -> Option<bool>| {
        let n = f.directions.iter().filter(|d| g(d) == Some(true)).count();
        let of = f.directions.iter().filter(|d| g(d).is_some()).count();
        if of == 0 {
            "-".into()
        } else {
            format!("{n}/{of}")
        }
    };
    println!(
        "{:<14} {:>22} {:>22}",
        "goal survived",
        count(b, |d| d.survives_goal),
        count(a, |d| d.survives_goal)
    );
    println!(
        "{:<14} {:>22} {:>22}",
        "goal felled",
        count(b, |d| d.falls_at_goal),
        count(a, |d| d.falls_at_goal)
    );
}

/// The clip's tracking errors (rows only with a clip goal).
fn print_clip(b: &Figures, a: &Figures) {
    for (gb, ga) in b.clip_rms_by_group.iter().zip(&a.clip_rms_by_group) {
        let name = format!("clip {} rms°", gb.group.name());
        println!("{name:<14} {:>22.2} {:>22.2}", gb.rms_deg, ga.rms_deg);
    }
    if b.clip_median_rms_deg.is_some() {
        println!(
            "{:<14} {:>22} {:>22}",
            "clip median°",
            show(b.clip_median_rms_deg),
            show(a.clip_median_rms_deg)
        );
        println!(
            "{:<14} {:>22} {:>22}",
            "clip max°",
            show(b.clip_max_rms_deg),
            show(a.clip_max_rms_deg)
        );
    }
}

/// Assist, effort and limit violation.
fn print_effort(b: &Figures, a: &Figures) {
    println!(
        "{:<14} {:>22} {:>22}",
        "peak assist N·m",
        show(b.peak_assist_n_m),
        show(a.peak_assist_n_m)
    );
    println!(
        "{:<14} {:>22} {:>22}",
        "effort J (10s)",
        sig(b.effort_stand_j),
        sig(a.effort_stand_j)
    );
    println!(
        "{:<14} {:>22.2} {:>22.2}",
        "max violation°", b.max_limit_violation_deg, a.max_limit_violation_deg
    );
}

/// Each group's natural frequency and damping ratio, then the hip and stepping strategies.
fn print_gains(b: &Figures, a: &Figures) {
    for (gb, ga) in b.groups.iter().zip(&a.groups) {
        let f = |g: &tune::params::GroupNatural| {
            format!("{} Hz ζ {}", show(g.freq_hz), show(g.damping_ratio))
        };
        println!("{:<14} {:>22} {:>22}", gb.group.name(), f(gb), f(ga));
    }
    for ((label, before), (_, after)) in b.strategy_rows().into_iter().zip(a.strategy_rows()) {
        println!("{label:<14} {before:>22} {after:>22}");
    }
}

/// A plan over its budget is said on stderr ([`Outcome::over_budget`]), and a knock-out
/// line not written ([`Outcome::knockout_note`]).
fn warn_over_budget(o: &Outcome) {
    if let Some(m) = o.over_budget() {
        eprintln!("warning: {m}");
    }
    if let Some(m) = o.knockout_note() {
        eprintln!("warning: {m}");
    }
}

pub fn run(file: &Path, a: &TuneArgs, policy: UriPolicy) -> anyhow::Result<ExitCode> {
    let watch = tune::timing::Watch::start();
    let mut doc = super::open(file, policy)?;
    let opts = Options {
        goals: Goals {
            survive_dv_m_s: a.survive_dv,
            fall_dv_m_s: a.fall_dv,
            clip: a.clip.clone(),
            assist_max: a.assist,
        },
        budget_s: a.budget,
        seed: a.seed,
        bisect: a.bisect,
    };
    let quiet = a.json;
    let progress = |p: &tune::Progress| {
        if !quiet {
            eprintln!(
                "{}/{} evaluations, best score {:.3} (start {:.3}), {:.1} s",
                p.evaluations, p.planned, p.best_score, p.start_score, p.elapsed_s
            );
        }
    };
    let outcome = tune::tune(&doc, &opts, &AtomicBool::new(false), &progress)?;
    if let Some(edit) = &outcome.edit {
        doc.apply(edit)
            .with_context(|| format!("{}", file.display()))?;
    }
    super::write_out(&doc, &a.output)?;
    let run = watch.spent();
    warn_over_budget(&outcome);
    if !outcome.unmet.is_empty() {
        eprintln!(
            "warning: after tuning, goals not met: {}",
            outcome.unmet.join("; ")
        );
    }
    if a.json {
        println!("{}", report_json(&outcome, run));
    } else {
        print_text(&outcome, run);
        println!("wrote {}", a.output.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::sig;

    #[test]
    fn small_figures_keep_three_significant_digits() {
        assert_eq!(sig(0.000_123_4), "0.000123");
        assert_eq!(sig(0.103), "0.103");
        assert_eq!(sig(2.814), "2.81");
        assert_eq!(sig(-45.67), "-45.7");
        assert_eq!(sig(1852.4), "1852");
        assert_eq!(sig(0.0), "0");
    }
}
