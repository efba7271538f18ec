//! `validate`: print diagnostics, and check that every buffer, accessor and skin the viewport
//! needs can be read, the anatomy's plausibility (warnings), then the stability doctor's
//! findings ([`crate::doctor`]). Exit 0 (clean or warnings), 1 (errors), 2 (unreadable file).

use crate::document::{Diagnostic, Severity, UriPolicy};
use std::path::Path;
use std::process::ExitCode;

pub fn run(file: &Path, policy: UriPolicy) -> anyhow::Result<ExitCode> {
    let doc = super::open(file, policy)?;
    let mut diags = doc.diagnostics.clone();
    // What no real body has (warnings): a wrong role, a nonsense ragdoll.
    diags.extend(crate::anatomy::plausible::of(&doc));
    if let Err(e) = doc.load_geometry() {
        diags.push(Diagnostic::error(
            None,
            "document",
            "geometry",
            e.to_string(),
        ));
    }
    diags.extend(crate::doctor::diagnostics(&doc));
    for d in &diags {
        println!("{}: {d}", file.display());
    }
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags.len() - errors;
    println!(
        "{}: {} bones, {errors} errors, {warnings} warnings",
        file.display(),
        doc.bones.len()
    );
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
