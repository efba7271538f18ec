//! Building the Rapier world from a document: one dynamic body per bone with a collider,
//! placed at its rest pose, a ground plane, and collision groups from the document's names.
//!
//! Collision groups (stable, documented mapping): `world` (the ground) is bit 0; every other
//! group name used in any `collision_group` or `collision_mask` is sorted alphabetically and
//! gets bits 1, 2, ... 31 in that order; the mask `all` is every bit. A collider's membership
//! is its group's bit, its filter the OR of its mask's bits; a pair collides when each one's
//! membership is in the other's filter (Rapier `InteractionTestMode::And`).

use super::error::SimError;
use super::settings::SimSettings;
use crate::document::{BodyMaterial, BoneId, Collider, ColliderShape, Document};
use glam::{DMat4, Quat, Vec3};
use rapier3d::geometry::Group;
use rapier3d::prelude::*;
use std::collections::BTreeMap;

/// The name of the ground's collision group.
pub const WORLD_GROUP: &str = "world";
/// The mask that collides with everything.
pub const ALL_MASK: &str = "all";

/// Group name -> bit, built from every name in the document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupMap {
    bits: BTreeMap<String, u32>,
}

impl GroupMap {
    /// The mapping for a document: `world` = bit 0, other names sorted get bits 1..=31.
    pub fn from_document(doc: &Document) -> Result<Self, SimError> {
        let mut names: Vec<String> = Vec::new();
        for b in &doc.bones {
            if let Some(p) = &b.physics {
                names.push(p.collision_group.trim().to_string());
                names.extend(crate::document::split_names(&p.collision_mask));
            }
        }
        names.retain(|n| n != WORLD_GROUP && n != ALL_MASK && !n.is_empty());
        names.sort();
        names.dedup();
        if names.len() > 31 {
            return Err(SimError::TooManyGroups {
                count: names.len() + 1,
            });
        }
        let mut bits: BTreeMap<String, u32> = names
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n, 1u32 << (i + 1)))
            .collect();
        bits.insert(WORLD_GROUP.into(), 1);
        Ok(Self { bits })
    }

    /// The bit of one group name (0 for an unknown name).
    pub fn bit(&self, name: &str) -> u32 {
        self.bits.get(name.trim()).copied().unwrap_or(0)
    }

    /// The bits of a comma-separated mask; `all` is every bit.
    pub fn mask(&self, mask: &str) -> u32 {
        crate::document::split_names(mask)
            .iter()
            .map(|n| if n == ALL_MASK { u32::MAX } else { self.bit(n) })
            .fold(0, |a, b| a | b)
    }

    /// The Rapier groups of a collider in `group` colliding with `mask`.
    pub fn interaction(&self, group: &str, mask: &str) -> InteractionGroups {
        InteractionGroups::new(
            Group::from_bits_retain(self.bit(group)),
            Group::from_bits_retain(self.mask(mask)),
            InteractionTestMode::And,
        )
    }

    /// (name, bit index) pairs, sorted by bit.
    pub fn entries(&self) -> Vec<(String, u32)> {
        let mut v: Vec<(String, u32)> = self
            .bits
            .iter()
            .map(|(n, b)| (n.clone(), b.trailing_zeros()))
            .collect();
        v.sort_by_key(|e| e.1);
        v
    }
}

/// What a body was built from, to diff against on [`super::Simulation::sync`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BuiltBody {
    pub collider: Collider,
    pub mass_kg: f64,
    pub group: String,
    pub mask: String,
    pub material: BodyMaterial,
    /// In an explicit collision pair: the pair hook decides its contacts (see [`super::pairs`]).
    pub in_pair: bool,
}

/// One simulated bone.
#[derive(Debug, Clone)]
pub(crate) struct BodyRec {
    pub bone: BoneId,
    pub name: String,
    pub body: RigidBodyHandle,
    pub collider: ColliderHandle,
    pub built: BuiltBody,
    /// Mass as simulated (kg), for the centre of mass.
    pub mass_kg: f32,
    /// Rest pose of the bone (and body) in the world, instance offset included.
    pub world_from_body_rest: Pose,
}

impl BodyRec {
    /// Whether the body's collider touches `ground` (an active contact after the last step).
    pub fn touches(&self, world: &PhysicsWorld, ground: ColliderHandle) -> bool {
        world
            .narrow_phase
            .contact_pair(self.collider, ground)
            .is_some_and(|cp| cp.has_any_active_contact())
    }

    /// The body's collider and where it lies in the world with the body in its rest pose.
    pub fn rest_collider<'a>(
        &self,
        world: &'a PhysicsWorld,
    ) -> Option<(&'a rapier3d::prelude::Collider, Pose)> {
        let c = world.colliders.get(self.collider)?;
        let local = c.position_wrt_parent().copied().unwrap_or(Pose::IDENTITY);
        Some((c, self.world_from_body_rest * local))
    }
}

