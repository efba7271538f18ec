//! Merging the evidence: the geometric roles, corrected by names on a biped (a name's role
//! holds inside the limb family the geometry found, and the unnamed bones of a limb are
//! renumbered from the nearest named one), then the VRM map over everything it names. One
//! bone per single role (pelvis, head, each side's thigh, hand, ...): the best evidence keeps
//! it; a weaker bone above it becomes a twist segment, one elsewhere gives the role up.

use super::detect::Indexed;
use super::kinds::{Kind, LimbKind, Role};
use super::name_roles::NameRole;
use super::rig::Rig;
use super::vrm::MappedBone;
use super::{BoneFacts, Evidence};
use crate::document::RoleAssignment;

pub(super) struct Merged {
    pub kind: Kind,
    pub kind_confidence: f32,
    pub indexed: Indexed,
    pub facts: Vec<BoneFacts>,
    /// (bone index, text).
    pub notes: Vec<(Option<usize>, String)>,
}

/// The role sequence of a limb kind, body outwards.
fn sequence(kind: LimbKind) -> Option<&'static [Role]> {
    match kind {
        LimbKind::Arm => Some(&Role::ARM_SEQUENCE),
        LimbKind::Leg => Some(&Role::LEG_SEQUENCE),
        _ => None,
    }
}

/// Per bone: the evidence behind its role and the name's strength (0 without a name).
struct Work {
    evidence: Vec<Evidence>,
    strength: Vec<f32>,
    notes: Vec<(Option<usize>, String)>,
}

impl Work {
    fn new(bones: usize) -> Self {
        Work {
            evidence: vec![Evidence::Geometry; bones],
            strength: vec![0.0; bones],
            notes: Vec::new(),
        }
    }
}

pub(super) fn merge(
    rig: &Rig,
    (mut a, kind): (Indexed, Kind),
    map: Option<&[Option<MappedBone>]>,
    names: &[Option<NameRole>],
    manual: &[Option<RoleAssignment>],
) -> Merged {
    let mut w = Work::new(rig.len());
    if kind == Kind::Biped {
        biped_names(rig, &mut a, names, &mut w);
    }
    if matches!(kind, Kind::Winged | Kind::Legless | Kind::Other) {
        let legs = (a.limbs.iter()).any(|l| l.kind.is_leg());
        head_names(rig, &mut a, names, &mut w, legs);
    }
    if let Some(map) = map {
        vrm_roles(&mut a, map, &mut w);
        // The map is the truth for every bone it names: what such a bone's name said against
        // the geometry is no news (a VRM model without a mesh was told its mapped `head`
        // was "named as the head" against the geometry's neck).
        w.notes
            .retain(|(b, _)| b.is_none_or(|b| map.get(b).is_none_or(Option::is_none)));
    }
    manual_roles(&mut a, manual, &mut w);
    extend_limbs(rig, &mut a, names);
    single_roles(rig, &mut a, &mut w);
    named_segment_branches(rig, &mut a, names);
    soft_tissue(rig, &mut a);
    a.pelvis = only(&a, Role::Pelvis).or(a.pelvis.filter(|&p| a.role[p] == Role::Pelvis));
    a.head = only(&a, Role::Head).or(a.head.filter(|&h| a.role[h] == Role::Head));
    a.chest = only(&a, Role::Chest).or(a.chest.filter(|&c| a.role[c] == Role::Chest));
    let facts = bone_facts(rig, &a, &w);
    let kind_confidence = match () {
        _ if map.is_some() || manual.iter().any(Option::is_some) => 1.0,
        _ if w.evidence.contains(&Evidence::NameAndGeometry) => 0.95,
        _ => 0.7,
    };
    Merged {
        kind,
        kind_confidence,
        indexed: a,
        facts,
        notes: w.notes,
    }
}

