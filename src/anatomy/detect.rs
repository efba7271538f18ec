//! Roles from topology and geometry: the chains whose ends reach the ground and hang down are
//! legs; two of them make a biped (their common branch is the pelvis, the path from it to the
//! highest point is spine, chest, neck and head, the long side chains off that path are arms),
//! two pairs a quadruped (front legs on the chest, or split front and back along the body),
//! six or more a multi-legged creature; no legs and a long chain along the ground a legless
//! one. Wings are the chains their names call wings. Limb segments are numbered from the body
//! outwards by the tree, never by the numbers in their names (CesiumMan counts its arm bones
//! from the hand inwards).

use super::chains::Chain;
use super::kinds::{CharacterKind, Kind, LimbKind, Role};
use super::name_roles::NameRole;
use super::names::Side;
use super::plans;
use super::rig::Rig;
use super::samples::Samples;
use glam::DVec3;

/// One limb chain, from the body outwards, by bone index.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedLimb {
    pub kind: LimbKind,
    pub side: Option<Side>,
    /// The bone the limb hangs from (pelvis or chest).
    pub root: usize,
    /// Main path bones, body outwards.
    pub path: Vec<usize>,
}

/// The anatomy by bone index (the same index as `doc.bones` and the rig), for code that keeps
/// per-bone arrays (the generator).
#[derive(Debug, Clone)]
pub struct Indexed {
    /// The coarse body plan the generator builds.
    pub kind: CharacterKind,
    pub role: Vec<Role>,
    pub side: Vec<Option<Side>>,
    /// Limb index per bone (main path and its side branches).
    pub limb_of: Vec<Option<usize>>,
    pub limbs: Vec<IndexedLimb>,
    pub pelvis: Option<usize>,
    pub chest: Option<usize>,
    pub head: Option<usize>,
    /// World axes (unit): up is +Y (glTF); forward and left from the names or the skeleton.
    pub up: DVec3,
    pub forward: DVec3,
    pub left: DVec3,
    /// Character height along up, and the lowest point (file units).
    pub height: f64,
    pub ground: f64,
    /// Messages for diagnostics (warnings).
    pub notes: Vec<String>,
}

/// Per-bone extents from the skin: lowest and highest point, vertex count.
pub(super) struct Reach {
    pub low: Vec<f64>,
    pub high: Vec<f64>,
    pub count: Vec<usize>,
    /// Highest point of each structural subtree.
    pub sub_high: Vec<f64>,
    /// Where each bone ends as its own skin shows it ([`Samples::far_end`]), read once.
    pub far_end: Vec<Option<DVec3>>,
}

fn reach(rig: &Rig, samples: &Samples, up: DVec3) -> Reach {
    let n = rig.len();
    let mut r = Reach {
        low: vec![0.0; n],
        high: vec![0.0; n],
        count: vec![0; n],
        sub_high: vec![0.0; n],
        far_end: (0..n)
            .map(|i| samples.far_end(i, rig.bones[i].pos))
            .collect(),
    };
    // A structural bone's skin includes that of the helper and twist bones below it (they
    // merge into its body).
    let mut skin: Vec<Vec<f64>> = samples
        .by_bone
        .iter()
        .map(|v| v.iter().map(|p| p.dot(up)).collect())
        .collect();
    for i in 0..n {
        if let (false, Some(p)) = (rig.bones[i].structural, rig.s_parent[i]) {
            let moved = std::mem::take(&mut skin[i]);
            skin[p].extend(moved);
        }
    }
    for (i, samples) in skin.iter().enumerate() {
        let h0 = rig.bones[i].pos.dot(up);
        let v = super::rig::sorted(samples.iter().copied());
        r.count[i] = v.len();
        r.low[i] = h0.min(if v.is_empty() {
            h0
        } else {
            super::rig::percentile(&v, 0.02)
        });
        r.high[i] = h0.max(if v.is_empty() {
            h0
        } else {
            super::rig::percentile(&v, 0.98)
        });
    }
    for &i in super::rig::topo_order(rig).iter().rev() {
        let mut h = r.high[i];
        for &c in &rig.s_children[i] {
            h = h.max(r.sub_high[c]);
        }
        r.sub_high[i] = h;
    }
    r
}

/// Height and ground level along +Y from the skin without accessories (robust percentiles)
/// or the bones.
fn extent(rig: &Rig, samples: &Samples) -> (f64, f64) {
    let mut v = super::rig::sorted(samples.body().map(|p| p.y));
    if v.len() < 16 {
        v = super::rig::sorted(skeleton_points(rig).map(|p| p.y));
    }
    let lo = super::rig::percentile(&v, 0.002);
    let hi = super::rig::percentile(&v, 0.998);
    (hi - lo, lo)
}

