//! The search: CMA-ES (the `cmaes` crate) over the groups' log factors. Each generation's
//! candidates are evaluated in parallel on every core (rayon, inside the crate), each an
//! independent deterministic simulation; results are reduced in a fixed order (score, then
//! the parameters' bits), so a seed gives the same result however the threads ran.
//!
//! Stages: the first half of the generations push from four directions, the second from all
//! eight. The best of the final stage (the final mean and the first stage's best are scored
//! at it too) wins, and only if it beats the document as it was.

use super::cost;
use super::eval::{Brief, Problem, Stage, FIRST_STAGE, FULL_STAGE};
use cmaes::{CMAESOptions, DVector};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Initial step size in log-factor units (a factor of about e^0.4 = 1.5).
pub const INITIAL_SIGMA: f64 = 0.4;

/// The search's progress after a generation.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Progress {
    pub evaluations: usize,
    pub planned: usize,
    pub best_score: f64,
    pub best: Brief,
    /// The document's own score at the final stage.
    pub start_score: f64,
    pub elapsed_s: f64,
}

/// The outcome of a search.
#[derive(Debug, Clone)]
pub struct Found {
    pub x: Vec<f64>,
    pub score: f64,
    pub brief: Brief,
    pub start_score: f64,
    pub start: Brief,
    pub evaluations: usize,
    pub seconds: f64,
    pub cancelled: bool,
    /// How far the search's pushes ran over the plan (simulated seconds after their pushes;
    /// 0 within it): what the report after has less of.
    pub pushes_over_s: f64,
}

/// A scored candidate (deterministic order: score, then parameters).
#[derive(Debug, Clone)]
struct Scored {
    x: Vec<f64>,
    score: f64,
    brief: Brief,
}

fn better(a: &Scored, b: &Scored) -> bool {
    match a.score.total_cmp(&b.score) {
        std::cmp::Ordering::Equal => {
            let bits = |s: &Scored| s.x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            bits(a) < bits(b)
        }
        o => o.is_lt(),
    }
}

fn out_of_bounds(x: &[f64]) -> f64 {
    let m = super::params::MAX_LOG_FACTOR;
    x.iter().map(|v| (v.abs() - m).max(0.0).powi(2)).sum()
}

/// The population for `dims` dimensions: CMA-ES's default, at least 8, even.
pub fn population(dims: usize) -> usize {
    let lambda = (4 + (3.0 * (dims.max(1) as f64).ln()).floor() as usize).max(8);
    lambda + lambda % 2
}

/// Scores `x` at stage `st`, with the out-of-bounds penalty added.
fn score_at(problem: &Problem, x: &[f64], st: Stage) -> Scored {
    let (s, b) = problem.score(x, st);
    Scored {
        x: x.to_vec(),
        score: s + out_of_bounds(x),
        brief: b,
    }
}

/// What the objective (called from the crate's threads) shares with the generation loop.
struct SearchShared {
    /// 0: the first stage (every other direction), 1: the full stage.
    stage_no: AtomicUsize,
    /// The candidates scored since the last drain, in whatever order the threads ran.
    log: Mutex<Vec<Scored>>,
}

impl SearchShared {
    /// Starts in the first stage unless it has no generations (`switch == 0`).
    fn new(switch: usize) -> Self {
        SearchShared {
            stage_no: AtomicUsize::new(if switch == 0 { 1 } else { 0 }),
            log: Mutex::new(Vec::new()),
        }
    }

    /// The candidates scored since the last drain.
    fn drain(&self) -> Vec<Scored> {
        self.log
            .lock()
            .map(|mut l| l.drain(..).collect())
            .unwrap_or_default()
    }
}

/// The objective CMA-ES minimises: the candidate's score at the current stage, logged.
fn objective<'a>(
    problem: &'a Problem,
    cancel: &'a AtomicBool,
    shared: &'a SearchShared,
) -> impl Fn(&DVector<f64>) -> f64 + Sync + 'a {
    move |x: &DVector<f64>| -> f64 {
        if cancel.load(Ordering::Relaxed) {
            return 1.0e9;
        }
        let st = if shared.stage_no.load(Ordering::Relaxed) == 0 {
            FIRST_STAGE
        } else {
            FULL_STAGE
        };
        let s = score_at(problem, x.as_slice(), st);
        let v = if s.score.is_finite() { s.score } else { 1.0e9 };
        if let Ok(mut l) = shared.log.lock() {
            l.push(s);
        }
        v
    }
}

