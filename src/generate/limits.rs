//! Joints and limits by anatomy. Knees and elbows are hinges whose axis lies perpendicular to
//! the bone with its sign chosen so that flexion is positive (the knee bends backward, the
//! elbow forward); hips, shoulders, spine, neck, head, wrists and ankles are ball sockets with
//! the seed's reference ranges, asymmetric where anatomy is, in a joint frame whose +Y is the
//! anatomical forward (flexion) direction. Every limit is relative to the rest pose, which
//! therefore lies inside it, and no range is narrower than [`MIN_RANGE_DEG`].
//! Animals and unknown chains get moderate ball sockets.

use super::names::Side;
use super::roles::{Anatomy, CharacterKind, LimbKind, Role};
use glam::DVec3;

/// The narrowest range any limit gets (Unity's and the stability advice).
pub const MIN_RANGE_DEG: f64 = 5.0;

/// A joint in world directions (converted to bone space when written).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointPlan {
    Ball {
        /// pos_y, neg_y, pos_z, neg_z (deg).
        swing_deg: [f64; 4],
        /// min, max (deg).
        twist_deg: [f64; 2],
        /// The joint frame's +Y (world, unit, perpendicular to the primary axis).
        swing_y: DVec3,
    },
    Hinge {
        /// World, unit; positive rotation is flexion.
        axis: DVec3,
        min_deg: f64,
        max_deg: f64,
    },
}

/// What the joint of one body needs to know.
pub struct JointInput {
    pub role: Role,
    pub side: Option<Side>,
    pub limb: Option<LimbKind>,
    /// The body's primary axis (world, unit) and its parent body's.
    pub axis: DVec3,
    pub parent_axis: DVec3,
    /// Whether the head hangs straight from the chest (no neck body).
    pub head_without_neck: bool,
    /// Wrists and ankles as hinges (flexion only) instead of ball sockets.
    pub hinge_wrists_ankles: bool,
}

fn perpendicular(v: DVec3, to: DVec3, fallback: DVec3) -> DVec3 {
    let p = v - to * v.dot(to);
    if p.length() > 1e-3 {
        p.normalize()
    } else {
        let q = fallback - to * fallback.dot(to);
        q.try_normalize()
            .unwrap_or_else(|| to.any_orthonormal_vector())
    }
}

fn ball(swing: [f64; 4], twist: f64, y: DVec3) -> JointPlan {
    JointPlan::Ball {
        swing_deg: swing.map(|s| s.clamp(MIN_RANGE_DEG / 2.0, 175.0)),
        twist_deg: [
            -twist.max(MIN_RANGE_DEG / 2.0),
            twist.max(MIN_RANGE_DEG / 2.0),
        ],
        swing_y: y,
    }
}

/// A hinge about `axis` with flexion range [0, `flex_deg`] from straight; the rest bend (the
/// angle already flexed at rest, from `parent_axis` to `axis_bone`) is subtracted so the
/// rest pose is angle 0 and lies inside.
fn hinge(axis: DVec3, parent_axis: DVec3, axis_bone: DVec3, flex_deg: f64) -> JointPlan {
    let bend = parent_axis
        .cross(axis_bone)
        .dot(axis)
        .atan2(parent_axis.dot(axis_bone));
    let bend_deg = bend.to_degrees().max(0.0);
    // A limb folded back on itself (bent 179° and more: a bone read from a broken mesh) would
    // put the stop past -180°, where no hinge range lies.
    let min_deg = (-bend_deg - 1.0).max(-180.0);
    let max_deg = (flex_deg - bend_deg)
        .max(min_deg + MIN_RANGE_DEG)
        .clamp(MIN_RANGE_DEG, 180.0);
    JointPlan::Hinge {
        axis,
        min_deg,
        max_deg,
    }
}

/// A hinge whose range is given relative to the rest pose (which lies inside it).
fn fixed_hinge(axis: DVec3, min_deg: f64, max_deg: f64) -> JointPlan {
    JointPlan::Hinge {
        axis,
        min_deg,
        max_deg,
    }
}

