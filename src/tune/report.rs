//! The figures a person reads before and after tuning, measured on the real simulation with
//! runs as long as `simulate --push` acceptance runs: pushes at [`probe::PUSH_AT_S`] and
//! [`AFTER_S`] seconds after, per direction the largest Δv survived and the smallest that
//! fells it (bisection), the goals' pushes, standing 10 s, clip RMS per joint group, peak
//! assist, effort and the worst limit violation. Every time is a person's: a giant's runs
//! last longer, a tiny character's less ([`probe::time_scale`]).

use super::eval::{self, Direction, Measured, Problem};
use super::groups::{drive_groups, Group};
use super::params::Baseline;
use super::probe::{self, Trial};
use crate::document::Document;
use crate::sim::Simulation;
use rayon::prelude::*;

/// Seconds after a push (a 6 s `simulate` run with the push at 1 s).
pub const AFTER_S: f64 = 5.0;
/// Standing is checked this long (s), from the start.
pub const STAND_S: f64 = 10.0;
/// The largest push tried (m/s) unless the goals ask for more ([`super::Goals::dv_max_m_s`]).
pub const DV_MAX_M_S: f64 = 3.0;
/// The clip is followed once, for at most this long (s).
pub const CLIP_S: f64 = 10.0;

/// One direction's robustness.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DirectionFigures {
    pub direction: &'static str,
    pub angle_deg: f64,
    /// The push's direction in the world (horizontal unit vector): `simulate --push
    /// PELVIS:Δv·m·x,0,Δv·m·z@1` reproduces a trial.
    pub world: [f32; 3],
    /// Largest Δv it did not fall from (m/s). Surviving the goal asks more (`survives_goal`:
    /// back within 5° of upright 2 s after), so a direction can show 0.5 here and
    /// `survives_goal` false at a 0.5 m/s goal: it stayed up but had not recovered in time.
    pub survived_dv_m_s: f64,
    /// Smallest Δv that felled it (m/s); None when even the largest push
    /// ([`super::Goals::dv_max_m_s`]) did not.
    pub fell_dv_m_s: Option<f64>,
    /// At the survive goal: stayed up and within 5° of upright 2 s after.
    pub survives_goal: Option<bool>,
    /// At the fall goal: fell.
    pub falls_at_goal: Option<bool>,
    /// Bisection steps run: fewer than asked when the run's budget ran out (the report after
    /// the search, [`Allowance`]); the bracket is then wider.
    pub halvings: usize,
}

/// RMS tracking error of one joint group while following the clip (degrees).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GroupRms {
    pub group: Group,
    pub rms_deg: f64,
}

/// Everything measured about one version of the document.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Figures {
    /// Bisection steps per direction the report was planned with (`--bisect`, fewer when the
    /// budget could not hold them: [`super::cost::affordable_bisect`]).
    pub bisect: usize,
    /// Null when falls are not measured for this character.
    pub stands_10s: Option<bool>,
    pub directions: Vec<DirectionFigures>,
    pub clip_rms_by_group: Vec<GroupRms>,
    /// Per joint (name, RMS degrees), in the telemetry's order.
    #[serde(skip)]
    pub clip_rms_by_joint: Vec<(String, f64)>,
    pub clip_median_rms_deg: Option<f64>,
    pub clip_max_rms_deg: Option<f64>,
    /// Null without an upright joint (not measured).
    pub peak_assist_n_m: Option<f64>,
    /// ∫|τ·ω| dt of the motors while standing 10 s (J).
    pub effort_stand_j: f64,
    pub max_limit_violation_deg: f64,
    pub groups: Vec<super::params::GroupNatural>,
    /// The hip strategy's gain (N·m per m of capture-point error; 0 is off) and limit (N·m).
    pub hip_kp: f64,
    pub hip_max_torque_n_m: f64,
    /// The stepping strategy's gain (× the capture point's distance; 0 is off).
    pub step_gain: f64,
    /// The largest push a step is sized for (m/s of speed change; 0 is no limit).
    pub step_catch_dv: f64,
    /// Where steps land across the push: 0 keeps the lifted foot's offset, 1 the rest stance.
    pub step_rest_stance: f64,
    /// The speed change past which the character is knocked out (m/s; 0 is never).
    pub knockout_dv: f64,
    /// The largest sudden speed change of the whole body standing 10 s, its settling
    /// included (m/s): what a knock-out must stay well above.
    pub standing_impact_dv_m_s: f64,
    /// The strongest leg drive's torque limit (N·m; null without leg drives): what the legs'
    /// torque cap lowers.
    pub legs_max_torque_n_m: Option<f64>,
    /// Fixed steps the pushes simulated (falls end them early): what such a report costs.
    #[serde(skip)]
    pub push_steps: u64,
}

