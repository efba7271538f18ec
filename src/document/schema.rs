//! The physics schema stored in glTF `extras`, as typed values with their defaults.
//!
//! Units and frames are in the names and stay as the file stores them (degrees, metres,
//! kilograms, bone space); the simulation converts at its own boundary.

use super::fields::Key;
use serde::Serialize;

/// Box half extents when `half_extents` is missing (m): the table's default, on every axis.
pub const DEFAULT_HALF_EXTENTS_M: [f64; 3] = [0.1, 0.1, 0.1];
/// The hinge axis when `hinge_axis` is missing (bone space).
pub const DEFAULT_HINGE_AXIS: [f64; 3] = [0.0, 0.0, 1.0];
/// The collision group when `collision_group` is missing.
pub const DEFAULT_COLLISION_GROUP: &str = "default";
/// The collision mask when `collision_mask` is missing: `all` collides with every group.
pub const DEFAULT_COLLISION_MASK: &str = "all";

/// Keys of `extras.physics` on a node (top level), from the field table. Catches typos.
pub fn physics_keys() -> Vec<&'static str> {
    super::fields::keys(super::fields::Section::Bone)
}
/// Keys of `extras.physics.constraint`.
pub fn constraint_keys() -> Vec<&'static str> {
    super::fields::keys(super::fields::Section::Constraint)
}
/// Keys of `extras.physics.drive`.
pub fn drive_keys() -> Vec<&'static str> {
    super::fields::keys(super::fields::Section::Drive)
}
/// Keys of `extras.physics.offset`.
pub fn offset_keys() -> Vec<&'static str> {
    super::fields::sub_keys(
        super::fields::Section::Bone,
        super::write::top(Key::OffsetTranslation),
    )
}
/// Keys of the document-level `extras.physics.balance` on the glTF root.
pub fn balance_keys() -> Vec<&'static str> {
    super::fields::keys(super::fields::Section::Balance)
}
/// Keys of the root's `extras.physics` beside `balance`.
pub fn root_keys() -> Vec<&'static str> {
    super::fields::keys(super::fields::Section::Root)
}

/// The collider's shape and sizes (metres).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ColliderShape {
    Capsule { radius: f64, half_height: f64 },
    Sphere { radius: f64 },
    Box { half_extents: [f64; 3] },
}

impl ColliderShape {
    /// The file's name for this shape.
    pub fn type_name(&self) -> &'static str {
        match self {
            ColliderShape::Capsule { .. } => "capsule",
            ColliderShape::Sphere { .. } => "sphere",
            ColliderShape::Box { .. } => "box",
        }
    }
}

/// Where the collider sits in bone space. A `None` part takes the documented default:
/// centred halfway to the bone's child, its local +Y along the bone (see [`crate::document::placement`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ColliderOffset {
    pub translation: Option<[f64; 3]>,
    /// Quaternion x, y, z, w.
    pub rotation: Option<[f64; 4]>,
}

/// A collider on a bone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Collider {
    #[serde(flatten)]
    pub shape: ColliderShape,
    pub offset: ColliderOffset,
}

/// Largest allowed swing extent (deg): a cone that reaches the antipode has no direction.
pub const MAX_SWING_EXTENT_DEG: f64 = 175.0;

/// The swing limit of a ball socket (degrees): the largest tilt of the bone's primary axis
/// away from its rest direction toward +Y, -Y, +Z and -Z of the joint frame. A number in the
/// file is a circular cone: all four equal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SwingExtentsDeg {
    pub pos_y: f64,
    pub neg_y: f64,
    pub pos_z: f64,
    pub neg_z: f64,
}

impl SwingExtentsDeg {
    /// A circular cone of half-angle `deg`.
    pub fn circular(deg: f64) -> Self {
        Self {
            pos_y: deg,
            neg_y: deg,
            pos_z: deg,
            neg_z: deg,
        }
    }

    /// The half-angle when all four extents are equal.
    pub fn as_circular(&self) -> Option<f64> {
        let e = self.pos_y;
        (self.neg_y == e && self.pos_z == e && self.neg_z == e).then_some(e)
    }

    /// The extents in file order: pos_y, neg_y, pos_z, neg_z.
    pub fn to_array(&self) -> [f64; 4] {
        [self.pos_y, self.neg_y, self.pos_z, self.neg_z]
    }

    pub fn from_array(a: [f64; 4]) -> Self {
        Self {
            pos_y: a[0],
            neg_y: a[1],
            pos_z: a[2],
            neg_z: a[3],
        }
    }

