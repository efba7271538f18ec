//! The search: CMA-ES (the `cmaes` crate) over the groups' log factors. Each generation's
//! candidates are evaluated in parallel on every core (rayon, inside the crate), each an
//! independent deterministic simulation; results are reduced in a fixed order (score, then
//! the parameters' bits), so a seed gives the same result however the threads ran.
//!
//! Stages: the first half of the planned generations (rounded up) push from four directions,
//! the rest from all eight, as many as the budget holds by the fixed steps the candidates
//! simulated ([`cost`]). The best of the final stage (the final mean, the first stage's best and the
//! stepping probes are scored at it too) wins, and only if it beats the document as it was.

use super::eval::{self, Brief, Problem, Stage, FIRST_STAGE, FULL_STAGE};
use super::{cost, params, probe};
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
    /// CMA-ES generations run (the plan's unless the budget's rest took more or fewer).
    pub generations: usize,
    pub seconds: f64,
    pub cancelled: bool,
    /// How far the search's own evaluations ran over the plan, as simulated seconds of the
    /// character's pushes (0 within it): what the report after has less of.
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

/// Fixed steps the pushes of `scored` simulated (deterministic, unlike a clock).
fn push_steps(scored: &[Scored]) -> u64 {
    scored.iter().map(|s| s.brief.push_steps).sum()
}

/// The stepping probes ([`super::params::Baseline::probes`]), scored at the full stage
/// before the plan: where the search starts, and what they ran.
pub struct Probed {
    /// The best probe when it beats the document's own gains, else the document (x = 0).
    origin: Vec<f64>,
    /// The share of their full length the origin's pushes ran.
    pub origin_push_share: Option<f64>,
    scored: Vec<Scored>,
    pub ran: cost::Ran,
}

/// Scores the probes ([`super::params::Baseline::probes`]: stepping, the legs' cap) with the
/// document's landing, then, where every one of them misses a survive push and the
/// document's steps do not square the stance up, the stepping probes again with steps that
/// do ([`params::REST_STANCE_PROBE`]). The squared landing is kept where its best probe beats
/// the document's own gains and survives more pushes than any probe of the document's
/// landing; then the search runs with it (`problem.baseline.step_rest_stance`). The best
/// probe of the landing kept that beats the document's own gains is where the search starts;
/// only that landing's probes compete for the result at the end.
///
/// Squaring up is another strategy, taken only where it catches pushes the document's own
/// landing misses, not for a better score alone: on the bundled mannequin both landings'
/// probes survive all 8 pushes in the search's short runs, the squared one scoring better, and
/// squared, its backward pushes fell it in `simulate`'s 6 s runs (session 34).
pub fn probe(problem: &mut Problem) -> Probed {
    let start = start_of(problem);
    let score_all = |problem: &Problem, xs: &[Vec<f64>]| -> Vec<Scored> {
        xs.iter()
            .map(|x| score_at(problem, x, FULL_STAGE))
            .collect()
    };
    let own = score_all(problem, &problem.baseline.probes());
    let own_survived = own.iter().map(|s| s.brief.survived.0).max().unwrap_or(0);
    let own_missed = own.iter().all(|s| s.brief.survived.0 < s.brief.survived.1);
    let squaring = match problem.baseline.rest_stance_probes && own_missed {
        true => problem.baseline.step_probe_points(),
        false => Vec::new(),
    };
    problem.baseline.step_rest_stance = Some(params::REST_STANCE_PROBE);
    let squared = score_all(problem, &squaring);
    let ran = cost::Ran {
        evaluations: own.len() + squared.len(),
        push_steps: push_steps(&own) + push_steps(&squared),
    };
    let beat = |s: &[Scored]| best_of(s.iter().filter(|p| better(p, &start)).cloned().collect());
    let (best_own, best_squared) = (beat(&own), beat(&squared));
    let squares = best_squared
        .as_ref()
        .is_some_and(|s| s.brief.survived.0 > own_survived);
    let (best, scored) = match squares {
        true => (best_squared, squared),
        false => {
            problem.baseline.step_rest_stance = None;
            (best_own, own)
        }
    };
    Probed {
        origin_push_share: best.as_ref().map(|p| p.brief.push_share()),
        origin: best.map_or_else(|| vec![0.0; problem.baseline.dims()], |p| p.x),
        scored,
        ran,
    }
}

/// What the search's own evaluations have cost, by the model ([`cost::evaluation_s`], from
/// the fixed steps they simulated: deterministic, unlike a clock), against what the plan
/// allows them ([`cost::Plan::search_allowance_s`]). The probes are not counted here: the plan
/// counts them as they ran.
struct Spend {
    allowance_s: f64,
    spent_s: f64,
    /// The fixed steps the search's candidates' pushes ran so far, and would have run at
    /// their full length.
    push_steps: u64,
    push_planned_steps: u64,
}

impl Spend {
    fn new(plan: &cost::Plan) -> Self {
        Spend {
            allowance_s: plan.search_allowance_s(),
            spent_s: 0.0,
            push_steps: 0,
            push_planned_steps: 0,
        }
    }

    fn add(&mut self, problem: &Problem, scored: &[Scored]) {
        for s in scored {
            let pushes_s = probe::steps_s(s.brief.push_steps);
            self.spent_s += cost::evaluation_s(problem, pushes_s);
            self.push_steps += s.brief.push_steps;
            self.push_planned_steps += s.brief.push_planned_steps;
        }
    }

