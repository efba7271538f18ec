//! The cost model: a time budget (seconds of the whole `tune` run on the reference machine:
//! 2 idle cores, release build) becomes a plan of search generations and a count of what the
//! search spends, never read from the clock, so the same seed gives the same bytes on any
//! machine and at any load. Everything the run simulates is counted, in body-steps (a body
//! simulated one fixed step at [`REFERENCE_SUBSTEPS`] solver substeps; an impulse joint counts
//! as [`JOINT_BODY_SHARE`] of a body): the report before the
//! search (whose runs also give the document's own trials: they are not run again), the
//! stepping probes (run before the plan, counted as they ran), the search's generations and
//! the two candidates it scores besides them, and the report after; plus a fixed cost per
//! world built (copying the document, building the world). The budget is the whole run's: the
//! search gets what the two reports leave of it. The plan sizes the population and the first
//! stage; the search then counts what its candidates' pushes actually simulated and runs
//! full-stage generations while another fits ([`Plan::search_allowance_s`]).

use super::eval::{self, Problem, Stage};
use super::{probe, report, Goals};

/// Solver substeps per step at which [`BODY_STEPS_PER_CPU_S`] is counted.
pub const REFERENCE_SUBSTEPS: f64 = 8.0;

/// What an impulse joint costs a step, as a share of what a body costs. Session 26 measured
/// 23 characters (the zoo, CesiumMan, the bundled mannequin, 17 Mixamo-rigged characters from
/// outside; generated, standing 10 s, one core): CPU time = 37.3 ms per body + 11.1 ms per
/// impulse joint, within 6.6% on each (rms 2.9%); by bodies alone within 32% (the spider's
/// 85 swing cones on 28 bodies cost it 2.89 CPU-s, the Antagonist's 37 on 20 bodies 1.64).
/// Rapier's joint solve is three quarters of a step's profile.
pub const JOINT_BODY_SHARE: f64 = 0.3;

/// Body-steps per CPU-second on the reference machine (release build), both cores busy, a
/// joint counted as [`JOINT_BODY_SHARE`] of a body. Session 26's machine, the slowest yet:
/// its reports before the search, counted exactly, ran at 65,900-68,500 on the generated
/// lumberjack, Wendigo, Wolf and Cat (20 bodies, 86-98 joints); 62,000 keeps a margin for
/// this machine's run-to-run spread (the same 10 s standing run took 1.29-1.94 CPU-s). With
/// bodies alone at 36,000 (session 14's machine), a 20-body tune took 54-72 s here.
pub const BODY_STEPS_PER_CPU_S: f64 = 62_000.0;

/// The reference machine's cores, and the share of them a run keeps busy: every
/// candidate's pushes, and every report's directions, standing and clip, run in parallel;
/// the settling second of each world and the file's reading and writing do not. Session 26
/// measured 0.85-0.93 on seven 20-body characters (whole run: CPU over twice the wall
/// time); a report whose directions' bisections end unevenly was the least (0.68).
pub const REFERENCE_CORES: f64 = 2.0;
pub const PARALLEL_SHARE: f64 = 0.85;

/// The fixed cost of a world (a copy of the document with the candidate's gains, the world
/// built from it, a clip set up), in body-steps. Measured: reading the lumberjack's file,
/// building its world and one step, 12 ms of CPU (about 560 body-steps at session 12's rate).
pub const WORLD_BODY_STEPS: f64 = 1_000.0;

/// Body-steps per second of the whole run on the reference machine.
pub fn body_steps_per_s() -> f64 {
    BODY_STEPS_PER_CPU_S * REFERENCE_CORES * PARALLEL_SHARE
}

/// Body-steps per simulated second of `problem`'s character: its bodies and joints
/// ([`JOINT_BODY_SHARE`]), weighted by its solver substeps against the reference's, times the
/// fixed steps per second.
fn per_second(problem: &Problem) -> f64 {
    per_second_at(problem, problem.size.substeps)
}

/// [`per_second`] while a clip is followed: a giant then takes a person's substeps.
fn clip_per_second(problem: &Problem) -> f64 {
    per_second_at(problem, problem.size.clip_substeps)
}

fn per_second_at(problem: &Problem, substeps: usize) -> f64 {
    let rate = 1.0 / probe::settings().dt_s as f64;
    let size = problem.size;
    let bodies = size.bodies as f64 + JOINT_BODY_SHARE * size.joints as f64;
    bodies * substeps as f64 / REFERENCE_SUBSTEPS * rate
}