impl Figures {
    /// The balance strategies and the legs' strength as a person reads them, (label, text):
    /// the hip strategy, stepping, the push steps are sized for, where they land, the legs'
    /// torque limit, the knock-out.
    pub fn strategy_rows(&self) -> [(&'static str, String); 6] {
        let hip = match self.hip_kp > 0.0 {
            true => format!(
                "{} N·m/m ≤ {}",
                sig(self.hip_kp),
                sig(self.hip_max_torque_n_m)
            ),
            false => "off".into(),
        };
        let step = match self.step_gain > 0.0 {
            true => format!("{:.2} × capture point", self.step_gain),
            false => "off".into(),
        };
        let catch = match (self.step_gain > 0.0, self.step_catch_dv > 0.0) {
            (false, _) => "no steps".into(),
            (true, true) => format!("up to {:.2} m/s", self.step_catch_dv),
            (true, false) => "any push".into(),
        };
        let land = match (self.step_gain > 0.0, self.step_rest_stance) {
            (false, _) => "no steps".into(),
            (true, w) if w <= 0.0 => "as the foot lifted".into(),
            (true, w) if w >= 1.0 => "square to rest stance".into(),
            (true, w) => format!("{:.0}% to rest stance", 100.0 * w),
        };
        let legs = match self.legs_max_torque_n_m {
            Some(t) => format!("≤ {} N·m", sig(t)),
            None => "no leg drives".into(),
        };
        let knockout = match self.knockout_dv > 0.0 {
            true => format!("past {:.2} m/s", self.knockout_dv),
            false => "never".into(),
        };
        let knockout = format!("{knockout} (standing {:.2})", self.standing_impact_dv_m_s);
        [
            ("Hip strategy", hip),
            ("Stepping", step),
            ("Steps catch", catch),
            ("Steps land", land),
            ("Leg torque", legs),
            ("Knocked out", knockout),
        ]
    }
}

/// Pushes from one direction, each from a clone of the settled simulation, counting the
/// steps they simulate.
struct Pushes<'a> {
    settled: &'a Simulation,
    d: &'a Direction,
    mass: f32,
    steps: std::cell::Cell<u64>,
    /// The fixed steps this direction's pushes may take before a bisection step is skipped.
    cap: Option<u64>,
    halvings: std::cell::Cell<usize>,
    /// The largest push tried (m/s).
    dv_max_m_s: f64,
}

impl Pushes<'_> {
    fn at(&self, dv: f64) -> Trial {
        self.checked(dv, &[]).0
    }

    /// The push at `dv`, and its first `search_after_s` seconds (each of them) as the search's
    /// trials of the same push.
    fn checked(&self, dv: f64, search_after_s: &[f64]) -> (Trial, Vec<Trial>) {
        let (t, short) = probe::push_with_checkpoints(
            self.settled,
            (self.d.world, dv as f32, self.mass),
            AFTER_S,
            true,
            search_after_s,
        );
        self.steps.set(self.steps.get() + t.steps);
        (t, short)
    }
}

fn survived(t: &Trial, goal: bool) -> bool {
    match goal {
        true => !eval::survive_missed(t),
        false => eval::stood(t),
    }
}

/// Bisection for `d`'s boundary to the resolution of `steps` halvings of [0, the largest
/// push]:
/// (largest survived, smallest felled). It starts from the bracket `known` (the largest Δv
/// known survived, the smallest known to fell), which the goals' pushes give: only the part
/// of the range they leave open is searched, to the same resolution. A bracket the runs
/// contradict (survived above a fall) is dropped for the whole range.
fn boundary(p: &Pushes, steps: usize, known: (f64, Option<f64>)) -> (f64, Option<f64>) {
    let (lo, hi) = match known {
        (lo, Some(hi)) if lo < hi => (lo, Some(hi)),
        (lo, None) => (lo, None),
        _ => (0.0, None),
    };
    let top = p.dv_max_m_s;
    let mut hi = match hi {
        Some(hi) => hi,
        None if survived(&p.at(top), false) => return (top, None),
        None => top,
    };
    let mut lo = lo;
    let full = probe::trial_steps(p.settled, AFTER_S);
    for _ in 0..bisect_steps(hi - lo, top, steps) {
        if p.cap.is_some_and(|cap| p.steps.get() + full > cap) {
            break;
        }
        p.halvings.set(p.halvings.get() + 1);
        let mid = 0.5 * (lo + hi);
        if survived(&p.at(mid), false) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, Some(hi))
}

