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
    /// No body and no skin to hand on.
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

/// Decides every bone's fate, parents first.
pub fn plan(
    rig: &Rig,
    samples: &Samples,
    anatomy: &Anatomy,
    opts: &Options,
    has_physics: &[bool],
) -> Plan {
    let n = rig.len();
    let h = anatomy.height;
    let min_size = opts.min_bone_size * h;
    let mut fate = vec![Fate::Skipped { why: "not reached" }; n];
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let above_root: Vec<usize> = anatomy.pelvis.map(|p| rig.ancestors(p)).unwrap_or_default();
    let order = topo_all(rig);
    for &i in &order {
        let parent_owner = rig.bones[i].parent.and_then(|p| owner[p]);
        let skin = samples.by_bone[i].len();
        let far_enough = |min: f64| {
            parent_owner.is_none_or(|o| rig.bones[o].pos.distance(rig.bones[i].pos) >= min)
        };
        let role = anatomy.role[i];
        let keep = if opts.keep_existing && has_physics[i] {
            Some(Fate::Kept)
        } else {
            None
        };
        let into = |why: &'static str| match (parent_owner, skin) {
            (Some(o), _) => Fate::Merged { into: o, why },
            (None, _) => Fate::Skipped { why },
        };
        let f = keep.unwrap_or_else(|| {
            if Some(i) == anatomy.pelvis {
                return Fate::Body;
            }
            if above_root.contains(&i) {
                return match anatomy.pelvis {
                    Some(p) if skin > 0 => Fate::Merged {
                        into: p,
                        why: "above the root body",
                    },
                    _ => Fate::Skipped {
                        why: "helper above the root body, no skin",
                    },
                };
            }
            match role {
                Role::Twist if opts.twist => Fate::Body,
                Role::Twist => into("twist or roll bone"),
                Role::Helper if skin == 0 => Fate::Skipped {
                    why: "helper or end bone with no skin",
                },
                Role::Helper => into("helper or end bone"),
                Role::Finger if opts.fingers && size_of(rig, samples, i) >= min_size / 2.0 => {
                    Fate::Body
                }
                Role::Finger => into("finger"),
                Role::Toe if opts.toes => Fate::Body,
                Role::Toe => into("toe"),
                Role::Tail if !opts.tail => into("tail bones are off"),
                Role::Tail if far_enough(min_size) => Fate::Body,
                Role::Tail => into("smaller than the minimum bone size"),
                Role::Spine | Role::Neck if !far_enough(min_size / 2.0) => {
                    into("smaller than the minimum bone size")
                }
                Role::Other if parent_owner.is_none() && skin < super::fit::MIN_POINTS => {
                    Fate::Skipped {
                        why: "not part of the character's skeleton",
                    }
                }
                Role::Other if !(far_enough(min_size) && size_of(rig, samples, i) >= min_size) => {
                    into("smaller than the minimum bone size")
                }
                _ if skin == 0 && size_of(rig, samples, i) < 1e-3 * h => {
                    into("zero length and no skin")
                }
                _ => Fate::Body,
            }
        });
        owner[i] = match &f {
            Fate::Body | Fate::Kept => Some(i),
            Fate::Merged { into, .. } => owner[*into],
            Fate::Skipped { .. } => None,
        };
        fate[i] = f;
    }
    let bodies: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| fate[i] == Fate::Body)
        .collect();
    let parent_body = (0..n)
        .map(|i| {
            if !fate[i].has_body() {
                return None;
            }
            rig.bones[i].parent.and_then(|p| owner[p])
        })
        .collect();
    Plan {
        fate,
        owner,
        bodies,
        parent_body,
    }
}

/// The skin of a body: its own vertices plus those of every bone merged into it.
pub fn body_points(plan: &Plan, samples: &Samples, body: usize) -> Vec<glam::DVec3> {
    let mut out = Vec::new();
    for (i, o) in plan.owner.iter().enumerate() {
        if *o == Some(body) {
            out.extend_from_slice(&samples.by_bone[i]);
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
