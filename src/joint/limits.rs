//! A joint's limits in radians and what a relative rotation makes of them: the angles, how
//! much of the range is in use (0..1) and how far past the limits it is. The one definition
//! that telemetry, plots, gizmo colours and tests use.

use super::boundary::SwingBoundary;
use super::swing_twist::{decompose, rotation_angle};
use glam::DQuat;

/// Limits of a joint (radians), in its joint frame (X = twist or hinge axis).
#[derive(Debug, Clone, PartialEq)]
pub enum JointLimits {
    Ball {
        swing: SwingBoundary,
        twist_min_rad: f64,
        twist_max_rad: f64,
    },
    Hinge {
        min_rad: f64,
        max_rad: f64,
    },
}

/// One joint's state against its limits.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct JointMeasure {
    /// Angle of the rotation from the target (rest) pose (radians).
    pub error_rad: f64,
    /// Ball: tilt of the primary axis; hinge: bend off the hinge axis (radians).
    pub tilt_rad: f64,
    /// Azimuth of the tilt, from +Y toward +Z of the joint frame (radians).
    pub azimuth_rad: f64,
    /// Ball: twist about the primary axis; hinge: the hinge angle (radians).
    pub twist_rad: f64,
    /// Ball: the boundary's largest tilt at this azimuth (radians); hinge: 0.
    pub max_tilt_rad: f64,
    /// Share of the range in use, 0..=1 (1 at or past a limit).
    pub limit_use: f64,
    /// How far past the limits (radians); 0 inside. Swing: the angle from the primary axis to
    /// the nearest allowed direction; twist: the angle past its range; a hinge's off-axis bend
    /// counts as violation.
    pub violation_rad: f64,
}

/// How far past a limit the rest pose sits on (a knee's 0) before its side reads as used:
/// under load a joint resting on its limit is pressed a hair past it, and showed fully used
/// (a red gizmo on one standing knee, green on the other).
pub const AT_LIMIT_SLACK_RAD: f64 = 0.25 * std::f64::consts::PI / 180.0;

/// Share (0..=1) of a [min, max] range in use at `angle`, measured from rest (0, clamped
/// into the range) toward the limit on that side. Where rest is that limit, the side is
/// unused up to [`AT_LIMIT_SLACK_RAD`] past it and fully used beyond.
pub fn range_use(angle: f64, min: f64, max: f64) -> f64 {
    let rest = 0f64.clamp(min, max);
    let (span, dist) = if angle >= rest {
        (max - rest, angle - rest)
    } else {
        (rest - min, rest - angle)
    };
    let u = if span > 1e-9 {
        dist / span
    } else if dist > AT_LIMIT_SLACK_RAD {
        1.0
    } else {
        0.0
    };
    u.clamp(0.0, 1.0)
}

/// The primary axis of the child frame, in the parent joint frame.
fn q_dir(q: DQuat) -> glam::DVec3 {
    q * glam::DVec3::X
}

fn past_range(angle: f64, min: f64, max: f64) -> f64 {
    (angle - max).max(min - angle).max(0.0)
}

impl JointLimits {
    /// Measures the relative rotation `q` (parent joint frame to child joint frame) against
    /// the limits, with the target at rest.
    pub fn measure(&self, q: DQuat) -> JointMeasure {
        self.measure_to(q, DQuat::IDENTITY)
    }

