//! The default mannequin's bones: rest positions, colliders, masses, joint limits (the
//! seed's reference humanoid ranges) and drive gains.

use crate::document::fields::Key;
/// Collider of a mannequin bone (metres, bone space).
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    Capsule { radius: f32, half_height: f32 },
    Sphere { radius: f32 },
    Box { half_extents: [f32; 3] },
}

/// Joint of a mannequin bone to its parent (degrees).
#[derive(Debug, Clone, Copy)]
pub enum Joint {
    Root,
    Ball {
        swing: f32,
        twist: f32,
    },
    /// Asymmetric swing extents (pos_y, neg_y, pos_z, neg_z) and a twist range [min, max], deg.
    Swing {
        swing: [f32; 4],
        twist: [f32; 2],
    },
    Hinge {
        axis: [f32; 3],
        min: f32,
        max: f32,
    },
}

/// One bone of the mannequin.
#[derive(Debug, Clone, Copy)]
pub struct BoneSpec {
    pub name: &'static str,
    pub parent: Option<&'static str>,
    /// World rest position of the bone origin (Y up, facing +Z, left = +X).
    pub world_m: [f32; 3],
    pub shape: Shape,
    /// Explicit collider centre in bone space, when the default (halfway to the child) does not fit.
    pub offset_m: Option<[f32; 3]>,
    /// Collider rotation in bone space (x, y, z, w); its +Y is the bone's primary axis.
    pub offset_rotation: Option<[f32; 4]>,
    pub mass_kg: f32,
    pub joint: Joint,
    /// Drive stiffness (N*m/rad), damping (N*m*s/rad), max torque (N*m).
    pub drive: [f32; 3],
    pub group: &'static str,
    pub mask: &'static str,
}

const TORSO_MASK: &str = "world,arm_l,arm_r";

fn side(left: bool, l: &'static str, r: &'static str) -> &'static str {
    if left {
        l
    } else {
        r
    }
}

/// What a limb's bones take from their side: left or right, the x of the limb (m), its
/// collision group and mask.
struct LimbSide {
    left: bool,
    x_m: f32,
    group: &'static str,
    mask: &'static str,
}

fn arm(left: bool) -> [BoneSpec; 3] {
    let s = LimbSide {
        left,
        x_m: if left { 0.22 } else { -0.22 },
        group: side(left, "arm_l", "arm_r"),
        mask: side(
            left,
            "world,torso,arm_r,leg_l,leg_r",
            "world,torso,arm_l,leg_l,leg_r",
        ),
    };
    [upper_arm(&s), forearm(&s), hand(&s)]
}

fn upper_arm(s: &LimbSide) -> BoneSpec {
    BoneSpec {
        name: side(s.left, "upper_arm_l", "upper_arm_r"),
        parent: Some("spine_upper"),
        world_m: [s.x_m, 1.45, 0.0],
        shape: Shape::Capsule {
            radius: 0.05,
            half_height: 0.09,
        },
        offset_m: None,
        offset_rotation: None,
        mass_kg: 2.5,
        joint: Joint::Ball {
            swing: 95.0,
            twist: 45.0,
        },
        drive: [150.0, 10.0, 100.0],
        group: s.group,
        mask: s.mask,
    }
}

fn forearm(s: &LimbSide) -> BoneSpec {
    BoneSpec {
        name: side(s.left, "forearm_l", "forearm_r"),
        parent: Some(side(s.left, "upper_arm_l", "upper_arm_r")),
        world_m: [s.x_m, 1.17, 0.0],
        shape: Shape::Capsule {
            radius: 0.04,
            half_height: 0.085,
        },
        offset_m: None,
        offset_rotation: None,
        mass_kg: 1.5,
        joint: Joint::Hinge {
            axis: [-1.0, 0.0, 0.0],
            min: 0.0,
            max: 145.0,
        },
        drive: [80.0, 5.0, 60.0],
        group: s.group,
        mask: s.mask,
    }
}