/// One candidate's pushes at `stage`, in simulated seconds after the push: as long as the
/// document's own ran ([`Problem::push_share`]: falls end a push early).
pub fn pushes_s(problem: &Problem, stage: Stage) -> f64 {
    problem.full_pushes_s(stage) * problem.push_share
}

/// One candidate's evaluation at `stage`: its pushes ([`pushes_s`]), the settling before
/// them, the clip.
pub fn evaluation(problem: &Problem, stage: Stage) -> f64 {
    evaluation_with(problem, pushes_s(problem, stage))
}

/// One candidate's evaluation whose pushes ran `pushes_s` simulated seconds.
fn evaluation_with(problem: &Problem, pushes_s: f64) -> f64 {
    let (clip_s, worlds) = match &problem.clip {
        Some(c) => ((c.duration_s as f64).min(eval::SEARCH_CLIP_S), 2.0),
        None => (0.0, 1.0),
    };
    let own_s = problem.size.trial_s(probe::PUSH_AT_S) + pushes_s;
    per_second(problem) * own_s + clip_per_second(problem) * clip_s + worlds * WORLD_BODY_STEPS
}

/// The search of `generations` of `lambda` candidates: the first half of the generations
/// ([`first_stage_generations`]) at the first stage, the rest at the full stage, then the
/// first stage's best scored again at the full stage and the final mean. The probes run
/// before the plan: their measured cost is the plan's ([`Reports::probes`]).
pub fn search(problem: &Problem, lambda: usize, generations: usize) -> f64 {
    let switch = first_stage_generations(generations);
    let extra = if switch > 0 { 2.0 } else { 1.0 };
    let full = evaluation(problem, eval::FULL_STAGE);
    (lambda * switch) as f64 * evaluation(problem, eval::FIRST_STAGE)
        + (lambda * (generations - switch)) as f64 * full
        + extra * full
}

/// The generations at the first stage of a plan of `generations`: half, rounded up (a plan of
/// one generation runs it at the first stage: twice the candidates of one at the full stage
/// for the cost, then the best of them and the mean at the full stage).
pub fn first_stage_generations(generations: usize) -> usize {
    generations.div_ceil(2)
}

/// Evaluations run before the plan (the stepping probes, [`super::search::probe`]): how many,
/// and the fixed steps their pushes simulated.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Ran {
    pub evaluations: usize,
    pub push_steps: u64,
}

/// What evaluations that ran cost: each one's settling, clip and world, and their pushes as
/// they ran.
pub fn ran(problem: &Problem, ran: Ran) -> f64 {
    let pushes_s = probe::steps_s(ran.push_steps);
    ran.evaluations as f64 * evaluation_with(problem, 0.0) + per_second(problem) * pushes_s
}

/// What one evaluation whose pushes ran `pushes_s` simulated seconds costs, in seconds of the
/// whole run on the reference machine.
pub fn evaluation_s(problem: &Problem, pushes_s: f64) -> f64 {
    evaluation_with(problem, pushes_s) / body_steps_per_s()
}

/// Pushes per direction in a report with `bisect` steps when the goals are met (survived
/// at the survive goal, felled at the fall goal): the goals' pushes, then the bisection of
/// the range they leave open ([`report::bisect_steps`]), after a push at the largest Δv
/// when no fall goal closes the range.
pub fn report_pushes_per_direction(goals: &Goals, bisect: usize) -> usize {
    let top = goals.dv_max_m_s();
    let within = |v: Option<f64>| v.filter(|v| *v > 0.0 && *v < top);
    let goal_pushes = [goals.survive_dv_m_s, goals.fall_dv_m_s]
        .iter()
        .filter(|g| g.is_some())
        .count();
    if bisect == 0 {
        return goal_pushes;
    }
    let lo = within(goals.survive_dv_m_s).unwrap_or(0.0);
    let (hi, at_max) = match within(goals.fall_dv_m_s) {
        Some(f) if f > lo => (f, 0),
        _ => (top, 1),
    };
    goal_pushes + at_max + report::bisect_steps(hi - lo, top, bisect)
}