    /// Measures `q` against the limits, with the error taken to `target` (same frames).
    pub fn measure_to(&self, q: DQuat, target: DQuat) -> JointMeasure {
        let st = decompose(q);
        let error_rad = rotation_angle(target.inverse() * q);
        match self {
            JointLimits::Ball {
                swing,
                twist_min_rad,
                twist_max_rad,
            } => {
                let max_tilt = swing.max_tilt_rad(st.azimuth_rad);
                let tilt_use = if max_tilt > 1e-9 {
                    (st.tilt_rad / max_tilt).clamp(0.0, 1.0)
                } else if st.tilt_rad > 1e-6 {
                    1.0
                } else {
                    0.0
                };
                let twist_use = range_use(st.twist_rad, *twist_min_rad, *twist_max_rad);
                JointMeasure {
                    error_rad,
                    tilt_rad: st.tilt_rad,
                    azimuth_rad: st.azimuth_rad,
                    twist_rad: st.twist_rad,
                    max_tilt_rad: max_tilt,
                    limit_use: tilt_use.max(twist_use),
                    // Inside the boundary (the common case) needs no search for the
                    // nearest allowed direction.
                    violation_rad: if st.tilt_rad <= max_tilt {
                        0.0
                    } else {
                        swing.distance_outside(q_dir(q))
                    }
                    .max(past_range(
                        st.twist_rad,
                        *twist_min_rad,
                        *twist_max_rad,
                    )),
                }
            }
            JointLimits::Hinge { min_rad, max_rad } => JointMeasure {
                error_rad,
                tilt_rad: st.tilt_rad,
                azimuth_rad: st.azimuth_rad,
                twist_rad: st.twist_rad,
                max_tilt_rad: 0.0,
                limit_use: range_use(st.twist_rad, *min_rad, *max_rad),
                violation_rad: past_range(st.twist_rad, *min_rad, *max_rad).max(st.tilt_rad),
            },
        }
    }

    /// Clamps a target rotation into the limits (swing onto the boundary along its azimuth,
    /// twist into its range; a hinge keeps only its angle, clamped).
    pub fn clamp(&self, q: DQuat) -> DQuat {
        let st = decompose(q);
        match self {
            JointLimits::Ball {
                swing,
                twist_min_rad,
                twist_max_rad,
            } => {
                let tilt = st.tilt_rad.min(swing.max_tilt_rad(st.azimuth_rad));
                let twist = st.twist_rad.clamp(*twist_min_rad, *twist_max_rad);
                super::swing_twist::compose(tilt, st.azimuth_rad, twist)
            }
            JointLimits::Hinge { min_rad, max_rad } => {
                DQuat::from_rotation_x(st.twist_rad.clamp(*min_rad, *max_rad))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::swing_twist::compose;
    use super::*;

    fn hip() -> JointLimits {
        JointLimits::Ball {
            swing: SwingBoundary::new([120.0, 15.0, 45.0, 30.0].map(f64::to_radians)),
            twist_min_rad: (-30f64).to_radians(),
            twist_max_rad: 45f64.to_radians(),
        }
    }

    #[test]
    fn rest_is_inside_with_no_use() {
        let m = hip().measure(DQuat::IDENTITY);
        assert_eq!(m.limit_use, 0.0);
        assert_eq!(m.violation_rad, 0.0);
    }

    #[test]
    fn use_and_violation_follow_the_boundary() {
        let l = hip();
        let half = l.measure(compose(60f64.to_radians(), 0.0, 0.0));
        assert!((half.limit_use - 0.5).abs() < 1e-9, "{half:?}");
        let past = l.measure(compose(20f64.to_radians(), std::f64::consts::PI, 0.0));
        assert!((past.violation_rad.to_degrees() - 5.0).abs() < 1e-6);
        assert_eq!(past.limit_use, 1.0);
        let twist = l.measure(compose(0.0, 0.0, (-15f64).to_radians()));
        assert!((twist.limit_use - 0.5).abs() < 1e-9);
    }

    #[test]
    fn hinge_off_axis_bend_is_a_violation() {
        let l = JointLimits::Hinge {
            min_rad: 0.0,
            max_rad: 2.0,
        };
        let m = l.measure(compose(0.1, 1.0, 1.0));
        assert!((m.violation_rad - 0.1).abs() < 1e-9);
        assert!((m.limit_use - 0.5).abs() < 1e-9);
        // A hinge whose range starts at rest is at 0 % use at rest, not "near the limit".
        assert_eq!(l.measure(DQuat::IDENTITY).limit_use, 0.0);
    }

    #[test]
    fn clamp_lands_inside() {
        let l = hip();
        let q = l.clamp(compose(2.5, 0.3, 1.5));
        let m = l.measure(q);
        assert!(m.violation_rad < 1e-9, "{m:?}");
    }

    #[test]
    fn a_joint_resting_on_its_limit_reads_unused_until_visibly_past_it() {
        let (min, max) = (0.0, 135f64.to_radians());
        assert_eq!(range_use(-1e-4, min, max), 0.0);
        assert_eq!(range_use(-0.5f64.to_radians(), min, max), 1.0);
        assert!((range_use(67.5f64.to_radians(), min, max) - 0.5).abs() < 1e-9);
    }
}
