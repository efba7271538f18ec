//! Mass ratios across joints: the one place of the rules the generator follows and the doctor
//! checks and fixes (pure arithmetic on masses and a parent table).
//!
//! An iterative solver holds a joint whose two bodies weigh about the same and gives way under
//! a large ratio: a heavy body hanging on a light one stretches the joint, a light body between
//! two heavy ones jitters at its limits (a generated spider's 0.23 kg leg link between a 1.59 kg
//! and a 0.44 kg body, 7:1, shook in its last second at 157% of its height per second).

/// Largest mass ratio across a joint, either way: the stability rule of every engine's
/// documentation (Unity's stability page, o3de). The generator keeps every jointed pair within
/// it; the doctor calls a pair beyond it an error.
pub const MAX_MASS_RATIO: f64 = 10.0;

/// Largest child/parent mass ratio: a heavy body hanging on a light one cannot hold its joint
/// (Jolt's documentation). The generator keeps every child within it; the doctor warns past
/// it.
pub const HEAVY_CHILD_RATIO: f64 = 2.0;

/// The child/parent mass ratios a joint holds: the child at least 1/[`MAX_MASS_RATIO`] of its
/// parent and at most [`HEAVY_CHILD_RATIO`] times it.
pub const CHILD_PARENT_RATIOS: [f64; 2] = [1.0 / MAX_MASS_RATIO, HEAVY_CHILD_RATIO];

/// The masses body `i` may have, its jointed neighbours' masses `m` as they are, within
/// [`CHILD_PARENT_RATIOS`] of its parent and of each of its children: [lo, hi], with lo > hi
/// when its neighbours leave it none (they are themselves out of ratio with each other).
pub fn allowed_mass(m: &[f64], parent: &[Option<usize>], i: usize) -> [f64; 2] {
    let [min_r, max_r] = CHILD_PARENT_RATIOS;
    let (mut lo, mut hi) = (0.0_f64, f64::INFINITY);
    if let Some(p) = parent[i] {
        lo = lo.max(m[p] * min_r);
        hi = hi.min(m[p] * max_r);
    }
    for (c, pc) in parent.iter().enumerate() {
        if *pc == Some(i) {
            lo = lo.max(m[c] / max_r);
            hi = hi.min(m[c] / min_r);
        }
    }
    [lo, hi]
}

/// Largest ratio of two jointed bodies' largest principal moments (as simulated, the inertia
/// floor included). The generator keeps every jointed pair within it; the doctor warns past
/// it.
pub const MAX_INERTIA_RATIO: f64 = 50.0;

/// What the inertia ratio reads: each body's largest principal moment per kilogram (world
/// units squared) and the simulation's inertia floor (kg * world units squared).
pub struct Moments<'a> {
    pub per_kg: &'a [f64],
    pub floor: f64,
}

impl Moments<'_> {
    /// Body `i`'s largest principal moment at mass `m`, floored.
    pub fn largest(&self, i: usize, m: f64) -> f64 {
        (self.per_kg[i] * m).max(self.floor)
    }

    /// Brings one jointed pair's inertia ratio within [`MAX_INERTIA_RATIO`] (5% inside):
    /// raises the smaller moment's body when its joints' mass ratios allow it
    /// ([`allowed_mass`]), else lowers the larger one's (a body at the floor gains nothing
    /// from mass: an avocado character's 1.9 kg clavicle under a fruit body with 63 times
    /// its floored moment). Returns whether a mass changed.
    fn even_pair(&self, m: &mut [f64], parent: &[Option<usize>], [a, b]: [usize; 2]) -> bool {
        let (ia, ib) = (self.largest(a, m[a]), self.largest(b, m[b]));
        let (big, small, i_big, i_small) = if ia >= ib {
            (a, b, ia, ib)
        } else {
            (b, a, ib, ia)
        };
        if i_big <= MAX_INERTIA_RATIO * i_small * (1.0 + 1e-9) {
            return false;
        }
        // 5% inside: the moments here and the simulation's differ a little (its capsule's
        // formula, the file's rounded sizes).
        let limit = MAX_INERTIA_RATIO * 0.95;
        let raised = i_big / limit / self.per_kg[small].max(f64::MIN_POSITIVE);
        if raised.is_finite() && raised <= allowed_mass(m, parent, small)[1] {
            m[small] = raised;
        } else {
            m[big] = limit * i_small / self.per_kg[big].max(f64::MIN_POSITIVE);
        }
        true
    }
}

