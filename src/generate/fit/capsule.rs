//! Capsules fitted to a body part's vertices: sizes from tight to loose round the median of
//! the vertices across the bone, and round the middle of their extent where the two lie
//! apart; a capsule that comes out a ball against the ball fitted to the vertices.

use super::{
    coverage, covers, fallback_fit, frame_with_y, keep_best, sphere, Shape, WorldFit, MIN_POINTS,
};
use crate::generate::rig::{percentile, sorted};
use glam::{DQuat, DVec3};

/// Capsule along `axis` from `origin`; `length` is the distance to the child joint (0 when
/// unknown). `inflate` is the coverage tolerance, `min_radius` a floor on the radius.
pub fn capsule(
    points: &[DVec3],
    origin: DVec3,
    axis: DVec3,
    reference: DVec3,
    length: f64,
    inflate: f64,
    min_radius: f64,
) -> WorldFit {
    let rotation = frame_with_y(axis, reference);
    if points.len() < MIN_POINTS {
        return capsule_from_length(points, origin, rotation, length, inflate, min_radius);
    }
    let profile = CapsuleProfile::new(points, origin, rotation);
    let by_median = profile.fit(profile.median_centre, points, inflate, min_radius);
    let best = match profile.lopsided() {
        true => {
            let by_middle = profile.fit(profile.middle_centre, points, inflate, min_radius);
            smaller_covering(by_median, by_middle)
        }
        false => by_median,
    };
    let best = match best {
        Some(f) if is_ball(&f.shape) => {
            let ball = sphere(points, origin, axis, reference, 0.0, inflate, min_radius);
            Some(smaller_ball(f, ball))
        }
        other => other,
    };
    best.unwrap_or_else(|| fallback_fit(origin, rotation, min_radius))
}

/// The ball fitted to the vertices where it reaches [`TARGET_COVERAGE`] and is smaller than
/// the capsule that came out a ball; else that capsule (a larger ball is no better fit: a round
/// chibi's thigh whose vertices run into its belly).
fn smaller_ball(capsule: WorldFit, ball: WorldFit) -> WorldFit {
    match covers(&ball) && ball.shape.volume() < capsule.shape.volume() {
        true => ball,
        false => capsule,
    }
}

/// A capsule with no length: a ball.
fn is_ball(shape: &Shape) -> bool {
    matches!(shape, Shape::Capsule { half_height, .. } if *half_height <= 0.0)
}

/// Of two fits, the one that reaches [`TARGET_COVERAGE`] with the smaller volume; the first
/// when neither does and it covers as much.
fn smaller_covering(a: Option<WorldFit>, b: Option<WorldFit>) -> Option<WorldFit> {
    let reaches = |f: &Option<WorldFit>| f.as_ref().is_some_and(covers);
    let volume = |f: &Option<WorldFit>| f.as_ref().map_or(f64::MAX, |f| f.shape.volume());
    let coverage = |f: &Option<WorldFit>| f.as_ref().and_then(|f| f.coverage);
    let b_better = match (reaches(&a), reaches(&b)) {
        (true, true) => volume(&b) < volume(&a),
        (false, true) => true,
        (true, false) => false,
        (false, false) => coverage(&b) > coverage(&a),
    };
    if b_better {
        b
    } else {
        a
    }
}

/// A capsule sized from the bone's length alone (too few vertices to fit): from `origin`
/// along the frame's +Y, its radius 15% of the length.
fn capsule_from_length(
    points: &[DVec3],
    origin: DVec3,
    rotation: DQuat,
    length: f64,
    inflate: f64,
    min_radius: f64,
) -> WorldFit {
    let len = length.max(4.0 * min_radius);
    let radius = (0.15 * len).max(min_radius);
    let fit = WorldFit {
        shape: Shape::Capsule {
            radius,
            half_height: (len / 2.0 - radius).max(0.0),
        },
        center: origin + rotation * DVec3::Y * (len / 2.0),
        rotation,
        coverage: None,
    };
    WorldFit {
        coverage: coverage(points, &fit, inflate),
        ..fit
    }
}

/// One capsule size to try: percentiles of the vertices along and around the axis.
struct CapsuleAttempt {
    /// The share of vertices left past each end along the axis.
    end_quantile: f64,
    /// The share of vertices within the radius.
    radius_quantile: f64,
    /// How much of the radius the end caps take from the axial extent (in radii).
    cap_radii: f64,
}

