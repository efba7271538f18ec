//! The body plans: given the legs (ground-reaching chains grouped by the bone they hang from),
//! which plan the character follows, which bone is pelvis, spine, chest, neck, head, and which
//! chains are legs, arms and the tail; limb segments numbered from the body outwards (see
//! [`super::detect`]; creatures in [`super::creatures`]).

use super::creatures;
use super::detect::{Ctx, Indexed, IndexedLimb, LegGroup};
use super::kinds::{CharacterKind, Kind, LimbKind, Role};
use super::names::Side;
use super::rig::{topo_all, topo_order, Rig};

type Anatomy = Indexed;

/// Picks the plan from the legs (and the forced coarse kind) and assigns it; returns the fine
/// kind.
pub(super) fn choose(
    cx: &Ctx,
    a: &mut Anatomy,
    groups: Vec<LegGroup>,
    forced: Option<CharacterKind>,
) -> Kind {
    let legs: usize = groups.iter().map(|g| g.legs.len()).sum();
    let want = |k: CharacterKind| forced.is_none_or(|f| f == k);
    let quadruped = match forced {
        Some(k) => k == CharacterKind::Quadruped,
        None => (4..6).contains(&legs),
    };
    if quadruped && four_legged(cx, a, &groups) {
        return Kind::Quadruped;
    }
    // The most legs; of as many, those hanging lowest (hips, not a head with braids). Two of
    // them a pair, mirror images or named for two sides: a shark's jaw and its pectoral fins,
    // one ahead of the other on its root, were a biped's legs.
    let two_legs = groups
        .iter()
        .filter(|g| {
            let tops: Vec<usize> = g.legs.iter().map(|p| p[0]).collect();
            tops.len() >= 2 && cx.a_loose_pair(g.root, &tops)
        })
        .max_by(|x, y| {
            let height = |g: &LegGroup| cx.rig.bones[g.root].pos.y;
            x.legs
                .len()
                .cmp(&y.legs.len())
                .then(height(y).total_cmp(&height(x)))
        })
        .cloned();
    if legs >= 6 && forced.is_none() {
        creatures::multi_legged(cx, a, &groups);
        return Kind::MultiLegged;
    }
    match two_legs {
        Some(g) if want(CharacterKind::Humanoid) => {
            biped(cx, a, (g.root, g.legs));
            return Kind::Biped;
        }
        _ => {}
    }
    if want(CharacterKind::Humanoid) && !(forced.is_none() && legs >= 4) {
        if let Some(g) = named_legs(cx) {
            a.notes.push(
                "the legs do not reach the ground: the biped was recognised by its bone names"
                    .into(),
            );
            biped(cx, a, (g.root, g.legs));
            return Kind::Biped;
        }
    }
    if let Some(k) = forced.filter(|&k| k != CharacterKind::Other) {
        a.notes.push(format!(
            "the skeleton does not have the limbs of a {}: generated as 'other'",
            k.name()
        ));
    }
    if forced.is_none() && creatures::legless(cx, a) {
        return Kind::Legless;
    }
    other(cx, a);
    Kind::Other
}

/// Two pairs of legs: on two bones, one above the other (hind on the pelvis, front on the
/// chest), or four on one bone. False when the legs are not so.
fn four_legged(cx: &Ctx, a: &mut Anatomy, groups: &[LegGroup]) -> bool {
    let pairs: Vec<&LegGroup> = groups.iter().filter(|g| g.legs.len() >= 2).collect();
    let by_name =
        |g: &LegGroup| -> f64 { g.legs.iter().map(|p| creatures::named_end(cx, p)).sum() };
    let two_roots = pairs.iter().find_map(|h| {
        let f = pairs.iter().find(|f| {
            let above = cx.rig.ancestors(f.root);
            let hind = std::iter::once(h.root).chain(bare_above(cx, h.root));
            // Legs named front and back stand one behind the other wherever their bones are:
            // a Rigify wolf sits, its chest above its hips (and read as a biped).
            f.root != h.root
                && (hind.into_iter().any(|b| above.contains(&b))
                    || back_between(cx, h.root, f.root).is_some_and(|b| ahead(cx, b, h, f)))
                && (side_by_side(cx, h.root, f.root) || by_name(h) != by_name(f))
        })?;
        // The file's tree says which pair hangs deeper; the names say which is behind. A
        // creature rigged from its shoulders (a triceratops: `root` holds the neck and the
        // `leg-front-*`, `back2` the `leg-back-*` and the tail) was read backwards.
        match by_name(h) > by_name(f) {
            true => Some(((*f).clone(), (*h).clone())),
            false => Some(((*h).clone(), (*f).clone())),
        }
    });
    if let Some((hind, front)) = two_roots {
        creatures::quadruped(cx, a, hind, front);
        return true;
    }
    match pairs.iter().find(|g| g.legs.len() >= 4) {
        Some(g) => {
            creatures::quadruped_one_root(cx, a, g);
            true
        }
        None => false,
    }
}

