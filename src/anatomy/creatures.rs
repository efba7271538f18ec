//! Creatures: quadrupeds (front legs on the chest, or on the same bone as the hind legs and
//! split along the body), multi-legged ones (legs by segment), legless chains and wings.

use super::detect::{Ctx, Indexed, LegGroup};
use super::kinds::{LimbKind, Role};
use super::plans::{arm_roles, hind_leg_roles, leg_roles, push_limb};
use glam::DVec3;

type Anatomy = Indexed;

/// Pushes two hind and two front legs; returns their top bones.
fn four_legs(
    cx: &Ctx,
    a: &mut Anatomy,
    (hind, hind_legs): (usize, Vec<Vec<usize>>),
    (front, front_legs): (usize, Vec<Vec<usize>>),
) -> Vec<usize> {
    let mut tops = Vec::new();
    for (legs, kind, root) in [
        (hind_legs, LimbKind::HindLeg, hind),
        (front_legs, LimbKind::FrontLeg, front),
    ] {
        // Of more than two, the twins (a rabbit's dewlap bone hanging to the ground from its
        // chest, first in the file, took its right front leg's place).
        for path in super::plans::two_legs(cx, legs) {
            let path = cx.limb_path(path[0]);
            tops.push(path[0]);
            match kind {
                LimbKind::HindLeg => hind_leg_roles(cx, a, &path),
                _ => arm_roles(cx, a, &path),
            }
            push_limb(a, kind, root, path);
        }
    }
    tops
}

/// The chain from `from` reaching farthest, skipping `skip`, as the tail; a chain that starts
/// with a bone named as a hip bone is part of the pelvis (a girdle), not the tail. Where no
/// chain is left on `from`, a chain hanging behind it from the bone above it: a Rigify bear's
/// tail hangs from the spine bone above its pelvis, and its hip bone `pelvis.L` was its tail.
fn tail(cx: &Ctx, a: &mut Anatomy, from: usize, skip: &[usize]) {
    let mut skip = skip.to_vec();
    let mut found = None;
    while let Some(path) = free_path(cx, a, from, &mut skip) {
        if !cx.named_girdle(path[0]) {
            found = Some((from, path));
            break;
        }
        a.role[path[0]] = Role::Girdle;
        skip.push(path[0]);
    }
    let found = found.or_else(|| tail_from_above(cx, a, from, &skip));
    if let Some((root, tail)) = found {
        for &b in &tail {
            a.role[b] = Role::Tail;
        }
        push_limb(a, LimbKind::Tail, root, tail);
    }
}

/// The chain from `from` reaching farthest, skipping `skip` and the chains already a limb
/// (added to `skip`): a legless dragon's right wing, the chain reaching farthest, was its
/// tail as well as its wing, and its left wing not.
fn free_path(cx: &Ctx, a: &Anatomy, from: usize, skip: &mut Vec<usize>) -> Option<Vec<usize>> {
    loop {
        let path = cx.limb_path_from(from, skip)?;
        if a.limb_of[path[0]].is_none() {
            return Some(path);
        }
        skip.push(path[0]);
    }
}

/// The chain hanging from the bone above the pelvis `from` that reaches farthest behind it
/// (away from the chest), if any: (that bone, the chain).
fn tail_from_above(
    cx: &Ctx,
    a: &Anatomy,
    from: usize,
    skip: &[usize],
) -> Option<(usize, Vec<usize>)> {
    let up = cx.rig.s_parent[from]?;
    let chest = a.chest.filter(|&c| c != from)?;
    let origin = cx.rig.bones[from].pos;
    let ahead = cx.rig.bones[chest].pos - origin;
    let mut skip: Vec<usize> = skip.iter().copied().chain([from]).collect();
    let path = free_path(cx, a, up, &mut skip)?;
    let end = cx.rig.bones[*path.last()?].pos - origin;
    (end.dot(ahead) < 0.0).then_some((up, path))
}

