//! Fall detection relative to the character's own rest pose and body plan, never a human's
//! proportions:
//! - height: the pelvis body's centre of mass above the ground, as a share of its rest height
//!   (not the bone's origin: many rigs put the root bone at the floor). It has fallen when it
//!   is below [`FELL_PELVIS_RATIO`] of the way from the height it has lying on the ground
//!   (its collider's smallest half-extent) to its rest height: a horse whose splayed legs
//!   prop its hips at 45% of their height has fallen; a human's pelvis, whose lying height is
//!   small, falls at about half its rest height as before. A body that lies on the ground at
//!   rest (a snake's, a crawler's) cannot fall by height: not measured;
//! - the whole body: its centre of mass below [`FELL_COM_SHARE`] of the way from its lying
//!   height (every body's collider on the ground, mass-weighted) to its rest height. A body
//!   propped on its limbs at their limits, a spider's sunk body or a chibi crouched on its
//!   heels, has fallen even when its pelvis collider's centre says nothing (a big pelvis
//!   sphere's lying height is most of its rest height); one standing with balance keeps its
//!   centre of mass near its rest height (the lowest in the corpus, the spider standing,
//!   0.67 of the way up; measured ones collapse to 0.5 or less). Judged only where a pelvis
//!   or torso is resolved;
//! - tilt: the torso body's rest "up" (world +Y at rest, in the body's own frame) against
//!   world +Y now, so a quadruped's horizontal spine or a chibi's leaning root read 0 at rest;
//! - on the ground: a biped's trunk or head touches the ground (a body of the pelvis, spine,
//!   chest, neck or head that is off the ground at rest), or no support foot does while another body
//!   off the ground at rest does (its back, its seat, its hands). A chunky Saxon pushed
//!   backward at 1.5 m/s came to rest on the shield on its back, both feet in the air, tilted
//!   29° with its centre of mass at 75% of its rest height; the bundled mannequin with a pack
//!   0.7 m across on its back lay on it at 40-46° with its heels down: no other criterion
//!   called either a fall.

use super::balance::{BalanceRig, FELL_COM_SHARE, FELL_PELVIS_RATIO, FELL_TILT_DEG};
use super::world::BodyRec;
use glam::Vec3;
use rapier3d::prelude::*;

/// What a fall is measured from, resolved once per build or sync.
#[derive(Debug, Clone)]
pub(crate) struct FallGauge {
    /// Pelvis body slot, its collider's centre in the body frame, its rest height above
    /// the ground (world units). None when the height is not measured.
    pelvis: Option<(usize, Vec3, f32)>,
    /// The pelvis height ratio below which it has fallen.
    fell_ratio: f32,
    /// Torso body slot and its rest "up" direction in its own frame.
    torso: Option<(usize, Vec3)>,
    /// The whole body's centre of mass height: at rest and lying. None when it cannot fall
    /// by height (it lies at rest).
    com: Option<ComHeight>,
    /// The ground's height (world y) the heights are measured from.
    ground_y: f32,
    /// Per body slot: whether touching the ground with no foot on it is a fall (false for the
    /// support feet and for bodies that rest on the ground at rest: a tail, a snake's body).
    /// Empty without support feet (nothing stands, so nothing falls off its feet).
    off_feet: Vec<bool>,
    /// Per body slot: whether touching the ground at all is a fall (the trunk and head, off
    /// the ground at rest). Empty without support feet.
    trunk: Vec<bool>,
}

/// The whole body's centre of mass height above the ground (world units): in the rest pose,
/// and lying (every body on the ground at its own lying height, mass-weighted).
#[derive(Debug, Clone, Copy)]
struct ComHeight {
    rest: f32,
    lying: f32,
}

impl ComHeight {
    /// Heights at rest from `stand_y`, where the rest pose stands ([`stand_y`]).
    fn new(world: &PhysicsWorld, bodies: &[BodyRec], stand_y: f32) -> Option<Self> {
        let (mut m, mut rest, mut lying) = (0.0f32, 0.0f32, 0.0f32);
        for b in bodies {
            let Some(col) = world.colliders.get(b.collider) else {
                continue;
            };
            let local = col
                .position_wrt_parent()
                .map_or(Vec3::ZERO, |q| q.translation);
            let pose = b.world_from_body_rest;
            m += b.mass_kg;
            rest += b.mass_kg * ((pose.translation + pose.rotation * local).y - stand_y);
            lying += b.mass_kg * lying_height(col.shared_shape());
        }
        let (rest, lying) = (rest / m, lying / m);
        (m > 0.0 && rest.is_finite() && rest > COM_STANDS_ABOVE_LYING * lying)
            .then_some(Self { rest, lying })
    }