/// Pushes per direction in a report with `bisect` steps at most: the goals' pushes, one at
/// the largest Δv, every bisection step (when the goals' pushes leave no bracket).
pub fn report_pushes_at_most(goals: &Goals, bisect: usize) -> usize {
    let goal_pushes = [goals.survive_dv_m_s, goals.fall_dv_m_s]
        .iter()
        .filter(|g| g.is_some())
        .count();
    goal_pushes + if bisect > 0 { 1 + bisect } else { 0 }
}

/// One report (before or after): standing 10 s, every direction's pushes, the clip. The
/// pushes cost `push_steps` fixed steps when the report has run (the one before the search),
/// else as much as they can: the most pushes a direction can take, each running its full
/// length.
pub fn report(problem: &Problem, bisect: usize, push_steps: Option<u64>) -> f64 {
    let steps = push_steps.unwrap_or_else(|| most_push_steps(problem, bisect));
    let pushes_s = probe::steps_s(steps);
    let (clip_s, worlds) = match &problem.clip {
        Some(c) => ((c.duration_s as f64).min(report::CLIP_S), 2.0),
        None => (0.0, 1.0),
    };
    let own_s = problem.size.trial_s(report::STAND_S) + pushes_s;
    per_second(problem) * own_s + clip_per_second(problem) * clip_s + worlds * WORLD_BODY_STEPS
}

/// What a run is planned from: the report's bisection steps, the fixed steps the pushes of
/// the report before the search simulated (when it ran), and the probes that ran.
#[derive(Debug, Clone, Copy)]
pub struct Reports {
    pub bisect: usize,
    pub push_steps: Option<u64>,
    pub probes: Ran,
}

/// What a plan keeps for the report after the search: as much as the report before's pushes
/// ran, or, when a budget cannot hold that beside a search, only the goals' pushes (each at
/// its full length; the bisection then gets what the budget leaves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterReport {
    AsBefore,
    GoalsOnly,
}

/// A run's plan: the search's size, and each phase's seconds on the reference machine by the
/// model (the whole run's within the budget unless even one generation of the smallest
/// population does not fit).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Plan {
    pub budget_s: f64,
    pub population: usize,
    pub generations: usize,
    pub report_before_s: f64,
    /// The search, the probes that ran before it included.
    pub search_s: f64,
    pub report_after: AfterReport,
    pub report_after_s: f64,
    /// The fixed steps the report after's pushes are planned to simulate.
    #[serde(skip)]
    pub after_push_steps: u64,
    /// The search's own evaluations (the probes' aside), in seconds by the model.
    #[serde(skip)]
    pub search_own_s: f64,
    /// The least the report after can cost: standing, the clip and the goals' pushes, which
    /// always run (seconds by the model).
    #[serde(skip)]
    pub report_after_floor_s: f64,
    pub total_s: f64,
}

/// The fixed steps of a report's pushes with `bisect` steps at most: every direction's
/// pushes ([`report_pushes_at_most`]), each run to its full length.
fn most_push_steps(problem: &Problem, bisect: usize) -> u64 {
    let per_push = problem.size.trial_steps(report::AFTER_S);
    (problem.dirs.len() * report_pushes_at_most(&problem.goals, bisect)) as u64 * per_push
}

impl Plan {
    /// The plan of `generations` of `lambda` candidates, with the report after as `after`.
    pub fn of(
        problem: &Problem,
        (lambda, generations): (usize, usize),
        (reports, after): (Reports, AfterReport),
        budget_s: f64,
    ) -> Plan {
        let rate = body_steps_per_s();
        let before_s = report(problem, reports.bisect, reports.push_steps) / rate;
        // The report after stops bisecting where the budget runs out (`after_allowance`), its
        // floor the goals' pushes: at their full length, or the report before's when they fell
        // it sooner than that.
        let goal_push_steps =
            most_push_steps(problem, 0).min(reports.push_steps.unwrap_or(u64::MAX));
        let after_push_steps = match after {
            AfterReport::AsBefore => reports
                .push_steps
                .unwrap_or_else(|| most_push_steps(problem, reports.bisect)),
            AfterReport::GoalsOnly => goal_push_steps,
        };
        let floor_s = report(problem, reports.bisect, Some(goal_push_steps)) / rate;
        let after_s = report(problem, reports.bisect, Some(after_push_steps)) / rate;
        let search_own_s = search(problem, lambda, generations) / rate;
        let search_s = search_own_s + ran(problem, reports.probes) / rate;
        Plan {
            budget_s,
            population: lambda,
            generations,
            report_before_s: before_s,
            search_s,
            report_after: after,
            report_after_s: after_s,
            after_push_steps,
            search_own_s,
            report_after_floor_s: floor_s.min(after_s),
            total_s: before_s + search_s + after_s,
        }
    }