/// The path from below `root` to the head: to the bone its name calls the head when there is
/// one (outside the `skip` branches), else to the highest point.
fn head_path(cx: &Ctx, root: usize, skip: &[usize]) -> Vec<usize> {
    named_head_path(cx, root, skip).unwrap_or_else(|| cx.highest_path(root, skip))
}

/// The path from below `root` to the bone its name calls the head (outside the `skip`
/// branches); None without one.
pub(super) fn named_head_path(cx: &Ctx, root: usize, skip: &[usize]) -> Option<Vec<usize>> {
    let rig = cx.rig;
    let named = rig.subtree(root).into_iter().find(|&b| {
        cx.names[b].is_some_and(|n| n.role == Role::Head)
            && !rig.ancestors(b).iter().any(|a| skip.contains(a))
            && !skip.contains(&b)
    })?;
    (named != root).then(|| {
        let mut p: Vec<usize> = std::iter::once(named)
            .chain(rig.ancestors(named).into_iter().take_while(|&b| b != root))
            .collect();
        p.reverse();
        p
    })
}

/// A bone from which at least this many chains branch ends a head path: the face's bones
/// (lips, cheeks, brows, lids, ears, jaw, nose, tongue) branch from it.
const FACE_HUB_CHILDREN: usize = 4;

/// Neck and head along `path`: the last bone is the head, or the first from which a face
/// branches ([`face_hub`]); what hangs below that head is part of it (merged into its body).
/// A Rigify bear's head path ran through its face to the tip of its nose, the nose its head,
/// and its 40 facial bones were bodies of their own. Returns the head.
fn neck_and_head(cx: &Ctx, a: &mut Anatomy, path: &[usize]) -> Option<usize> {
    let rig = cx.rig;
    let hub = (path.iter().enumerate()).position(|(k, &b)| face_hub(cx, a, b, path.get(k + 1)));
    let path = &path[..hub.map_or(path.len(), |k| k + 1)];
    if let Some(&head) = hub.and(path.last()) {
        for b in rig.subtree(head).into_iter().filter(|&b| b != head) {
            a.role[b] = Role::Helper;
        }
    }
    for (k, &b) in path.iter().enumerate() {
        a.role[b] = if k + 1 == path.len() {
            Role::Head
        } else {
            Role::Neck
        };
    }
    a.head = path.last().copied();
    a.head
}

/// Whether a face branches from bone `b` of a head path (`next`: the path's bone below it):
/// at least [`FACE_HUB_CHILDREN`] chains, or, beside the path, a pair of twins (ears, eyes,
/// horns). A dog's skull bone `Neck_Top` holds its ears and its jaw, the path's farthest
/// bone, and the jaw (1 kg) was its head, the skull (5.6 kg) its neck; an unnamed pig's the
/// same with its snout. A bone a limb hangs from is no face: a sitting wolf's chest (neck,
/// shoulders, breasts) was its head, its front legs part of it.
fn face_hub(cx: &Ctx, a: &Anatomy, b: usize, next: Option<&usize>) -> bool {
    let children = &cx.rig.s_children[b];
    if children.iter().any(|&c| a.limb_of[c].is_some()) {
        return false;
    }
    let beside: Vec<usize> = (children.iter().copied())
        .filter(|c| Some(c) != next)
        .collect();
    let twins = next.is_some() && cx.a_loose_pair(b, &beside);
    children.len() >= FACE_HUB_CHILDREN || twins
}

