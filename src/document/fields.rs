//! The one table of the physics schema: every key the tool owns, with its path, type, unit,
//! range, default, origin (the seed's key or one this project added) and help text. The codec
//! (`parse` reads, `write` writes) takes keys, defaults and ranges from it, `edit --set` checks
//! keys against it, the inspector shows its help as tooltips, and the README's schema tables
//! are rendered from it (a test keeps them equal). Code elsewhere names a key by its [`Key`],
//! never by a string (a test scans the source).

/// Where a key lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `nodes[i].extras.physics` (top level, `offset.*`).
    Bone,
    /// `nodes[i].extras.physics.constraint`.
    Constraint,
    /// `nodes[i].extras.physics.drive`.
    Drive,
    /// The root's `extras.physics.balance`.
    Balance,
    /// The root's `extras.physics` (beside `balance`).
    Root,
}

/// Whether a key is the seed's (its loader reads it, with the seed's type and meaning) or one
/// this project added (a loader that knows only the seed ignores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Seed,
    Added,
}

/// A numeric key's default and allowed range (inclusive unless `exclusive_min`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumSpec {
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub exclusive_min: bool,
}

/// One schema key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub id: Key,
    pub section: Section,
    /// Path inside the section (`radius`, `offset.translation`, `limit_min_deg`).
    pub key: &'static str,
    /// Type, unit and range as the README states them.
    pub ty: &'static str,
    /// The default as the README states it.
    pub default: &'static str,
    pub help: &'static str,
    pub num: Option<NumSpec>,
    pub origin: Origin,
}

const fn num(default: f64, min: f64, max: f64, exclusive_min: bool) -> Option<NumSpec> {
    Some(NumSpec {
        default,
        min,
        max,
        exclusive_min,
    })
}

const INF: f64 = f64::INFINITY;

/// The text columns of a row: type and unit, default, help.
type Text = (&'static str, &'static str, &'static str);

const fn row(
    (id, origin): (Key, Origin),
    section: Section,
    key: &'static str,
    (ty, default, help): Text,
    num: Option<NumSpec>,
) -> Field {
    Field {
        id,
        section,
        key,
        ty,
        default,
        help,
        num,
        origin,
    }
}

const fn f(
    section: Section,
    (id, key): (Key, &'static str),
    ty: &'static str,
    default: &'static str,
    help: &'static str,
    num: Option<NumSpec>,
) -> Field {
    row((id, Origin::Seed), section, key, (ty, default, help), num)
}

/// A row of a key this project added beyond the seed.
const fn added(
    section: Section,
    (id, key): (Key, &'static str),
    ty: &'static str,
    default: &'static str,
    help: &'static str,
    num: Option<NumSpec>,
) -> Field {
    row((id, Origin::Added), section, key, (ty, default, help), num)
}

/// Every schema key, as code names it. [`Key::path`] is its dotted path as edits spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Collider,
    Radius,
    HalfHeight,
    HalfExtents,
    OffsetTranslation,
    OffsetRotation,
    Mass,
    CollisionGroup,
    CollisionMask,
    Friction,
    Restitution,
    LinearDamping,
    AngularDamping,
    MaxAngularSpeed,
    MinInertia,
    Ccd,
    CollisionPairs,
    Constraint,
    Drive,
    ConstraintType,
    ParentBone,
    SwingLimit,
    SwingExtents,
    TwistLimit,
    TwistRange,
    SwingYAxis,
    HingeAxis,
    LimitMin,
    LimitMax,
    FrictionTorque,
    Stiffness,
    Damping,
    MaxTorque,
    FollowStrength,
    BalanceEnabled,
    Assist,
    TorsoBone,
    PelvisBone,
    FootBones,
    UprightKp,
    UprightKd,
    UprightMaxTorque,
    AnkleKp,
    AnkleKd,
    AnkleMaxTorque,
    HipKp,
    HipMaxTorque,
    StepGain,
    StepMargin,
    StepCatchDv,
    StepRestStance,
    KnockoutDv,
    SchemaVersion,
    AnatomyKind,
    AnatomyRoles,
}

impl Key {
    /// The table's row of this key.
    pub fn field(self) -> &'static Field {
        FIELDS
            .iter()
            .find(|f| f.id == self)
            .expect("every Key has a row in FIELDS (tested)")
    }

    /// The key's name inside its section (`limit_min_deg`, `offset.translation`).
    pub fn name(self) -> &'static str {
        self.field().key
    }

    /// The dotted path as edits spell it (`constraint.limit_min_deg`, `balance.ankle_kp`,
    /// `radius`, `schema_version` on the document).
    pub fn path(self) -> &'static str {
        PATHS
            .iter()
            .find(|(k, _)| *k == self)
            .map(|(_, p)| *p)
            .expect("every Key has a path (tested)")
    }

    /// The numeric default and range (a bug, caught by the tests, when the key is not a number).
    pub fn spec(self) -> NumSpec {
        self.field().num.unwrap_or(NumSpec {
            default: 0.0,
            min: -INF,
            max: INF,
            exclusive_min: false,
        })
    }

    /// The numeric default.
    pub fn default_num(self) -> f64 {
        self.spec().default
    }

    /// The key whose path is `path`.
    pub fn from_path(path: &str) -> Option<Key> {
        PATHS.iter().find(|(_, p)| *p == path).map(|(k, _)| *k)
    }
}