fn hand(s: &LimbSide) -> BoneSpec {
    BoneSpec {
        name: side(s.left, "hand_l", "hand_r"),
        parent: Some(side(s.left, "forearm_l", "forearm_r")),
        world_m: [s.x_m, 0.92, 0.0],
        shape: Shape::Capsule {
            radius: 0.035,
            half_height: 0.04,
        },
        offset_m: Some([0.0, -0.08, 0.0]),
        // The hand hangs down: its primary axis (the capsule's +Y) points along -Y.
        offset_rotation: Some([1.0, 0.0, 0.0, 0.0]),
        mass_kg: 0.5,
        // Joint frame: X down the hand, Y forward, Z = X x Y to the character's right.
        // Flexion (forward) 70, extension 60, deviation ±20; little twist (the forearm turns).
        joint: Joint::Swing {
            swing: [70.0, 60.0, 20.0, 20.0],
            twist: [-10.0, 10.0],
        },
        drive: [20.0, 1.0, 20.0],
        group: s.group,
        mask: s.mask,
    }
}
fn leg(left: bool) -> [BoneSpec; 3] {
    let s = LimbSide {
        left,
        x_m: if left { 0.10 } else { -0.10 },
        group: side(left, "leg_l", "leg_r"),
        mask: side(left, "world,leg_r,arm_l,arm_r", "world,leg_l,arm_l,arm_r"),
    };
    [thigh(&s), shin(&s), foot(&s)]
}

fn thigh(s: &LimbSide) -> BoneSpec {
    BoneSpec {
        name: side(s.left, "thigh_l", "thigh_r"),
        parent: Some("pelvis"),
        world_m: [s.x_m, 0.90, 0.0],
        shape: Shape::Capsule {
            radius: 0.07,
            half_height: 0.14,
        },
        offset_m: None,
        offset_rotation: None,
        mass_kg: 8.0,
        // Joint frame: X down the thigh, Y forward, Z = X x Y to the character's right:
        // 120 forward, 15 back, 45 out (abduction), 30 in (adduction), twist ±45.
        joint: Joint::Swing {
            swing: if s.left {
                [120.0, 15.0, 30.0, 45.0]
            } else {
                [120.0, 15.0, 45.0, 30.0]
            },
            twist: [-45.0, 45.0],
        },
        drive: [1500.0, 100.0, 800.0],
        group: s.group,
        mask: s.mask,
    }
}

fn shin(s: &LimbSide) -> BoneSpec {
    BoneSpec {
        name: side(s.left, "shin_l", "shin_r"),
        parent: Some(side(s.left, "thigh_l", "thigh_r")),
        world_m: [s.x_m, 0.50, 0.0],
        shape: Shape::Capsule {
            radius: 0.055,
            half_height: 0.15,
        },
        offset_m: None,
        offset_rotation: None,
        mass_kg: 3.5,
        joint: Joint::Hinge {
            axis: [1.0, 0.0, 0.0],
            min: 0.0,
            max: 135.0,
        },
        drive: [1500.0, 100.0, 800.0],
        group: s.group,
        mask: s.mask,
    }
}

fn foot(s: &LimbSide) -> BoneSpec {
    BoneSpec {
        name: side(s.left, "foot_l", "foot_r"),
        parent: Some(side(s.left, "shin_l", "shin_r")),
        world_m: [s.x_m, 0.08, 0.0],
        shape: Shape::Box {
            half_extents: [0.05, 0.035, 0.12],
        },
        offset_m: Some([0.0, -0.045, 0.06]),
        offset_rotation: None,
        mass_kg: 1.2,
        // About +X a positive angle takes the toes down: 20 up, 30 down.
        joint: Joint::Hinge {
            axis: [1.0, 0.0, 0.0],
            min: -20.0,
            max: 30.0,
        },
        drive: [1000.0, 60.0, 400.0],
        group: s.group,
        mask: s.mask,
    }
}

