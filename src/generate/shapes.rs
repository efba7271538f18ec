//! Which shape each body gets and along which axis: a capsule by default, along the bone
//! toward its next joint; a box where the cross-section is flat (a humanoid's pelvis, spine
//! and chest, and its feet with the sole flat and level); a sphere where the head is round.

use super::fit::{self, Shape, WorldFit};
use super::rig::Rig;
use super::roles::{Anatomy, CharacterKind, Role};
use glam::{DMat3, DQuat, DVec3};

/// A body's fitted shape and its primary axis (world, unit).
#[derive(Debug, Clone, Copy)]
pub struct BodyShape {
    pub fit: WorldFit,
    /// The collider's +Y in the world: the joint's twist axis.
    pub axis: DVec3,
    /// Vertices the shape was fitted to.
    pub points: usize,
}

/// The bone a body's main axis points at: the next bone toward the head, or along its limb,
/// or the child with the largest subtree.
pub fn next_bone(rig: &Rig, a: &Anatomy, i: usize) -> Option<usize> {
    if let Some(l) = a.limb_of[i].map(|k| &a.limbs[k]) {
        if let Some(k) = l.path.iter().position(|&b| b == i) {
            if let Some(&n) = l.path.get(k + 1) {
                return Some(n);
            }
            return None;
        }
    }
    if let Some(h) = a.head {
        if h != i && rig.ancestors(h).contains(&i) {
            return std::iter::once(h)
                .chain(rig.ancestors(h))
                .find(|&b| rig.s_parent[b] == Some(i));
        }
    }
    rig.s_children[i]
        .iter()
        .copied()
        .max_by_key(|&c| rig.subtree(c).len())
}

/// The world direction of bone `i`'s main axis and the distance to its next joint.
pub fn bone_direction(rig: &Rig, a: &Anatomy, i: usize, points: &[DVec3]) -> (DVec3, f64) {
    let pos = rig.bones[i].pos;
    if let Some(n) = next_bone(rig, a, i) {
        let d = rig.bones[n].pos - pos;
        if d.length() > 1e-3 * a.height {
            return (d.normalize(), d.length());
        }
    }
    let from_parent = rig.bones[i]
        .parent
        .map(|p| pos - rig.bones[p].pos)
        .filter(|d| d.length() > 1e-3 * a.height)
        .map_or(a.up, DVec3::normalize);
    let hint = if points.is_empty() {
        from_parent
    } else {
        let c = points.iter().sum::<DVec3>() / points.len() as f64 - pos;
        if c.length() > 1e-3 * a.height {
            c.normalize()
        } else {
            from_parent
        }
    };
    let axis = fit::principal_axis(points, hint).unwrap_or(hint);
    (axis, 0.0)
}

fn box_rotation(x: DVec3, y: DVec3) -> DQuat {
    let z = x.cross(y);
    DQuat::from_mat3(&DMat3::from_cols(x, y, z)).normalize()
}

/// A pelvis without skin that many limbs hang from (a spider's body, its skin all on its
/// legs, abdomen and head): a ball through its children's joints, so that it has the size
/// (and so the mass) of what holds them together, not that of a bone-length stub a tenth of
/// the abdomen hanging from it. None for any other body.
fn hub_ball(
    rig: &Rig,
    a: &Anatomy,
    i: usize,
    points: &[DVec3],
    inflate: f64,
    min_r: f64,
) -> Option<BodyShape> {
    if a.role[i] != Role::Pelvis
        || points.len() >= fit::MIN_POINTS
        || rig.s_children[i].len() < fit::MIN_POINTS
    {
        return None;
    }
    let joints: Vec<DVec3> = rig.s_children[i]
        .iter()
        .map(|&c| rig.bones[c].pos)
        .collect();
    let pos = rig.bones[i].pos;
    let mut fit = fit::sphere(
        &joints,
        pos,
        a.up,
        a.forward,
        0.12 * a.height,
        inflate,
        min_r,
    );
    // Fitted to joints, not skin: no coverage to report.
    fit.coverage = None;
    let axis = fit.rotation * DVec3::Y;
    Some(BodyShape {
        fit,
        axis,
        points: points.len(),
    })
}