/// What one push at `dv` says about the boundary: survived, `dv` is a floor; felled, a
/// ceiling. Pushes outside (0, `top`) say nothing the bisection uses.
fn narrow(known: (f64, Option<f64>), (dv, top): (f64, f64), up: bool) -> (f64, Option<f64>) {
    let (lo, hi) = known;
    if !(dv > 0.0 && dv < top) {
        return known;
    }
    if up {
        (lo.max(dv), hi)
    } else {
        (lo, Some(hi.map_or(dv, |h| h.min(dv))))
    }
}

/// Halvings of a range `width` wide down to the width `steps` halvings of [0, `top`] leave
/// (at most `steps`).
pub fn bisect_steps(width: f64, top: f64, steps: usize) -> usize {
    let needed = (width / top).log2() + steps as f64;
    if needed.is_finite() {
        (needed - 1e-9).ceil().clamp(0.0, steps as f64) as usize
    } else {
        0
    }
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| v[v.len() / 2])
}

/// One direction's figures and the peak assist torque of its goal pushes (N·m; None: not
/// measured).
struct DirectionOutcome {
    figures: DirectionFigures,
    goal_assist_peak_n_m: Option<f32>,
    /// Fixed steps its pushes simulated.
    steps: u64,
    /// The goals' pushes (survive, fall) as the search's trials of them: the survive push at
    /// each of [`eval::SURVIVE_HORIZONS_S`], the fall push at [`eval::SEARCH_AFTER_S`].
    search_trials: [Vec<Trial>; 2],
}

/// Direction `d`: the goals' pushes, then the boundary bisected (to the resolution of
/// `bisect` steps over [0, the largest push]) from the bracket they give.
fn measure_direction(
    problem: &Problem,
    settled: &Simulation,
    d: &Direction,
    (bisect, cap): (usize, Option<u64>),
) -> DirectionOutcome {
    let pushes = Pushes {
        settled,
        d,
        mass: problem.mass_kg,
        steps: Default::default(),
        cap,
        halvings: Default::default(),
        dv_max_m_s: problem.goals.dv_max_m_s(),
    };
    let g = &problem.goals;
    let mut known = (0.0, None);
    let mut assist = None::<f32>;
    let mut search_trials = [Vec::new(), Vec::new()];
    let mut goal = |i: usize, dv: Option<f64>, f: &dyn Fn(&Trial) -> bool| {
        dv.map(|v| {
            let horizons: &[f64] = match i {
                0 => &eval::SURVIVE_HORIZONS_S,
                _ => &[eval::SEARCH_AFTER_S],
            };
            let (t, short) = pushes.checked(v, horizons);
            search_trials[i] = short;
            if let Some(a) = t.assist_peak_n_m {
                assist = Some(assist.map_or(a, |b| a.max(b)));
            }
            known = narrow(known, (v, pushes.dv_max_m_s), survived(&t, false));
            f(&t)
        })
    };
    let survives_goal = goal(0, g.survive_dv_m_s, &|t| survived(t, true));
    let falls_at_goal = goal(1, g.fall_dv_m_s, &|t| t.fell == Some(true));
    let (survived_dv, fell_dv) = match bisect > 0 {
        true => boundary(&pushes, bisect, known),
        // The goals' pushes alone: the bracket they give (at their resolution, no halvings),
        // when one was within (0, the largest push) to give one.
        false if known != (0.0, None) => known,
        false => (f64::NAN, None),
    };
    let figures = DirectionFigures {
        direction: d.name,
        angle_deg: d.angle_deg,
        world: d.world.to_array(),
        survived_dv_m_s: survived_dv,
        fell_dv_m_s: fell_dv,
        survives_goal,
        falls_at_goal,
        halvings: pushes.halvings.get(),
    };
    DirectionOutcome {
        figures,
        goal_assist_peak_n_m: assist,
        steps: pushes.steps.get(),
        search_trials,
    }
}