/// The elbow's hinge axis: flexion moves the hand forward (or up when the forearm already
/// points forward).
pub fn elbow_axis(a: &Anatomy, forearm: DVec3, upper: DVec3) -> DVec3 {
    let c = forearm.cross(a.forward);
    if c.length() > 0.3 {
        return c.normalize();
    }
    let bend = upper.cross(forearm);
    if bend.length() > 0.05 {
        return bend.normalize();
    }
    forearm.cross(a.up).try_normalize().unwrap_or(-a.left)
}

/// The knee's hinge axis: flexion moves the foot backward.
pub fn knee_axis(a: &Anatomy, shin: DVec3) -> DVec3 {
    let c = a.forward.cross(shin);
    if c.length() > 0.3 {
        return c.normalize();
    }
    a.left
}

/// The joint of a body, by role.
pub fn joint_for(a: &Anatomy, j: &JointInput) -> JointPlan {
    let x = j.axis;
    let fwd = perpendicular(a.forward, x, a.up);
    let upward = perpendicular(a.up, x, a.forward);
    if a.kind != CharacterKind::Humanoid {
        return animal_joint(j, fwd);
    }
    // Z = X x Y points to the character's right for a bone pointing down with Y forward:
    // for the left leg +Z is adduction (inward), for the right leg abduction (outward).
    let (hip_pos_z, hip_neg_z) = match j.side {
        Some(Side::Right) => (45.0, 30.0),
        _ => (30.0, 45.0),
    };
    match j.role {
        Role::Spine | Role::Chest => ball([20.0, 15.0, 15.0, 15.0], 15.0, fwd),
        Role::Neck => ball([40.0, 40.0, 30.0, 30.0], 40.0, fwd),
        Role::Head if j.head_without_neck => ball([50.0, 45.0, 35.0, 35.0], 60.0, fwd),
        Role::Head => ball([30.0, 30.0, 20.0, 20.0], 30.0, fwd),
        Role::Clavicle => ball([15.0, 10.0, 15.0, 15.0], 10.0, upward),
        Role::UpperArm => ball([95.0; 4], 45.0, fwd),
        Role::Forearm => hinge(elbow_axis(a, x, j.parent_axis), j.parent_axis, x, 145.0),
        Role::Hand => {
            let flex = elbow_axis(a, j.parent_axis, j.parent_axis).cross(x);
            let y = perpendicular(flex, x, fwd);
            if j.hinge_wrists_ankles {
                // Positive rotation about x cross y moves the hand toward y: flexion.
                return fixed_hinge(x.cross(y).normalize(), -60.0, 70.0);
            }
            ball([70.0, 60.0, 20.0, 20.0], 30.0, y)
        }
        Role::Foot if j.hinge_wrists_ankles => {
            // Positive rotation lifts the toes (dorsiflexion 20), negative points them (30).
            fixed_hinge(x.cross(upward).normalize(), -30.0, 20.0)
        }
        Role::Thigh => ball([120.0, 15.0, hip_pos_z, hip_neg_z], 45.0, fwd),
        Role::Shin => hinge(knee_axis(a, x), j.parent_axis, x, 135.0),
        Role::Foot => ball([20.0, 30.0, 15.0, 15.0], 15.0, upward),
        Role::Toe => ball([30.0, 20.0, 5.0, 5.0], 5.0, upward),
        Role::Finger => ball([60.0, 10.0, 10.0, 10.0], 5.0, fwd),
        Role::Tail => ball([30.0; 4], 10.0, upward),
        Role::Twist => ball([5.0; 4], 30.0, fwd),
        _ => ball([30.0; 4], 15.0, fwd),
    }
}

/// Moderate ball sockets for animals and unknown chains.
fn animal_joint(j: &JointInput, fwd: DVec3) -> JointPlan {
    let leg = j.limb.is_some_and(LimbKind::is_leg);
    match j.role {
        _ if leg => ball([35.0, 35.0, 12.0, 12.0], 10.0, fwd),
        Role::Spine | Role::Chest => ball([15.0; 4], 10.0, fwd),
        Role::Neck => ball([30.0, 30.0, 25.0, 25.0], 20.0, fwd),
        Role::Head => ball([30.0, 30.0, 20.0, 20.0], 20.0, fwd),
        Role::Tail => ball([30.0; 4], 10.0, fwd),
        _ => ball([30.0; 4], 15.0, fwd),
    }
}

