//! Limb paths through the bones a rig adds beside its segments.

use super::plans::{bone, unblended};
use crate::generate::fixtures;
use glam::Vec3;
use ragdoll_tuner::anatomy::{Anatomy, Role};

/// MakeHuman's game rig hangs `butt.L` on the thigh's head: weighted a little, dominating a
/// few vertices, reaching nowhere. The leg stopped at the thigh as at a branch: its shin,
/// foot and toe were read by the geometry alone and its toe not as a toe (a body of its own,
/// under the ground, where a toe merges into the foot). A stub on a limb bone is no branch.
#[test]
fn a_stub_on_the_thigh_s_head_does_not_end_the_leg() {
    let mut bones = fixtures::humanoid();
    for side in ["Left", "Right"] {
        let thigh = (bones.iter())
            .position(|b| b.name == format!("mixamorig:{side}UpLeg"))
            .unwrap();
        let at = bones[thigh].head;
        let stub = bone(
            &format!("butt_{side}"),
            Some(thigh),
            at.to_array(),
            (at + Vec3::new(0.0, 0.0, -0.01)).to_array(),
            0.005,
        );
        bones.push(stub);
    }
    let (_dir, doc) = unblended(&bones);
    let a = Anatomy::of(&doc);
    for side in ["Left", "Right"] {
        for (part, role) in [
            ("UpLeg", Role::Thigh),
            ("Leg", Role::Shin),
            ("Foot", Role::Foot),
            ("ToeBase", Role::Toe),
        ] {
            let name = format!("mixamorig:{side}{part}");
            let id = doc.bone_by_name(&name).expect(&name);
            assert_eq!(a.role(id), role, "{name}");
        }
    }
}