/// The bone of the back both `hind` and `front` hang from, through bones of their own, when
/// it lies between them along the body: a rig rooted in the middle of the back (a dog's
/// `spine.006`, its hips behind it and its shoulders ahead of it on two chains of their own).
/// A bone beyond either end (a root at the floor holding two characters) is no back.
pub(super) fn back_between(cx: &Ctx, hind: usize, front: usize) -> Option<usize> {
    let (above_front, above_hind) = (cx.rig.ancestors(front), cx.rig.ancestors(hind));
    if above_front.contains(&hind) || above_hind.contains(&front) {
        return None;
    }
    let shared = above_hind.into_iter().find(|b| above_front.contains(b))?;
    let at = |b: usize| cx.rig.bones[b].pos;
    let level = |v: glam::DVec3| glam::DVec3::new(v.x, 0.0, v.z);
    let along = level(at(front) - at(hind));
    let t = level(at(shared) - at(hind)).dot(along) / along.length_squared().max(1e-12);
    (0.0..=1.0).contains(&t).then_some(shared)
}

/// Whether legs `front` hang ahead of legs `hind` from the bone of the back between them:
/// as their names say (`front_thigh.L`), else by the branch reaching higher (the neck and
/// head): a cat so rigged had been read backwards, its tail as its neck and head.
fn ahead(cx: &Ctx, back: usize, hind: &LegGroup, front: &LegGroup) -> bool {
    let named = |g: &LegGroup| -> f64 { g.legs.iter().map(|p| creatures::named_end(cx, p)).sum() };
    let (h, f) = (named(hind), named(front));
    if h != f {
        return f > h;
    }
    let branch = |g: &LegGroup| {
        let below = std::iter::once(g.root).chain(cx.rig.ancestors(g.root));
        below.take_while(|&b| b != back).last().unwrap_or(g.root)
    };
    let high = |g: &LegGroup| cx.reach.sub_high[branch(g)];
    high(front) >= high(hind)
}

/// Whether two pairs of legs hanging from bones `a` and `b` can stand one behind the other:
/// the two bones lie at least as far apart along the ground as one above the other. A pair
/// hanging from a bone right above the other pair's (two braids or a cape's hems hanging from
/// a person's head to the ground behind their legs) is not a second pair of legs.
fn side_by_side(cx: &Ctx, a: usize, b: usize) -> bool {
    let d = cx.rig.bones[b].pos - cx.rig.bones[a].pos;
    let along_ground = (d.x * d.x + d.z * d.z).sqrt();
    along_ground >= d.y.abs()
}

/// The bones above `b` that carry no skin, nearest first, up to the first that does: a
/// root bone on the floor from which the pelvis and the trunk hang side by side (a chibi's
/// `root` holds `hips` and `spine`; an Ivysaur's the hips and the spine with its front legs).
pub(super) fn bare_above(cx: &Ctx, b: usize) -> Vec<usize> {
    let above = cx.rig.ancestors(b);
    above
        .into_iter()
        .take_while(|&p| cx.reach.count[p] == 0)
        .collect()
}

