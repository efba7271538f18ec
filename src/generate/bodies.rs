//! Which bones become bodies: one per significant bone; fingers, toes, twist and roll bones,
//! helpers, end bones and bones smaller than the minimum size merge their skin into the
//! nearest kept ancestor, or are skipped when they have no skin.

use super::rig::Rig;
use super::roles::{topo_all, Anatomy, Role};
use super::samples::Samples;
use super::Options;

/// What happens to a bone.
#[derive(Debug, Clone, PartialEq)]
pub enum Fate {
    /// It gets a generated body.
    Body,
    /// It already has physics and the user asked to keep it.
    Kept,
    /// Its skin goes to another bone's body.
    Merged { into: usize, why: &'static str },
    /// No body, and no skin handed on (it has none, or it is a held prop's).
    Skipped { why: &'static str },
}

impl Fate {
    pub fn has_body(&self) -> bool {
        matches!(self, Fate::Body | Fate::Kept)
    }
}

/// The bodies of a character.
#[derive(Debug, Clone)]
pub struct Plan {
    pub fate: Vec<Fate>,
    /// The bone whose body holds each bone's skin (itself when it has a body).
    pub owner: Vec<Option<usize>>,
    /// Generated bodies, parents first.
    pub bodies: Vec<usize>,
    /// The body each body is jointed to (None for the root body).
    pub parent_body: Vec<Option<usize>>,
}

fn size_of(rig: &Rig, samples: &Samples, i: usize) -> f64 {
    let pos = rig.bones[i].pos;
    let len = rig.s_children[i]
        .iter()
        .map(|&c| rig.bones[c].pos.distance(pos))
        .fold(0.0, f64::max);
    let pts = &samples.by_bone[i];
    let ext = if pts.len() >= super::fit::MIN_POINTS {
        let e = super::fit::spread(pts, [glam::DVec3::X, glam::DVec3::Y, glam::DVec3::Z]);
        e.max_element()
    } else {
        0.0
    };
    len.max(ext)
}

/// A bone below a hand whose skin spans more than this share of the height is a held prop (a
/// lumberjack's axe), not a finger: merged into the hand, it made the hand a 0.29 kg capsule
/// 1 m across that propped the fallen body and kept it creeping at 1-2% of its height per
/// second until it toppled over (at 13-16 s; 7 s with other masses); with a hand-sized hand
/// it rests at 0.2% from 10 s. The prop gets no body and hands its skin to none (it moves
/// with its bone, as drawn).
pub const HELD_PROP_SHARE: f64 = 0.25;

/// What a bone's fate depends on besides the bone itself.
struct FateRules<'a> {
    rig: &'a Rig,
    samples: &'a Samples,
    anatomy: &'a Anatomy,
    opts: &'a Options,
    has_physics: &'a [bool],
    /// Bones smaller than this merge into their parent (file units).
    min_size: f64,
    /// The root body's bone ([`root_body`]) and its ancestors (helpers above it).
    root: Option<usize>,
    above_root: Vec<usize>,
}

/// The bone of the root body: the pelvis, or the chest where the file hangs the pelvis below
/// it (a creature rigged from its shoulders).
fn root_body(rig: &Rig, a: &Anatomy) -> Option<usize> {
    let pelvis = a.pelvis?;
    match a.chest {
        Some(c) if rig.ancestors(pelvis).contains(&c) => Some(c),
        _ => Some(pelvis),
    }
}

/// A bone being decided, with what its parent's fate already settled.
struct Candidate {
    bone: usize,
    /// The bone whose body holds the parent's skin (None: no such body).
    parent_owner: Option<usize>,
    /// How many skin vertices the bone itself has.
    skin_vertices: usize,
}

impl FateRules<'_> {
    /// Is the bone at least `min` (file units) from the body its parent's skin went to?
    fn far_enough(&self, c: &Candidate, min: f64) -> bool {
        let pos = self.rig.bones[c.bone].pos;
        c.parent_owner
            .is_none_or(|o| self.rig.bones[o].pos.distance(pos) >= min)
    }

    fn size(&self, bone: usize) -> f64 {
        size_of(self.rig, self.samples, bone)
    }

    /// How far the bone reaches: its size, or, for a bone that ends the structural tree, the
    /// farthest child joint the file gives it (`HeadTop_End`: a skeleton without a mesh still
    /// says where the skull ends; its head had been merged into the neck as zero length).
    fn reach(&self, bone: usize) -> f64 {
        let joint = self.rig.bones[bone].pos;
        (self.rig.children_in_file(bone))
            .map(|c| self.rig.bones[c].pos.distance(joint))
            .fold(self.size(bone), f64::max)
    }