/// A bone of no role branching off a limb segment and named as that segment, on its side, is
/// its twist bone: a Maya rig's `L_armUpper0003_bind_JNT` hangs from `L_armUpper0001` beside
/// the forearm, and was a body of its own (0.17 kg) with no role.
fn named_segment_branches(rig: &Rig, a: &mut Indexed, names: &[Option<NameRole>]) {
    for (i, name) in names.iter().enumerate() {
        let Some(p) = rig.s_parent[i] else { continue };
        let segment = matches!(
            a.role[p],
            Role::UpperArm | Role::Forearm | Role::Thigh | Role::Shin
        );
        let named = name.is_some_and(|n| n.role == a.role[p] && n.side == a.side[p]);
        if a.role[i] == Role::Other && segment && named && a.limb_of[i] == a.limb_of[p] {
            a.role[i] = Role::Twist;
        }
    }
}

/// A bone of no role named as soft tissue ([`super::names::NameHints::soft`]) is a helper:
/// its skin merges into the body it hangs from. Rigify's `DEF-breast.L/.R` were bodies of
/// their own, 6.8 kg each on a character whose shin weighed 3.7 kg, or one of the two (4.4
/// kg, the other merged away) and the chest lopsided; a bear's 15 kg each beside a 103 kg
/// chest.
fn soft_tissue(rig: &Rig, a: &mut Indexed) {
    for (i, b) in rig.bones.iter().enumerate() {
        if b.hints.soft && a.role[i] == Role::Other && a.limb_of[i].is_none() {
            a.role[i] = Role::Helper;
        }
    }
}

/// On a biped, names correct the geometry's roles: limb by limb, then on the torso.
fn biped_names(rig: &Rig, a: &mut Indexed, names: &[Option<NameRole>], w: &mut Work) {
    for k in 0..a.limbs.len() {
        renumber_limb(rig, a, k, names, w);
    }
    let chest = a.chest;
    torso_names(rig, a, names, w);
    keep_a_chest(rig, a, chest);
}

/// On a creature of no legged plan, bones named as the neck, head or tail that the geometry
/// gave no role take their names' (a flying bee's `Neck` and `Head` on its `Torso`, beside its
/// wings, were bodies of no role, the editor's head unassigned; a bat-winged boss's `Tail1` to
/// `Tail4` had no tail's limits). Hair and clothing (`ponytail`) is no tail, nor is the tail
/// of a creature with no legs (`tails` false): a snake's `Tail` bones are its body, and with a
/// tail's limits and gains the zoo snake no longer came to rest (its head at 1.02% of its
/// height per second at 9.1 s).
fn head_names(rig: &Rig, a: &mut Indexed, names: &[Option<NameRole>], w: &mut Work, tails: bool) {
    for (i, nr) in names.iter().enumerate() {
        let Some(nr) = *nr else { continue };
        let free = rig.bones[i].structural && a.limb_of[i].is_none() && a.role[i] == Role::Other;
        let tail = tails && nr.role == Role::Tail && !rig.bones[i].hints.cloth;
        if free && (matches!(nr.role, Role::Neck | Role::Head) || tail) {
            a.role[i] = nr.role;
            w.evidence[i] = Evidence::Name;
            w.strength[i] = nr.strength;
        }
    }
}

/// The VRM map's roles and sides, over the geometry's and the names'.
fn vrm_roles(a: &mut Indexed, map: &[Option<MappedBone>], w: &mut Work) {
    for (i, m) in map.iter().enumerate() {
        if let Some(m) = m {
            a.role[i] = m.role;
            a.side[i] = m.side;
            w.evidence[i] = Evidence::Vrm;
            w.strength[i] = 1.0;
        }
    }
}

/// A limb's path ends at its last skinned bone (`Ctx::trim`); the bones past it that the
/// map, a person or their names (on its side) say are the limb's next parts, a shin and a
/// foot after a thigh or a hand after a forearm, continue it. A VRM 1 model of rigid parts
/// has feet with no skin of their own: its legs ended at the shins, so the balance stood on
/// the shins and no leg could step. So do many characters from Mixamo's auto-rigger (a
/// knight, a bat, a cat, a lizard: their `LeftFoot` carries no weight, its vertices are the
/// shin's), whose balance stood on the shins' round ends and fell at assist 0. A VRoid
/// avatar whose mesh is its clothes and shoes has no skin on its thighs and shins: its legs
/// were its thighs alone.
fn extend_limbs(rig: &Rig, a: &mut Indexed, names: &[Option<NameRole>]) {
    for k in 0..a.limbs.len() {
        while let Some(c) = next_part(rig, a, k, names) {
            let side = a.limbs[k].side;
            a.limbs[k].path.push(c.bone);
            a.limb_of[c.bone] = Some(k);
            a.role[c.bone] = c.role;
            a.side[c.bone] = a.side[c.bone].or(side);
        }
    }
}

