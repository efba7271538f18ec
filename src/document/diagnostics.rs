//! Problems found in a document's physics data. Never silently skipped: each names the node and key.

use serde::Serialize;

/// How bad a problem is. Errors make `validate` exit 1; the file still opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One problem: severity, the node it is on (None for document-level keys), the key path, and a message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// glTF node index, or None for a document-level key.
    pub node: Option<usize>,
    /// The node's display name (or `document`).
    #[serde(skip)]
    pub bone: String,
    /// Key path inside `extras.physics`, e.g. `constraint.parent_bone`.
    pub key: String,
    pub message: String,
}

impl Diagnostic {
    pub fn error(node: Option<usize>, bone: &str, key: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, node, bone, key, message)
    }

    pub fn warning(node: Option<usize>, bone: &str, key: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, node, bone, key, message)
    }

    fn new(
        severity: Severity,
        node: Option<usize>,
        bone: &str,
        key: &str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity,
            node,
            bone: bone.to_string(),
            key: key.to_string(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.node {
            Some(n) => write!(
                f,
                "{}: node {} '{}': {}: {}",
                self.severity, n, self.bone, self.key, self.message
            ),
            None => write!(
                f,
                "{}: document: {}: {}",
                self.severity, self.key, self.message
            ),
        }
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}