/// The legs as the names say: a unique pelvis-named bone with a left and a right
/// thigh-named bone below it (for a character whose legs do not reach the ground).
fn named_legs(cx: &Ctx) -> Option<LegGroup> {
    let rig = cx.rig;
    let named = |r: Role| {
        (0..rig.len())
            .filter(|&i| rig.bones[i].structural && cx.names[i].is_some_and(|n| n.role == r))
            .collect::<Vec<usize>>()
    };
    let [pelvis] = named(Role::Pelvis)[..] else {
        return None;
    };
    let mut legs = Vec::new();
    for side in [Side::Left, Side::Right] {
        let thigh = named(Role::Thigh).into_iter().find(|&t| {
            cx.names[t].is_some_and(|n| n.side == Some(side)) && rig.ancestors(t).contains(&pelvis)
        })?;
        let top = std::iter::once(thigh)
            .chain(rig.ancestors(thigh))
            .take_while(|&b| b != pelvis)
            .last()?;
        legs.push(vec![top]);
    }
    Some(LegGroup { root: pelvis, legs })
}

pub(super) fn assign(a: &mut Anatomy, path: &[usize], roles: &[Role]) {
    for (k, &b) in path.iter().enumerate() {
        a.role[b] = roles
            .get(k)
            .copied()
            .unwrap_or(*roles.last().unwrap_or(&Role::Other));
    }
}

/// Roles of a leg path: thigh, shin, foot, then toes.
pub(super) fn leg_roles(a: &mut Anatomy, path: &[usize]) {
    assign(a, path, &Role::LEG_SEQUENCE);
}

/// Whether a limb path starts with a girdle bone (a clavicle, a hip bone): at least four
/// bones, the first segment under 0.7 of the second, or the first bone named as a girdle
/// (a bear's `shoulder.L`, its scapula as long as its upper arm, was its upper arm, and each
/// bone below it one segment off: its shin its hand).
pub(super) fn starts_with_girdle(cx: &Ctx, path: &[usize]) -> bool {
    let seg = |k: usize| match (path.get(k), path.get(k + 1)) {
        (Some(&x), Some(&y)) => cx.dist(x, y),
        _ => 0.0,
    };
    (path.len() >= 4 && seg(0) < 0.7 * seg(1)) || starts_with_named_girdle(cx, path)
}

/// Whether a limb path of at least four bones starts with a bone named as a girdle.
fn starts_with_named_girdle(cx: &Ctx, path: &[usize]) -> bool {
    path.len() >= 4 && cx.named_girdle(path[0])
}

/// Whether a hind leg path starts with a hip bone: a girdle ([`starts_with_girdle`]) lying
/// across the body (more sideways than down), below which three bones still start above the
/// ground (thigh, shin and foot: a leg whose third bone is already on the ground, a rat's,
/// reads its first bone as the thigh).
fn starts_with_hip_bone(cx: &Ctx, path: &[usize]) -> bool {
    let bones = &cx.rig.bones;
    let across = |a: usize, b: usize| {
        let d = bones[b].pos - bones[a].pos;
        d.y.abs() < 0.5 * d.length()
    };
    let above = |b: &&usize| bones[**b].pos.y > cx.ground + 0.1 * cx.height;
    starts_with_named_girdle(cx, path)
        || (starts_with_girdle(cx, path)
            && across(path[0], path[1])
            && path[1..].iter().filter(above).count() >= 3)
}

/// Roles of a quadruped's hind leg: an optional hip bone (part of the pelvis), then thigh,
/// shin, foot and toes as a leg's.
pub(super) fn hind_leg_roles(cx: &Ctx, a: &mut Anatomy, path: &[usize]) {
    if starts_with_hip_bone(cx, path) {
        a.role[path[0]] = Role::Girdle;
        leg_roles(a, &path[1..]);
    } else {
        leg_roles(a, path);
    }
}

/// Roles of an arm path: an optional short clavicle, upper arm, forearm, hand, then fingers.
pub(super) fn arm_roles(cx: &Ctx, a: &mut Anatomy, path: &[usize]) {
    let roles: &[Role] = if starts_with_girdle(cx, path) {
        &Role::ARM_SEQUENCE
    } else {
        &Role::ARM_SEQUENCE[1..]
    };
    assign(a, path, roles);
}

