//! A leg stands on its foot: no other body of a leg reaches below the lowest point of the
//! leg's foot at rest by more than the fits' tolerance. A rig's skeleton can reach below its
//! skin (the Mixamo Bone Lizard's ankles lie 13 cm under its feet's skin), and a shin fitted
//! along such a bone reached 10 cm below the foot: it touched the ground before the feet, so
//! no foot counted as grounded, and the character rolled over on its shins standing still.
//! A little below is as bad: a chunky Saxon's boots (a shin capsule reaching 3.1 cm, 1.8% of
//! its height, under the ground behind its heels) started in the ground, Rapier pushed them
//! out, the heels rose onto the toes and it fell forward 2.6 s into standing at assist 0.

use super::fit::{self, WorldFit};
use super::roles::Anatomy;
use super::{balance, Body};

/// How far below its leg's sole a body above the foot may reach, as a share of the height.
/// Every body that passes the sole is in the ground at rest, pushed out at the first step;
/// measured on 139 files (the zoo, the bundled assets, Mixamo, Quaternius and web characters,
/// turned and tilted copies), the deepest left standing is the Godot robot's shin guards at
/// 0.29% (6 mm); the Saxon's boots at 1.8% fell (2% before session 38).
pub const SOLE_TOLERANCE: f64 = 0.01;

/// Raises every leg body above the leg's foot ([`balance::leg_foot`], the body balance
/// stands on) that reaches below the leg's sole (the lowest point of the foot and the bodies
/// below it: toes) by more than [`SOLE_TOLERANCE`] up to the sole: a capsule's lower end
/// moves up along its axis, or its radius shrinks (`fit::floor_capsule`).
/// `own_points(i)` gives body `i`'s skin, to measure its coverage again. Legs without a foot
/// body are left as they are.
pub(super) fn keep_legs_above_their_soles(
    a: &Anatomy,
    list: &mut [Body],
    own_points: impl Fn(usize) -> Vec<glam::DVec3>,
) {
    let inflate = 0.02 * a.height;
    let below = SOLE_TOLERANCE * a.height;
    let min_radius = 0.008 * a.height;
    for (k, leg) in a.limbs.iter().enumerate().filter(|(_, l)| l.kind.is_leg()) {
        let Some(foot) = balance::leg_foot(a, list, leg) else {
            continue;
        };
        let at = |bone: usize| leg.path.iter().position(|&p| p == bone);
        let foot_at = at(list[foot].bone);
        let above = |b: &Body| matches!((at(b.bone), foot_at), (Some(p), Some(f)) if p < f);
        let in_limb = |b: &Body| a.limb_of[b.bone] == Some(k);
        let Some(sole) = (list.iter())
            .filter(|b| in_limb(b) && !above(b))
            .map(|b| fit::lowest_y(&b.shape.fit))
            .reduce(f64::min)
        else {
            continue;
        };
        for (i, b) in list.iter_mut().enumerate() {
            if !in_limb(b) || !above(b) || fit::lowest_y(&b.shape.fit) >= sole - below {
                continue;
            }
            let raised: WorldFit = fit::floor_capsule(b.shape.fit, sole, min_radius);
            let coverage = fit::coverage(&own_points(i), &raised, inflate);
            b.shape.fit = WorldFit { coverage, ..raised };
        }
    }
}
