//! One fact, one place: no schema key is spelled as a string literal in the crate's source
//! outside the field table and the codec (reader, writer, canonical edits). Code elsewhere
//! names a key by its `fields::Key`.

use crate::common::root;
use ragdoll_tuner::document::fields::FIELDS;
use ragdoll_tuner::document::write;
use std::path::{Path, PathBuf};

/// The field table and the codec.
const ALLOWED: &[&str] = &[
    "src/document/fields.rs",
    "src/document/parse/mod.rs",
    "src/document/parse/limits.rs",
    "src/document/parse/body.rs",
    "src/document/parse/anatomy.rs",
    "src/document/write.rs",
    "src/document/canonical.rs",
];

/// glTF's own property names that happen to be schema key names too (a node's `translation`
/// and `rotation`, an accessor's `type`): only their dotted schema paths count.
const GLTF_WORDS: &[&str] = &["type", "translation", "rotation"];

/// Words that are schema keys and also something else in one file: the forearm bone named
/// `radius` in the anatomy's bone-name vocabulary.
const OTHER_MEANINGS: &[(&str, &str)] = &[("src/anatomy/name_roles.rs", "radius")];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every string literal a schema key's name or path would be, with the container keys.
fn schema_words() -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for f in FIELDS {
        let path = f.id.path();
        words.push(path.to_string());
        for part in path.split('.') {
            if !GLTF_WORDS.contains(&part) {
                words.push(part.to_string());
            }
        }
    }
    words.extend(write::SWING_EXTENT_KEYS.map(String::from));
    words.extend([write::PHYSICS.to_string(), write::BALANCE.to_string()]);
    words.sort();
    words.dedup();
    words
}

/// The string literals of a line (no escapes needed: schema keys have none).
fn literals(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

#[test]
fn no_schema_key_is_spelled_outside_the_table_and_the_codec() {
    let words = schema_words();
    assert!(words.len() > 40, "the scan knows the keys: {}", words.len());
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut found = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if ALLOWED.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        // Unit tests inside the file read files as a consumer does: they may spell keys.
        let code = text.split("#[cfg(test)]").next().unwrap_or(&text);
        for (i, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for lit in literals(line) {
                let other = OTHER_MEANINGS.contains(&(rel.as_str(), lit));
                if !other && words.iter().any(|w| w == lit) {
                    found.push(format!("{rel}:{}: \"{lit}\"", i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "schema keys spelled outside the field table and the codec (use fields::Key):\n{}",
        found.join("\n")
    );
}
