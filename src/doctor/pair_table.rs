//! Every pair of bodies with whether they collide and why, decided as the simulation decides
//! it: the file's word (`collision_pairs`) for a stated pair, else no collision across a
//! joint, else the bodies' groups and masks. With each pair, whether the two overlap at rest.
//! The editor's pair view shows it and writes pairs through [`pair_edits`]; the doctor's
//! overlap check and Stabilize read the same table.

use super::model::Model;
use super::OVERLAP_SHARE;
use crate::document::fields::Key;
use crate::document::pairs::explicit_pairs;
use crate::document::write;
use crate::document::{BoneId, CollisionPair, Document, Edit};
use crate::sim::{GroupMap, SimSettings};
use std::collections::BTreeMap;

/// One pair of bodies.
#[derive(Debug, Clone, PartialEq)]
pub struct PairRow {
    pub a: BoneId,
    pub b: BoneId,
    /// Indices of the two bodies in the doctor's model.
    pub(crate) ia: usize,
    pub(crate) ib: usize,
    /// A joint links the two (the solver then keeps them apart unless the file says otherwise).
    pub jointed: bool,
    /// Their groups and masks let them touch.
    pub groups: bool,
    /// What `collision_pairs` states, if anything.
    pub stated: Option<bool>,
    /// How deep they overlap at rest (world units), when deeper than the doctor's threshold.
    pub overlap: Option<f64>,
}

impl PairRow {
    /// What the pair does without a statement in the file.
    pub fn default_collides(&self) -> bool {
        self.groups && !self.jointed
    }

    /// Whether the simulation lets the two collide.
    pub fn collides(&self) -> bool {
        self.stated.unwrap_or_else(|| self.default_collides())
    }

    pub fn involves(&self, id: BoneId) -> bool {
        self.a == id || self.b == id
    }

    /// The other bone of a pair involving `id`.
    pub fn other(&self, id: BoneId) -> BoneId {
        if self.a == id {
            self.b
        } else {
            self.a
        }
    }

    /// Why the pair collides or not, the deciding reason first: "stated" (in
    /// `collision_pairs`), "jointed", "groups" (groups and masks let them touch) or "groups
    /// exclude"; then "overlapping at rest" when they do.
    pub fn why(&self) -> String {
        let decided = match (self.stated, self.jointed) {
            (Some(_), true) => "stated (jointed)",
            (Some(_), false) => "stated",
            (None, true) => "jointed",
            (None, false) if self.groups => "groups",
            (None, false) => "groups exclude",
        };
        match self.overlap {
            Some(_) => format!("{decided}; overlapping at rest"),
            None => decided.to_string(),
        }
    }
}

/// Every pair of bodies the simulation builds, in body order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairTable {
    pub rows: Vec<PairRow>,
}

impl PairTable {
    /// The table at the simulation's default settings.
    pub fn new(doc: &Document) -> Self {
        Self::of_model(doc, &Model::new(doc, &SimSettings::default()))
    }

    pub(crate) fn of_model(doc: &Document, model: &Model) -> Self {
        let groups = GroupMap::from_document(doc).ok();
        let stated = explicit_pairs(doc);
        let jointed = |a: usize, b: usize| {
            model
                .joints
                .iter()
                .any(|j| (j.child, j.parent) == (a, b) || (j.child, j.parent) == (b, a))
        };
        let interaction = |i: usize| {
            let p = doc.bone(model.bodies[i].id).physics.as_ref()?;
            Some(
                groups
                    .as_ref()?
                    .interaction(&p.collision_group, &p.collision_mask),
            )
        };
        let inter: Vec<_> = (0..model.bodies.len()).map(interaction).collect();
        let mut rows = Vec::new();
        for ia in 0..model.bodies.len() {
            for ib in ia + 1..model.bodies.len() {
                let (ba, bb) = (&model.bodies[ia], &model.bodies[ib]);
                let groups = match (inter[ia], inter[ib]) {
                    (Some(x), Some(y)) => x.test(y),
                    _ => false,
                };
                rows.push(PairRow {
                    a: ba.id,
                    b: bb.id,
                    ia,
                    ib,
                    jointed: jointed(ia, ib),
                    groups,
                    stated: stated.get(ba.id, bb.id),
                    overlap: overlap_depth(model, ia, ib),
                });
            }
        }
        Self { rows }
    }

