//! The swing boundary of a ball socket: which directions of the bone's primary axis are
//! allowed, as one function shared by the solver, telemetry, gizmos and `inspect`.
//!
//! Directions are taken in the joint frame (X = primary axis at rest). A direction `d` at tilt
//! `theta` from +X and azimuth `psi` (from +Y toward +Z) has the stereographic coordinates
//! `s = (d.y, d.z) / (1 + d.x) = tan(theta/2) * (cos psi, sin psi)`. The four extents map to the
//! points `e = (tan(pos_y/2), 0)`, `(-tan(neg_y/2), 0)`, `(0, tan(pos_z/2))`, `(0, -tan(neg_z/2))`.
//!
//! The allowed region is the intersection of (at most four) discs in that plane. The disc of
//! extent `k` touches its extent point `e_k`, is centred on the same axis (`c_k = e_k - R_k n_k`
//! with `n_k` the axis direction outward), and has the smallest radius that still contains the
//! other three extent points: `R_k = max_p |p - e_k|^2 / (2 (e_k - p) . n_k)`.
//!
//! Why this shape: a disc in the stereographic plane is a circular cone on the sphere
//! (stereographic projection maps circles to circles), so the solver holds it with Rapier's
//! native coupled cone joints whose frames never change; the region is convex (an intersection
//! of discs); it is exact at the four extents (each `e_k` is on its own disc's rim, inside the
//! others, and the rim is perpendicular to the axis there); and when all four extents are
//! equal every disc is the same circle, today's circular cone.

use glam::DVec3;

/// One disc of the region in stereographic coordinates (u along +Y, v along +Z). An extent of
/// 0 with its neighbours on the tangent line needs an infinite disc: the half-plane
/// `s . normal <= 0` through the origin, stored with `radius` = infinity and `center` = the
/// outward normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Disc {
    pub center: [f64; 2],
    pub radius: f64,
}

impl Disc {
    fn is_half_plane(&self) -> bool {
        self.radius.is_infinite()
    }

    /// Where the ray from the origin along unit `w` leaves the disc (the origin is inside).
    fn exit(&self, w: [f64; 2]) -> f64 {
        if self.is_half_plane() {
            let along = dot(w, self.center);
            return if along > 1e-12 { 0.0 } else { f64::INFINITY };
        }
        let wc = dot(w, self.center);
        let disc = wc * wc - dot(self.center, self.center) + self.radius * self.radius;
        wc + disc.max(0.0).sqrt()
    }
}

/// A circular cone on the sphere, in the joint frame: allowed iff angle(d, axis) <= half_angle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cone {
    pub axis: DVec3,
    pub half_angle_rad: f64,
}

/// The swing boundary built from four extents (radians).
#[derive(Debug, Clone, PartialEq)]
pub struct SwingBoundary {
    /// pos_y, neg_y, pos_z, neg_z (radians).
    pub extents_rad: [f64; 4],
    discs: Vec<Disc>,
    /// The same discs as cones on the sphere.
    cones: Vec<Cone>,
}

/// Outward axis directions of the four extents in the (u, v) plane.
const AXES: [[f64; 2]; 4] = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]];

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

impl SwingBoundary {
    /// The boundary of extents (pos_y, neg_y, pos_z, neg_z) in radians, each clamped to
    /// 0..175 degrees (a cone reaching the antipode has no direction to push along).
    pub fn new(extents_rad: [f64; 4]) -> Self {
        let max = 175f64.to_radians();
        let ext = extents_rad.map(|e| {
            if e.is_finite() {
                e.clamp(0.0, max)
            } else {
                max
            }
        });
        let points: [[f64; 2]; 4] =
            std::array::from_fn(|k| AXES[k].map(|a| a * (ext[k] * 0.5).tan()));
        let mut discs: Vec<Disc> = Vec::with_capacity(4);
        for k in 0..4 {
            let (e, n) = (points[k], AXES[k]);
            let mut radius: f64 = 0.0;
            for (j, p) in points.iter().enumerate() {
                if j == k {
                    continue;
                }
                let d = sub(e, *p);
                let along = dot(d, n);
                let need = if along > 1e-12 {
                    dot(d, d) / (2.0 * along)
                } else if dot(d, d) > 1e-24 {
                    f64::INFINITY
                } else {
                    0.0
                };
                radius = radius.max(need);
            }
            let disc = if radius.is_infinite() {
                Disc { center: n, radius }
            } else {
                Disc {
                    center: [e[0] - radius * n[0], e[1] - radius * n[1]],
                    radius,
                }
            };
            let same = |o: &Disc| {
                if o.is_half_plane() || disc.is_half_plane() {
                    return o == &disc;
                }
                let tol = 1e-9 * (1.0 + o.radius);
                (o.radius - disc.radius).abs() < tol
                    && (o.center[0] - disc.center[0]).abs() < tol
                    && (o.center[1] - disc.center[1]).abs() < tol
            };
            if !discs.iter().any(same) {
                discs.push(disc);
            }
        }
        let cones = discs.iter().map(disc_cone).collect();
        Self {
            extents_rad: ext,
            discs,
            cones,
        }
    }

