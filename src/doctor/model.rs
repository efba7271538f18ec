//! What the doctor looks at: every body at its rest pose as the simulation builds it (shape,
//! world placement, mass, inertia with the simulation's floor) and every joint the solver
//! builds. Pure: no world is stepped.

use crate::document::{BoneId, ConstraintKind, Document, Drive};
use crate::joint;
use crate::sim::world::{mass_properties, pose_of, shape_of};
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
}

impl BodyModel {
    /// Principal moments at `mass_kg` with the simulation's floor (smallest, largest).
    pub fn inertia(&self, mass_kg: f64, floor: f64) -> (f64, f64) {
        let i = (self.unit_inertia * mass_kg).max(DVec3::splat(floor));
        (i.min_element(), i.max_element())
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
    /// Bones whose mass the simulation refuses at this size ([`SimSettings::max_mass_kg`]):
    /// they have no body here, and the doctor names them.
    pub refused_mass: Vec<(BoneId, String, f64)>,
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
        let bodies: Vec<BodyModel> = doc
            .bone_ids()
            .filter_map(|id| body(doc, id, &settings))
            .collect();
        let joints = doc
            .bone_ids()
            .filter_map(|id| joint_of(doc, id, &bodies))
            .collect();
        let height = settings.unit() as f64 * crate::sim::REFERENCE_HEIGHT_M as f64;
        let refused_mass = doc
            .bone_ids()
            .filter(|id| !bodies.iter().any(|b| b.id == *id))
            .filter_map(|id| {
                let bone = doc.bone(id);
                let p = bone.physics.as_ref().filter(|p| p.collider.is_some())?;
                // Not a number, or not above 0: the field table names it already.
                (p.mass.is_finite() && p.mass >= settings.max_mass_kg())
                    .then(|| (id, bone.name.clone(), p.mass))
            })
            .collect();
        Self {
            bodies,
            joints,
            settings,
            height,
            refused_mass,
        }
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
    /// more substeps, see [`SimSettings::substeps_at_size`]).
    pub fn substep_s(&self) -> f64 {
        let p = self.settings.integration_parameters();
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

fn body(doc: &Document, id: BoneId, s: &SimSettings) -> Option<BodyModel> {
    let bone = doc.bone(id);
    let p = bone.physics.as_ref()?;
    let c = p.collider.as_ref()?;
    let shape = shape_of(&bone.name, &doc.world_shape(id, &c.shape)).ok()?;
    // A mass the simulation refuses gets no body there either.
    mass_properties(&bone.name, &shape, p.mass, s).ok()?;
    let unit = shape.mass_properties(1.0);
    let volume = 1.0 / unit.inv_mass.max(f32::MIN_POSITIVE) as f64;
    let rest = pose_of(&doc.skeleton.nodes[bone.node].world_from_node);
    let place = doc.body_from_collider(id, c);
    let local = Pose::from_parts(
        place.translation.as_vec3(),
        place.rotation.normalize().as_quat(),
    );
    let world_from_collider = rest * local;
    Some(BodyModel {
        id,
        name: bone.name.clone(),
        world_from_collider,
        joint_at: rest.translation.as_dvec3(),
        shape,
        mass_kg: p.mass,
        volume,
        unit_inertia: (unit.principal_inertia() / unit.mass().max(f32::MIN_POSITIVE)).as_dvec3(),
    })
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
