//! The search's parameters: per joint group a natural-frequency factor and a damping-ratio
//! factor, on log scales (x = ln factor; 0 is the document as it is). Each drive keeps its own
//! inertia ([`crate::joint::inertia`]): its f and ζ are read from its stiffness and damping,
//! scaled, and written back as k = I(2πf)², c = 2Iζ(2πf). The balance group scales the ankle
//! and upright controllers the same way, for the whole body's inertia about the ground.
//!
//! Two more parameters, when balance is on, are the hip strategy's gain and torque limit
//! ([`HipBase`]): log factors of the document's when it has the strategy on; when it is off
//! (`hip_kp` 0, the default), x ≤ 0 keeps it off and x > 0 turns it on at a gain sized by the
//! character's weight.
//!
//! One more, when balance is on, is the stepping strategy's gain ([`StepBase`]): a log factor
//! of the document's when it steps; when it does not (`step_gain` 0, the default), x ≤ 0
//! keeps it off and x > 0 turns it on at [`STEP_GAIN_ON`] × e^(x − 0.75) (0.71–3.2 × the
//! capture point's distance).
//!
//! With a fall goal, every candidate that steps sizes its steps for the goals rather than for
//! any push ([`Baseline::with_step_catch`]): `step_catch_dv` two thirds of the way (on a log
//! scale) from the survive goal's speed change to the fall goal's, so a step is no longer
//! than one that catches a push between them. Not a parameter: the goals say where the line
//! is.
//!
//! With a fall goal, every candidate, the start included, is knocked out by a push between
//! the goals ([`Baseline::with_knockout`]: `knockout_dv` at their geometric mean): a push
//! past it lets the balance go and the drives go limp, so the large push fells a character
//! however strong its gains are, and the search is free to make them strong for the small
//! one. Until session 49 the search had a cap on the legs' torque as one more parameter for
//! characters whose own gains outlast the large push (the Rigify lumberjack, the KayKit
//! mannequin, the Godot robot); it never felled the zoo rat (0-2 of 8), whose trunk sags
//! between its legs only with every group near the search's floor at once.

use super::groups::{drive_groups, Group};
pub use super::strategies::{HipBase, StepBase, HIP_KP_PER_WEIGHT, STEP_GAIN_ON, STEP_PROBE_GAINS};
use crate::document::fields::Key;
use crate::document::{BoneId, Document, Edit, EditTarget};
use crate::joint::{self, Gains, Natural};
use serde_json::json;

/// The landing the stepping probes try beside the document's own: each step squares the
/// stance up fully (`step_rest_stance` 1; README, Auto-tune, session 34).
pub const REST_STANCE_PROBE: f64 = 1.0;

/// A knock-out line the character's own standing reads this share of (or more) is not
/// written: its motion could trip it with no push (the zoo characters read at most 0.26 of
/// 0.87 m/s standing, the snake; the humanoids under 0.04).
pub const KNOCKOUT_STANDING_SHARE: f64 = 0.5;

/// The pushes a line between the goals is drawn between, (survive, fall) in m/s: the survive
/// goal's (none: a third of the fall's) and the fall goal's; None when they leave no room
/// (the fall at or below the survive).
fn goal_pair(survive_dv: Option<f64>, fall_dv: f64) -> Option<(f64, f64)> {
    let survive = survive_dv.unwrap_or(fall_dv / 3.0);
    (fall_dv > survive && survive > 0.0).then_some((survive, fall_dv))
}

/// Each factor stays within e^±this (×0.22 .. ×4.5).
pub const MAX_LOG_FACTOR: f64 = 1.5;

/// One drive as the document has it.
#[derive(Debug, Clone)]
struct DriveGains {
    bone: BoneId,
    group: Group,
    gains: Gains,
    /// What it moves (kg·m²); None when the solver has no joint there (then the factors
    /// scale k by f² and c by f·ζ, which is what the inertia would give).
    inertia: Option<f64>,
}

