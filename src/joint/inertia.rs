//! Inertia from the document (glam only): what a drive or a balance controller moves, so its
//! gains can be read as a natural frequency and a damping ratio.
//!
//! Each body is its collider as a solid of uniform density and the file's mass, at the bone's
//! rest pose (the same placement the solver builds; no inertia floor: this is the character
//! as the file describes it). A subtree's inertia about a point is, per body, its own solid
//! inertia plus m·r² (parallel axes).
//!
//! - **Hinge:** the child subtree's moment about the hinge axis through the joint.
//! - **Ball socket:** the mean of the subtree's three principal moments about the joint
//!   (trace / 3). One gain drives all three axes; the mean is the moment about an axis drawn
//!   at random, so f is exact for a typical axis. For a limb (a long subtree) the two swing
//!   moments are nearly equal and much larger than the twist moment, so f about the swing
//!   axes is within about 20% of the reported one while the twist rings faster.
//! - **Whole body about the ground** (the balance controllers): the body tips about its
//!   support, a point on the ground (y = 0) under the centre of mass; I is the mean of the two
//!   horizontal moments (the upright motors act about both tilt axes with one gain). The
//!   upright torque acts on the torso, but with the joints held by their drives the body tips
//!   as one; the ankle strategy moves the centre of mass about the feet by construction.

use super::frame::{resolve, rotation_of};
use crate::document::{BoneId, ColliderShape, Document};
use glam::{DMat3, DVec3};

/// One body's mass properties in the world at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyInertia {
    pub mass_kg: f64,
    /// World centre of mass (m).
    pub com: DVec3,
    /// Inertia tensor about the centre of mass, world axes (kg·m²).
    pub tensor: DMat3,
}

/// Principal moments of a solid shape of mass `m` about its centre, in the shape's frame
/// (a capsule's long axis is its local +Y).
pub fn shape_moments(shape: &ColliderShape, m: f64) -> DVec3 {
    match *shape {
        ColliderShape::Sphere { radius } => DVec3::splat(0.4 * m * radius * radius),
        ColliderShape::Box {
            half_extents: [x, y, z],
        } => DVec3::new(y * y + z * z, x * x + z * z, x * x + y * y) * (m / 3.0),
        ColliderShape::Capsule {
            radius: r,
            half_height: h,
        } => {
            // Mass split by volume: a cylinder of length 2h and two hemispheres (one sphere).
            let (vc, vs) = (2.0 * h * r * r, 4.0 / 3.0 * r * r * r);
            let (mc, ms) = if vc + vs > 0.0 {
                (m * vc / (vc + vs), m * vs / (vc + vs))
            } else {
                (0.0, m)
            };
            let axial = mc * r * r / 2.0 + ms * 0.4 * r * r;
            let cyl = mc * (r * r / 4.0 + (2.0 * h) * (2.0 * h) / 12.0);
            // Hemispheres: centroid 3r/8 past the cylinder's end (the standard result).
            let caps = ms * (0.4 * r * r + h * h + 0.75 * h * r);
            DVec3::new(cyl + caps, axial, cyl + caps)
        }
    }
}

/// The radius of a shape's bounding sphere about its centre.
pub fn bounding_radius(shape: &ColliderShape) -> f64 {
    match *shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => radius + half_height,
        ColliderShape::Sphere { radius } => radius,
        ColliderShape::Box { half_extents } => {
            half_extents.iter().map(|e| e * e).sum::<f64>().sqrt()
        }
    }
}

/// A character's size relative to `reference_height_m`: the vertical extent of its bodies'
/// bounding spheres, each given as (centre height, radius) in world units, clamped to
/// 1e-3..1e3; 1 without a finite one. The simulation's `length_unit` and the generator's
/// inertia floor both measure it so.
pub fn length_unit(spheres: impl IntoIterator<Item = (f64, f64)>, reference_height_m: f64) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (y, r) in spheres {
        if y.is_finite() && r.is_finite() {
            lo = lo.min(y - r);
            hi = hi.max(y + r);
        }
    }
    let h = hi - lo;
    if h.is_finite() && h > 0.0 {
        (h / reference_height_m).clamp(1e-3, 1e3)
    } else {
        1.0
    }
}

/// The reference character's height (m): a length unit of 1 stands for it, and the generator
/// reads file units as metres against it.
pub const REFERENCE_HEIGHT_M: f64 = 1.75;
/// The reference character's mass (kg): a mass unit of 1 stands for it.
pub const REFERENCE_MASS_KG: f64 = 70.0;

/// The simulation's inertia floor (kg * world units squared), the smallest principal moment it
/// gives any body: `at_reference` for the 1.75 m, 70 kg reference character, for one
/// `length_unit` times its size and `mass_unit` times its mass. Inertia scales with mass
/// times length squared; a generated character's mass goes with its size cubed, so its floor
/// goes with size^5. A character much lighter than its size implies (a root scaled by 10
/// over unchanged masses: 1/1000 of the mass a generator would give) gets at most twice the
/// floor of its own mass times size^2: size^5 alone gave such a mannequin's 1 kg hands the
/// inertia of 1000 kg ones, and it froze. Within a factor of two of the implied mass, the
/// floor stays size^5, the floor the shipped characters were tuned with. (f32: the
/// simulation's own arithmetic.)
pub fn inertia_floor(at_reference: f32, length_unit: f32, mass_unit: f32) -> f32 {
    let by_size = length_unit.powi(5);
    let by_mass = 2.0 * mass_unit * length_unit.powi(2);
    at_reference * by_size.min(by_mass)
}