/// Brings every jointed pair within [`CHILD_PARENT_RATIOS`] by raising its lighter body (a
/// light child to 1/[`MAX_MASS_RATIO`] of its parent, a light parent to 1/[`HEAVY_CHILD_RATIO`]
/// of its child, each 2% inside the bound), then scales all to `total`. Raising a body can put
/// it out of ratio with its other neighbour: the fix travels one joint per pass, so a long
/// chain needs as many passes as it has joints. With `moments`, each pair's inertia ratio is
/// brought within [`MAX_INERTIA_RATIO`] first ([`Moments::even_pair`]); the mass ratios, which
/// the solver needs more, come last in every pass.
pub fn cap(m: &mut [f64], parent: &[Option<usize>], total: f64, moments: Option<&Moments>) {
    let [min_r, max_r] = CHILD_PARENT_RATIOS;
    let slack = 1.0 + 1e-9;
    for _ in 0..(16 + 2 * m.len()) {
        let mut changed = false;
        for (i, p) in parent.iter().enumerate() {
            let Some(p) = *p else { continue };
            if let Some(mo) = moments {
                changed |= mo.even_pair(m, parent, [i, p]);
            }
            if m[i] * slack < min_r * m[p] {
                m[i] = m[p] * min_r / 0.98;
                changed = true;
            } else if m[i] > max_r * m[p] * slack {
                m[p] = m[i] / (max_r * 0.98);
                changed = true;
            }
        }
        scale_to(m, total);
        if !changed {
            break;
        }
    }
}

/// Scales masses to sum to `total` (left as they are when they cannot).
pub fn scale_to(m: &mut [f64], total: f64) {
    let s: f64 = m.iter().sum();
    if s > 0.0 && s.is_finite() && total.is_finite() {
        for x in m.iter_mut() {
            *x *= total / s;
        }
    }
}

/// Jolt's child/parent mass ratio bounds in `RagdollSettings::Stabilize` (`cMinMassRatio`,
/// `cMaxMassRatio`).
pub const JOLT_MIN_MASS_RATIO: f64 = 0.8;
pub const JOLT_MAX_MASS_RATIO: f64 = 1.2;

/// Evens the masses of one connected set of bodies as Jolt's `Stabilize` does (after Strunk,
/// "Stop my constraints from blowing up"): walking from the top down, each body gets its
/// parent's new mass times its original mass ratio to that parent, clamped to
/// [`min_ratio`, `max_ratio`] (child / parent); then the set is scaled back to its total mass. A light link
/// between two heavy ones is raised, and every other ratio in the set stays as it was when it
/// was already within the bound.
///
/// `members` lists the set parents first; a member whose parent is not in the set is a top
/// (ratio 1). Bodies outside `members` are not touched.
pub fn even(
    m: &mut [f64],
    parent: &[Option<usize>],
    members: &[usize],
    [min_ratio, max_ratio]: [f64; 2],
) {
    let (lo, hi) = (min_ratio.min(1.0), max_ratio.max(1.0));
    let mut share = vec![0.0; m.len()];
    let mut in_set = vec![false; m.len()];
    for &i in members {
        share[i] = match parent[i].filter(|&p| in_set[p]) {
            Some(p) if m[p] > 0.0 => share[p] * (m[i] / m[p]).clamp(lo, hi),
            _ => 1.0,
        };
        in_set[i] = true;
    }
    let total: f64 = members.iter().map(|&i| m[i]).sum();
    let shares: f64 = members.iter().map(|&i| share[i]).sum();
    if !(total > 0.0 && shares > 0.0 && total.is_finite()) {
        return;
    }
    for &i in members {
        m[i] = share[i] * total / shares;
    }
}

/// Each body's children, from a parent table.
fn children_of(parent: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); parent.len()];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(i);
        }
    }
    children
}

/// The chains of a tree of bodies, each parents first: a chain starts at a root or at a child
/// of a body with other than one child, and runs on through single children to a body with
/// none or several (its last). A limb (a leg, an arm with its clavicle, a tail, a neck and
/// head) is one chain; so is a spine between the pelvis and the chest.
pub fn chains(parent: &[Option<usize>]) -> Vec<Vec<usize>> {
    let n = parent.len();
    let children = children_of(parent);
    let starts = (0..n).filter(|&i| parent[i].is_none_or(|p| children[p].len() != 1));
    starts
        .map(|s| {
            let mut chain = vec![s];
            let mut at = s;
            while let [only] = children[at][..] {
                chain.push(only);
                at = only;
            }
            chain
        })
        .collect()
}

/// The connected trees of a set of bodies, each parents first (breadth first from its root).
pub fn trees(parent: &[Option<usize>]) -> Vec<Vec<usize>> {
    let n = parent.len();
    let children = children_of(parent);
    (0..n)
        .filter(|&i| parent[i].is_none())
        .map(|root| {
            let mut tree = vec![root];
            let mut next = 0;
            while next < tree.len() {
                tree.extend(children[tree[next]].iter().copied());
                next += 1;
            }
            tree
        })
        .collect()
}

/// Jolt's largest raise of a parent's inertia: at most twice its own largest moment.
pub const JOLT_MAX_INERTIA_INCREASE: f64 = 2.0;

