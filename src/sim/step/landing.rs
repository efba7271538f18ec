//! Where a step lands: across the push, the foot keeps its offset from the centre of mass
//! when it lifts, or takes its offset in the rest pose (turned with the body), or a blend,
//! as the document's `step_rest_stance` says; along the push, the capture point sets it
//! (`swing`), within the longest step allowed.
//!
//! Keeping the offset it lifted with leaves a stagger a stagger: a foot that lifted from
//! behind the other lands behind it again. Taking the rest offset squares the stance up with
//! each step. Neither suits every character (session 32-33, README: the VRM 0 avocado's forward
//! pushes are caught only by squaring up, the bundled mannequin's backward ones only without
//! it), so the file says which, and `tune` tries both.

use super::leg::StepLeg;
use crate::sim::settings::SimSettings;
use crate::sim::world::BodyRec;
use glam::{Quat, Vec3};

/// Each leg's foot body's horizontal offset from the centre of mass, both at rest.
pub(super) fn rest_offsets(bodies: &[BodyRec], legs: &[StepLeg], com: Vec3) -> Vec<Vec3> {
    legs.iter()
        .map(|l| {
            let f = bodies[l.foot].world_from_body_rest.translation;
            Vec3::new(f.x - com.x, 0.0, f.z - com.z)
        })
        .collect()
}

/// The landing's offset from the centre of mass across the push (horizontal unit `push`):
/// the foot's offset when it lifts (`lifted`), moved toward its rest offset (`rest`, in the
/// rest frame) by `w`, the rest offset turned from the rest heading `forward_rest` to the body's
/// heading now (`forward`; both horizontal units).
pub(super) fn across(
    lifted: Vec3,
    rest: Option<Vec3>,
    (forward_rest, forward): (Vec3, Vec3),
    push: Vec3,
    w: f32,
) -> Vec3 {
    let side = match rest {
        Some(r) if w > 0.0 => {
            let turned = Quat::from_rotation_arc(forward_rest, forward) * r;
            lifted * (1.0 - w) + turned * w
        }
        _ => lifted,
    };
    side - push * side.dot(push)
}

/// How far a foot `ahead_m` ahead of the centre of mass along the push (horizontal) may
/// step: to the capture point of a `step_catch_dv` push times `step_gain`, Δv·√(h / g)
/// from the centre of mass `h_m` above the ground, along the push; infinite without a
/// limit (`catch_dv` 0).
pub(super) fn max_step(
    (gain, catch_dv): (f32, f32),
    ahead_m: f32,
    h_m: f32,
    s: &SimSettings,
) -> f32 {
    let g = s.gravity_m_s2.length().max(1e-6);
    match catch_dv > 0.0 {
        true => (gain * catch_dv * (h_m / g).sqrt() - ahead_m).max(0.0),
        false => f32::INFINITY,
    }
}

/// `to` brought within `max` of `from` along the line between them.
pub(super) fn within(from: Vec3, to: Vec3, max: f32) -> Vec3 {
    let d = to - from;
    match d.length() > max {
        true => from + d * (max / d.length()),
        false => to,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_landing_across_the_push_blends_the_lifted_and_the_rest_offsets() {
        let (lifted, rest) = (Vec3::new(0.3, 0.0, -0.2), Vec3::new(0.1, 0.0, 0.0));
        let (z, x) = (Vec3::Z, Vec3::X);
        // Pushed forward (+Z): only the sideways (X) part counts.
        let at = |w| across(lifted, Some(rest), (z, z), z, w);
        assert!((at(0.0) - Vec3::new(0.3, 0.0, 0.0)).length() < 1e-6);
        assert!((at(1.0) - Vec3::new(0.1, 0.0, 0.0)).length() < 1e-6);
        assert!((at(0.5) - Vec3::new(0.2, 0.0, 0.0)).length() < 1e-6);
        // The body turned a quarter (its forward now +X): the rest offset turns with it.
        let turned = across(Vec3::ZERO, Some(rest), (z, x), x, 1.0);
        assert!(
            (turned - Vec3::new(0.0, 0.0, -0.1)).length() < 1e-6,
            "{turned}"
        );
        // Without a rest offset, or at 0, the lifted one.
        assert_eq!(across(lifted, None, (z, z), z, 1.0), at(0.0));
    }
}