/// The schema version this build writes into the root's `extras.physics.schema_version`.
/// Version 1 (no key) put asymmetric limits as objects inside the seed's keys.
pub const SCHEMA_VERSION: u32 = 2;

use Key as K;
use Section::*;

/// Every key, in README order.
pub const FIELDS: &[Field] = &[
    f(Bone, (K::Collider, "collider"), "`\"capsule\"`, `\"sphere\"`, `\"box\"`, `\"none\"`", "no collider", "collision shape of the bone's rigid body", None),
    f(Bone, (K::Radius, "radius"), "number, m, > 0", "0.05", "capsule and sphere radius", num(0.05, 0.0, INF, true)),
    f(Bone, (K::HalfHeight, "half_height"), "number, m, >= 0", "0.1", "half length of the capsule's cylinder part (caps excluded)", num(0.1, 0.0, INF, false)),
    added(Bone, (K::HalfExtents, "half_extents"), "[x, y, z], m, each > 0", "[0.1, 0.1, 0.1]", "box half sizes, in the collider's frame", None),
    added(Bone, (K::OffsetTranslation, "offset.translation"), "[x, y, z], m, bone space", "halfway from the bone's origin to its first child", "collider centre", None),
    added(Bone, (K::OffsetRotation, "offset.rotation"), "[x, y, z, w] quaternion, bone space", "rotation taking +Y onto the direction to the first child", "collider orientation; a capsule's long axis is its local +Y", None),
    f(Bone, (K::Mass, "mass"), "number, kg, > 0", "1.0", "body mass", num(1.0, 0.0, INF, true)),
    f(Bone, (K::CollisionGroup, "collision_group"), "string", "`\"default\"`", "the group this body belongs to", None),
    f(Bone, (K::CollisionMask, "collision_mask"), "comma-separated group names, or `\"all\"`", "`\"all\"`", "groups it collides with; `world` is the ground", None),
    added(Bone, (K::Friction, "friction"), "number, >= 0", "the simulation's friction (0.8)", "friction coefficient of the body's collider; a contact uses the mean of its two colliders' values", num(0.8, 0.0, INF, false)),
    added(Bone, (K::Restitution, "restitution"), "number, 0..1", "0", "bounciness of the body's collider; a contact uses the mean of its two colliders' values", num(0.0, 0.0, 1.0, false)),
    added(Bone, (K::LinearDamping, "linear_damping"), "number, 1/s, >= 0", "0", "linear velocity damping of the body (Rapier's: speed shrinks by 1/(1 + dt*damping) per step)", num(0.0, 0.0, INF, false)),
    added(Bone, (K::AngularDamping, "angular_damping"), "number, 1/s, >= 0", "0", "angular velocity damping of the body: a limb that spins forever settles with some", num(0.0, 0.0, INF, false)),
    added(Bone, (K::MaxAngularSpeed, "max_angular_speed"), "number, rad/s, > 0", "no cap", "the body's angular speed is clamped to this after every step", num(f64::MAX, 0.0, INF, true)),
    added(Bone, (K::MinInertia, "min_inertia_kg_m2"), "number, kg*m^2, >= 0", "0 (the simulation's own floor alone: 0.02 at 1.75 m and 70 kg, scaled with size and mass)", "each principal moment of inertia of the body (its shape's, at its mass) is raised to at least this; Stabilize raises a parent's, as Jolt's `RagdollSettings::Stabilize` does, to its children's sum, at most doubling its largest", num(0.0, 0.0, INF, false)),
    added(Bone, (K::Ccd, "ccd"), "bool", "false", "continuous collision detection for the body (fast, thin bodies that would pass through others)", None),
    added(Bone, (K::CollisionPairs, "collision_pairs"), "`{\"BONE\": bool}`, bone names", "none: groups and masks decide, jointed pairs do not collide", "explicit pairs on top of groups and masks: true makes this body and BONE collide (even when jointed or their groups say no), false keeps them apart; stated on either bone (a disagreement is a warning, false wins)", None),
    f(Bone, (K::Constraint, "constraint"), "object, see below", "no constraint", "joint to the parent bone", None),
    added(Bone, (K::Drive, "drive"), "object, see below", "defaults below whenever there is a constraint", "PD motor of the joint", None),
    f(Constraint, (K::ConstraintType, "type"), "`\"ball_socket\"` or `\"hinge\"`", "required", "joint type", None),
    f(Constraint, (K::ParentBone, "parent_bone"), "string (bone name or `node<index>`)", "nearest ancestor bone with a collider (warning)", "the body this bone is joined to", None),
    f(Constraint, (K::SwingLimit, "swing_limit_deg"), "number, deg, 0..180", "180", "ball socket: a circular cone of that half-angle around the primary axis. With `swing_extents_deg` it holds that limit's circular approximation for loaders that know only the seed: the largest of the four extents, so such a loader refuses no pose the exact limit allows", num(180.0, 0.0, 180.0, false)),
    added(Constraint, (K::SwingExtents, "swing_extents_deg"), "`{\"pos_y\", \"neg_y\", \"pos_z\", \"neg_z\"}`, deg, each 0..175", "all four `swing_limit_deg`", "ball socket: the exact (asymmetric) swing limit, preferred to `swing_limit_deg` when present: the largest tilt of the primary axis away from its rest direction toward +Y, -Y, +Z and -Z of the joint frame (boundary below)", None),
    f(Constraint, (K::TwistLimit, "twist_limit_deg"), "number, deg, 0..180", "180", "ball socket: rotation about the primary axis allowed, ± the number (right-handed, rest = 0). With `twist_range_deg` it holds that range's approximation for loaders that know only the seed: the larger magnitude of its two ends, so such a loader refuses no twist the exact range allows", num(180.0, 0.0, 180.0, false)),
    added(Constraint, (K::TwistRange, "twist_range_deg"), "`[min, max]`, deg, each -180..180, min <= max", "± `twist_limit_deg`", "ball socket: the exact (asymmetric) twist range, preferred to `twist_limit_deg` when present", None),
    added(Constraint, (K::SwingYAxis, "swing_y_axis"), "[x, y, z], bone space", "bone-space +Z made perpendicular to the primary axis (+X when +Z is within 1° of it)", "ball socket: the joint frame's Y axis, made perpendicular to the primary axis; an error when within 1° of it", None),
    f(Constraint, (K::HingeAxis, "hinge_axis"), "[x, y, z], bone space, non-zero", "[0, 0, 1]", "hinge: rotation axis", None),
    f(Constraint, (K::LimitMin, "limit_min_deg"), "number, deg, -180..180", "-180", "hinge: lowest angle (right-handed about the axis)", num(-180.0, -180.0, 180.0, false)),
    f(Constraint, (K::LimitMax, "limit_max_deg"), "number, deg, -180..180, >= min", "180", "hinge: highest angle", num(180.0, -180.0, 180.0, false)),
    added(Constraint, (K::FrictionTorque, "friction_torque_nm"), "number, N*m, >= 0", "0 (none)", "joint friction, as Jolt's `mMaxFrictionTorque`: while the joint's drive is off (a passive run, drives off), a torque up to this opposes the joint's relative rotation (per axis), so limbs stop creeping; a drive that acts owns the joint instead", num(0.0, 0.0, INF, false)),
    added(Drive, (K::Stiffness, "stiffness"), "N*m/rad, >= 0", "50", "pull toward the target per radian of error", num(50.0, 0.0, INF, false)),
    added(Drive, (K::Damping, "damping"), "N*m*s/rad, >= 0", "5", "resistance per rad/s of velocity error", num(5.0, 0.0, INF, false)),
    added(Drive, (K::MaxTorque, "max_torque"), "N*m, >= 0", "200", "the largest torque the drive applies", num(200.0, 0.0, INF, false)),
    added(Drive, (K::FollowStrength, "follow_strength"), "multiplier, >= 0", "1", "stiffness, damping and max_torque are multiplied by it while the joint follows an animation clip (a per-joint strength profile, as Unreal's physical-animation strength); 0 leaves the joint limp while a clip plays", num(1.0, 0.0, INF, false)),
    added(Balance, (K::BalanceEnabled, "enabled"), "bool", "true", "active balance on or off", None),
    added(Balance, (K::Assist, "assist"), "scale, 0..1", "1", "how much outside help balance gets: scales the upright controller's gains and torque limit (a torque from a world anchor, with no reaction on the ground); at 0 the character balances through its joints and feet alone", num(1.0, 0.0, 1.0, false)),
    added(Balance, (K::TorsoBone, "torso_bone"), "bone name", "`\"pelvis\"` when that bone has a body, else by role (each name on its own)", "the bone held upright toward world vertical", None),
    added(Balance, (K::PelvisBone, "pelvis_bone"), "bone name", "`\"pelvis\"` when that bone has a body, else by role (each name on its own)", "its height defines \"fell\"", None),
    added(Balance, (K::FootBones, "foot_bones"), "comma-separated bone names", "`\"foot_l,foot_r\"` when a `pelvis` bone has a body, else by role (each name on its own)", "support feet for the ankle strategy", None),
    added(Balance, (K::UprightKp, "upright_kp"), "N*m/rad, >= 0", "3000", "upright PD stiffness", num(3000.0, 0.0, INF, false)),
    added(Balance, (K::UprightKd, "upright_kd"), "N*m*s/rad, >= 0", "300", "upright PD damping", num(300.0, 0.0, INF, false)),
    added(Balance, (K::UprightMaxTorque, "upright_max_torque"), "N*m, >= 0", "1000", "upright torque limit", num(1000.0, 0.0, INF, false)),
    added(Balance, (K::AnkleKp, "ankle_kp"), "N*m/rad, >= 0", "300", "ankle counter-torque per radian of centre-of-mass lean over the grounded feet", num(300.0, 0.0, INF, false)),
    added(Balance, (K::AnkleKd, "ankle_kd"), "N*m*s/rad, >= 0", "60", "ankle counter-torque per rad/s of lean", num(60.0, 0.0, INF, false)),
    added(Balance, (K::AnkleMaxTorque, "ankle_max_torque"), "N*m, >= 0", "150", "ankle torque limit", num(150.0, 0.0, INF, false)),
    added(Balance, (K::HipKp, "hip_kp"), "N*m/m, >= 0", "0 (off)", "hip strategy: torque turning the trunk about the hips toward a fall, per metre the capture point (centre of mass + velocity / sqrt(g / height)) lies outside the grounded feet, with the reaction on the thighs (an internal torque, no outside help); `tune` sets it", num(0.0, 0.0, INF, false)),
    added(Balance, (K::HipMaxTorque, "hip_max_torque"), "N*m, >= 0", "200", "hip strategy torque limit", num(200.0, 0.0, INF, false)),
    added(Balance, (K::StepGain, "step_gain"), ">= 0", "0 (off)", "stepping strategy: when the capture point leaves the grounded feet, the foot that reaches it best swings (hip and knee drive targets, internal torques only) and lands this many times the capture point's distance from the centre of mass out (1: on the capture point); `tune` sets it", num(0.0, 0.0, INF, false)),
    added(Balance, (K::StepMargin, "step_margin"), "share of leg length, >= 0", "0.05", "stepping strategy trigger: how far the capture point must lie outside the grounded feet, per leg length, before a step", num(0.05, 0.0, INF, false)),
    added(Balance, (K::StepCatchDv, "step_catch_dv"), "m/s, >= 0", "0 (no limit)", "stepping strategy: the largest push a step is sized for, as a speed change of the centre of mass: a step is no longer than one from where its foot lifts to `step_gain` times that push's capture-point distance (Δv·sqrt(height / g)) out from the centre of mass along the push (0: no limit), so small pushes are caught by stepping and hard ones fell the character; `tune` sets it between the survive and fall goals", num(0.0, 0.0, INF, false)),
    added(Balance, (K::StepRestStance, "step_rest_stance"), "share, 0 to 1", "0", "stepping strategy: where a step lands across the push, between the foot's offset from the centre of mass when it lifts (0: a stagger stays a stagger) and its offset in the rest pose, turned with the body (1: each step squares the stance up); `tune` tries both", num(0.0, 0.0, 1.0, false)),
    added(Balance, (K::KnockoutDv, "knockout_dv"), "m/s, >= 0", "0 (never)", "knock-out: a sudden change of the whole body's horizontal speed past this (a push, a hit; read against the speed it kept over the last 0.05 s, so standing and settling read under 0.3 m/s on every zoo character) knocks the character out: its balance lets go and every drive goes limp until the run is reset, so it takes a shove and falls when hit hard (0: never); `tune` sets it between the survive and fall goals", num(0.0, 0.0, INF, false)),
    added(Root, (K::SchemaVersion, "schema_version"), "integer", "1 (a file written before the key existed)", "the physics schema version the file was written with; this build writes 2 and reads 1 and 2 (version 1 put asymmetric limits as objects inside the seed's keys; a save rewrites them)", num(1.0, 1.0, INF, false)),
    added(Root, (K::AnatomyKind, "anatomy.kind"), "`\"biped\"`, `\"quadruped\"`, `\"multi_legged\"`, `\"legless\"`, `\"winged\"`, `\"other\"`", "detected", "the character's kind as a person set it (the Anatomy panel, `generate --kind`); the generator builds the matching body plan (biped: humanoid; the creatures but the quadruped: other)", None),
    added(Root, (K::AnatomyRoles, "anatomy.roles"), "object, bone name: `\"ROLE\"` or `\"ROLE:left\"`/`\"ROLE:right\"`", "detected", "bone roles a person assigned (the Anatomy panel, `generate --role`), the strongest evidence (above a VRM map); ROLE is pelvis, spine, chest, neck, head, clavicle, upper_arm, forearm, hand, finger, girdle, thigh, shin, foot, toe, tail, twist, helper or other; a paired role without a side keeps the detected side; generating again keeps them", None),
];

