//! The swing-twist decomposition of a joint's relative rotation about its primary axis (X of
//! the joint frame): `q = q_swing * q_twist`, `q_twist` about X, `q_swing` about an axis
//! perpendicular to X. The same split as Jolt's `Quat::GetSwingTwist`, and the twist Rapier's
//! AngX limit measures (`2 atan2(q.x, q.w)`).

use glam::{DQuat, DVec3};
use std::f64::consts::{PI, TAU};

/// A relative rotation split into swing and twist, with the swung axis in polar form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwingTwist {
    /// Angle between the primary axis and its rest direction (radians, 0..pi).
    pub tilt_rad: f64,
    /// Direction of the tilt, from +Y toward +Z (radians, -pi..pi); 0 when untilted.
    pub azimuth_rad: f64,
    /// Rotation about the primary axis (radians, -pi..pi).
    pub twist_rad: f64,
}

/// Wraps an angle into -pi..pi.
pub fn wrap_pi(a: f64) -> f64 {
    let a = (a + PI).rem_euclid(TAU) - PI;
    if a <= -PI {
        a + TAU
    } else {
        a
    }
}

/// Splits `q` (parent joint frame to child joint frame) into swing and twist about X.
pub fn decompose(q: DQuat) -> SwingTwist {
    let q = if q.w < 0.0 { -q } else { q };
    let d = q * DVec3::X;
    let tilt_rad = d.x.clamp(-1.0, 1.0).acos();
    let azimuth_rad = if d.y.abs() + d.z.abs() > 1e-12 {
        d.z.atan2(d.y)
    } else {
        0.0
    };
    SwingTwist {
        tilt_rad,
        azimuth_rad,
        twist_rad: wrap_pi(2.0 * q.x.atan2(q.w)),
    }
}

/// The rotation of a swing (tilt toward azimuth) followed by a twist about X, in the joint frame.
pub fn compose(tilt_rad: f64, azimuth_rad: f64, twist_rad: f64) -> DQuat {
    let swing_axis = DVec3::new(0.0, -azimuth_rad.sin(), azimuth_rad.cos());
    let swing = DQuat::from_axis_angle(swing_axis, tilt_rad);
    (swing * DQuat::from_rotation_x(twist_rad)).normalize()
}

/// Angle of the whole rotation `q` (radians, 0..pi): the distance from rest.
pub fn rotation_angle(q: DQuat) -> f64 {
    2.0 * q.w.abs().min(1.0).acos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_then_decompose_round_trips() {
        for &(t, a, w) in &[
            (0.3, 0.0, 0.0),
            (1.2, 2.0, -0.7),
            (2.0, -2.5, 1.4),
            (0.01, 1.0, 3.0),
        ] {
            let st = decompose(compose(t, a, w));
            assert!((st.tilt_rad - t).abs() < 1e-9, "{st:?}");
            assert!((wrap_pi(st.azimuth_rad - a)).abs() < 1e-9, "{st:?}");
            assert!((wrap_pi(st.twist_rad - w)).abs() < 1e-9, "{st:?}");
        }
    }

    #[test]
    fn tilt_toward_plus_y_is_azimuth_zero() {
        let st = decompose(DQuat::from_rotation_z(0.5));
        assert!((st.tilt_rad - 0.5).abs() < 1e-12 && st.azimuth_rad.abs() < 1e-12);
        let st = decompose(DQuat::from_rotation_y(-0.5));
        assert!((st.azimuth_rad - PI / 2.0).abs() < 1e-12, "{st:?}");
    }

    #[test]
    fn twist_is_independent_of_swing() {
        let q = compose(1.0, 0.8, 0.6);
        assert!((decompose(q).twist_rad - 0.6).abs() < 1e-12);
        assert!((decompose(-q).twist_rad - 0.6).abs() < 1e-12);
    }
}