    /// The fixed steps each direction's pushes may take in the report after the search: what
    /// the plan keeps for them, and what it leaves of the budget less what the search's pushes
    /// ran over their plan (`search_over_s`, simulated seconds; the whole run then stays
    /// within the budget by the model, or within the plan when it did not fit).
    pub fn after_allowance(&self, problem: &Problem, search_over_s: f64) -> u64 {
        let dt_s = probe::settings().dt_s as f64;
        // Signed: a search that took the report after's bisection share leaves it less than
        // its plan (the goals' pushes run whatever this says).
        let slack_steps = (self.slack_push_s(problem) - search_over_s.max(0.0)) / dt_s;
        let dirs = problem.dirs.len().max(1) as f64;
        ((self.after_push_steps as f64 + slack_steps).max(0.0) / dirs).floor() as u64
    }

    /// What the search's own evaluations may cost (seconds by the model): as planned, what
    /// the plan leaves of the budget, and what the report after can do without (its
    /// bisection: it stops where the budget runs out, [`Plan::after_allowance`]). A full-stage
    /// generation is a third to a half of a budget: without the bisection's share, a search
    /// whose first stage ran a little over its plan stopped there, much of the budget unused.
    pub fn search_allowance_s(&self) -> f64 {
        let after_spare_s = (self.report_after_s - self.report_after_floor_s).max(0.0);
        self.search_own_s + (self.budget_s - self.total_s).max(0.0) + after_spare_s
    }

    /// How far the search's own evaluations, which cost `spent_s` (seconds by the model), ran
    /// over the plan, as simulated seconds of `problem`'s pushes.
    pub fn search_over_s(&self, problem: &Problem, spent_s: f64) -> f64 {
        (spent_s - self.search_own_s).max(0.0) * body_steps_per_s() / per_second(problem)
    }

    /// What the plan leaves of the budget, as simulated seconds of `problem`'s pushes.
    fn slack_push_s(&self, problem: &Problem) -> f64 {
        let slack_s = (self.budget_s - self.total_s).max(0.0);
        slack_s * body_steps_per_s() / per_second(problem)
    }
}

/// The report's bisection steps, at most `bisect`, with which both reports and the smallest
/// search fit `budget_s` (else none): decided before the report before runs, so each report
/// is counted as its pushes typically run (the goals met: [`report_pushes_per_direction`],
/// each at its full length; the report after at its goals' pushes alone), and the smallest
/// search at its most (one generation of [`MIN_POPULATION`] and the stepping probes, every
/// survive push at its longest and none ending early). A 30-body horse's report before took
/// 20 of its 55 s at 5 steps, and the smallest search then did not fit beside it; the reports'
/// resolution gives way first, since the search is what the run is for.
pub fn affordable_bisect(problem: &Problem, budget_s: f64, bisect: usize) -> usize {
    let longest = |stage| evaluation_with(problem, problem.longest_pushes_s(stage));
    let full = longest(eval::FULL_STAGE);
    let probes = problem.baseline.probes().len() as f64;
    let search = MIN_POPULATION as f64 * longest(eval::FIRST_STAGE) + (2.0 + probes) * full;
    let per_push = problem.size.trial_steps(report::AFTER_S);
    let dirs = problem.dirs.len() as u64;
    let typical = |b: usize| {
        let pushes = report_pushes_per_direction(&problem.goals, b) as u64;
        report(problem, b, Some(dirs * pushes * per_push))
    };
    let after = typical(0);
    (0..=bisect)
        .rev()
        .find(|&b| (typical(b) + search + after) / body_steps_per_s() <= budget_s)
        .unwrap_or(0)
}

/// The smallest population a plan shrinks to when one generation does not fit.
pub const MIN_POPULATION: usize = 4;

