//! The character's own clips shape its joints: where a clip reaches past a generated limit,
//! the limit widens to the clip's range (plus [`MARGIN_DEG`]) and the report says so; each
//! drive's follow strength and torque cap are sized from the angular accelerations the clips
//! ask of the body it turns, not from a fixed bandwidth.
//!
//! Measured in the joint frames the solver uses: the generated ragdoll is applied to a copy of
//! the document and each clip's relative rotations are read through [`crate::anim::Follower`].

use super::limits::JointPlan;
use super::roles::Anatomy;
use super::{drives, Body};
use crate::anim::demand::{demand, quantile, JointDemand};
use crate::anim::Follower;
use crate::document::{Clip, Document, Edit};
use crate::joint::{decompose, SwingBoundary};
use serde::Serialize;

mod contacts;
pub mod poses;

/// Room left past the furthest the clip reaches (degrees).
pub const MARGIN_DEG: f64 = 2.0;
/// Past this tilt the twist of a swing-twist split is ill-defined (at 180° it is undefined)
/// and no anatomical swing goes: such samples widen neither the twist nor the swing.
pub const SINGULAR_TILT_DEG: f64 = 150.0;
/// A hinge follows only the part of a clip's rotation about its axis: samples bent further off
/// the axis than this (the clip's elbow or knee is not a hinge there) do not widen its range.
pub const OFF_AXIS_DEG: f64 = 30.0;
/// The acceleration a drive is sized to track (the quantile over the clip's samples) and the
/// peak its torque cap covers.
pub const TYPICAL_QUANTILE: f64 = 0.9;
pub const PEAK_QUANTILE: f64 = 0.99;

/// A widening a clip asked for and did not get: the clip is a set of held poses
/// ([`poses::evidence`]) and reaches past what the joint plausibly does
/// ([`super::limits::plausible`]). Its targets are clamped to the limit while it plays.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NotWidened {
    pub bone: String,
    pub clip: String,
    /// Why the clip counts as held poses.
    pub evidence: String,
    /// The limits the clip asked for, and those kept.
    pub wanted: String,
    pub kept: String,
}

/// A limit widened to a clip's range.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Widened {
    pub bone: String,
    /// The clips that reach past the generated limit.
    pub clips: Vec<String>,
    /// Widened to match its mirror twin, which a clip widened.
    pub twin: bool,
    pub from: String,
    pub to: String,
}

/// A joint's limits as text (degrees).
pub fn describe(j: &JointPlan) -> String {
    match j {
        JointPlan::Ball {
            swing_deg: s,
            twist_deg: t,
            ..
        } => format!(
            "swing {:.0}/{:.0}/{:.0}/{:.0}, twist {:.0}..{:.0}",
            s[0], s[1], s[2], s[3], t[0], t[1]
        ),
        JointPlan::Hinge {
            min_deg, max_deg, ..
        } => format!("hinge {min_deg:.0}..{max_deg:.0}"),
    }
}

/// Swing extents and twist range (degrees) widened to hold every rotation of `qs`.
fn widen_ball(
    swing_deg: [f64; 4],
    twist_deg: [f64; 2],
    qs: &[glam::DQuat],
) -> ([f64; 4], [f64; 2]) {
    let m = MARGIN_DEG;
    let mut twist = twist_deg;
    let mut ext = swing_deg;
    let mut boundary = SwingBoundary::new(ext.map(f64::to_radians));
    for q in qs {
        let st = decompose(*q);
        let tw = st.twist_rad.to_degrees();
        if st.tilt_rad < SINGULAR_TILT_DEG.to_radians() {
            twist = [(twist[0]).min(tw - m), (twist[1]).max(tw + m)];
        }
        let need = st.tilt_rad + m.to_radians();
        if st.tilt_rad >= SINGULAR_TILT_DEG.to_radians() || boundary.contains(need, st.azimuth_rad)
        {
            continue;
        }
        // Out of the boundary's reach along its axes: the swing is left as it was.
        if let Some(wider) = widen_toward(ext, need, st.azimuth_rad) {
            ext = wider;
            boundary = SwingBoundary::new(ext.map(f64::to_radians));
        }
    }
    (ext, [twist[0].max(-180.0), twist[1].min(180.0)])
}

/// The widest a generated swing extent gets (degrees): the boundary's own cap.
const MAX_EXTENT_DEG: f64 = 175.0;