    /// The largest extent.
    pub fn max(&self) -> f64 {
        self.to_array().into_iter().fold(0.0, f64::max)
    }
}

/// The twist range of a ball socket (degrees, about the primary axis; rest is 0). A number
/// `t` in the file is the symmetric range [-t, t].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TwistRangeDeg {
    pub min_deg: f64,
    pub max_deg: f64,
}

impl TwistRangeDeg {
    pub fn symmetric(deg: f64) -> Self {
        Self {
            min_deg: -deg,
            max_deg: deg,
        }
    }

    /// The half range when the range is symmetric about 0.
    pub fn as_symmetric(&self) -> Option<f64> {
        (self.min_deg == -self.max_deg && self.max_deg >= 0.0).then_some(self.max_deg)
    }
}

/// The joint type and its limits (degrees, bone space).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConstraintKind {
    BallSocket {
        swing_limit_deg: SwingExtentsDeg,
        twist_limit_deg: TwistRangeDeg,
        /// The joint frame's Y axis in bone space (made perpendicular to the primary axis);
        /// None: the documented default (see [`crate::joint::frame`]).
        swing_y_axis: Option<[f64; 3]>,
    },
    Hinge {
        hinge_axis: [f64; 3],
        limit_min_deg: f64,
        limit_max_deg: f64,
    },
}

impl ConstraintKind {
    pub fn type_name(&self) -> &'static str {
        match self {
            ConstraintKind::BallSocket { .. } => "ball_socket",
            ConstraintKind::Hinge { .. } => "hinge",
        }
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// A constraint from this bone to `parent_bone`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constraint {
    #[serde(flatten)]
    pub kind: ConstraintKind,
    /// The parent bone's name; when the file omits it, the nearest ancestor bone with a collider.
    pub parent_bone: Option<String>,
    /// True when `parent_bone` came from the default rather than the file.
    #[serde(skip)]
    pub parent_defaulted: bool,
    /// N*m; 0: no joint friction (see `Key::FrictionTorque`).
    #[serde(skip_serializing_if = "is_zero")]
    pub friction_torque_nm: f64,
}

/// PD drive gains of a joint: tau = stiffness * (target - angle) - damping * omega.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Drive {
    /// N*m/rad
    pub stiffness: f64,
    /// N*m*s/rad
    pub damping: f64,
    /// N*m
    pub max_torque: f64,
    /// Multiplier on stiffness and damping while following an animation clip (the per-joint
    /// strength profile of a powered ragdoll), >= 0.
    pub follow_strength: f64,
}

impl Default for Drive {
    /// The field table's defaults.
    fn default() -> Self {
        Self {
            stiffness: Key::Stiffness.default_num(),
            damping: Key::Damping.default_num(),
            max_torque: Key::MaxTorque.default_num(),
            follow_strength: Key::FollowStrength.default_num(),
        }
    }
}

/// Everything `extras.physics` says about one bone, defaults filled in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BonePhysics {
    pub collider: Option<Collider>,
    /// kg
    pub mass: f64,
    pub constraint: Option<Constraint>,
    /// Present whenever there is a constraint (defaults when the file has none).
    pub drive: Option<Drive>,
    pub collision_group: String,
    /// Comma-separated group names, or `all`.
    pub collision_mask: String,
    /// Per-body material and damping (each None: the documented default).
    pub material: BodyMaterial,
    /// Explicit collision pairs stated on this bone, in file order.
    pub collision_pairs: Vec<CollisionPair>,
}

/// Per-body material and damping. Every part is None when the file does not set it: the
/// simulation then behaves as before these keys existed (the global friction, Rapier's
/// defaults: no restitution, no damping, no cap, no CCD).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct BodyMaterial {
    pub friction: Option<f64>,
    pub restitution: Option<f64>,
    /// 1/s
    pub linear_damping: Option<f64>,
    /// 1/s
    pub angular_damping: Option<f64>,
    /// rad/s
    pub max_angular_speed: Option<f64>,
    /// kg*m^2 (world units): a floor on each principal moment of inertia, above the
    /// simulation's own.
    pub min_inertia_kg_m2: Option<f64>,
    pub ccd: Option<bool>,
}

impl BodyMaterial {
    /// True when the body has neither angular nor linear damping.
    pub fn is_undamped(&self) -> bool {
        self.angular_damping_or_default() <= 0.0 && self.linear_damping_or_default() <= 0.0
    }

