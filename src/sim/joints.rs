//! Joints that enforce what the file says, built from the shared joint math
//! ([`crate::joint`]): the joint frame sits at the child bone's origin with X along the twist
//! (ball socket) or hinge axis; the rest pose is zero for every angle.
//!
//! - `ball_socket`: a parent->child impulse joint with the linear axes locked and the twist
//!   range on AngX (Rapier measures `2 atan2(q.x, q.w)`, the twist of the swing-twist split).
//!   The swing boundary is an intersection of circular cones ([`crate::joint::boundary`]):
//!   a circular limit is AngY|AngZ coupled on the main joint, as before; an asymmetric one is
//!   one extra joint per cone with only the coupled cone, its parent frame's X aimed at the
//!   cone's axis. Those frames never change, so Rapier holds them natively, with no per-step
//!   work. A second, flipped joint (body1 = child) carries the twist range again (its row's
//!   jacobian is the child's own axis; with only the parent's, twist gave way by up to 80
//!   degrees under sustained twisting at large swing) and the drive motors.
//! - `hinge`: linear axes and AngY, AngZ locked; AngX limited to [min, max]; the drive is a
//!   motor on AngX.

use super::contact_order::MirrorContactOrder;
use super::error::SimError;
use super::world::BodyRec;
use crate::document::{BoneId, Document, Drive};
use crate::joint::{self, JointLimits};
use glam::{DQuat, DVec3, Quat, Vec3};
use rapier3d::prelude::*;

/// Everything a joint is built from (derived from the document), to diff on sync.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JointSpec {
    pub bone: BoneId,
    pub child: usize,
    pub parent: usize,
    pub limits: JointLimits,
    /// Joint frame in the parent body and in the child body.
    pub parent_from_frame: Pose,
    pub child_from_frame: Pose,
    pub drive: Drive,
    /// The joint frame's rotation in the world at rest, and the character's mirror order:
    /// the swing limit's cones are solved in an order its mirror twin shares.
    pub world_from_frame_rest: Quat,
    pub mirror: MirrorContactOrder,
    /// The pair collides although jointed (stated in `collision_pairs`).
    pub contacts: bool,
}

/// A joint in the world.
#[derive(Debug, Clone)]
pub(crate) struct JointRec {
    pub spec: JointSpec,
    pub name: String,
    /// Parent->child joint (linear lock, twist, a circular cone; the whole hinge otherwise).
    pub main: ImpulseJointHandle,
    /// Ball socket only: the flipped twist-limit + drive joint.
    pub drive_joint: Option<ImpulseJointHandle>,
    /// Ball socket with an asymmetric swing: one cone-only joint per boundary cone.
    pub cones: Vec<ImpulseJointHandle>,
    /// (stiffness, damping, max torque) currently on the motors; None when drives are off.
    pub motor_gains: Option<(f32, f32, f32)>,
    /// The drive target (parent joint frame to child joint frame); None: the rest pose.
    pub target: Option<Quat>,
    /// The motor angles that target asks for, per drive axis (to difference into velocities).
    pub target_angles: Option<[f32; 3]>,
    /// The motor velocities last set (rad/s per drive axis).
    pub target_velocity: [f32; 3],
}

impl JointRec {
    /// Every Rapier joint of this bone.
    pub fn handles(&self) -> impl Iterator<Item = ImpulseJointHandle> + '_ {
        std::iter::once(self.main)
            .chain(self.drive_joint)
            .chain(self.cones.iter().copied())
    }
}