/// `ext` (degrees) with the two extents facing `azimuth_rad` widened, by the least in sum,
/// until the boundary holds a tilt of `need_rad` there; None when it cannot. Widening only
/// the extent nearer the azimuth, as it faced it, took a thigh turned 65° a few degrees off
/// its axis to 175° that way while the extent beside it stayed at 12° (the boundary's
/// rounding between two extents reaches out only as far as both let it).
fn widen_toward(ext: [f64; 4], need_rad: f64, azimuth_rad: f64) -> Option<[f64; 4]> {
    let (c, s) = (azimuth_rad.cos(), azimuth_rad.sin());
    let sides = [usize::from(c < 0.0), 2 + usize::from(s < 0.0)];
    let grown = |share: f64, by: f64| {
        let mut e = ext;
        e[sides[0]] = (e[sides[0]] + share * by).min(MAX_EXTENT_DEG);
        e[sides[1]] = (e[sides[1]] + (1.0 - share) * by).min(MAX_EXTENT_DEG);
        e
    };
    let holds =
        |e: [f64; 4]| SwingBoundary::new(e.map(f64::to_radians)).contains(need_rad, azimuth_rad);
    let most = 2.0 * MAX_EXTENT_DEG;
    (0..=20)
        .map(|k| f64::from(k) / 20.0)
        .filter(|&share| holds(grown(share, most)))
        .map(|share| {
            // The least growth that holds it, to a tenth of a degree (holding grows with it).
            let (mut lo, mut hi) = (0.0, most);
            while hi - lo > 0.1 {
                let mid = 0.5 * (lo + hi);
                match holds(grown(share, mid)) {
                    true => hi = mid,
                    false => lo = mid,
                }
            }
            grown(share, hi)
        })
        .min_by(|a, b| {
            let sum = |e: &[f64; 4]| e.iter().sum::<f64>();
            let widest = |e: &[f64; 4]| e.iter().copied().fold(0.0, f64::max);
            (sum(a).round(), widest(a))
                .partial_cmp(&(sum(b).round(), widest(b)))
                .expect("finite")
        })
}

/// `j` widened so that every rotation of `qs` lies inside with [`MARGIN_DEG`] to spare.
pub fn widen(j: &JointPlan, qs: &[glam::DQuat]) -> JointPlan {
    let m = MARGIN_DEG;
    match *j {
        JointPlan::Ball {
            swing_deg,
            twist_deg,
            swing_y,
        } => {
            let (swing_deg, twist_deg) = widen_ball(swing_deg, twist_deg, qs);
            JointPlan::Ball {
                swing_deg,
                twist_deg,
                swing_y,
            }
        }
        JointPlan::Hinge {
            axis,
            min_deg,
            max_deg,
        } => {
            let (mut lo, mut hi) = (min_deg, max_deg);
            for q in qs {
                let st = decompose(*q);
                if st.tilt_rad > OFF_AXIS_DEG.to_radians() {
                    continue;
                }
                let a = st.twist_rad.to_degrees();
                lo = lo.min(a - m);
                hi = hi.max(a + m);
            }
            JointPlan::Hinge {
                axis,
                min_deg: lo.max(-180.0),
                max_deg: hi.min(180.0),
            }
        }
    }
}

/// Keeps apart the pairs the clips drive into each other (with the widened limits).
fn keep_apart(
    doc: &Document,
    clips: &[crate::document::Clip],
    list: &mut [Body],
    masks: &[String],
    height: f64,
    edit_of: &impl Fn(&[Body]) -> Edit,
) {
    let mut ragdoll = doc.clone();
    if ragdoll.apply(&edit_of(list)).is_err() {
        return;
    }
    let follower = Follower::new(&ragdoll);
    let mut apart = std::collections::BTreeSet::new();
    for clip in clips {
        contacts::in_clip(doc, &follower, clip, list, masks, height, &mut apart);
    }
    for (i, j) in apart {
        list[i].apart.push(j);
    }
}

/// What fitting the joints to the clips changed: the limits widened and the widenings refused.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fitted {
    pub widened: Vec<Widened>,
    pub not_widened: Vec<NotWidened>,
}

/// What the clips asked of the bodies so far, gathered clip by clip (indexed like the list).
struct ClipAsks {
    /// Per body: the clips that widened its limits.
    reached_by: Vec<Vec<String>>,
    /// Per body: the accelerations the clips ask of it.
    demand: Vec<drives::ClipDemand>,
    not_widened: Vec<NotWidened>,
}

