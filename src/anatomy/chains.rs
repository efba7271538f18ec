//! Chains and paths through the structural tree: legs reaching the ground, the path to the
//! highest or farthest point, limb paths down to their first branch.

use super::detect::Ctx;
use glam::DVec3;

/// A leg: the bone it hangs from and its path from the top down to the leaf.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub root: usize,
    pub path: Vec<usize>,
}

/// Two siblings are a mirrored pair when their heights and distances from their parent
/// differ by at most this share of that distance (an unnamed pair of eyes: 0; a raptor's
/// hips and its right front leg's top, on one bone, differ by 9.5% and are no pair)...
const PAIR_TOLERANCE: f64 = 0.03;
/// ...and they lie at least this share of it apart.
const PAIR_SPREAD: f64 = 0.3;

/// How much nearer one leg of a pair may hang to its joint than the other, or how much
/// higher, as a share of their distance apart.
const LEG_PAIR_SLACK: f64 = 0.2;

/// How far above the floor a leg's twin may lift its end, as a share of the height.
pub const LIFTED_LEG: f64 = 0.25;

impl Ctx<'_> {
    /// Chains whose lowest point reaches the ground and that hang down from their root: legs.
    /// The root is the first branch above the leaf whose other branches reach out (toes and
    /// fingers do not), far enough from the leaf; wing, tail, hair and clothing chains are not
    /// legs. A chain lifted off the ground by up to [`LIFTED_LEG`] of the height is a leg
    /// when a leg on the ground hangs from the same root with as many bones: its twin, the
    /// paw a walking animal lifts in its rest pose.
    pub fn ground_chains(&self) -> Vec<Chain> {
        let rig = self.rig;
        let leaves: Vec<usize> = (0..rig.len())
            .filter(|&i| rig.bones[i].structural && rig.s_children[i].is_empty())
            .collect();
        let mut out: Vec<Chain> = Vec::new();
        for &leaf in &leaves {
            if self.lifted(leaf) <= 0.1 * self.height {
                self.add_chain(&mut out, leaf);
            }
        }
        for &leaf in &leaves {
            let lifted = self.lifted(leaf);
            if lifted <= 0.1 * self.height || lifted > LIFTED_LEG * self.height {
                continue;
            }
            let Some(c) = self.hanging_chain(leaf) else {
                continue;
            };
            let twin = out.iter().any(|o| {
                o.root == c.root && o.path.len() == c.path.len() && o.path[0] != c.path[0]
            });
            if twin {
                self.add_chain(&mut out, leaf);
            }
        }
        out
    }

    /// How far the lowest point under `leaf` lies above the floor there.
    fn lifted(&self, leaf: usize) -> f64 {
        self.reach.low[leaf] - self.floor_at(self.rig.bones[leaf].pos)
    }

    /// The chain from `leaf` up to its root when it hangs down from it and is no wing, tail,
    /// hair or clothing (wherever its lowest point is).
    fn hanging_chain(&self, leaf: usize) -> Option<Chain> {
        let rig = self.rig;
        let (_, root) = self.leg_root(leaf)?;
        let path: Vec<usize> = std::iter::once(leaf)
            .chain(rig.ancestors(leaf).into_iter().take_while(|&b| b != root))
            .collect();
        let not_a_leg = |b: &usize| {
            let h = &rig.bones[*b].hints;
            h.tail || h.cloth || h.words.iter().any(|w| w == "wing")
        };
        // Bones named as hip bones alone are no leg: a Rigify wolf sat on its haunches
        // reaches the ground with its `pelvis.L/R`, and with them for legs it had six.
        if path.iter().any(not_a_leg) || path.iter().all(|&b| self.named_girdle(b)) {
            return None;
        }
        // From the higher of the root and the chain's top: an armature's root bone at the
        // feet, skinned as the pelvis, with the thighs on it (a druid rig's `root` at y = 0,
        // `thigh left` at 0.77 of its 1.67), had no leg hanging from it.
        let top = rig.bones[root].pos.y.max(rig.bones[*path.last()?].pos.y);
        let drop = top - self.reach.low[leaf];
        if drop < 0.2 * self.dist(root, leaf) || drop < 0.1 * self.height {
            return None;
        }
        Some(Chain {
            root,
            path: path.into_iter().rev().collect(),
        })
    }

    /// Adds the chain ending at `leaf` to `out`; of two chains from one top, the one reaching
    /// lower is kept.
    fn add_chain(&self, out: &mut Vec<Chain>, leaf: usize) {
        let Some(c) = self.hanging_chain(leaf) else {
            return;
        };
        let top = c.path[0];
        match out.iter_mut().find(|o| o.path.first() == Some(&top)) {
            Some(o) if self.reach.low[leaf] < self.reach.low[*o.path.last().unwrap_or(&top)] => {
                o.path = c.path;
            }
            Some(_) => {}
            None => out.push(c),
        }
    }

    /// (chain top, root) of the leg ending at `leaf`: the first ancestor with two structural
    /// children, farther than 12% of the height from the leaf, another of whose branches
    /// reaches out more than 10% of the height by a bone not named as a digit (a bear's paw is
    /// a tenth of its height across: its toes reached out from each other, and its legs
    /// ended at the paw). A bone at the end of a chain reaches as far
    /// as its skin ([`Ctx::reach_of`]): a chibi's leg is one short bone whose head is at the
    /// hip, and measured by the bones' heads alone its legs reached nowhere.
    fn leg_root(&self, leaf: usize) -> Option<(usize, usize)> {
        let rig = self.rig;
        let mut a = leaf;
        for _ in 0..rig.len() {
            let p = rig.s_parent[a]?;
            let reaches = |c: usize| {
                rig.subtree(c)
                    .iter()
                    .any(|&d| !is_digit(rig, d) && self.reach_of(p, d) > 0.1 * self.height)
            };
            let branch = rig.s_children[p].iter().any(|&c| c != a && reaches(c));
            if branch && self.reach_of(p, leaf) > 0.12 * self.height {
                return Some((a, p));
            }
            a = p;
        }
        None
    }

    /// How far bone `d` reaches from bone `p`'s head: to `d`'s head, or, for a bone at the
    /// end of a chain (no structural child marks its far end), to the far end of its skin.
    pub fn reach_of(&self, p: usize, d: usize) -> f64 {
        let (from, head) = (self.rig.bones[p].pos, self.rig.bones[d].pos);
        let end = self.rig.s_children[d].is_empty();
        let far = self.reach.far_end[d].filter(|_| end);
        far.map_or(0.0, |f| f.distance(from))
            .max(head.distance(from))
    }

    /// From `from`, descend into the child whose subtree reaches highest (excluding `skip`),
    /// never into a chain named as a tail while another child is left: a Slowpoke's tail
    /// curls up above its head, and its torso climbed the tail (the tail's bones were its
    /// spine and chest, and it faced backwards).
    pub fn highest_path(&self, from: usize, skip: &[usize]) -> Vec<usize> {
        self.descend(from, skip, &self.reach.sub_high, true)
    }

    /// From `from`, descend into the child whose subtree reaches farthest from `origin`.
    pub fn farthest_path(&self, from: usize, origin: DVec3, skip: &[usize]) -> Vec<usize> {
        let far: Vec<f64> = (0..self.rig.len())
            .map(|i| {
                self.rig
                    .subtree(i)
                    .iter()
                    .map(|&b| self.rig.bones[b].pos.distance(origin))
                    .fold(0.0, f64::max)
            })
            .collect();
        self.descend(from, skip, &far, false)
    }

    /// From `from`, step into the child (not in `skip`; with `no_tails`, not named as a tail
    /// while another is left, nor as hair, clothing or a part of the face) with the largest
    /// `score` until a leaf;
    /// end bones trimmed. (Hair: a Rigify Miku's pigtails hang from her head and rise above
    /// it, and the torso's path to the highest point ran up them: a hair bone was her head,
    /// her head her neck.)
    fn descend(&self, from: usize, skip: &[usize], score: &[f64], no_tails: bool) -> Vec<usize> {
        let mut path = Vec::new();
        let mut cur = from;
        let tail = |c: &usize| no_tails && self.rig.bones[*c].hints.tail;
        let cloth = |c: &usize| no_tails && self.rig.bones[*c].hints.cloth;
        let facial = |p: usize, c: usize| no_tails && self.facial(p, c);
        for _ in 0..self.rig.len() {
            let open: Vec<usize> = self.rig.s_children[cur]
                .iter()
                .copied()
                .filter(|&c| !(skip.contains(&c) || cloth(&c) || facial(cur, c)))
                .collect();
            let untailed = open.iter().any(|c| !tail(c));
            // The torso runs along the midline: never into one of a pair (eyes above the
            // head bone, a spider's legs, a bird's brows), and it ends where only pairs go on.
            let midline: Vec<usize> = match no_tails {
                true => open
                    .iter()
                    .copied()
                    .filter(|&c| !self.paired(cur, c, &open))
                    .collect(),
                false => open,
            };
            let next = midline
                .into_iter()
                .filter(|c| !(untailed && tail(c)))
                .max_by(|&a, &b| score[a].total_cmp(&score[b]));
            let Some(n) = next else { break };
            path.push(n);
            cur = n;
        }
        self.trim(path)
    }

    /// Is child `c` of `parent` one of a pair among `siblings`: a sibling named for the
    /// other side, or one with as many bones below it at the same height and distance from
    /// the parent, set apart from it (its mirror image across a plane through the parent)?
    fn paired(&self, parent: usize, c: usize, siblings: &[usize]) -> bool {
        let bones = &self.rig.bones;
        let (at, p) = (bones[parent].pos, bones[c].pos);
        let d = p.distance(at);
        siblings.iter().any(|&o| {
            if o == c {
                return false;
            }
            if self.named_apart(c, o) {
                return true;
            }
            let q = bones[o].pos;
            let e = q.distance(at);
            let tol = PAIR_TOLERANCE * d.max(e);
            let alike = self.rig.subtree(c).len() == self.rig.subtree(o).len();
            alike
                && (p.y - q.y).abs() <= tol
                && (d - e).abs() <= tol
                && p.distance(q) > PAIR_SPREAD * d
        })
    }

    /// Whether bones `a` and `b` are named for two sides.
    fn named_apart(&self, a: usize, b: usize) -> bool {
        let bones = &self.rig.bones;
        matches!((bones[a].hints.side, bones[b].hints.side), (Some(x), Some(y)) if x != y)
    }

    /// Whether two of `tops`, hanging from `parent`, are a pair as a pose leaves one: named
    /// for two sides, or about as far from it and about as high (each within
    /// [`LEG_PAIR_SLACK`] of their distance apart), as mirror images across a plane through it
    /// are, turned or rolled a little by the pose. Looser than [`Ctx::paired`]'s siblings: a
    /// biped's legs (a shark's jaw and its pectoral fins, one ahead of the other on its root,
    /// were a biped's legs), an animal's ears (a pig's, 4% of their distance apart out of
    /// level).
    pub fn a_loose_pair(&self, parent: usize, tops: &[usize]) -> bool {
        let bones = &self.rig.bones;
        let at = bones[parent].pos;
        let pair = |a: usize, b: usize| {
            let (p, q) = (bones[a].pos, bones[b].pos);
            let slack = LEG_PAIR_SLACK * p.distance(q);
            let level = (p.y - q.y).abs() <= slack;
            self.named_apart(a, b)
                || (slack > 0.0 && level && (p.distance(at) - q.distance(at)).abs() <= slack)
        };
        (tops.iter().enumerate()).any(|(i, &a)| tops[i + 1..].iter().any(|&b| pair(a, b)))
    }

    /// The limb path down to its first branch (the hand or foot), end bones trimmed.
    pub fn limb_path(&self, top: usize) -> Vec<usize> {
        let mut path = vec![top];
        let mut cur = top;
        for _ in 0..self.rig.len() {
            let mut children =
                (self.rig.s_children[cur].iter().copied()).filter(|&c| !self.stub(cur, c));
            match (children.next(), children.next()) {
                (Some(only), None) => {
                    path.push(only);
                    cur = only;
                }
                _ => break,
            }
        }
        self.trim(path)
    }

    /// Whether child `c` of bone `p` is one of a face rig's small bones: named as the face or
    /// under a bone so named, and reaching (with the bones below it) less than
    /// [`FACE_PART_REACH`] of the height from `p`'s head. A Rigify face's nose hung from the
    /// head reached highest, and was the head. A web game's `face` bone that is the whole
    /// skull, on a short neck, reaches far: it goes on being the head.
    fn facial(&self, p: usize, c: usize) -> bool {
        self.rig.bones[c].hints.face
            && (self.rig.subtree(c).into_iter())
                .all(|d| self.reach_of(p, d) < FACE_PART_REACH * self.height)
    }

    /// Whether child `c` of bone `p` is a stub, no branch of a limb: a bone with nothing below
    /// it that reaches (by its head and its skin) less than [`STUB_REACH`] of the height from
    /// `p`'s head. MakeHuman's `butt.L` sits on the thigh's head, weighted a little and
    /// dominating no vertex: the leg stopped at the thigh, its shin, foot and toe read by
    /// geometry alone and the toe as no toe (a body of its own, under the ground).
    fn stub(&self, p: usize, c: usize) -> bool {
        self.rig.s_children[c].is_empty() && self.reach_of(p, c) < STUB_REACH * self.height
    }

    /// The child chain of `from` reaching farthest from it, skipping `skip` (a tail).
    pub fn limb_path_from(&self, from: usize, skip: &[usize]) -> Option<Vec<usize>> {
        let origin = self.rig.bones[from].pos;
        let reach_of = |t: usize| {
            self.rig
                .subtree(t)
                .iter()
                .map(|&b| self.rig.bones[b].pos.distance(origin))
                .fold(0.0, f64::max)
        };
        let c = self.rig.s_children[from]
            .iter()
            .copied()
            .filter(|c| !skip.contains(c))
            .max_by(|&x, &y| reach_of(x).total_cmp(&reach_of(y)))?;
        if reach_of(c) < 0.1 * self.height {
            return None;
        }
        let mut path = vec![c];
        path.extend(self.farthest_path(c, origin, &[]));
        Some(self.trim(path))
    }
}

/// A face bone reaching less than this share of the height is a part of the face, not the
/// head ([`Ctx::facial`]).
const FACE_PART_REACH: f64 = 0.1;

/// A leaf bone reaching less than this share of the height from its parent's head is a stub
/// ([`Ctx::stub`]).
const STUB_REACH: f64 = 0.02;

/// A bone named as a finger, a toe or a palm: part of a hand or a paw, never a branch of its
/// own.
fn is_digit(rig: &super::rig::Rig, b: usize) -> bool {
    let h = &rig.bones[b].hints;
    h.finger || h.toe || h.words.iter().any(|w| w == "palm")
}