/// Fits the shape of body `i`.
pub fn fit_body(rig: &Rig, a: &Anatomy, i: usize, points: &[DVec3]) -> BodyShape {
    let h = a.height;
    let inflate = 0.02 * h;
    let min_r = 0.008 * h;
    let pos = rig.bones[i].pos;
    let (dir, len) = bone_direction(rig, a, i, points);
    let role = a.role[i];
    let humanoid = a.kind == CharacterKind::Humanoid;
    let spread = fit::spread(points, [a.left, a.up, a.forward]);
    let flat = spread.z < 0.8 * spread.x;
    if let Some(shape) = hub_ball(rig, a, i, points, inflate, min_r) {
        return shape;
    }
    let fit = match role {
        Role::Pelvis | Role::Spine | Role::Chest if humanoid && (flat || points.is_empty()) => {
            let rot = box_rotation(a.left, a.up);
            fit::cuboid(points, pos, rot, 0.15 * h, inflate, min_r, None)
        }
        Role::Foot if humanoid => {
            let fwd = dir - a.up * dir.dot(a.up);
            let fwd = if fwd.length() > 0.2 {
                fwd.normalize()
            } else {
                a.forward
            };
            let x = a.up.cross(fwd).normalize();
            let floor = (a.ground > -0.02 * h).then_some(a.ground.max(0.0));
            fit::cuboid(
                points,
                pos,
                box_rotation(x, fwd),
                0.1 * h,
                inflate,
                min_r,
                floor,
            )
        }
        Role::Head => {
            let round = spread.max_element() < 1.45 * spread.min_element().max(1e-12);
            if round || points.len() < fit::MIN_POINTS {
                let up_axis = if len > 0.0 { dir } else { a.up };
                let ball = fit::sphere(points, pos, up_axis, a.forward, 0.12 * h, inflate, min_r);
                let rot = box_rotation(a.left, a.up);
                let cube = || fit::cuboid(points, pos, rot, 0.12 * h, inflate, min_r, None);
                (humanoid.then(cube))
                    .filter(|c| c.shape.volume() < CUBE_OVER_BALL * ball.shape.volume())
                    .unwrap_or(ball)
            } else {
                fit::capsule(points, pos, dir, a.forward, len, inflate, min_r)
            }
        }
        _ => fit::capsule(points, pos, dir, a.forward, len, inflate, min_r),
    };
    let axis = fit.rotation * DVec3::Y;
    BodyShape {
        fit,
        axis,
        points: points.len(),
    }
}

/// A humanoid's head whose box holds its skin in less than this share of the ball's volume
/// is a box (a blocky figure's cube head: the ball round its corners was 0.668 across a cube 0.386 from
/// centre to face, and weighed 21% of the figure). A round head's box is larger than its ball.
const CUBE_OVER_BALL: f64 = 0.6;

/// Scales a shape's sizes (used to make mirror pairs equal).
pub fn with_sizes(shape: Shape, sizes: &[f64]) -> Shape {
    match (shape, sizes) {
        (Shape::Capsule { .. }, [r, hh]) => Shape::Capsule {
            radius: *r,
            half_height: *hh,
        },
        (Shape::Sphere { .. }, [r]) => Shape::Sphere { radius: *r },
        (Shape::Box { .. }, [x, y, z]) => Shape::Box {
            half_extents: DVec3::new(*x, *y, *z),
        },
        (s, _) => s,
    }
}

/// The sizes of a shape as a list (capsule: radius, half height; sphere: radius; box: x, y, z).
pub fn sizes(shape: &Shape) -> Vec<f64> {
    match *shape {
        Shape::Capsule {
            radius,
            half_height,
        } => vec![radius, half_height],
        Shape::Sphere { radius } => vec![radius],
        Shape::Box { half_extents: e } => vec![e.x, e.y, e.z],
    }
}