    /// A finger bone reaching past a hand: what a hand holds ([`HELD_PROP_SHARE`]).
    fn held_prop(&self, bone: usize) -> bool {
        self.anatomy.role[bone] == Role::Finger
            && self.held_reach(bone) > HELD_PROP_SHARE * self.anatomy.height
    }

    /// How far a finger and the bones below it reach from its joint (their joints and skin;
    /// a rigid mesh hanging from one counts in its size only), or its own size when larger:
    /// a sword skinned to three bones of its own under the hand (`arme_020`, `arme2_021`,
    /// `arme3_022`: 0.45-0.5 each, under the 0.25-of-the-height share one by one) reaches 1 m
    /// from the hand, and had made the hand a 1.6 m capsule.
    fn held_reach(&self, bone: usize) -> f64 {
        let joint = self.rig.bones[bone].pos;
        (self.rig.subtree_all(bone).into_iter())
            .flat_map(|d| {
                let skinned = self.samples.skinned_len.get(d).copied().unwrap_or(0);
                let own = self.samples.by_bone[d].iter().take(skinned).copied();
                std::iter::once(self.rig.bones[d].pos).chain(own)
            })
            .map(|p| p.distance(joint))
            .fold(self.size(bone), f64::max)
    }

    /// A face rig's bone on the head (Rigify's `DEF-nose` and lids under `ORG-face`; a bat's
    /// `Face`, its nose and eyes): the head's skin. A fish's `Face` on its trunk keeps its
    /// body: that is its head.
    fn of_the_face(&self, c: &Candidate) -> bool {
        self.rig.bones[c.bone].hints.face
            && c.parent_owner
                .is_some_and(|o| self.anatomy.role[o] == Role::Head)
    }

    /// A foot without skin of its own that takes the vertices of the segment above it lying
    /// past its joint (`super::ends`), when there are enough of them or its skeleton gives it a
    /// sole.
    fn takes_skin_above(&self, c: &Candidate) -> bool {
        let min = super::fit::MIN_POINTS;
        c.parent_owner.is_some_and(|o| {
            super::ends::takes_skin(self.rig, self.anatomy, c.bone, c.skin_vertices)
                && (super::ends::count_past(self.rig, (o, c.bone), self.samples.body_skin(o))
                    >= min
                    || !super::ends::sole_points(self.rig, self.anatomy, c.bone).is_empty())
        })
    }

    /// The bone's fate: kept physics, the root body, a helper above it, or by its role.
    fn fate(&self, c: &Candidate) -> Fate {
        let i = c.bone;
        if self.opts.keep_existing && self.has_physics[i] {
            return Fate::Kept;
        }
        if self.samples.is_left_out(i) {
            return Fate::Skipped {
                why: "another character in the file",
            };
        }
        if Some(i) == self.anatomy.pelvis || Some(i) == self.root {
            return Fate::Body;
        }
        if self.above_root.contains(&i) {
            return match self.root {
                Some(p) if c.skin_vertices > 0 => Fate::Merged {
                    into: p,
                    why: "above the root body",
                },
                _ => Fate::Skipped {
                    why: "helper above the root body, no skin",
                },
            };
        }
        self.fate_by_role(c)
    }

