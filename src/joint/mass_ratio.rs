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

#[cfg(test)]
mod tests {
    use super::*;

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