/// The dotted path of every key as edits spell it.
const PATHS: &[(Key, &str)] = &[
    (K::Collider, "collider"),
    (K::Radius, "radius"),
    (K::HalfHeight, "half_height"),
    (K::HalfExtents, "half_extents"),
    (K::OffsetTranslation, "offset.translation"),
    (K::OffsetRotation, "offset.rotation"),
    (K::Mass, "mass"),
    (K::CollisionGroup, "collision_group"),
    (K::CollisionMask, "collision_mask"),
    (K::Friction, "friction"),
    (K::Restitution, "restitution"),
    (K::LinearDamping, "linear_damping"),
    (K::AngularDamping, "angular_damping"),
    (K::MaxAngularSpeed, "max_angular_speed"),
    (K::MinInertia, "min_inertia_kg_m2"),
    (K::Ccd, "ccd"),
    (K::CollisionPairs, "collision_pairs"),
    (K::Constraint, "constraint"),
    (K::Drive, "drive"),
    (K::ConstraintType, "constraint.type"),
    (K::ParentBone, "constraint.parent_bone"),
    (K::SwingLimit, "constraint.swing_limit_deg"),
    (K::SwingExtents, "constraint.swing_extents_deg"),
    (K::TwistLimit, "constraint.twist_limit_deg"),
    (K::TwistRange, "constraint.twist_range_deg"),
    (K::SwingYAxis, "constraint.swing_y_axis"),
    (K::HingeAxis, "constraint.hinge_axis"),
    (K::LimitMin, "constraint.limit_min_deg"),
    (K::LimitMax, "constraint.limit_max_deg"),
    (K::FrictionTorque, "constraint.friction_torque_nm"),
    (K::Stiffness, "drive.stiffness"),
    (K::Damping, "drive.damping"),
    (K::MaxTorque, "drive.max_torque"),
    (K::FollowStrength, "drive.follow_strength"),
    (K::BalanceEnabled, "balance.enabled"),
    (K::Assist, "balance.assist"),
    (K::TorsoBone, "balance.torso_bone"),
    (K::PelvisBone, "balance.pelvis_bone"),
    (K::FootBones, "balance.foot_bones"),
    (K::UprightKp, "balance.upright_kp"),
    (K::UprightKd, "balance.upright_kd"),
    (K::UprightMaxTorque, "balance.upright_max_torque"),
    (K::AnkleKp, "balance.ankle_kp"),
    (K::AnkleKd, "balance.ankle_kd"),
    (K::AnkleMaxTorque, "balance.ankle_max_torque"),
    (K::HipKp, "balance.hip_kp"),
    (K::HipMaxTorque, "balance.hip_max_torque"),
    (K::StepGain, "balance.step_gain"),
    (K::StepMargin, "balance.step_margin"),
    (K::StepCatchDv, "balance.step_catch_dv"),
    (K::StepRestStance, "balance.step_rest_stance"),
    (K::KnockoutDv, "balance.knockout_dv"),
    (K::SchemaVersion, "schema_version"),
    (K::AnatomyKind, "anatomy.kind"),
    (K::AnatomyRoles, "anatomy.roles"),
];

