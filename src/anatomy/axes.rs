//! Axes: up is +Y (glTF; gravity is -Y). Forward from the names when they say left and right
//! (the mean direction from each right-named bone to its left twin is the character's left),
//! else from the geometry (the feet of a biped point forward; pelvis to head of a creature);
//! glTF's +Z only when nothing tells, with a note. Each limb's side from its names, else from
//! where it hangs; a name that the rest of the named skeleton disproves gives way to the
//! geometry, with a note.

use super::detect::{Ctx, Indexed};
use super::kinds::{CharacterKind, LimbKind, Role};
use super::names::{NameIndex, Side};
use glam::DVec3;

type Anatomy = Indexed;

fn horizontal(v: DVec3) -> DVec3 {
    DVec3::new(v.x, 0.0, v.z)
}

/// How far (degrees) the named pairs' sum may turn from the limb roots' before the limbs
/// count as posed and the roots decide. Unposed rest poses stay within 0.8° (the 139 files of
/// session 38's check; the zoo's spider 3.6° and a Quaternius alpaca in its stride 3.7°);
/// a Saxon and a soldier holding weapons forward turned 13°, a paladin 8°.
const POSED_LIMBS_DEG: f64 = 5.0;

/// The character's left from its named twins: the sum of (left - right) over structural bones
/// whose names differ only in the side marker. When the limbs are posed (the sum turns more
/// than [`POSED_LIMBS_DEG`] from it), the sum over the twins that hang from the same bone
/// instead (the limb roots: thighs from the pelvis, clavicles from the chest, eyes from the
/// head), which no pose of the limbs moves apart: a Saxon holding its sword forward in its
/// rest pose had its forearms, hands and fingers turn the sum 13° off its hips' line.
fn left_from_names(cx: &Ctx) -> DVec3 {
    let rig = cx.rig;
    let index = NameIndex::new(
        rig.bones
            .iter()
            .enumerate()
            .filter(|(_, b)| b.structural)
            .map(|(i, b)| (i, b.read_name.as_str())),
    );
    let (mut roots, mut all) = (DVec3::ZERO, DVec3::ZERO);
    for (i, b) in rig.bones.iter().enumerate() {
        if !b.structural || b.hints.side != Some(Side::Left) {
            continue;
        }
        if let Some((j, Side::Left)) = index.twin(&b.read_name) {
            let d = horizontal(b.pos - rig.bones[j].pos);
            all += d;
            if rig.s_parent[i].is_some() && rig.s_parent[i] == rig.s_parent[j] {
                roots += d;
            }
        }
    }
    let tiny = 0.01 * cx.height;
    let posed = roots.length() > tiny
        && all.length() > tiny
        && roots.angle_between(all).to_degrees() > POSED_LIMBS_DEG;
    match posed {
        true => roots,
        false => all,
    }
}

/// Forward from the geometry: the feet of a biped (toward the toes, or the foot's skin),
/// from the pelvis toward the head of a creature.
fn forward_from_geometry(cx: &Ctx, a: &Anatomy) -> DVec3 {
    let mut fwd = DVec3::ZERO;
    if a.kind == CharacterKind::Humanoid {
        for l in a.limbs.iter().filter(|l| l.kind == LimbKind::Leg) {
            let Some(&foot) = l.path.iter().find(|&&b| a.role[b] == Role::Foot) else {
                continue;
            };
            let pts: Vec<DVec3> = cx
                .rig
                .subtree(foot)
                .iter()
                .flat_map(|&b| cx.samples.by_bone[b].iter().copied())
                .collect();
            let tip = match l.path.iter().find(|&&b| a.role[b] == Role::Toe) {
                Some(&t) => cx.rig.bones[t].pos,
                None if !pts.is_empty() => pts.iter().sum::<DVec3>() / pts.len() as f64,
                None => cx.rig.bones[foot].pos,
            };
            fwd += horizontal(tip - cx.rig.bones[foot].pos);
        }
        return fwd;
    }
    if let (Some(p), Some(c)) = (a.pelvis, a.head.or(a.chest)) {
        fwd = horizontal(cx.rig.bones[c].pos - cx.rig.bones[p].pos);
    }
    fwd
}

/// How far (degrees) a creature's named pairs may turn forward from its body's axis before
/// the axis decides.
const STRIDE_TURN_DEG: f64 = 10.0;

