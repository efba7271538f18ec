//! Active balance (the 2D seed's controller in 3D):
//! - torso upright: a fixed anchor body joined to the balance torso bone by a joint with no
//!   locked axes and force-based motors on the two tilt axes only (yaw free), toward the
//!   bone's rest orientation relative to world vertical (implicit PD, stable at any gain);
//! - ankle counter-torque: when at least one support foot has an active contact with the
//!   ground, tau = -(ankle_kp * lean + ankle_kd * lean_rate) from the centre of mass over the
//!   grounded feet, capped at `ankle_max_torque`, on the pelvis and opposite, split over the
//!   grounded feet;
//! - hip strategy (`hip.rs`, off unless `hip_kp` > 0): when the capture point leaves the
//!   grounded feet, a torque turning the trunk about the hips toward the fall, on the pelvis
//!   and opposite on the thighs.
//!
//! "Fell": the pelvis below 50% of its rest height, the whole body's centre of mass below
//! 55% of the way from lying to its rest height, the torso tilted past 60 degrees from
//! its rest orientation, all measured from the character's own rest pose, or on the ground (a
//! biped's trunk or head touching it, or no foot on it while another body does; `fall.rs`).
//! After a fall the upright joint is disabled.
//!
//! The bones: the document's balance settings; without settings, the default names when
//! those bones exist, else found by role (pelvis, lowest body of each leg). When none can be
//! found, tilt, pelvis height and falls are not measured (NaN in telemetry, null in reports),
//! never a made-up zero.

use super::hip;
use super::world::{frame_from_axis, BodyRec};
use crate::anatomy::{Anatomy, Kind, Role};
use crate::document::{BalanceSettings, BoneId, Document};
use crate::document::{DEFAULT_FOOT_BONES, DEFAULT_PELVIS_BONE, DEFAULT_TORSO_BONE};
use glam::{Quat, Vec3};
use rapier3d::prelude::*;

/// Pelvis height ratio below which the figure has fallen.
pub const FELL_PELVIS_RATIO: f32 = 0.5;
/// The whole body's centre of mass below this share of the way from its lying height to its
/// rest height: it has fallen (`fall.rs`).
pub const FELL_COM_SHARE: f32 = 0.55;
/// Torso tilt above which the figure has fallen (degrees).
pub const FELL_TILT_DEG: f32 = 60.0;

/// Where the balance bones came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BalanceSource {
    /// The document's `extras.physics.balance`.
    Settings,
    /// No settings: the default names (`pelvis`, `foot_l`, `foot_r`) exist.
    DefaultNames,
    /// No settings: found by role (pelvis and the lowest body of each leg).
    Roles,
    /// Nothing found: tilt and falls are not measured.
    Unresolved,
}

/// The balance bones in use.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BalanceBones {
    pub source: BalanceSource,
    pub torso_bone: Option<String>,
    pub pelvis_bone: Option<String>,
    pub foot_bones: Vec<String>,
}

/// The balance controller of one ragdoll.
#[derive(Debug, Clone)]
pub(crate) struct BalanceRig {
    pub built: BalanceSettings,
    /// The bones resolved for `built` (by name, or by role when the file has no settings).
    pub bones: BalanceBones,
    /// Body slots of the torso (held upright), pelvis (fall height) and support feet.
    pub torso: Option<usize>,
    pub pelvis: Option<usize>,
    pub feet: Vec<usize>,
    pub foot_names: Vec<String>,
    pub anchor: Option<RigidBodyHandle>,
    pub upright: Option<ImpulseJointHandle>,
    pub upright_enabled: bool,
    /// The ankle torque on the bodies now, and which feet it is split over.
    pub applied_torque: Vec3,
    pub applied_feet: u32,
    /// Each support foot's thigh (the hip strategy's reaction body), and the hip torque on
    /// the pelvis now.
    pub thighs: Vec<Option<usize>>,
    /// Body slots of a biped's trunk and head (the anatomy's pelvis, spine, chest, neck and
    /// head, and the torso and pelvis above): what it does not touch the ground with while it
    /// stands (`fall.rs`). Empty for other body plans: a spider standing rests its low body on
    /// the ground, and a quadruped's sunk trunk is judged by its centre of mass.
    pub trunk: Vec<usize>,
    pub applied_hip: Vec3,
    /// The simulation's length unit (scales the controller's distances).
    pub length_unit: f32,
    /// The world's gravity (world units per s²): the capture point's fall rate.
    pub gravity: f32,
}

/// The ankle torque is rewritten only when it moves by more than this (N*m, for the default
/// `ankle_max_torque` of 150 N*m; it scales with the cap) or the grounded feet change: any write to a jointed body makes Rapier rebuild its joint assembly for the
/// step, which costs about as much as the rest of this layer together.
pub const ANKLE_TORQUE_DEADBAND_N_M: f32 = 1.0;