/// The fields of a section.
pub fn section(s: Section) -> impl Iterator<Item = &'static Field> {
    FIELDS.iter().filter(move |f| f.section == s)
}

/// The keys directly inside a section's object (first path component), in table order,
/// without duplicates (`offset.translation` and `offset.rotation` give `offset`).
pub fn keys(s: Section) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for f in section(s) {
        let head = f.key.split('.').next().unwrap_or(f.key);
        if !out.contains(&head) {
            out.push(head);
        }
    }
    out
}

/// The keys under `prefix.` in a section (`offset` gives `translation`, `rotation`).
pub fn sub_keys(s: Section, prefix: &str) -> Vec<&'static str> {
    section(s)
        .filter_map(|f| f.key.strip_prefix(prefix)?.strip_prefix('.'))
        .collect()
}

/// A field by its path as edits spell it (`radius`, `constraint.limit_min_deg`,
/// `drive.stiffness`, `balance.ankle_kp`).
pub fn find(path: &str) -> Option<&'static Field> {
    Key::from_path(path).map(Key::field)
}

/// The help text of a path, for tooltips (empty when the path is not a schema key).
pub fn help(path: &str) -> &'static str {
    find(path).map_or("", |f| f.help)
}

/// The numeric spec of a key in a section; the table is fixed, so a missing spec is a bug
/// caught by the tests, and falls back to "any finite number, default 0".
pub fn num_spec(s: Section, key: &str) -> NumSpec {
    section(s)
        .find(|f| f.key == key)
        .and_then(|f| f.num)
        .unwrap_or(NumSpec {
            default: 0.0,
            min: -INF,
            max: INF,
            exclusive_min: false,
        })
}

