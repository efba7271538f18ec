//! Mirroring physics from one side of a character to the other: a bone's collider, joint
//! limits and drive onto its twin, reflected across the character's mid-plane and expressed
//! in the twin's own bone axes (which need not be mirror copies: CesiumMan's left and right
//! arm bones have different local axes). Pure document math; the edits go through
//! [`Document::apply`] like any other.

mod midline;
pub mod twins;

pub use twins::{mid_plane, swapped_name, twin_of, twins, Side};

use crate::document::fields::Key;
use crate::document::{
    write, BoneId, BonePhysics, Collider, ColliderOffset, ColliderShape, CollisionPair, Constraint,
    ConstraintKind, Document, Edit, EditTarget, SwingExtentsDeg, TwistRangeDeg,
};
use crate::joint;
use glam::{DMat3, DMat4, DQuat, DVec3};

/// Which way a whole-character mirror copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Direction {
    LeftToRight,
    RightToLeft,
}

/// The reflection across the mid-plane.
#[derive(Debug, Clone, Copy)]
struct Mirror {
    axis: DVec3,
    mid: f64,
}

impl Mirror {
    fn point(&self, p: DVec3) -> DVec3 {
        p - self.axis * (2.0 * (p.dot(self.axis) - self.mid))
    }

    /// The rotation M R M (a proper rotation taking M v to M R v).
    fn rotation(&self, r: DQuat) -> DQuat {
        let m = DMat3::IDENTITY
            - 2.0
                * DMat3::from_cols(
                    self.axis * self.axis.x,
                    self.axis * self.axis.y,
                    self.axis * self.axis.z,
                );
        DQuat::from_mat3(&(m * DMat3::from_quat(r) * m)).normalize()
    }
}

fn world(doc: &Document, id: BoneId) -> DMat4 {
    doc.skeleton
        .nodes
        .get(doc.bone(id).node)
        .map_or(DMat4::IDENTITY, |n| n.world_from_node)
}

/// The rotation of a bone's frame in the world (scale removed).
pub fn world_rotation(doc: &Document, id: BoneId) -> DQuat {
    rot_scale(&world(doc, id)).0
}

fn rot_scale(m: &DMat4) -> (DQuat, f64) {
    let (s, r, _) = m.to_scale_rotation_translation();
    (r.normalize(), s.x.abs().max(1e-12))
}

fn r6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn v3(v: DVec3) -> [f64; 3] {
    [r6(v.x), r6(v.y), r6(v.z)]
}

fn q4(q: DQuat) -> [f64; 4] {
    [r6(q.x), r6(q.y), r6(q.z), r6(q.w)]
}

/// Comma-separated group names with their side markers swapped (`arm_l` -> `arm_r`).
fn swap_groups(list: &str) -> String {
    list.split(',')
        .map(|g| {
            let g = g.trim();
            swapped_name(g).map_or_else(|| g.to_string(), |(n, _)| n)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A joint and the world rotation of the bone that carries it: what mirroring a joint needs.
#[derive(Debug, Clone, Copy)]
pub struct JointInWorld<'a> {
    pub kind: &'a ConstraintKind,
    /// The rotation of the bone's frame in the world (scale removed).
    pub world_from_bone: DQuat,
    /// The joint frame in the bone's frame ([`joint::frame::bone_from_joint`]).
    pub bone_from_joint: DQuat,
}

/// The one reflection of joint limits onto a twin: `from`'s joint, reflected across the
/// mid-plane (normal `plane_normal`) and expressed in the axes of a bone whose world rotation
/// is `to_world_from_bone`. A reflection keeps the frame's Y and flips Z = X x Y, so the
/// swing extents toward +Z and -Z trade places and the twist turns the other way; the swing
/// Y axis and hinge axis are re-expressed in the twin's own bone axes, which need not be
/// mirror copies of the source's. Mirror, symmetric editing and presets all use it.
pub fn reflect_joint(
    from: JointInWorld,
    plane_normal: DVec3,
    to_world_from_bone: DQuat,
) -> ConstraintKind {
    let dir = |v: DVec3| v - plane_normal * (2.0 * v.dot(plane_normal));
    let to_bone = to_world_from_bone.inverse();
    match from.kind {
        ConstraintKind::BallSocket {
            swing_limit_deg: s,
            twist_limit_deg: t,
            ..
        } => {
            let frame = from.world_from_bone * from.bone_from_joint;
            let y = (to_bone * dir(frame * DVec3::Y)).normalize_or(DVec3::Z);
            ConstraintKind::BallSocket {
                swing_limit_deg: SwingExtentsDeg {
                    pos_y: s.pos_y,
                    neg_y: s.neg_y,
                    pos_z: s.neg_z,
                    neg_z: s.pos_z,
                },
                twist_limit_deg: TwistRangeDeg {
                    min_deg: -t.max_deg,
                    max_deg: -t.min_deg,
                },
                swing_y_axis: Some(v3(y)),
            }
        }
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => {
            // A rotation by a about axis h mirrors to a rotation by a about -M h.
            let h = DVec3::from_array(*hinge_axis).normalize_or(DVec3::Z);
            let a = to_bone * -dir(from.world_from_bone * h);
            ConstraintKind::Hinge {
                hinge_axis: v3(a),
                limit_min_deg: *limit_min_deg,
                limit_max_deg: *limit_max_deg,
            }
        }
    }
}

/// `id`'s joint as [`reflect_joint`] takes it.
pub fn joint_in_world<'a>(
    doc: &Document,
    id: BoneId,
    kind: &'a ConstraintKind,
) -> JointInWorld<'a> {
    JointInWorld {
        kind,
        world_from_bone: rot_scale(&world(doc, id)).0,
        bone_from_joint: joint::frame::bone_from_joint(doc, id, kind),
    }
}