    /// The fate of a bone below the root body, from its role, size and skin.
    fn fate_by_role(&self, c: &Candidate) -> Fate {
        let (i, opts, skin) = (c.bone, self.opts, c.skin_vertices);
        let min_size = self.min_size;
        let into = |why: &'static str| match c.parent_owner {
            Some(o) => Fate::Merged { into: o, why },
            None => Fate::Skipped { why },
        };
        match self.anatomy.role[i] {
            Role::Girdle => into("a hip bone: part of the pelvis"),
            Role::Twist if opts.twist => Fate::Body,
            Role::Twist => into("twist or roll bone"),
            Role::Helper if skin == 0 && self.samples.carried.get(i).is_some_and(|&n| n > 0) => {
                Fate::Skipped {
                    why: "carries a prop, not the body",
                }
            }
            Role::Helper if skin == 0 => Fate::Skipped {
                why: "helper or end bone with no skin",
            },
            Role::Helper => into("helper or end bone"),
            Role::Finger
                if self.held_prop(i)
                    || self.rig.bones[i].parent.is_some_and(|p| self.held_prop(p)) =>
            {
                Fate::Skipped {
                    why: "a held prop, not a finger: it reaches past a hand",
                }
            }
            Role::Finger if opts.fingers && self.size(i) >= min_size / 2.0 => Fate::Body,
            Role::Finger => into("finger"),
            Role::Toe if opts.toes => Fate::Body,
            Role::Toe => into("toe"),
            Role::Tail if !opts.tail => into("tail bones are off"),
            Role::Tail if self.far_enough(c, min_size) => Fate::Body,
            // Judged by where its joint lies, not by its length (a Minecraft player's 0.37 m
            // `Body` on a zero-length `center` was "smaller than the minimum bone size").
            Role::Tail => {
                into("too near the joint of the body above it (within the minimum bone size)")
            }
            Role::Spine | Role::Neck if !self.far_enough(c, min_size / 2.0) => {
                into("too near the joint of the body above it (within half the minimum bone size)")
            }
            Role::Other if !opts.cloth && self.rig.bones[i].hints.cloth => Fate::Skipped {
                why: "hair or clothing (--cloth gives it a body)",
            },
            Role::Other if self.of_the_face(c) => into("part of the face"),
            Role::Other if c.parent_owner.is_none() && skin < super::fit::MIN_POINTS => {
                Fate::Skipped {
                    why: "not part of the character's skeleton",
                }
            }
            Role::Other if !(self.far_enough(c, min_size) && self.size(i) >= min_size) => {
                into("smaller than the minimum bone size")
            }
            Role::Foot if self.takes_skin_above(c) => Fate::Body,
            _ if skin == 0 && self.reach(i) < 1e-3 * self.anatomy.height => {
                into("zero length and no skin")
            }
            _ => Fate::Body,
        }
    }
}

/// Decides every bone's fate, parents first.
pub fn plan(
    rig: &Rig,
    samples: &Samples,
    anatomy: &Anatomy,
    opts: &Options,
    has_physics: &[bool],
) -> Plan {
    let n = rig.len();
    let root = root_body(rig, anatomy);
    let rules = FateRules {
        rig,
        samples,
        anatomy,
        opts,
        has_physics,
        min_size: opts.min_bone_size * anatomy.height,
        root,
        above_root: root.map(|p| rig.ancestors(p)).unwrap_or_default(),
    };
    let mut fate = vec![Fate::Skipped { why: "not reached" }; n];
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let order = topo_all(rig);
    for &i in &order {
        let f = rules.fate(&Candidate {
            bone: i,
            parent_owner: rig.bones[i].parent.and_then(|p| owner[p]),
            skin_vertices: samples.by_bone[i].len(),
        });
        owner[i] = match &f {
            Fate::Body | Fate::Kept => Some(i),
            // `into` is a body: the parent's owner, or the root body, which a bone above
            // it merges into before the root body itself is decided (parents first).
            Fate::Merged { into, .. } => Some(*into),
            Fate::Skipped { .. } => None,
        };
        fate[i] = f;
    }
    let bodies: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| fate[i] == Fate::Body)
        .collect();
    let parent_body = parent_bodies(
        (rig, samples, anatomy.height),
        (&fate, &owner),
        rules.root,
        &rules.above_root,
    );
    Plan {
        fate,
        owner,
        bodies,
        parent_body,
    }
}

/// The body each bone with a body is jointed to: the owner of its parent's skin. A bone
/// above the root body stands for the root body, skinned (its skin merged there) or not: a
/// leg hanging from it is jointed to the root body (three.js's RobotExpressive: `Body`
/// parents both `Hips` and the legs; they were left loose, and the robot fell at 0.34 s
/// standing), unless it lies far from the root body and near another ([`nearer_body`]).
/// The root body itself has no parent.
fn parent_bodies(
    (rig, samples, height): (&Rig, &Samples, f64),
    (fate, owner): (&[Fate], &[Option<usize>]),
    root_body: Option<usize>,
    above_root: &[usize],
) -> Vec<Option<usize>> {
    let owned: Vec<Option<usize>> = (0..rig.len())
        .map(|i| nearest_owned_ancestor(rig, owner, i).filter(|&o| o != i))
        .collect();
    // Bodies with no owned ancestor, hanging from a bone above the root body.
    let hung: Vec<bool> = (0..rig.len())
        .map(|i| {
            fate[i].has_body()
                && owned[i].is_none()
                && root_body.is_some_and(|r| r != i)
                && rig.ancestors_in_file(i).any(|q| above_root.contains(&q))
        })
        .collect();
    let mut parent: Vec<Option<usize>> = (0..rig.len())
        .map(|i| match (fate[i].has_body(), owned[i], root_body) {
            (false, _, _) => None,
            (true, Some(o), _) => Some(o),
            (true, None, Some(root)) if hung[i] => {
                Some(nearer_body((rig, samples, height), fate, &hung, (i, root)))
            }
            _ => None,
        })
        .collect();
    // A nearer body may hang, through its own ancestors, from another hung body that chose a
    // body below the first (a bird read with a feather as its pelvis: its body hung on a
    // shin, that leg on the neck, the neck on the body): such a body goes back to the root
    // body, or the ragdoll would be a loop (generate never ended).
    if let Some(root) = root_body {
        while let Some(i) = (0..rig.len()).find(|&i| hung[i] && in_a_loop(&parent, i)) {
            parent[i] = Some(root);
        }
    }
    parent
}

