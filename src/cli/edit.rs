//! `edit`: apply `--set BONE.KEY=VALUE` edits through the document's edit commands and save.

use crate::document::{parse_assignment, Diagnostic, Edit, Severity, UriPolicy};
use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;

pub fn run(
    file: &Path,
    output: &Path,
    sets: &[String],
    force: bool,
    policy: UriPolicy,
) -> anyhow::Result<ExitCode> {
    let mut doc = super::open(file, policy)?;
    let before: Vec<Diagnostic> = doc.diagnostics.clone();
    apply_sets(&mut doc, sets).with_context(|| format!("{}", file.display()))?;
    let new_errors: Vec<&Diagnostic> = doc
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && !before.contains(d))
        .collect();
    for d in &new_errors {
        eprintln!("{}: {d}", file.display());
    }
    if !new_errors.is_empty() && !force {
        eprintln!(
            "not written: the edits introduce {} error(s); fix them or pass --force",
            new_errors.len()
        );
        return Ok(ExitCode::from(1));
    }
    doc.write_to(output)?;
    println!("wrote {} ({} edit(s))", output.display(), sets.len());
    Ok(ExitCode::SUCCESS)
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