fn torso_bone(
    name: &'static str,
    parent: Option<&'static str>,
    y: f32,
    shape: Shape,
    mass_kg: f32,
    joint: Joint,
    drive: [f32; 3],
) -> BoneSpec {
    BoneSpec {
        name,
        parent,
        world_m: [0.0, y, 0.0],
        shape,
        offset_m: None,
        offset_rotation: None,
        mass_kg,
        joint,
        drive,
        group: "torso",
        mask: TORSO_MASK,
    }
}

/// All 18 bones, parents before children; a bone's first child is the one its collider points at.
pub fn bones() -> Vec<BoneSpec> {
    let mut out = vec![pelvis()];
    out.extend(spine());
    out.extend(neck_and_head());
    out.extend(arm(true));
    out.extend(arm(false));
    out.extend(leg(true));
    out.extend(leg(false));
    out
}

/// The root: the pelvis box, its collider centred on the bone.
fn pelvis() -> BoneSpec {
    BoneSpec {
        offset_m: Some([0.0, 0.0, 0.0]),
        ..torso_bone(
            "pelvis",
            None,
            0.95,
            Shape::Box {
                half_extents: [0.13, 0.08, 0.09],
            },
            10.0,
            Joint::Root,
            [0.0; 3],
        )
    }
}

/// The three spine bones, pelvis to chest.
fn spine() -> [BoneSpec; 3] {
    let spine = [800.0, 60.0, 500.0];
    [
        torso_bone(
            "spine_lower",
            Some("pelvis"),
            1.05,
            Shape::Capsule {
                radius: 0.10,
                half_height: 0.03,
            },
            8.0,
            Joint::Ball {
                swing: 15.0,
                twist: 10.0,
            },
            spine,
        ),
        torso_bone(
            "spine_mid",
            Some("spine_lower"),
            1.20,
            Shape::Capsule {
                radius: 0.11,
                half_height: 0.03,
            },
            8.0,
            Joint::Ball {
                swing: 18.0,
                twist: 12.0,
            },
            spine,
        ),
        torso_bone(
            "spine_upper",
            Some("spine_mid"),
            1.35,
            Shape::Capsule {
                radius: 0.12,
                half_height: 0.04,
            },
            10.0,
            Joint::Ball {
                swing: 20.0,
                twist: 15.0,
            },
            spine,
        ),
    ]
}

fn neck_and_head() -> [BoneSpec; 2] {
    [
        torso_bone(
            "neck",
            Some("spine_upper"),
            1.50,
            Shape::Capsule {
                radius: 0.05,
                half_height: 0.02,
            },
            2.2,
            Joint::Ball {
                swing: 30.0,
                twist: 30.0,
            },
            [150.0, 10.0, 100.0],
        ),
        BoneSpec {
            offset_m: Some([0.0, 0.10, 0.0]),
            ..torso_bone(
                "head",
                Some("neck"),
                1.58,
                Shape::Sphere { radius: 0.11 },
                4.3,
                Joint::Ball {
                    swing: 35.0,
                    twist: 45.0,
                },
                [100.0, 8.0, 80.0],
            )
        },
    ]
}

/// The standing height (m): the top of the highest collider above the floor (y = 0).
pub fn height_m() -> f64 {
    bones()
        .iter()
        .map(|b| {
            let reach = match b.shape {
                Shape::Capsule {
                    radius,
                    half_height,
                } => radius + half_height,
                Shape::Sphere { radius } => radius,
                Shape::Box { half_extents } => half_extents[1],
            };
            f64::from(b.world_m[1] + b.offset_m.map_or(0.0, |o| o[1]) + reach)
        })
        .fold(0.0, f64::max)
}

/// Balance gains shipped in the mannequin (document-level `extras.physics.balance`).
pub const BALANCE: [(Key, f32); 6] = [
    (Key::UprightKp, 3000.0),
    (Key::UprightKd, 300.0),
    (Key::UprightMaxTorque, 1000.0),
    (Key::AnkleKp, 300.0),
    (Key::AnkleKd, 60.0),
    (Key::AnkleMaxTorque, 150.0),
];

/// The balance bones: torso and pelvis, and the feet.
pub const PELVIS: &str = "pelvis";
pub const FEET: [&str; 2] = ["foot_l", "foot_r"];
