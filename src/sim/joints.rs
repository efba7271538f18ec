//! Joints that enforce what the file says. Each joint's frame sits at the child bone's
//! origin with its X axis along the twist (ball socket) or hinge axis; the rest pose is zero
//! for every angle.
//!
//! - `ball_socket`: a parent->child impulse joint with the linear axes locked and AngY|AngZ
//!   coupled into a circular cone of half-angle `swing_limit_deg`; a second, flipped joint
//!   (body1 = child) carries the twist limit on AngX again (its row's jacobian is the child's
//!   own axis, where the parent->child row uses the parent's: with only one of the two the
//!   twist limit gave way by up to 80 degrees under sustained twisting torques at large
//!   swing) and the drive motors.
//! - `hinge`: linear axes and AngY, AngZ locked; AngX limited to [min, max]; the drive is a
//!   motor on AngX.

use super::error::SimError;
use super::world::{frame_from_axis, BodyRec};
use crate::document::{BoneId, ConstraintKind, Document, Drive};
use glam::{Quat, Vec3};
use rapier3d::prelude::*;

const DEG: f32 = std::f32::consts::PI / 180.0;

/// Limits of a joint, in radians.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointLimitsRad {
    Ball {
        swing_limit_rad: f32,
        twist_limit_rad: f32,
    },
    Hinge {
        min_rad: f32,
        max_rad: f32,
    },
}

/// Everything a joint is built from (derived from the document), to diff on sync.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JointSpec {
    pub bone: BoneId,
    pub child: usize,
    pub parent: usize,
    pub limits: JointLimitsRad,
    /// Joint frame in the parent body and in the child body.
    pub parent_from_frame: Pose,
    pub child_from_frame: Pose,
    pub drive: Drive,
}

/// A joint in the world.
#[derive(Debug, Clone)]
pub(crate) struct JointRec {
    pub spec: JointSpec,
    pub name: String,
    /// Parent->child joint (cone for a ball socket, the whole hinge otherwise).
    pub main: ImpulseJointHandle,
    /// Ball socket only: the flipped twist-limit + drive joint.
    pub drive_joint: Option<ImpulseJointHandle>,
    /// (stiffness, damping, max torque) currently on the motors; None when drives are off.
    pub motor_gains: Option<(f32, f32, f32)>,
}

fn finite3(v: [f64; 3]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// The joint of bone `id`, if it has a constraint whose parent bone has a body.
pub(crate) fn joint_spec(
    doc: &Document,
    id: BoneId,
    bodies: &[BodyRec],
) -> Result<Option<JointSpec>, SimError> {
    let bone = doc.bone(id);
    let Some(p) = &bone.physics else {
        return Ok(None);
    };
    let Some(c) = &p.constraint else {
        return Ok(None);
    };
    let Some(child) = bodies.iter().position(|b| b.bone == id) else {
        return Ok(None);
    };
    let parent_id = c.parent_bone.as_deref().and_then(|n| doc.bone_by_name(n));
    let Some(parent) = parent_id.and_then(|pid| bodies.iter().position(|b| b.bone == pid)) else {
        return Ok(None);
    };
    if parent == child {
        return Ok(None);
    }
    let bad = |what: &str| SimError::BadValue {
        bone: bone.name.clone(),
        what: what.into(),
    };
    let (axis, limits) = match &c.kind {
        ConstraintKind::BallSocket {
            swing_limit_deg,
            twist_limit_deg,
        } => {
            if !(swing_limit_deg.is_finite() && twist_limit_deg.is_finite()) {
                return Err(bad("swing/twist limit"));
            }
            let axis = doc.primary_axis(id).as_vec3();
            let limits = JointLimitsRad::Ball {
                swing_limit_rad: (*swing_limit_deg as f32).clamp(0.0, 180.0) * DEG,
                twist_limit_rad: (*twist_limit_deg as f32).clamp(0.0, 180.0) * DEG,
            };
            (axis, limits)
        }
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => {
            if !(finite3(*hinge_axis) && limit_min_deg.is_finite() && limit_max_deg.is_finite()) {
                return Err(bad("hinge axis/limits"));
            }
            let (lo, hi) = (*limit_min_deg as f32, *limit_max_deg as f32);
            let limits = JointLimitsRad::Hinge {
                min_rad: lo.min(hi).clamp(-180.0, 180.0) * DEG,
                max_rad: hi.max(lo).clamp(-180.0, 180.0) * DEG,
            };
            (Vec3::from_array(hinge_axis.map(|x| x as f32)), limits)
        }
    };
    if !(axis.is_finite() && axis.length() > 1e-6) {
        return Err(bad("joint axis (zero length)"));
    }
    let frame_rot = frame_from_axis(axis);
    let pw = bodies[parent].world_from_body_rest;
    let cw = bodies[child].world_from_body_rest;
    let parent_from_child_rot: Quat = pw.rotation.inverse() * cw.rotation;
    let parent_from_child_t = pw.rotation.inverse() * (cw.translation - pw.translation);
    let drive = p.drive.unwrap_or_default();
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
        limits,
        parent_from_frame: Pose::from_parts(
            parent_from_child_t,
            (parent_from_child_rot * frame_rot).normalize(),
        ),
        child_from_frame: Pose::from_parts(Vec3::ZERO, frame_rot),
        drive,
    }))
}