/// The joint of bone `id`, if the shared joint math resolves one and both bodies exist.
pub(crate) fn joint_spec(
    doc: &Document,
    id: BoneId,
    bodies: &[BodyRec],
    (mirror, pairs): (MirrorContactOrder, &crate::document::pairs::ExplicitPairs),
) -> Result<Option<JointSpec>, SimError> {
    let Some(def) = joint::resolve(doc, id) else {
        return Ok(None);
    };
    let find = |b: BoneId| bodies.iter().position(|r| r.bone == b);
    let (Some(child), Some(parent)) = (find(id), find(def.parent)) else {
        return Ok(None);
    };
    let bone = doc.bone(id);
    let bad = |what: &str| SimError::BadValue {
        bone: bone.name.clone(),
        what: what.into(),
    };
    if !def.bone_from_joint.is_finite() {
        return Err(bad("joint axis"));
    }
    let pw = bodies[parent].world_from_body_rest;
    let cw = bodies[child].world_from_body_rest;
    let parent_from_joint = def.parent_from_joint(pw.rotation.as_dquat(), cw.rotation.as_dquat());
    let parent_from_child_t = pw.rotation.inverse() * (cw.translation - pw.translation);
    let drive = bone
        .physics
        .as_ref()
        .and_then(|p| p.drive)
        .unwrap_or_default();
    if ![drive.stiffness, drive.damping, drive.max_torque]
        .iter()
        .all(|x| x.is_finite() && *x >= 0.0)
    {
        return Err(bad("drive gains"));
    }
    Ok(Some(JointSpec {
        bone: id,
        child,
        parent,
        limits: def.limits,
        parent_from_frame: Pose::from_parts(parent_from_child_t, parent_from_joint.as_quat()),
        child_from_frame: Pose::from_parts(Vec3::ZERO, def.bone_from_joint.as_quat()),
        drive,
        world_from_frame_rest: (pw.rotation.as_dquat() * parent_from_joint).as_quat(),
        mirror,
        contacts: pairs.get(id, def.parent) == Some(true),
    }))
}

/// The motor gains the settings ask for: None when drives are off. While the joint follows
/// an animation target, stiffness, damping and the torque cap are scaled by its
/// `follow_strength`.
pub(crate) fn motor_gains(
    drive: &Drive,
    drives_on: bool,
    gain: f32,
    following: bool,
) -> Option<(f32, f32, f32)> {
    let follow = if following {
        drive.follow_strength as f32
    } else {
        1.0
    };
    let k = gain * follow;
    let gains = (
        drive.stiffness as f32 * k,
        drive.damping as f32 * k,
        drive.max_torque as f32 * follow,
    );
    drives_on.then_some(gains)
}

/// Per-axis motor targets that Rapier's angular motors settle exactly on the rotation `q` of
/// the joint's own frames: they measure `2 asin(q_i)` on each axis.
fn axis_targets(q: Quat) -> [f32; 3] {
    let q = if q.w < 0.0 { -q } else { q };
    [q.x, q.y, q.z].map(|c| 2.0 * c.clamp(-1.0, 1.0).asin())
}

/// Motor targets per drive axis: angle and angular velocity (rad, rad/s).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct AxisTargets {
    angle: [f32; 3],
    velocity: [f32; 3],
}

fn set_motors(
    j: &mut GenericJoint,
    axes: &[JointAxis],
    gains: Option<(f32, f32, f32)>,
    t: AxisTargets,
) {
    for (k, &ax) in axes.iter().enumerate() {
        match gains {
            Some((kp, kd, max)) => {
                j.set_motor_model(ax, MotorModel::ForceBased);
                j.set_motor(ax, t.angle[k], t.velocity[k], kp, kd);
                j.set_motor_max_force(ax, max);
            }
            None => j.motor_axes.remove(ax.into()),
        }
    }
}

/// The motor angles of a target on the joint that carries the motors (the flipped joint of
/// a ball socket measures the inverse rotation).
fn drive_angles(spec: &JointSpec, target: Quat) -> [f32; 3] {
    match spec.limits {
        JointLimits::Ball { .. } => axis_targets(target.inverse()),
        JointLimits::Hinge { .. } => axis_targets(target),
    }
}

const BALL_DRIVE_AXES: [JointAxis; 3] = [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ];
const HINGE_DRIVE_AXES: [JointAxis; 1] = [JointAxis::AngX];

/// The Rapier joints of a spec.
struct Built {
    main: GenericJoint,
    drive: Option<GenericJoint>,
    cones: Vec<GenericJoint>,
}

