//! The order in which Rapier solves the points of one contact manifold (and the cones of one
//! joint's swing limit), made the same for a manifold and its mirror image across the
//! character's mid-plane.
//!
//! Rapier's solver is sequential (Gauss-Seidel): within a manifold it applies the points'
//! impulses one after the other, in the order contact generation listed them. A box foot on
//! the ground lists its corners in the box's own vertex order, so the left foot starts at its
//! outer corner and the mirrored right foot at its inner one. That alone made an exactly
//! symmetric ragdoll's left and right joints differ by 1 degree 0.29 s into a passive
//! collapse, and by 6 degrees at 0.5 s, whatever the substeps, iterations or timestep;
//! with the points ordered as here they stay within 0.04 degrees for the whole 0.5 s.
//!
//! The order is by a key a reflection leaves unchanged: a point's position along the
//! character's forward axis, then its distance from the mid-plane, then its height, each
//! rounded to a millimetre per 1.75 m of character so that rounding noise between mirrored
//! points cannot swap two points that are level with each other. Only contacts with the
//! ground are reordered (the ground carries the hook flag): contacts between the ragdoll's
//! own bodies keep Rapier's contact recycling, which a hooked pair gives up.

use glam::Vec3;
use rapier3d::prelude::*;

/// Marks a collider as belonging to a ragdoll whose mid-plane lies at `mid` along the
/// ordering's axis (in its `user_data`).
pub(crate) fn tag(collider: &mut Collider, mid: f32) {
    collider.user_data = u128::from(mid.to_bits()) | TAGGED;
}

/// The hook flag the ground carries, so that its contacts (only those: contacts between the
/// ragdoll's own bodies keep Rapier's contact recycling) are ordered.
pub(crate) const GROUND_HOOKS: ActiveHooks = ActiveHooks::MODIFY_SOLVER_CONTACTS;

/// Bit 64 of `user_data`: the low 32 bits hold a mid-plane.
const TAGGED: u128 = 1 << 64;

fn mid_of(collider: &Collider) -> Option<f32> {
    (collider.user_data & TAGGED != 0).then(|| f32::from_bits(collider.user_data as u32))
}

/// Rounding step of a direction's key (about 0.006 degrees).
const DIRECTION_QUANTUM: f32 = 1e-4;

/// Manifolds with at most this many points are sorted without allocating.
const MAX_SORTED_IN_PLACE: usize = 8;

/// The hook: sorts each manifold's solver contacts by their mirror-invariant key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MirrorContactOrder {
    /// The mid-plane's normal (the character's left-right axis).
    axis: Vec3,
    /// World up made perpendicular to `axis`, and the forward axis completing them.
    up: Vec3,
    forward: Vec3,
    /// Rounding step of the key (world units).
    quantum: f32,
}

impl MirrorContactOrder {
    /// For mid-planes with normal `axis` in a world whose length unit is `length_unit`.
    pub fn new(axis: Vec3, length_unit: f32) -> Self {
        let axis = axis.try_normalize().unwrap_or(Vec3::X);
        let up = (Vec3::Y - axis * axis.dot(Vec3::Y))
            .try_normalize()
            .unwrap_or_else(|| axis.any_orthonormal_vector());
        Self {
            axis,
            up,
            forward: axis.cross(up),
            quantum: 1e-3 * length_unit.max(1e-6),
        }
    }

    pub fn axis(&self) -> Vec3 {
        self.axis
    }

    /// The key of a world direction, the same for `d` and its mirror image: the order in
    /// which a joint's limit cones are solved (see [`super::joints`]).
    pub fn direction_key(&self, d: Vec3) -> [i64; 3] {
        let q = |x: f32| (x / DIRECTION_QUANTUM).round() as i64;
        [
            q(d.dot(self.forward)),
            q(d.dot(self.axis).abs()),
            q(d.dot(self.up)),
        ]
    }

    /// The key of a world point for a ragdoll whose mid-plane is at `mid`.
    fn key(&self, p: Vec3, mid: f32) -> [i64; 3] {
        let q = |x: f32| (x / self.quantum).round() as i64;
        [
            q(p.dot(self.forward)),
            q((p.dot(self.axis) - mid).abs()),
            q(p.dot(self.up)),
        ]
    }
}

impl PhysicsHooks for MirrorContactOrder {
    fn modify_solver_contacts(&self, ctx: &mut ContactModificationContext) {
        let mid = [ctx.collider1, ctx.collider2]
            .iter()
            .find_map(|&h| ctx.colliders.get(h).and_then(mid_of));
        let (Some(mid), ModifiableContacts::Rigid(m)) = (mid, &mut ctx.contacts) else {
            return;
        };
        let contacts = &mut *m.solver_contacts;
        if contacts.len() < 2 {
            return;
        }
        if contacts.len() > MAX_SORTED_IN_PLACE {
            contacts.sort_by_cached_key(|c| self.key(c.anchor1, mid));
            return;
        }
        // Insertion sort with the keys on the stack: manifolds hold a handful of points, and
        // this runs for every ground contact every step.
        let mut keys = [[0i64; 3]; MAX_SORTED_IN_PLACE];
        for (k, c) in keys.iter_mut().zip(contacts.iter()) {
            *k = self.key(c.anchor1, mid);
        }
        sort_together(contacts, &mut keys);
    }
}

/// Sorts `items` by `keys` (paired by index; `keys` may be longer), stably.
fn sort_together<T>(items: &mut [T], keys: &mut [[i64; 3]]) {
    for i in 1..items.len().min(keys.len()) {
        let mut j = i;
        while j > 0 && keys[j - 1] > keys[j] {
            keys.swap(j - 1, j);
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_images_share_a_key_and_level_points_keep_apart() {
        let o = MirrorContactOrder::new(Vec3::new(1.0, 0.0, 0.0), 1.0);
        let mid = 0.25;
        let p = Vec3::new(0.4, 0.01, 0.1);
        let mirrored = Vec3::new(2.0 * mid - p.x, p.y, p.z);
        assert_eq!(o.key(p, mid), o.key(mirrored, mid));
        // Two corners of one foot, level with each other: ordered by their other coordinates.
        let front = Vec3::new(0.4, 0.0, 0.2);
        let back = Vec3::new(0.4, 0.0, 0.0);
        assert!(o.key(back, mid) < o.key(front, mid));
        // Rounding noise far below a millimetre does not reorder level points.
        let noisy = back + Vec3::new(3e-7, 0.0, -2e-7);
        assert_eq!(o.key(noisy, mid), o.key(back, mid));
        let d = Vec3::new(0.3, -0.8, 0.52).normalize();
        assert_eq!(
            o.direction_key(d),
            o.direction_key(Vec3::new(-d.x, d.y, d.z))
        );
    }

    #[test]
    fn points_sort_with_their_keys() {
        let mut items = ['c', 'a', 'd', 'b', 'e'];
        let mut keys = [
            [2, 0, 0],
            [0, 5, 0],
            [2, 1, 0],
            [0, 5, 1],
            [9, 9, 9],
            [0, 0, 0],
        ];
        sort_together(&mut items, &mut keys);
        assert_eq!(items, ['a', 'b', 'c', 'd', 'e']);
    }

    #[test]
    fn a_tag_round_trips_its_mid_plane() {
        let mut c = ColliderBuilder::ball(0.1).build();
        assert_eq!(mid_of(&c), None);
        tag(&mut c, -0.125);
        assert_eq!(mid_of(&c), Some(-0.125));
    }
}
