//! The body plans: given the ground-reaching chains, which bone is pelvis, spine, chest, neck,
//! head, and which chains are legs, arms and the tail; limb segments numbered from the body
//! outwards (see [`super::roles`]).

use super::rig::Rig;
use super::roles::{topo_all, topo_order, Anatomy, CharacterKind, Ctx, Limb, LimbKind, Role};

fn assign(a: &mut Anatomy, path: &[usize], roles: &[Role]) {
    for (k, &b) in path.iter().enumerate() {
        a.role[b] = roles
            .get(k)
            .copied()
            .unwrap_or(*roles.last().unwrap_or(&Role::Other));
    }
}

/// Roles of a leg path: thigh, shin, foot, then toes.
fn leg_roles(a: &mut Anatomy, path: &[usize]) {
    assign(a, path, &[Role::Thigh, Role::Shin, Role::Foot, Role::Toe]);
}

/// Roles of an arm path: an optional short clavicle, upper arm, forearm, hand, then fingers.
fn arm_roles(cx: &Ctx, a: &mut Anatomy, path: &[usize]) {
    let seg = |k: usize| match (path.get(k), path.get(k + 1)) {
        (Some(&x), Some(&y)) => cx.dist(x, y),
        _ => 0.0,
    };
    let clavicle = path.len() >= 4 && seg(0) < 0.7 * seg(1);
    let roles: &[Role] = if clavicle {
        &[
            Role::Clavicle,
            Role::UpperArm,
            Role::Forearm,
            Role::Hand,
            Role::Finger,
        ]
    } else {
        &[Role::UpperArm, Role::Forearm, Role::Hand, Role::Finger]
    };
    assign(a, path, roles);
}

fn push_limb(a: &mut Anatomy, kind: LimbKind, root: usize, path: Vec<usize>) {
    let k = a.limbs.len();
    for &b in &path {
        a.limb_of[b] = Some(k);
    }
    a.limbs.push(Limb {
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
    let mut legs = legs;
    legs.truncate(2);
    let tops: Vec<usize> = legs.iter().filter_map(|p| p.first().copied()).collect();
    for path in legs {
        let path = cx.limb_path(path[0]);
        leg_roles(a, &path);
        push_limb(a, LimbKind::Leg, pelvis, path);
    }
    let path = cx.highest_path(pelvis, &tops);
    // Side chains off the spine path that reach far: the two longest are the arms.
    let mut side_chains: Vec<(f64, usize, usize)> = Vec::new(); // (reach, path index, top)
    for (k, &b) in path.iter().enumerate() {
        let next = path.get(k + 1).copied();
        for &c in &cx.rig.s_children[b] {
            if Some(c) == next {
                continue;
            }
            let far = cx
                .rig
                .subtree(c)
                .iter()
                .map(|&d| cx.dist(b, d))
                .fold(0.0, f64::max);
            if far > 0.2 * cx.height {
                side_chains.push((far, k, c));
            }
        }
    }
    side_chains.sort_by(|x, y| y.0.total_cmp(&x.0));
    side_chains.truncate(2);
    let chest_k = match side_chains.iter().map(|s| s.1).max() {
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
    for (_, _, top) in side_chains {
        let p = cx.limb_path(top);
        arm_roles(cx, a, &p);
        let root = cx.rig.s_parent[top].unwrap_or(pelvis);
        push_limb(a, LimbKind::Arm, root, p);
    }
}

pub(super) fn quadruped(
    cx: &Ctx,
    a: &mut Anatomy,
    (hind, hind_legs): (usize, Vec<Vec<usize>>),
    (front, front_legs): (usize, Vec<Vec<usize>>),
) {
    a.kind = CharacterKind::Quadruped;
    a.pelvis = Some(hind);
    a.chest = Some(front);
    a.role[hind] = Role::Pelvis;
    a.role[front] = Role::Chest;
    let mut tops = Vec::new();
    for (legs, kind, root) in [
        (hind_legs, LimbKind::HindLeg, hind),
        (front_legs, LimbKind::FrontLeg, front),
    ] {
        for path in legs.into_iter().take(2) {
            let path = cx.limb_path(path[0]);
            tops.push(path[0]);
            match kind {
                LimbKind::HindLeg => leg_roles(a, &path),
                _ => arm_roles(cx, a, &path),
            }
            push_limb(a, kind, root, path);
        }
    }
    let spine: Vec<usize> = cx
        .rig
        .ancestors(front)
        .into_iter()
        .take_while(|&b| b != hind)
        .collect();
    for &b in &spine {
        a.role[b] = Role::Spine;
    }
    let origin = cx.rig.bones[hind].pos;
    let head_path = cx.farthest_path(front, origin, &tops);
    for (k, &b) in head_path.iter().enumerate() {
        a.role[b] = if k + 1 == head_path.len() {
            Role::Head
        } else {
            Role::Neck
        };
    }
    a.head = head_path.last().copied();
    let mut skip = tops.clone();
    skip.extend(spine.last().copied().or(Some(front)));
    let tail = cx.limb_path_from(hind, &skip);
    if let Some(tail) = tail {
        for &b in &tail {
            a.role[b] = Role::Tail;
        }
        push_limb(a, LimbKind::Tail, hind, tail);
    }
}

impl Ctx<'_> {
    /// The child chain of `from` reaching farthest from it, skipping `skip` (a tail).
    pub(super) fn limb_path_from(&self, from: usize, skip: &[usize]) -> Option<Vec<usize>> {
        let origin = self.rig.bones[from].pos;
        let reach_of = |t: usize| {
            self.rig
                .subtree(t)
                .iter()
                .map(|&b| self.rig.bones[b].pos.distance(origin))
                .fold(0.0, f64::max)
        };
        let c = self.rig.s_children[from]
            .iter()
            .copied()
            .filter(|c| !skip.contains(c))
            .max_by(|&x, &y| reach_of(x).total_cmp(&reach_of(y)))?;
        if reach_of(c) < 0.1 * self.height {
            return None;
        }
        let mut path = vec![c];
        path.extend(self.farthest_path(c, origin, &[]));
        Some(self.trim(path))
    }
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