/// A bone that continues a limb, and its role there.
struct NextPart {
    bone: usize,
    role: Role,
}

/// The child of limb `k`'s last bone that is its next main part (shin, foot, forearm or
/// hand; not toes or fingers) by its role or its name on the limb's side.
fn next_part(rig: &Rig, a: &Indexed, k: usize, names: &[Option<NameRole>]) -> Option<NextPart> {
    let seq = sequence(a.limbs[k].kind)?;
    let &last = a.limbs[k].path.last()?;
    let at = seq.iter().position(|&r| r == a.role[last])?;
    let &want = seq
        .get(at + 1)
        .filter(|r| matches!(r, Role::Shin | Role::Foot | Role::Forearm | Role::Hand))?;
    let side = a.limbs[k].side;
    let named = |c: usize| {
        names
            .get(c)
            .and_then(|n| n.as_ref())
            .is_some_and(|n| n.role == want && (n.side.is_none() || n.side == side))
    };
    rig.s_children[last]
        .iter()
        .copied()
        .find(|&c| a.limb_of[c].is_none_or(|l| l == k) && (a.role[c] == want || named(c)))
        .map(|bone| NextPart { bone, role: want })
}

/// Each bone's role and side with the evidence behind them and its confidence (a name's
/// confidence scales with its strength).
fn bone_facts(rig: &Rig, a: &Indexed, w: &Work) -> Vec<BoneFacts> {
    (0..rig.len())
        .map(|i| BoneFacts {
            role: a.role[i],
            side: a.side[i],
            confidence: match w.evidence[i] {
                Evidence::Name => Evidence::Name.confidence() * (0.5 + 0.5 * w.strength[i]),
                e => e.confidence(),
            },
            evidence: w.evidence[i],
            deforming: rig.bones[i].deforming,
        })
        .collect()
}

/// A person's assignments, over everything else. A paired role given without a side keeps
/// the detected side; a limb whose assigned bones all name one side takes that side.
fn manual_roles(a: &mut Indexed, manual: &[Option<RoleAssignment>], w: &mut Work) {
    for (i, m) in manual.iter().enumerate() {
        let Some(m) = m.filter(|_| i < a.role.len()) else {
            continue;
        };
        a.side[i] = m.side.or(a.side[i].filter(|_| m.role.is_paired()));
        a.role[i] = m.role;
        w.evidence[i] = Evidence::Manual;
        w.strength[i] = 1.0;
    }
    for limb in &mut a.limbs {
        let mut sides = limb
            .path
            .iter()
            .filter(|&&b| {
                manual
                    .get(b)
                    .is_some_and(|m| m.is_some_and(|m| m.side.is_some()))
            })
            .map(|&b| a.side[b]);
        if let Some(first) = sides.next() {
            if sides.all(|s| s == first) {
                limb.side = first;
            }
        }
    }
}