/// Whether following `parent` from body `i` comes back to it.
fn in_a_loop(parent: &[Option<usize>], i: usize) -> bool {
    std::iter::successors(parent[i], |&p| parent[p])
        .take(parent.len())
        .any(|p| p == i)
}

/// How far (a share of the height) from the root body's joint a body hung on it through a
/// bone above it may lie before a nearer body holds it instead.
const FAR_FROM_THE_ROOT_BODY: f64 = 0.25;

/// The body a bone hung on the root body through a bone above it is jointed to: the root body,
/// or, when the bone lies farther than [`FAR_FROM_THE_ROOT_BODY`] from it, the body it lies
/// nearest (its head, or its skin's far end: a lower leg's ankle), if nearer. A Quaternius
/// T-rex's feet hang from the armature's weighted `root` beside its legs: jointed to the
/// pelvis 9 units up, a 496 kg foot on a 9-unit lever of a thin 4,154 kg box, the run blew
/// up at its third step (`simulate` could not run it). Bodies hung so are never the nearer
/// body (two would hold each other).
fn nearer_body(
    (rig, samples, height): (&Rig, &Samples, f64),
    fate: &[Fate],
    hung: &[bool],
    (i, root): (usize, usize),
) -> usize {
    let at = rig.bones[i].pos;
    let to_root = at.distance(rig.bones[root].pos);
    if to_root <= FAR_FROM_THE_ROOT_BODY * height {
        return root;
    }
    let below = rig.subtree_all(i);
    let reach = |b: usize| {
        let head = rig.bones[b].pos;
        let tail = samples
            .far_end(b, head)
            .map_or(f64::INFINITY, |t| t.distance(at));
        head.distance(at).min(tail)
    };
    (0..rig.len())
        .filter(|&b| b != i && fate[b].has_body() && !hung[b] && !below.contains(&b))
        .map(|b| (b, reach(b)))
        .filter(|&(_, d)| d < to_root)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(root, |(b, _)| b)
}

/// The body holding the skin of bone `i`'s nearest ancestor that has one: a bone between
/// them with no skin of its own (the Godot robot's `headtracker` between `neck` and `head`)
/// is passed over, or the body below it would be left loose and fall off.
fn nearest_owned_ancestor(rig: &Rig, owner: &[Option<usize>], i: usize) -> Option<usize> {
    rig.ancestors_in_file(i).find_map(|q| owner[q])
}

/// The skin of a body: its own vertices plus those of every bone merged into it (each
/// bone's [`Samples::body_skin`]: accessories on skinned bones left out).
pub fn body_points(plan: &Plan, samples: &Samples, body: usize) -> Vec<glam::DVec3> {
    let mut out = Vec::new();
    for (i, o) in plan.owner.iter().enumerate() {
        if *o == Some(body) {
            out.extend_from_slice(samples.body_skin(i));
        }
    }
    out
}

/// The points a body's shape is fitted to: its skin, plus the vertices it weighs strongly
/// without dominating when its own skin is thin (fewer than [`FIT_MIN_OWN`] vertices).
pub fn fit_points(
    plan: &Plan,
    samples: &Samples,
    body: usize,
    own: &[glam::DVec3],
) -> Vec<glam::DVec3> {
    let mut out = own.to_vec();
    if own.len() < FIT_MIN_OWN {
        for (i, o) in plan.owner.iter().enumerate() {
            if *o == Some(body) {
                out.extend_from_slice(&samples.secondary[i]);
            }
        }
    }
    out
}

/// Below this many dominant vertices a body's fit also uses strongly weighted ones.
pub const FIT_MIN_OWN: usize = 24;