/// Hind legs on the pelvis, front legs on the chest (its descendant, or on a chain beside the
/// pelvis's from a bone of the back between them).
pub(super) fn quadruped(cx: &Ctx, a: &mut Anatomy, hind: LegGroup, front: LegGroup) {
    let (hind_legs, front_legs) = (hind.legs, front.legs);
    let (hind, front) = (hind.root, front.root);
    a.pelvis = Some(hind);
    a.chest = Some(front);
    a.role[hind] = Role::Pelvis;
    a.role[front] = Role::Chest;
    let mut tops = four_legs(cx, a, (hind, hind_legs), (front, front_legs));
    let spine = spine_between(cx, hind, front);
    for &b in &spine {
        a.role[b] = Role::Spine;
    }
    let origin = cx.rig.bones[hind].pos;
    // The bone the names call the head, else the branch reaching farthest from the pelvis
    // (a long neck's head; an ear or a horn must not pass for it when a head is named).
    let head_path =
        named_head_path(cx, front, &tops).unwrap_or_else(|| cx.farthest_path(front, origin, &tops));
    neck_and_head(cx, a, &head_path);
    tops.extend(spine.last().copied().or(Some(front)));
    tail(cx, a, hind, &tops);
}

/// The spine's bones from the chest down to the pelvis (nearest the chest first): the chest's
/// ancestors below the pelvis (or below the bare bones above it); where hips and shoulders
/// hang on two chains from a bone of the back between them, the back runs from the shoulders
/// up to that bone and down to the hips.
fn spine_between(cx: &Ctx, hind: usize, front: usize) -> Vec<usize> {
    // Rigged from the shoulders, the pelvis hangs below the chest: the bones between them.
    let above_hind = cx.rig.ancestors(hind);
    if above_hind.contains(&front) {
        let mut down: Vec<usize> = above_hind.into_iter().take_while(|&b| b != front).collect();
        down.reverse();
        return down;
    }
    let bare = super::plans::bare_above(cx, hind);
    let above_front = cx.rig.ancestors(front).into_iter();
    let spine: Vec<usize> = above_front
        .take_while(|&b| b != hind && !bare.contains(&b))
        .collect();
    let Some(back) = super::plans::back_between(cx, hind, front) else {
        return spine;
    };
    let up: Vec<usize> = (cx.rig.ancestors(hind).into_iter())
        .take_while(|&b| b != back)
        .collect();
    (spine.into_iter().take_while(|&b| b != back))
        .chain([back])
        .chain(up.into_iter().rev())
        .collect()
}

/// Which way along the body a leg lies: +1 front, -1 back, from the words of its bones.
pub(super) fn named_end(cx: &Ctx, path: &[usize]) -> f64 {
    let says = |w: &[&str]| {
        path.iter().any(|&b| {
            cx.rig.bones[b]
                .hints
                .words
                .iter()
                .any(|x| w.contains(&x.as_str()))
        })
    };
    match (says(&["front", "fore"]), says(&["back", "hind", "rear"])) {
        (true, false) => 1.0,
        (false, true) => -1.0,
        _ => 0.0,
    }
}

/// Four legs (or five) on one bone: split front and hind by their names, else along the line
/// from the root to the highest other branch (the head end).
pub(super) fn quadruped_one_root(cx: &Ctx, a: &mut Anatomy, g: &LegGroup) {
    let root = g.root;
    let tops: Vec<usize> = g.legs.iter().map(|p| p[0]).collect();
    let head_path = head_path(cx, root, &tops);
    let horizontal = |v: DVec3| DVec3::new(v.x, 0.0, v.z);
    let axis = head_path
        .last()
        .map(|&h| horizontal(cx.rig.bones[h].pos - cx.rig.bones[root].pos))
        .unwrap_or(DVec3::Z);
    let foot = |p: &Vec<usize>| cx.rig.bones[*p.last().unwrap_or(&root)].pos;
    let mut legs: Vec<(f64, Vec<usize>)> = g
        .legs
        .iter()
        .map(|p| {
            let named = named_end(cx, p);
            let along = foot(p).dot(axis.normalize_or_zero());
            (named * 1e12 + along, p.clone())
        })
        .collect();
    legs.sort_by(|x, y| x.0.total_cmp(&y.0));
    let legs: Vec<Vec<usize>> = legs.into_iter().map(|x| x.1).collect();
    let (hind, front) = legs.split_at(2);
    a.pelvis = Some(root);
    a.role[root] = Role::Pelvis;
    let mut tops = four_legs(cx, a, (root, hind.to_vec()), (root, front[..2].to_vec()));
    neck_and_head(cx, a, &head_path);
    tops.extend(head_path.first().copied());
    tail(cx, a, root, &tops);
}