/// The furthest a humanoid joint of a role plausibly reaches from the rest pose (degrees):
/// each swing extent, each side of the twist, and a hinge's bend either way. Generous (the
/// extremes of human range of motion, with room for a rest pose away from anatomical
/// neutral); a clip that is a set of held poses, not a motion ([`super::clips`]), widens a
/// limit no further than this.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plausible {
    pub swing_deg: f64,
    pub twist_deg: f64,
    pub hinge_deg: f64,
}

/// The plausible reach of a joint of `role` on a character of `kind`; None where no table
/// says (creatures, tails, unknown chains): those are not capped.
pub fn plausible(kind: CharacterKind, role: Role) -> Option<Plausible> {
    if kind != CharacterKind::Humanoid {
        return None;
    }
    let (swing_deg, twist_deg, hinge_deg) = match role {
        Role::Spine | Role::Chest => (45.0, 45.0, 45.0),
        Role::Neck => (60.0, 70.0, 60.0),
        Role::Head => (60.0, 80.0, 60.0),
        Role::Clavicle => (45.0, 30.0, 45.0),
        Role::UpperArm => (175.0, 120.0, 175.0),
        Role::Forearm | Role::Shin => (30.0, 90.0, 160.0),
        Role::Hand => (90.0, 90.0, 90.0),
        Role::Thigh => (130.0, 60.0, 130.0),
        Role::Foot => (90.0, 45.0, 60.0),
        Role::Toe => (90.0, 20.0, 90.0),
        Role::Finger => (110.0, 30.0, 110.0),
        _ => return None,
    };
    Some(Plausible {
        swing_deg,
        twist_deg,
        hinge_deg,
    })
}

/// `widened` (a widening of `current`) kept within `cap`: no extent grows past the larger of
/// the cap and what `current` already allows.
pub fn within(current: &JointPlan, widened: &JointPlan, cap: Plausible) -> JointPlan {
    let limit = |was: f64, want: f64, cap: f64| want.min(was.max(cap));
    match (*current, *widened) {
        (
            JointPlan::Ball {
                swing_deg: s0,
                twist_deg: t0,
                ..
            },
            JointPlan::Ball {
                swing_deg: s1,
                twist_deg: t1,
                swing_y,
            },
        ) => JointPlan::Ball {
            swing_deg: std::array::from_fn(|k| limit(s0[k], s1[k], cap.swing_deg)),
            twist_deg: [
                -limit(-t0[0], -t1[0], cap.twist_deg),
                limit(t0[1], t1[1], cap.twist_deg),
            ],
            swing_y,
        },
        (
            JointPlan::Hinge {
                min_deg: lo0,
                max_deg: hi0,
                ..
            },
            JointPlan::Hinge {
                axis,
                min_deg: lo1,
                max_deg: hi1,
            },
        ) => JointPlan::Hinge {
            axis,
            min_deg: -limit(-lo0, -lo1, cap.hinge_deg),
            max_deg: limit(hi0, hi1, cap.hinge_deg),
        },
        _ => *widened,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However the rest bend is, the hinge's range lies within -180..180 and holds the rest
    /// pose (a forearm read from a corrupt mesh, folded back 179.2°, gave -180.2°, which the
    /// schema refuses).
    #[test]
    fn a_hinge_folded_back_on_itself_stays_within_a_turn() {
        let axis = DVec3::Z;
        for bend_deg in [0.0f64, 90.0, 170.0, 179.2, 180.0] {
            let b = bend_deg.to_radians();
            let child = DVec3::new(b.cos(), b.sin(), 0.0);
            let JointPlan::Hinge {
                min_deg, max_deg, ..
            } = hinge(axis, DVec3::X, child, 145.0)
            else {
                panic!("a hinge");
            };
            assert!((-180.0..=180.0).contains(&min_deg), "{bend_deg}: {min_deg}");
            assert!((-180.0..=180.0).contains(&max_deg), "{bend_deg}: {max_deg}");
            assert!(
                min_deg <= 0.0 && max_deg >= 0.0,
                "{bend_deg}: {min_deg}..{max_deg}"
            );
        }
    }
}
