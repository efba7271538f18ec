//! The world as built, written out for a bare Rapier build of its own
//! (`tools/bare-rapier`, `bench --export-scene`): every body, collider, impulse joint and
//! solver setting exactly as Rapier holds them, so a program that knows nothing of this
//! crate steps the same world. Floats are written as f64 decimals of the f32 values, which
//! read back to the same f32 bits. Our hooks are not part of the scene (a bare world has
//! none); each collider's hook flags are written for the record only.

use super::Simulation;
use glam::{Quat, Vec3};
use rapier3d::prelude::*;
use serde_json::{json, Value};
use std::collections::HashMap;

/// Version of the scene format (bump on any change the reader must know about).
pub const SCENE_FORMAT: u32 = 2;

fn v3(v: Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn quat(q: Quat) -> Value {
    json!([q.x, q.y, q.z, q.w])
}

fn pose(p: &Pose) -> Value {
    json!({ "translation": v3(p.translation), "rotation": quat(p.rotation) })
}

fn groups(g: InteractionGroups) -> Value {
    json!({
        "memberships": g.memberships.bits(),
        "filter": g.filter.bits(),
        "test_mode": format!("{:?}", g.test_mode),
    })
}

fn params(p: &IntegrationParameters) -> Value {
    json!({
        "dt": p.dt,
        "min_ccd_dt": p.min_ccd_dt,
        "contact_softness": [p.contact_softness.natural_frequency, p.contact_softness.damping_ratio],
        "static_contact_softness": [p.static_contact_softness.natural_frequency, p.static_contact_softness.damping_ratio],
        "warmstart_coefficient": p.warmstart_coefficient,
        "length_unit": p.length_unit,
        "normalized_allowed_linear_error": p.normalized_allowed_linear_error,
        "normalized_max_corrective_velocity": p.normalized_max_corrective_velocity,
        "normalized_prediction_distance": p.normalized_prediction_distance,
        "normalized_max_linear_velocity": p.normalized_max_linear_velocity,
        "num_solver_iterations": p.num_solver_iterations,
        "num_internal_pgs_iterations": p.num_internal_pgs_iterations,
        "num_internal_stabilization_iterations": p.num_internal_stabilization_iterations,
        "max_ccd_substeps": p.max_ccd_substeps,
        "contact_clustering": p.contact_clustering,
        "contact_recycling": p.contact_recycling,
        "normalized_contact_recycle_distance": p.normalized_contact_recycle_distance,
        "friction_in_bias_pass": p.friction_in_bias_pass,
        "warmstart_joints": p.warmstart_joints,
        "friction_model": format!("{:?}", p.friction_model),
    })
}

fn body(rb: &RigidBody) -> Value {
    let a = rb.activation();
    json!({
        "type": format!("{:?}", rb.body_type()),
        "pose": pose(rb.position()),
        "linvel": v3(rb.linvel()),
        "angvel": v3(rb.angvel()),
        "lin_damping": rb.linear_damping(),
        "ang_damping": rb.angular_damping(),
        "ccd_enabled": rb.is_ccd_enabled(),
        "gravity_scale": rb.gravity_scale(),
        "dominance_group": rb.dominance_group(),
        "can_sleep": !(a.normalized_linear_threshold < 0.0 && a.angular_threshold < 0.0),
        "activation": {
            "normalized_linear_threshold": a.normalized_linear_threshold,
            "angular_threshold": a.angular_threshold,
            "time_until_sleep": a.time_until_sleep,
        },
        "user_force": v3(rb.user_force()),
        "user_torque": v3(rb.user_torque()),
    })
}

fn shape(s: &SharedShape) -> Value {
    if let Some(b) = s.as_ball() {
        json!({ "ball": { "r": b.radius } })
    } else if let Some(c) = s.as_capsule() {
        json!({ "capsule": { "a": v3(c.segment.a), "b": v3(c.segment.b), "r": c.radius } })
    } else if let Some(c) = s.as_cuboid() {
        json!({ "cuboid": { "half_sizes": v3(c.half_extents) } })
    } else if let Some(h) = s.as_halfspace() {
        json!({ "halfspace": { "normal": v3(h.normal) } })
    } else {
        json!({ "unsupported": format!("{:?}", s.shape_type()) })
    }
}

fn collider(c: &Collider, parent: Option<usize>) -> Value {
    let mp = c.mass_properties();
    json!({
        "parent": parent,
        "shape": shape(c.shared_shape()),
        "position_wrt_parent": c.position_wrt_parent().map(pose),
        "mass_properties": {
            "local_com": v3(mp.local_com),
            "inv_mass": mp.inv_mass,
            "inv_principal_inertia": v3(mp.inv_principal_inertia),
            "principal_inertia_local_frame": quat(mp.principal_inertia_local_frame),
        },
        "friction_coefficient": c.friction(),
        "friction_combine_rule": format!("{:?}", c.friction_combine_rule()),
        "restitution_coefficient": c.restitution(),
        "restitution_combine_rule": format!("{:?}", c.restitution_combine_rule()),
        "collision_groups": groups(c.collision_groups()),
        "solver_groups": groups(c.solver_groups()),
        "sensor": c.is_sensor(),
        "contact_skin": c.contact_skin(),
        "our_hooks": c.active_hooks().bits(),
    })
}

fn joint(j: &GenericJoint, body1: usize, body2: usize) -> Value {
    let limits: Vec<Value> = j.limits.iter().map(|l| json!([l.min, l.max])).collect();
    let motors: Vec<Value> = j
        .motors
        .iter()
        .map(|m| {
            json!({
                "target_pos": m.target_pos,
                "target_vel": m.target_vel,
                "spring": m.stiffness,
                "damper": m.damping,
                "max_force": m.max_force,
                "model": format!("{:?}", m.model),
            })
        })
        .collect();
    json!({
        "body1": body1,
        "body2": body2,
        "local_frame1": pose(&j.local_frame1),
        "local_frame2": pose(&j.local_frame2),
        "locked_axes": j.locked_axes.bits(),
        "limit_axes": j.limit_axes.bits(),
        "motor_axes": j.motor_axes.bits(),
        "coupled_axes": j.coupled_axes.bits(),
        "limits": limits,
        "motors": motors,
        "softness": [j.softness.natural_frequency, j.softness.damping_ratio],
        "contacts_enabled": j.contacts_enabled,
        "is_enabled": j.is_enabled(),
    })
}

/// Counts that say whether two worlds are the same world (see `tools/bare-rapier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct WorldCounts {
    pub bodies: usize,
    pub colliders: usize,
    pub joints: usize,
    /// Collider pairs with at least one active contact.
    pub touching_pairs: usize,
    /// Solver contact points over all manifolds.
    pub contact_points: usize,
}

