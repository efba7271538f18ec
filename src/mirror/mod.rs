//! Mirroring physics from one side of a character to the other: a bone's collider, joint
//! limits and drive onto its twin, reflected across the character's mid-plane and expressed
//! in the twin's own bone axes (which need not be mirror copies: CesiumMan's left and right
//! arm bones have different local axes). Pure document math; the edits go through
//! [`Document::apply`] like any other.

mod midline;
pub mod twins;

pub use twins::{mid_plane, swapped_name, twin_of, twins, Side};

use crate::document::{
    BoneId, BonePhysics, ColliderShape, ConstraintKind, Document, Edit, EditTarget,
};
use crate::joint;
use glam::{DMat3, DMat4, DQuat, DVec3};
use serde_json::{json, Map, Value};

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
    fn dir(&self, v: DVec3) -> DVec3 {
        v - self.axis * (2.0 * v.dot(self.axis))
    }

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

fn rot_scale(m: &DMat4) -> (DQuat, f64) {
    let (s, r, _) = m.to_scale_rotation_translation();
    (r.normalize(), s.x.abs().max(1e-12))
}

fn r6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn v3(v: DVec3) -> Value {
    json!([r6(v.x), r6(v.y), r6(v.z)])
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

/// The mirrored `constraint` object of `from`'s constraint, for `to`.
fn constraint_json(
    doc: &Document,
    (from, to): (BoneId, BoneId),
    kind: &ConstraintKind,
    parent: Option<String>,
    m: &Mirror,
) -> Value {
    let (rs, _) = rot_scale(&world(doc, from));
    let (rt, _) = rot_scale(&world(doc, to));
    let mut c = Map::new();
    c.insert("type".into(), json!(kind.type_name()));
    if let Some(p) = parent {
        c.insert("parent_bone".into(), json!(p));
    }
    match kind {
        ConstraintKind::BallSocket {
            swing_limit_deg: s,
            twist_limit_deg: t,
            ..
        } => {
            let frame = rs * joint::frame::bone_from_joint(doc, from, kind);
            let y = rt.inverse() * m.dir(frame * DVec3::Y);
            // A reflection keeps Y and flips Z = X x Y; twist turns the other way.
            let swapped = crate::document::SwingExtentsDeg {
                pos_y: s.pos_y,
                neg_y: s.neg_y,
                pos_z: s.neg_z,
                neg_z: s.pos_z,
            };
            let twist = crate::document::TwistRangeDeg {
                min_deg: -t.max_deg,
                max_deg: -t.min_deg,
            };
            c.insert("swing_limit_deg".into(), swapped.to_json());
            c.insert("twist_limit_deg".into(), twist.to_json());
            c.insert("swing_y_axis".into(), v3(y));
        }
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => {
            // A rotation by a about axis h mirrors to a rotation by a about -M h.
            let a =
                rt.inverse() * -m.dir(rs * DVec3::from_array(*hinge_axis).normalize_or(DVec3::Z));
            c.insert("hinge_axis".into(), v3(a));
            c.insert("limit_min_deg".into(), json!(limit_min_deg));
            c.insert("limit_max_deg".into(), json!(limit_max_deg));
        }
    }
    Value::Object(c)
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
    let set = |key: &str, value: Value| Edit::Set {
        target,
        key: key.into(),
        value,
    };
    let remove = |key: &str| Edit::Remove {
        target,
        key: key.into(),
    };
    let src: BonePhysics = doc.bone(from).physics.clone().unwrap_or_default();
    let (ws, wt) = (world(doc, from), world(doc, to));
    let (rs, ss) = rot_scale(&ws);
    let (rt, st) = rot_scale(&wt);
    let k = ss / st; // sizes in the twin's bone units
    let mut edits = Vec::new();
    match &src.collider {
        Some(c) => {
            edits.push(set("collider", json!(c.shape.type_name())));
            match &c.shape {
                ColliderShape::Capsule {
                    radius,
                    half_height,
                } => {
                    edits.push(set("radius", json!(r6(radius * k))));
                    edits.push(set("half_height", json!(r6(half_height * k))));
                }
                ColliderShape::Sphere { radius } => {
                    edits.push(set("radius", json!(r6(radius * k))))
                }
                ColliderShape::Box { half_extents: h } => {
                    edits.push(set("half_extents", json!(h.map(|x| r6(x * k)))))
                }
            }
            let place = doc.collider_placement(from, c);
            let center = m.point(ws.transform_point3(place.translation));
            let rot = m.rotation(rs * place.rotation);
            let t = wt.inverse().transform_point3(center);
            let q = (rt.inverse() * rot).normalize();
            edits.push(set(
                "offset",
                json!({"translation": v3(t), "rotation": [r6(q.x), r6(q.y), r6(q.z), r6(q.w)]}),
            ));
        }
        None => edits.push(remove("collider")),
    }
    if doc.bone(from).physics.is_some() {
        edits.push(set("mass", json!(src.mass)));
        edits.push(set(
            "collision_group",
            json!(swap_groups(&src.collision_group)),
        ));
        edits.push(set(
            "collision_mask",
            json!(swap_groups(&src.collision_mask)),
        ));
    }
    match &src.constraint {
        Some(c) => {
            let parent = c.parent_bone.as_deref().map(|p| {
                doc.bone_by_name(p)
                    .and_then(|pid| twin_of(pairs, pid))
                    .map_or_else(|| p.to_string(), |t| doc.bone(t).name.clone())
            });
            edits.push(set(
                "constraint",
                constraint_json(doc, (from, to), &c.kind, parent, &m),
            ));
        }
        None => edits.push(remove("constraint")),
    }
    match src.drive {
        Some(d) => edits.push(set(
            "drive",
            json!({"stiffness": d.stiffness, "damping": d.damping, "max_torque": d.max_torque, "follow_strength": d.follow_strength}),
        )),
        None => edits.push(remove("drive")),
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
