//! Joint math shared by every layer (glam only: no Rapier, three-d or egui). The solver
//! builds its joints from it, telemetry and plots measure with it, the gizmos draw with it and
//! `inspect` reports it, so what is drawn is what is enforced.
//!
//! - [`frame`]: the resolved parent and the joint frame of a constraint;
//! - [`swing_twist`]: the swing-twist decomposition (`q = q_swing * q_twist` about X);
//! - [`boundary`]: the asymmetric swing boundary, its containment and its cones;
//! - [`limits`]: limit use (0..1) and violation of a relative rotation;
//! - [`mass_ratio`]: mass ratios across joints (the bound, and Jolt's evening of a chain).

pub mod boundary;
pub mod frame;
pub mod inertia;
pub mod limits;
pub mod load;
pub mod mass_ratio;
pub mod swing_twist;

pub use boundary::{Cone, SwingBoundary};
pub use frame::{constraint_parent, resolve, JointDef};
pub use inertia::{joint_inertia, whole_body_about_ground, Gains, Natural};
pub use limits::{JointLimits, JointMeasure};
pub use swing_twist::{decompose, SwingTwist};