fn slot(doc: &Document, bodies: &[BodyRec], name: &str) -> Option<usize> {
    let id = doc.bone_by_name(name)?;
    bodies.iter().position(|b| b.bone == id)
}

fn upright_joint(torso_rest_rot: Quat, s: &BalanceSettings) -> GenericJoint {
    let f = frame_from_axis(Vec3::Y);
    let mut j = GenericJointBuilder::new(JointAxesMask::empty())
        .local_frame1(Pose::from_parts(Vec3::ZERO, f))
        .local_frame2(Pose::from_parts(
            Vec3::ZERO,
            (torso_rest_rot.inverse() * f).normalize(),
        ))
        .contacts_enabled(false)
        .build();
    // The assist scale: 0 leaves the character to balance through its joints and feet.
    let k = s.assist.clamp(0.0, 1.0) as f32;
    for ax in [JointAxis::AngY, JointAxis::AngZ] {
        j.set_motor_model(ax, MotorModel::ForceBased);
        j.set_motor_position(ax, 0.0, k * s.upright_kp as f32, k * s.upright_kd as f32);
        j.set_motor_max_force(ax, k * s.upright_max_torque as f32);
    }
    j
}

/// The balance bone names, each one on its own: the name the document's settings give; else
/// the default name when that bone has a body (`pelvis`, `foot_l`, `foot_r`); else by role.
/// A file without a balance object and one with an object that leaves a name out resolve
/// that name the same way.
fn resolve_names(
    doc: &Document,
    bodies: &[BodyRec],
    s: &BalanceSettings,
) -> (BalanceSource, Option<String>, Option<String>, Vec<String>) {
    let all_given = s.torso_bone.is_some() && s.pelvis_bone.is_some() && s.foot_bones.is_some();
    let defaults = slot(doc, bodies, DEFAULT_TORSO_BONE).is_some();
    let roles = if all_given || defaults {
        None
    } else {
        by_role(doc)
    };
    let torso = s.torso_bone.clone().or_else(|| match &roles {
        _ if defaults => Some(DEFAULT_TORSO_BONE.to_string()),
        Some(r) => Some(r.pelvis.clone()),
        None => None,
    });
    let pelvis = s.pelvis_bone.clone().or_else(|| match &roles {
        _ if defaults => Some(DEFAULT_PELVIS_BONE.to_string()),
        Some(r) => Some(r.pelvis.clone()),
        None => None,
    });
    let feet = s.foot_bones.clone().unwrap_or_else(|| match &roles {
        _ if defaults => DEFAULT_FOOT_BONES.map(String::from).to_vec(),
        Some(r) => r.feet.clone(),
        None => Vec::new(),
    });
    let source = match () {
        _ if all_given => BalanceSource::Settings,
        _ if defaults => BalanceSource::DefaultNames,
        _ if roles.is_some() => BalanceSource::Roles,
        _ if torso.is_some() => BalanceSource::Settings,
        _ => BalanceSource::Unresolved,
    };
    (source, torso, pelvis, feet)
}

/// Balance bones found by role.
struct RoleBones {
    pelvis: String,
    feet: Vec<String>,
}

/// A reference to a bone that `Document::bone_by_name` resolves back to it.
fn bone_ref(doc: &Document, id: BoneId) -> String {
    let name = &doc.bone(id).name;
    match doc.bone_by_name(name) {
        Some(found) if found == id => name.clone(),
        _ => format!("node{}", doc.bone(id).node),
    }
}

/// For a document without balance settings, from its anatomy: the pelvis (or its nearest
/// ancestor with a collider) as torso and pelvis, and the lowest bone with a collider of each
/// leg (a toe only when nothing else has one). None without a pelvis and feet.
fn by_role(doc: &Document) -> Option<RoleBones> {
    let a = Anatomy::of(doc);
    let has_body = |id: BoneId| doc.bone(id).collider().is_some();
    let pelvis =
        std::iter::successors(a.pelvis(), |&b| doc.bone(b).parent).find(|&b| has_body(b))?;
    let feet: Vec<String> = a
        .limbs()
        .iter()
        .filter(|l| l.kind.is_leg())
        .filter_map(|l| {
            let on: Vec<BoneId> = l.path.iter().copied().filter(|&b| has_body(b)).collect();
            let foot = on.iter().rev().find(|&&b| a.role(b) != Role::Toe);
            foot.or(on.last()).map(|&b| bone_ref(doc, b))
        })
        .collect();
    (!feet.is_empty()).then(|| RoleBones {
        pelvis: bone_ref(doc, pelvis),
        feet,
    })
}