/// A cone-only joint: the child's X within `half_angle` of the parent frame's X turned onto `axis`.
fn cone_joint(
    (parent_frame, child_frame): (Pose, Pose),
    axis: DVec3,
    half_angle: f32,
    contacts: bool,
) -> GenericJoint {
    let aim = DQuat::from_rotation_arc(DVec3::X, axis.normalize()).as_quat();
    let f1 = Pose::from_parts(
        parent_frame.translation,
        (parent_frame.rotation * aim).normalize(),
    );
    GenericJointBuilder::new(JointAxesMask::empty())
        .coupled_axes(JointAxesMask::ANG_Y | JointAxesMask::ANG_Z)
        .limits(JointAxis::AngY, [-1.0, half_angle])
        .local_frame1(f1)
        .local_frame2(child_frame)
        .contacts_enabled(contacts)
        .build()
}

fn build(spec: &JointSpec, gains: Option<(f32, f32, f32)>, targets: AxisTargets) -> Built {
    let (f1, f2) = (spec.parent_from_frame, spec.child_from_frame);
    match &spec.limits {
        JointLimits::Ball {
            swing,
            twist_min_rad,
            twist_max_rad,
        } => {
            let (tmin, tmax) = (*twist_min_rad as f32, *twist_max_rad as f32);
            let cones = swing.cones();
            let mut main = GenericJointBuilder::new(JointAxesMask::LIN_AXES)
                .limits(JointAxis::AngX, [tmin, tmax])
                .local_frame1(f1)
                .local_frame2(f2)
                .contacts_enabled(spec.contacts);
            let mut extra = Vec::new();
            match cones {
                [c] if (c.axis - DVec3::X).length() < 1e-9 => {
                    main = main
                        .coupled_axes(JointAxesMask::ANG_Y | JointAxesMask::ANG_Z)
                        .limits(JointAxis::AngY, [-1.0, c.half_angle_rad as f32]);
                }
                many => {
                    // Gauss-Seidel solves them in turn: a mirror twin must take its mirrored
                    // cones in the same turn, or the two sides part where two cones meet.
                    let mut ordered: Vec<_> = many.iter().collect();
                    ordered.sort_by_cached_key(|c| {
                        let d = spec.world_from_frame_rest * c.axis.as_vec3();
                        spec.mirror.direction_key(d)
                    });
                    extra = ordered
                        .iter()
                        .map(|c| {
                            cone_joint((f1, f2), c.axis, c.half_angle_rad as f32, spec.contacts)
                        })
                        .collect();
                }
            }
            // The flipped joint measures the inverse rotation: its twist is the negated one.
            let mut drive = GenericJointBuilder::new(JointAxesMask::empty())
                .local_frame1(f2)
                .local_frame2(f1)
                .limits(JointAxis::AngX, [-tmax, -tmin])
                .contacts_enabled(spec.contacts)
                .build();
            set_motors(&mut drive, &BALL_DRIVE_AXES, gains, targets);
            Built {
                main: main.build(),
                drive: Some(drive),
                cones: extra,
            }
        }
        JointLimits::Hinge { min_rad, max_rad } => {
            let mut main = GenericJointBuilder::new(
                JointAxesMask::LIN_AXES | JointAxesMask::ANG_Y | JointAxesMask::ANG_Z,
            )
            .limits(JointAxis::AngX, [*min_rad as f32, *max_rad as f32])
            .local_frame1(f1)
            .local_frame2(f2)
            .contacts_enabled(spec.contacts)
            .build();
            set_motors(&mut main, &HINGE_DRIVE_AXES, gains, targets);
            Built {
                main,
                drive: None,
                cones: Vec::new(),
            }
        }
    }
}

/// Inserts the joint(s) of a spec.
pub(crate) fn insert(
    world: &mut PhysicsWorld,
    bodies: &[BodyRec],
    spec: JointSpec,
    name: String,
    gains: Option<(f32, f32, f32)>,
) -> JointRec {
    let built = build(&spec, gains, AxisTargets::default());
    let (b1, b2) = (bodies[spec.parent].body, bodies[spec.child].body);
    let main = world.insert_impulse_joint(b1, b2, built.main);
    let drive_joint = built.drive.map(|d| world.insert_impulse_joint(b2, b1, d));
    let cones = built
        .cones
        .into_iter()
        .map(|c| world.insert_impulse_joint(b1, b2, c))
        .collect();
    JointRec {
        spec,
        name,
        main,
        drive_joint,
        cones,
        motor_gains: gains,
        target: None,
        target_angles: None,
        target_velocity: [0.0; 3],
    }
}