    /// How far up from lying to rest the centre of mass at `height` above the ground is (0
    /// lying, 1 rest).
    fn share(&self, height: f32) -> f32 {
        (height - self.lying) / (self.rest - self.lying)
    }
}

/// A centre of mass at rest less than this many times its lying height lies at rest (a
/// snake, a crawler): it cannot fall by height.
const COM_STANDS_ABOVE_LYING: f32 = 1.25;

/// The smallest height above the ground a collider's centre can have when it lies on it.
fn lying_height(shape: &SharedShape) -> f32 {
    if let Some(c) = shape.as_capsule() {
        c.radius
    } else if let Some(b) = shape.as_ball() {
        b.radius
    } else if let Some(c) = shape.as_cuboid() {
        c.half_extents.min_element()
    } else {
        0.0
    }
}

impl FallGauge {
    pub fn new(world: &PhysicsWorld, bodies: &[BodyRec], rig: &BalanceRig, ground_y: f32) -> Self {
        let spans = rest_spans(world, bodies);
        let stand_y = stand_y(&spans, ground_y);
        let pelvis = rig.pelvis.and_then(|p| {
            let col = world.colliders.get(bodies[p].collider)?;
            let local = col
                .position_wrt_parent()
                .map_or(Vec3::ZERO, |q| q.translation);
            let rest = bodies[p].world_from_body_rest;
            let h = (rest.translation + rest.rotation * local).y - stand_y;
            let lying = lying_height(col.shared_shape());
            (h.is_finite() && h * FELL_PELVIS_RATIO > lying).then_some((p, local, h, lying))
        });
        let fell_ratio = pelvis.map_or(FELL_PELVIS_RATIO, |(_, _, rest, lying)| {
            (lying + FELL_PELVIS_RATIO * (rest - lying)) / rest
        });
        let pelvis = pelvis.map(|(p, local, rest, _)| (p, local, rest));
        let torso = rig.torso.map(|t| {
            let rest = bodies[t].world_from_body_rest;
            (t, rest.rotation.inverse() * Vec3::Y)
        });
        let off_feet = off_feet_bodies(&spans, rig, stand_y);
        Self {
            pelvis,
            fell_ratio,
            torso,
            com: ComHeight::new(world, bodies, stand_y),
            ground_y,
            trunk: (off_feet.iter().enumerate())
                .map(|(k, &off)| off && rig.trunk.contains(&k))
                .collect(),
            off_feet,
        }
    }

    /// Whether the character lies on the ground: its trunk or head touches it, or no support
    /// foot does (`grounded`, bit i = foot i) while another body that is off the ground at
    /// rest does.
    pub fn on_the_ground(
        &self,
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        (ground, grounded): (ColliderHandle, u32),
    ) -> bool {
        let touches = |which: &[bool]| {
            (bodies.iter().zip(which)).any(|(b, &counts)| counts && b.touches(world, ground))
        };
        touches(&self.trunk) || (grounded == 0 && touches(&self.off_feet))
    }

    /// The ground's height (world y) this gauge measures from.
    pub fn ground_y(&self) -> f32 {
        self.ground_y
    }

    /// True when a torso tilt is measured.
    pub fn tilt_measured(&self) -> bool {
        self.torso.is_some()
    }

    /// True when some fall criterion is measured.
    pub fn measured(&self) -> bool {
        self.torso.is_some() || self.pelvis.is_some()
    }

    /// Torso tilt from its rest orientation (degrees); NaN when not measured.
    pub fn tilt_deg(&self, world: &PhysicsWorld, bodies: &[BodyRec]) -> f32 {
        self.torso.map_or(f32::NAN, |(_, up_at_rest)| {
            self.tilt_from_deg(world, bodies, up_at_rest)
        })
    }