    pub fn restitution_or_default(&self) -> f64 {
        self.restitution.unwrap_or(Key::Restitution.default_num())
    }
    pub fn linear_damping_or_default(&self) -> f64 {
        self.linear_damping
            .unwrap_or(Key::LinearDamping.default_num())
    }
    pub fn angular_damping_or_default(&self) -> f64 {
        self.angular_damping
            .unwrap_or(Key::AngularDamping.default_num())
    }
}

/// One explicit collision pair, stated on a bone: with `other`, collide (true) or not (false).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollisionPair {
    pub other: String,
    pub collide: bool,
}

impl Default for BonePhysics {
    fn default() -> Self {
        Self {
            collider: None,
            mass: Key::Mass.default_num(),
            constraint: None,
            drive: None,
            collision_group: DEFAULT_COLLISION_GROUP.into(),
            collision_mask: DEFAULT_COLLISION_MASK.into(),
            material: BodyMaterial::default(),
            collision_pairs: Vec::new(),
        }
    }
}

/// Document-level balance settings, in the glTF root's `extras.physics.balance`. A bone name
/// the file does not set is None: the simulation then finds it (see the field table), the
/// same whether the file has no balance object or one without that key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BalanceSettings {
    pub enabled: bool,
    /// Scale of the upright controller (0..1): 0 balances through joints and feet alone.
    pub assist: f64,
    /// The bone held upright.
    pub torso_bone: Option<String>,
    /// The bone whose height defines "fell".
    pub pelvis_bone: Option<String>,
    /// The support feet.
    pub foot_bones: Option<Vec<String>>,
    /// Upright PD on the torso bone toward world vertical: N*m/rad, N*m*s/rad, N*m.
    pub upright_kp: f64,
    pub upright_kd: f64,
    pub upright_max_torque: f64,
    /// Ankle counter-torque from the lean of the centre of mass over the grounded feet:
    /// N*m/rad, N*m*s/rad, N*m.
    pub ankle_kp: f64,
    pub ankle_kd: f64,
    pub ankle_max_torque: f64,
    /// Hip strategy: trunk torque about the hips per metre of capture-point error outside
    /// the grounded feet (N*m/m; 0 is off) and its limit (N*m).
    pub hip_kp: f64,
    pub hip_max_torque: f64,
    /// Stepping strategy: where the swing foot lands, as a multiple of the capture point's
    /// distance from the centre of mass (0 is off), and the trigger margin (a share of the
    /// leg length the capture point lies outside the grounded feet), and the largest push a
    /// step is sized for (a speed change of the centre of mass, m/s; 0 is no limit).
    pub step_gain: f64,
    pub step_margin: f64,
    pub step_catch_dv: f64,
    /// Stepping strategy: where a step lands across the push, from the foot's offset when
    /// it lifts (0) to its rest offset from the centre of mass (1).
    pub step_rest_stance: f64,
    /// Knock-out: a horizontal speed change of the centre of mass past this (m/s; 0 never)
    /// lets the balance go and the drives go limp.
    pub knockout_dv: f64,
}

impl Default for BalanceSettings {
    /// The field table's defaults; bone names left to the simulation to find.
    fn default() -> Self {
        Self {
            enabled: true,
            assist: Key::Assist.default_num(),
            torso_bone: None,
            pelvis_bone: None,
            foot_bones: None,
            upright_kp: Key::UprightKp.default_num(),
            upright_kd: Key::UprightKd.default_num(),
            upright_max_torque: Key::UprightMaxTorque.default_num(),
            ankle_kp: Key::AnkleKp.default_num(),
            ankle_kd: Key::AnkleKd.default_num(),
            ankle_max_torque: Key::AnkleMaxTorque.default_num(),
            hip_kp: Key::HipKp.default_num(),
            hip_max_torque: Key::HipMaxTorque.default_num(),
            step_gain: Key::StepGain.default_num(),
            step_margin: Key::StepMargin.default_num(),
            step_catch_dv: Key::StepCatchDv.default_num(),
            step_rest_stance: Key::StepRestStance.default_num(),
            knockout_dv: Key::KnockoutDv.default_num(),
        }
    }
}

/// The default balance bone names, tried when the file names none and such a bone exists
/// (else the bones are found by role).
pub const DEFAULT_TORSO_BONE: &str = "pelvis";
pub const DEFAULT_PELVIS_BONE: &str = "pelvis";
pub const DEFAULT_FOOT_BONES: [&str; 2] = ["foot_l", "foot_r"];

/// Splits a comma-separated names list (collision masks, foot bones).
pub fn split_names(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}