/// The clip's tracking RMS (degrees) per joint, by joint name (empty without a clip).
fn clip_rms_by_joint(tracking: Option<&probe::Tracking>) -> Vec<(String, f64)> {
    tracking
        .map(|t| {
            t.joints
                .iter()
                .map(|(n, r)| (n.clone(), *r as f64))
                .collect()
        })
        .unwrap_or_default()
}

/// The clip's tracking RMS (degrees) per drive group, over the group's joints.
fn clip_rms_by_group(doc: &Document, by_joint: &[(String, f64)]) -> Vec<GroupRms> {
    let groups = drive_groups(doc);
    Group::ALL
        .into_iter()
        .filter_map(|grp| {
            let sq: Vec<f64> = by_joint
                .iter()
                .filter(|(n, _)| {
                    doc.bone_by_name(n)
                        .is_some_and(|b| groups.iter().any(|&(gb, gg)| gb == b && gg == grp))
                })
                .map(|(_, r)| r * r)
                .collect();
            (!sq.is_empty()).then(|| GroupRms {
                group: grp,
                rms_deg: (sq.iter().sum::<f64>() / sq.len() as f64).sqrt(),
            })
        })
        .collect()
}

/// The document's own trials as the search's full stage runs them, taken from the report's
/// runs (the goals' pushes, standing, the clip): the search's start without running them
/// again, its survive pushes at each length the search may run them ([`SearchTrials::measured`]).
pub struct SearchTrials {
    fell_settling: bool,
    /// Per joint, how far it strayed from its pose while settling ([`probe::pose_error_deg`]).
    settle_pose_deg: Vec<f32>,
    /// Per direction: the survive push at each of [`eval::SURVIVE_HORIZONS_S`], the fall push.
    dirs: Vec<[Vec<Trial>; 2]>,
    stand: Trial,
    tracking: Option<probe::Tracking>,
}

impl SearchTrials {
    /// The trials as `problem`'s search runs them (its [`Problem::survive_after_s`]).
    pub fn measured(&self, problem: &Problem) -> Measured {
        let survive_s = problem.after_s(true, problem.goals.survive_dv_m_s.unwrap_or(0.0));
        let horizon = eval::SURVIVE_HORIZONS_S
            .iter()
            .position(|h| *h == survive_s)
            .unwrap_or(0);
        let of = |goal: usize, i: usize| -> Vec<Trial> {
            self.dirs
                .iter()
                .filter_map(|d| d[goal].get(i).copied())
                .collect()
        };
        let survive = match problem.goals.survive_dv_m_s {
            Some(_) => of(0, horizon),
            None => vec![self.stand],
        };
        let fall = match problem.goals.fall_dv_m_s {
            Some(_) => of(1, 0),
            None => Vec::new(),
        };
        let tracking = problem.clip.as_ref().map(|_| {
            self.tracking.clone().unwrap_or(probe::Tracking {
                paused: true,
                ..Default::default()
            })
        });
        Measured {
            fell_settling: self.fell_settling,
            settle_pose_deg: self.settle_pose_deg.clone(),
            survive,
            fall,
            tracking,
        }
    }
}

/// How many fixed steps each direction's pushes may take in a report (the goals' pushes and
/// the one at the largest Δv always run; a bisection step that could take the total past it
/// is skipped). The report before the search has none; the one after, what the budget leaves
/// ([`super::cost::Plan::after_allowance`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Allowance {
    pub push_steps_per_direction: Option<u64>,
}

/// A report's runs: every direction's pushes, standing (and its first
/// [`eval::SEARCH_AFTER_S`] seconds), the clip (and its first [`eval::SEARCH_CLIP_S`]).
struct Runs {
    dirs: Vec<DirectionOutcome>,
    stand: (Trial, Trial),
    clip: Option<(probe::Tracking, Option<probe::Tracking>)>,
}

