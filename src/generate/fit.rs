//! Shapes fitted to the skin, robustly: extents are percentiles of the body's vertices, never
//! their min/max, so stray vertices do not inflate a shape. Each fit tries sizes from tight to
//! loose and keeps the first whose coverage (the share of the body's vertices inside the shape
//! inflated by the tolerance) reaches [`TARGET_COVERAGE`]. Everything here is in world units
//! and world directions; [`super::emit`] converts to bone space.

use super::rig::{percentile, sorted};
use glam::{DMat3, DQuat, DVec3};

mod capsule;
pub use capsule::capsule;

/// The coverage a fit tries to reach before it stops growing the shape.
pub const TARGET_COVERAGE: f64 = 0.93;
/// Fewer vertices than this: the shape comes from the bone's length alone (the anatomy's
/// rule of what makes a skin, which the plausibility checks judge by too).
pub const MIN_POINTS: usize = crate::anatomy::samples::MIN_SKIN_POINTS;

/// A shape in its own frame (world units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// Long axis: the frame's +Y.
    Capsule {
        radius: f64,
        half_height: f64,
    },
    Sphere {
        radius: f64,
    },
    Box {
        half_extents: DVec3,
    },
}

impl Shape {
    /// The same shape as a collider shape (world sizes).
    pub fn collider(&self) -> crate::document::ColliderShape {
        use crate::document::ColliderShape as C;
        match *self {
            Shape::Capsule {
                radius,
                half_height,
            } => C::Capsule {
                radius,
                half_height,
            },
            Shape::Sphere { radius } => C::Sphere { radius },
            Shape::Box { half_extents: e } => C::Box {
                half_extents: e.to_array(),
            },
        }
    }

    pub fn volume(&self) -> f64 {
        use std::f64::consts::PI;
        match *self {
            Shape::Capsule {
                radius,
                half_height,
            } => PI * radius * radius * (2.0 * half_height + 4.0 / 3.0 * radius),
            Shape::Sphere { radius } => 4.0 / 3.0 * PI * radius.powi(3),
            Shape::Box { half_extents: e } => 8.0 * e.x * e.y * e.z,
        }
    }

    /// Is a point in the shape's frame inside the shape grown by `inflate`?
    pub fn contains(&self, q: DVec3, inflate: f64) -> bool {
        match *self {
            Shape::Capsule {
                radius,
                half_height,
            } => {
                let y = q.y.clamp(-half_height, half_height);
                (q - DVec3::new(0.0, y, 0.0)).length() <= radius + inflate
            }
            Shape::Sphere { radius } => q.length() <= radius + inflate,
            Shape::Box { half_extents } => {
                let d = q.abs() - half_extents - DVec3::splat(inflate);
                d.max_element() <= 0.0
            }
        }
    }
}

/// A fitted shape placed in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldFit {
    pub shape: Shape,
    pub center: DVec3,
    /// world_from_collider rotation (the collider's +Y is the bone's primary axis).
    pub rotation: DQuat,
    /// Share of the body's vertices inside the shape inflated by the tolerance (None: no
    /// vertices to measure).
    pub coverage: Option<f64>,
}

/// Share of `points` inside a placed shape grown by `inflate`.
pub fn coverage(points: &[DVec3], fit: &WorldFit, inflate: f64) -> Option<f64> {
    if points.is_empty() {
        return None;
    }
    let inv = fit.rotation.inverse();
    let inside = points
        .iter()
        .filter(|p| fit.shape.contains(inv * (**p - fit.center), inflate))
        .count();
    Some(inside as f64 / points.len() as f64)
}

/// A rotation whose +Y is `axis` (unit), twist fixed by a reference direction when possible.
pub fn frame_with_y(axis: DVec3, reference: DVec3) -> DQuat {
    let y = axis.normalize_or(DVec3::Y);
    let z0 = reference - y * reference.dot(y);
    if z0.length() < 1e-6 {
        return DQuat::from_rotation_arc(DVec3::Y, y);
    }
    let z = z0.normalize();
    let x = y.cross(z);
    DQuat::from_mat3(&DMat3::from_cols(x, y, z)).normalize()
}

/// Scores a candidate fit by its coverage and keeps it when it beats the best so far;
/// true once it reaches [`TARGET_COVERAGE`] (the search can stop).
fn keep_best(best: &mut Option<WorldFit>, fit: WorldFit, points: &[DVec3], inflate: f64) -> bool {
    let c = coverage(points, &fit, inflate);
    let fit = WorldFit { coverage: c, ..fit };
    let done = covers(&fit);
    if best.as_ref().is_none_or(|b| c > b.coverage) || done {
        *best = Some(fit);
    }
    done
}