/// The document's gains the factors apply to, read once.
#[derive(Debug, Clone)]
pub struct Baseline {
    drives: Vec<DriveGains>,
    ankle: Gains,
    upright: Gains,
    body_inertia: Option<f64>,
    /// The groups present, in [`Group::ALL`] order: the parameter vector is two per group.
    pub groups: Vec<Group>,
    /// The balance assist scale as the document has it.
    pub assist: f64,
    /// The hip strategy's two parameters (after the groups'), when balance is on; None also
    /// when no push goal asks for it (see [`Baseline::without_strategies`]).
    pub hip: Option<HipBase>,
    /// The stepping strategy's parameter (after the hip strategy's), on the same terms.
    pub step: Option<StepBase>,
    /// The largest push a candidate's steps are sized for (m/s), written wherever the
    /// candidate steps; None: the document's ([`Baseline::with_step_catch`]).
    pub step_catch_dv: Option<f64>,
    /// Where a candidate's steps land across the push (`step_rest_stance`), written wherever
    /// it steps; None: the document's. The probes try the rest stance ([`REST_STANCE_PROBE`])
    /// where the document's landing misses survive pushes, and the search runs with the
    /// landing they keep ([`crate::tune::search::probe`]).
    pub step_rest_stance: Option<f64>,
    /// Whether the document's own steps land short of the rest stance (the rest-stance
    /// probes would differ from its own).
    pub rest_stance_probes: bool,
    /// The speed change past which every candidate is knocked out (m/s), written in every
    /// candidate, the start included; None: the document's ([`Baseline::with_knockout`]).
    pub knockout_dv: Option<f64>,
    /// Whether the search scores the stepping probes ([`Baseline::probes`]): only where the
    /// document's own gains miss the survive goal (stepping is for surviving; without the
    /// miss the probes only cost a plan its generations).
    pub step_probes: bool,
}

/// A group's gains read as a person would: the median natural frequency and damping ratio
/// of its drives (the balance group: the ankle controller's).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct GroupNatural {
    pub group: Group,
    pub freq_hz: Option<f64>,
    pub damping_ratio: Option<f64>,
}

fn scaled(g: Gains, inertia: Option<f64>, (xf, xz): (f64, f64)) -> Gains {
    let (ff, fz) = (xf.exp(), xz.exp());
    match inertia {
        Some(i) if g.stiffness > 0.0 => {
            let n = g.natural(i);
            Natural {
                freq_hz: n.freq_hz * ff,
                damping_ratio: n.damping_ratio * fz,
            }
            .gains(i)
        }
        _ => Gains {
            stiffness: g.stiffness * ff * ff,
            damping: g.damping * ff * fz,
        },
    }
}

/// Six significant digits: what the file keeps of a tuned gain.
fn round6(x: f64) -> f64 {
    crate::document::fields::six_digits(x, false)
}

