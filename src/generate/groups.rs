//! Collision groups and masks: one group per limb (and the torso), and a pair of groups
//! ignore each other when any of their bodies that are not jointed overlap at rest (each
//! shape is bounded by a capsule for the test). Jointed pairs never collide (the simulation
//! disables their contacts). The ground (`world`) is in every mask.

use super::fit::{Shape, WorldFit};
use glam::DVec3;
use rapier3d::prelude::{Pose, SharedShape};

/// At most this many named groups (the simulation has 31 bits besides `world`).
pub const MAX_GROUPS: usize = 30;

/// A bounding capsule of a placed shape: segment ends and radius.
fn bounding_capsule(f: &WorldFit) -> (DVec3, DVec3, f64) {
    match f.shape {
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let d = f.rotation * DVec3::Y * half_height;
            (f.center - d, f.center + d, radius)
        }
        Shape::Sphere { radius } => (f.center, f.center, radius),
        Shape::Box { half_extents: e } => {
            let axes = [DVec3::X, DVec3::Y, DVec3::Z];
            let mut idx = [0usize, 1, 2];
            idx.sort_by(|&a, &b| e[b].total_cmp(&e[a]));
            let (long, mid, short) = (e[idx[0]], e[idx[1]], e[idx[2]]);
            let r = (mid * mid + short * short).sqrt();
            let d = f.rotation * axes[idx[0]] * (long - mid).max(0.0);
            (f.center - d, f.center + d, r)
        }
    }
}

/// Closest distance between segments [p1,q1] and [p2,q2].
fn segment_distance(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a <= 1e-18 && e <= 1e-18 {
        (0.0, 0.0)
    } else if a <= 1e-18 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-18 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let den = a * e - b * b;
            let mut s = if den > 1e-18 {
                ((b * f - c * e) / den).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (p1 + d1 * s).distance(p2 + d2 * t)
}

/// True when two placed shapes overlap (within `margin`): their bounding capsules, or the
/// shapes themselves as the solver and the doctor see them. A box's bounding capsule leaves
/// its corners out: a blocky figure's pelvis box reached the T-posed arms at a corner, the
/// capsules said apart, and `validate` found the generated file's arms overlapping its pelvis
/// while they collide.
pub fn overlap(a: &WorldFit, b: &WorldFit, margin: f64) -> bool {
    let (p1, q1, r1) = bounding_capsule(a);
    let (p2, q2, r2) = bounding_capsule(b);
    if segment_distance(p1, q1, p2, q2) < r1 + r2 + margin {
        return true;
    }
    let (pa, sa) = solver_shape(a);
    let (pb, sb) = solver_shape(b);
    // The contact's distance: negative when they interpenetrate (a negative margin asks
    // for a penetration that deep).
    let prediction = margin.max(0.0) as f32;
    let contact = rapier3d::parry::query::contact(&pa, sa.as_ref(), &pb, sb.as_ref(), prediction);
    // Closer than the margin (touching counts when it is none); past a penetration, that deep.
    let within = |d: f64| d < margin || (margin >= 0.0 && d <= 0.0);
    contact.is_ok_and(|c| c.is_some_and(|c| within(f64::from(c.dist))))
}

/// A placed shape as the solver holds it.
fn solver_shape(f: &WorldFit) -> (Pose, SharedShape) {
    let shape = match f.shape {
        Shape::Capsule {
            radius,
            half_height,
        } => SharedShape::capsule_y(half_height as f32, radius as f32),
        Shape::Sphere { radius } => SharedShape::ball(radius as f32),
        Shape::Box { half_extents: e } => SharedShape::cuboid(e.x as f32, e.y as f32, e.z as f32),
    };
    (
        Pose::from_parts(f.center.as_vec3(), f.rotation.as_quat()),
        shape,
    )
}

/// Masks per group (sorted names), given each body's group and fit and the jointed pairs.
/// Returns, per body, its mask string.
pub fn masks(
    group_of: &[String],
    fits: &[WorldFit],
    jointed: &[(usize, usize)],
    margin: f64,
) -> Vec<String> {
    let mut names: Vec<String> = group_of.to_vec();
    names.sort();
    names.dedup();
    let gi = |g: &str| names.iter().position(|n| n == g).unwrap_or(0);
    let n = names.len();
    let mut ignore = vec![vec![false; n]; n];
    let jointed: std::collections::HashSet<(usize, usize)> =
        jointed.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    for i in 0..fits.len() {
        for j in (i + 1)..fits.len() {
            if jointed.contains(&(i, j)) {
                continue;
            }
            if overlap(&fits[i], &fits[j], margin) {
                let (a, b) = (gi(&group_of[i]), gi(&group_of[j]));
                ignore[a][b] = true;
                ignore[b][a] = true;
            }
        }
    }
    let mask_of: Vec<String> = (0..n)
        .map(|a| {
            let mut parts = vec!["world".to_string()];
            parts.extend((0..n).filter(|&b| !ignore[a][b]).map(|b| names[b].clone()));
            parts.join(",")
        })
        .collect();
    group_of.iter().map(|g| mask_of[gi(g)].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A blocky figure's pelvis box and its T-posed upper arm (a capsule along X) meeting at
    /// the box's top corner, 6 mm deep, as measured on the file: the box's bounding capsule
    /// left the corner out and the pair was left colliding.
    #[test]
    fn a_capsule_on_a_box_s_corner_overlaps_it() {
        let placed = |shape, center, rotation| WorldFit {
            shape,
            center,
            rotation,
            coverage: None,
        };
        let pelvis = placed(
            Shape::Box {
                half_extents: DVec3::new(0.142, 0.128, 0.056),
            },
            DVec3::new(0.0, 0.516, 0.0),
            glam::DQuat::IDENTITY,
        );
        let arm = placed(
            Shape::Capsule {
                radius: 0.052,
                half_height: 0.046,
            },
            DVec3::new(0.234, 0.645, 0.0),
            glam::DQuat::from_rotation_z(-std::f64::consts::FRAC_PI_2),
        );
        assert!(overlap(&pelvis, &arm, 0.0));
        assert!(overlap(&arm, &pelvis, 0.0));
        let apart = WorldFit {
            center: DVec3::new(0.3, 0.7, 0.0),
            ..arm
        };
        assert!(!overlap(&pelvis, &apart, 0.0));
    }

    #[test]
    fn segments() {
        let d = segment_distance(
            DVec3::ZERO,
            DVec3::X,
            DVec3::new(0.5, 1.0, 0.0),
            DVec3::new(0.5, 2.0, 0.0),
        );
        assert!((d - 1.0).abs() < 1e-12);
    }
}