/// The second half of Jolt's `RagdollSettings::Stabilize` (after Strunk, "Stop my constraints
/// from blowing up", slide 34): the least principal moment each body should have so that a
/// parent's inertia is at least the sum of its children's, their own children's included,
/// at most [`JOLT_MAX_INERTIA_INCREASE`] times its own largest. `largest[i]` is body i's
/// largest principal moment; None for a body without children (nothing to raise).
pub fn parent_inertia_minimums(largest: &[f64], parent: &[Option<usize>]) -> Vec<Option<f64>> {
    let mut below = vec![0.0; largest.len()];
    let mut has_child = vec![false; largest.len()];
    for tree in trees(parent) {
        for &i in tree.iter().rev() {
            if let Some(p) = parent[i] {
                below[p] += largest[i] + below[i];
                has_child[p] = true;
            }
        }
    }
    (0..largest.len())
        .map(|i| has_child[i].then(|| below[i].min(JOLT_MAX_INERTIA_INCREASE * largest[i])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_s_inertia_is_raised_to_its_children_s_sum_at_most_doubled() {
        // A pelvis with a spine (and its chest) and a thigh; largest moments per body.
        let parent = [None, Some(0), Some(1), Some(0)];
        let largest = [1.0, 1.0, 0.5, 0.25];
        let m = parent_inertia_minimums(&largest, &parent);
        // The pelvis: 1 + 0.5 + 0.25 = 1.75, within twice its 1. The spine: its chest's 0.5.
        assert_eq!(m, vec![Some(1.75), Some(0.5), None, None]);
        let light = parent_inertia_minimums(&[0.1, 5.0], &[None, Some(0)]);
        assert_eq!(light, vec![Some(0.2), None], "at most doubled");
    }

    #[test]
    fn a_light_link_between_heavy_ones_is_raised_and_the_total_kept() {
        // A spider's leg: body, thigh, light link, foot.
        let parent = [None, Some(0), Some(1), Some(2)];
        let mut m = [10.0, 1.59, 0.23, 0.44];
        let chain = chains(&parent);
        assert_eq!(chain, vec![vec![0, 1, 2, 3]]);
        even(
            &mut m,
            &parent,
            &[1, 2, 3],
            [JOLT_MIN_MASS_RATIO, JOLT_MAX_MASS_RATIO],
        );
        assert_eq!(m[0], 10.0, "outside the set");
        assert!((m[1] + m[2] + m[3] - 2.26).abs() < 1e-12, "{m:?}");
        for (c, p) in [(2, 1), (3, 2)] {
            let ratio = m[c] / m[p];
            assert!((0.8 - 1e-12..=1.2 + 1e-12).contains(&ratio), "{m:?}");
        }
    }

    #[test]
    fn cap_lifts_light_parents_and_light_children_and_keeps_the_total() {
        // Hips, upper spine, chest 2.9 times the spine, a hand a 20th of its chest.
        let parent = [None, Some(0), Some(1), Some(2)];
        let mut m = [11.5, 5.2, 15.0, 0.75];
        cap(&mut m, &parent, 32.45, None);
        assert!((m.iter().sum::<f64>() - 32.45).abs() < 1e-9, "{m:?}");
        let [lo, hi] = CHILD_PARENT_RATIOS;
        for (c, p) in [(1, 0), (2, 1), (3, 2)] {
            let r = m[c] / m[p];
            assert!((lo..=hi).contains(&r), "{c}: {r} in {m:?}");
            let [a, b] = allowed_mass(&m, &parent, c);
            assert!(a <= m[c] && m[c] <= b, "{c}: {m:?}");
        }
    }

    #[test]
    fn cap_brings_inertia_ratios_within_the_limit() {
        // A big body (1 unit^2 per kg, 80 times the floor) over a body that stays at the
        // floor whatever its mass (it lowers the big one) and one that can gain (it is
        // raised).
        let parent = [None, Some(0), Some(0)];
        let per_kg = [1.0, 1e-4, 0.02];
        let mo = Moments {
            per_kg: &per_kg,
            floor: 0.05,
        };
        let mut m = [4.0, 1.0, 1.0];
        cap(&mut m, &parent, 6.0, Some(&mo));
        assert!(m[0] < 4.0 && m[2] > 1.0, "{m:?}");
        for (a, b) in [(0, 1), (0, 2)] {
            let (ia, ib) = (mo.largest(a, m[a]), mo.largest(b, m[b]));
            assert!(ia.max(ib) / ia.min(ib) <= MAX_INERTIA_RATIO, "{m:?}");
        }
        assert!((m.iter().sum::<f64>() - 6.0).abs() < 1e-9, "{m:?}");
    }

    #[test]
    fn chains_split_at_branches_and_trees_at_roots() {
        // 0 pelvis: 1 spine - 2 chest (3 neck - 4 head, 5 arm), 6 thigh - 7 shin; 8 alone.
        let parent = [
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(2),
            Some(0),
            Some(6),
            None,
        ];
        let mut c = chains(&parent);
        c.sort();
        assert_eq!(
            c,
            vec![
                vec![0],
                vec![1, 2],
                vec![3, 4],
                vec![5],
                vec![6, 7],
                vec![8]
            ]
        );
        let t = trees(&parent);
        assert_eq!(t, vec![vec![0, 1, 6, 2, 7, 3, 5, 4], vec![8]]);
    }
}
