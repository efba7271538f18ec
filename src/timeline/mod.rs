//! The simulation timeline, over the simulation layer: recording a run ([`record`]), and
//! baking what the ragdoll did into a glTF animation clip ([`bake`]). Branching a run is a
//! snapshot of the simulation (`Simulation::clone`, exact: a copy steps bit for bit as the
//! original).

pub mod bake;
pub mod record;
pub mod tape;

pub use bake::{append_edit, bake, clip_names, BakeError, BakeOptions, Baked};
pub use record::{Frame, Recording};
pub use tape::Tape;

/// Seconds of every run the editor's timeline keeps (poses, snapshots, plotted telemetry).
pub const RECORD_SECONDS: f64 = 60.0;
