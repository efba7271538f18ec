//! Errors of the simulation layer.

use thiserror::Error;

/// Why a world could not be built or an edit could not be applied to it.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SimError {
    #[error("bone '{bone}': {what} cannot be simulated")]
    BadValue { bone: String, what: String },
    #[error("{count} collision groups (with 'world'); at most 32 fit Rapier's group bits")]
    TooManyGroups { count: usize },
    #[error("no bone named '{0}' has a body in the simulation")]
    UnknownBone(String),
    #[error("the document has no bone with a collider: nothing to simulate")]
    Empty,
    #[error("bodies were added or removed (bone '{0}'); rebuild the simulation")]
    NeedsRebuild(String),
    #[error("{0}")]
    BadInput(String),
}

/// Why the simulation paused itself. It stays paused until [`super::Simulation::resume`].
#[derive(Debug, Clone, PartialEq)]
pub struct SimPause {
    pub step: u64,
    pub time_s: f64,
    /// The bone whose body went bad.
    pub bone: String,
    pub reason: String,
}

impl std::fmt::Display for SimPause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "simulation paused at t={:.3} s (step {}): bone '{}': {}",
            self.time_s, self.step, self.bone, self.reason
        )
    }
}

impl std::error::Error for SimPause {}
