//! `generate`: make a ragdoll for a rigged character and save it losslessly.
//! Exit 0 when written, 1 when the result would have error diagnostics (not written), 2 on
//! unreadable input.

use crate::anatomy::Kind;
use crate::document::{
    write, Diagnostic, Document, ManualAnatomy, RoleAssignment, Severity, UriPolicy,
};
use crate::generate::{self, CharacterKind, Options, Report};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The options of `generate`.
#[derive(Debug, Clone, clap::Args)]
pub struct GenerateArgs {
    /// Output file (.gltf or .glb); may equal FILE.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Keep bones that already have physics (and existing balance settings).
    #[arg(long)]
    pub keep_existing: bool,
    /// Bones smaller than this share of the character's height merge into their parent.
    #[arg(long, default_value_t = 0.04, value_name = "SHARE")]
    pub min_bone_size: f64,
    /// Give fingers their own bodies.
    #[arg(long)]
    pub fingers: bool,
    /// Give toes their own bodies.
    #[arg(long)]
    pub toes: bool,
    /// Merge tail bones into the pelvis instead of giving them bodies.
    #[arg(long)]
    pub no_tail: bool,
    /// Give twist and roll bones their own bodies.
    #[arg(long)]
    pub twist: bool,
    /// Give hair and clothing chains named as such (Hair1, J_Sec_L_Skirt..., hair-pink.001.l)
    /// their own bodies; by default they are left out.
    #[arg(long)]
    pub cloth: bool,
    /// Total mass in kg (default: from the height, 70 kg at 1.75 m).
    #[arg(long, value_name = "KG")]
    pub mass: Option<f64>,
    /// Wrists and ankles as hinges (flexion only) instead of ball sockets.
    #[arg(long)]
    pub hinge_wrists_ankles: bool,
    /// Fit a humanoid's pelvis, spine and chest, and any head, to every vertex skinned to
    /// them. By default vertices far off the trunk (a tail, wings or a cape without bones of
    /// their own) and far, thin ones off a head (antlers, horns) are left out of its shapes,
    /// and the report counts them.
    #[arg(long)]
    pub keep_appendages: bool,
    /// The body plan, when detection is wrong.
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    pub plan: Option<CharacterKind>,
    /// The character's kind, stored in the file (the root's `extras.physics.anatomy`):
    /// biped, quadruped, multi_legged, legless, winged or other.
    #[arg(long, value_name = "KIND", value_parser = parse_kind, conflicts_with = "plan")]
    pub kind: Option<Kind>,
    /// A bone's role, stored in the file and kept by later runs: BONE=ROLE[:left|right]
    /// (repeatable; without a side a paired role keeps the detected side).
    #[arg(long = "role", value_name = "BONE=ROLE[:left|right]")]
    pub roles: Vec<String>,
}

/// A fine kind by name (`humanoid` is read as `biped`).
fn parse_kind(s: &str) -> Result<Kind, String> {
    match s {
        "humanoid" => Ok(Kind::Biped),
        _ => Kind::from_name(s).ok_or_else(|| {
            format!(
                "unknown kind '{s}'; expected one of {}",
                Kind::ALL.map(Kind::name).join(", ")
            )
        }),
    }
}

/// The document's manual anatomy with `--kind` and every `--role` added.
fn manual_anatomy(doc: &Document, a: &GenerateArgs) -> anyhow::Result<ManualAnatomy> {
    let mut m = doc.manual_anatomy.clone();
    if let Some(k) = a.kind {
        m.kind = Some(k);
    }
    for text in &a.roles {
        let (bone, role) = text
            .rsplit_once('=')
            .with_context(|| format!("--role {text}: expected BONE=ROLE[:left|right]"))?;
        let id = doc
            .bone_by_name(bone)
            .with_context(|| format!("--role {text}: no bone named '{bone}'"))?;
        let a = RoleAssignment::parse(role).map_err(|e| anyhow::anyhow!("--role {text}: {e}"))?;
        m.assign(&doc.bone_ref(id), a);
    }
    Ok(m)
}

impl GenerateArgs {
    pub fn options(&self) -> Options {
        Options {
            keep_existing: self.keep_existing,
            min_bone_size: self.min_bone_size,
            fingers: self.fingers,
            toes: self.toes,
            tail: !self.no_tail,
            twist: self.twist,
            cloth: self.cloth,
            total_mass_kg: self.mass,
            kind: self.plan,
            hinge_wrists_ankles: self.hinge_wrists_ankles,
            keep_appendages: self.keep_appendages,
        }
    }
}

