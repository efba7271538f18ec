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
//!   degrees under sustained twisting at large swing). A third, flipped joint with no locked
//!   axes carries the drive: its parent frame is turned by the drive target, so the motors
//!   measure the error rotation (current to target), never the target itself.
//!   Rapier's angular motors act per axis on `2 asin(q_i)` of the relative rotation with the
//!   frame's axes as jacobians; that linearisation holds near the identity only. Aimed at a
//!   large target directly (a run's 140° upper-arm twist), the swing axes' rows drove the
//!   other component (at 140° of twist, a push about Y moves q_z 2.8 times as much as q_y),
//!   and the drive lagged by tens of degrees. Around the target, the error is small and the
//!   three rows are the three independent axes of the error.
//! - `hinge`: linear axes and AngY, AngZ locked; AngX limited to [min, max]; the drive is a
//!   motor on AngX.

use super::contact_order::MirrorContactOrder;
use super::error::SimError;
use super::world::BodyRec;
use crate::document::{BoneId, Document, Drive};
use crate::joint::{self, Cone, JointLimits};
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
    /// Joint friction (N*m per angular axis) while the drive is off; 0: none.
    pub friction_torque_nm: f32,
}

/// A joint in the world.
#[derive(Debug, Clone)]
pub(crate) struct JointRec {
    pub spec: JointSpec,
    pub name: String,
    /// Parent->child joint (linear lock, twist, a circular cone; the whole hinge otherwise).
    pub main: ImpulseJointHandle,
    /// Ball socket only: the flipped twist-limit joint.
    pub drive_joint: Option<ImpulseJointHandle>,
    /// Ball socket only: the flipped motor joint, its parent frame turned by the target.
    pub motor_joint: Option<ImpulseJointHandle>,
    /// Ball socket with an asymmetric swing: one cone-only joint per boundary cone.
    pub cones: Vec<ImpulseJointHandle>,
    /// (stiffness, damping, max torque) currently on the motors; None when drives are off.
    pub motor_gains: Option<(f32, f32, f32)>,
    /// The drive target (parent joint frame to child joint frame); None: the rest pose.
    pub target: Option<Quat>,
    /// The motor velocities last set (rad/s per drive axis).
    pub target_velocity: [f32; 3],
}

