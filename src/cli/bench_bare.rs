//! `bench --bare-rapier PATH`: our stepping side by side with bare Rapier in a build of its
//! own (`tools/bare-rapier`: rapier3d with its default features, no hooks, no controllers).
//! Features unify within one build, so a bare world inside our binary gets whatever we
//! enable; the only fair baseline is another program. It steps the scene we export
//! ([`Simulation::export_scene`]) and answers the same line protocol as our own world
//! processes ([`super::bench_process`]), taking its turn in the same rounds.

use super::bench_process::WorldProcess;
use crate::sim::scene::WorldCounts;
use crate::sim::Simulation;
use anyhow::bail;
use std::path::Path;
use std::process::Command;

/// Steps both worlds take before their counts are compared (1 s at 120 Hz: standing).
pub const CHECK_STEPS: u64 = 120;

/// Starts `exe --serve` on the scene `file`.
pub fn spawn(exe: &Path, file: &Path) -> anyhow::Result<WorldProcess> {
    let mut command = Command::new(exe);
    command.arg(file).arg("--serve");
    WorldProcess::spawn("bare-rapier", command)
}

/// Whether two worlds' counts agree: bodies, colliders and joints exactly; contacts within
/// 10% (or 2): the same world stepped by two builds may differ in the last bits.
pub fn counts_agree(a: &WorldCounts, b: &WorldCounts) -> bool {
    let near = |x: usize, y: usize| x.abs_diff(y) <= 2.max(x.max(y) / 10);
    a.bodies == b.bodies
        && a.colliders == b.colliders
        && a.joints == b.joints
        && near(a.touching_pairs, b.touching_pairs)
        && near(a.contact_points, b.contact_points)
}

/// The check before timing: `fresh` (built like the timed world, stepped here without
/// controllers, as the bare program steps it) and the bare program after [`CHECK_STEPS`].
pub fn check(fresh: &mut Simulation, bare: &mut WorldProcess) -> anyhow::Result<[WorldCounts; 2]> {
    let ours = fresh.world_counts();
    if !counts_agree(&ours, &bare.built) {
        bail!(
            "the exported scene differs: ours {ours:?}, bare-rapier {:?}",
            bare.built
        );
    }
    for _ in 0..CHECK_STEPS {
        fresh.step_unhooked();
    }
    bare.step(CHECK_STEPS)?;
    let (ours, theirs) = (fresh.world_counts(), bare.counts()?);
    if !counts_agree(&ours, &theirs) {
        bail!("after {CHECK_STEPS} steps the worlds differ: ours {ours:?}, bare-rapier {theirs:?}");
    }
    Ok([ours, theirs])
}