impl BalanceRig {
    pub fn new(world: &mut PhysicsWorld, doc: &Document, bodies: &[BodyRec]) -> Self {
        let mut rig = BalanceRig {
            built: doc.balance.clone(),
            bones: BalanceBones {
                source: BalanceSource::Unresolved,
                torso_bone: None,
                pelvis_bone: None,
                foot_bones: Vec::new(),
            },
            torso: None,
            pelvis: None,
            feet: Vec::new(),
            foot_names: Vec::new(),
            anchor: None,
            upright: None,
            upright_enabled: true,
            applied_torque: Vec3::ZERO,
            applied_feet: 0,
            thighs: Vec::new(),
            trunk: Vec::new(),
            applied_hip: Vec3::ZERO,
            length_unit: 1.0,
            gravity: 9.81,
        };
        rig.rebuild(world, doc, bodies);
        rig
    }

    /// (Re)resolves bones and (re)creates the upright joint from the document's settings.
    fn rebuild(&mut self, world: &mut PhysicsWorld, doc: &Document, bodies: &[BodyRec]) {
        if let Some(a) = self.anchor.take() {
            world.remove_body(a); // removes the upright joint with it
        }
        self.upright = None;
        let s = doc.balance.clone();
        let (source, torso, pelvis, feet) = resolve_names(doc, bodies, &s);
        self.torso = torso.as_deref().and_then(|n| slot(doc, bodies, n));
        self.pelvis = pelvis
            .as_deref()
            .and_then(|n| slot(doc, bodies, n))
            .or(self.torso);
        self.feet.clear();
        self.foot_names.clear();
        for f in &feet {
            if let Some(k) = slot(doc, bodies, f) {
                self.feet.push(k);
                self.foot_names.push(f.clone());
            }
        }
        let anatomy = self.pelvis.is_some().then(|| Anatomy::of(doc));
        self.thighs = match (self.pelvis, &anatomy) {
            (Some(p), Some(a)) => hip::hip_children((doc, a), bodies, p, &self.feet),
            _ => Vec::new(),
        };
        self.trunk = anatomy.map_or_else(Vec::new, |a| self.trunk_bodies(&a, bodies));
        let name = |k: Option<usize>| k.map(|k| bodies[k].name.clone());
        self.bones = BalanceBones {
            source: if self.torso.is_none() && self.pelvis.is_none() {
                BalanceSource::Unresolved
            } else {
                source
            },
            torso_bone: name(self.torso),
            pelvis_bone: name(self.pelvis),
            foot_bones: self.foot_names.clone(),
        };
        if let Some(t) = self.torso {
            let rest = bodies[t].world_from_body_rest;
            let anchor = world.insert_body(RigidBodyBuilder::fixed().translation(rest.translation));
            let j = upright_joint(rest.rotation, &s);
            self.upright = Some(world.insert_impulse_joint(anchor, bodies[t].body, j));
            self.anchor = Some(anchor);
            self.upright_enabled = true;
        }
        self.built = s;
    }

    /// A biped's trunk and head body slots: bodies whose bone's role is pelvis, spine, chest,
    /// neck or head, with the torso and pelvis; never a support foot. Empty for other kinds.
    fn trunk_bodies(&self, a: &Anatomy, bodies: &[BodyRec]) -> Vec<usize> {
        if a.kind() != Kind::Biped {
            return Vec::new();
        }
        let trunk_role = |r: Role| {
            matches!(
                r,
                Role::Pelvis | Role::Spine | Role::Chest | Role::Neck | Role::Head
            )
        };
        (0..bodies.len())
            .filter(|k| {
                (trunk_role(a.role(bodies[*k].bone))
                    || [self.torso, self.pelvis].contains(&Some(*k)))
                    && !self.feet.contains(k)
            })
            .collect()
    }

    /// Applies changed balance settings in place (gains), or re-resolves bones.
    pub fn sync(&mut self, world: &mut PhysicsWorld, doc: &Document, bodies: &[BodyRec]) -> bool {
        let s = &doc.balance;
        if *s == self.built {
            return false;
        }
        let same_bones = s.torso_bone == self.built.torso_bone
            && s.pelvis_bone == self.built.pelvis_bone
            && s.foot_bones == self.built.foot_bones;
        match (same_bones, self.upright, self.torso) {
            (true, Some(h), Some(t)) => {
                let j = upright_joint(bodies[t].world_from_body_rest.rotation, s);
                if let Some(rec) = world.impulse_joints.get_mut(h, true) {
                    let enabled = rec.data.is_enabled();
                    rec.data = j;
                    rec.data.set_enabled(enabled);
                }
                self.built = s.clone();
            }
            _ => self.rebuild(world, doc, bodies),
        }
        true
    }

    /// Whether the controller acts this step.
    pub fn active(&self, settings_on: bool, fallen: bool) -> bool {
        settings_on && self.built.enabled && !fallen
    }