/// The one bone with `role`, if exactly one has it.
fn only(a: &Indexed, role: Role) -> Option<usize> {
    let mut it = (0..a.role.len()).filter(|&i| a.role[i] == role);
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

/// Whether a name's anchor at path index `p`, sequence index `s`, is a weak name (a bare
/// sided `leg`, Mixamo's shin) that would start a leg past its thigh. The leg's first bone
/// hangs from the pelvis, so it is the thigh: a chibi's one-bone `leg.L` read as a shin got a
/// knee's hinge at its hip.
fn weak_name_past_a_legs_start(kind: LimbKind, (p, s): (usize, usize), strength: f32) -> bool {
    kind == LimbKind::Leg && p == 0 && s > 0 && strength < STRONG_NAME
}

/// Bone `b` keeps the geometry's role over its name's (`named`), with a note saying `why`.
fn geometry_over_name(
    w: &mut Work,
    (rig, a): (&Rig, &Indexed),
    (b, named): (usize, Role),
    why: String,
) {
    w.evidence[b] = Evidence::GeometryOverName;
    let (bone, geometry) = (&rig.bones[b].name, a.role[b].name());
    let text = format!(
        "'{bone}' is named as a {} but {why}; using the geometry ({geometry})",
        named.name()
    );
    w.notes.push((Some(b), text));
}

/// A name at least this strong holds its role anywhere in its limb.
const STRONG_NAME: f32 = 0.9;

/// A limb's named bones keep their names' roles when these belong to the limb's family; the
/// unnamed ones are numbered from the nearest named bone. A name from the other family (a
/// `foot` in an arm) gives way to the geometry, with a note.
fn renumber_limb(rig: &Rig, a: &mut Indexed, k: usize, names: &[Option<NameRole>], w: &mut Work) {
    let Some(seq) = sequence(a.limbs[k].kind) else {
        return;
    };
    let path = a.limbs[k].path.clone();
    let pos = |r: Role| seq.iter().position(|&s| s == r);
    let mut anchors: Vec<(usize, usize)> = Vec::new(); // (path index, sequence index)
    let mut last: Option<(usize, f32)> = None; // the previous anchor's (sequence index, strength)
    for (p, &b) in path.iter().enumerate() {
        let Some(mut nr) = names[b] else { continue };
        if let Some(s) = after_a_stronger_twin(seq, pos(nr.role), nr.strength, last) {
            nr.role = seq[s];
        }
        let next = (path.get(p + 1).and_then(|&c| names[c]))
            .and_then(|n| Some((pos(n.role)?, n.strength)));
        let gap = before_a_firmer_gap(pos(nr.role), nr.strength, next);
        if let Some(s) = gap.filter(|&t| room_before(seq, p, anchors.last(), t)) {
            nr.role = seq[s];
        }
        match pos(nr.role) {
            Some(s) if weak_name_past_a_legs_start(a.limbs[k].kind, (p, s), nr.strength) => {
                let why = "begins its leg".to_string();
                geometry_over_name(w, (rig, a), (b, nr.role), why);
            }
            Some(s) => {
                anchors.push((p, s));
                last = Some((s, nr.strength));
                w.strength[b] = nr.strength;
                w.evidence[b] = if a.role[b] == nr.role {
                    Evidence::NameAndGeometry
                } else {
                    Evidence::Name
                };
                a.role[b] = nr.role;
            }
            None if nr.role != Role::Other => {
                let why = format!("lies in the {} chain", a.limbs[k].kind.name());
                geometry_over_name(w, (rig, a), (b, nr.role), why);
            }
            None => {}
        }
    }
    for (p, &b) in path.iter().enumerate() {
        // A bone whose name gave way to the geometry keeps the geometry's role, as its note
        // says: a blocky figure's one-bone `Leg.L` "named as a shin but begins its leg; using
        // the geometry (thigh)" was numbered a shin from its named foot, its knee hinge at the
        // hip.
        let gave_way = w.evidence[b] == Evidence::GeometryOverName;
        if gave_way || anchors.iter().any(|&(q, _)| q == p) {
            continue;
        }
        let Some(&(q, s)) = anchors.iter().min_by_key(|&&(q, _)| q.abs_diff(p)) else {
            continue;
        };
        let at = s as isize + p as isize - q as isize;
        a.role[b] = match at {
            i if i < 0 => Role::Other,
            i => seq[(i as usize).min(seq.len() - 1)],
        };
    }
}

/// A weaker name for the role a bone above it in the limb was named more firmly takes the
/// next role along the limb (`Left_Clav`, `Left_Shoulder`, `Left_Ellbow`: the shoulder, a
/// word Mixamo gives the clavicle, is here the upper arm): its sequence index, when it moves.
fn after_a_stronger_twin(
    seq: &[Role],
    s: Option<usize>,
    strength: f32,
    last: Option<(usize, f32)>,
) -> Option<usize> {
    let (s, (before, firmer)) = (s?, last?);
    (s <= before && strength < firmer && before + 1 < seq.len()).then_some(before + 1)
}

/// A weaker name whose role leaves a gap before the next bone's firmer one takes the role just
/// before it: a rig naming each bone for the joint at its head (`epaule_L`, `coude_L`,
/// `poignet_L`: shoulder, elbow, wrist) has no clavicle, and its shoulder is the upper arm
/// (it was read as the clavicle, and the arm had no upper arm). Its sequence index, when it
/// moves.
fn before_a_firmer_gap(
    s: Option<usize>,
    strength: f32,
    next: Option<(usize, f32)>,
) -> Option<usize> {
    let (s, (after, firmer)) = (s?, next?);
    (after >= s + 2 && strength < firmer).then(|| after - 1)
}

/// Whether the bones before path index `p` can take the roles before sequence index `t`
/// that the last anchor (path index, sequence index) leaves: from the limb's first segment
/// (an arm may lack its clavicle, never its upper arm) or past the anchor's. A blocky
/// figure's one-bone `Arm.L` before its `Hand.L` filled the gap as a forearm, beginning the
/// arm with an elbow's hinge at the shoulder.
fn room_before(seq: &[Role], p: usize, last: Option<&(usize, usize)>, t: usize) -> bool {
    let first = seq.iter().position(|&r| r != Role::Clavicle).unwrap_or(0);
    let (free_bones, from) = match last {
        Some(&(q, s)) => (p - q - 1, s + 1),
        None => (p, first),
    };
    free_bones >= t.saturating_sub(from)
}

/// Pelvis, neck and head names hold on the torso (never over a limb); spine and chest names
/// only fill bones the geometry left without a role (the geometry tells the chest by where
/// the arms hang).
fn torso_names(rig: &Rig, a: &mut Indexed, names: &[Option<NameRole>], w: &mut Work) {
    for (i, nr) in names.iter().enumerate() {
        let Some(nr) = *nr else { continue };
        if !rig.bones[i].structural || a.limb_of[i].is_some() {
            continue;
        }
        let geo = a.role[i];
        let apply = match nr.role {
            Role::Pelvis | Role::Neck | Role::Head | Role::Tail => true,
            Role::Spine | Role::Chest => matches!(geo, Role::Other | Role::Helper),
            Role::Other => matches!(geo, Role::Clavicle),
            _ => false,
        };
        if geo == nr.role {
            w.evidence[i] = Evidence::NameAndGeometry;
            w.strength[i] = nr.strength;
        } else if apply {
            // A pelvis named on the first spine bone above the bone the legs hang from (a
            // Quaternius rig's `Hips` beside its legs on `Body`): the two readings agree on
            // the body (the bone below merges into it), nothing to tell.
            let beside_legs = nr.role == Role::Pelvis
                && geo == Role::Spine
                && rig.s_parent[i].is_some_and(|p| a.role[p] == Role::Pelvis);
            if geo != Role::Other && !beside_legs {
                w.notes.push((
                    Some(i),
                    format!(
                        "'{}' is named as the {}; the skeleton's shape suggested the {}; using the name",
                        rig.bones[i].name,
                        nr.role.name(),
                        geo.name()
                    ),
                ));
            }
            a.role[i] = nr.role;
            w.evidence[i] = Evidence::Name;
            w.strength[i] = nr.strength;
        }
    }
}

/// When a name took the chest the geometry found (Rigify's arms hang from `DEF-neck`), the
/// spine bone below it becomes the chest.
fn keep_a_chest(rig: &Rig, a: &mut Indexed, chest: Option<usize>) {
    let Some(c) = chest.filter(|&c| a.role[c] != Role::Chest) else {
        return;
    };
    if a.role.contains(&Role::Chest) {
        return;
    }
    if let Some(p) = rig.s_parent[c].filter(|&p| a.role[p] == Role::Spine) {
        a.role[p] = Role::Chest;
    }
}

/// Roles that one bone (per side) carries.
const SINGLE: [Role; 10] = {
    let l = Role::LIMBS;
    [
        Role::Pelvis,
        Role::Head,
        Role::Clavicle,
        Role::Girdle,
        l[0],
        l[1],
        l[2],
        l[3],
        l[4],
        l[5],
    ]
};

/// A person's assignment first, the VRM map next, then the stronger name, then agreement
/// with the geometry.
fn rank(w: &Work, i: usize) -> (bool, u32, u8) {
    let e = match w.evidence[i] {
        Evidence::Manual => 5,
        Evidence::Vrm => 4,
        Evidence::NameAndGeometry => 3,
        Evidence::Name => 2,
        Evidence::GeometryOverName | Evidence::Geometry => 1,
    };
    (e >= 4, (w.strength[i] * 1000.0) as u32, e)
}

/// Whether `name` is `original` with a copy's number after it (`head.002` of `head`, as
/// Blender numbers a duplicated bone).
fn numbered_copy(name: &str, original: &str) -> bool {
    name.strip_prefix(original)
        .and_then(|rest| rest.strip_prefix(['.', '_']))
        .is_some_and(|n| (1..=4).contains(&n.len()) && n.bytes().all(|c| c.is_ascii_digit()))
}

/// One bone per single role and side: the best evidence keeps it (the shallowest on a tie);
/// below a person's and the VRM map's word, a numbered copy of another holder's name loses
/// to it (`head.002`, 16 vertices at the back of a head, had taken the role from `head`,
/// 147 vertices: the whole head).
/// A loser above the winner becomes a twist segment of the bone above (a `wrist` above the
/// `hand`); the others give up the role (a second pelvis is spine, a second head is neck, a
/// second foot or hand under the first is its toes or fingers).
///
/// The pelvis and the head are one per character whatever side a name gives them: a Ready
/// Player Me `LeftEye` at the end of the spine path, the geometry's head, with `Head` named
/// above it, was a second head (it took a whole head's mass). A loser below the winning head
/// (an eye, a jaw) is part of the head.
fn single_roles(rig: &Rig, a: &mut Indexed, w: &mut Work) {
    for role in SINGLE {
        let mid = matches!(role, Role::Pelvis | Role::Head);
        for side in [None, Some(super::Side::Left), Some(super::Side::Right)] {
            if mid && side.is_some() {
                continue;
            }
            let holders: Vec<usize> = (0..rig.len())
                .filter(|&i| a.role[i] == role && (mid || a.side[i] == side))
                .collect();
            if holders.len() < 2 {
                continue;
            }
            let depth = |i: usize| rig.ancestors(i).len();
            let copy = |i: usize| {
                (holders.iter())
                    .any(|&o| numbered_copy(&rig.bones[i].read_name, &rig.bones[o].read_name))
            };
            let key = |i: usize| {
                let (map, strength, e) = rank(w, i);
                (map, !copy(i), strength, e)
            };
            let Some(&keep) = holders
                .iter()
                .max_by(|&&x, &&y| key(x).cmp(&key(y)).then(depth(y).cmp(&depth(x))))
            else {
                continue;
            };
            for &i in holders.iter().filter(|&&i| i != keep) {
                a.role[i] = match role {
                    _ if rig.ancestors(keep).contains(&i) && role != Role::Pelvis => Role::Twist,
                    Role::Head if rig.ancestors(i).contains(&keep) => Role::Other,
                    // A Maya rig's `L_foot0002_bind_JNT` under `L_foot0001`: the toes, not a
                    // body of no role (the balance took it for the foot).
                    Role::Foot if rig.ancestors(i).contains(&keep) => Role::Toe,
                    Role::Hand if rig.ancestors(i).contains(&keep) => Role::Finger,
                    Role::Pelvis => Role::Spine,
                    Role::Head => Role::Neck,
                    _ => Role::Other,
                };
            }
        }
    }
}