/// The README table of a section (Markdown).
pub fn markdown_table(s: Section) -> String {
    let mut out =
        String::from("| key | from | type, unit | default | meaning |\n|---|---|---|---|---|\n");
    for f in section(s) {
        let origin = match f.origin {
            Origin::Seed => "seed",
            Origin::Added => "added",
        };
        out += &format!(
            "| `{}` | {origin} | {} | {} | {} |\n",
            f.key, f.ty, f.default, f.help
        );
    }
    out
}

/// The largest collider dimension (radius, half height, half extent) the solver takes, in
/// world units: past it the contact queries' squares overflow f32 (a capsule of radius 1e30
/// made parry's EPA index out of bounds: `validate` panicked).
pub const MAX_EXTENT: f64 = 1.0e6;

/// A number as a person reads it in a message: plain, or in scientific notation when very
/// large or small (a mass of 1e300 kg printed 301 digits).
pub fn readable(x: f64) -> String {
    match x.abs() {
        a if a == 0.0 || !a.is_finite() || (1e-4..1e6).contains(&a) => format!("{x}"),
        _ => scientific(x),
    }
}

/// `x` to six significant digits, what the file keeps of a computed number (a tuned gain,
/// an evened mass); rounded up with `up` (a floor that must hold what it was computed for).
pub fn six_digits(x: f64, up: bool) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let p = 10f64.powi(5 - x.abs().log10().floor() as i32);
    match up {
        true => (x * p).ceil() / p,
        false => (x * p).round() / p,
    }
}