/// Removes every Rapier joint of a bone.
pub(crate) fn remove(world: &mut PhysicsWorld, rec: &JointRec) {
    for h in rec.handles() {
        world.remove_impulse_joint(h);
    }
}

/// Brings a joint to `spec` and `gains` in place (frames, limits, motors). A change of joint
/// type, parent or cone count replaces that bone's Rapier joints (bodies are untouched).
/// Returns true when anything changed.
pub(crate) fn update(
    world: &mut PhysicsWorld,
    bodies: &[BodyRec],
    rec: &mut JointRec,
    spec: JointSpec,
    gains: Option<(f32, f32, f32)>,
) -> bool {
    if rec.spec == spec && rec.motor_gains == gains {
        return false;
    }
    let held = AxisTargets {
        angle: rec.target.map_or([0.0; 3], |t| drive_angles(&spec, t)),
        velocity: [0.0; 3],
    };
    let built = build(&spec, gains, held);
    let same_shape = std::mem::discriminant(&rec.spec.limits)
        == std::mem::discriminant(&spec.limits)
        && rec.spec.parent == spec.parent
        && rec.spec.child == spec.child
        && rec.cones.len() == built.cones.len();
    if !same_shape {
        let target = rec.target;
        remove(world, rec);
        *rec = insert(world, bodies, spec, rec.name.clone(), gains);
        if target.is_some() {
            set_target(world, rec, target, gains, None);
        }
        return true;
    }
    let mut set = |h: ImpulseJointHandle, data: GenericJoint| {
        if let Some(j) = world.impulse_joints.get_mut(h, true) {
            j.data = data;
        }
    };
    set(rec.main, built.main);
    if let (Some(h), Some(d)) = (rec.drive_joint, built.drive) {
        set(h, d);
    }
    for (&h, c) in rec.cones.iter().zip(built.cones) {
        set(h, c);
    }
    rec.spec = spec;
    rec.motor_gains = gains;
    true
}

/// Points the joint's drive at `target` (None: the rest pose), touching only the joint that
/// carries its motors. With `dt_s`, the motors also follow the target's angular velocity
/// (the change since the last target over `dt_s`), so a moving target is tracked without the
/// lag that damping toward zero velocity would cause. Returns true when anything changed.
pub(crate) fn set_target(
    world: &mut PhysicsWorld,
    rec: &mut JointRec,
    target: Option<Quat>,
    gains: Option<(f32, f32, f32)>,
    dt_s: Option<f32>,
) -> bool {
    let angle = target.map_or([0.0; 3], |t| drive_angles(&rec.spec, t));
    let velocity = match (rec.target_angles, dt_s) {
        (Some(prev), Some(dt)) if target.is_some() && dt > 0.0 => {
            std::array::from_fn(|k| wrap_pi(angle[k] - prev[k]) / dt)
        }
        _ => [0.0; 3],
    };
    if rec.target == target && rec.motor_gains == gains && rec.target_velocity == velocity {
        return false;
    }
    let built = build(&rec.spec, gains, AxisTargets { angle, velocity });
    let (handle, data) = match (rec.drive_joint, built.drive) {
        (Some(h), Some(d)) => (h, d),
        _ => (rec.main, built.main),
    };
    if let Some(j) = world.impulse_joints.get_mut(handle, true) {
        j.data.motors = data.motors;
        j.data.motor_axes = data.motor_axes;
    }
    rec.target = target;
    rec.target_angles = target.map(|_| angle);
    rec.target_velocity = velocity;
    rec.motor_gains = gains;
    true
}

fn wrap_pi(a: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    (a + PI).rem_euclid(TAU) - PI
}

/// The relative rotation of a joint in the world now (parent joint frame to child joint frame).
pub(crate) fn relative_rotation(
    world: &PhysicsWorld,
    bodies: &[BodyRec],
    spec: &JointSpec,
) -> Quat {
    let r1 = *world.bodies[bodies[spec.parent].body].rotation() * spec.parent_from_frame.rotation;
    let r2 = *world.bodies[bodies[spec.child].body].rotation() * spec.child_from_frame.rotation;
    r1.inverse() * r2
}