    /// Enables or disables the upright joint (only when that changes).
    pub fn set_upright(&mut self, world: &mut PhysicsWorld, on: bool) {
        if on == self.upright_enabled {
            return;
        }
        if let Some(h) = self.upright {
            if let Some(j) = world.impulse_joints.get_mut(h, true) {
                j.data.set_enabled(on);
            }
        }
        self.upright_enabled = on;
    }

    /// The ankle counter-torque and the hip strategy's torque for this step. `com`/`vcom`:
    /// whole-body centre of mass and its velocity; `grounded`: bit i = foot i touching the
    /// ground.
    pub fn ankle_torque(
        &mut self,
        world: &mut PhysicsWorld,
        bodies: &[BodyRec],
        com: Vec3,
        vcom: Vec3,
        grounded: u32,
        on: bool,
    ) {
        let unit = self.length_unit;
        let (tau, feet) = match self.pelvis {
            Some(_) if on && grounded != 0 => (
                self.torque_for(world, bodies, com, vcom, grounded, unit),
                grounded,
            ),
            _ => (Vec3::ZERO, 0),
        };
        let hip = if feet != 0 {
            self.hip_for(world, bodies, com, vcom, grounded)
        } else {
            Vec3::ZERO
        };
        let deadband = ANKLE_TORQUE_DEADBAND_N_M * (self.built.ankle_max_torque as f32 / 150.0);
        let hip_deadband = ANKLE_TORQUE_DEADBAND_N_M * (self.built.hip_max_torque as f32 / 150.0);
        let unchanged =
            feet == self.applied_feet && (tau - self.applied_torque).length() < deadband;
        let hip_unchanged = (hip - self.applied_hip).length() < hip_deadband
            && !(hip == Vec3::ZERO && self.applied_hip != Vec3::ZERO);
        if unchanged && hip_unchanged && !(feet == 0 && self.applied_torque != Vec3::ZERO) {
            return;
        }
        let Some(p) = self.pelvis else { return };
        let n = feet.count_ones().max(1) as f32;
        let rb = &mut world.bodies[bodies[p].body];
        rb.reset_torques(false);
        rb.add_torque(tau + hip, false);
        for (i, &f) in self.feet.iter().enumerate() {
            let rb = &mut world.bodies[bodies[f].body];
            rb.reset_torques(false);
            if feet & (1 << i) != 0 {
                rb.add_torque(-tau / n, false);
            }
        }
        if hip != Vec3::ZERO || self.applied_hip != Vec3::ZERO {
            let k = self.thighs.iter().flatten().count().max(1) as f32;
            for &t in self.thighs.iter().flatten() {
                let rb = &mut world.bodies[bodies[t].body];
                rb.reset_torques(false);
                rb.add_torque(-hip / k, false);
            }
        }
        self.applied_torque = tau;
        self.applied_feet = feet;
        self.applied_hip = hip;
    }

    /// The hip strategy's torque on the pelvis (zero when off or without thighs).
    fn hip_for(
        &self,
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        com: Vec3,
        vcom: Vec3,
        grounded: u32,
    ) -> Vec3 {
        let b = &self.built;
        if b.hip_kp <= 0.0 || self.thighs.iter().all(Option::is_none) {
            return Vec3::ZERO;
        }
        let Some(support) = hip::SupportBox::of(world, bodies, &self.feet, grounded) else {
            return Vec3::ZERO;
        };
        let h = (com.y - support.ground_y()).max(0.3 * self.length_unit);
        let cp = hip::capture_point(com, vcom, h, self.gravity);
        hip::hip_torque(support.outside(cp), b.hip_kp, b.hip_max_torque)
    }

    /// tau = -(kp * lean + kd * lean_rate) of the centre of mass over the grounded feet, capped.
    fn torque_for(
        &self,
        world: &PhysicsWorld,
        bodies: &[BodyRec],
        com: Vec3,
        vcom: Vec3,
        grounded: u32,
        unit: f32,
    ) -> Vec3 {
        let mut support = Vec3::ZERO;
        for (i, &f) in self.feet.iter().enumerate() {
            if grounded & (1 << i) != 0 {
                support += world.bodies[bodies[f].body].center_of_mass();
            }
        }
        support /= grounded.count_ones() as f32;
        let h = (com.y - support.y).max(0.3 * unit);
        let d = com - support;
        // Lean about X from a +Z offset, about Z from a -X offset (right-handed, Y up).
        let lean = Vec3::new(d.z.atan2(h), 0.0, -d.x.atan2(h));
        let rate = Vec3::new(vcom.z / h, 0.0, -vcom.x / h);
        let b = &self.built;
        let tau = -(lean * b.ankle_kp as f32 + rate * b.ankle_kd as f32);
        hip::capped(tau, b.ankle_max_torque as f32)
    }
}