/// The way a creature in a stride faces, along its body, when that is not where its named
/// pairs say: its pelvis-to-head axis runs level for a third of its height or more (an
/// upright humanoid's does not) and the names' forward turns from it by more than
/// [`STRIDE_TURN_DEG`] but less than a right angle (more is a name's side against the shape:
/// warned, the names kept). Quaternius dinosaurs stand mid-stride with each left-right pair
/// staggered, hips and shoulders included: an apatosaurus's names faced 30 deg off its
/// head-to-tail axis, and its right front leg then lay on its left and lost its roles; a
/// T-rex's 23 deg.
fn along_its_body(cx: &Ctx, a: &Anatomy) -> Option<DVec3> {
    let (p, c) = (a.pelvis?, a.head.or(a.chest)?);
    let axis = horizontal(cx.rig.bones[c].pos - cx.rig.bones[p].pos);
    if axis.length() < cx.height / 3.0 {
        return None;
    }
    let axis = axis.normalize();
    let turn = axis.dot(a.forward).clamp(-1.0, 1.0).acos().to_degrees();
    (turn > STRIDE_TURN_DEG && turn < 90.0).then_some(axis)
}

/// Sets forward and left, then each limb's side.
pub(super) fn sides(cx: &Ctx, a: &mut Anatomy) {
    let named = left_from_names(cx);
    let geo = forward_from_geometry(cx, a);
    let tiny = 0.01 * cx.height;
    if named.length() > tiny {
        a.left = named.normalize();
        a.forward = a.left.cross(a.up).normalize();
        if let Some(axis) = along_its_body(cx, a) {
            a.forward = axis;
            a.left = a.up.cross(a.forward).normalize();
        }
        if geo.length() > tiny && geo.normalize().dot(a.forward) < -0.5 {
            a.notes.push(
                "the names' left and right say the character faces away from where its skeleton's shape says it faces; using the names"
                    .into(),
            );
        }
    } else {
        if geo.length() > tiny {
            a.forward = geo.normalize();
        } else {
            a.notes.push(
                "could not tell forward from the names or the skeleton; assumed +Z (glTF)".into(),
            );
        }
        a.left = a.up.cross(a.forward).normalize();
    }
    limb_sides(cx, a);
    for i in 0..a.side.len() {
        a.side[i] = match a.limb_of[i] {
            Some(k) => a.limbs[k].side,
            None => cx.rig.bones[i].hints.side,
        };
    }
}

/// Each limb's side: the side its names say, unless the limb clearly lies on the other side
/// (the geometry wins, with a note); from the geometry when the names say nothing.
fn limb_sides(cx: &Ctx, a: &mut Anatomy) {
    let mut disagree = 0;
    for l in &mut a.limbs {
        let Some(&top) = l.path.first() else { continue };
        let far = l.path.last().copied().unwrap_or(top);
        let d = (cx.rig.bones[top].pos - cx.rig.bones[l.root].pos).dot(a.left)
            + (cx.rig.bones[far].pos - cx.rig.bones[l.root].pos).dot(a.left);
        let by_geometry =
            (d.abs() > 0.02 * cx.height).then_some(if d > 0.0 { Side::Left } else { Side::Right });
        let by_name = name_side(cx, &l.path);
        if l.kind == LimbKind::Tail {
            l.side = by_name;
            continue;
        }
        l.side = match (by_geometry, by_name) {
            (Some(g), Some(nm)) if g != nm && d.abs() > 0.05 * cx.height => {
                disagree += 1;
                a.notes.push(format!(
                    "'{}' is named {} but lies on the character's {}; using the geometry",
                    cx.rig.bones[top].name,
                    side_word(Some(nm)),
                    side_word(Some(g))
                ));
                Some(g)
            }
            (g, nm) => nm.or(g),
        };
    }
    if disagree > 0 {
        a.notes.push(format!(
            "{disagree} limb name(s) disagree with the geometry"
        ));
    }
}

/// The side most names along a path say.
fn name_side(cx: &Ctx, path: &[usize]) -> Option<Side> {
    let count = |s: Side| {
        path.iter()
            .filter(|&&b| cx.rig.bones[b].hints.side == Some(s))
            .count()
    };
    let (l, r) = (count(Side::Left), count(Side::Right));
    match l.cmp(&r) {
        std::cmp::Ordering::Greater => Some(Side::Left),
        std::cmp::Ordering::Less => Some(Side::Right),
        std::cmp::Ordering::Equal => None,
    }
}

fn side_word(s: Option<Side>) -> &'static str {
    match s {
        Some(Side::Left) => "left",
        Some(Side::Right) => "right",
        None => "centre",
    }
}
