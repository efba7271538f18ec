//! Poses: a world transform per bone, indexed by [`BoneId`]. The viewport draws whatever pose it
//! is given; the rest pose comes from the document, a running simulation supplies its own.

use crate::document::{BoneId, Document};
use glam::{DMat4, DQuat, DVec3};

/// `world_from_bone` for every bone of a document, plus a counter that changes with the pose.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pose {
    pub world_from_bone: Vec<DMat4>,
}

impl Pose {
    /// The document's rest pose.
    pub fn rest(doc: &Document) -> Self {
        let world_from_bone = doc
            .bones
            .iter()
            .map(|b| doc.skeleton.nodes[b.node].world_from_node)
            .collect();
        Self { world_from_bone }
    }

    pub fn get(&self, id: BoneId) -> Option<&DMat4> {
        self.world_from_bone.get(id.index())
    }

    /// How far anything attached to a bone moved from `other` to this pose, at most (world
    /// units): a bone origin's displacement plus its turn (small-angle: how far its unit
    /// axes moved) times `reach`, the largest distance from a bone of what it carries.
    /// Poses of different bone counts are infinitely far apart.
    pub fn largest_move(&self, other: &Pose, reach: f64) -> f64 {
        if self.world_from_bone.len() != other.world_from_bone.len() {
            return f64::INFINITY;
        }
        let unit = |m: &DMat4, i: usize| m.col(i).truncate().normalize_or_zero();
        self.world_from_bone
            .iter()
            .zip(&other.world_from_bone)
            .map(|(a, b)| {
                let moved = a.w_axis.truncate().distance(b.w_axis.truncate());
                let turned = (0..3)
                    .map(|i| unit(a, i).distance(unit(b, i)))
                    .fold(0.0, f64::max);
                moved + turned * reach
            })
            .fold(0.0, f64::max)
    }
}

/// How a pose of some bones (a simulation's bodies) carries the rest of the skeleton: each
/// other bone moves rigidly with the bone it hangs from, at its rest offset. Which bone that
/// is, the caller says: the file's parent, or for a chain the file leaves loose (a
/// deform-only Rigify export hangs its hair from the armature) the bone it hangs from by
/// the anatomy, so that the hair moves with the head.
#[derive(Debug, Clone, Default)]
pub struct Carriage {
    /// Every bone after the bone that carries it.
    order: Vec<BoneId>,
    rest: Vec<DMat4>,
    /// Each bone's rest scale, which a posed bone keeps.
    rest_scale: Vec<DVec3>,
    /// The bone that carries each bone, with the bone's rest transform in it
    /// (`carrier_from_bone`), computed once rather than every frame.
    carried: Vec<Option<(BoneId, DMat4)>>,
}

impl Carriage {
    /// The carriage of `doc`'s skeleton, each bone carried by `hangs_from` (a bone carried
    /// by itself, by a bone that is not there, or round a loop stays at rest).
    pub fn new(doc: &Document, hangs_from: impl Fn(BoneId) -> Option<BoneId>) -> Self {
        let rest = Pose::rest(doc).world_from_bone;
        let n = rest.len();
        let mut carrier: Vec<Option<BoneId>> = doc
            .bone_ids()
            .map(|id| hangs_from(id).filter(|p| p.index() < n && *p != id))
            .collect();
        let mut depth = vec![0usize; n];
        for i in 0..n {
            let d = std::iter::successors(carrier[i], |p| carrier[p.index()])
                .take(n + 1)
                .count();
            match d > n {
                true => carrier[i] = None,
                false => depth[i] = d,
            }
        }
        let mut order: Vec<BoneId> = doc.bone_ids().collect();
        order.sort_by_key(|id| depth[id.index()]);
        let carried = (carrier.iter().zip(&rest))
            .map(|(c, r)| c.map(|c| (c, rest[c.index()].inverse() * *r)))
            .collect();
        Self {
            order,
            rest_scale: rest
                .iter()
                .map(|r| r.to_scale_rotation_translation().0)
                .collect(),
            rest,
            carried,
        }
    }

    /// Every bone's world transform: `posed` bones where they are (rotation and translation,
    /// at their rest scale), the others carried.
    pub fn pose(&self, posed: impl Iterator<Item = (BoneId, DQuat, DVec3)>) -> Pose {
        let mut world = self.rest.clone();
        let mut is_posed = vec![false; world.len()];
        for (id, rot, at) in posed {
            if let Some(&scale) = self.rest_scale.get(id.index()) {
                world[id.index()] = DMat4::from_scale_rotation_translation(scale, rot, at);
                is_posed[id.index()] = true;
            }
        }
        for &id in &self.order {
            let i = id.index();
            if let Some((c, carrier_from_bone)) = self.carried[i].filter(|_| !is_posed[i]) {
                world[i] = world[c.index()] * carrier_from_bone;
            }
        }
        Pose {
            world_from_bone: world,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    fn pose(ms: &[DMat4]) -> Pose {
        Pose {
            world_from_bone: ms.to_vec(),
        }
    }

    #[test]
    fn largest_move_adds_a_bones_shift_and_its_turn_at_reach() {
        let scaled = DMat4::from_scale_rotation_translation(
            DVec3::splat(0.01),
            DQuat::from_rotation_y(0.3),
            DVec3::new(1.0, 2.0, 3.0),
        );
        let a = pose(&[DMat4::IDENTITY, scaled]);
        assert_eq!(a.largest_move(&a, 2.0), 0.0);
        // One bone shifted 1 mm, the other turned 0.001 rad about its own origin: at reach 2,
        // the turn's 2 mm is the most.
        let turned = scaled * DMat4::from_rotation_z(0.001);
        let b = pose(&[DMat4::from_translation(DVec3::new(0.001, 0.0, 0.0)), turned]);
        let m = b.largest_move(&a, 2.0);
        assert!((m - 0.002).abs() < 1e-8, "{m}");
        assert!((b.largest_move(&a, 0.1) - 0.001).abs() < 1e-12);
        // The scale of a bone's matrix (a character in centimetres) does not count as a turn.
        assert!(pose(&[DMat4::IDENTITY, scaled]).largest_move(&a, 1.0) < 1e-12);
        assert_eq!(
            pose(&[DMat4::IDENTITY]).largest_move(&a, 1.0),
            f64::INFINITY
        );
    }
}
