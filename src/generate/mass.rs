//! Masses: the total from size (a 1.75 m humanoid is about 70 kg, scaling with the cube of
//! the height), spread over a humanoid by Winter's segment fractions and over anything else by
//! volume; then each limb whose masses come from volume is evened as Jolt's `Stabilize` does
//! (neighbours within [`LIMB_MASS_RATIOS`], the limb's total kept), and no jointed pair is
//! left with a mass ratio above [`MAX_MASS_RATIO`] nor a child heavier than
//! [`mass_ratio::HEAVY_CHILD_RATIO`] times its parent (the doctor's rules, one place).

use super::roles::{CharacterKind, Role};
use crate::joint::mass_ratio;
pub use crate::joint::mass_ratio::MAX_MASS_RATIO;

/// Child/parent mass ratio bounds within a limb (a chain of the body tree, see
/// [`mass_ratio::chains`]): Jolt's.
pub const LIMB_MASS_RATIOS: [f64; 2] = [
    mass_ratio::JOLT_MIN_MASS_RATIO,
    mass_ratio::JOLT_MAX_MASS_RATIO,
];
/// Reference humanoid: height (m) and mass (kg).
pub use crate::joint::inertia::{REFERENCE_HEIGHT_M, REFERENCE_MASS_KG};

/// Total mass for a character `height` tall (file units read as metres).
pub fn total_from_height(height: f64) -> f64 {
    REFERENCE_MASS_KG * (height / REFERENCE_HEIGHT_M).powi(3)
}

/// Winter's share of total body mass for one segment of this role (one side), if tabled.
/// Head and neck share 0.081, split 0.053 / 0.028 so that the head hangs on a neck at least
/// half its mass (the doctor's heavy-child rule: a 5 kg head on a 1.5 kg neck, the split
/// 0.069 / 0.012, cannot hold its joint); the trunk's 0.497 is thorax 0.216, abdomen 0.139,
/// pelvis 0.142.
pub fn winter_fraction(role: Role, has_neck: bool) -> Option<f64> {
    Some(match role {
        Role::Pelvis => 0.142,
        Role::Spine => 0.139,
        Role::Chest => 0.216 - 0.016,
        Role::Clavicle => 0.008,
        Role::Neck => 0.028,
        Role::Head if has_neck => 0.053,
        Role::Head => 0.081,
        Role::UpperArm => 0.028,
        Role::Forearm => 0.016,
        Role::Hand => 0.006,
        Role::Thigh => 0.100,
        Role::Shin => 0.0465,
        Role::Foot => 0.0145,
        _ => return None,
    })
}

/// One body for the mass pass.
pub struct MassInput {
    pub role: Role,
    /// Bodies of the same role on the same side share its fraction.
    pub same_role_count: usize,
    pub volume: f64,
    pub parent: Option<usize>,
}

/// Masses (kg) of the bodies, in order, summing to `total`.
pub fn distribute(kind: CharacterKind, bodies: &[MassInput], total: f64) -> Vec<f64> {
    let has_neck = bodies.iter().any(|b| b.role == Role::Neck);
    let vol_sum: f64 = bodies
        .iter()
        .map(|b| b.volume.max(0.0))
        .sum::<f64>()
        .max(1e-30);
    let mut m: Vec<f64> = bodies
        .iter()
        .map(|b| {
            let by_volume = b.volume.max(0.0) / vol_sum;
            tabled_fraction(kind, b, has_neck)
                .unwrap_or(by_volume)
                .max(1e-9)
        })
        .collect();
    normalise(&mut m, total);
    let parents: Vec<Option<usize>> = bodies.iter().map(|b| b.parent).collect();
    cap_ratios(&mut m, &parents, total);
    m
}

/// A body's share from Winter's table (humanoids), if it has one.
fn tabled_fraction(kind: CharacterKind, b: &MassInput, has_neck: bool) -> Option<f64> {
    match (kind, winter_fraction(b.role, has_neck)) {
        (CharacterKind::Humanoid, Some(f)) => Some(f / b.same_role_count.max(1) as f64),
        _ => None,
    }
}

/// Which bodies take their mass share from collider volume (not from Winter's table).
pub fn by_volume(kind: CharacterKind, bodies: &[MassInput]) -> Vec<bool> {
    let has_neck = bodies.iter().any(|b| b.role == Role::Neck);
    bodies
        .iter()
        .map(|b| tabled_fraction(kind, b, has_neck).is_none())
        .collect()
}

