//! `edit`: apply `--set BONE.KEY=VALUE` edits through the document's edit commands and save.

use crate::document::{parse_assignment, Diagnostic, Edit, Severity, UriPolicy};
use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;

/// What `edit` does besides `--set`.
#[derive(Debug, Clone, Default)]
pub struct EditExtras {
    /// Mirror one side of the character onto the other (after the `--set` edits).
    pub mirror: Option<crate::mirror::Direction>,
    /// A preset to apply (after the `--set` edits, before the mirror): the built-in
    /// `humanoid`, a user preset's name or a preset file.
    pub preset: Option<String>,
    /// With `mirror`: only these bones (either side of a pair); with `preset`: only these.
    pub bones: Vec<String>,
    /// Apply the doctor's Stabilize last.
    pub stabilize: Option<crate::doctor::StabilizeOptions>,
}

pub fn run(
    file: &Path,
    output: &Path,
    sets: &[String],
    force: bool,
    extras: &EditExtras,
    policy: UriPolicy,
) -> anyhow::Result<ExitCode> {
    let mut doc = super::open(file, policy)?;
    let before: Vec<Diagnostic> = doc.diagnostics.clone();
    apply_sets(&mut doc, sets).with_context(|| format!("{}", file.display()))?;
    let preset = match &extras.preset {
        Some(p) => Some(
            apply_preset(&mut doc, p, &extras.bones)
                .with_context(|| format!("{}", file.display()))?,
        ),
        None => None,
    };
    let mirrored = match extras.mirror {
        Some(dir) => apply_mirror(&mut doc, dir, &extras.bones)
            .with_context(|| format!("{}", file.display()))?,
        None => 0,
    };
    if let Some(opts) = &extras.stabilize {
        let s = crate::doctor::stabilize(&doc, opts);
        doc.apply(&s.edit).context("--stabilize")?;
        for c in &s.changes {
            println!("stabilize: {c}");
        }
        match s.nothing {
            Some(why) => println!("stabilize: {why}"),
            None => println!("stabilize: {} change(s)", s.changes.len()),
        }
    }
    let new_errors = report_new_errors(file, &before, &doc);
    if !new_errors.is_empty() && !force {
        eprintln!(
            "not written: the edits introduce {} error(s); fix them or pass --force",
            new_errors.len()
        );
        return Ok(ExitCode::from(1));
    }
    super::write_out(&doc, output)?;
    if let (Some(name), Some((bones, skipped))) = (&extras.preset, preset) {
        println!("preset {name}: {bones} bone(s), {skipped} jointed bone(s) without a match");
    }
    if extras.mirror.is_some() {
        println!("mirrored {mirrored} bone(s)");
    }
    println!("wrote {} ({} edit(s))", output.display(), sets.len());
    Ok(ExitCode::SUCCESS)
}

/// The error diagnostics `doc` has that it did not have `before` the edits, each printed to
/// stderr with the file's name.
pub fn report_new_errors<'a>(
    file: &Path,
    before: &[Diagnostic],
    doc: &'a crate::document::Document,
) -> Vec<&'a Diagnostic> {
    let new_errors: Vec<&Diagnostic> = doc
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && !before.contains(d))
        .collect();
    for d in &new_errors {
        eprintln!("{}: {d}", file.display());
    }
    new_errors
}

/// Applies each `BONE.KEY=VALUE` in order; the first bad one stops with its message.
pub fn apply_sets(doc: &mut crate::document::Document, sets: &[String]) -> anyhow::Result<()> {
    for s in sets {
        let (lhs, value) = parse_assignment(s)?;
        let (target, key) = doc.resolve_key(&lhs)?;
        doc.apply(&Edit::Set { target, key, value })
            .with_context(|| format!("--set {s}"))?;
    }
    Ok(())
}

/// Mirrors one side onto the other as one all-or-nothing group; returns the bones written.
pub fn apply_mirror(
    doc: &mut crate::document::Document,
    dir: crate::mirror::Direction,
    bones: &[String],
) -> anyhow::Result<usize> {
    let ids = bone_ids(doc, bones)?;
    let only = (!ids.is_empty()).then_some(ids.as_slice());
    let edits = crate::mirror::mirror_side(doc, dir, only);
    let targets: std::collections::BTreeSet<_> =
        edits.iter().map(|e| format!("{:?}", e.target())).collect();
    if edits.is_empty() {
        anyhow::bail!("no left/right twins found to mirror (by name or by position)");
    }
    doc.apply(&Edit::Group(edits)).context("--mirror")?;
    Ok(targets.len())
}

/// Applies a preset to `bones` (all bones when empty) as one all-or-nothing group; returns
/// (bones changed, jointed bones the preset had nothing for).
pub fn apply_preset(
    doc: &mut crate::document::Document,
    name: &str,
    bones: &[String],
) -> anyhow::Result<(usize, usize)> {
    let mut scope = bone_ids(doc, bones)?;
    if scope.is_empty() {
        scope = doc.bone_ids().collect();
    }
    let applied = crate::presets::apply_named(doc, name, &scope, None)
        .with_context(|| format!("--preset {name}"))?;
    if applied.edits.is_empty() {
        anyhow::bail!(
            "--preset {name}: nothing to apply ({} jointed bone(s) without a match)",
            applied.skipped
        );
    }
    doc.apply(&Edit::Group(applied.edits))
        .with_context(|| format!("--preset {name}"))?;
    Ok((applied.bones, applied.skipped))
}

/// The bones named in `--bones` (comma-separated lists allowed).
fn bone_ids(
    doc: &crate::document::Document,
    bones: &[String],
) -> anyhow::Result<Vec<crate::document::BoneId>> {
    bones
        .iter()
        .flat_map(|b| b.split(','))
        .map(|b| {
            doc.bone_by_name(b.trim())
                .ok_or_else(|| anyhow::anyhow!("--bones: no bone named '{}'", b.trim()))
        })
        .collect()
}
