//! The 3D viewport's scene (three-d). Pure-glam parts (pose, joint math, gizmo geometry, camera,
//! picking, skinning) are separate from the GL part ([`scene`]), so they test without a GPU.

pub mod batch;
pub mod camera;
pub mod colliders;
mod convert;
pub mod gizmo;
mod gpu_skin;
pub mod joint;
pub mod lod;
pub mod offscreen;
pub mod pose;
pub mod scene;
mod shade;
pub mod skin;
pub mod tint;

pub use camera::OrbitCamera;
pub use pose::{Carriage, Pose};
pub use scene::{GpuScene, SceneInput};