/// The best of one generation's candidates (deterministic order).
fn best_of(mut gen: Vec<Scored>) -> Option<Scored> {
    gen.sort_by(|a, b| {
        if better(a, b) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
    gen.into_iter().next()
}

/// The best so far: over the full stage (`best`) and in the generations not yet folded in.
#[derive(Default)]
struct Standings {
    best: Option<Scored>,
    stage_best: Option<Scored>,
}

impl Standings {
    fn offer(&mut self, top: Option<Scored>) {
        if let Some(top) = top {
            if self.stage_best.as_ref().is_none_or(|b| better(&top, b)) {
                self.stage_best = Some(top);
            }
        }
    }

    /// In the full stage: the stage's best competes with the best so far.
    fn fold_stage_best(&mut self) {
        if let Some(s) = self.stage_best.take() {
            if self.best.as_ref().is_none_or(|b| better(&s, b)) {
                self.best = Some(s);
            }
        }
    }

    /// The first stage's best, scored again at `full`, becomes the best so far.
    fn enter_full_stage(&mut self, problem: &Problem, full: Stage) {
        self.best = self
            .stage_best
            .take()
            .map(|b| score_at(problem, &b.x, full));
    }

    fn offer_final(&mut self, m: Scored) {
        if self.best.as_ref().is_none_or(|b| better(&m, b)) {
            self.best = Some(m);
        }
    }

    /// The best so far if it beats the start, else the start.
    fn winner(self, start: &Scored) -> Scored {
        self.best
            .filter(|b| better(b, start))
            .unwrap_or_else(|| start.clone())
    }

    fn leader(&self) -> Option<&Scored> {
        self.best.as_ref().or(self.stage_best.as_ref())
    }
}

/// The progress report for the leader `b` after `done` of `planned` evaluations.
fn progress_at(
    b: &Scored,
    (done, planned): (usize, usize),
    start_score: f64,
    t0: Instant,
) -> Progress {
    Progress {
        evaluations: done,
        planned,
        best_score: b.score,
        best: b.brief.clone(),
        start_score,
        elapsed_s: t0.elapsed().as_secs_f64(),
    }
}

/// The document's own gains, scored at the full stage: measured while preparing (the same
/// trials, not run twice), else now.
fn start_of(problem: &Problem) -> Scored {
    let x = vec![0.0; problem.baseline.dims()];
    match &problem.start {
        Some((score, brief)) => Scored {
            x,
            score: *score,
            brief: brief.clone(),
        },
        None => score_at(problem, &x, FULL_STAGE),
    }
}

/// Fixed steps the pushes of `scored` simulated (deterministic, unlike a clock): what the
/// search compares against the plan's model of them. Candidates whose pushes outlast the
/// document's own (the probes step, and a character that steps survives longer before it
/// falls) take the search past its plan, and the report after gets that much less.
fn push_steps(scored: &[Scored]) -> u64 {
    scored.iter().map(|s| s.brief.push_steps).sum()
}

/// The probes scored at the full stage, and where the search starts: the best probe when it
/// beats the document's own gains, else the document (x = 0).
fn probed_origin(problem: &Problem, start: &Scored, dims: usize) -> (Vec<f64>, Vec<Scored>) {
    let probed: Vec<Scored> = problem
        .baseline
        .probes()
        .iter()
        .map(|x| score_at(problem, x, FULL_STAGE))
        .collect();
    let beat: Vec<Scored> = probed
        .iter()
        .filter(|p| better(p, start))
        .cloned()
        .collect();
    let origin = best_of(beat).map_or_else(|| vec![0.0; dims], |p| p.x);
    (origin, probed)
}

/// Runs the search for `generations` of `lambda` candidates.
pub fn run(
    problem: &Problem,
    plan: &cost::Plan,
    seed: u64,
    cancel: &AtomicBool,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Found {
    let t0 = Instant::now();
    let (lambda, generations) = (plan.population, plan.generations);
    let dims = problem.baseline.dims();
    let start = start_of(problem);
    let evals = AtomicUsize::new(1);
    let switch = generations / 2;
    let shared = SearchShared::new(switch);
    let objective = objective(problem, cancel, &shared);
    let mut standings = Standings::default();
    let mut cancelled = false;
    let (origin, probed) = probed_origin(problem, &start, dims);
    evals.fetch_add(probed.len(), Ordering::Relaxed);
    let mut ran_steps = push_steps(&probed);
    let Ok(mut cma) = cma_from(origin, (lambda, generations), seed, &objective) else {
        return found(start.clone(), start, (1, 0.0), t0, false);
    };
    for g in 0..generations {
        let done = cma.next_parallel();
        let gen = shared.drain();
        ran_steps += push_steps(&gen);
        if cancel.load(Ordering::Relaxed) {
            cancelled = true;
            break;
        }
        evals.fetch_add(gen.len(), Ordering::Relaxed);
        standings.offer(best_of(gen));
        if g + 1 == switch {
            // Into the full stage: the first stage's best, scored again on all directions.
            shared.stage_no.store(1, Ordering::Relaxed);
            standings.enter_full_stage(problem, FULL_STAGE);
            ran_steps += push_steps(standings.best.as_slice());
            evals.fetch_add(1, Ordering::Relaxed);
        } else if g + 1 > switch {
            standings.fold_stage_best();
        }
        if let Some(b) = standings.leader() {
            let planned = lambda * generations + 3 + probed.len();
            let evaluations = (evals.load(Ordering::Relaxed), planned);
            progress(&progress_at(b, evaluations, start.score, t0));
        }
        if done.is_some() {
            break;
        }
    }
    let mean = (!cancelled).then(|| cma.mean().iter().copied().collect::<Vec<f64>>());
    let last = conclude(problem, &mut standings, probed, mean, &mut ran_steps);
    evals.fetch_add(last, Ordering::Relaxed);
    let winner = standings.winner(&start);
    let ran_s = ran_steps as f64 * super::probe::settings().dt_s as f64;
    let over_s = (ran_s - cost::search_pushes_s(problem, (lambda, generations))).max(0.0);
    let evaluations = evals.load(Ordering::Relaxed);
    found(winner, start, (evaluations, over_s), t0, cancelled)
}

/// CMA-ES from `origin` for `generations` of `lambda` candidates.
fn cma_from<'a, F: Fn(&DVector<f64>) -> f64 + Sync + 'a>(
    origin: Vec<f64>,
    (lambda, generations): (usize, usize),
    seed: u64,
    objective: &'a F,
) -> Result<cmaes::CMAES<&'a F>, cmaes::options::InvalidOptionsError> {
    CMAESOptions::new(origin, INITIAL_SIGMA)
        .population_size(lambda)
        .max_generations(generations)
        .seed(seed)
        .build(objective)
}

/// The probes and the final mean (None when cancelled: not scored) compete for the result;
/// returns the evaluations run here.
fn conclude(
    problem: &Problem,
    standings: &mut Standings,
    probed: Vec<Scored>,
    mean: Option<Vec<f64>>,
    ran_steps: &mut u64,
) -> usize {
    for p in probed {
        standings.offer_final(p);
    }
    let Some(mean) = mean else { return 0 };
    let m = score_at(problem, &mean, FULL_STAGE);
    *ran_steps += m.brief.push_steps;
    standings.offer_final(m);
    1
}

/// The outcome: the winner `w`, after `evaluations` with the pushes `over_s` seconds over
/// the plan.
fn found(
    w: Scored,
    start: Scored,
    (evaluations, over_s): (usize, f64),
    t0: Instant,
    cancelled: bool,
) -> Found {
    Found {
        pushes_over_s: over_s,
        x: w.x,
        score: w.score,
        brief: w.brief,
        start_score: start.score,
        start: start.brief,
        evaluations,
        seconds: t0.elapsed().as_secs_f64(),
        cancelled,
    }
}
