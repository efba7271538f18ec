//! What a person said about the anatomy, stored in the root's `extras.physics.anatomy`: the
//! character's kind and bone roles assigned by hand (the Anatomy panel, `generate --role` and
//! `--kind`). The anatomy layer takes them as the strongest evidence, above a VRM map, and
//! the generator never removes them, so generating again keeps them. The keys are read by
//! [`super::parse`] and written by [`super::write`]; this module holds the typed value.

use crate::anatomy::{Kind, Role, Side};

/// A role a person assigned to a bone: `ROLE` or `ROLE:left` / `ROLE:right` in the file.
/// Without a side, a paired role (a thigh, a hand) keeps the side the anatomy detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleAssignment {
    pub role: Role,
    pub side: Option<Side>,
}

impl RoleAssignment {
    /// Parses `ROLE[:left|right]`; the error says what was expected.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (role, side) = match text.split_once(':') {
            Some((r, s)) => (r, Some(s)),
            None => (text, None),
        };
        let role = Role::from_name(role.trim()).ok_or_else(|| {
            format!(
                "unknown role '{}'; expected one of {}",
                role.trim(),
                Role::ALL.map(Role::name).join(", ")
            )
        })?;
        let side = match side.map(str::trim) {
            None => None,
            Some(s) => Some(
                Side::from_name(s)
                    .ok_or_else(|| format!("unknown side '{s}'; expected left or right"))?,
            ),
        };
        Ok(RoleAssignment { role, side })
    }

    /// The file's spelling (`thigh:left`, `pelvis`).
    pub fn text(&self) -> String {
        match self.side {
            Some(s) => format!("{}:{}", self.role.name(), s.name()),
            None => self.role.name().to_string(),
        }
    }
}

impl std::fmt::Display for RoleAssignment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// The manual anatomy of a document (empty when the file says nothing).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ManualAnatomy {
    /// The fine kind a person chose; None: detected.
    pub kind: Option<Kind>,
    /// Bone name (as `Document::bone_by_name` resolves it) and its role, in file order.
    pub roles: Vec<(String, RoleAssignment)>,
}

/// Roles one bone carries (per side): assigning one to a bone takes it from the others.
fn single(role: Role) -> bool {
    matches!(
        role,
        Role::Pelvis
            | Role::Head
            | Role::Clavicle
            | Role::UpperArm
            | Role::Forearm
            | Role::Hand
            | Role::Girdle
            | Role::Thigh
            | Role::Shin
            | Role::Foot
    )
}

impl ManualAnatomy {
    pub fn is_empty(&self) -> bool {
        self.kind.is_none() && self.roles.is_empty()
    }

    /// The role assigned to a bone by name, if any.
    pub fn role_of(&self, bone: &str) -> Option<RoleAssignment> {
        self.roles.iter().find(|(b, _)| b == bone).map(|(_, a)| *a)
    }

    /// Assigns a role to a bone. A role only one bone carries (the pelvis, the left thigh)
    /// is taken from any other bone it was assigned to. A paired role without a side (a
    /// thigh on the side the anatomy detects) takes nothing: `--role BackLeg.L=thigh --role
    /// BackLeg.R=thigh` names both thighs, and the first was silently dropped.
    pub fn assign(&mut self, bone: &str, a: RoleAssignment) {
        let sided_or_central = a.side.is_some() || !a.role.is_paired();
        if single(a.role) && sided_or_central {
            self.roles.retain(|(b, x)| b == bone || *x != a);
        }
        match self.roles.iter_mut().find(|(b, _)| b == bone) {
            Some((_, x)) => *x = a,
            None => self.roles.push((bone.to_string(), a)),
        }
    }

    /// Removes a bone's manual role (detection decides again).
    pub fn unassign(&mut self, bone: &str) {
        self.roles.retain(|(b, _)| b != bone);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paired_role_without_a_side_is_taken_from_no_other_bone() {
        let mut m = ManualAnatomy::default();
        let thigh = RoleAssignment::parse("thigh").unwrap();
        m.assign("BackLeg.L", thigh);
        m.assign("BackLeg.R", thigh);
        assert_eq!(m.role_of("BackLeg.L"), Some(thigh), "{m:?}");
        assert_eq!(m.role_of("BackLeg.R"), Some(thigh), "{m:?}");
        let left = RoleAssignment::parse("thigh:left").unwrap();
        m.assign("a", left);
        m.assign("b", left);
        assert_eq!(m.role_of("a"), None, "one left thigh: {m:?}");
        let pelvis = RoleAssignment::parse("pelvis").unwrap();
        m.assign("hips", pelvis);
        m.assign("root", pelvis);
        assert_eq!(m.role_of("hips"), None, "one pelvis: {m:?}");
    }

    #[test]
    fn assignments_parse_and_print() {
        let a = RoleAssignment::parse("thigh:left").unwrap();
        assert_eq!((a.role, a.side), (Role::Thigh, Some(Side::Left)));
        assert_eq!(a.text(), "thigh:left");
        assert_eq!(RoleAssignment::parse("pelvis").unwrap().side, None);
        assert!(RoleAssignment::parse("hip")
            .unwrap_err()
            .contains("unknown role"));
        assert!(RoleAssignment::parse("hand:up")
            .unwrap_err()
            .contains("side"));
    }

    #[test]
    fn a_single_role_moves_to_its_new_bone() {
        let mut m = ManualAnatomy::default();
        let pelvis = RoleAssignment::parse("pelvis").unwrap();
        m.assign("a", pelvis);
        m.assign("b", RoleAssignment::parse("spine").unwrap());
        m.assign("c", pelvis);
        assert_eq!(m.role_of("a"), None);
        assert_eq!(m.role_of("c"), Some(pelvis));
        m.assign("d", RoleAssignment::parse("spine").unwrap());
        assert!(m.role_of("b").is_some(), "spine is not a single role");
    }
}
