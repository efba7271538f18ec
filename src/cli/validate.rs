//! `validate`: print diagnostics; exit 0 (clean or warnings), 1 (errors), 2 (unreadable).

use crate::document::{has_errors, UriPolicy};
use std::path::Path;
use std::process::ExitCode;

pub fn run(file: &Path, policy: UriPolicy) -> anyhow::Result<ExitCode> {
    let doc = super::open(file, policy)?;
    for d in &doc.diagnostics {
        println!("{}: {d}", file.display());
    }
    let errors = doc.diagnostics.iter().filter(|d| d.severity == crate::document::Severity::Error).count();
    let warnings = doc.diagnostics.len() - errors;
    println!("{}: {} bones, {errors} errors, {warnings} warnings", file.display(), doc.bones.len());
    Ok(if has_errors(&doc.diagnostics) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