fn set(target: EditTarget, key: Key, v: f64) -> Edit {
    Edit::Set {
        target,
        key: key.path().into(),
        value: json!(round6(v)),
    }
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

impl Baseline {
    pub fn of(doc: &Document) -> Self {
        let drives: Vec<DriveGains> = drive_groups(doc)
            .into_iter()
            .filter_map(|(bone, group)| {
                let d = doc.bone(bone).physics.as_ref()?.drive?;
                Some(DriveGains {
                    bone,
                    group,
                    gains: Gains {
                        stiffness: d.stiffness,
                        damping: d.damping,
                    },
                    inertia: joint::joint_inertia(doc, bone),
                })
            })
            .collect();
        let b = &doc.balance;
        let groups = Group::ALL
            .into_iter()
            .filter(|&g| {
                if g == Group::Balance {
                    b.enabled
                } else {
                    drives.iter().any(|d| d.group == g)
                }
            })
            .collect();
        Self {
            drives,
            ankle: Gains {
                stiffness: b.ankle_kp,
                damping: b.ankle_kd,
            },
            upright: Gains {
                stiffness: b.upright_kp,
                damping: b.upright_kd,
            },
            body_inertia: joint::whole_body_about_ground(doc),
            groups,
            assist: b.assist,
            hip: HipBase::of(doc),
            step: StepBase::of(doc),
            step_catch_dv: None,
            step_rest_stance: None,
            rest_stance_probes: b.step_rest_stance < REST_STANCE_PROBE,
            knockout_dv: None,
            step_probes: true,
        }
    }

    /// The same with every stepping candidate's steps sized for the goals: a push between
    /// the one to survive, `survive_dv` (m/s; none: a third of the fall's), and the one to
    /// fall from, `fall_dv`, two thirds of the way from the first (survive^⅓ · fall^⅔: 1.04
    /// m/s for 0.5 and 1.5). Nearer the fall than the middle, because the step that catches
    /// a push is longer than its capture point at the push (the capture point runs on while
    /// the trigger waits and the foot swings). Measured with `simulate --push` (assist 0,
    /// stepping at 1.0, 8 directions; survived at 0.5 m/s / felled at 1.5 m/s):
    /// - the generated CesiumMan: no limit 7 / 4; sized for 0.87 m/s 7 / 7; for 1.04 7 / 7;
    ///   for 1.2 7 / 8;
    /// - the bundled mannequin: no limit 7 / 8; sized for 0.87 m/s 5 / 8 (too short for a
    ///   0.5 m/s push sideways and back); for 1.04 and 1.2 7 / 8.
    pub fn with_step_catch(mut self, survive_dv: Option<f64>, fall_dv: f64) -> Self {
        self.step_catch_dv = goal_pair(survive_dv, fall_dv)
            .filter(|_| self.step.is_some())
            .map(|(survive, fall)| survive.powf(1.0 / 3.0) * fall.powf(2.0 / 3.0));
        self
    }

    /// The same with every candidate knocked out by a push between the one to survive,
    /// `survive_dv` (m/s; none: a third of the fall's), and the one to fall from, `fall_dv`:
    /// their geometric mean (0.87 m/s for 0.5 and 1.5), as far on a log scale from either.
    /// Measured (`simulate --push` at the pelvis, the impact each run reports): a push of Δv
    /// reads 0.95-1.02 Δv on the generated rat, whatever the direction, and standing reads
    /// at most 0.13 m/s (its first settling); so the line is where the goals put it, not
    /// where the gains happen to give way. Not a parameter: the goals say where the line is.
    /// Where standing reads at least [`KNOCKOUT_STANDING_SHARE`] of the line, the line is
    /// dropped ([`crate::tune::prepare`]): the generated zoo rat ×100 reads 1.35 units/s
    /// settling (speeds grow with √size), and knocked out past 0.87 it fell before any push.
    pub fn with_knockout(mut self, survive_dv: Option<f64>, fall_dv: f64) -> Self {
        self.knockout_dv =
            goal_pair(survive_dv, fall_dv).map(|(survive, fall)| (survive * fall).sqrt());
        self
    }

    /// The same without the hip and stepping strategies' parameters (a search with no push
    /// goal).
    pub fn without_strategies(mut self) -> Self {
        self.hip = None;
        self.step = None;
        self
    }

    /// The same without the balance group's parameters: for a search in which the balance
    /// controller never runs (a clip followed with a kinematic root is its only goal), whose
    /// ankle and upright gains the file then keeps as they are.
    pub fn without_balance(mut self) -> Self {
        self.groups.retain(|&g| g != Group::Balance);
        self.without_strategies()
    }

    /// Parameters: two per group, two for the hip strategy, one for stepping.
    pub fn dims(&self) -> usize {
        self.groups.len() * 2
            + if self.hip.is_some() { 2 } else { 0 }
            + usize::from(self.step.is_some())
    }

    /// Starting points besides the document's own, scored before the search: the document
    /// with only the stepping strategy turned on at each of [`STEP_PROBE_GAINS`], when it has
    /// stepping off. A strategy is one switch among a dozen factors, so a short search whose
    /// candidates move every factor at once rarely meets it alone (on the UBC superhero, the
    /// file's own gains stepping at 0.5-0.8 met the robustness goals; the search, stepping
    /// off, did not).
    pub fn probes(&self) -> Vec<Vec<f64>> {
        self.step_probe_points()
    }

    /// The stepping probes alone (see [`Baseline::probes`]); none where they are not scored.
    pub fn step_probe_points(&self) -> Vec<Vec<f64>> {
        let Some(step) = self.step.filter(|_| self.step_probes) else {
            return Vec::new();
        };
        let i = self.step_index();
        STEP_PROBE_GAINS
            .iter()
            .filter_map(|&g| step.x_for(g))
            .map(|x| self.only(i, x))
            .collect()
    }

    /// The document's own parameters (all 0) but parameter `i` at `x`.
    fn only(&self, i: usize, x: f64) -> Vec<f64> {
        let mut v = vec![0.0; self.dims()];
        v[i] = x;
        v
    }

    /// The stepping strategy's `step_gain` for parameters `x`; None when not searched.
    pub fn step_gain(&self, x: &[f64]) -> Option<f64> {
        let step = self.step?;
        let i = self.step_index();
        Some(step.gain(x[i].clamp(-MAX_LOG_FACTOR, MAX_LOG_FACTOR)))
    }

    /// Where the stepping parameter sits: after the groups' and the hip strategy's.
    fn step_index(&self) -> usize {
        self.groups.len() * 2 + if self.hip.is_some() { 2 } else { 0 }
    }

    /// The hip strategy's (hip_kp, hip_max_torque) for parameters `x`; None when not searched.
    pub fn hip_gains(&self, x: &[f64]) -> Option<(f64, f64)> {
        let hip = self.hip?;
        let i = self.groups.len() * 2;
        let c = |v: f64| v.clamp(-MAX_LOG_FACTOR, MAX_LOG_FACTOR);
        Some(hip.gains((c(x[i]), c(x[i + 1]))))
    }

    fn factors(&self, x: &[f64], g: Group) -> (f64, f64) {
        let i = self.groups.iter().position(|&h| h == g);
        i.map_or((0.0, 0.0), |i| {
            let c = |v: f64| v.clamp(-MAX_LOG_FACTOR, MAX_LOG_FACTOR);
            (c(x[2 * i]), c(x[2 * i + 1]))
        })
    }

    /// The typed edits that write the gains of parameters `x` (and the assist scale, when
    /// given) to `doc`, as one group (one undo step).
    pub fn edit(&self, doc: &Document, x: &[f64], assist: Option<f64>) -> Edit {
        let mut edits = Vec::new();
        for d in &self.drives {
            let g = scaled(d.gains, d.inertia, self.factors(x, d.group));
            let t = doc.bone_target(d.bone);
            edits.push(set(t, Key::Stiffness, g.stiffness));
            edits.push(set(t, Key::Damping, g.damping));
        }
        if self.groups.contains(&Group::Balance) {
            let f = self.factors(x, Group::Balance);
            let t = EditTarget::Document;
            let a = scaled(self.ankle, self.body_inertia, f);
            let u = scaled(self.upright, self.body_inertia, f);
            edits.push(set(t, Key::AnkleKp, a.stiffness));
            edits.push(set(t, Key::AnkleKd, a.damping));
            edits.push(set(t, Key::UprightKp, u.stiffness));
            edits.push(set(t, Key::UprightKd, u.damping));
        }
        if let (Some(hip), Some((kp, cap))) = (self.hip, self.hip_gains(x)) {
            // Off and left off: nothing written (the file keeps its bytes).
            if kp > 0.0 || hip.kp > 0.0 {
                edits.push(set(EditTarget::Document, Key::HipKp, kp));
                edits.push(set(EditTarget::Document, Key::HipMaxTorque, cap));
            }
        }
        if let (Some(step), Some(gain)) = (self.step, self.step_gain(x)) {
            if gain > 0.0 || step.gain > 0.0 {
                edits.push(set(EditTarget::Document, Key::StepGain, gain));
            }
            if let Some(dv) = self.step_catch_dv.filter(|_| gain > 0.0) {
                edits.push(set(EditTarget::Document, Key::StepCatchDv, dv));
            }
            if let Some(w) = self.step_rest_stance.filter(|_| gain > 0.0) {
                edits.push(set(EditTarget::Document, Key::StepRestStance, w));
            }
        }
        if let Some(dv) = self.knockout_dv {
            edits.push(set(EditTarget::Document, Key::KnockoutDv, dv));
        }
        if let Some(a) = assist {
            edits.push(set(EditTarget::Document, Key::Assist, a));
        }
        Edit::Group(edits)
    }

    /// Each group's median f and ζ in a document (read back from its gains): every group
    /// it has, searched or not.
    pub fn naturals(doc: &Document) -> Vec<GroupNatural> {
        let now = Baseline::of(doc);
        now.groups
            .iter()
            .map(|&group| {
                let (f, z): (Vec<f64>, Vec<f64>) = if group == Group::Balance {
                    now.body_inertia
                        .map(|i| now.ankle.natural(i))
                        .map(|n| (vec![n.freq_hz], vec![n.damping_ratio]))
                        .unwrap_or_default()
                } else {
                    now.drives
                        .iter()
                        .filter(|d| d.group == group)
                        .filter_map(|d| Some(d.gains.natural(d.inertia?)))
                        .map(|n| (n.freq_hz, n.damping_ratio))
                        .unzip()
                };
                GroupNatural {
                    group,
                    freq_hz: median(f),
                    damping_ratio: median(z),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_sized_between_the_goals_only_where_stepping_is_searched() {
        let glb = crate::mannequin::generate();
        let path = std::path::Path::new("mannequin.glb");
        let doc = Document::from_bytes(path, &glb, crate::document::UriPolicy::default())
            .expect("the bundled mannequin");
        let mut b = Baseline::of(&doc);
        let sized = b
            .clone()
            .with_step_catch(Some(0.5), 1.5)
            .step_catch_dv
            .unwrap();
        assert!((sized - 1.0400).abs() < 1e-4, "{sized}");
        let no_survive = b.clone().with_step_catch(None, 1.5).step_catch_dv.unwrap();
        assert!((no_survive - sized).abs() < 1e-12, "{no_survive}");
        assert_eq!(
            b.clone().with_step_catch(Some(2.0), 1.5).step_catch_dv,
            None
        );
        b.step = None;
        assert_eq!(b.with_step_catch(Some(0.5), 1.5).step_catch_dv, None);
    }
}