/// The motor gains the settings ask for: None when drives are off.
pub(crate) fn motor_gains(drive: &Drive, drives_on: bool, gain: f32) -> Option<(f32, f32, f32)> {
    let gains = (
        drive.stiffness as f32 * gain,
        drive.damping as f32 * gain,
        drive.max_torque as f32,
    );
    drives_on.then_some(gains)
}

fn set_motors(j: &mut GenericJoint, axes: &[JointAxis], gains: Option<(f32, f32, f32)>) {
    for &ax in axes {
        match gains {
            Some((kp, kd, max)) => {
                j.set_motor_model(ax, MotorModel::ForceBased);
                j.set_motor_position(ax, 0.0, kp, kd);
                j.set_motor_max_force(ax, max);
            }
            None => j.motor_axes.remove(ax.into()),
        }
    }
}

const BALL_DRIVE_AXES: [JointAxis; 3] = [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ];
const HINGE_DRIVE_AXES: [JointAxis; 1] = [JointAxis::AngX];

/// The Rapier joints of a spec: (main, drive joint for a ball socket).
fn build(spec: &JointSpec, gains: Option<(f32, f32, f32)>) -> (GenericJoint, Option<GenericJoint>) {
    let (f1, f2) = (spec.parent_from_frame, spec.child_from_frame);
    match spec.limits {
        JointLimitsRad::Ball {
            swing_limit_rad,
            twist_limit_rad,
        } => {
            let main = GenericJointBuilder::new(JointAxesMask::LIN_AXES)
                .coupled_axes(JointAxesMask::ANG_Y | JointAxesMask::ANG_Z)
                .limits(JointAxis::AngY, [-swing_limit_rad, swing_limit_rad])
                .limits(JointAxis::AngX, [-twist_limit_rad, twist_limit_rad])
                .local_frame1(f1)
                .local_frame2(f2)
                .contacts_enabled(false)
                .build();
            let mut drive = GenericJointBuilder::new(JointAxesMask::empty())
                .local_frame1(f2)
                .local_frame2(f1)
                .limits(JointAxis::AngX, [-twist_limit_rad, twist_limit_rad])
                .contacts_enabled(false)
                .build();
            set_motors(&mut drive, &BALL_DRIVE_AXES, gains);
            (main, Some(drive))
        }
        JointLimitsRad::Hinge { min_rad, max_rad } => {
            let mut main = GenericJointBuilder::new(
                JointAxesMask::LIN_AXES | JointAxesMask::ANG_Y | JointAxesMask::ANG_Z,
            )
            .limits(JointAxis::AngX, [min_rad, max_rad])
            .local_frame1(f1)
            .local_frame2(f2)
            .contacts_enabled(false)
            .build();
            set_motors(&mut main, &HINGE_DRIVE_AXES, gains);
            (main, None)
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
    let (main, drive) = build(&spec, gains);
    let (b1, b2) = (bodies[spec.parent].body, bodies[spec.child].body);
    let main = world.insert_impulse_joint(b1, b2, main);
    let drive_joint = drive.map(|d| world.insert_impulse_joint(b2, b1, d));
    JointRec {
        spec,
        name,
        main,
        drive_joint,
        motor_gains: gains,
    }
}

fn same_kind(a: &JointLimitsRad, b: &JointLimitsRad) -> bool {
    matches!(
        (a, b),
        (JointLimitsRad::Ball { .. }, JointLimitsRad::Ball { .. })
            | (JointLimitsRad::Hinge { .. }, JointLimitsRad::Hinge { .. })
    )
}

/// Brings a joint to `spec` and `gains` in place (frames, limits, motors). A change of
/// joint type or parent replaces that bone's Rapier joints (bodies are untouched).
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
    if !same_kind(&rec.spec.limits, &spec.limits)
        || rec.spec.parent != spec.parent
        || rec.spec.child != spec.child
    {
        world.remove_impulse_joint(rec.main);
        if let Some(d) = rec.drive_joint {
            world.remove_impulse_joint(d);
        }
        *rec = insert(world, bodies, spec, rec.name.clone(), gains);
        return true;
    }
    let (main, drive) = build(&spec, gains);
    if let Some(j) = world.impulse_joints.get_mut(rec.main, true) {
        j.data = main;
    }
    if let (Some(h), Some(d)) = (rec.drive_joint, drive) {
        if let Some(j) = world.impulse_joints.get_mut(h, true) {
            j.data = d;
        }
    }
    rec.spec = spec;
    rec.motor_gains = gains;
    true
}