/// A rigid transform of a node's rest pose (scale dropped).
pub(crate) fn pose_of(m: &DMat4) -> Pose {
    let (_, r, t) = m.to_scale_rotation_translation();
    let r = if r.is_finite() && r.length_squared() > 0.0 {
        r.normalize()
    } else {
        glam::DQuat::IDENTITY
    };
    Pose::from_parts(t.as_vec3(), r.as_quat())
}

/// The Rapier shape of a document collider.
/// The largest collider dimension the solver takes (the schema's fact, one place).
pub use crate::document::fields::MAX_EXTENT;

pub(crate) fn shape_of(bone: &str, shape: &ColliderShape) -> Result<SharedShape, SimError> {
    let bad = |what: String| SimError::BadValue {
        bone: bone.into(),
        what,
    };
    let within = |x: f64| x.is_finite() && x <= MAX_EXTENT;
    let pos = |x: f64| within(x) && x > 0.0;
    let range = format!("above 0 and at most {MAX_EXTENT:e} world units");
    Ok(match shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => {
            if !(pos(*radius) && within(*half_height) && *half_height >= 0.0) {
                return Err(bad(format!(
                    "capsule radius {} / half_height {} (each {range}; half_height 0 allowed)",
                    crate::document::fields::readable(*radius),
                    crate::document::fields::readable(*half_height)
                )));
            }
            SharedShape::capsule_y(*half_height as f32, *radius as f32)
        }
        ColliderShape::Sphere { radius } => {
            if !pos(*radius) {
                return Err(bad(format!(
                    "sphere radius {} ({range})",
                    crate::document::fields::readable(*radius)
                )));
            }
            SharedShape::ball(*radius as f32)
        }
        ColliderShape::Box { half_extents } => {
            if !half_extents.iter().all(|x| pos(*x)) {
                return Err(bad(format!(
                    "box half_extents {half_extents:?} (each {range})"
                )));
            }
            let [x, y, z] = half_extents.map(|v| v as f32);
            SharedShape::cuboid(x, y, z)
        }
    })
}

/// Collider-local mass properties: the shape's, scaled to `mass_kg`, each principal
/// inertia raised to the settings' floor and to the body's own `min_inertia_kg_m2`
/// (kg*m^2). A mass at or past the settings' limit for this size is refused.
pub(crate) fn mass_properties(
    bone: &str,
    shape: &SharedShape,
    mass_kg: f64,
    m: &BodyMaterial,
    s: &SimSettings,
) -> Result<MassProperties, SimError> {
    check_mass(bone, mass_kg, s)?;
    let floor = inertia_floor_of(bone, m, s)?;
    let mut mp = shape.mass_properties(1.0);
    mp.set_mass(mass_kg as f32, true);
    let pi = mp.principal_inertia().max(Vec3::splat(floor));
    let mut out = MassProperties::new(mp.local_com, mp.mass(), pi);
    out.principal_inertia_local_frame = mp.principal_inertia_local_frame;
    Ok(out)
}

/// A body's mass the simulation takes: above 0 and under the settings' limit at this size.
pub(crate) fn check_mass(bone: &str, mass_kg: f64, s: &SimSettings) -> Result<(), SimError> {
    if mass_kg.is_finite() && mass_kg > 0.0 && mass_kg < s.max_mass_kg() {
        return Ok(());
    }
    Err(SimError::BadValue {
        bone: bone.into(),
        what: format!(
            "mass {} kg (above 0 and under {} kg at this size)",
            crate::document::fields::readable(mass_kg),
            crate::document::fields::readable(s.max_mass_kg())
        ),
    })
}

/// The floor on a body's principal moments (kg*m^2): the settings' and the body's own
/// `min_inertia_kg_m2`. One the simulation cannot take (not finite, or past
/// [`SimSettings::max_inertia_kg_m2`]: cast to f32, 1e30 was an infinite moment) is refused.
pub(crate) fn inertia_floor_of(
    bone: &str,
    m: &BodyMaterial,
    s: &SimSettings,
) -> Result<f32, SimError> {
    let own = m.min_inertia_kg_m2.unwrap_or(0.0);
    if !(own.is_finite() && own <= s.max_inertia_kg_m2()) {
        return Err(SimError::BadValue {
            bone: bone.into(),
            what: format!(
                "min_inertia_kg_m2 {} (at most {} kg*m^2 at this size)",
                crate::document::fields::readable(own),
                crate::document::fields::readable(s.max_inertia_kg_m2())
            ),
        });
    }
    Ok(s.inertia_floor().max(own as f32))
}