/// A bone's body (its collider and mass) in the world at rest; None without a collider.
pub fn body_inertia(doc: &Document, id: BoneId) -> Option<BodyInertia> {
    let bone = doc.bone(id);
    let p = bone.physics.as_ref()?;
    let c = p.collider.as_ref()?;
    let world = doc.skeleton.nodes[bone.node].world_from_node;
    let rot = rotation_of(&world);
    let placed = doc.body_from_collider(id, c);
    let shape_rot = DMat3::from_quat((rot * placed.rotation).normalize());
    let moments = shape_moments(&doc.world_shape(id, &c.shape), p.mass);
    let tensor = shape_rot * DMat3::from_diagonal(moments) * shape_rot.transpose();
    Some(BodyInertia {
        mass_kg: p.mass,
        com: world.w_axis.truncate() + rot * placed.translation,
        tensor,
    })
}

/// The inertia tensor of `bodies` about `point` (world axes, kg·m²).
pub fn about_point(bodies: &[BodyInertia], point: DVec3) -> DMat3 {
    bodies.iter().fold(DMat3::ZERO, |acc, b| {
        let r = b.com - point;
        let shift = DMat3::from_diagonal(DVec3::splat(r.length_squared()))
            - DMat3::from_cols(r * r.x, r * r.y, r * r.z);
        acc + b.tensor + shift * b.mass_kg
    })
}

/// Bone `id` and every bone jointed below it (through resolved constraints).
pub fn subtree(doc: &Document, id: BoneId) -> Vec<BoneId> {
    let parents: Vec<(BoneId, BoneId)> = doc
        .bone_ids()
        .filter_map(|b| resolve(doc, b).map(|d| (b, d.parent)))
        .collect();
    let mut out = vec![id];
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        for &(b, parent) in &parents {
            if parent == p && !out.contains(&b) {
                out.push(b);
            }
        }
        i += 1;
    }
    out
}

/// The inertia (kg·m²) a bone's drive moves: its child subtree about the joint (see the
/// module's notes for hinge and ball socket). None when the solver has no joint there.
pub fn joint_inertia(doc: &Document, id: BoneId) -> Option<f64> {
    let def = resolve(doc, id)?;
    let bodies: Vec<BodyInertia> = subtree(doc, id)
        .into_iter()
        .filter_map(|b| body_inertia(doc, b))
        .collect();
    let world = doc.skeleton.nodes[doc.bone(id).node].world_from_node;
    let t = about_point(&bodies, world.w_axis.truncate());
    let i = match def.limits {
        super::JointLimits::Hinge { .. } => {
            let axis = (rotation_of(&world) * def.bone_from_joint) * DVec3::X;
            axis.dot(t * axis)
        }
        super::JointLimits::Ball { .. } => (t.x_axis.x + t.y_axis.y + t.z_axis.z) / 3.0,
    };
    (i.is_finite() && i > 0.0).then_some(i)
}

/// The whole body's inertia (kg·m²) about the ground under its centre of mass: the mean of
/// its two horizontal moments (Y up, ground at y = 0). None without bodies.
pub fn whole_body_about_ground(doc: &Document) -> Option<f64> {
    let bodies: Vec<BodyInertia> = doc
        .bone_ids()
        .filter_map(|b| body_inertia(doc, b))
        .collect();
    let m: f64 = bodies.iter().map(|b| b.mass_kg).sum();
    if m.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let com = bodies.iter().map(|b| b.com * b.mass_kg).sum::<DVec3>() / m;
    let t = about_point(&bodies, DVec3::new(com.x, doc.ground_y(), com.z));
    let i = (t.x_axis.x + t.z_axis.z) / 2.0;
    (i.is_finite() && i > 0.0).then_some(i)
}

/// A PD's gains in the file's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gains {
    /// N·m/rad.
    pub stiffness: f64,
    /// N·m·s/rad.
    pub damping: f64,
}

/// The same PD as a natural frequency and a damping ratio, for an inertia I.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Natural {
    pub freq_hz: f64,
    /// ζ: 1 is critical damping. Not a number when the frequency is 0.
    pub damping_ratio: f64,
}

impl Gains {
    /// f = √(k/I) / 2π, ζ = c / (2·I·2πf).
    pub fn natural(self, inertia: f64) -> Natural {
        let w = (self.stiffness.max(0.0) / inertia).sqrt();
        Natural {
            freq_hz: w / std::f64::consts::TAU,
            damping_ratio: self.damping / (2.0 * inertia * w),
        }
    }
}

impl Natural {
    /// k = I·(2πf)², c = 2·I·ζ·(2πf).
    pub fn gains(self, inertia: f64) -> Gains {
        let w = std::f64::consts::TAU * self.freq_hz;
        Gains {
            stiffness: inertia * w * w,
            damping: 2.0 * inertia * self.damping_ratio * w,
        }
    }
}