/// Capsule sizes from tight to loose.
const CAPSULE_ATTEMPTS: [CapsuleAttempt; 5] = [
    CapsuleAttempt {
        end_quantile: 0.03,
        radius_quantile: 0.75,
        cap_radii: 1.0,
    },
    CapsuleAttempt {
        end_quantile: 0.02,
        radius_quantile: 0.8,
        cap_radii: 1.0,
    },
    CapsuleAttempt {
        end_quantile: 0.02,
        radius_quantile: 0.85,
        cap_radii: 0.75,
    },
    CapsuleAttempt {
        end_quantile: 0.01,
        radius_quantile: 0.9,
        cap_radii: 0.6,
    },
    CapsuleAttempt {
        end_quantile: 0.01,
        radius_quantile: 0.95,
        cap_radii: 0.5,
    },
];

/// Where a capsule's axis crosses the plane across it (frame X and Z).
#[derive(Debug, Clone, Copy, PartialEq)]
struct AcrossCentre {
    x: f64,
    z: f64,
}

/// The vertices in the capsule's frame (origin at the bone, +Y along it), sorted for
/// percentiles.
struct CapsuleProfile {
    /// The frame: its origin and world_from_frame rotation.
    origin: DVec3,
    rotation: DQuat,
    /// The frame's points.
    local: Vec<DVec3>,
    /// The median across the axis: the middle of a limb's vertices.
    median_centre: AcrossCentre,
    /// The middle of the vertices' p5..p95 extent across the axis: the middle of a body whose
    /// vertices crowd one side (a belly or a hip's folds meshed densely, a back sparsely).
    middle_centre: AcrossCentre,
    /// The p5..p95 extent across the axis, the larger of X and Z.
    across_extent: f64,
    /// Sorted positions along the axis (frame Y).
    along_sorted: Vec<f64>,
}

/// A capsule's axis through the middle of the vertices' extent, not their median, is tried
/// too when the two lie apart by more than this share of the extent across.
const LOPSIDED: f64 = 0.1;

impl CapsuleProfile {
    fn new(points: &[DVec3], origin: DVec3, rotation: DQuat) -> Self {
        let inv = rotation.inverse();
        let local: Vec<DVec3> = points.iter().map(|p| inv * (*p - origin)).collect();
        let xs = sorted(local.iter().map(|q| q.x));
        let zs = sorted(local.iter().map(|q| q.z));
        let along_sorted = sorted(local.iter().map(|q| q.y));
        let mid = |v: &[f64]| (percentile(v, 0.05) + percentile(v, 0.95)) / 2.0;
        let extent = |v: &[f64]| percentile(v, 0.95) - percentile(v, 0.05);
        CapsuleProfile {
            median_centre: AcrossCentre {
                x: percentile(&xs, 0.5),
                z: percentile(&zs, 0.5),
            },
            middle_centre: AcrossCentre {
                x: mid(&xs),
                z: mid(&zs),
            },
            across_extent: extent(&xs).max(extent(&zs)),
            origin,
            rotation,
            local,
            along_sorted,
        }
    }

    /// Do the median and the middle across the axis lie apart (see [`LOPSIDED`])?
    fn lopsided(&self) -> bool {
        let (a, b) = (self.median_centre, self.middle_centre);
        (a.x - b.x).hypot(a.z - b.z) > LOPSIDED * self.across_extent
    }

    /// Sorted distances from the axis through `centre`.
    fn radial_sorted(&self, centre: AcrossCentre) -> Vec<f64> {
        sorted(
            self.local
                .iter()
                .map(|q| (q.x - centre.x).hypot(q.z - centre.z)),
        )
    }

    /// The first of [`CAPSULE_ATTEMPTS`] round `centre` to reach [`TARGET_COVERAGE`], else
    /// the one covering most.
    fn fit(
        &self,
        centre: AcrossCentre,
        points: &[DVec3],
        inflate: f64,
        min_radius: f64,
    ) -> Option<WorldFit> {
        let radial = self.radial_sorted(centre);
        let mut best: Option<WorldFit> = None;
        for attempt in CAPSULE_ATTEMPTS {
            let fit = self.capsule(&attempt, centre, &radial, min_radius);
            if keep_best(&mut best, fit, points, inflate) {
                break;
            }
        }
        best
    }