pub fn run(file: &Path, a: &GenerateArgs, policy: UriPolicy) -> anyhow::Result<ExitCode> {
    let t0 = Instant::now();
    let mut doc = super::open(file, policy)?;
    if a.kind.is_some() || !a.roles.is_empty() {
        let m = manual_anatomy(&doc, a)?;
        doc.apply(&write::anatomy_edit(&m))
            .with_context(|| format!("{}: storing the anatomy", file.display()))?;
    }
    // The shapes are fitted to the mesh and the buffers are written with the file: a buffer
    // that cannot be read is the error, before a generation from the bones alone that could
    // not be written.
    doc.load_buffers()
        .with_context(|| format!("{}: cannot generate", file.display()))?;
    let before: Vec<Diagnostic> = doc.diagnostics.clone();
    let g = generate::generate(&doc, &a.options())?;
    let generate_ms = t0.elapsed().as_secs_f64() * 1e3;
    doc.apply(&g.edit)
        .with_context(|| format!("{}: applying the generated physics", file.display()))?;
    let new_errors = new_errors(&doc, &before);
    for d in &g.diagnostics {
        eprintln!("{}: {d}", file.display());
    }
    for d in &new_errors {
        eprintln!("{}: {d}", file.display());
    }
    if !new_errors.is_empty() {
        eprintln!(
            "not written: the generated physics has {} error(s)",
            new_errors.len()
        );
        return Ok(ExitCode::from(1));
    }
    super::write_out(&doc, &a.output)?;
    if a.json {
        println!("{}", serde_json::to_string(&g.report)?);
    } else {
        print_text(&g.report, &a.output, generate_ms);
    }
    Ok(ExitCode::SUCCESS)
}

/// The error diagnostics of `doc` that were not in `before`.
fn new_errors<'a>(doc: &'a Document, before: &[Diagnostic]) -> Vec<&'a Diagnostic> {
    doc.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && !before.contains(d))
        .collect()
}

/// The text report: a summary line, one line per bone, then the clip evidence.
fn print_text(r: &Report, output: &Path, generate_ms: f64) {
    use crate::document::fields::fixed_or_readable as big;
    println!(
        "wrote {}: {:?}, {} units tall, {} bodies, {} kg; coverage median {} (limbs min {}); generated in {:.0} ms",
        output.display(),
        r.character_type,
        big(r.height, 3),
        r.body_count,
        big(r.total_mass_kg, 2),
        fmt_opt(r.coverage.median),
        fmt_opt(r.coverage.min_limb),
        generate_ms
    );
    for b in &r.bones {
        let what = match b.role {
            generate::Role::Head => {
                "far and thin off the head left out: antlers, horns or long ears"
            }
            _ => "far off the trunk left out: a tail, wings or a cape",
        };
        let appendage = (b.appendage_vertices)
            .map_or(String::new(), |n| format!(" ({n} vertices {what})"))
            + &b.carried_vertices
                .map_or(String::new(), |n| format!(" ({n} vertices left out)"));
        println!(
            "  {:<28} {:<10} {}{appendage}",
            b.name,
            b.role.name(),
            match (b.shape, b.joint) {
                (Some(s), Some(j)) => format!("{s}, {j}"),
                (Some(s), None) => format!("{s}, root"),
                _ => b.outcome.clone(),
            }
        );
    }
    print_clip_evidence(r);
}

/// The limits the clips widened (or did not) and the bodies kept apart.
fn print_clip_evidence(r: &Report) {
    for w in &r.widened {
        let by = if w.twin {
            "its mirror twin".to_string()
        } else {
            w.clips.join(", ")
        };
        println!(
            "  limit widened {}: {} -> {} (for {by})",
            w.bone, w.from, w.to
        );
    }
    for n in &r.not_widened {
        println!(
            "  limit not widened {}: {} kept, {} wanted by {} ({}: held poses, not a motion)",
            n.bone, n.kept, n.wanted, n.clip, n.evidence
        );
    }
    for [x, y] in &r.kept_apart {
        println!("  kept apart {x} and {y}: a clip drives them into each other");
    }
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("not measured".into(), |v| format!("{v:.3}"))
}
