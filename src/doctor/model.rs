//! What the doctor looks at: every body at its rest pose as the simulation builds it (shape,
//! world placement, mass, inertia with the simulation's floor) and every joint the solver
//! builds. Pure: no world is stepped.

use crate::document::fields::Key;
use crate::document::{BoneId, ColliderShape, ConstraintKind, Document, Drive};
use crate::joint;
use crate::sim::world::{check_mass, inertia_floor_of, pose_of, shape_of};
use crate::sim::{length_unit_for, SimSettings};
use glam::DVec3;
use rapier3d::prelude::{Pose, SharedShape};

/// One body at rest.
pub(crate) struct BodyModel {
    pub id: BoneId,
    pub name: String,
    /// The collider in the world at rest.
    pub world_from_collider: Pose,
    /// The bone's origin in the world at rest: where its joint to its parent is.
    pub joint_at: DVec3,
    pub shape: SharedShape,
    pub mass_kg: f64,
    /// The shape's volume (world units cubed).
    pub volume: f64,
    /// Principal inertia per kilogram (world units squared), before the floor.
    pub unit_inertia: DVec3,
    /// The body's `min_inertia_kg_m2` (0 when the file does not set it).
    pub min_inertia_kg_m2: f64,
}

impl BodyModel {
    /// Principal moments at `mass_kg` with the simulation's floor and the body's own, as the
    /// simulation builds them (smallest, largest).
    pub fn inertia(&self, mass_kg: f64, floor: f64) -> (f64, f64) {
        let i = self.moments(mass_kg, floor.max(self.min_inertia_kg_m2));
        (i.min_element(), i.max_element())
    }

    /// The principal moments at `mass_kg`, raised to `floor`.
    pub fn moments(&self, mass_kg: f64, floor: f64) -> DVec3 {
        (self.unit_inertia * mass_kg).max(DVec3::splat(floor))
    }
}

/// One joint the solver builds.
pub(crate) struct JointModel {
    pub child: usize,
    pub parent: usize,
    pub kind: ConstraintKind,
    pub drive: Drive,
}

/// The ragdoll at rest.
pub(crate) struct Model {
    pub bodies: Vec<BodyModel>,
    pub joints: Vec<JointModel>,
    /// The simulation's settings at this character's size.
    pub settings: SimSettings,
    /// Vertical extent of the colliders (world units).
    pub height: f64,
    /// Bones with a collider whose shape or mass the simulation refuses (a shape past
    /// [`crate::document::fields::MAX_EXTENT`], a mass past [`SimSettings::max_mass_kg`]): they have
    /// no body here, and the doctor names them.
    pub refused: Vec<Refused>,
}

/// A collider the simulation refuses.
pub(crate) struct Refused {
    pub id: BoneId,
    pub name: String,
    /// The key to fix: the mass, or the shape's size.
    pub key: Key,
    /// What the simulation says, and the mass (kg) when it is the mass.
    pub what: String,
    pub mass_kg: Option<f64>,
}

impl Model {
    pub fn new(doc: &Document, settings: &SimSettings) -> Self {
        let mut settings = settings.clone();
        if settings.auto_length_unit {
            // As the simulation does: the inertia floor reads both (a 100x character's floor
            // with a 70 kg mass unit was 1/10^6 of the simulated one).
            settings.length_unit = length_unit_for(doc);
            settings.mass_unit = crate::sim::mass_unit_for(doc);
        }
        let (mut bodies, mut refused) = (Vec::new(), Vec::new());
        for id in doc.bone_ids() {
            match body(doc, id, &settings) {
                Some(Ok(b)) => bodies.push(b),
                Some(Err(r)) => refused.push(r),
                None => {}
            }
        }
        let joints = doc
            .bone_ids()
            .filter_map(|id| joint_of(doc, id, &bodies))
            .collect();
        let height = settings.unit() as f64 * crate::sim::REFERENCE_HEIGHT_M as f64;
        Self {
            bodies,
            joints,
            settings,
            height,
            refused,
        }
    }

    /// The median body's mass (kg); None without bodies: what a mass the simulation refuses
    /// is fixed to.
    pub fn median_mass_kg(&self) -> Option<f64> {
        let mut m: Vec<f64> = self.bodies.iter().map(|b| b.mass_kg).collect();
        m.sort_by(f64::total_cmp);
        m.get(m.len() / 2).copied()
    }

    /// Each body's jointed parent (indices into `bodies`).
    pub fn parents(&self) -> Vec<Option<usize>> {
        let mut parent = vec![None; self.bodies.len()];
        for j in &self.joints {
            parent[j.child] = Some(j.parent);
        }
        parent
    }

