//! The support polygon of the grounded feet: the convex hull of their colliders' boxes on the
//! ground plane, each box square to the character's heading (its extents along its forward
//! and lateral axes). After a step the feet stand staggered, and the box around both (the hip
//! strategy's region) covers ground that neither foot touches; the hull does not. The boxes
//! were the colliders' world-axis bounding boxes: a box foot turned 45° about the vertical has
//! one as wide as it is long, and a character facing a diagonal leaned, and stepped, as if its
//! feet were that large (Mixamo's X Bot turned by 45°, stepping at assist 0, fell back off its
//! heels standing, where facing its axis it stood). Square to the heading, a character's feet
//! are the same boxes whichever way it faces, and a character facing an axis keeps nearly the
//! boxes it had. (Each foot's own outline, tried first, is smaller than its box wherever the
//! feet toe out; with it the tuned CesiumMan was felled by 5 of 8 pushes at 1.5 m/s instead of
//! 7-8.)

use super::super::hip::grounded_feet;
use super::super::world::BodyRec;
use glam::{Vec2, Vec3};
use rapier3d::prelude::*;

/// A convex polygon on the ground (x, z), counter-clockwise.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SupportHull {
    points: Vec<Vec2>,
}

impl SupportHull {
    /// The hull of the grounded feet's boxes (bit i of `grounded`: foot i) square to the
    /// horizontal `forward`, None without one.
    pub fn of(
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        feet: &[usize],
        grounded: u32,
        forward: Vec3,
    ) -> Option<Self> {
        let corners = grounded_feet(world, bodies, feet, grounded)
            .flat_map(|c| box_along(c, forward))
            .collect();
        let points = hull(corners);
        (!points.is_empty() && points.iter().all(|p| p.is_finite())).then_some(Self { points })
    }

    /// The hull of every foot's box square to `forward` with the bodies in their rest pose.
    pub fn at_rest(
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        feet: &[usize],
        forward: Vec3,
    ) -> Option<Self> {
        let corners = feet
            .iter()
            .filter_map(|&f| bodies[f].rest_collider(world))
            .flat_map(|(c, at)| box_along_at(c, &at, forward))
            .collect();
        let points = hull(corners);
        (!points.is_empty() && points.iter().all(|p| p.is_finite())).then_some(Self { points })
    }

    /// The horizontal vector from the hull to `p` (world, y ignored); zero inside it.
    pub fn outside(&self, p: Vec3) -> Vec3 {
        let q = Vec2::new(p.x, p.z);
        if self.contains(q) {
            return Vec3::ZERO;
        }
        let n = self.points.len();
        let mut best = self.points[0];
        for i in 0..n {
            let c = closest_on_segment(q, self.points[i], self.points[(i + 1) % n]);
            if c.distance_squared(q) < best.distance_squared(q) {
                best = c;
            }
        }
        let e = q - best;
        Vec3::new(e.x, 0.0, e.y)
    }

    /// The hull's extent along horizontal `dir` (world): the least and greatest of its
    /// points' distances along it.
    pub fn extent_along(&self, dir: Vec3) -> (f32, f32) {
        let d = Vec2::new(dir.x, dir.z);
        self.points
            .iter()
            .map(|p| p.dot(d))
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    }

    fn contains(&self, q: Vec2) -> bool {
        let n = self.points.len();
        n >= 3
            && (0..n).all(|i| {
                let (a, b) = (self.points[i], self.points[(i + 1) % n]);
                (b - a).perp_dot(q - a) >= 0.0
            })
    }
}

/// The corners (x, z) of a collider's box on the ground plane with sides along the horizontal
/// `forward` and across it: its farthest points along those four directions. A shape without
/// a support function (a mesh, a compound) gives its world-axis bounding box.
fn box_along(c: &Collider, forward: Vec3) -> [Vec2; 4] {
    box_along_at(c, c.position(), forward)
}