    /// The row of a pair, either order.
    pub fn row(&self, a: BoneId, b: BoneId) -> Option<&PairRow> {
        self.rows
            .iter()
            .find(|r| (r.a, r.b) == (a, b) || (r.a, r.b) == (b, a))
    }

    /// Pairs that overlap at rest while they collide.
    pub fn overlapping_colliding(&self) -> impl Iterator<Item = &PairRow> {
        self.rows
            .iter()
            .filter(|r| r.collides() && r.overlap.is_some())
    }
}

/// How deep two bodies overlap at rest, when deeper than [`OVERLAP_SHARE`] of the height.
fn overlap_depth(model: &Model, a: usize, b: usize) -> Option<f64> {
    let (ba, bb) = (&model.bodies[a], &model.bodies[b]);
    let contact = rapier3d::parry::query::contact(
        &ba.world_from_collider,
        ba.shape.as_ref(),
        &bb.world_from_collider,
        bb.shape.as_ref(),
        0.0,
    );
    let depth = -(contact.ok()??.dist as f64);
    (depth > OVERLAP_SHARE * model.height).then_some(depth)
}

/// The edits that make the file state each pair `(a, b, collide)`: `Some(collide)` is written
/// on `a` and any statement of the pair on `b` is removed (so the two never disagree);
/// `None` removes the pair's statements, leaving groups, masks and joints to decide.
/// Statements of other pairs, and names that are no bone, are kept as they are.
pub fn pair_edits(doc: &Document, changes: &[(BoneId, BoneId, Option<bool>)]) -> Vec<Edit> {
    let lists = |id: BoneId| {
        doc.bone(id)
            .physics
            .as_ref()
            .map(|p| p.collision_pairs.clone())
            .unwrap_or_default()
    };
    let mut touched: BTreeMap<BoneId, Vec<CollisionPair>> = BTreeMap::new();
    for &(a, b, collide) in changes {
        for (x, y) in [(a, b), (b, a)] {
            let y_name = doc.bone(y).name.clone();
            let list = touched.entry(x).or_insert_with(|| lists(x));
            list.retain(|p| p.other != y_name);
        }
        if let Some(collide) = collide {
            let other = doc.bone(b).name.clone();
            let list = touched.entry(a).or_insert_with(|| lists(a));
            list.push(CollisionPair { other, collide });
        }
    }
    let key = Key::CollisionPairs.path();
    touched
        .into_iter()
        .filter(|(id, list)| *list != lists(*id))
        .map(|(id, list)| {
            let target = doc.bone_target(id);
            match write::collision_pairs(&list) {
                Some(value) => Edit::Set {
                    target,
                    key: key.into(),
                    value,
                },
                None => Edit::Remove {
                    target,
                    key: key.into(),
                },
            }
        })
        .collect()
}

/// The edit of one pair's toggle in the pair view: a pair set to what groups, masks and joints
/// decide anyway loses its statement (the file stays as small as it can); otherwise the file
/// states it.
pub fn toggle_edits(doc: &Document, row: &PairRow, collide: bool) -> Vec<Edit> {
    let state = (collide != row.default_collides()).then_some(collide);
    pair_edits(doc, &[(row.a, row.b, state)])
}

/// "Disable pairs overlapping at rest": every pair that overlaps at rest while it collides is
/// stated `false`. The edits (one group's worth) and a line per pair.
pub fn disable_overlapping(doc: &Document, table: &PairTable) -> (Vec<Edit>, Vec<String>) {
    let mut changes = Vec::new();
    let mut report = Vec::new();
    let mut rows: Vec<&PairRow> = table.overlapping_colliding().collect();
    rows.sort_by(|x, y| {
        y.overlap
            .unwrap_or(0.0)
            .total_cmp(&x.overlap.unwrap_or(0.0))
    });
    for r in rows {
        changes.push((r.a, r.b, Some(false)));
        report.push(format!(
            "{} - {}: collision disabled (they overlap by {:.4} at rest)",
            doc.bone(r.a).name,
            doc.bone(r.b).name,
            r.overlap.unwrap_or(0.0)
        ));
    }
    (pair_edits(doc, &changes), report)
}