    /// The bodies at or below body `k` (jointed descendants), by index.
    pub fn subtree(&self, k: usize) -> Vec<usize> {
        let parents = self.parents();
        let n = self.bodies.len();
        (0..n)
            .filter(|&i| {
                // A body has at most as many ancestors as there are bodies.
                std::iter::successors(Some(i), |&a| parents[a])
                    .take(n)
                    .any(|a| a == k)
            })
            .collect()
    }

    /// The simulation's inertia floor (kg * world units squared).
    pub fn floor(&self) -> f64 {
        self.settings.inertia_floor() as f64
    }

    /// The solver's step: Rapier solves motors and limits per substep (small characters get
    /// more substeps, a giant fewer unless it follows a clip, see
    /// [`SimSettings::substeps_at_size`]; the longer, own-motion substep is checked).
    pub fn substep_s(&self) -> f64 {
        let p = self.settings.integration_parameters(false);
        p.dt as f64 / p.num_solver_iterations.max(1) as f64
    }

    /// A joint's effective inertia for its drive (kg * units^2), with the bodies' masses
    /// `masses` (indexed like `bodies`): the two bodies' smallest moments, the child's about
    /// their centres, in series (the drive turns one against the other). The smallest moment
    /// is the axis the drive swings fastest about.
    pub fn drive_inertia(&self, j: &JointModel, masses: &[f64]) -> f64 {
        let (c, p) = (&self.bodies[j.child], &self.bodies[j.parent]);
        let ic = c.inertia(masses[j.child], self.floor()).0;
        let ip = p.inertia(masses[j.parent], self.floor()).0;
        1.0 / (1.0 / ic + 1.0 / ip)
    }
}

/// Bone `id`'s body: None without a collider, an error where the simulation refuses its
/// shape or its mass (it gets no body there either).
fn body(doc: &Document, id: BoneId, s: &SimSettings) -> Option<Result<BodyModel, Refused>> {
    let bone = doc.bone(id);
    let p = bone.physics.as_ref()?;
    let c = p.collider.as_ref()?;
    let refused = |key: Key, e: crate::sim::SimError, mass_kg: Option<f64>| Refused {
        id,
        name: bone.name.clone(),
        key,
        what: match e {
            crate::sim::SimError::BadValue { what, .. } => what,
            other => other.to_string(),
        },
        mass_kg,
    };
    let size_key = match c.shape {
        ColliderShape::Box { .. } => Key::HalfExtents,
        _ => Key::Radius,
    };
    let shape = match shape_of(&bone.name, &doc.world_shape(id, &c.shape)) {
        Ok(s) => s,
        Err(e) => return Some(Err(refused(size_key, e, None))),
    };
    // Not a number, or not above 0: the field table names the mass already.
    if let Err(e) = check_mass(&bone.name, p.mass, s) {
        let past = p.mass.is_finite() && p.mass > 0.0;
        return past.then(|| Err(refused(Key::Mass, e, Some(p.mass))));
    }
    if let Err(e) = inertia_floor_of(&bone.name, &p.material, s) {
        return Some(Err(refused(Key::MinInertia, e, None)));
    }
    let unit = shape.mass_properties(1.0);
    let volume = 1.0 / unit.inv_mass.max(f32::MIN_POSITIVE) as f64;
    let rest = pose_of(&doc.skeleton.nodes[bone.node].world_from_node);
    let place = doc.body_from_collider(id, c);
    let local = Pose::from_parts(
        place.translation.as_vec3(),
        place.rotation.normalize().as_quat(),
    );
    let world_from_collider = rest * local;
    Some(Ok(BodyModel {
        id,
        name: bone.name.clone(),
        world_from_collider,
        joint_at: rest.translation.as_dvec3(),
        shape,
        mass_kg: p.mass,
        volume,
        unit_inertia: (unit.principal_inertia() / unit.mass().max(f32::MIN_POSITIVE)).as_dvec3(),
        min_inertia_kg_m2: p.material.min_inertia_kg_m2.unwrap_or(0.0),
    }))
}

fn joint_of(doc: &Document, id: BoneId, bodies: &[BodyModel]) -> Option<JointModel> {
    let def = joint::resolve(doc, id)?;
    let find = |b: BoneId| bodies.iter().position(|r| r.id == b);
    let (child, parent) = (find(id)?, find(def.parent)?);
    let p = doc.bone(id).physics.as_ref()?;
    let kind = p.constraint.as_ref()?.kind.clone();
    Some(JointModel {
        child,
        parent,
        kind,
        drive: p.drive.unwrap_or_default(),
    })
}