/// [`box_along`] with the collider at world pose `at`.
fn box_along_at(c: &Collider, at: &Pose, forward: Vec3) -> [Vec2; 4] {
    let Some(shape) = c.shape().as_support_map() else {
        let b = c.shape().compute_aabb(at);
        return [
            Vec2::new(b.mins.x, b.mins.z),
            Vec2::new(b.maxs.x, b.mins.z),
            Vec2::new(b.maxs.x, b.maxs.z),
            Vec2::new(b.mins.x, b.maxs.z),
        ];
    };
    let f = Vec2::new(forward.x, forward.z).normalize_or(Vec2::Y);
    let l = f.perp();
    let far = |d: Vec2| {
        let p = shape.support_point(at, Vec3::new(d.x, 0.0, d.y));
        Vec2::new(p.x, p.z).dot(d)
    };
    let (f_hi, f_lo, l_hi, l_lo) = (far(f), -far(-f), far(l), -far(-l));
    [
        f * f_lo + l * l_lo,
        f * f_hi + l * l_lo,
        f * f_hi + l * l_hi,
        f * f_lo + l * l_hi,
    ]
}

fn closest_on_segment(q: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    a + ab * ((q - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// The convex hull, counter-clockwise (Andrew's monotone chain); collinear points dropped.
fn hull(mut p: Vec<Vec2>) -> Vec<Vec2> {
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let mut h: Vec<Vec2> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while h.len() >= start + 2 {
                let (a, b) = (h[h.len() - 2], h[h.len() - 1]);
                if (b - a).perp_dot(q - a) > 0.0 {
                    break;
                }
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staggered_stance_leaves_the_corners_outside() {
        let corners = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(0.1, 0.0),
            Vec2::new(0.1, 0.2),
            Vec2::new(0.0, 0.2),
            Vec2::new(0.3, -0.4),
            Vec2::new(0.4, -0.4),
            Vec2::new(0.4, -0.2),
            Vec2::new(0.3, -0.2),
        ];
        let h = SupportHull {
            points: hull(corners),
        };
        assert_eq!(h.points.len(), 6);
        assert_eq!(h.outside(Vec3::new(0.2, 0.0, -0.1)), Vec3::ZERO);
        // The corner of the box around both feet, (0.0, -0.4), is off the hull.
        let e = h.outside(Vec3::new(0.0, 0.0, -0.4));
        assert!(e.length() > 0.1, "{e}");
        let e = h.outside(Vec3::new(0.05, 0.0, 0.5));
        assert!((e - Vec3::new(0.0, 0.0, 0.3)).length() < 1e-5, "{e}");
    }

    /// A box foot turned 45° about the vertical, with the character, stands on its own box
    /// square to the heading, whose extent along the foot is its length, not on its bounding
    /// box (as wide as it is long).
    #[test]
    fn a_turned_box_foot_stands_on_its_own_box() {
        let (half_len, half_width) = (0.13f32, 0.05f32);
        let turn = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
        let foot = ColliderBuilder::cuboid(half_width, 0.04, half_len)
            .position(Pose::from_parts(Vec3::new(0.3, 0.04, -0.2), turn))
            .build();
        let along = turn * Vec3::Z;
        let h = SupportHull {
            points: hull(box_along(&foot, along).to_vec()),
        };
        assert_eq!(h.points.len(), 4, "{:?}", h.points);
        let (heel, toe) = h.extent_along(along);
        let mid = Vec3::new(0.3, 0.0, -0.2).dot(along);
        assert!((heel - (mid - half_len)).abs() < 1e-5, "{heel}");
        assert!((toe - (mid + half_len)).abs() < 1e-5, "{toe}");
        let b = foot.compute_aabb();
        assert!(b.maxs.z - b.mins.z > 0.16, "its box is wider than the foot");
        let beside = Vec3::new(0.3, 0.0, -0.2) + turn * Vec3::X * (half_width + 0.02);
        assert!(
            h.outside(beside).length() > 0.019,
            "beside the foot is outside it"
        );
    }
}