/// One clip's view of one joint.
struct ClipJoint<'a> {
    clip: &'a str,
    /// Why the clip counts as held poses (None: it is motion).
    pose_set: Option<&'a String>,
    demand: &'a JointDemand,
}

impl ClipAsks {
    fn new(bodies: usize) -> Self {
        ClipAsks {
            reached_by: vec![Vec::new(); bodies],
            demand: vec![drives::ClipDemand::default(); bodies],
            not_widened: Vec::new(),
        }
    }

    /// Widens the limits of `list` to `clip` and gathers what it asks of the drives.
    fn add_clip(
        &mut self,
        doc: &Document,
        a: &Anatomy,
        list: &mut [Body],
        f: &Follower,
        clip: &Clip,
    ) {
        let demands = demand(f, clip);
        let pose_set = poses::evidence(&clip.name, &demands);
        for jd in &demands {
            let Some(k) = list.iter().position(|b| b.bone == jd.bone.index()) else {
                continue;
            };
            let cj = ClipJoint {
                clip: &clip.name,
                pose_set: pose_set.as_ref(),
                demand: jd,
            };
            self.widen_joint(doc, a, &mut list[k], k, &cj);
            if pose_set.is_some() {
                // Jumps between held poses are no motion for a drive to track.
                continue;
            }
            self.add_demand(k, jd);
        }
    }

    /// Widens body `k`'s joint to the clip (a clip of held poses only within plausibility).
    fn widen_joint(
        &mut self,
        doc: &Document,
        a: &Anatomy,
        body: &mut Body,
        k: usize,
        cj: &ClipJoint,
    ) {
        let Some(j) = body.joint else {
            return;
        };
        let wanted = widen(&j, &cj.demand.rotations);
        let cap = super::limits::plausible(a.kind, a.role[body.bone]);
        let w = match (cj.pose_set, cap) {
            (Some(why), Some(cap)) => {
                let kept = super::limits::within(&j, &wanted, cap);
                if kept != wanted {
                    self.not_widened.push(NotWidened {
                        bone: doc
                            .bones
                            .get(body.bone)
                            .map_or_else(String::new, |b| b.name.clone()),
                        clip: cj.clip.to_string(),
                        evidence: why.clone(),
                        wanted: describe(&wanted),
                        kept: describe(&kept),
                    });
                }
                kept
            }
            _ => wanted,
        };
        if w != j {
            self.reached_by[k].push(cj.clip.to_string());
            body.joint = Some(w);
        }
    }

    /// Raises body `k`'s demand to the clip's typical and peak accelerations.
    fn add_demand(&mut self, k: usize, jd: &JointDemand) {
        let d = &mut self.demand[k];
        let q = |v: &[f64], p: f64, was: f64| was.max(quantile(v, p));
        d.angular_typical = q(&jd.accels, TYPICAL_QUANTILE, d.angular_typical);
        d.angular_peak = q(&jd.accels, PEAK_QUANTILE, d.angular_peak);
        d.linear_typical = q(&jd.linear, TYPICAL_QUANTILE, d.linear_typical);
        d.linear_peak = q(&jd.linear, PEAK_QUANTILE, d.linear_peak);
    }
}

/// Fits the joints of `list` to the document's clips (`edit_of` builds the ragdoll's edit):
/// widens the limits clips reach past and sizes the drives from the clips' accelerations. A
/// clip of held poses widens only within plausibility and does not size the drives.
/// Returns the widened limits and the refused widenings (none when the document has no clips).
pub(super) fn fit(
    doc: &Document,
    a: &Anatomy,
    list: &mut [Body],
    masks: &[String],
    edit_of: impl Fn(&[Body]) -> Edit,
) -> Fitted {
    let clips = match doc.load_animations() {
        Ok(anims) if !anims.clips.is_empty() => anims.clips,
        _ => return Fitted::default(),
    };
    let mut ragdoll = doc.clone();
    if ragdoll.apply(&edit_of(list)).is_err() {
        return Fitted::default();
    }
    let follower = Follower::new(&ragdoll);
    let before: Vec<Option<JointPlan>> = list.iter().map(|b| b.joint).collect();
    let mut asks = ClipAsks::new(list.len());
    for clip in &clips {
        asks.add_clip(doc, a, list, &follower, clip);
    }
    for (b, &d) in list.iter_mut().zip(&asks.demand) {
        if b.joint.is_some() {
            b.gains = drives::from_clip(b.gains, d);
        }
    }
    super::symmetry::even_gains(a, list);
    super::symmetry::even_widened(a, list);
    keep_apart(doc, &clips, list, masks, a.height, &edit_of);
    Fitted {
        widened: widened_limits(doc, list, &before, &asks.reached_by),
        not_widened: asks.not_widened,
    }
}