/// The plan for `budget_s` on the reference machine: CMA-ES's population (at least one
/// generation of it) and the report after as the report before, with as many generations as
/// fit. When not even one does, the report after keeps only the goals' pushes, then the
/// population shrinks (to [`MIN_POPULATION`]), until one generation fits.
pub fn plan(problem: &Problem, budget_s: f64, reports: Reports) -> Plan {
    let full = super::search::population(problem.baseline.dims());
    let fits = |p: &Plan| p.total_s <= budget_s.max(0.0);
    let sizes = (MIN_POPULATION.min(full)..=full).rev().step_by(2);
    for lambda in sizes {
        for after in [AfterReport::AsBefore, AfterReport::GoalsOnly] {
            let of = |g: usize| Plan::of(problem, (lambda, g), (reports, after), budget_s);
            if !fits(&of(1)) {
                continue;
            }
            let mut generations = 1;
            while generations < MAX_GENERATIONS && fits(&of(generations + 1)) {
                generations += 1;
            }
            return of(generations);
        }
    }
    let smallest = (MIN_POPULATION.min(full), 1);
    Plan::of(
        problem,
        smallest,
        (reports, AfterReport::GoalsOnly),
        budget_s,
    )
}

/// A bound on the generations however large the budget.
pub const MAX_GENERATIONS: usize = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    fn goals(survive: Option<f64>, fall: Option<f64>) -> Goals {
        Goals {
            survive_dv_m_s: survive,
            fall_dv_m_s: fall,
            ..Default::default()
        }
    }

    /// The report's range is a person's (3 m/s) unless the goals go past it: then twice
    /// the largest goal, and goals inside it count as brackets as a person's do.
    #[test]
    fn the_report_range_follows_goals_past_a_persons() {
        assert_eq!(goals(Some(0.5), Some(1.5)).dv_max_m_s(), report::DV_MAX_M_S);
        assert_eq!(goals(None, None).dv_max_m_s(), report::DV_MAX_M_S);
        assert_eq!(goals(Some(5.0), Some(15.0)).dv_max_m_s(), 30.0);
        assert_eq!(goals(Some(5.0), None).dv_max_m_s(), 10.0);
        // Both goals inside the range bracket the boundary: no push at the largest Δv, and
        // the bisection of 5..15 of a 0..30 range (3 steps asked: 2).
        assert_eq!(
            report_pushes_per_direction(&goals(Some(5.0), Some(15.0)), 3),
            2 + 2
        );
        assert_eq!(
            report_pushes_per_direction(&goals(Some(0.5), Some(1.5)), 3),
            2 + 2
        );
    }

    /// Over the whole range the report bisects as many times as asked; inside the goals'
    /// bracket fewer, never to a coarser resolution than the whole range's.
    #[test]
    fn bisection_within_the_goals_bracket_keeps_the_resolution() {
        assert_eq!(
            report::bisect_steps(report::DV_MAX_M_S, report::DV_MAX_M_S, 5),
            5
        );
        assert_eq!(report::bisect_steps(1.0, report::DV_MAX_M_S, 5), 4);
        assert_eq!(report::bisect_steps(1.5, report::DV_MAX_M_S, 5), 4);
        assert_eq!(report::bisect_steps(0.5, report::DV_MAX_M_S, 5), 3);
        assert_eq!(report::bisect_steps(0.0, report::DV_MAX_M_S, 5), 0);
        for width in [0.05, 0.3, 0.5, 1.0, 1.5, 2.9, 3.0] {
            for steps in 1..8 {
                let n = report::bisect_steps(width, report::DV_MAX_M_S, steps);
                let full = report::DV_MAX_M_S / 2f64.powi(steps as i32);
                assert!(
                    width / 2f64.powi(n as i32) <= full * (1.0 + 1e-9),
                    "{width} {steps}"
                );
                assert!(n <= steps);
            }
        }
        // 8 pushes per direction before the bracket (the goals', one at 3 m/s, 5 halvings).
        assert_eq!(
            report_pushes_per_direction(&goals(Some(0.5), Some(1.5)), 5),
            6
        );
        assert_eq!(report_pushes_per_direction(&goals(Some(0.5), None), 5), 7);
        assert_eq!(report_pushes_per_direction(&goals(None, None), 5), 6);
        assert_eq!(
            report_pushes_per_direction(&goals(Some(0.5), Some(1.5)), 0),
            2
        );
        // At most: the goals', one at 3 m/s, every halving (the goals' bracket contradicted).
        assert_eq!(report_pushes_at_most(&goals(Some(0.5), Some(1.5)), 5), 8);
        assert_eq!(report_pushes_at_most(&goals(None, None), 5), 6);
        assert_eq!(report_pushes_at_most(&goals(Some(0.5), None), 0), 1);
    }
}
