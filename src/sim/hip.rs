//! The hip strategy: when the capture point (the centre of mass plus its velocity over
//! ω = √(g/h), where the centre of mass would come to rest over a point foot) leaves the
//! region the grounded feet cover, a torque turns the trunk about the hips toward the fall,
//! with the reaction on the thighs: an internal torque, nothing from outside. Spinning the
//! trunk toward the fall makes the feet push the ground the other way (the rate of change of
//! angular momentum about the centre of mass is the moment of the ground force), which slows
//! the centre of mass where the ankle strategy's centre of pressure has reached a heel or a
//! toe (Horak & Nashner's hip strategy; Pratt et al.'s capture point with a flywheel).
//!
//! τ = hip_kp · (up × e), |τ| ≤ hip_max_torque, e the horizontal distance from the support
//! region (the grounded feet's bounding boxes, world axes) to the capture point. On the
//! balance pelvis; −τ split over the thighs (the first body below the pelvis on each support
//! foot's chain that is in a leg). `hip_kp` 0 (the default) leaves it off.

use super::world::BodyRec;
use crate::anatomy::Anatomy;
use crate::document::{BoneId, Document};
use glam::Vec3;
use rapier3d::prelude::*;

/// The body slot of each support foot's hip child (its thigh), None when its chain does not
/// reach the pelvis through a leg (a quadruped's front foot hangs from the chest).
pub(crate) fn hip_children(
    (doc, anatomy): (&Document, &Anatomy),
    bodies: &[BodyRec],
    pelvis: usize,
    feet: &[usize],
) -> Vec<Option<usize>> {
    let in_leg = |b: BoneId| {
        anatomy
            .limbs()
            .iter()
            .any(|l| l.kind.is_leg() && l.path.contains(&b))
    };
    let pelvis_bone = bodies[pelvis].bone;
    feet.iter()
        .map(|&f| {
            let mut bone = bodies[f].bone;
            while let Some(parent) = doc.bone(bone).parent {
                if parent == pelvis_bone {
                    return bodies
                        .iter()
                        .position(|b| b.bone == bone)
                        .filter(|_| in_leg(bone));
                }
                bone = parent;
            }
            None
        })
        .collect()
}

/// The horizontal capture point of a centre of mass `com` moving at `vcom`, `h` above the
/// ground, under the world's gravity `g` (world units per s², as the world falls: a character
/// a hundred times a person's size falls as slowly as a giant does). Without gravity, the
/// centre of mass itself.
pub(crate) fn capture_point(com: Vec3, vcom: Vec3, h: f32, g: f32) -> Vec3 {
    let omega = (g / h.max(1e-6)).sqrt();
    let cp = if omega.is_finite() && omega > 1e-6 {
        com + vcom / omega
    } else {
        com
    };
    Vec3::new(cp.x, 0.0, cp.z)
}

/// The world bounding box of each grounded foot's collider (bit i of `grounded`: foot i, of
/// the first 32).
pub(crate) fn grounded_foot_boxes<'a>(
    world: &'a PhysicsWorld,
    bodies: &'a [BodyRec],
    feet: &'a [usize],
    grounded: u32,
) -> impl Iterator<Item = Aabb> + 'a {
    grounded_feet(world, bodies, feet, grounded).map(|c| c.compute_aabb())
}

/// The colliders of the grounded feet (bit i of `grounded`: foot i).
pub(crate) fn grounded_feet<'a>(
    world: &'a PhysicsWorld,
    bodies: &'a [BodyRec],
    feet: &'a [usize],
    grounded: u32,
) -> impl Iterator<Item = &'a Collider> + 'a {
    feet.iter()
        .enumerate()
        .filter(move |&(i, _)| i < 32 && grounded & (1 << i) != 0)
        .filter_map(|(_, &f)| world.colliders.get(bodies[f].collider))
}

/// The region the grounded feet cover: the union of their colliders' bounding boxes (world).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SupportBox {
    lo: Vec3,
    hi: Vec3,
}

impl SupportBox {
    /// The grounded feet's box; None without a grounded foot that has a collider.
    pub fn of(
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        feet: &[usize],
        grounded: u32,
    ) -> Option<Self> {
        let (lo, hi) = grounded_foot_boxes(world, bodies, feet, grounded).fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), b| (lo.min(b.mins), hi.max(b.maxs)),
        );
        (lo.x <= hi.x && lo.z <= hi.z).then_some(Self { lo, hi })
    }

    /// The lowest point of the grounded feet (world height).
    pub fn ground_y(&self) -> f32 {
        self.lo.y
    }

    /// The horizontal vector from the box to `cp`; zero inside it.
    pub fn outside(&self, cp: Vec3) -> Vec3 {
        let inside = Vec3::new(
            cp.x.clamp(self.lo.x, self.hi.x),
            0.0,
            cp.z.clamp(self.lo.z, self.hi.z),
        );
        let e = cp - inside;
        if e.is_finite() {
            e
        } else {
            Vec3::ZERO
        }
    }
}

/// The hip torque on the pelvis for a capture-point error `e`: toward the fall, capped.
pub(crate) fn hip_torque(e: Vec3, kp: f64, max_torque: f64) -> Vec3 {
    // Turning about up × e moves the trunk's top toward e.
    capped(Vec3::Y.cross(e) * kp as f32, max_torque as f32)
}

/// `tau` shortened to at most `cap` (N*m); zero when it is not finite.
pub(crate) fn capped(mut tau: Vec3, cap: f32) -> Vec3 {
    let m = tau.length();
    if m > cap && m > 0.0 {
        tau *= cap / m;
    }
    if tau.is_finite() {
        tau
    } else {
        Vec3::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hip_torque_turns_the_trunk_toward_the_fall_and_is_capped() {
        // A fall toward +Z: the torque turns +Y toward +Z, i.e. about +X.
        let tau = hip_torque(Vec3::new(0.0, 0.0, 0.1), 1000.0, 50.0);
        assert!(tau.x > 0.0 && tau.y.abs() < 1e-6 && tau.z.abs() < 1e-6);
        assert!((tau.length() - 50.0).abs() < 1e-3);
        let top = Vec3::Y + tau.normalize().cross(Vec3::Y) * 0.01;
        assert!(top.z > 0.0);
        assert_eq!(hip_torque(Vec3::ZERO, 1000.0, 50.0), Vec3::ZERO);
    }

    #[test]
    fn capture_point_leads_the_centre_of_mass_by_v_over_omega() {
        let cp = capture_point(
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, -0.5),
            1.0,
            9.81,
        );
        assert!((cp.z + 0.5 / 9.81f32.sqrt()).abs() < 1e-5);
    }
}