pub(super) fn push_limb(a: &mut Anatomy, kind: LimbKind, root: usize, path: Vec<usize>) {
    let k = a.limbs.len();
    for &b in &path {
        a.limb_of[b] = Some(k);
    }
    a.limbs.push(IndexedLimb {
        kind,
        side: None,
        root,
        path,
    });
}

pub(super) fn biped(cx: &Ctx, a: &mut Anatomy, (pelvis, legs): (usize, Vec<Vec<usize>>)) {
    a.kind = CharacterKind::Humanoid;
    a.pelvis = Some(pelvis);
    a.role[pelvis] = Role::Pelvis;
    let legs = two_legs(cx, legs);
    let tops: Vec<usize> = legs.iter().filter_map(|p| p.first().copied()).collect();
    for path in legs {
        let path = cx.limb_path(path[0]);
        leg_roles(a, &path);
        push_limb(a, LimbKind::Leg, pelvis, path);
    }
    let path = torso_path(cx, pelvis, &tops);
    let side_chains = arm_chains(cx, a, pelvis, &path);
    let chest_k = match side_chains.iter().filter_map(|s| s.at).max() {
        Some(k) => Some(k),
        None if path.len() >= 3 => Some(path.len() - 3),
        None if path.len() == 2 => Some(0),
        None => None,
    };
    for (k, &b) in path.iter().enumerate() {
        a.role[b] = match chest_k {
            Some(c) if k < c => Role::Spine,
            Some(c) if k == c => Role::Chest,
            _ if k + 1 == path.len() => Role::Head,
            _ => Role::Neck,
        };
    }
    a.chest = chest_k.and_then(|k| path.get(k).copied());
    a.head = path.last().copied().filter(|&h| a.role[h] == Role::Head);
    for SideChain { top, .. } in side_chains {
        let p = cx.limb_path(top);
        arm_roles(cx, a, &p);
        let root = cx.rig.s_parent[top].unwrap_or(pelvis);
        push_limb(a, LimbKind::Arm, root, p);
    }
}

/// Of more than two legs on the pelvis, the two that are twins: the pair whose names give
/// them opposite sides, else whose bone counts and lengths are most alike (a Pokémon's tail,
/// `Feeler`, reaches the ground beside its legs from the same bone: it was taken for a
/// thigh and the right leg left out).
pub(super) fn two_legs(cx: &Ctx, legs: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    if legs.len() <= 2 {
        return legs;
    }
    let length = |p: &[usize]| p.windows(2).map(|w| cx.dist(w[0], w[1])).sum::<f64>();
    let side = |p: &[usize]| p.iter().find_map(|&b| cx.names[b].and_then(|n| n.side));
    let unlike = |x: &[usize], y: &[usize]| {
        let named = matches!((side(x), side(y)), (Some(a), Some(b)) if a != b);
        let count = x.len().abs_diff(y.len());
        let (lx, ly) = (length(x), length(y));
        let spread = (lx - ly).abs() / lx.max(ly).max(1e-9);
        (!named, count, spread)
    };
    let n = legs.len();
    let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
    let best = pairs
        .min_by(|&(a, b), &(c, d)| {
            let (x, y) = (unlike(&legs[a], &legs[b]), unlike(&legs[c], &legs[d]));
            (x.0, x.1).cmp(&(y.0, y.1)).then(x.2.total_cmp(&y.2))
        })
        .unwrap_or((0, 1));
    vec![legs[best.0].clone(), legs[best.1].clone()]
}

/// A chain hanging from the torso.
struct SideChain {
    /// How far it reaches from the bone it hangs from.
    reach: f64,
    /// The index on the torso path of the bone it hangs from; None for the pelvis.
    at: Option<usize>,
    top: usize,
}

