//! Auto-tune: find the drive and balance gains that give a character the robustness a
//! designer asks for (survive pushes of one size, fall from pushes of another), make it follow
//! a clip, stand, keep its limits, within an assist cap, with the least effort. Pure: no UI;
//! the CLI (`tune`) and the editor's dialog run the same [`tune`].
//!
//! - [`groups`]: the joint groups, from the anatomy layer's roles;
//! - [`params`]: per group a natural-frequency and a damping-ratio factor on log scales,
//!   written as stiffness and damping through [`crate::joint::inertia`];
//! - [`probe`]: one trial on the real simulation; [`eval`]: a candidate's score;
//! - [`search`]: CMA-ES, candidates in parallel, deterministic for a seed;
//! - [`report`]: the before/after figures.

pub mod eval;
pub mod groups;
pub mod params;
pub mod probe;
pub mod report;
pub mod search;

pub use eval::{Brief, Direction};
pub use groups::Group;
pub use report::Figures;
pub use search::Progress;

use crate::anatomy::Anatomy;
use crate::document::{Document, Edit};
use std::sync::atomic::AtomicBool;

/// What the designer asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Goals {
    /// Survive this speed change at the pelvis from all 8 horizontal directions (m/s).
    pub survive_dv_m_s: Option<f64>,
    /// Fall from pushes of this size (m/s).
    pub fall_dv_m_s: Option<f64>,
    /// Follow this clip (name or index) with a kinematic root.
    pub clip: Option<String>,
    /// The balance assist scale at most this (0..1); None keeps the document's.
    pub assist_max: Option<f64>,
}

/// How to search.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub goals: Goals,
    /// Seconds of search on the reference machine (see [`evaluations_for`]).
    pub budget_s: f64,
    pub seed: u64,
    /// Bisection steps per direction in the report (0: only the goals' pushes).
    pub bisect: usize,
}

/// The default time budget (s).
pub const DEFAULT_BUDGET_S: f64 = 45.0;
/// Bisection steps per direction in a full report: a 3 m/s range to about 0.1 m/s.
pub const REPORT_BISECT: usize = 5;

impl Default for Options {
    fn default() -> Self {
        Self {
            goals: Goals::default(),
            budget_s: DEFAULT_BUDGET_S,
            seed: 1,
            bisect: REPORT_BISECT,
        }
    }
}

/// Body-steps per second (bodies × fixed steps simulated, at [`REFERENCE_SUBSTEPS`] solver
/// substeps) on the reference machine, 2 cores:
/// the budget becomes a fixed number of evaluations, so the result never depends on how fast
/// the clock ran (same seed, same bytes). Measured: about 126,000 per CPU-second of the search
/// and reports together (release build, 18- and 20-body characters, on a loaded machine).
pub const REFERENCE_BODY_STEPS_PER_S: f64 = 200_000.0;

#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error("{0}: no animation '{1}'; the file has: {2}")]
    NoClip(String, String, String),
    #[error("{0}: {1}")]
    Doc(String, String),
    #[error("{0}: the character cannot be simulated: {1}")]
    Sim(String, String),
    #[error("{0}: nothing to tune: no drives and no balance settings")]
    Nothing(String),
    #[error("goal {0} must be a non-negative number, got {1}")]
    BadGoal(&'static str, f64),
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub before: Figures,
    pub after: Figures,
    /// The edit that writes the tuned gains to the document tuned (one undo step); None
    /// when nothing better than the document's own gains was found.
    pub edit: Option<Edit>,
    pub search: search::Found,
    pub evaluations_per_s: f64,
    pub dims: usize,
    /// The whole body's mass the pushes are sized by (kg).
    pub mass_kg: f64,
    pub population: usize,
    pub generations: usize,
}

fn check(name: &'static str, v: Option<f64>) -> Result<(), TuneError> {
    match v {
        Some(x) if !(x.is_finite() && x >= 0.0) => Err(TuneError::BadGoal(name, x)),
        _ => Ok(()),
    }
}

/// The fixed problem for `doc` and `goals`: the baseline gains, the clip, the directions,
/// and the document's own tracking and effort that the score is measured against.
pub fn prepare(doc: &Document, goals: &Goals) -> Result<eval::Problem, TuneError> {
    let file = doc.path.display().to_string();
    check("--survive-dv", goals.survive_dv_m_s)?;
    check("--fall-dv", goals.fall_dv_m_s)?;
    check("--assist", goals.assist_max)?;
    let clip =
        match &goals.clip {
            None => None,
            Some(name) => {
                let anims = doc
                    .load_animations()
                    .map_err(|e| TuneError::Doc(file.clone(), e.to_string()))?;
                Some(anims.find(name).cloned().ok_or_else(|| {
                    TuneError::NoClip(file.clone(), name.clone(), anims.listing())
                })?)
            }
        };
    let baseline = params::Baseline::of(doc);
    // The hip strategy acts on pushes only: without a push goal it is not searched.
    let pushed = goals.survive_dv_m_s.is_some() || goals.fall_dv_m_s.is_some();
    let baseline = if pushed {
        baseline
    } else {
        baseline.without_hip()
    };
    if baseline.dims() == 0 {
        return Err(TuneError::Nothing(file));
    }
    let assist = goals
        .assist_max
        .map(|m| baseline.assist.min(m).clamp(0.0, 1.0));
    let mut problem = eval::Problem {
        base: doc.clone(),
        dirs: eval::directions(Anatomy::of(doc).forward()),
        mass_kg: probe::total_mass_kg(doc) as f32,
        baseline,
        goals: goals.clone(),
        clip,
        assist,
        base_tracking: None,
        base_work_j: None,
    };
    let start = problem.candidate(&vec![0.0; problem.baseline.dims()]);
    let measured = problem
        .trials(&start, eval::Stage { dir_step: 1 })
        .ok_or_else(|| TuneError::Sim(file.clone(), "it did not settle on its feet".into()))?;
    let work: f64 = measured.survive.iter().map(|t| t.work_j).sum::<f64>()
        + measured.tracking.as_ref().map_or(0.0, |t| t.work_j);
    problem.base_work_j = Some(work);
    problem.base_tracking = measured.tracking;
    Ok(problem)
}