    /// The capsule of one attempt, placed in the world (coverage not yet measured).
    fn capsule(
        &self,
        at: &CapsuleAttempt,
        centre: AcrossCentre,
        radial_sorted: &[f64],
        min_radius: f64,
    ) -> WorldFit {
        let ts = &self.along_sorted;
        let (t_lo, t_hi) = (
            percentile(ts, at.end_quantile),
            percentile(ts, 1.0 - at.end_quantile),
        );
        let radius = percentile(radial_sorted, at.radius_quantile).max(min_radius);
        let half = ((t_hi - t_lo) / 2.0 - at.cap_radii * radius).max(0.0);
        let center_local = DVec3::new(centre.x, (t_lo + t_hi) / 2.0, centre.z);
        WorldFit {
            shape: Shape::Capsule {
                radius,
                half_height: half,
            },
            center: self.origin + self.rotation * center_local,
            rotation: self.rotation,
            coverage: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cylinder of points plus a few far strays: the fit ignores the strays.
    #[test]
    fn capsule_fit_ignores_strays() {
        let mut pts = Vec::new();
        for i in 0..40 {
            for k in 0..24 {
                let a = k as f64 / 24.0 * std::f64::consts::TAU;
                pts.push(DVec3::new(
                    0.05 * a.cos(),
                    i as f64 / 40.0 * 0.4,
                    0.05 * a.sin(),
                ));
            }
        }
        for k in 0..5 {
            pts.push(DVec3::new(1.0 + k as f64, 0.2, 0.0));
        }
        let f = capsule(&pts, DVec3::ZERO, DVec3::Y, DVec3::Z, 0.4, 0.035, 0.01);
        let Shape::Capsule { radius, .. } = f.shape else {
            panic!("not a capsule")
        };
        assert!(radius < 0.06, "radius {radius}");
        assert!(f.coverage.unwrap() > 0.9);
    }

    /// A cylinder meshed densely on one side (a belly's folds) and sparsely on the other: the
    /// capsule's axis runs through the middle of the cylinder, not through the median of its
    /// vertices, so its radius is the cylinder's. Through the median it was 1.7 times that.
    #[test]
    fn a_lopsided_mesh_gets_the_capsule_of_its_shape() {
        let mut pts = Vec::new();
        for i in 0..40 {
            let y = i as f64 / 40.0 * 0.6;
            for k in 0..48 {
                let a = k as f64 / 48.0 * std::f64::consts::TAU;
                // Every vertex on the front half, one in six behind.
                if a.sin() > 0.0 || k % 6 == 0 {
                    pts.push(DVec3::new(0.1 * a.cos(), y, 0.1 * a.sin()));
                }
            }
        }
        let f = capsule(&pts, DVec3::ZERO, DVec3::Y, DVec3::Z, 0.6, 0.01, 0.005);
        let Shape::Capsule { radius, .. } = f.shape else {
            panic!("not a capsule: {f:?}")
        };
        assert!((0.09..=0.115).contains(&radius), "radius {radius}");
        assert!(f.center.z.abs() < 0.02, "centre {:?}", f.center);
    }

    /// A block on a short bone (a beaver's rear body on its pelvis), its vertices crowding
    /// its lower half: no capsule along the bone covers it before it is a ball, and a ball's
    /// radius from distances across the bone alone misses the vertices off its ends; the ball
    /// fitted to the vertices' distances is kept where it is smaller (0.272 here, 0.282
    /// without). The beaver's pelvis was a ball of radius 70% of its height, 56% with it.
    #[test]
    fn a_block_on_a_short_bone_is_the_ball_round_its_middle() {
        let mut pts = Vec::new();
        let n = 12;
        for i in 0..=n {
            for j in 0..=n {
                for k in 0..=n {
                    if [i, j, k].iter().all(|&c| c != 0 && c != n) {
                        continue;
                    }
                    let c = |c: i32| (c as f64 / n as f64 - 0.5) * 0.4;
                    // Half as deep along the bone as across it.
                    let p = DVec3::new(c(i), c(j), 0.5 * c(k));
                    // The lower half meshed four times as densely.
                    let copies = if p.y < 0.0 { 4 } else { 1 };
                    for d in 0..copies {
                        pts.push(p * (1.0 - 0.001 * d as f64));
                    }
                }
            }
        }
        let f = capsule(&pts, DVec3::ZERO, DVec3::Z, DVec3::Y, 0.05, 0.01, 0.005);
        let radius = match f.shape {
            Shape::Sphere { radius } => radius,
            Shape::Capsule { radius, .. } => radius,
            Shape::Box { .. } => panic!("a box: {f:?}"),
        };
        assert!(radius <= 0.275, "radius {radius}, {f:?}");
        assert!(f.center.length() < 0.03, "centre {:?}", f.center);
    }
}
