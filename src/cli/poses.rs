//! `simulate --poses FILE`: every body's world transform at every step, as CSV, so anyone can
//! check the limits from the poses without trusting our telemetry.
//! Header: `step,time_s,bone,px,py,pz,qx,qy,qz,qw` (metres, unit quaternion, world frame).
//! One row per bone that has a body, at step 0 (rest) and after every step. `bone` is the
//! bone's name, or `node<index>` where other bones share it (as `validate` and the balance
//! settings name it), so every row of a step names a different body.

use crate::document::Document;
use crate::sim::Simulation;
use anyhow::Context;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// An open poses CSV.
pub struct PoseWriter {
    path: PathBuf,
    out: BufWriter<std::fs::File>,
}

impl PoseWriter {
    pub fn create(path: &Path) -> anyhow::Result<Self> {
        let f =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let mut out = BufWriter::new(f);
        writeln!(out, "step,time_s,bone,px,py,pz,qx,qy,qz,qw")
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Self {
            path: path.to_path_buf(),
            out,
        })
    }

    /// Writes the current pose of every body.
    pub fn write(&mut self, doc: &Document, sim: &Simulation) -> anyhow::Result<()> {
        let (step, t) = (sim.steps(), sim.time_s());
        for (id, p) in sim.body_poses() {
            let (t3, q) = (p.translation, p.rotation);
            writeln!(
                self.out,
                "{step},{t:.6},{},{},{},{},{},{},{},{}",
                csv_field(&doc.bone_ref(id)),
                t3.x,
                t3.y,
                t3.z,
                q.x,
                q.y,
                q.z,
                q.w
            )
            .with_context(|| format!("writing {}", self.path.display()))?;
        }
        Ok(())
    }

    pub fn finish(mut self) -> anyhow::Result<()> {
        self.out
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

/// A bone name as a CSV field (quoted when it holds a comma, quote or newline).
fn csv_field(name: &str) -> String {
    if name.contains([',', '"', '\n']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}
