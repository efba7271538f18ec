//! Plausibility checks of a character's anatomy and ragdoll: facts no real body has, each a
//! warning that names the bones and points to the Anatomy panel, where a wrong role is fixed
//! in two clicks. They catch what a wrong detection builds: a pelvis that is not between the
//! thighs, a foot above the pelvis, one body carrying most of the mass, a limb without its
//! twin, a body far from the skin it claims.

use super::rig::Rig;
use super::samples::{Samples, MIN_SKIN_POINTS};
use super::{Anatomy, Role, Side};
use crate::document::fields::Key;
use crate::document::geometry::Fitting;
use crate::document::{BoneId, Diagnostic, Document};
use glam::DVec3;

/// The share of the total mass one body may carry before it is implausible.
pub const MAX_MASS_SHARE: f64 = 0.4;
/// A body whose centre lies farther than this share of the height outside the box of the
/// skin it claims is not where its bone's skin is.
pub const MAX_SKIN_GAP: f64 = 0.15;
/// Bones that end every message: where to fix a role.
const SEE_PANEL: &str = "check the roles in the Anatomy panel";

/// Every plausibility warning of a document, given its rig, skin samples and anatomy.
pub fn check(doc: &Document, rig: &Rig, samples: &Samples, a: &Anatomy) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let cx = Cx { doc, rig, a };
    cx.pelvis_between_thighs(samples, &mut out);
    cx.feet_below_pelvis(samples, &mut out);
    cx.mass_shares(&mut out);
    cx.twins(&mut out);
    cx.skin_gaps(samples, &mut out);
    out
}

struct Cx<'a> {
    doc: &'a Document,
    rig: &'a Rig,
    a: &'a Anatomy,
}

