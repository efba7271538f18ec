//! Each body's drive gains from the load it holds: stance joints (a leg's, from the thigh or
//! a front leg's clavicle down) hold the body above them, shared by the legs; every other
//! joint the subtree below it; a creature on four legs or more twice that
//! ([`drives::BEAM_LOAD_FACTOR`]); an upright trunk joint at least what holds its rest pose.

use super::{drives, mass, roles, symmetry, Anatomy, Body, Role};
use crate::anatomy::rig;
use glam::DVec3;

/// How many legs the character stands on.
pub(super) fn legs(a: &Anatomy) -> usize {
    a.limbs.iter().filter(|l| l.kind.is_leg()).count()
}

/// Subtree masses and centres; stance joints (legs) hold the body above them.
/// Each body's subtree (itself and every body below it): mass (kg) and mass-weighted centre
/// sum (divide by the mass for the centre).
fn subtrees(list: &[Body]) -> (Vec<f64>, Vec<DVec3>) {
    let n = list.len();
    let mut sub_m = vec![0.0; n];
    let mut sub_c = vec![DVec3::ZERO; n];
    for k in (0..n).rev() {
        sub_m[k] += list[k].mass_kg;
        sub_c[k] += list[k].shape.fit.center * list[k].mass_kg;
        if let Some(p) = list[k].parent {
            sub_m[p] += sub_m[k];
            let c = sub_c[k];
            sub_c[p] += c;
        }
    }
    (sub_m, sub_c)
}

/// A stance joint: a leg's bone from the thigh (or a front leg's clavicle) down, which holds
/// the body above it.
fn stance_joint(a: &Anatomy, bone: usize) -> bool {
    a.limb_of[bone].is_some_and(|l| a.limbs[l].kind.is_leg())
        && matches!(
            a.role[bone],
            Role::Thigh
                | Role::Shin
                | Role::Foot
                | Role::Clavicle
                | Role::UpperArm
                | Role::Forearm
                | Role::Hand
        )
}

pub(super) fn assign_gains(rig: &rig::Rig, a: &Anatomy, list: &mut [Body], total: f64) {
    let n = list.len();
    let (sub_m, sub_c) = subtrees(list);
    let com = list
        .iter()
        .map(|b| b.shape.fit.center * b.mass_kg)
        .sum::<DVec3>()
        / total.max(1e-12);
    let legs = legs(a).max(1);
    // Four legs or more under a level trunk: every joint from the ground to the head holds
    // its load twice as firmly (`drives::BEAM_LOAD_FACTOR`).
    let beam = legs >= 4 && a.kind != roles::CharacterKind::Humanoid;
    let size = a.height / mass::REFERENCE_HEIGHT_M;
    let floor = drives::SIM_INERTIA_FLOOR_KG_M2 * size.powi(5);
    for k in 0..n {
        let bone = list[k].bone;
        let joint_pos = rig.bones[bone].pos;
        let stance = stance_joint(a, bone);
        let inertia = drives::subtree_inertia(list, k, joint_pos, floor);
        let c = sub_c[k] / sub_m[k].max(1e-12);
        let sub_lever = c.distance(joint_pos).max(0.05 * a.height);
        let humanoid_stance = stance && a.kind == roles::CharacterKind::Humanoid;
        list[k].friction_torque_nm =
            drives::joint_friction_nm(sub_m[k], sub_lever, humanoid_stance);
        let (m, lever) = if stance {
            (
                total / legs as f64,
                com.distance(joint_pos).max(0.25 * a.height),
            )
        } else {
            (sub_m[k], sub_lever)
        };
        let m = if beam {
            m * drives::BEAM_LOAD_FACTOR
        } else {
            m
        };
        list[k].gains = drives::gains(m, lever, inertia);
        if a.role[bone].stacks_trunk(a.kind) {
            let load = crate::joint::load::rest_load_nm(
                sub_m[k],
                c - joint_pos,
                a.up,
                drives::GRAVITY_M_S2,
            );
            list[k].gains = drives::holding_rest(list[k].gains, load);
        }
    }
    symmetry::even_gains(a, list);
}