/// Side chains off the torso path `path` (or, named as arms, off the pelvis or the bone it
/// hangs from), at most two:
/// the arms. The two that reach farthest (beyond a fifth of the height), those whose names
/// say an arm with a side first: a Pokémon's `LArm` and `RArm` beside its legs and its head
/// on the one bone of its body, reaching under a fifth of its height, were no arms.
fn arm_chains(cx: &Ctx, a: &Anatomy, pelvis: usize, path: &[usize]) -> Vec<SideChain> {
    let named_arm = |c: usize| {
        cx.names[c]
            .is_some_and(|n| matches!(n.role, Role::Clavicle | Role::UpperArm) && n.side.is_some())
    };
    // Not from the head or above it (the bone named as the head, else the path's end where
    // the path has a neck below it): a chain under a dimetrodon's head, its jaw, reached a
    // fifth of its height and was its arm.
    let named_head = path
        .iter()
        .position(|&b| cx.names[b].is_some_and(|n| n.role == Role::Head));
    let head = named_head.or((path.len() >= 3).then(|| path.len() - 1));
    let on_path = path
        .iter()
        .enumerate()
        .filter(|&(k, _)| head.is_none_or(|h| k < h))
        .map(|(k, &b)| (Some(k), b));
    // Named arms may also hang from the trunk bone the hips hang from (a robot's `torso`
    // holds its `hips`, neck and `upperarm.L`/`.R`: its arms were no arms).
    let above = cx.rig.s_parent[pelvis].map(|u| (None, u));
    let mut side_chains: Vec<SideChain> = Vec::new();
    for (at, b) in [(None, pelvis)].into_iter().chain(above).chain(on_path) {
        let next = match at {
            Some(k) => path.get(k + 1),
            None => path.first(),
        }
        .copied();
        for &c in &cx.rig.s_children[b] {
            if Some(c) == next || c == pelvis || a.limb_of[c].is_some() {
                continue;
            }
            let reach = reach_with_ends(cx, b, c);
            let named = named_arm(c) && reach > MIN_NAMED_ARM * cx.height;
            if named || (at.is_some() && reach > 0.2 * cx.height) {
                side_chains.push(SideChain { reach, at, top: c });
            }
        }
    }
    side_chains.sort_by(|x, y| {
        (named_arm(y.top).cmp(&named_arm(x.top))).then(y.reach.total_cmp(&x.reach))
    });
    side_chains.truncate(2);
    side_chains
}

/// The least reach of an arm its names say, as a share of the height.
const MIN_NAMED_ARM: f64 = 0.05;

/// The path from the pelvis up to the highest point (spine, chest, neck, head), the legs'
/// tops skipped. Where nothing but the legs hangs from the pelvis, the torso hangs beside it
/// from a bone above it that carries no skin (a root bone on the floor: a chibi's `hips`
/// holds its legs and its `spine` hangs from `root`): the path starts there. Where nothing
/// but the legs and a tail named as such hangs from it, the torso hangs from the bone above
/// (a Slowpoke's `Hips` holds its legs and tail, its `Spine` hangs from `Waist`).
fn torso_path(cx: &Ctx, pelvis: usize, tops: &[usize]) -> Vec<usize> {
    let path = highest_torso_path(cx, pelvis, tops);
    // A path that misses the bone named as the head climbed something else (a Charizard's
    // wings raised above its head): the torso runs to the named head.
    let Some(&first) = path.first() else {
        return path;
    };
    let hang = cx.rig.s_parent[first].unwrap_or(pelvis);
    // Or on the bone above the pelvis, the trunk beside the hips (a Pikachu's `Spine1` and
    // `Hips` on `Waist`, its tail on its hips).
    let beside = || {
        let above = cx.rig.s_parent[pelvis]?;
        let skip: Vec<usize> = tops.iter().copied().chain([pelvis]).collect();
        creatures::named_head_path(cx, above, &skip)
    };
    let path = match creatures::named_head_path(cx, hang, tops).or_else(beside) {
        Some(named) if named.last().is_some_and(|h| !path.contains(h)) => named,
        _ => path,
    };
    end_at_named_head(cx, path)
}