impl Cx<'_> {
    fn name(&self, id: BoneId) -> &str {
        &self.doc.bone(id).name
    }

    fn pos(&self, id: BoneId) -> Option<DVec3> {
        self.rig.bones.get(id.index()).map(|b| b.pos)
    }

    fn warn(&self, id: BoneId, key: Key, text: String) -> Diagnostic {
        let b = self.doc.bone(id);
        Diagnostic::warning(
            Some(b.node),
            &b.name,
            key.path(),
            format!("{text}; {SEE_PANEL}"),
        )
    }

    /// The first bone with a role and side.
    fn with(&self, role: Role, side: Option<Side>) -> Option<BoneId> {
        self.a
            .bones_with(role)
            .into_iter()
            .find(|&b| self.a.side(b) == side)
    }

    /// The box of the skin a body claims, when it claims enough to have one (as many
    /// vertices as the generator fits a shape to).
    fn skin_box(&self, samples: &Samples, id: BoneId) -> Option<(DVec3, DVec3)> {
        let skin = self.claimed_skin(samples, id);
        (skin.len() >= MIN_SKIN_POINTS).then(|| {
            let lo = skin.iter().fold(DVec3::INFINITY, |m, v| m.min(*v));
            let hi = skin.iter().fold(DVec3::NEG_INFINITY, |m, v| m.max(*v));
            (lo, hi)
        })
    }

    /// The thighs' midpoint against the pelvis's skin (its bone's origin when it claims no
    /// skin): a quadruped's one trunk bone, whose origin sits mid-body, still holds its hips.
    /// A quadruped's pelvis may lie anywhere between its hind and front legs: its one body
    /// bone carries all four (a Quaternius pug's `Body`, mid-trunk, claims little skin of the
    /// hips).
    fn pelvis_between_thighs(&self, samples: &Samples, out: &mut Vec<Diagnostic>) {
        let (Some(p), Some(l), Some(r)) = (
            self.a.pelvis().or(self.with(Role::Pelvis, None)),
            self.with(Role::Thigh, Some(Side::Left)),
            self.with(Role::Thigh, Some(Side::Right)),
        ) else {
            return;
        };
        let (Some(pp), Some(pl), Some(pr)) = (self.pos(p), self.pos(l), self.pos(r)) else {
            return;
        };
        let reach = pl.distance(pr).max(0.15 * self.a.height());
        let mid = (pl + pr) * 0.5;
        let front = self.front_legs_midpoint().unwrap_or(mid);
        let nearest = |q: DVec3| {
            let d = front - mid;
            let t = (q - mid).dot(d) / d.length_squared().max(1e-12);
            mid + d * t.clamp(0.0, 1.0)
        };
        let gap = match self.skin_box(samples, p) {
            Some((lo, hi)) => {
                let q = nearest((lo + hi) * 0.5);
                q.distance(q.clamp(lo, hi))
            }
            None => pp.distance(nearest(pp)),
        };
        if gap > reach {
            let text = format!(
                "the pelvis '{}' is not between the thighs '{}' and '{}' ({gap:.3} units from their midpoint)",
                self.name(p),
                self.name(l),
                self.name(r)
            );
            out.push(self.warn(p, Key::AnatomyRoles, text));
        }
    }

    /// A quadruped's front legs' roots' midpoint (its upper arms', else its clavicles').
    fn front_legs_midpoint(&self) -> Option<DVec3> {
        if self.a.kind() != super::Kind::Quadruped {
            return None;
        }
        [Role::UpperArm, Role::Clavicle].iter().find_map(|&role| {
            let l = self.pos(self.with(role, Some(Side::Left))?)?;
            let r = self.pos(self.with(role, Some(Side::Right))?)?;
            Some((l + r) * 0.5)
        })
    }

    /// A foot's lowest skin (its bone's origin when it claims no skin) against the pelvis's
    /// origin: a hind foot whose bone starts at a raised hock still stands on the ground.
    fn feet_below_pelvis(&self, samples: &Samples, out: &mut Vec<Diagnostic>) {
        let Some(p) = self.a.pelvis().or(self.with(Role::Pelvis, None)) else {
            return;
        };
        let Some(pp) = self.pos(p) else { return };
        let up = self.a.up();
        for f in self.a.bones_with(Role::Foot) {
            let Some(pf) = self.pos(f) else { continue };
            let lowest = self
                .claimed_skin(samples, f)
                .iter()
                .map(|v| v.dot(up))
                .fold(pf.dot(up), f64::min);
            if lowest > pp.dot(up) {
                let text = format!(
                    "the foot '{}' is above the pelvis '{}'",
                    self.name(f),
                    self.name(p)
                );
                out.push(self.warn(f, Key::AnatomyRoles, text));
            }
        }
    }

    fn mass_shares(&self, out: &mut Vec<Diagnostic>) {
        let bodies: Vec<(BoneId, f64)> = self
            .doc
            .bone_ids()
            .filter_map(|id| {
                let p = self.doc.bone(id).physics.as_ref()?;
                p.collider.as_ref().map(|_| (id, p.mass))
            })
            .collect();
        let total: f64 = bodies.iter().map(|b| b.1).sum();
        if bodies.len() < 3 || total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        for &(id, m) in &bodies {
            let share = m / total;
            if share > MAX_MASS_SHARE {
                let kg = |x: f64| crate::document::fields::fixed_or_readable(x, 3);
                let text = format!(
                    "the body of '{}' carries {:.0}% of the total mass ({} of {} kg; at most {:.0}% is plausible)",
                    self.name(id),
                    share * 100.0,
                    kg(m),
                    kg(total),
                    MAX_MASS_SHARE * 100.0
                );
                out.push(self.warn(id, Key::Mass, text));
            }
        }
    }

    fn twins(&self, out: &mut Vec<Diagnostic>) {
        for role in Role::LIMBS {
            for side in [Side::Left, Side::Right] {
                let here = self.with(role, Some(side));
                let there = self.with(role, Some(side.other()));
                if let (Some(b), None) = (here, there) {
                    let text = format!(
                        "the {} {} '{}' has no {} twin",
                        side.name(),
                        role.name(),
                        self.name(b),
                        side.other().name()
                    );
                    out.push(self.warn(b, Key::AnatomyRoles, text));
                }
            }
        }
    }

    /// The skin a body claims: its bone's vertices (those it dominates or weighs heavily)
    /// and those of the bones below it that have no body of their own (they merge into it).
    /// Below it in the rig, as the generator merges them: a deforming helper the rig hangs
    /// from the bone nearest it (a spider's foot bone at the armature's root, whose skin is
    /// the leg's tip) is the bone's skin too.
    fn claimed_skin(&self, samples: &Samples, id: BoneId) -> Vec<DVec3> {
        let mut out = Vec::new();
        let mut stack = vec![id.index()];
        while let Some(i) = stack.pop() {
            out.extend(samples.by_bone.get(i).into_iter().flatten());
            out.extend(samples.secondary.get(i).into_iter().flatten());
            for (c, b) in self.rig.bones.iter().enumerate() {
                let bodiless = self
                    .doc
                    .bones
                    .get(c)
                    .is_some_and(|d| d.collider().is_none());
                if b.parent == Some(i) && bodiless {
                    stack.push(c);
                }
            }
        }
        out
    }

    fn skin_gaps(&self, samples: &Samples, out: &mut Vec<Diagnostic>) {
        let limit = MAX_SKIN_GAP * self.a.height();
        for id in self.doc.bone_ids() {
            let Some(c) = self.doc.bone(id).collider() else {
                continue;
            };
            let Some((lo, hi)) = self.skin_box(samples, id) else {
                continue;
            };
            let Some(bone) = self.rig.bones.get(id.index()) else {
                continue;
            };
            let local = self.doc.collider_placement(id, c).translation;
            let centre = bone.world_from_bone.transform_point3(local);
            let gap = centre.distance(centre.clamp(lo, hi));
            if gap > limit {
                let text = format!(
                    "the body of '{}' sits {} units outside the skin it claims (more than {:.0}% of the height)",
                    self.name(id),
                    crate::document::fields::fixed_or_readable(gap, 3),
                    MAX_SKIN_GAP * 100.0
                );
                out.push(self.warn(id, Key::OffsetTranslation, text));
            }
        }
    }
}

/// The checks of a document from its own geometry (a mesh that cannot be read leaves the
/// skin checks out).
pub fn of(doc: &Document) -> Vec<Diagnostic> {
    let fit = doc.fitting_geometry();
    let samples = super::samples::collect(doc, &fit.geometry);
    let rig = Rig::new(doc, &samples);
    let a = Anatomy::detect(doc, &rig, &samples, None);
    let mut out = left_out(&fit);
    out.extend(check(doc, &rig, &samples, &a));
    out
}

/// A warning for each mesh primitive left out of what is fitted (a mesh that cannot be read
/// at all is `validate`'s error, and the editor's status bar's).
pub fn left_out(fit: &Fitting) -> Vec<Diagnostic> {
    let warn = |text: &String| Diagnostic::warning(None, "document", "geometry", text.clone());
    fit.left_out.iter().map(warn).collect()
}