/// The limits that changed from `before`, with the clips that reached past them (none: the
/// body was widened to match its mirror twin).
fn widened_limits(
    doc: &Document,
    list: &[Body],
    before: &[Option<JointPlan>],
    reached_by: &[Vec<String>],
) -> Vec<Widened> {
    (0..list.len())
        .filter(|&k| list[k].joint != before[k])
        .filter_map(|k| {
            Some(Widened {
                bone: doc.bones.get(list[k].bone)?.name.clone(),
                twin: reached_by[k].is_empty(),
                clips: reached_by[k].clone(),
                from: describe(&before[k]?),
                to: describe(&list[k].joint?),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joint::swing_twist::compose;
    use crate::joint::JointLimits;
    use glam::DVec3;

    fn limits_of(j: &JointPlan) -> JointLimits {
        match *j {
            JointPlan::Ball {
                swing_deg,
                twist_deg,
                ..
            } => JointLimits::Ball {
                swing: SwingBoundary::new(swing_deg.map(f64::to_radians)),
                twist_min_rad: twist_deg[0].to_radians(),
                twist_max_rad: twist_deg[1].to_radians(),
            },
            JointPlan::Hinge {
                min_deg, max_deg, ..
            } => JointLimits::Hinge {
                min_rad: min_deg.to_radians(),
                max_rad: max_deg.to_radians(),
            },
        }
    }

    #[test]
    fn a_ball_socket_widens_to_hold_the_clip_with_margin() {
        let j = JointPlan::Ball {
            swing_deg: [20.0, 30.0, 15.0, 15.0],
            twist_deg: [-15.0, 15.0],
            swing_y: DVec3::Y,
        };
        let qs = [
            compose(50f64.to_radians(), 0.7, 0.0),
            compose(10f64.to_radians(), 2.0, (-40f64).to_radians()),
        ];
        let w = widen(&j, &qs);
        let l = limits_of(&w);
        for q in qs {
            assert!(l.measure(q).violation_rad == 0.0, "{w:?}");
        }
        // Nothing needed: unchanged.
        assert_eq!(widen(&w, &qs), w);
        // Within the generated range: unchanged.
        assert_eq!(widen(&j, &[compose(0.1, 0.0, 0.1)]), j);
    }

    /// A thigh turned 65° a few degrees off its +Y extent, beside a 12° one: widening the
    /// +Y extent alone took it to 175°; widened by the least in sum, both open moderately.
    #[test]
    fn a_turn_between_two_extents_widens_both_by_the_least() {
        let j = JointPlan::Ball {
            swing_deg: [35.0, 35.0, 12.0, 12.0],
            twist_deg: [-10.0, 10.0],
            swing_y: DVec3::Y,
        };
        let q = compose(65f64.to_radians(), 8f64.to_radians(), 0.0);
        let w = widen(&j, &[q]);
        assert!(limits_of(&w).measure(q).violation_rad == 0.0, "{w:?}");
        let JointPlan::Ball { swing_deg, .. } = w else {
            panic!("{w:?}")
        };
        assert!(swing_deg[0] < 100.0 && swing_deg[2] > 12.0, "{swing_deg:?}");
        assert_eq!([swing_deg[1], swing_deg[3]], [35.0, 12.0], "{swing_deg:?}");
    }

    #[test]
    fn a_hinge_widens_its_angle_but_not_for_off_axis_samples() {
        let j = JointPlan::Hinge {
            axis: DVec3::X,
            min_deg: -1.0,
            max_deg: 135.0,
        };
        let w = widen(&j, &[compose(0.0, 0.0, (-20f64).to_radians())]);
        assert!(matches!(w, JointPlan::Hinge { min_deg, .. } if (min_deg + 22.0).abs() < 1e-9));
        let off = compose(60f64.to_radians(), 0.0, (-20f64).to_radians());
        assert_eq!(widen(&j, &[off]), j);
    }
}
