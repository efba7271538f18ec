//! One stepping leg: its bodies and joints (from the anatomy's leg chain), its rest geometry,
//! and the two-bone placement that turns a wanted ankle position into hip, knee and ankle
//! drive targets.

use super::super::joints::JointRec;
use super::super::world::BodyRec;
use crate::anatomy::Anatomy;
use crate::document::{BoneId, Document};
use glam::{Quat, Vec3};
use rapier3d::prelude::*;

/// A leg that can step: thigh, shin and foot bodies with the joints above each.
#[derive(Debug, Clone)]
pub(crate) struct StepLeg {
    /// Index of the foot in the balance rig's support feet (its grounded bit).
    pub foot_index: usize,
    /// Body slots of the thigh's parent (the hip's parent body), thigh, shin and foot.
    pub hip_parent: usize,
    pub thigh: usize,
    pub shin: usize,
    pub foot: usize,
    /// Indices into the ragdoll's joints: hip (child thigh), knee (child shin), ankle (child
    /// foot; None when the support body is the shin itself, as on characters whose feet
    /// have no body).
    pub hip_joint: usize,
    pub knee_joint: usize,
    pub ankle_joint: Option<usize>,
    /// The lower segment's end at rest (world): the ankle, or the shin's sole when the shin
    /// is the support body.
    pub end_rest: Vec3,
    /// Rest lengths (world units): hip to knee, knee to the end, the end above the sole.
    pub thigh_len: f32,
    pub shin_len: f32,
    pub ankle_height: f32,
}

/// The bodies of a leg's chain above and at `foot` that have bodies, body outwards.
fn leg_bodies(doc: &Document, anatomy: &Anatomy, bodies: &[BodyRec], foot: BoneId) -> Vec<usize> {
    let Some(limb) = anatomy
        .limbs()
        .into_iter()
        .find(|l| l.kind.is_leg() && l.path.contains(&foot))
    else {
        return Vec::new();
    };
    let slot = |b: BoneId| bodies.iter().position(|r| r.bone == b);
    let mut chain: Vec<usize> = Vec::new();
    for &b in &limb.path {
        if let Some(s) = slot(b) {
            chain.push(s);
        }
        if b == foot {
            break;
        }
    }
    // The limb's root side: the body its first bone hangs from.
    let mut up = doc.bone(limb.path[0]).parent;
    while let Some(p) = up {
        if let Some(s) = slot(p) {
            chain.insert(0, s);
            break;
        }
        up = doc.bone(p).parent;
    }
    chain
}

impl StepLeg {
    /// The leg of support foot `foot_index` (body slot `foot`), None when its chain has no
    /// jointed thigh and shin above the foot.
    pub fn of(
        world: &PhysicsWorld,
        doc: &Document,
        anatomy: &Anatomy,
        bodies: &[BodyRec],
        joints: &[JointRec],
        (foot_index, foot): (usize, usize),
    ) -> Option<Self> {
        let chain = leg_bodies(doc, anatomy, bodies, bodies[foot].bone);
        let n = chain.len();
        if n < 3 || chain[n - 1] != foot {
            return None;
        }
        let joint = |child: usize, parent: usize| {
            joints
                .iter()
                .position(|j| j.spec.child == child && j.spec.parent == parent)
        };
        let at = |k: usize| bodies[k].world_from_body_rest.translation;
        let sole = sole_height(world, bodies, foot)?;
        // With a foot body: thigh, shin, foot. Without (the support body is the shin): the
        // shin's end is its sole, straight below its origin at rest.
        let (hip_parent, thigh, shin, ankle_joint, end_rest) = if n >= 4 {
            let (p, t, s) = (chain[n - 4], chain[n - 3], chain[n - 2]);
            (p, t, s, Some(joint(foot, s)?), at(foot))
        } else {
            let end = Vec3::new(at(foot).x, sole, at(foot).z);
            (chain[0], chain[1], foot, None, end)
        };
        Some(Self {
            foot_index,
            hip_parent,
            thigh,
            shin,
            foot,
            hip_joint: joint(thigh, hip_parent)?,
            knee_joint: joint(shin, thigh)?,
            ankle_joint,
            end_rest,
            thigh_len: (at(shin) - at(thigh)).length(),
            shin_len: (end_rest - at(shin)).length(),
            ankle_height: end_rest.y - sole,
        })
        .filter(|l| l.thigh_len > 0.0 && l.shin_len > 0.0)
    }

    /// The leg's length, hip to sole.
    pub fn length(&self) -> f32 {
        self.thigh_len + self.shin_len + self.ankle_height
    }

