//! Errors of the document layer: each names the file and, where there is one, the node and key.

use std::path::PathBuf;

/// A failure to read, parse, edit or write a document.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a valid GLB container: {reason}")]
    Glb { path: PathBuf, reason: String },
    #[error("{path}: invalid glTF JSON: {reason}")]
    Json { path: PathBuf, reason: String },
    #[error("{path}: invalid glTF: {reason}")]
    Gltf { path: PathBuf, reason: String },
    #[error("{path}: {uri_key}: {reason}")]
    Uri {
        path: PathBuf,
        uri_key: String,
        reason: String,
    },
    #[error("{path}: cannot write: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Unsupported { path: PathBuf, reason: String },
    #[error("{path}: requires the glTF extension '{extension}' ({what}), which this tool cannot read; export the file without it")]
    RequiredExtension {
        path: PathBuf,
        extension: String,
        what: String,
    },
    #[error("{path}: cannot bring the physics to the current schema: {reason}")]
    Migrate { path: PathBuf, reason: String },
}

/// A failure to apply an edit: names the bone (node) and the key.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum EditError {
    #[error("no bone named '{0}' (try `inspect` to list bones)")]
    UnknownBone(String),
    #[error("node {node} ('{bone}'): unknown key '{key}'; known keys: {known}")]
    UnknownKey {
        node: usize,
        bone: String,
        key: String,
        known: String,
    },
    #[error("unknown document key '{key}'; known keys: {known}")]
    UnknownDocumentKey { key: String, known: String },
    #[error("node {node} ('{bone}'): '{key}' cannot be set: {reason}")]
    NotAnObject {
        node: usize,
        bone: String,
        key: String,
        reason: String,
    },
    #[error("'{0}' is not of the form BONE.KEY=VALUE")]
    Syntax(String),
}