/// Does a fit's measured coverage reach [`TARGET_COVERAGE`]?
fn covers(fit: &WorldFit) -> bool {
    fit.coverage.is_some_and(|c| c >= TARGET_COVERAGE)
}

fn fallback_fit(origin: DVec3, rotation: DQuat, r: f64) -> WorldFit {
    WorldFit {
        shape: Shape::Sphere { radius: r },
        center: origin,
        rotation,
        coverage: None,
    }
}

/// Box with the given rotation (world_from_box); `floor`: no face below this height.
pub fn cuboid(
    points: &[DVec3],
    origin: DVec3,
    rotation: DQuat,
    size_hint: f64,
    inflate: f64,
    min_half: f64,
    floor: Option<f64>,
) -> WorldFit {
    if points.len() < MIN_POINTS {
        let e = (size_hint / 2.0).max(min_half);
        return WorldFit {
            shape: Shape::Box {
                half_extents: DVec3::splat(e),
            },
            center: origin,
            rotation,
            coverage: None,
        };
    }
    let inv = rotation.inverse();
    let local: Vec<DVec3> = points.iter().map(|p| inv * (*p - origin)).collect();
    let axes: [Vec<f64>; 3] = [
        sorted(local.iter().map(|q| q.x)),
        sorted(local.iter().map(|q| q.y)),
        sorted(local.iter().map(|q| q.z)),
    ];
    let mut best: Option<WorldFit> = None;
    for q in [0.04, 0.03, 0.02, 0.01, 0.005] {
        let lo = DVec3::new(
            percentile(&axes[0], q),
            percentile(&axes[1], q),
            percentile(&axes[2], q),
        );
        let hi = DVec3::new(
            percentile(&axes[0], 1.0 - q),
            percentile(&axes[1], 1.0 - q),
            percentile(&axes[2], 1.0 - q),
        );
        let (lo, hi) = clip_floor(lo, hi, origin, rotation, floor);
        let half = ((hi - lo) / 2.0).max(DVec3::splat(min_half));
        let fit = WorldFit {
            shape: Shape::Box { half_extents: half },
            center: origin + rotation * ((lo + hi) / 2.0),
            rotation,
            coverage: None,
        };
        if keep_best(&mut best, fit, points, inflate) {
            break;
        }
    }
    best.unwrap_or_else(|| fallback_fit(origin, rotation, min_half))
}

/// Raises the box's lowest face to `floor` (world height) along whichever local axis is
/// closest to vertical.
fn clip_floor(
    mut lo: DVec3,
    mut hi: DVec3,
    origin: DVec3,
    rotation: DQuat,
    floor: Option<f64>,
) -> (DVec3, DVec3) {
    let Some(floor) = floor else { return (lo, hi) };
    let up_local = rotation.inverse() * DVec3::Y;
    let k = (0..3)
        .max_by(|&a, &b| up_local[a].abs().total_cmp(&up_local[b].abs()))
        .unwrap_or(1);
    let s = up_local[k].signum();
    // Height of a face at local coordinate c along axis k: origin.y + s * c (approximately).
    let limit = (floor - origin.y) * s;
    if s > 0.0 {
        lo[k] = lo[k].max(limit).min(hi[k]);
    } else {
        hi[k] = hi[k].min(limit).max(lo[k]);
    }
    (lo, hi)
}

/// The lowest point of a placed shape (world height).
pub fn lowest_y(fit: &WorldFit) -> f64 {
    let down = |v: DVec3| (fit.rotation * v).y.abs();
    let reach = match fit.shape {
        Shape::Capsule {
            radius,
            half_height,
        } => down(DVec3::Y) * half_height + radius,
        Shape::Sphere { radius } => radius,
        Shape::Box { half_extents: e } => {
            down(DVec3::X) * e.x + down(DVec3::Y) * e.y + down(DVec3::Z) * e.z
        }
    };
    fit.center.y - reach
}

/// Raises a capsule's lowest point to `floor` (world height): its lower end moves up along
/// the axis and, where that is not enough (an axis near level, or nothing left to shorten),
/// its radius shrinks, not below `min_radius`. Other shapes are returned as they are; the
/// coverage is left for the caller to measure again.
pub fn floor_capsule(fit: WorldFit, floor: f64, min_radius: f64) -> WorldFit {
    let Shape::Capsule {
        radius,
        half_height,
    } = fit.shape
    else {
        return fit;
    };
    let axis = fit.rotation * DVec3::Y;
    let down = if axis.y > 0.0 { -axis } else { axis };
    let (upper, lower) = (
        fit.center - down * half_height,
        fit.center + down * half_height,
    );
    if lower.y - radius >= floor {
        return fit;
    }
    let rise = match -down.y > 1e-9 {
        true => ((floor + radius - lower.y) / -down.y).min(2.0 * half_height),
        false => 0.0,
    };
    let lower = lower - down * rise;
    WorldFit {
        shape: Shape::Capsule {
            radius: radius.min((lower.y - floor).max(min_radius)),
            half_height: upper.distance(lower) / 2.0,
        },
        center: (upper + lower) / 2.0,
        ..fit
    }
}