    /// Whether another full-stage generation of `lambda`, and the final mean's evaluation,
    /// fit the allowance, the pushes running the share of their full length the search's have
    /// run so far (over every candidate: the full stage's alone are mostly the best of the
    /// first, which outlast the rest).
    fn another_fits(&self, problem: &Problem, lambda: usize) -> bool {
        let pushes_s = match self.push_planned_steps {
            0 => cost::pushes_s(problem, FULL_STAGE),
            planned => {
                let share = eval::push_share(self.push_steps, planned);
                problem.full_pushes_s(FULL_STAGE) * share
            }
        };
        let next_s = (lambda + 1) as f64 * cost::evaluation_s(problem, pushes_s);
        self.spent_s + next_s <= self.allowance_s
    }
}

/// Runs the search: `plan.population` candidates a generation, the first half of the planned
/// generations at the first stage ([`cost::first_stage_generations`]); then full-stage
/// generations while another fits what the plan allows the search ([`Spend`]), however many
/// were planned.
pub fn run(
    problem: &Problem,
    (plan, probed): (&cost::Plan, Probed),
    seed: u64,
    cancel: &AtomicBool,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Found {
    let t0 = Instant::now();
    let lambda = plan.population;
    let start = start_of(problem);
    let switch = cost::first_stage_generations(plan.generations);
    let shared = SearchShared::new(switch);
    let objective = objective(problem, cancel, &shared);
    let mut standings = Standings::default();
    let (origin, probed) = (probed.origin, probed.scored);
    let evals = AtomicUsize::new(1 + probed.len());
    let mut spend = Spend::new(plan);
    let Ok(mut cma) = cma_from(origin, lambda, seed, &objective) else {
        return found(start.clone(), start, (1, 0, 0.0), t0, false);
    };
    let mut g = 0;
    loop {
        let done = cma.next_parallel();
        let gen = shared.drain();
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        g += 1;
        let folded = fold_generation(
            problem,
            gen,
            (g, switch),
            (&mut standings, &mut spend, &shared),
        );
        evals.fetch_add(folded, Ordering::Relaxed);
        if let Some(b) = standings.leader() {
            let planned = lambda * plan.generations.max(g) + 3 + probed.len();
            let done_of = (evals.load(Ordering::Relaxed), planned);
            progress(&progress_at(b, done_of, start.score, t0));
        }
        // After the first stage, as many generations as the budget's rest holds.
        let no_more = g >= switch && !spend.another_fits(problem, lambda);
        if done.is_some() || g >= cost::MAX_GENERATIONS || no_more {
            break;
        }
    }
    let cancelled = cancel.load(Ordering::Relaxed);
    let mean = (!cancelled).then(|| cma.mean().iter().copied().collect::<Vec<f64>>());
    let last = conclude(problem, &mut standings, probed, mean, &mut spend);
    evals.fetch_add(last, Ordering::Relaxed);
    let winner = standings.winner(&start);
    let over_s = plan.search_over_s(problem, spend.spent_s);
    let ran = (evals.load(Ordering::Relaxed), g, over_s);
    found(winner, start, ran, t0, cancelled)
}

/// Generation `g`'s candidates (counted from 1) folded into the standings and the spend; the
/// first stage's best scored again on all directions when the full stage begins after it
/// (`switch`). Returns the evaluations.
fn fold_generation(
    problem: &Problem,
    gen: Vec<Scored>,
    (g, switch): (usize, usize),
    (standings, spend, shared): (&mut Standings, &mut Spend, &SearchShared),
) -> usize {
    let mut evaluations = gen.len();
    spend.add(problem, &gen);
    standings.offer(best_of(gen));
    if g == switch {
        shared.stage_no.store(1, Ordering::Relaxed);
        standings.enter_full_stage(problem, FULL_STAGE);
        spend.add(problem, standings.best.as_slice());
        evaluations += 1;
    } else if g > switch {
        standings.fold_stage_best();
    }
    evaluations
}

/// CMA-ES from `origin` with `lambda` candidates a generation (the search decides when it
/// stops).
fn cma_from<'a, F: Fn(&DVector<f64>) -> f64 + Sync + 'a>(
    origin: Vec<f64>,
    lambda: usize,
    seed: u64,
    objective: &'a F,
) -> Result<cmaes::CMAES<&'a F>, cmaes::options::InvalidOptionsError> {
    CMAESOptions::new(origin, INITIAL_SIGMA)
        .population_size(lambda)
        .max_generations(cost::MAX_GENERATIONS)
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
    spend: &mut Spend,
) -> usize {
    for p in probed {
        standings.offer_final(p);
    }
    let Some(mean) = mean else { return 0 };
    let m = score_at(problem, &mean, FULL_STAGE);
    spend.add(problem, std::slice::from_ref(&m));
    standings.offer_final(m);
    1
}

/// The outcome: the winner `w`, after `evaluations` in `generations`, the search `over_s`
/// seconds of pushes over the plan.
fn found(
    w: Scored,
    start: Scored,
    (evaluations, generations, over_s): (usize, usize, f64),
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
        generations,
        seconds: t0.elapsed().as_secs_f64(),
        cancelled,
    }
}
