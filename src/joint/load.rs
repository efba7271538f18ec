//! The gravity load a joint holds at rest and how far its drive lets it sag under it: the
//! generator sizes an upright trunk's drives by it, the doctor warns of a trunk that sags.

use glam::DVec3;

/// The most an upright trunk joint may sag at rest under the body above it (radians): what
/// the generator sizes its stiffness for.
pub const MAX_TRUNK_SAG_RAD: f64 = 1.0 * std::f64::consts::PI / 180.0;

/// A trunk joint sagging more than this at rest (radians) is a doctor warning. Mixamo's X Bot,
/// generated before the generator held its trunk, sagged 1.7°, 2.2° and 2.7° at its three
/// spine joints and, at assist 0, fell backward standing still.
pub const TRUNK_SAG_WARNING_RAD: f64 = 2.0 * std::f64::consts::PI / 180.0;

/// A drive's torque cap as a multiple of the gravity load it holds at rest.
pub const TORQUE_PER_LOAD: f64 = 5.0;

/// The gravity torque on a joint at rest (N·m): the weight `mass_kg` × `gravity` of what it
/// holds times the horizontal distance (across `up`) from the joint to that weight's centre,
/// `offset` (the centre minus the joint).
pub fn rest_load_nm(mass_kg: f64, offset: DVec3, up: DVec3, gravity: f64) -> f64 {
    let up = up.try_normalize().unwrap_or(DVec3::Y);
    let horizontal = (offset - up * offset.dot(up)).length();
    let load = mass_kg * gravity * horizontal;
    if load.is_finite() {
        load.max(0.0)
    } else {
        0.0
    }
}

/// How far a drive of `stiffness` (N·m/rad) sags under `rest_load_nm` (radians); None without
/// a stiffness.
pub fn rest_sag_rad(rest_load_nm: f64, stiffness: f64) -> Option<f64> {
    (stiffness > 0.0 && stiffness.is_finite()).then(|| rest_load_nm / stiffness)
}

/// The stiffness (N·m/rad) that holds `rest_load_nm` within [`MAX_TRUNK_SAG_RAD`].
pub fn stiffness_holding(rest_load_nm: f64) -> f64 {
    rest_load_nm / MAX_TRUNK_SAG_RAD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_horizontal_offset_loads_the_joint() {
        let up = DVec3::Y;
        assert_eq!(rest_load_nm(10.0, DVec3::new(0.0, 0.5, 0.0), up, 9.81), 0.0);
        let l = rest_load_nm(10.0, DVec3::new(0.0, 0.5, -0.1), up, 9.81);
        assert!((l - 9.81).abs() < 1e-9, "{l}");
        let k = stiffness_holding(l);
        let sag = rest_sag_rad(l, k).unwrap();
        assert!((sag - MAX_TRUNK_SAG_RAD).abs() < 1e-12);
        assert_eq!(rest_sag_rad(l, 0.0), None);
    }
}
