//! Left and right agree: mirror pairs (same role, same kind of limb, same place along it,
//! opposite sides) get the mean of their two sizes, masses, hinge ranges and gains, so a
//! slightly lopsided skin does not make one leg heavier or one knee stiffer than the other.
//! Each keeps its own placement.

use super::bodies::{body_points, Plan};
use super::fit::coverage;
use super::limits::JointPlan;
use super::names::Side;
use super::roles::Anatomy;
use super::samples::Samples;
use super::shapes::{sizes, with_sizes};
use super::Body;

/// (left body, right body) index pairs.
fn pairs(a: &Anatomy, list: &[Body]) -> Vec<(usize, usize)> {
    let key = |k: usize| {
        let b = list[k].bone;
        let limb = a.limb_of[b].map(|l| a.limbs[l].kind);
        let ordinal = (0..k)
            .filter(|&o| {
                let ob = list[o].bone;
                a.role[ob] == a.role[b]
                    && a.side[ob] == a.side[b]
                    && a.limb_of[ob].map(|l| a.limbs[l].kind) == limb
            })
            .count();
        (a.role[b], limb, ordinal)
    };
    let mut out = Vec::new();
    for l in 0..list.len() {
        if a.side[list[l].bone] != Some(Side::Left) {
            continue;
        }
        let kl = key(l);
        if let Some(r) =
            (0..list.len()).find(|&r| a.side[list[r].bone] == Some(Side::Right) && key(r) == kl)
        {
            out.push((l, r));
        }
    }
    out
}

/// Evening a twin's shape may cost it at most this much coverage of its own skin: a twin whose
/// skin is not the mirror of the other's (a prop in one hand: the Rigify lumberjack's axe
/// doubled its right hand's skin, and the mean shape covered 0.60 of it) keeps its own fit.
pub const EVEN_COVERAGE_LOSS: f64 = 0.1;

pub(super) fn even_shapes(a: &Anatomy, samples: &Samples, plan: &Plan, list: &mut [Body]) {
    let inflate = 0.02 * a.height;
    for (l, r) in pairs(a, list) {
        let (sl, sr) = (
            sizes(&list[l].shape.fit.shape),
            sizes(&list[r].shape.fit.shape),
        );
        if sl.len() != sr.len()
            || std::mem::discriminant(&list[l].shape.fit.shape)
                != std::mem::discriminant(&list[r].shape.fit.shape)
        {
            continue;
        }
        let mean: Vec<f64> = sl.iter().zip(&sr).map(|(x, y)| (x + y) / 2.0).collect();
        let evened = [l, r].map(|k| {
            let mut fit = list[k].shape.fit;
            fit.shape = with_sizes(fit.shape, &mean);
            let pts = body_points(plan, samples, list[k].bone);
            let own = coverage(&pts, &list[k].shape.fit, inflate);
            fit.coverage = coverage(&pts, &fit, inflate);
            let lost = match (own, fit.coverage) {
                (Some(o), Some(e)) => o - e > EVEN_COVERAGE_LOSS,
                _ => false,
            };
            (fit, lost)
        });
        if evened.iter().any(|e| e.1) {
            continue;
        }
        for (k, (fit, _)) in [l, r].into_iter().zip(evened) {
            list[k].shape.fit = fit;
        }
    }
}

pub(super) fn even_masses(a: &Anatomy, list: &mut [Body]) {
    for (l, r) in pairs(a, list) {
        let m = (list[l].mass_kg + list[r].mass_kg) / 2.0;
        list[l].mass_kg = m;
        list[r].mass_kg = m;
    }
}

pub(super) fn even_joints(a: &Anatomy, list: &mut [Body]) {
    for (l, r) in pairs(a, list) {
        if let (
            Some(JointPlan::Hinge {
                min_deg: a0,
                max_deg: b0,
                ..
            }),
            Some(JointPlan::Hinge {
                min_deg: a1,
                max_deg: b1,
                ..
            }),
        ) = (list[l].joint, list[r].joint)
        {
            let (lo, hi) = ((a0 + a1) / 2.0, (b0 + b1) / 2.0);
            for k in [l, r] {
                if let Some(JointPlan::Hinge {
                    min_deg, max_deg, ..
                }) = &mut list[k].joint
                {
                    *min_deg = lo.min(-1.0);
                    *max_deg = hi.max(lo + super::limits::MIN_RANGE_DEG);
                }
            }
        }
    }
}

pub(super) fn even_gains(a: &Anatomy, list: &mut [Body]) {
    for (l, r) in pairs(a, list) {
        let (x, y) = (list[l].gains, list[r].gains);
        let g = super::drives::Gains {
            stiffness: (x.stiffness + y.stiffness) / 2.0,
            damping: (x.damping + y.damping) / 2.0,
            max_torque: (x.max_torque + y.max_torque) / 2.0,
            follow_strength: (x.follow_strength + y.follow_strength) / 2.0,
            inertia: (x.inertia + y.inertia) / 2.0,
            load: (x.load + y.load) / 2.0,
        };
        list[l].gains = g;
        list[r].gains = g;
    }
}

/// The mirror image of a joint's range: a ball socket's lateral extents swap (+Z is inward on
/// one side, outward on the other) and its twist changes sign; a hinge's range is the same.
fn mirrored(j: JointPlan) -> JointPlan {
    match j {
        JointPlan::Ball {
            swing_deg: [py, ny, pz, nz],
            twist_deg: [lo, hi],
            swing_y,
        } => JointPlan::Ball {
            swing_deg: [py, ny, nz, pz],
            twist_deg: [-hi, -lo],
            swing_y,
        },
        h => h,
    }
}

/// The union of `j`'s range and `o`'s (the same kind; else `j`).
fn union(j: JointPlan, o: JointPlan) -> JointPlan {
    match (j, o) {
        (
            JointPlan::Ball {
                swing_deg: s,
                twist_deg: t,
                swing_y,
            },
            JointPlan::Ball {
                swing_deg: u,
                twist_deg: w,
                ..
            },
        ) => JointPlan::Ball {
            swing_deg: std::array::from_fn(|k| s[k].max(u[k])),
            twist_deg: [t[0].min(w[0]), t[1].max(w[1])],
            swing_y,
        },
        (
            JointPlan::Hinge {
                axis,
                min_deg,
                max_deg,
            },
            JointPlan::Hinge {
                min_deg: a,
                max_deg: b,
                ..
            },
        ) => JointPlan::Hinge {
            axis,
            min_deg: min_deg.min(a),
            max_deg: max_deg.max(b),
        },
        _ => j,
    }
}

/// Twins whose limits a clip widened get the union of both ranges (mirrored), so left and
/// right still agree when a clip reaches further on one side.
pub(super) fn even_widened(a: &Anatomy, list: &mut [Body]) {
    for (l, r) in pairs(a, list) {
        if let (Some(x), Some(y)) = (list[l].joint, list[r].joint) {
            list[l].joint = Some(union(x, mirrored(y)));
            list[r].joint = Some(union(y, mirrored(x)));
        }
    }
}