/// Evens the masses of every limb whose masses come from collider volumes, as Jolt's
/// `Stabilize` does: each chain of the body tree ([`mass_ratio::chains`]), split where a body
/// takes its share from Winter's table, gets neighbours within [`LIMB_MASS_RATIOS`] and keeps
/// its total. Volume follows the fitted collider, and a thin collider on one link of a limb
/// makes a light body between heavy ones (a generated spider's middle leg links, 0.23 kg
/// between 1.59 and 0.44 kg, jittered at their limits); Winter's fractions are measured human
/// segments, kept as they are (evened, a humanoid's hands and feet gain mass and its passive
/// collapse slows: vrm1_rigid_parts fell at 0.91 s instead of 0.71 s).
pub fn even_limbs(m: &mut [f64], parents: &[Option<usize>], by_volume: &[bool]) {
    for chain in mass_ratio::chains(parents) {
        for run in chain.split(|&i| !by_volume[i]) {
            mass_ratio::even(m, parents, run, LIMB_MASS_RATIOS);
        }
    }
}

/// Brings every jointed pair within the joint's mass ratios ([`mass_ratio::cap`]: no pair
/// above [`MAX_MASS_RATIO`], no child heavier than [`mass_ratio::HEAVY_CHILD_RATIO`] times its
/// parent), the total kept. Winter's split of the abdomen over two spine bodies hung a 15 kg
/// chest on a 5.2 kg upper spine (2.9 times it), and a dragon's volume-massed body 66 kg on
/// a 13.5 kg root (4.9 times): the doctor's heavy-child warning on freshly generated ragdolls.
pub fn cap_ratios(m: &mut [f64], parents: &[Option<usize>], total: f64) {
    mass_ratio::cap(m, parents, total, None);
}

/// [`cap_ratios`], and every jointed pair's inertia ratio within
/// [`mass_ratio::MAX_INERTIA_RATIO`] (`moments`: the bodies' shapes and the simulation's
/// floor). A snake's 1.9 m root capsule had 66 times the moment of its tail's first link
/// (their masses 10:1 by volume), an avocado character's fruit body 63 times its hips' and
/// clavicles' floored moments: the doctor's inertia warning on freshly generated ragdolls.
pub fn cap_ratios_and_inertia(
    m: &mut [f64],
    parents: &[Option<usize>],
    total: f64,
    moments: &mass_ratio::Moments,
) {
    mass_ratio::cap(m, parents, total, Some(moments));
}

fn normalise(m: &mut [f64], total: f64) {
    mass_ratio::scale_to(m, total);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_is_capped_and_total_kept() {
        let b = |role, parent, volume| MassInput {
            role,
            same_role_count: 1,
            volume,
            parent,
        };
        let bodies = [b(Role::Other, None, 100.0), b(Role::Other, Some(0), 1.0)];
        let m = distribute(CharacterKind::Other, &bodies, 50.0);
        assert!((m[0] + m[1] - 50.0).abs() < 1e-9);
        assert!(m[0] / m[1] <= MAX_MASS_RATIO + 1e-9, "{m:?}");
        assert!((total_from_height(1.75) - 70.0).abs() < 1e-9);
    }

    #[test]
    fn volume_limbs_are_evened_and_winter_limbs_kept() {
        let b = |role, parent, volume| MassInput {
            role,
            same_role_count: 1,
            volume,
            parent,
        };
        // A body with two legs, each with a thin middle link (7:1 to its thigh).
        let leg = [
            b(Role::Other, None, 12.0),
            b(Role::Other, Some(0), 1.59),
            b(Role::Other, Some(1), 0.23),
            b(Role::Other, Some(2), 0.44),
            b(Role::Other, Some(0), 1.59),
            b(Role::Other, Some(4), 0.23),
            b(Role::Other, Some(5), 0.44),
        ];
        let parents: Vec<_> = leg.iter().map(|b| b.parent).collect();
        let before = distribute(CharacterKind::Other, &leg, 16.52);
        let mut m = before.clone();
        even_limbs(&mut m, &parents, &by_volume(CharacterKind::Other, &leg));
        assert_eq!(m[0], before[0], "the body is in no leg");
        let leg_total = |m: &[f64]| m[1] + m[2] + m[3];
        assert!((leg_total(&m) - leg_total(&before)).abs() < 1e-9, "{m:?}");
        for (c, p) in [(2, 1), (3, 2), (5, 4), (6, 5)] {
            let r = m[c] / m[p];
            assert!((0.8 - 1e-9..=1.2 + 1e-9).contains(&r), "{m:?}");
        }
        // A humanoid's thigh, shin and foot keep Winter's fractions.
        let human = [
            b(Role::Pelvis, None, 1.0),
            b(Role::Thigh, Some(0), 1.0),
            b(Role::Shin, Some(1), 1.0),
            b(Role::Foot, Some(2), 1.0),
        ];
        let parents: Vec<_> = human.iter().map(|b| b.parent).collect();
        let before = distribute(CharacterKind::Humanoid, &human, 30.0);
        let mut m = before.clone();
        even_limbs(
            &mut m,
            &parents,
            &by_volume(CharacterKind::Humanoid, &human),
        );
        assert_eq!(m, before);
    }
}