/// Six legs or more: every leg by segment (thigh, shin, foot) from the bone with the most legs;
/// the highest other branch is the head, the farthest remaining one the tail (abdomen).
pub(super) fn multi_legged(cx: &Ctx, a: &mut Anatomy, groups: &[LegGroup]) {
    let Some(main) = groups.iter().max_by_key(|g| g.legs.len()) else {
        return;
    };
    let root = main.root;
    a.pelvis = Some(root);
    a.role[root] = Role::Pelvis;
    let mut tops = Vec::new();
    for g in groups {
        for p in &g.legs {
            let path = cx.limb_path(p[0]);
            tops.push(path[0]);
            leg_roles(a, &path);
            push_limb(a, LimbKind::Leg, g.root, path);
        }
    }
    let head_path = head_path(cx, root, &tops);
    neck_and_head(cx, a, &head_path);
    tops.extend(head_path.first().copied());
    tail(cx, a, root, &tops);
}

/// No legs, and long along the ground (at least twice as long as tall): the main chain from
/// its root, the head at the end its names call the head (else the highest end), the other
/// end the tail. False when the skeleton is not such a chain.
pub(super) fn legless(cx: &Ctx, a: &mut Anatomy) -> bool {
    let rig = cx.rig;
    let pts: Vec<DVec3> = rig
        .bones
        .iter()
        .filter(|b| b.structural)
        .map(|b| b.pos)
        .collect();
    let (lo, hi) = pts.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(l, h), p| (l.min(*p), h.max(*p)),
    );
    let long = (hi.x - lo.x).max(hi.z - lo.z);
    let root = (0..rig.len())
        .filter(|&i| rig.bones[i].structural && rig.s_parent[i].is_none())
        .max_by_key(|&i| rig.subtree(i).len());
    let Some(root) = root else { return false };
    // NaN lengths count as short.
    if long
        .partial_cmp(&(2.0 * cx.height))
        .is_none_or(|o| o.is_lt())
        || rig.subtree(root).len() < 4
    {
        return false;
    }
    let head_path = head_path(cx, root, &[]);
    a.pelvis = Some(root);
    a.role[root] = Role::Pelvis;
    let n = head_path.len();
    for (k, &b) in head_path.iter().enumerate() {
        a.role[b] = match k {
            _ if k + 1 == n => Role::Head,
            _ if k + 2 == n => Role::Neck,
            _ => Role::Spine,
        };
    }
    a.head = head_path.last().copied();
    tail(cx, a, root, &head_path[..n.min(1)]);
    true
}

/// Chains named wings (with the single-child bones leading to them, such as a wing's
/// shoulder) become wing limbs first, so that no other plan takes them for arms or legs.
/// True when there are any.
pub(super) fn wings(cx: &Ctx, a: &mut Anatomy) -> bool {
    let rig = cx.rig;
    let is_wing = |b: usize| rig.bones[b].hints.words.iter().any(|w| w.contains("wing"));
    let tops: Vec<usize> = (0..rig.len())
        .filter(|&b| rig.bones[b].structural && is_wing(b))
        .filter(|&b| rig.s_parent[b].is_none_or(|p| !is_wing(p)))
        .collect();
    for &top in &tops {
        let mut start = top;
        while let Some(p) = rig.s_parent[start] {
            if rig.s_children[p].len() != 1 || rig.s_parent[p].is_none() {
                break;
            }
            start = p;
        }
        let path = cx.limb_path(start);
        let root = rig.s_parent[start].unwrap_or(start);
        push_limb(a, LimbKind::Wing, root, path);
    }
    !tops.is_empty()
}