/// Sphere round the middle of the points' percentile box.
pub fn sphere(
    points: &[DVec3],
    origin: DVec3,
    axis: DVec3,
    reference: DVec3,
    size_hint: f64,
    inflate: f64,
    min_radius: f64,
) -> WorldFit {
    let rotation = frame_with_y(axis, reference);
    if points.len() < MIN_POINTS {
        let r = (size_hint / 2.0).max(min_radius);
        return WorldFit {
            shape: Shape::Sphere { radius: r },
            center: origin + rotation * DVec3::Y * r,
            rotation,
            coverage: None,
        };
    }
    let mid = |f: fn(&DVec3) -> f64| {
        let v = sorted(points.iter().map(f));
        (percentile(&v, 0.05) + percentile(&v, 0.95)) / 2.0
    };
    let center = DVec3::new(mid(|p| p.x), mid(|p| p.y), mid(|p| p.z));
    let ds = sorted(points.iter().map(|p| p.distance(center)));
    let mut best: Option<WorldFit> = None;
    for q in [0.8, 0.85, 0.9, 0.95] {
        let fit = WorldFit {
            shape: Shape::Sphere {
                radius: percentile(&ds, q).max(min_radius),
            },
            center,
            rotation,
            coverage: None,
        };
        if keep_best(&mut best, fit, points, inflate) {
            break;
        }
    }
    best.unwrap_or_else(|| fallback_fit(origin, rotation, min_radius))
}

/// Distance from `p` to the segment from `origin` along unit `dir` for `len` (a bone).
pub fn distance_to_segment(p: DVec3, origin: DVec3, dir: DVec3, len: f64) -> f64 {
    let t = (p - origin).dot(dir).clamp(0.0, len.max(0.0));
    p.distance(origin + dir * t)
}

/// Extents of the points along three directions (p5..p95), for the round/flat test.
pub fn spread(points: &[DVec3], dirs: [DVec3; 3]) -> DVec3 {
    let e = |d: DVec3| {
        let v = sorted(points.iter().map(|p| p.dot(d)));
        percentile(&v, 0.95) - percentile(&v, 0.05)
    };
    DVec3::new(e(dirs[0]), e(dirs[1]), e(dirs[2]))
}

/// Principal axis of the points (power iteration on the covariance), oriented along `hint`.
pub fn principal_axis(points: &[DVec3], hint: DVec3) -> Option<DVec3> {
    if points.len() < MIN_POINTS {
        return None;
    }
    let mean = points.iter().sum::<DVec3>() / points.len() as f64;
    let mut c = DMat3::ZERO;
    for p in points {
        let d = *p - mean;
        c += DMat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    let mut v = hint.normalize_or(DVec3::Y);
    for _ in 0..32 {
        let w = c * v;
        if w.length() < 1e-30 {
            return None;
        }
        v = w.normalize();
    }
    if v.dot(hint) < 0.0 {
        v = -v;
    }
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A capsule reaching below the floor: a tilted one keeps its upper end and ends on the
    /// floor; a level one (nothing to shorten) gets thinner; one above is left alone.
    #[test]
    fn floor_capsule_raises_the_lower_end_then_thins() {
        let tilted = WorldFit {
            shape: Shape::Capsule {
                radius: 0.1,
                half_height: 0.2,
            },
            center: DVec3::new(0.0, 0.25, 0.0),
            rotation: DQuat::from_rotation_z(0.5),
            coverage: None,
        };
        let upper_end = |f: &WorldFit| match f.shape {
            Shape::Capsule { half_height, .. } => {
                let a = f.rotation * DVec3::Y;
                f.center + a * half_height * a.y.signum()
            }
            _ => unreachable!(),
        };
        assert!(lowest_y(&tilted) < 0.0);
        let raised = floor_capsule(tilted, 0.0, 0.01);
        assert!(lowest_y(&raised).abs() < 1e-9, "{}", lowest_y(&raised));
        assert!(upper_end(&raised).distance(upper_end(&tilted)) < 1e-9);
        assert_eq!(floor_capsule(tilted, -1.0, 0.01), tilted);
        let level = WorldFit {
            rotation: DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2),
            center: DVec3::new(0.0, 0.06, 0.0),
            ..tilted
        };
        let thinner = floor_capsule(level, 0.0, 0.01);
        assert!(
            matches!(thinner.shape, Shape::Capsule { radius, .. } if (radius - 0.06).abs() < 1e-9)
        );
        assert!(lowest_y(&thinner).abs() < 1e-9);
    }
}