/// `from`'s collider reflected onto `to`, in `to`'s bone units and axes.
fn mirrored_collider(
    doc: &Document,
    (from, to): (BoneId, BoneId),
    c: &Collider,
    m: &Mirror,
) -> Collider {
    let (ws, wt) = (world(doc, from), world(doc, to));
    let (rs, ss) = rot_scale(&ws);
    let (rt, st) = rot_scale(&wt);
    let k = ss / st; // sizes in the twin's bone units
    let shape = match &c.shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => ColliderShape::Capsule {
            radius: r6(radius * k),
            half_height: r6(half_height * k),
        },
        ColliderShape::Sphere { radius } => ColliderShape::Sphere {
            radius: r6(radius * k),
        },
        ColliderShape::Box { half_extents: h } => ColliderShape::Box {
            half_extents: h.map(|x| r6(x * k)),
        },
    };
    let place = doc.collider_placement(from, c);
    let center = m.point(ws.transform_point3(place.translation));
    let rot = m.rotation(rs * place.rotation);
    let offset = ColliderOffset {
        translation: Some(v3(wt.inverse().transform_point3(center))),
        rotation: Some(q4((rt.inverse() * rot).normalize())),
    };
    Collider { shape, offset }
}

/// `from`'s physics as its twin `to` gets it.
fn mirrored_physics(
    doc: &Document,
    (from, to): (BoneId, BoneId),
    pairs: &[(BoneId, BoneId)],
    m: &Mirror,
) -> BonePhysics {
    let src: BonePhysics = doc.bone(from).physics.clone().unwrap_or_default();
    let collider = src
        .collider
        .as_ref()
        .map(|c| mirrored_collider(doc, (from, to), c, m));
    // A bone's name on the other side: its twin's, or its own when it has none.
    let swapped = |name: &str| {
        doc.bone_by_name(name)
            .and_then(|id| twin_of(pairs, id))
            .map_or_else(|| name.to_string(), |t| doc.bone(t).name.clone())
    };
    let constraint = src.constraint.as_ref().map(|c| {
        let parent = c.parent_bone.as_deref().map(swapped);
        let to_rot = rot_scale(&world(doc, to)).0;
        Constraint {
            kind: reflect_joint(joint_in_world(doc, from, &c.kind), m.axis, to_rot),
            parent_defaulted: parent.is_none(),
            parent_bone: parent,
            friction_torque_nm: c.friction_torque_nm,
        }
    });
    BonePhysics {
        collider,
        constraint,
        collision_group: swap_groups(&src.collision_group),
        collision_mask: swap_groups(&src.collision_mask),
        collision_pairs: src
            .collision_pairs
            .iter()
            .map(|p| CollisionPair {
                other: swapped(&p.other),
                collide: p.collide,
            })
            .collect(),
        ..src
    }
}

/// The edits that give `to` the mirror image of `from`'s physics (collider, mass, groups,
/// constraint, drive). Keys `from` lacks are removed from `to`; `to`'s own unknown keys stay.
pub fn mirror_bone(
    doc: &Document,
    from: BoneId,
    to: BoneId,
    pairs: &[(BoneId, BoneId)],
) -> Vec<Edit> {
    let (axis, mid) = mid_plane(doc);
    let m = Mirror { axis, mid };
    let target: EditTarget = doc.bone_target(to);
    let physics = mirrored_physics(doc, (from, to), pairs, &m);
    let mut entries = write::bone_entries(&physics);
    if doc.bone(from).physics.is_none() {
        // Nothing to copy but the absence of a body.
        entries.retain(|(k, _)| {
            ![Key::Mass, Key::CollisionGroup, Key::CollisionMask]
                .iter()
                .any(|x| write::top(*x) == *k)
        });
    }
    let mut edits: Vec<Edit> = entries
        .iter()
        .map(|(k, v)| Edit::Set {
            target,
            key: (*k).into(),
            value: v.clone(),
        })
        .collect();
    for key in [Key::Collider, Key::Constraint, Key::Drive] {
        let top = write::top(key);
        if !entries.iter().any(|(k, _)| *k == top) {
            edits.push(Edit::Remove {
                target,
                key: top.into(),
            });
        }
    }
    edits
}

/// The edits of a whole-side mirror (optionally only for the listed source bones). The
/// whole character's mirror also centres the mid-line bodies on the mid-plane
/// (see [`midline`]); a mirror of listed bones leaves the others alone.
pub fn mirror_side(doc: &Document, dir: Direction, only: Option<&[BoneId]>) -> Vec<Edit> {
    let pairs = twins(doc);
    let mut edits = Vec::new();
    if only.is_none() && !pairs.is_empty() {
        let (axis, mid) = mid_plane(doc);
        edits.extend(midline::centre_midline(doc, &pairs, &Mirror { axis, mid }));
    }
    for &(l, r) in &pairs {
        let (from, to) = match dir {
            Direction::LeftToRight => (l, r),
            Direction::RightToLeft => (r, l),
        };
        if only.is_some_and(|o| !o.contains(&from) && !o.contains(&to)) {
            continue;
        }
        if doc.bone(from).physics.is_none() && doc.bone(to).physics.is_none() {
            continue;
        }
        edits.extend(mirror_bone(doc, from, to, &pairs));
    }
    edits
}