    /// True when every extent is the same (a single circular cone).
    pub fn is_circular(&self) -> bool {
        self.discs.len() == 1
    }

    /// The largest allowed tilt (radians) at azimuth `psi` (radians, from +Y toward +Z).
    pub fn max_tilt_rad(&self, psi: f64) -> f64 {
        let w = [psi.cos(), psi.sin()];
        let r = self
            .discs
            .iter()
            .map(|d| d.exit(w))
            .fold(f64::INFINITY, f64::min);
        2.0 * r.max(0.0).atan()
    }

    /// True when the direction at `tilt` and azimuth `psi` (radians) lies inside.
    pub fn contains(&self, tilt_rad: f64, psi: f64) -> bool {
        tilt_rad <= self.max_tilt_rad(psi) + 1e-12
    }

    /// The cones whose intersection is the region, in the joint frame (for the solver).
    pub fn cones(&self) -> &[Cone] {
        &self.cones
    }

    /// How far (radians, angle on the sphere) the unit direction `d` of the joint frame lies
    /// outside the region: the distance to its nearest point, 0 inside. Near a corner this is
    /// less than the tilt past the boundary at the same azimuth.
    pub fn distance_outside(&self, d: DVec3) -> f64 {
        let inside = |p: DVec3| {
            self.cones
                .iter()
                .all(|c| p.angle_between(c.axis) <= c.half_angle_rad + 1e-9)
        };
        if inside(d) {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for c in &self.cones {
            let angle = d.angle_between(c.axis);
            if angle <= c.half_angle_rad {
                continue;
            }
            let side = d - c.axis * d.dot(c.axis);
            if side.length_squared() < 1e-18 {
                continue;
            }
            let p = c.axis * c.half_angle_rad.cos() + side.normalize() * c.half_angle_rad.sin();
            if inside(p) {
                best = best.min(angle - c.half_angle_rad);
            }
        }
        for (i, a) in self.cones.iter().enumerate() {
            for b in &self.cones[i + 1..] {
                for p in circle_crossings(a, b) {
                    if inside(p) {
                        best = best.min(d.angle_between(p));
                    }
                }
            }
        }
        if best.is_finite() {
            best
        } else {
            // No candidate found (degenerate cones): the tilt past the boundary instead.
            let tilt = d.x.clamp(-1.0, 1.0).acos();
            (tilt - self.max_tilt_rad(d.z.atan2(d.y))).max(0.0)
        }
    }

    /// The largest tilt at azimuths 0, step, 2 step, ... below 360 degrees, in degrees.
    pub fn sampled_deg(&self, step_deg: f64) -> Vec<f64> {
        let n = (360.0 / step_deg).round().max(1.0) as usize;
        (0..n)
            .map(|i| {
                self.max_tilt_rad((i as f64 * step_deg).to_radians())
                    .to_degrees()
            })
            .collect()
    }
}

/// The points where two cones' rims cross (none, or two).
fn circle_crossings(a: &Cone, b: &Cone) -> Vec<DVec3> {
    let c = a.axis.dot(b.axis);
    let n = a.axis.cross(b.axis);
    let n2 = n.length_squared();
    if n2 < 1e-14 {
        return Vec::new();
    }
    let (ca, cb) = (a.half_angle_rad.cos(), b.half_angle_rad.cos());
    let alpha = (ca - c * cb) / (1.0 - c * c);
    let beta = (cb - c * ca) / (1.0 - c * c);
    let base = a.axis * alpha + b.axis * beta;
    let rest = 1.0 - base.length_squared();
    if rest < 0.0 {
        return Vec::new();
    }
    let g = (rest / n2).sqrt();
    vec![base + n * g, base - n * g]
}

/// The circular cone on the sphere that a disc (centred on the u or v axis) projects from.
fn disc_cone(d: &Disc) -> Cone {
    if d.is_half_plane() {
        // The line through the origin is a great circle through the rest direction: the
        // hemisphere away from the outward normal.
        return Cone {
            axis: DVec3::new(0.0, -d.center[0], -d.center[1]),
            half_angle_rad: std::f64::consts::FRAC_PI_2,
        };
    }
    let c_len = (d.center[0].powi(2) + d.center[1].powi(2)).sqrt();
    // The disc's diameter along the line through the origin and its centre.
    let dir = if c_len > 1e-12 {
        [d.center[0] / c_len, d.center[1] / c_len]
    } else {
        [1.0, 0.0]
    };
    let (t1, t2) = (
        2.0 * (c_len - d.radius).atan(),
        2.0 * (c_len + d.radius).atan(),
    );
    let center_tilt = 0.5 * (t1 + t2);
    let axis = DVec3::new(
        center_tilt.cos(),
        center_tilt.sin() * dir[0],
        center_tilt.sin() * dir[1],
    );
    Cone {
        axis: axis.normalize(),
        half_angle_rad: 0.5 * (t2 - t1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deg(a: [f64; 4]) -> SwingBoundary {
        SwingBoundary::new(a.map(f64::to_radians))
    }

    fn dir(tilt: f64, psi: f64) -> DVec3 {
        DVec3::new(tilt.cos(), tilt.sin() * psi.cos(), tilt.sin() * psi.sin())
    }

    #[test]
    fn exact_at_the_four_extents() {
        for e in [
            [120.0, 15.0, 45.0, 30.0],
            [70.0, 60.0, 20.0, 20.0],
            [20.0, 30.0, 5.0, 5.0],
            [0.0, 90.0, 10.0, 40.0],
            [175.0, 175.0, 5.0, 170.0],
        ] {
            let b = deg(e);
            let got =
                [0.0, 180.0, 90.0, 270.0].map(|a: f64| b.max_tilt_rad(a.to_radians()).to_degrees());
            for (g, want) in got.iter().zip(e) {
                assert!((g - want).abs() < 1e-6, "{e:?}: got {got:?}");
            }
        }
    }

    #[test]
    fn equal_extents_are_the_circular_cone() {
        let b = deg([40.0; 4]);
        assert!(b.is_circular());
        for k in 0..36 {
            let t = b.max_tilt_rad((k as f64 * 10.0).to_radians()).to_degrees();
            assert!((t - 40.0).abs() < 1e-9, "{t}");
        }
        let cones = b.cones();
        assert_eq!(cones.len(), 1);
        assert!((cones[0].axis - DVec3::X).length() < 1e-12);
        assert!((cones[0].half_angle_rad.to_degrees() - 40.0).abs() < 1e-9);
    }

    #[test]
    fn region_is_convex_in_the_stereographic_plane() {
        let b = deg([120.0, 15.0, 45.0, 30.0]);
        let pts: Vec<[f64; 2]> = (0..720)
            .map(|i| {
                let psi = (i as f64 * 0.5).to_radians();
                let r = (b.max_tilt_rad(psi) * 0.5).tan();
                [r * psi.cos(), r * psi.sin()]
            })
            .collect();
        for i in 0..pts.len() {
            let (a, p, c) = (pts[i], pts[(i + 1) % pts.len()], pts[(i + 2) % pts.len()]);
            let cross = (p[0] - a[0]) * (c[1] - p[1]) - (p[1] - a[1]) * (c[0] - p[0]);
            assert!(cross > -1e-9, "concave at sample {i}: {cross}");
        }
    }

    #[test]
    fn cones_agree_with_the_boundary_function() {
        for e in [
            [120.0, 15.0, 45.0, 30.0],
            [70.0, 60.0, 20.0, 20.0],
            [30.0, 30.0, 60.0, 10.0],
        ] {
            let b = deg(e);
            let cones = b.cones();
            for i in 0..72 {
                let psi = (i as f64 * 5.0).to_radians();
                let t = b.max_tilt_rad(psi);
                for (tilt, inside) in [(t - 1e-4, true), (t + 1e-4, false)] {
                    let d = dir(tilt, psi);
                    let in_cones = cones
                        .iter()
                        .all(|c| d.angle_between(c.axis) <= c.half_angle_rad + 1e-12);
                    assert_eq!(in_cones, inside, "{e:?} at {i}: tilt {tilt}");
                    assert_eq!(b.contains(tilt, psi), inside);
                }
            }
        }
    }

    #[test]
    fn distance_outside_is_the_angle_to_the_region() {
        let b = deg([120.0, 15.0, 45.0, 30.0]);
        assert_eq!(b.distance_outside(DVec3::X), 0.0);
        // Straight past a smooth stretch of the rim: the tilt past it.
        let d = dir(20f64.to_radians(), std::f64::consts::PI);
        assert!((b.distance_outside(d).to_degrees() - 5.0).abs() < 1e-6);
        // Beside the pointed forward extent: far less than the tilt past the boundary there.
        let psi = 2f64.to_radians();
        let d = dir(118f64.to_radians(), psi);
        let tilt_past = 118.0 - b.max_tilt_rad(psi).to_degrees();
        let dist = b.distance_outside(d).to_degrees();
        assert!(
            dist > 0.0 && dist < tilt_past && dist < 2.0,
            "{dist} vs {tilt_past}"
        );
        // Every sampled outside point is at most its tilt-past distance away.
        for i in 0..72 {
            let psi = (i as f64 * 5.0).to_radians();
            let t = b.max_tilt_rad(psi);
            let d = dir(t + 3f64.to_radians(), psi);
            let dist = b.distance_outside(d).to_degrees();
            assert!(dist > 0.0 && dist <= 3.0 + 1e-6, "{i}: {dist}");
        }
    }

    #[test]
    fn samples_72_azimuths() {
        let s = deg([120.0, 15.0, 45.0, 30.0]).sampled_deg(5.0);
        assert_eq!(s.len(), 72);
        assert!((s[0] - 120.0).abs() < 1e-6 && (s[18] - 45.0).abs() < 1e-6);
        assert!((s[36] - 15.0).abs() < 1e-6 && (s[54] - 30.0).abs() < 1e-6);
    }
}
