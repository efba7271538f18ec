//! Structural roots other than the main one (a deforming bone whose ancestors are all control
//! bones, a foot under an IK bone at the armature's root) attached to the nearest structural
//! bone already attached ([`Rig::nearness`]: its head, or its tail as its skin shows it). The
//! main root is the central one (no side in its name) with the largest structural subtree,
//! the lowest on a tie. Central roots attach before sided ones; among the nearly nearest
//! bones a central one wins, then the shallowest; a sided root never hangs from a bone of the
//! other side. Roots farther than a third of the skeleton's extent stay apart, but for roots
//! the file hangs beside the main one. A root under a control copy hangs from the bone the
//! copy stands for ([`super::copies`]) before anything nearer.

use super::names::Side;
use super::rig::Rig;
use super::samples::Samples;
use std::collections::HashMap;

/// How near (a share of the skeleton's extent) an orphan's head may lie to the bone its name
/// says it hangs from ([`Rig::parent_name`]).
const NAMED_PARENT_REACH: f64 = 0.125;

/// Where each orphan hangs, `(orphan, new parent)`, in the order decided (the skeleton is
/// read, not changed: the caller applies them).
pub(super) fn plan(rig: &Rig, samples: &Samples) -> Vec<(usize, usize)> {
    let roots: Vec<usize> = (0..rig.len())
        .filter(|&i| rig.bones[i].structural && rig.s_parent[i].is_none())
        .collect();
    if roots.len() < 2 || roots.len() > 256 {
        return Vec::new();
    }
    let main = rig.main_root(&roots);
    let mut orphans: Vec<usize> = roots.into_iter().filter(|&r| r != main).collect();
    let mut at = Attacher::new(rig, samples, main, &orphans);
    let mut moves = Vec::new();
    while !orphans.is_empty() {
        match at.next(&orphans) {
            Some((k, to)) => {
                let r = orphans.swap_remove(k);
                at.attach(r, to);
                moves.push((r, to));
            }
            // A skeleton of its own (another character in the file, far from the first): the
            // largest root left is its main root, and the roots beside it hang from it (a
            // cat's tail beside its pelvis, as in a file of the cat alone).
            None => {
                let m = rig.main_root(&orphans);
                orphans.retain(|&r| r != m);
                at.add_main(m);
                at.separate = Some(rig.extent_of(&rig.subtree(m)));
            }
        }
    }
    moves
}

/// The state of the attachment: which bones hang from the main root so far, and how deep.
struct Attacher<'a> {
    rig: &'a Rig,
    samples: &'a Samples,
    extent: f64,
    /// Per root, the main root the file hangs it beside: it hangs from that one however far
    /// it reaches, unless a bone lies clearly nearer (a Quaternius rat's feet, IK bones under
    /// its `root` beside `Body`, at its shins' ends).
    beside_main: Vec<Option<usize>>,
    /// The bone each orphan's control copy stands for.
    copied: Vec<Option<usize>>,
    depth: Vec<usize>,
    attached: Vec<usize>,
    near: HashMap<(usize, usize), f64>,
    /// Past the first skeleton, the extent of the skeleton being grown: a root attaches by
    /// nearness within a third of it, not of the whole file's (four cats side by side in one
    /// file: each cat's tail beside its pelvis, never a cat on another).
    separate: Option<f64>,
}

impl<'a> Attacher<'a> {
    fn new(rig: &'a Rig, samples: &'a Samples, main: usize, orphans: &[usize]) -> Self {
        let extent = rig.extent();
        let structural: Vec<usize> = (0..rig.len())
            .filter(|&i| rig.bones[i].structural)
            .collect();
        let copied = (0..rig.len())
            .map(|r| match orphans.contains(&r) {
                true => rig.copied_parent(r, &structural, extent),
                false => None,
            })
            .collect();
        let mut at = Attacher {
            rig,
            samples,
            extent,
            beside_main: vec![None; rig.len()],
            copied,
            depth: vec![usize::MAX; rig.len()],
            attached: Vec::new(),
            near: HashMap::new(),
            separate: None,
        };
        at.add_main(main);
        at
    }