/// The collider of a bone, in its body's frame.
pub(crate) fn build_collider(
    doc: &Document,
    id: BoneId,
    built: &BuiltBody,
    groups: &GroupMap,
    settings: &SimSettings,
) -> Result<rapier3d::geometry::Collider, SimError> {
    let name = &doc.bone(id).name;
    let shape = shape_of(name, &doc.world_shape(id, &built.collider.shape))?;
    let mp = mass_properties(name, &shape, built.mass_kg, &built.material, settings)?;
    let place = doc.body_from_collider(id, &built.collider);
    let m = &built.material;
    let mut b = ColliderBuilder::new(shape)
        .position(Pose::from_parts(
            place.translation.as_vec3(),
            place.rotation.normalize().as_quat(),
        ))
        .mass_properties(mp)
        .friction(friction(m, settings))
        .restitution(m.restitution_or_default() as f32)
        .collision_groups(groups.interaction(&built.group, &built.mask));
    if built.in_pair {
        b = b
            .collision_groups(super::pairs::WIDE_GROUPS)
            .active_hooks(super::pairs::PAIR_HOOKS);
    }
    Ok(b.build())
}

/// A body's friction: its own, else the settings' global friction.
pub(crate) fn friction(m: &BodyMaterial, settings: &SimSettings) -> f32 {
    m.friction.map_or(settings.friction, |f| f as f32)
}

/// Applies a body's damping and CCD to its Rapier body.
pub(crate) fn apply_body_material(rb: &mut RigidBody, m: &BodyMaterial) {
    rb.set_linear_damping(m.linear_damping_or_default() as f32);
    rb.set_angular_damping(m.angular_damping_or_default() as f32);
    rb.enable_ccd(m.ccd.unwrap_or(false));
}

/// What the document says about a bone's body, if it has one.
pub(crate) fn built_body(doc: &Document, id: BoneId) -> Option<BuiltBody> {
    let p = doc.bone(id).physics.as_ref()?;
    Some(BuiltBody {
        collider: p.collider.clone()?,
        mass_kg: p.mass,
        group: p.collision_group.clone(),
        mask: p.collision_mask.clone(),
        material: p.material,
        in_pair: false,
    })
}

/// Inserts one body per bone with a collider, at its rest pose shifted by `offset`.
pub(crate) fn insert_bodies(
    world: &mut PhysicsWorld,
    doc: &Document,
    groups: &GroupMap,
    settings: &SimSettings,
    offset: Vec3,
    pairs: &crate::document::pairs::ExplicitPairs,
) -> Result<Vec<BodyRec>, SimError> {
    let mut out = Vec::new();
    for id in doc.bone_ids() {
        let Some(mut built) = built_body(doc, id) else {
            continue;
        };
        built.in_pair = pairs.involves(id);
        let bone = doc.bone(id);
        let mut rest = pose_of(&doc.skeleton.nodes[bone.node].world_from_node);
        rest.translation += offset;
        let collider = build_collider(doc, id, &built, groups, settings)?;
        let mut rb = RigidBodyBuilder::dynamic()
            .pose(rest)
            .can_sleep(false)
            .build();
        apply_body_material(&mut rb, &built.material);
        let body = world.insert_body(rb);
        let collider = world.insert_collider(collider, Some(body));
        out.push(BodyRec {
            bone: id,
            name: bone.name.clone(),
            body,
            collider,
            mass_kg: built.mass_kg as f32,
            built,
            world_from_body_rest: rest,
        });
    }
    Ok(out)
}

/// A fixed ground: the half-space below the plane y = `ground_y` (the document's
/// [`crate::document::Document::ground_y`]). It has no edge for a character of any size, or one
/// that walks a clip's root motion loop after loop (it was a box 1000 units wide, whose far
/// corners also cost f32 precision in contact clipping).
pub(crate) fn insert_ground(
    world: &mut PhysicsWorld,
    settings: &SimSettings,
    ground_y: f32,
) -> ColliderHandle {
    let ground =
        world.insert_body(RigidBodyBuilder::fixed().translation(Vec3::new(0.0, ground_y, 0.0)));
    world.insert_collider(
        ColliderBuilder::new(SharedShape::halfspace(Vec3::Y))
            .active_hooks(super::contact_order::GROUND_HOOKS)
            .friction(settings.friction)
            .collision_groups(InteractionGroups::new(
                Group::from_bits_retain(1),
                Group::ALL,
                InteractionTestMode::And,
            )),
        Some(ground),
    )
}

/// Rotation taking +X to `axis` (the joint frame: X is the twist or hinge axis).
pub(crate) fn frame_from_axis(axis: Vec3) -> Quat {
    Quat::from_rotation_arc(Vec3::X, axis.normalize())
}