/// Solver substeps per step at which [`REFERENCE_BODY_STEPS_PER_S`] was measured.
pub const REFERENCE_SUBSTEPS: f64 = 8.0;

/// The bodies simulated (bones with a collider), weighted by the solver's substeps against
/// the reference's: a step's cost grows with both.
fn bodies(problem: &eval::Problem) -> f64 {
    let count = problem
        .base
        .bones
        .iter()
        .filter(|b| b.physics.as_ref().is_some_and(|p| p.collider.is_some()))
        .count()
        .max(1) as f64;
    count * probe::settings().substeps as f64 / REFERENCE_SUBSTEPS
}

/// Simulated body-steps of one evaluation at the full stage.
pub fn cost_per_evaluation(problem: &eval::Problem) -> f64 {
    let bodies = bodies(problem);
    let rate = 1.0 / probe::settings().dt_s as f64;
    let goals = [problem.goals.survive_dv_m_s, problem.goals.fall_dv_m_s];
    let push_goals = goals.iter().filter(|g| g.is_some()).count() as f64;
    // Without a push goal one standing trial is run.
    let pushes = (push_goals * problem.dirs.len() as f64).max(1.0);
    let clip_s = problem
        .clip
        .as_ref()
        .map_or(0.0, |c| (c.duration_s as f64).min(eval::SEARCH_CLIP_S));
    bodies * rate * (probe::PUSH_AT_S + pushes * eval::SEARCH_AFTER_S + clip_s)
}

/// Simulated body-steps of the two reports (before and after), at most (falls end early).
pub fn cost_of_reports(problem: &eval::Problem, bisect: usize) -> f64 {
    let bodies = bodies(problem);
    let rate = 1.0 / probe::settings().dt_s as f64;
    let goals = [problem.goals.survive_dv_m_s, problem.goals.fall_dv_m_s];
    let pushes = problem.dirs.len() as f64
        * (goals.iter().filter(|g| g.is_some()).count() + if bisect > 0 { bisect + 1 } else { 0 })
            as f64;
    let clip_s = problem.clip.as_ref().map_or(0.0, |c| c.duration_s as f64);
    2.0 * bodies * rate * (pushes * report::AFTER_S + report::STAND_S + clip_s)
}

/// The fixed cost of an evaluation besides its steps (a copy of the document with the
/// candidate's edit, building the world, setting a clip up), in body-steps: measured about
/// 0.13–0.15 CPU-s per evaluation on the mannequin and the Rigify lumberjack.
pub const EVALUATION_OVERHEAD_BODY_STEPS: f64 = 20_000.0;

/// How many evaluations a budget buys on the reference machine: what the two reports leave,
/// at the mean cost of the two stages.
pub fn evaluations_for(problem: &eval::Problem, budget_s: f64, bisect: usize) -> usize {
    let per_eval = cost_per_evaluation(problem) * 0.75 + EVALUATION_OVERHEAD_BODY_STEPS;
    let left = budget_s.max(0.0) * REFERENCE_BODY_STEPS_PER_S - cost_of_reports(problem, bisect);
    (left.max(0.0) / per_eval).floor() as usize
}

/// Searches, then measures the document before and after. `cancel` stops the search at the
/// next generation (the best so far is kept); `progress` hears of every generation.
pub fn tune(
    doc: &Document,
    opts: &Options,
    cancel: &AtomicBool,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Outcome, TuneError> {
    let problem = prepare(doc, &opts.goals)?;
    let file = doc.path.display().to_string();
    let not_simulated = || TuneError::Sim(file.clone(), "it did not settle on its feet".into());
    let before = report::measure(
        &problem,
        &problem.candidate(&vec![0.0; problem.baseline.dims()]),
        opts.bisect,
    )
    .ok_or_else(not_simulated)?;
    let evals = evaluations_for(&problem, opts.budget_s, opts.bisect);
    let (lambda, generations) = search::plan(problem.baseline.dims(), evals);
    let found = search::run(&problem, (lambda, generations), opts.seed, cancel, progress);
    let tuned = problem.candidate(&found.x);
    let after = report::measure(&problem, &tuned, opts.bisect).ok_or_else(not_simulated)?;
    let changed = found.x.iter().any(|v| *v != 0.0) || problem.assist.is_some();
    Ok(Outcome {
        before,
        after,
        edit: changed.then(|| problem.baseline.edit(doc, &found.x, problem.assist)),
        evaluations_per_s: found.evaluations as f64 / found.seconds.max(1e-9),
        dims: problem.baseline.dims(),
        mass_kg: problem.mass_kg as f64,
        population: lambda,
        generations,
        search: found,
    })
}