/// A torso path that runs through the bone named as the head ends there: what hangs below it
/// is its face (a bird's `BN_Mouth_01`, a wolf's `Unterkiefer`, its lower jaw, took the head's
/// role, the head bone the neck's).
fn end_at_named_head(cx: &Ctx, mut path: Vec<usize>) -> Vec<usize> {
    let named = |b: &usize| cx.names[*b].is_some_and(|n| n.role == Role::Head);
    if let Some(k) = path.iter().position(named) {
        path.truncate(k + 1);
    }
    path
}

/// [`torso_path`] by the geometry: the path to the highest point.
fn highest_torso_path(cx: &Ctx, pelvis: usize, tops: &[usize]) -> Vec<usize> {
    let path = cx.highest_path(pelvis, tops);
    let tail = |p: &[usize]| p.first().is_some_and(|&b| cx.rig.bones[b].hints.tail);
    if !path.is_empty() && !tail(&path) {
        return path;
    }
    let above = match path.is_empty() {
        // The bones above with no skin, then the first with skin: a Tripo export of
        // Character Creator's rig hangs `Pelvis` (the legs, no skin) and `Waist` (the
        // spine) side by side from `Hip`, and `Pelvis` hangs from `Waist` in the rig.
        true => {
            let mut above = bare_above(cx, pelvis);
            above.extend(cx.rig.ancestors(pelvis).get(above.len()));
            above
        }
        false => cx.rig.s_parent[pelvis].into_iter().collect(),
    };
    above
        .into_iter()
        .map(|p| cx.highest_path(p, &[pelvis]))
        .find(|p| !p.is_empty() && !tail(p))
        .unwrap_or(path)
}

/// How far from bone `from` a side chain rooted at `top` reaches: its structural bones and
/// the bones in the file right under them, where each segment ends (a hand bone with no skin
/// is not structural, but it is where the forearm ends: the Mixamo Blood Hound's elbows lie
/// 0.33 m from its chest, under a fifth of its height, and its wrists 0.54 m), and the far end
/// of the skin of a bone that ends it ([`Ctx::reach_of`]: a chibi's arm, whose hand is the
/// forearm's skin, reaches past its last bone's head).
fn reach_with_ends(cx: &Ctx, from: usize, top: usize) -> f64 {
    let rig = cx.rig;
    (rig.subtree(top).into_iter())
        .flat_map(|d| std::iter::once(d).chain(rig.children_in_file(d)))
        .map(|d| cx.reach_of(from, d))
        .fold(0.0, f64::max)
}

pub(super) fn other(cx: &Ctx, a: &mut Anatomy) {
    a.kind = CharacterKind::Other;
    let root = topo_order(cx.rig)
        .into_iter()
        .filter(|&i| cx.rig.s_parent[i].is_none())
        .max_by_key(|&i| cx.rig.subtree(i).len());
    if let Some(r) = root {
        a.pelvis = Some(r);
        a.role[r] = Role::Pelvis;
    }
}

/// Bones below a limb's main path take the limb's end role (fingers under the hand, toes
/// under the foot); everything keeps its limb index.
pub(super) fn fill_subtrees(rig: &Rig, a: &mut Anatomy) {
    for k in 0..a.limbs.len() {
        let path = a.limbs[k].path.clone();
        let Some(&end) = path.last() else { continue };
        let below = match a.role[end] {
            Role::Hand | Role::Finger => Role::Finger,
            Role::Foot | Role::Toe => Role::Toe,
            Role::Tail => Role::Tail,
            _ => Role::Other,
        };
        for b in rig.subtree(end) {
            if a.limb_of[b].is_none() {
                a.limb_of[b] = Some(k);
                if a.role[b] == Role::Other {
                    a.role[b] = below;
                }
            }
        }
    }
    // Twist and helper bones (outside the structural tree) belong to their parent's limb.
    for i in topo_all(rig) {
        if !rig.bones[i].structural {
            if let Some(p) = rig.bones[i].parent {
                a.limb_of[i] = a.limb_of[p];
            }
        }
    }
}
