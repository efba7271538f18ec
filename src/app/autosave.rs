//! Crash recovery: while a document has unsaved edits, the extras the tool owns (every node's
//! `extras` and the root's) are written to a small sidecar beside the file. On the next open
//! the sidecar is compared with the file, and differences are offered back as edits.

use crate::document::{write_atomic, Document, Edit, EditTarget};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// `dir/.NAME.autosave.json` beside the document.
pub fn sidecar_path(doc_path: &Path) -> PathBuf {
    let name = doc_path
        .file_name()
        .map_or_else(|| "untitled".into(), |n| n.to_string_lossy().into_owned());
    doc_path.with_file_name(format!(".{name}.autosave.json"))
}

fn node_extras(doc: &Document, n: usize) -> Value {
    doc.json()
        .get("nodes")
        .and_then(|v| v.get(n))
        .and_then(|v| v.get("extras"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// Writes the sidecar for the document's current state.
pub fn write(doc: &Document) -> Result<(), String> {
    let nodes: Vec<Value> = (0..doc.skeleton.nodes.len())
        .map(|n| node_extras(doc, n))
        .collect();
    let root = doc.json().get("extras").cloned().unwrap_or(Value::Null);
    let snapshot = json!({ "node_count": nodes.len(), "nodes": nodes, "extras": root });
    let text = serde_json::to_vec(&snapshot).map_err(|e| e.to_string())?;
    write_atomic(&sidecar_path(&doc.path), |w| {
        std::io::Write::write_all(w, &text)
    })
    .map_err(|e| e.to_string())
}

/// Deletes the sidecar (after a save, or when the user discards recovery).
pub fn remove(doc_path: &Path) {
    let _ = std::fs::remove_file(sidecar_path(doc_path));
}

/// The edits that bring `doc` to the sidecar's state, when a sidecar exists and differs.
pub fn recovery_edits(doc: &Document) -> Option<Vec<Edit>> {
    let text = std::fs::read(sidecar_path(&doc.path)).ok()?;
    let snap: Value = serde_json::from_slice(&text).ok()?;
    let nodes = snap.get("nodes")?.as_array()?;
    if nodes.len() != doc.skeleton.nodes.len() {
        return None;
    }
    let some = |v: &Value| (!v.is_null()).then(|| v.clone());
    let mut edits: Vec<Edit> = nodes
        .iter()
        .enumerate()
        .filter(|(n, v)| node_extras(doc, *n) != **v)
        .map(|(n, v)| Edit::ReplaceExtras {
            target: EditTarget::Node(n),
            extras: some(v),
        })
        .collect();
    let root = snap.get("extras").cloned().unwrap_or(Value::Null);
    if doc.json().get("extras").cloned().unwrap_or(Value::Null) != root {
        edits.push(Edit::ReplaceExtras {
            target: EditTarget::Document,
            extras: some(&root),
        });
    }
    (!edits.is_empty()).then_some(edits)
}
