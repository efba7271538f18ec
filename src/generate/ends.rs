//! A leg's foot whose bone carries no skin: Mixamo's auto-rigger leaves many characters'
//! `LeftFoot` unweighted (a knight, a bat, a cat, a lizard, an armoured robot), the foot's
//! vertices on `LeftLeg`. The shin's capsule then reached down to the ground through the
//! foot, the balance stood on its round end, and at assist 0 those characters fell in about
//! 1.4 s. The anatomy continues the leg to a bone named as its foot
//! (`anatomy::rig::named_limb_ends`, `anatomy::evidence::extend_limbs`); here that bone takes
//! the shin's vertices that lie past the ankle (along the shin), so the foot is fitted to the
//! foot and the shin ends at the ankle.

use super::rig::Rig;
use super::roles::{Anatomy, Role};
use glam::DVec3;

/// Whether `p` lies past the joint of bone `end` along the segment from bone `above`.
fn past(rig: &Rig, (above, end): (usize, usize), p: DVec3) -> bool {
    let (from, at) = (rig.bones[above].pos, rig.bones[end].pos);
    (p - at).dot(at - from) > 0.0
}

/// Whether bone `end` is a foot without any skin of its own (`own`: its bone's
/// vertices, not its merged toes': Relic and Droid v2 weight their toes but not their feet),
/// kept by its name (`anatomy::rig`), which takes vertices from the segment above it. A foot with
/// a few vertices keeps its own (the VRM 0 avocado's right foot has 2, its left 76; its feet
/// stay evened to the left's); a foot the VRM map names keeps the box its bone's length gives
/// (the VRM 1 rigid-parts model's foot is a rigid cube on the lower leg centred on the
/// ankle, which a split at the ankle halves: its tuned file then survived 7 pushes of 8, not 8).
pub fn takes_skin(rig: &Rig, a: &Anatomy, end: usize, own: usize) -> bool {
    a.role[end] == Role::Foot && own == 0 && rig.bones[end].end_by_name
}

/// How many of `points` (the skin of bone `above`'s body) lie past bone `end`'s joint.
pub fn count_past(rig: &Rig, (above, end): (usize, usize), points: &[DVec3]) -> usize {
    points
        .iter()
        .filter(|p| past(rig, (above, end), **p))
        .count()
}

/// Splits `points` of bone `above`'s body at bone `end`'s joint: (kept, past).
pub fn split(
    rig: &Rig,
    (above, end): (usize, usize),
    points: Vec<DVec3>,
) -> (Vec<DVec3>, Vec<DVec3>) {
    points
        .into_iter()
        .partition(|p| !past(rig, (above, end), *p))
}

/// A foot's sole from its skeleton, for a foot whose shin leaves it too few vertices (a knight's
/// 10): the corners of a box from a heel behind the ankle to the farthest bone below the foot
/// (its toes' end), as wide as [`SOLE_WIDTH`] of its length, from the ground to half the
/// ankle's height. Empty when nothing lies below the foot or it is shorter than 2% of the
/// height.
pub fn sole_points(rig: &Rig, a: &Anatomy, foot: usize) -> Vec<DVec3> {
    let ankle = rig.bones[foot].pos;
    let flat = |v: DVec3| v - a.up * v.dot(a.up);
    let below = rig.subtree_all(foot).into_iter().skip(1);
    let Some(tip) = below.map(|j| rig.bones[j].pos).max_by(|x, y| {
        flat(*x - ankle)
            .length()
            .total_cmp(&flat(*y - ankle).length())
    }) else {
        return Vec::new();
    };
    let reach = flat(tip - ankle);
    let len = reach.length();
    if len < 0.02 * a.height {
        return Vec::new();
    }
    let fwd = reach / len;
    let side = a.up.cross(fwd).normalize() * (SOLE_WIDTH * len / 2.0);
    let ground = a.up * a.ground;
    let base = flat(ankle) + ground;
    let top = a.up * ((ankle.dot(a.up) - a.ground) / 2.0);
    let (heel, toe) = (base - fwd * (HEEL_SHARE * len), flat(tip) + ground);
    let mut out = Vec::new();
    for end in [heel, toe] {
        for s in [-1.0, 1.0] {
            for lift in [DVec3::ZERO, top] {
                out.push(end + side * s + lift);
            }
        }
    }
    out
}

/// A foot's width as a share of its length, ankle to toes (a person's: about 0.38).
pub const SOLE_WIDTH: f64 = 0.38;
/// How far the heel lies behind the ankle, as a share of the foot's length.
pub const HEEL_SHARE: f64 = 0.2;
