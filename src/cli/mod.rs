//! The command-line front end: the same document layer the GUI uses.

mod bench;
mod bench_bare;
mod bench_clip;
mod bench_io;
mod bench_process;
mod bench_record;
mod bench_serve;
mod bench_window;
mod edit;
pub mod generate;
pub mod inspect;
pub mod poses;
pub mod simulate;
pub mod tune;
mod validate;

use crate::document::{DocError, Document, UriPolicy};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// ragdoll-tuner: tune physics ragdolls stored in glTF extras.
#[derive(Debug, Parser)]
#[command(
    name = "ragdoll-tuner",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Character to open in the editor (.gltf or .glb); the bundled mannequin when omitted.
    pub file: Option<PathBuf>,
    /// Follow absolute paths, file: URLs and '..' in external URIs (unsafe for untrusted files).
    #[arg(long, global = true)]
    pub allow_external_uris: bool,
    /// Editor: render a few frames, write the whole window to this PNG and exit.
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// Editor: select this bone at start.
    #[arg(long, value_name = "BONE")]
    pub select: Option<String>,
    /// Editor: simulate this many seconds before the screenshot.
    #[arg(long, value_name = "S", value_parser = simulate::run_length)]
    pub sim_seconds: Option<f64>,
    /// Editor: after --sim-seconds, scrub the timeline back to this recorded moment (s), so
    /// the screenshot shows the recorded pose and the plots' cursor.
    #[arg(long, value_name = "S", requires = "sim_seconds", value_parser = simulate::run_length)]
    pub scrub: Option<f64>,
    /// Editor: after --sim-seconds S, branch the run at this recorded moment T (s): scrub
    /// there, make the --branch-set edits, "Resimulate from here", run the branch to S and
    /// overlay the first run in the plots (a screenshot of two runs compared).
    #[arg(
        long,
        value_name = "T",
        requires = "sim_seconds",
        conflicts_with = "scrub",
        value_parser = simulate::run_length
    )]
    pub branch_at: Option<f64>,
    /// Editor: with --branch-at, an edit (BONE.KEY=VALUE) made before resimulating, as the
    /// inspector would; repeatable.
    #[arg(long, value_name = "BONE.KEY=VALUE", requires = "branch_at")]
    pub branch_set: Vec<String>,
    /// Editor: time N frames of the editor and N of a bare window, print one JSON line, exit.
    #[arg(long, value_name = "N")]
    pub bench_frames: Option<usize>,
    /// Editor: play this animation clip (name or index) as the drive targets from the start.
    #[arg(long, value_name = "NAME|INDEX")]
    pub clip: Option<String>,
    /// Editor: after start, make this edit (BONE.KEY=VALUE) as the inspector would, one per
    /// frame when repeated; for tests of what follows an edit (autosave of an idle window).
    #[arg(long = "apply", value_name = "BONE.KEY=VALUE", hide = true)]
    pub apply: Vec<String>,
    /// Editor: run this command of the menus at start, as if picked (e.g. `auto-tune`,
    /// `bake-to-clip`, `generate-ragdoll`, `stabilize`); repeatable.
    #[arg(long = "command", value_name = "ID", value_parser = crate::app::commands::Command::parse_id)]
    pub commands: Vec<crate::app::commands::Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every bone with its collider and constraint, then the diagnostics.
    Inspect {
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the diagnostics. Exit 0: no error; 1: errors found; 2: unreadable file.
    Validate { file: PathBuf },
    /// Batch-edit physics keys and save losslessly to OUT (.gltf or .glb).
    Edit {
        file: PathBuf,
        /// Output file (.gltf or .glb); may equal FILE.
        #[arg(short, long)]
        output: PathBuf,
        /// BONE.KEY=VALUE, e.g. shin_l.constraint.limit_min_deg=-120 or @balance.upright_kp=500.
        #[arg(long = "set", value_name = "BONE.KEY=VALUE")]
        sets: Vec<String>,
        /// Write even when the edits introduce error diagnostics.
        #[arg(long)]
        force: bool,
        /// Mirror one side's colliders, limits and drives onto the other (twins by name,
        /// failing that by position across the mid-plane).
        #[arg(long, value_enum)]
        mirror: Option<crate::mirror::Direction>,
        /// Apply a preset of limits and gains (after --set, before --mirror): `humanoid` (the
        /// built-in reference humanoid, by role), a user preset's name, or a preset JSON file.
        #[arg(long, value_name = "NAME|FILE")]
        preset: Option<String>,
        /// With --mirror: only these bones (comma-separated; either side of a pair). With
        /// --preset: only these bones.
        #[arg(long, value_delimiter = ',')]
        bones: Vec<String>,
        /// Apply the stability doctor's fixes last, as one edit, and print every change:
        /// mass ratios clamped, parent inertia raised, overlapping pairs disabled, tiny
        /// limits widened, damping added, drives capped.
        #[arg(long)]
        stabilize: bool,
        /// With --stabilize: the largest mass ratio across a joint, either way (Jolt's 1.2
        /// when omitted).
        #[arg(long, value_name = "R", requires = "stabilize")]
        max_mass_ratio: Option<f64>,
    },
    /// Measure load + edit + save of a large GLB against a plain file copy.
    BenchIo {
        /// Size of the BIN chunk in MB.
        #[arg(long, default_value_t = 200)]
        mb: usize,
        /// Folder for the temporary files.
        #[arg(long, default_value = "target/bench-io")]
        dir: PathBuf,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
    /// Run the ragdoll headless (fixed 120 Hz steps) and report falls, tilt and per-joint
    /// errors and limit violations. Exit 1 when the stability guard paused the run.
    Simulate {
        file: PathBuf,
        #[command(flatten)]
        args: simulate::SimulateArgs,
    },
    /// Steps 1, 10 and 100 default mannequins at 120 Hz (editor and Rapier-default solver
    /// settings), side by side with bare Rapier stepping the same bodies and joints.
    Bench(bench::BenchArgs),
    /// The cost of following an animation clip: steps/s following it (kinematic root) side
    /// by side with holding the rest pose (root pinned), same world.
    BenchClip {
        file: PathBuf,
        /// The clip's name or index.
        #[arg(long, default_value = "0")]
        clip: String,
        /// Wall-clock seconds measured (split between the two).
        #[arg(long, default_value_t = 4.0, value_parser = bench::measure_seconds)]
        seconds: f64,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The cost of the timeline's recording: steps/s of the mannequin and the dense 50-body
    /// character recorded (60 s tape) side by side with plain stepping, and the memory of
    /// 60 s of the dense character.
    BenchRecord {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Wall-clock seconds measured per character (split into 25 short alternating
        /// measurements of recorded and plain; the overhead of the mean rates is reported).
        #[arg(long, default_value_t = 10.0, value_parser = bench::measure_seconds)]
        seconds_per_case: f64,
    },
    /// Generate a ragdoll (shapes fitted to the skin, joints, limits, masses, drives and
    /// balance) for a rigged character and save it losslessly to OUT.
    Generate {
        file: PathBuf,
        #[command(flatten)]
        args: generate::GenerateArgs,
    },
    /// Search the drive and balance gains for a designer's goals (survive pushes of one
    /// size, fall from another, follow a clip, stand, keep limits, an assist cap, least
    /// effort) and write them to OUT; reports before and after.
    Tune {
        file: PathBuf,
        #[command(flatten)]
        args: tune::TuneArgs,
    },
    /// Write the bundled default character from the generator code.
    GenerateMannequin {
        #[arg(default_value = crate::mannequin::ASSET_PATH)]
        output: PathBuf,
        /// Write the dense test character instead (50 bones with fingers, a 35,000-vertex
        /// skin, a ragdoll) to this file; the default mannequin is left alone.
        #[arg(long, value_name = "OUT")]
        dense: Option<PathBuf>,
    },
}

impl Cli {
    /// The editor's options from the command line.
    pub fn editor_options(&self) -> crate::app::Options {
        crate::app::Options {
            file: self.file.clone(),
            screenshot: self.screenshot.clone(),
            select: self.select.clone(),
            sim_seconds: self.sim_seconds,
            scrub: self.scrub,
            branch_at: self.branch_at,
            branch_set: self.branch_set.clone(),
            bench_frames: self.bench_frames,
            clip: self.clip.clone(),
            apply: self.apply.clone(),
            commands: self.commands.clone(),
            policy: self.uri_policy(),
        }
    }

    pub fn uri_policy(&self) -> UriPolicy {
        if self.allow_external_uris {
            UriPolicy::AllowAnyLocalFile
        } else {
            UriPolicy::AssetFolderOnly
        }
    }
}

/// Runs a subcommand; errors print as one clear line and give exit code 2.
pub fn run(command: Command, policy: UriPolicy) -> ExitCode {
    let result = match command {
        Command::Inspect { file, json } => inspect::run(&file, json, policy),
        Command::Validate { file } => validate::run(&file, policy),
        Command::Edit {
            file,
            output,
            sets,
            force,
            mirror,
            preset,
            bones,
            stabilize,
            max_mass_ratio,
        } => {
            let extras = edit::EditExtras {
                mirror,
                preset,
                bones,
                stabilize: stabilize.then(|| crate::doctor::StabilizeOptions {
                    max_mass_ratio: max_mass_ratio.unwrap_or(crate::doctor::JOLT_MAX_MASS_RATIO),
                    ..Default::default()
                }),
            };
            edit::run(&file, &output, &sets, force, &extras, policy)
        }
        Command::Simulate { file, args } => simulate::run(&file, &args, policy),
        Command::Bench(args) => bench::run(&args),
        Command::BenchIo { mb, dir, runs } => bench_io::run(mb, &dir, runs),
        Command::BenchClip {
            file,
            clip,
            seconds,
            json,
        } => bench_clip::run(&file, &clip, seconds, json, policy),
        Command::BenchRecord {
            json,
            seconds_per_case,
        } => bench_record::run(json, seconds_per_case),
        Command::Generate { file, args } => generate::run(&file, &args, policy),
        Command::Tune { file, args } => tune::run(&file, &args, policy),
        Command::GenerateMannequin { output, dense } => match dense {
            Some(out) => generate_dense(&out),
            None => generate_mannequin(&output),
        },
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Writes `doc` to `out`, telling stderr which images stayed references to missing files.
fn write_out(doc: &Document, out: &Path) -> Result<(), DocError> {
    for w in doc.write_to(out)?.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(())
}

fn open(file: &Path, policy: UriPolicy) -> Result<Document, DocError> {
    Document::open_with(file, policy)
}

fn generate_mannequin(output: &Path) -> anyhow::Result<ExitCode> {
    let bytes = crate::mannequin::generate();
    crate::document::write_atomic(output, |w| std::io::Write::write_all(w, &bytes))?;
    println!("wrote {} ({} bytes)", output.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}

fn generate_dense(output: &Path) -> anyhow::Result<ExitCode> {
    let bytes = crate::mannequin::dense::generate().map_err(anyhow::Error::msg)?;
    crate::document::write_atomic(output, |w| std::io::Write::write_all(w, &bytes))?;
    println!("wrote {} ({} bytes)", output.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}
