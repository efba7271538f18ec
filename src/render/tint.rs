//! What colour each collider shell is drawn in, and the rings that mark a joint (pure).
//!
//! A shell is, in order of precedence: amber when selected; red or orange when the stability
//! doctor has an error or a warning about its body; in the pair view, with a body picked,
//! blue when it collides with the picked body and grey when it does not; otherwise the
//! plain translucent blue.

use super::gizmo::Segment;
use glam::Vec3;

/// What a shell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShellTint {
    Plain,
    Selected,
    /// In the pair view: collides with the picked body.
    Collides,
    /// In the pair view: does not collide with the picked body.
    Apart,
    /// The doctor has an error about this body.
    Error,
    /// The doctor has a warning about this body.
    Warning,
}

/// A flag from the doctor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flag {
    Warning,
    Error,
}

pub const PLAIN: [u8; 4] = [90, 160, 255, 60];
pub const SELECTED: [u8; 4] = [255, 200, 60, 110];
/// The plain blue: in the pair view every shell is blue (collides) or grey (does not).
pub const COLLIDES: [u8; 4] = PLAIN;
pub const APART: [u8; 4] = [95, 95, 100, 110];
pub const ERROR: [u8; 4] = [240, 60, 50, 130];
pub const WARNING: [u8; 4] = [245, 150, 30, 110];

impl ShellTint {
    /// The shell's colour (sRGB, straight alpha).
    pub fn color(self) -> [u8; 4] {
        match self {
            ShellTint::Plain => PLAIN,
            ShellTint::Selected => SELECTED,
            ShellTint::Collides => COLLIDES,
            ShellTint::Apart => APART,
            ShellTint::Error => ERROR,
            ShellTint::Warning => WARNING,
        }
    }

    /// The tint of one shell: `selected` whether its body is selected, `flag` the doctor's
    /// worst finding about it, `collides` (pair view with a body picked) whether it collides
    /// with the picked body.
    pub fn of(selected: bool, flag: Option<Flag>, collides: Option<bool>) -> Self {
        match (selected, flag, collides) {
            (true, _, _) => ShellTint::Selected,
            (_, Some(Flag::Error), _) => ShellTint::Error,
            (_, Some(Flag::Warning), _) => ShellTint::Warning,
            (_, None, Some(true)) => ShellTint::Collides,
            (_, None, Some(false)) => ShellTint::Apart,
            (_, None, None) => ShellTint::Plain,
        }
    }
}

/// The colour of a joint mark.
pub fn flag_color(flag: Flag) -> [u8; 4] {
    match flag {
        Flag::Error => [240, 60, 50, 255],
        Flag::Warning => [245, 150, 30, 255],
    }
}

/// Three rings of radius `r` around `centre` (one per world plane), so a joint the doctor
/// flags reads as marked from any side.
pub fn joint_mark(centre: Vec3, r: f32, thick: f32, color: [u8; 4], out: &mut Vec<Segment>) {
    const N: usize = 20;
    let axes = [(Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z), (Vec3::Z, Vec3::X)];
    for (u, v) in axes {
        let at = |i: usize| {
            let t = i as f32 / N as f32 * std::f32::consts::TAU;
            centre + (u * t.cos() + v * t.sin()) * r
        };
        out.extend((0..N).map(|i| Segment {
            a: at(i),
            b: at(i + 1),
            radius: thick,
            color,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_then_doctor_then_pairs() {
        assert_eq!(
            ShellTint::of(true, Some(Flag::Error), Some(false)),
            ShellTint::Selected
        );
        assert_eq!(
            ShellTint::of(false, Some(Flag::Error), Some(true)),
            ShellTint::Error
        );
        assert_eq!(
            ShellTint::of(false, Some(Flag::Warning), None),
            ShellTint::Warning
        );
        assert_eq!(ShellTint::of(false, None, Some(true)).color(), COLLIDES);
        assert_ne!(COLLIDES, APART);
        assert_eq!(ShellTint::of(false, None, Some(false)).color(), APART);
        assert_eq!(ShellTint::of(false, None, None).color(), PLAIN);
    }

    #[test]
    fn a_joint_mark_is_three_closed_rings() {
        let mut segs = Vec::new();
        joint_mark(Vec3::ONE, 0.1, 0.01, [1, 2, 3, 4], &mut segs);
        assert_eq!(segs.len(), 60);
        for s in &segs {
            assert!(((s.a - Vec3::ONE).length() - 0.1).abs() < 1e-5);
        }
        assert!((segs[19].b - segs[0].a).length() < 1e-5, "closed");
    }
}
