//! The one table of the physics schema: every key the tool owns, with its path, type, unit,
//! range, default and help text. Parsing takes numeric defaults and ranges from it, `edit
//! --set` checks keys against it, the inspector shows its help as tooltips, and the README's
//! schema tables are rendered from it (a test keeps them equal).

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
    pub section: Section,
    /// Path inside the section (`radius`, `offset.translation`, `limit_min_deg`).
    pub key: &'static str,
    /// Type, unit and range as the README states them.
    pub ty: &'static str,
    /// The default as the README states it.
    pub default: &'static str,
    pub help: &'static str,
    pub num: Option<NumSpec>,
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

const fn f(
    section: Section,
    key: &'static str,
    ty: &'static str,
    default: &'static str,
    help: &'static str,
    num: Option<NumSpec>,
) -> Field {
    Field {
        section,
        key,
        ty,
        default,
        help,
        num,
    }
}

use Section::*;

/// Every key, in README order.
pub const FIELDS: &[Field] = &[
    f(Bone, "collider", "`\"capsule\"`, `\"sphere\"`, `\"box\"`, `\"none\"`", "no collider", "collision shape of the bone's rigid body", None),
    f(Bone, "radius", "number, m, > 0", "0.05", "capsule and sphere radius", num(0.05, 0.0, INF, true)),
    f(Bone, "half_height", "number, m, >= 0", "0.1", "half length of the capsule's cylinder part (caps excluded)", num(0.1, 0.0, INF, false)),
    f(Bone, "half_extents", "[x, y, z], m, each > 0", "[0.1, 0.1, 0.1]", "box half sizes, in the collider's frame", None),
    f(Bone, "offset.translation", "[x, y, z], m, bone space", "halfway from the bone's origin to its first child", "collider centre", None),
    f(Bone, "offset.rotation", "[x, y, z, w] quaternion, bone space", "rotation taking +Y onto the direction to the first child", "collider orientation; a capsule's long axis is its local +Y", None),
    f(Bone, "mass", "number, kg, > 0", "1.0", "body mass", num(1.0, 0.0, INF, true)),
    f(Bone, "collision_group", "string", "`\"default\"`", "the group this body belongs to", None),
    f(Bone, "collision_mask", "comma-separated group names, or `\"all\"`", "`\"all\"`", "groups it collides with; `world` is the ground", None),
    f(Bone, "constraint", "object, see below", "no constraint", "joint to the parent bone", None),
    f(Bone, "drive", "object, see below", "defaults below whenever there is a constraint", "PD motor of the joint", None),
    f(Constraint, "type", "`\"ball_socket\"` or `\"hinge\"`", "required", "joint type", None),
    f(Constraint, "parent_bone", "string (bone name or `node<index>`)", "nearest ancestor bone with a collider (warning)", "the body this bone is joined to", None),
    f(Constraint, "swing_limit_deg", "number, deg, 0..180; or `{\"pos_y\", \"neg_y\", \"pos_z\", \"neg_z\"}`, deg, each 0..175", "180", "ball socket: a number is a circular cone of that half-angle around the primary axis; the object gives the largest tilt of the primary axis away from its rest direction toward +Y, -Y, +Z and -Z of the joint frame (boundary below)", num(180.0, 0.0, 180.0, false)),
    f(Constraint, "twist_limit_deg", "number, deg, 0..180; or `[min, max]`, deg, each -180..180, min <= max", "180", "ball socket: rotation about the primary axis allowed, ± the number or from min to max (right-handed, rest = 0)", num(180.0, 0.0, 180.0, false)),
    f(Constraint, "swing_y_axis", "[x, y, z], bone space", "bone-space +Z made perpendicular to the primary axis (+X when +Z is within 1° of it)", "ball socket: the joint frame's Y axis, made perpendicular to the primary axis; an error when within 1° of it", None),
    f(Constraint, "hinge_axis", "[x, y, z], bone space, non-zero", "[0, 0, 1]", "hinge: rotation axis", None),
    f(Constraint, "limit_min_deg", "number, deg, -180..180", "-180", "hinge: lowest angle (right-handed about the axis)", num(-180.0, -180.0, 180.0, false)),
    f(Constraint, "limit_max_deg", "number, deg, -180..180, >= min", "180", "hinge: highest angle", num(180.0, -180.0, 180.0, false)),
    f(Drive, "stiffness", "N*m/rad, >= 0", "50", "pull toward the target per radian of error", num(50.0, 0.0, INF, false)),
    f(Drive, "damping", "N*m*s/rad, >= 0", "5", "resistance per rad/s of velocity error", num(5.0, 0.0, INF, false)),
    f(Drive, "max_torque", "N*m, >= 0", "200", "the largest torque the drive applies", num(200.0, 0.0, INF, false)),
    f(Drive, "follow_strength", "multiplier, >= 0", "1", "stiffness, damping and max_torque are multiplied by it while the joint follows an animation clip (a per-joint strength profile, as Unreal's physical-animation strength); 0 leaves the joint limp while a clip plays", num(1.0, 0.0, INF, false)),
    f(Balance, "enabled", "bool", "true", "active balance on or off", None),
    f(Balance, "torso_bone", "bone name", "by role; `\"pelvis\"` when no role resolves", "the bone held upright toward world vertical", None),
    f(Balance, "pelvis_bone", "bone name", "by role; `\"pelvis\"` when no role resolves", "its height defines \"fell\"", None),
    f(Balance, "foot_bones", "comma-separated bone names", "by role; `\"foot_l,foot_r\"` when no role resolves", "support feet for the ankle strategy", None),
    f(Balance, "upright_kp", "N*m/rad, >= 0", "3000", "upright PD stiffness", num(3000.0, 0.0, INF, false)),
    f(Balance, "upright_kd", "N*m*s/rad, >= 0", "300", "upright PD damping", num(300.0, 0.0, INF, false)),
    f(Balance, "upright_max_torque", "N*m, >= 0", "1000", "upright torque limit", num(1000.0, 0.0, INF, false)),
    f(Balance, "ankle_kp", "N*m/rad, >= 0", "300", "ankle counter-torque per radian of centre-of-mass lean over the grounded feet", num(300.0, 0.0, INF, false)),
    f(Balance, "ankle_kd", "N*m*s/rad, >= 0", "60", "ankle counter-torque per rad/s of lean", num(60.0, 0.0, INF, false)),
    f(Balance, "ankle_max_torque", "N*m, >= 0", "150", "ankle torque limit", num(150.0, 0.0, INF, false)),
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
    let (s, key) = match path.split_once('.') {
        Some(("constraint", k)) => (Constraint, k),
        Some(("drive", k)) => (Drive, k),
        Some(("balance", k)) => (Balance, k),
        _ => (Bone, path),
    };
    section(s).find(|f| f.key == key)
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
    let mut out = String::from("| key | type, unit | default | meaning |\n|---|---|---|---|\n");
    for f in section(s) {
        out += &format!("| `{}` | {} | {} | {} |\n", f.key, f.ty, f.default, f.help);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