/// The directions, standing and the clip: independent runs, all in parallel.
fn run_all(
    problem: &Problem,
    doc: &Document,
    settled: &Simulation,
    (bisect, allowance): (usize, Allowance),
) -> Runs {
    let cap = allowance.push_steps_per_direction;
    let ((dirs, stand), clip) = rayon::join(
        || {
            rayon::join(
                || {
                    problem
                        .dirs
                        .par_iter()
                        .map(|d| measure_direction(problem, settled, d, (bisect, cap)))
                        .collect::<Vec<DirectionOutcome>>()
                },
                || {
                    let standing = (glam::Vec3::X, 0.0, problem.mass_kg);
                    let after = STAND_S - probe::PUSH_AT_S;
                    let short = [eval::SEARCH_AFTER_S];
                    let (t, s) =
                        probe::push_with_checkpoints(settled, standing, after, false, &short);
                    (t, s[0])
                },
            )
        },
        || {
            problem.clip.as_ref().and_then(|c| {
                probe::follow_with_checkpoint(doc, c, CLIP_S, Some(eval::SEARCH_CLIP_S)).ok()
            })
        },
    );
    Runs { dirs, stand, clip }
}

/// Measures `doc` against the problem's goals; `bisect` steps per direction (0: no boundary
/// search, only the goals' pushes) within `allowance`. Also returns `doc`'s trials as the
/// search's full stage runs them ([`Problem::trials`]), taken on the way. None when the
/// character cannot be simulated.
pub fn measure(
    problem: &Problem,
    doc: &Document,
    bisect: usize,
    allowance: Allowance,
) -> Option<(Figures, SearchTrials)> {
    let settled = probe::settle(doc).ok()?;
    let Runs {
        mut dirs,
        stand: (stand, stand_short),
        clip,
    } = run_all(problem, doc, &settled, (bisect, allowance));
    let (tracking, tracking_short) = match clip {
        Some((t, s)) => (Some(t), s),
        None => (None, None),
    };
    let trials = SearchTrials {
        fell_settling: probe::fell_settling(&settled),
        settle_pose_deg: probe::pose_error_deg(&settled),
        dirs: dirs
            .iter_mut()
            .map(|d| std::mem::take(&mut d.search_trials))
            .collect(),
        stand: stand_short,
        tracking: tracking_short,
    };
    let push_assist = dirs
        .iter()
        .filter_map(|d| d.goal_assist_peak_n_m)
        .reduce(f32::max);
    let push_steps = dirs.iter().map(|d| d.steps).sum();
    let dirs: Vec<DirectionFigures> = dirs.into_iter().map(|d| d.figures).collect();
    let by_joint = clip_rms_by_joint(tracking.as_ref());
    let clip_rms_by_group = clip_rms_by_group(doc, &by_joint);
    let viol = stand
        .max_violation_deg
        .max(tracking.as_ref().map_or(0.0, |t| t.max_violation_deg));
    let figures = Figures {
        bisect,
        stands_10s: stand.fell.map(|f| !f && !stand.paused),
        directions: dirs,
        clip_median_rms_deg: median(by_joint.iter().map(|x| x.1).collect()),
        clip_max_rms_deg: by_joint.iter().map(|x| x.1).reduce(f64::max),
        clip_rms_by_group,
        clip_rms_by_joint: by_joint,
        peak_assist_n_m: (stand.assist_peak_n_m.into_iter().chain(push_assist))
            .reduce(f32::max)
            .map(f64::from),
        effort_stand_j: stand.work_j,
        max_limit_violation_deg: viol as f64,
        groups: Baseline::naturals(doc),
        hip_kp: doc.balance.hip_kp,
        hip_max_torque_n_m: doc.balance.hip_max_torque,
        step_gain: doc.balance.step_gain,
        step_catch_dv: doc.balance.step_catch_dv,
        step_rest_stance: doc.balance.step_rest_stance,
        knockout_dv: doc.balance.knockout_dv,
        standing_impact_dv_m_s: f64::from(stand.peak_impact_dv),
        legs_max_torque_n_m: legs_max_torque(doc),
        push_steps,
    };
    Some((figures, trials))
}

/// The strongest leg drive's `max_torque` (N·m); None without leg drives.
fn legs_max_torque(doc: &Document) -> Option<f64> {
    drive_groups(doc)
        .into_iter()
        .filter(|(_, g)| *g == Group::Legs)
        .filter_map(|(id, _)| doc.bone(id).physics.as_ref()?.drive.map(|d| d.max_torque))
        .reduce(f64::max)
}

/// At least three significant digits (two decimals from 1 up, none from 1000 up): a tiny
/// character's torques and efforts are small, not zero.
pub fn sig(v: f64) -> String {
    if !v.is_finite() || v == 0.0 {
        return format!("{v}");
    }
    let decimals = (2 - v.abs().log10().floor() as i32).clamp(0, 9) as usize;
    format!("{v:.decimals$}")
}