    /// Torso tilt (degrees) from the orientation in which `up_in_torso` (a direction in the
    /// torso body's frame) was vertical; NaN when not measured.
    pub fn tilt_from_deg(
        &self,
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        up_in_torso: Vec3,
    ) -> f32 {
        self.torso.map_or(f32::NAN, |(t, _)| {
            let up = *world.bodies[bodies[t].body].rotation() * up_in_torso;
            up.y.clamp(-1.0, 1.0).acos().to_degrees()
        })
    }

    /// The direction in the torso body's frame that is vertical now (None: no torso).
    pub fn up_in_torso_now(&self, world: &PhysicsWorld, bodies: &[BodyRec]) -> Option<Vec3> {
        self.torso
            .map(|(t, _)| world.bodies[bodies[t].body].rotation().inverse() * Vec3::Y)
    }

    /// True when the pelvis height ratio `r`, the whole body's centre of mass height `com_y`
    /// (world) or the torso tilt (degrees) says it has fallen. The centre of mass is judged
    /// only where a pelvis or torso is (a character whose balance bones are unresolved has
    /// no fall measured at all).
    pub fn fallen(&self, r: f32, com_y: f32, tilt_deg: f32) -> bool {
        let low = self.measured()
            && self
                .com
                .is_some_and(|c| c.share(com_y - self.ground_y) < FELL_COM_SHARE);
        r < self.fell_ratio || tilt_deg > FELL_TILT_DEG || low
    }

    /// The pelvis centre's height as a share of its rest height; NaN when not measured.
    pub fn pelvis_ratio(&self, world: &PhysicsWorld, bodies: &[BodyRec]) -> f32 {
        self.pelvis.map_or(f32::NAN, |(p, local, rest)| {
            let pose = world.bodies[bodies[p].body].position();
            ((pose.translation + pose.rotation * local).y - self.ground_y) / rest
        })
    }
}

/// A body off the ground at rest lies at least this share of the character's height above it.
const OFF_GROUND_SHARE: f32 = 0.02;

/// Where the rest pose stands, which its heights at rest are measured from: the ground, or,
/// for a character whose colliders all start above it by more than [`OFF_GROUND_SHARE`] of
/// their height, their lowest point. Such a character drops onto the ground and stands
/// there lower than its rest pose by the gap: a mouse placed 18% of its height above it
/// stood on its four feet with its pelvis at 0.76 of its rest height over the ground, and was
/// called fallen at 0.22 s.
fn stand_y(spans: &[Option<(f32, f32)>], ground_y: f32) -> f32 {
    let (lo, hi) = (spans.iter().flatten())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| {
            (lo.min(s.0), hi.max(s.1))
        });
    let gap = lo - ground_y;
    let above = gap.is_finite() && hi.is_finite() && gap > OFF_GROUND_SHARE * (hi - lo);
    if above {
        lo
    } else {
        ground_y
    }
}

/// Per body slot: the lowest and highest world heights its collider reaches at rest; None
/// without a collider.
fn rest_spans(world: &PhysicsWorld, bodies: &[BodyRec]) -> Vec<Option<(f32, f32)>> {
    (bodies.iter())
        .map(|b| {
            let (c, at) = b.rest_collider(world)?;
            let aabb = c.shape().compute_aabb(&at);
            Some((aabb.mins.y, aabb.maxs.y))
        })
        .collect()
}

/// Per body slot: true for a body that lies off the ground at rest by [`OFF_GROUND_SHARE`] of
/// the height and is not a support foot; empty when the rig has no feet or no pelvis or torso
/// (falls are then not measured). Heights from `stand_y`, where the rest pose stands, of each
/// body's [`rest_spans`].
fn off_feet_bodies(spans: &[Option<(f32, f32)>], rig: &BalanceRig, stand_y: f32) -> Vec<bool> {
    if rig.feet.is_empty() || (rig.pelvis.is_none() && rig.torso.is_none()) {
        return Vec::new();
    }
    let lowest: Vec<Option<(f32, f32)>> = (spans.iter())
        .map(|s| s.map(|(lo, hi)| (lo - stand_y, hi - stand_y)))
        .collect();
    let height = lowest.iter().flatten().map(|l| l.1).fold(0.0f32, f32::max);
    (lowest.iter().enumerate())
        .map(|(k, l)| {
            !rig.feet.contains(&k) && l.is_some_and(|(lo, _)| lo > OFF_GROUND_SHARE * height)
        })
        .collect()
}