    /// Roots a skeleton at `main`: attached, at depth 0, with the roots beside it.
    fn add_main(&mut self, main: usize) {
        self.rig.mark(main, 0, &mut self.depth, &mut self.attached);
        for (slot, beside) in self.beside_main.iter_mut().zip(self.rig.beside(main)) {
            if beside && slot.is_none() {
                *slot = Some(main);
            }
        }
    }

    fn side(&self, i: usize) -> Option<Side> {
        self.rig.bones[i].hints.side
    }

    fn sided(&self, i: usize) -> bool {
        self.side(i).is_some()
    }

    /// A sided bone never hangs from a bone of the other side.
    fn may(&self, r: usize, b: usize) -> bool {
        self.side(r).is_none() || self.side(b).is_none_or(|s| Some(s) == self.side(r))
    }

    fn dist(&mut self, r: usize, b: usize) -> f64 {
        let (rig, samples) = (self.rig, self.samples);
        *self
            .near
            .entry((r, b))
            .or_insert_with(|| rig.nearness(samples, r, b))
    }

    fn attach(&mut self, r: usize, to: usize) {
        self.rig
            .mark(r, self.depth[to] + 1, &mut self.depth, &mut self.attached);
    }

    /// The bone orphan `r`'s copy stands for, once attached.
    fn ready(&self, r: usize) -> Option<usize> {
        self.copied[r].filter(|&c| self.depth[c] != usize::MAX)
    }

    /// The next orphan to attach (its index in `orphans`) and the bone it hangs from: first
    /// one whose copy's bone is attached; then by nearness, the others with a copy waiting
    /// for theirs while an orphan without one is left.
    fn next(&mut self, orphans: &[usize]) -> Option<(usize, usize)> {
        let ready = (orphans.iter().enumerate()).find_map(|(k, &r)| Some((k, self.ready(r)?)));
        if ready.is_some() {
            return ready;
        }
        let (k, r, d) = self.nearest_orphan(orphans)?;
        Some((k, self.parent_for(r, d)))
    }

    /// The orphan nearest an attached bone (central ones first), with that distance.
    fn nearest_orphan(&mut self, orphans: &[usize]) -> Option<(usize, usize, f64)> {
        let all_wait = orphans.iter().all(|&r| self.copied[r].is_some());
        let mut found = Vec::new();
        for (k, &r) in orphans.iter().enumerate() {
            let mut d = f64::MAX;
            for j in 0..self.attached.len() {
                let b = self.attached[j];
                if self.may(r, b) {
                    d = d.min(self.dist(r, b));
                }
            }
            let waits = self.copied[r].is_some() && !all_wait;
            let beside = self.beside_main[r].is_some();
            let near = d < self.separate.unwrap_or(self.extent) / 3.0;
            if !waits && (near || beside) {
                found.push((k, r, d));
            }
        }
        (found.into_iter())
            .min_by(|x, y| (self.sided(x.1).cmp(&self.sided(y.1))).then(x.2.total_cmp(&y.2)))
    }

    /// The bone orphan `r`, `d` from the nearest attached bone, hangs from: the bone its name
    /// says it hangs from when that lies near, else among the nearly nearest a central one,
    /// then the shallowest (the main root for a root beside it that lies no nearer to it).
    fn parent_for(&mut self, r: usize, d: f64) -> usize {
        let tolerance = d + 0.02 * self.extent;
        let mut close = Vec::new();
        for j in 0..self.attached.len() {
            let b = self.attached[j];
            if self.may(r, b) && self.dist(r, b) <= tolerance {
                close.push(b);
            }
        }
        let nearest = (close.into_iter())
            .min_by_key(|&b| (self.sided(b), self.depth[b]))
            .expect("the nearest is within its own tolerance");
        let beside = self.beside_main[r];
        let nearest = match beside {
            Some(main) if d > 0.5 * self.dist(r, main) => main,
            _ => nearest,
        };
        let Some(want) = self.rig.parent_name(r) else {
            return nearest;
        };
        let mut named = Vec::new();
        for j in 0..self.attached.len() {
            let b = self.attached[j];
            if self.rig.named_as(b, want) {
                let db = self.dist(r, b);
                if db < NAMED_PARENT_REACH * self.extent {
                    named.push((b, db));
                }
            }
        }
        (named.into_iter())
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .map_or(nearest, |(b, _)| b)
    }
}