/// Where a skeleton without skin says its body is: its structural joints and the end bones
/// they carry (`HeadTop_End`: where the skull ends; without it a meshless Mixamo skeleton
/// measured 1.555 m, under its own head joint at 1.601, and weighed 49 kg against 74 with
/// its skin).
fn skeleton_points(rig: &Rig) -> impl Iterator<Item = DVec3> + '_ {
    let ends_structural = |i: usize| {
        let b = &rig.bones[i];
        !b.structural
            && b.parent.is_some_and(|p| rig.bones[p].structural)
            && rig.children_in_file(i).next().is_none()
    };
    (0..rig.len())
        .filter(move |&i| rig.bones[i].structural || ends_structural(i))
        .map(|i| rig.bones[i].pos)
}

pub(super) struct Ctx<'a> {
    pub rig: &'a Rig,
    pub samples: &'a Samples,
    pub reach: Reach,
    pub height: f64,
    pub ground: f64,
    /// The floor the skin rests on when the file stands it on a slope (None: level, at
    /// `ground`).
    pub floor: Option<super::floor::Floor>,
    /// What each bone's name says.
    pub names: &'a [Option<NameRole>],
}

/// Words naming a girdle bone: a shoulder blade or collarbone, a hip bone (AdvancedSkeleton
/// names a quadruped's, front and back, `Rump`: its elephant's legs were read one segment up).
const GIRDLE_WORDS: &[&str] = &[
    "shoulder",
    "clavicle",
    "scapula",
    "collar",
    "collarbone",
    "pelvis",
    "hip",
    "rump",
];

impl Ctx<'_> {
    /// Is bone `b` named as a girdle bone ([`GIRDLE_WORDS`], in a creature's limb names too:
    /// `Front_Leg_Shoulder_L`)?
    pub fn named_girdle(&self, b: usize) -> bool {
        let words = &self.rig.bones[b].hints.words;
        words.iter().any(|w| GIRDLE_WORDS.contains(&w.as_str()))
    }

    /// The floor's height under `p`: the level `ground`, or the sloping floor's.
    pub fn floor_at(&self, p: DVec3) -> f64 {
        self.floor.map_or(self.ground, |f| f.at(p))
    }

    pub fn dist(&self, a: usize, b: usize) -> f64 {
        self.rig.bones[a].pos.distance(self.rig.bones[b].pos)
    }

    /// Drops trailing bones of a path that carry no skin (end bones), when there is a skin.
    pub fn trim(&self, mut path: Vec<usize>) -> Vec<usize> {
        let skinned = self.reach.count.iter().any(|&c| c > 0);
        while skinned && path.len() > 1 && path.last().is_some_and(|&b| self.reach.count[b] == 0) {
            path.pop();
        }
        path
    }
}

/// Legs grouped by the bone they hang from.
#[derive(Debug, Clone)]
pub(super) struct LegGroup {
    pub root: usize,
    pub legs: Vec<Vec<usize>>,
}

fn group(chains: Vec<Chain>) -> Vec<LegGroup> {
    let mut out: Vec<LegGroup> = Vec::new();
    for c in chains {
        match out.iter_mut().find(|g| g.root == c.root) {
            Some(g) => g.legs.push(c.path),
            None => out.push(LegGroup {
                root: c.root,
                legs: vec![c.path],
            }),
        }
    }
    out
}

fn empty(rig: &Rig, cx: &Ctx) -> Indexed {
    let n = rig.len();
    let role = rig
        .bones
        .iter()
        .map(|b| match () {
            _ if b.hints.twist => Role::Twist,
            _ if b.hints.helper || !b.structural => Role::Helper,
            _ => Role::Other,
        })
        .collect();
    Indexed {
        kind: CharacterKind::Other,
        role,
        side: vec![None; n],
        limb_of: vec![None; n],
        limbs: Vec::new(),
        pelvis: None,
        chest: None,
        head: None,
        up: DVec3::Y,
        forward: DVec3::Z,
        left: DVec3::X,
        height: cx.height,
        ground: cx.ground,
        notes: Vec::new(),
    }
}

/// Detects the body plan and every bone's role from the topology and geometry, names helping
/// where the shape cannot tell (front and back legs, wings). `forced` overrides the detected
/// coarse kind when the topology allows it. Returns the fine kind too.
pub(super) fn detect(
    rig: &Rig,
    samples: &Samples,
    forced: Option<CharacterKind>,
    names: &[Option<NameRole>],
) -> (Indexed, Kind) {
    let (height, ground) = extent(rig, samples);
    let cx = Ctx {
        rig,
        samples,
        reach: reach(rig, samples, DVec3::Y),
        height: if height.is_finite() && height > 0.0 {
            height
        } else {
            1.0
        },
        ground,
        floor: super::floor::sloping(&samples.body().copied().collect::<Vec<_>>()),
        names,
    };
    let mut a = empty(rig, &cx);
    let wings = super::creatures::wings(&cx, &mut a);
    let groups = group(cx.ground_chains());
    let kind = plans::choose(&cx, &mut a, groups, forced);
    plans::fill_subtrees(rig, &mut a);
    super::axes::sides(&cx, &mut a);
    let kind = if wings && kind != Kind::Quadruped && forced.is_none() {
        Kind::Winged
    } else {
        kind
    };
    a.kind = kind.coarse();
    (a, kind)
}