/// The counts of a Rapier world now.
pub fn world_counts(world: &PhysicsWorld) -> WorldCounts {
    let (mut touching_pairs, mut contact_points) = (0, 0);
    for pair in world.narrow_phase.contact_pairs() {
        if pair.has_any_active_contact() {
            touching_pairs += 1;
        }
        if let PairContacts::Rigid(r) = &pair.contacts {
            contact_points += r
                .manifolds
                .iter()
                .map(|m| m.data.solver_contacts.len())
                .sum::<usize>();
        }
    }
    WorldCounts {
        bodies: world.bodies.len(),
        colliders: world.colliders.len(),
        joints: world.impulse_joints.len(),
        touching_pairs,
        contact_points,
    }
}

impl Simulation {
    /// The world as Rapier holds it now, for a bare Rapier program (see the module docs).
    pub fn export_scene(&self) -> Value {
        let w = &self.world;
        let mut index: HashMap<RigidBodyHandle, usize> = HashMap::new();
        let bodies: Vec<Value> = w
            .bodies
            .iter()
            .enumerate()
            .map(|(i, (h, rb))| {
                index.insert(h, i);
                body(rb)
            })
            .collect();
        let colliders: Vec<Value> = w
            .colliders
            .iter()
            .map(|(_, c)| collider(c, c.parent().and_then(|p| index.get(&p).copied())))
            .collect();
        let joints: Vec<Value> = w
            .impulse_joints
            .iter()
            .filter_map(|(_, j)| {
                let (b1, b2) = (index.get(&j.body1())?, index.get(&j.body2())?);
                Some(joint(&j.data, *b1, *b2))
            })
            .collect();
        json!({
            "format": SCENE_FORMAT,
            "rapier": "0.36",
            "gravity": v3(w.gravity),
            "integration_parameters": params(&w.integration_parameters),
            "bodies": bodies,
            "colliders": colliders,
            "impulse_joints": joints,
            "counts": world_counts(w),
        })
    }

    /// Body, collider, joint and contact counts of the world now.
    pub fn world_counts(&self) -> WorldCounts {
        world_counts(&self.world)
    }

    /// Takes every hook flag off the colliders: the world a bare Rapier program builds from
    /// the exported scene, which has none. Rapier 0.36 never recycles the contacts of a pair
    /// whose colliders carry any hook flag, so the flags cost even when no hook is called.
    /// A document's explicit collision pairs lose their filter with it (benchmarks only).
    pub fn drop_hooks(&mut self) {
        let handles: Vec<ColliderHandle> = self.world.colliders.iter().map(|(h, _)| h).collect();
        for h in handles {
            if let Some(c) = self.world.colliders.get_mut(h) {
                c.set_active_hooks(ActiveHooks::empty());
            }
        }
    }

    /// Steps Rapier alone with no hooks at all: what a user of bare Rapier steps (after
    /// [`Simulation::drop_hooks`], the same world).
    pub fn step_unhooked(&mut self) {
        self.world.step();
        self.time_s += self.settings.dt_s as f64;
        self.steps += 1;
    }
}
