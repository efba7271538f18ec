//! Explicit collision pairs in the world (`collision_pairs`, resolved by
//! [`crate::document::pairs`]). A document without them builds exactly the world it built
//! before. With them, every body in a pair gets collision groups that pass Rapier's own test
//! ([`WIDE_GROUPS`]) and the pair hook; the hook then decides its contacts: the file's word
//! for a stated pair, else the body's own groups and masks (kept here), as Rapier would have.
//! A stated jointed pair that collides also gets its joints' contacts enabled
//! (see [`super::joints`]).

use super::contact_order::MirrorContactOrder;
use crate::document::pairs::ExplicitPairs;
use crate::document::BoneId;
use rapier3d::geometry::Group;
use rapier3d::prelude::*;
use std::collections::HashMap;

/// The groups of a body in a stated pair: Rapier's test always passes, the hook decides.
pub(crate) const WIDE_GROUPS: InteractionGroups =
    InteractionGroups::new(Group::ALL, Group::ALL, InteractionTestMode::And);

/// The hook flag of a body in a stated pair.
pub(crate) const PAIR_HOOKS: ActiveHooks = ActiveHooks::FILTER_CONTACT_PAIRS;

/// The pair decisions of every ragdoll in the world.
#[derive(Debug, Clone, Default)]
pub(crate) struct PairFilter {
    pairs: ExplicitPairs,
    /// Collider -> (its own groups, ragdoll index, bone) for bodies in a stated pair.
    own: HashMap<ColliderHandle, (InteractionGroups, usize, BoneId)>,
}

impl PairFilter {
    pub fn new(pairs: ExplicitPairs) -> Self {
        Self {
            pairs,
            own: HashMap::new(),
        }
    }

    /// Registers a body of ragdoll `doll` whose collider carries [`WIDE_GROUPS`].
    pub fn register(&mut self, c: ColliderHandle, own: InteractionGroups, doll: usize, b: BoneId) {
        self.own.insert(c, (own, doll, b));
    }

    /// Whether two colliders touch.
    fn decide(&self, ctx: &PairFilterContext) -> bool {
        let a = self.own.get(&ctx.collider1);
        let b = self.own.get(&ctx.collider2);
        if let (Some(&(_, da, ba)), Some(&(_, db, bb))) = (a, b) {
            if da == db {
                if let Some(stated) = self.pairs.get(ba, bb) {
                    return stated;
                }
            }
        }
        let groups = |h: ColliderHandle, own: Option<&(InteractionGroups, usize, BoneId)>| {
            own.map(|o| o.0).or_else(|| {
                ctx.colliders
                    .get(h)
                    .map(rapier3d::geometry::Collider::collision_groups)
            })
        };
        match (groups(ctx.collider1, a), groups(ctx.collider2, b)) {
            (Some(g1), Some(g2)) => g1.test(g2),
            _ => false,
        }
    }
}

/// The world's hooks: the ground's contact order and the pair filter.
#[derive(Debug, Clone)]
pub(crate) struct Hooks {
    pub order: MirrorContactOrder,
    pub pairs: PairFilter,
}

impl PhysicsHooks for Hooks {
    fn filter_contact_pair(&self, ctx: &PairFilterContext) -> Option<SolverFlags> {
        self.pairs
            .decide(ctx)
            .then_some(SolverFlags::COMPUTE_RIGID_IMPULSES)
    }

    fn modify_solver_contacts(&self, ctx: &mut ContactModificationContext) {
        self.order.modify_solver_contacts(ctx);
    }
}