impl JointRec {
    /// Every Rapier joint of this bone.
    pub fn handles(&self) -> impl Iterator<Item = ImpulseJointHandle> + '_ {
        std::iter::once(self.main)
            .chain(self.drive_joint)
            .chain(self.motor_joint)
            .chain(self.cones.iter().copied())
    }

    /// The Rapier joint that carries the drive's motors (AngX, AngY, AngZ on a ball socket;
    /// AngX on a hinge).
    pub fn motor_handle(&self) -> ImpulseJointHandle {
        self.motor_joint.unwrap_or(self.main)
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
    let friction_torque_nm = bone
        .constraint()
        .map_or(0.0, |c| c.friction_torque_nm as f32);
    if !(friction_torque_nm.is_finite() && friction_torque_nm >= 0.0) {
        return Err(bad("joint friction"));
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
        friction_torque_nm,
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

/// The hinge angle Rapier's AngX motor settles on for the rotation `q` of the joint's own
/// frames: it measures `2 asin(q_x)`.
fn hinge_angle(q: Quat) -> f32 {
    let q = if q.w < 0.0 { -q } else { q };
    2.0 * q.x.clamp(-1.0, 1.0).asin()
}

/// What the drive's motors are set to: the target rotation (parent joint frame to child
/// joint frame) and, per drive axis, the motor angle and angular velocity (rad, rad/s).
/// On a ball socket the motor joint's frame carries `rotation` and the angles are zero; on a
/// hinge the angle is the target's hinge angle.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DriveTarget {
    rotation: Quat,
    angle: [f32; 3],
    velocity: [f32; 3],
}

impl DriveTarget {
    /// Holding `target` (None: the rest pose) still.
    fn held(spec: &JointSpec, target: Option<Quat>) -> Self {
        let rotation = target.unwrap_or(Quat::IDENTITY);
        let angle = match spec.limits {
            JointLimits::Ball { .. } => [0.0; 3],
            JointLimits::Hinge { .. } => [hinge_angle(rotation), 0.0, 0.0],
        };
        Self {
            rotation,
            angle,
            velocity: [0.0; 3],
        }
    }

    /// Moving from `prev` to `target` over `dt_s`: the motors also follow the target's angular
    /// velocity, so a moving target is tracked without the lag that damping toward zero
    /// velocity would cause.
    fn moving(spec: &JointSpec, prev: Quat, target: Quat, dt_s: f32) -> Self {
        let mut t = Self::held(spec, Some(target));
        t.velocity = match spec.limits {
            // The motor joint measures the parent frame (turned by the target) from the
            // child's: while the child follows, that rotation moves at minus the target's own
            // angular velocity, in the child joint frame's axes.
            JointLimits::Ball { .. } => {
                let d = prev.inverse() * target;
                let d = if d.w < 0.0 { -d } else { d };
                let (axis, angle) = d.to_axis_angle();
                (-axis * (angle / dt_s)).to_array()
            }
            JointLimits::Hinge { .. } => [wrap_pi(t.angle[0] - hinge_angle(prev)) / dt_s, 0.0, 0.0],
        };
        if !t.velocity.iter().all(|v| v.is_finite()) {
            t.velocity = [0.0; 3];
        }
        t
    }
}

/// The damping of a friction motor (N*m*s/rad): large enough that, under its torque cap, the
/// motor holds the relative angular velocity at zero (Rapier's force-based motor is then a
/// velocity constraint, its softness 1/(dt * damping) negligible).
const FRICTION_DAMPING: f32 = 1.0e6;

/// The drive's motors on `axes`; with no drive (gains None), joint friction when the spec has
/// some (a zero-velocity motor whose torque cap is the friction torque, as Jolt's
/// `mMaxFrictionTorque` on a motor that is off), else no motor at all.
fn set_motors(
    j: &mut GenericJoint,
    axes: &[JointAxis],
    (gains, friction_nm): (Option<(f32, f32, f32)>, f32),
    t: &DriveTarget,
) {
    for (k, &ax) in axes.iter().enumerate() {
        match gains {
            Some((kp, kd, max)) => {
                j.set_motor_model(ax, MotorModel::ForceBased);
                j.set_motor(ax, t.angle[k], t.velocity[k], kp, kd);
                j.set_motor_max_force(ax, max);
            }
            None if friction_nm > 0.0 => set_friction(j, ax, friction_nm),
            None => j.motor_axes.remove(ax.into()),
        }
    }
}

fn set_friction(j: &mut GenericJoint, ax: JointAxis, friction_nm: f32) {
    j.set_motor_model(ax, MotorModel::ForceBased);
    j.set_motor(ax, 0.0, 0.0, 0.0, FRICTION_DAMPING);
    j.set_motor_max_force(ax, friction_nm);
}

const BALL_DRIVE_AXES: [JointAxis; 3] = [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ];
const HINGE_DRIVE_AXES: [JointAxis; 1] = [JointAxis::AngX];

/// The Rapier joints of a spec.
struct Built {
    main: GenericJoint,
    drive: Option<GenericJoint>,
    motor: Option<GenericJoint>,
    cones: Vec<GenericJoint>,
}

/// A ball socket's motor joint (body1 = child, body2 = parent): the child's joint frame
/// against the parent's turned by the target, so the motors settle where the relative
/// rotation equals the target, with all three angles at zero.
fn motor_joint(spec: &JointSpec, gains: Option<(f32, f32, f32)>, t: &DriveTarget) -> GenericJoint {
    let f1 = spec.parent_from_frame;
    let aimed = Pose::from_parts(f1.translation, (f1.rotation * t.rotation).normalize());
    let mut j = GenericJointBuilder::new(JointAxesMask::empty())
        .local_frame1(spec.child_from_frame)
        .local_frame2(aimed)
        .contacts_enabled(spec.contacts)
        .build();
    set_motors(&mut j, &BALL_DRIVE_AXES, (gains, 0.0), t);
    j
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

fn build(spec: &JointSpec, gains: Option<(f32, f32, f32)>, target: &DriveTarget) -> Built {
    match &spec.limits {
        JointLimits::Ball {
            swing,
            twist_min_rad,
            twist_max_rad,
        } => {
            let twist_rad = (*twist_min_rad as f32, *twist_max_rad as f32);
            build_ball(spec, swing.cones(), twist_rad, gains, target)
        }
        JointLimits::Hinge { min_rad, max_rad } => {
            let (f1, f2) = (spec.parent_from_frame, spec.child_from_frame);
            let mut main = GenericJointBuilder::new(
                JointAxesMask::LIN_AXES | JointAxesMask::ANG_Y | JointAxesMask::ANG_Z,
            )
            .limits(JointAxis::AngX, [*min_rad as f32, *max_rad as f32])
            .local_frame1(f1)
            .local_frame2(f2)
            .contacts_enabled(spec.contacts)
            .build();
            set_motors(
                &mut main,
                &HINGE_DRIVE_AXES,
                (gains, spec.friction_torque_nm),
                target,
            );
            Built {
                main,
                drive: None,
                motor: None,
                cones: Vec::new(),
            }
        }
    }
}

/// A ball joint: twist limits on the main joint, one swing cone coupled into it (about X)
/// or else one extra joint per cone, the flipped drive joint and the motor.
fn build_ball(
    spec: &JointSpec,
    cones: &[Cone],
    (tmin, tmax): (f32, f32),
    gains: Option<(f32, f32, f32)>,
    target: &DriveTarget,
) -> Built {
    let (f1, f2) = (spec.parent_from_frame, spec.child_from_frame);
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
        many => extra = cone_joints(spec, many),
    }
    // The flipped joint measures the inverse rotation: its twist is the negated one.
    let mut drive = GenericJointBuilder::new(JointAxesMask::empty())
        .local_frame1(f2)
        .local_frame2(f1)
        .limits(JointAxis::AngX, [-tmax, -tmin])
        .contacts_enabled(spec.contacts)
        .build();
    // Joint friction while the drive is off: on the flipped joint, which is always there (the
    // motor joint exists only while drives are on). Each axis has the whole torque.
    if gains.is_none() && spec.friction_torque_nm > 0.0 {
        for ax in BALL_DRIVE_AXES {
            set_friction(&mut drive, ax, spec.friction_torque_nm);
        }
    }
    Built {
        main: main.build(),
        drive: Some(drive),
        motor: Some(motor_joint(spec, gains, target)),
        cones: extra,
    }
}

/// One limit joint per swing cone, in the character's mirror order.
fn cone_joints(spec: &JointSpec, many: &[Cone]) -> Vec<GenericJoint> {
    let (f1, f2) = (spec.parent_from_frame, spec.child_from_frame);
    // Gauss-Seidel solves them in turn: a mirror twin must take its mirrored
    // cones in the same turn, or the two sides part where two cones meet.
    let mut ordered: Vec<_> = many.iter().collect();
    ordered.sort_by_cached_key(|c| {
        let d = spec.world_from_frame_rest * c.axis.as_vec3();
        spec.mirror.direction_key(d)
    });
    ordered
        .iter()
        .map(|c| cone_joint((f1, f2), c.axis, c.half_angle_rad as f32, spec.contacts))
        .collect()
}

/// Inserts the joint(s) of a spec.
pub(crate) fn insert(
    world: &mut PhysicsWorld,
    bodies: &[BodyRec],
    spec: JointSpec,
    name: String,
    gains: Option<(f32, f32, f32)>,
) -> JointRec {
    let built = build(&spec, gains, &DriveTarget::held(&spec, None));
    let (b1, b2) = (bodies[spec.parent].body, bodies[spec.child].body);
    let main = world.insert_impulse_joint(b1, b2, built.main);
    let drive_joint = built.drive.map(|d| world.insert_impulse_joint(b2, b1, d));
    // Without drives (a passive run) no motor joint: an empty joint still orders the solver.
    let motor_joint = (built.motor)
        .filter(|_| gains.is_some())
        .map(|d| world.insert_impulse_joint(b2, b1, d));
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
        motor_joint,
        cones,
        motor_gains: gains,
        target: None,
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
    let built = build(&spec, gains, &DriveTarget::held(&spec, rec.target));
    let same_shape = std::mem::discriminant(&rec.spec.limits)
        == std::mem::discriminant(&spec.limits)
        && rec.spec.parent == spec.parent
        && rec.spec.child == spec.child
        && rec.cones.len() == built.cones.len()
        && rec.motor_joint.is_some() == (built.motor.is_some() && gains.is_some());
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
    if let (Some(h), Some(d)) = (rec.motor_joint, built.motor) {
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
/// (the change since the last target over `dt_s`). Returns true when anything changed.
pub(crate) fn set_target(
    world: &mut PhysicsWorld,
    rec: &mut JointRec,
    target: Option<Quat>,
    gains: Option<(f32, f32, f32)>,
    dt_s: Option<f32>,
) -> bool {
    let t = match (rec.target, target, dt_s) {
        (Some(prev), Some(now), Some(dt)) if dt > 0.0 => {
            DriveTarget::moving(&rec.spec, prev, now, dt)
        }
        _ => DriveTarget::held(&rec.spec, target),
    };
    if rec.target == target && rec.motor_gains == gains && rec.target_velocity == t.velocity {
        return false;
    }
    let ball = matches!(rec.spec.limits, JointLimits::Ball { .. });
    if ball && rec.motor_joint.is_none() && gains.is_some() {
        // Drives came on without a sync (never in practice: gains change through `update`).
        return false;
    }
    let handle = rec.motor_handle();
    if let Some(j) = world
        .impulse_joints
        .get_mut(handle, true)
        .filter(|_| !ball || rec.motor_joint.is_some())
    {
        match rec.motor_joint {
            Some(_) => {
                let m = motor_joint(&rec.spec, gains, &t);
                j.data.local_frame2 = m.local_frame2;
                j.data.motors = m.motors;
                j.data.motor_axes = m.motor_axes;
            }
            None => set_motors(
                &mut j.data,
                &HINGE_DRIVE_AXES,
                (gains, rec.spec.friction_torque_nm),
                &t,
            ),
        }
    }
    rec.target = target;
    rec.target_velocity = t.velocity;
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