    /// Drive targets (hip, knee, ankle; parent joint frame to child joint frame) that put the
    /// ankle at `ankle` (world), the knee bending toward `pole`, the foot's sole level with
    /// the hip parent's heading, for a hip parent at world rotation `parent` with the hip at
    /// `hip` (where the body is, or where it should be).
    pub fn targets(
        &self,
        bodies: &[BodyRec],
        joints: &[JointRec],
        (hip, parent): (Vec3, Quat),
        (ankle, pole): (Vec3, Vec3),
    ) -> Vec<(usize, Quat)> {
        let rest = |k: usize| bodies[k].world_from_body_rest;
        let (knee_at, ankle_at) = two_bone(hip, ankle, pole, (self.thigh_len, self.shin_len));
        let (p_rest, t_rest, s_rest) = (rest(self.hip_parent), rest(self.thigh), rest(self.shin));
        let thigh = aimed(parent, (p_rest, t_rest, s_rest.translation), knee_at - hip);
        let shin = aimed(thigh, (t_rest, s_rest, self.end_rest), ankle_at - knee_at);
        let mut out = vec![
            (
                self.hip_joint,
                joint_target(&joints[self.hip_joint], parent, thigh),
            ),
            (
                self.knee_joint,
                joint_target(&joints[self.knee_joint], thigh, shin),
            ),
        ];
        if let Some(a) = self.ankle_joint {
            // The foot keeps its rest orientation turned by the hip parent's heading.
            let foot = heading(parent * p_rest.rotation.inverse()) * rest(self.foot).rotation;
            out.push((a, joint_target(&joints[a], shin, foot)));
        }
        out
    }

    /// The hip joint's target that holds the thigh at world rotation `thigh` under a hip
    /// parent at `parent`.
    pub fn hip_target(&self, joints: &[JointRec], parent: Quat, thigh: Quat) -> (usize, Quat) {
        (
            self.hip_joint,
            joint_target(&joints[self.hip_joint], parent, thigh),
        )
    }

    /// The leg's joints (indices into the ragdoll's), hip first.
    pub fn joints(&self) -> impl Iterator<Item = usize> {
        [
            Some(self.hip_joint),
            Some(self.knee_joint),
            self.ankle_joint,
        ]
        .into_iter()
        .flatten()
    }
}

/// The yaw part (about world up) of a rotation.
pub(crate) fn heading(q: Quat) -> Quat {
    let f = q * Vec3::Z;
    let flat = Vec3::new(f.x, 0.0, f.z);
    match flat.try_normalize() {
        Some(f) => Quat::from_rotation_arc(Vec3::Z, f),
        None => Quat::IDENTITY,
    }
}

/// The lowest point of the foot's collider at rest, None without one.
pub(super) fn sole_height(world: &PhysicsWorld, bodies: &[BodyRec], foot: usize) -> Option<f32> {
    let (c, at) = bodies[foot].rest_collider(world)?;
    Some(c.shape().compute_aabb(&at).mins.y)
}

/// The knee and ankle positions of a two-bone chain from `hip` reaching for `ankle`, the knee
/// bending toward `pole`; the reach clamped to the chain's length.
pub(crate) fn two_bone(hip: Vec3, ankle: Vec3, pole: Vec3, (l1, l2): (f32, f32)) -> (Vec3, Vec3) {
    let to = ankle - hip;
    let d = to
        .length()
        .clamp(0.3 * (l1 + l2), 0.995 * (l1 + l2))
        .max(1e-6);
    let u = to.try_normalize().unwrap_or(Vec3::NEG_Y);
    let ankle = hip + u * d;
    let cos_a = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
    let n = (pole - u * pole.dot(u))
        .try_normalize()
        .unwrap_or(Vec3::ZERO);
    let knee = hip + (u * cos_a + n * (1.0 - cos_a * cos_a).sqrt()) * l1;
    (knee, ankle)
}

/// The world rotation of a body (rest pose `rest`, its bone running to `next_rest`) that
/// hangs from a parent at world rotation `parent` (rest pose `parent_rest`), turned so its
/// bone points along `dir`: the rest relative rotation turned by the shortest arc, so no
/// twist away from the rest.
fn aimed(parent: Quat, (parent_rest, rest, next_rest): (Pose, Pose, Vec3), dir: Vec3) -> Quat {
    let rel_rest = parent_rest.rotation.inverse() * rest.rotation;
    let along_rest = parent_rest.rotation.inverse() * (next_rest - rest.translation);
    match (
        along_rest.try_normalize(),
        (parent.inverse() * dir).try_normalize(),
    ) {
        (Some(from), Some(to)) => {
            (parent * Quat::from_rotation_arc(from, to) * rel_rest).normalize()
        }
        _ => parent * rel_rest,
    }
}

/// The joint's drive target for a parent at world rotation `parent` and a child at `child`,
/// clamped into its limits.
pub(super) fn joint_target(j: &JointRec, parent: Quat, child: Quat) -> Quat {
    let r1 = parent * j.spec.parent_from_frame.rotation;
    let r2 = child * j.spec.child_from_frame.rotation;
    let q = (r1.inverse() * r2).normalize();
    j.spec.limits.clamp(q.as_dquat()).as_quat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bone_reaches_and_bends_toward_the_pole() {
        let (knee, ankle) = two_bone(
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.2, 0.0),
            Vec3::Z,
            (0.5, 0.5),
        );
        assert!((ankle - Vec3::new(0.0, 0.2, 0.0)).length() < 1e-5);
        assert!(((knee - Vec3::new(0.0, 1.0, 0.0)).length() - 0.5).abs() < 1e-5);
        assert!(((ankle - knee).length() - 0.5).abs() < 1e-5);
        assert!(knee.z > 0.2, "the knee goes forward: {knee}");
    }
}