/// `x` in scientific notation, four significant digits (`4.486e7`).
fn scientific(x: f64) -> String {
    format!("{x:.3e}")
}

/// `x` with `decimals` decimals as a report shows it, in scientific notation past a million
/// (a 1e20 character's height printed 21 digits) and below what the decimals show (a 1.5 cm
/// character's 45 mg printed as 0.00 kg).
pub fn fixed_or_readable(x: f64, decimals: usize) -> String {
    let shown = 0.5 * 10f64.powi(-(decimals as i32));
    match x.abs() {
        a if a < 1e6 && (a == 0.0 || a >= shown) => format!("{x:.decimals$}"),
        _ => scientific(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_number_never_rounds_to_zero_or_runs_to_twenty_digits() {
        assert_eq!(fixed_or_readable(76.91, 2), "76.91");
        assert_eq!(fixed_or_readable(0.0, 2), "0.00");
        assert_eq!(fixed_or_readable(4.486e-5, 2), "4.486e-5");
        assert_eq!(fixed_or_readable(4.486e7, 2), "4.486e7");
        assert_eq!(fixed_or_readable(0.015, 3), "0.015");
    }

    #[test]
    fn every_number_key_has_a_spec_with_its_default_inside() {
        for f in FIELDS.iter().filter(|f| {
            f.ty.starts_with("number") || f.ty.starts_with("N*m") || f.ty.starts_with("multiplier")
        }) {
            let n = f
                .num
                .unwrap_or_else(|| panic!("{} has no numeric spec", f.key));
            assert!(n.default >= n.min && n.default <= n.max, "{}", f.key);
        }
    }

    #[test]
    fn every_key_has_one_row_and_one_path_in_its_section() {
        for f in FIELDS {
            assert_eq!(f.id.field().key, f.key);
            let path = f.id.path();
            assert!(path.ends_with(f.key), "{path} vs {}", f.key);
            assert_eq!(Key::from_path(path), Some(f.id));
            assert_eq!(FIELDS.iter().filter(|g| g.id == f.id).count(), 1);
        }
        assert_eq!(PATHS.len(), FIELDS.len());
    }

    #[test]
    fn keys_are_derived_per_section() {
        assert_eq!(sub_keys(Bone, "offset"), vec!["translation", "rotation"]);
        assert!(keys(Bone).contains(&"offset") && !keys(Bone).contains(&"offset.rotation"));
        assert_eq!(
            find("drive.follow_strength").map(|f| f.section),
            Some(Drive)
        );
        assert!(find("constraint.bogus").is_none());
    }
}
