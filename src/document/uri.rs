//! Resolving the `uri` of buffers and images. A glTF file is untrusted input: external
//! files resolve only inside the asset's own folder tree unless the caller opts out.

use base64::Engine;
use std::path::{Component, Path, PathBuf};

/// How far external URIs may reach.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum UriPolicy {
    /// Only relative paths inside the asset's folder tree (the default).
    #[default]
    AssetFolderOnly,
    /// Also absolute paths, `file:` URLs and `..` escapes (explicit opt-in).
    AllowAnyLocalFile,
}

/// Where a URI's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UriSource {
    /// Inline `data:` URI, already decoded.
    Data(Vec<u8>),
    /// A local file, checked against the policy.
    File(PathBuf),
}

fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad percent escape in '{s}'"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("'{s}' is not UTF-8 after percent decoding"))
}

/// Decodes a `data:[mime][;base64],payload` URI.
fn decode_data_uri(uri: &str) -> Result<Vec<u8>, String> {
    let (header, payload) = uri
        .split_once(',')
        .ok_or("data: URI without a ',' separator")?;
    if header.ends_with(";base64") {
        base64::engine::general_purpose::STANDARD
            .decode(payload.trim())
            .map_err(|e| format!("data: URI is not valid base64: {e}"))
    } else {
        percent_decode(payload).map(String::into_bytes)
    }
}

/// Resolves `uri` relative to `base_dir` under `policy`. Errors say why a URI is refused.
pub fn resolve(uri: &str, base_dir: &Path, policy: UriPolicy) -> Result<UriSource, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        return decode_data_uri(rest).map(UriSource::Data);
    }
    let (path_text, is_file_url) = match uri.strip_prefix("file:") {
        Some(rest) => (rest.trim_start_matches("//").to_string(), true),
        None => (uri.to_string(), false),
    };
    if !is_file_url && uri.contains("://") {
        return Err(format!(
            "'{uri}' is a remote URL; only local files are loaded"
        ));
    }
    let decoded = percent_decode(&path_text)?;
    let rel = Path::new(&decoded);
    let escapes = rel.is_absolute()
        || is_file_url
        || decoded.starts_with('\\')
        || decoded.contains(":\\")
        || rel
            .components()
            .any(|c| matches!(c, Component::ParentDir | Component::Prefix(_)));
    if escapes && policy == UriPolicy::AssetFolderOnly {
        return Err(format!(
            "refused '{uri}': external files must lie inside the asset's folder \
             (absolute paths, file: URLs and '..' are not followed; \
             pass --allow-external-uris to allow them)"
        ));
    }
    let full = if rel.is_absolute() {
        rel.to_path_buf()
    } else {
        base_dir.join(rel)
    };
    if policy == UriPolicy::AssetFolderOnly {
        check_inside(&full, base_dir, uri)?;
    }
    Ok(UriSource::File(full))
}

/// Refuses a path that, after following symlinks, leaves `base_dir`.
fn check_inside(full: &Path, base_dir: &Path, uri: &str) -> Result<(), String> {
    let (Ok(real), Ok(base)) = (full.canonicalize(), base_dir.canonicalize()) else {
        return Ok(()); // A missing file is reported by the reader with its own message.
    };
    if real.starts_with(&base) {
        Ok(())
    } else {
        Err(format!(
            "refused '{uri}': it resolves to {} outside the asset's folder",
            real.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes() {
        let base = Path::new("/tmp");
        for uri in [
            "/etc/passwd",
            "../etc/passwd",
            "file:///etc/passwd",
            "a/../../x",
        ] {
            assert!(
                resolve(uri, base, UriPolicy::AssetFolderOnly).is_err(),
                "{uri}"
            );
        }
        assert!(resolve("/etc/passwd", base, UriPolicy::AllowAnyLocalFile).is_ok());
    }

    #[test]
    fn decodes_data_and_relative() {
        let got = resolve(
            "data:application/octet-stream;base64,AAEC",
            Path::new("."),
            UriPolicy::default(),
        );
        assert_eq!(got.unwrap(), UriSource::Data(vec![0, 1, 2]));
        let got = resolve("sub%20dir/a.bin", Path::new("/x"), UriPolicy::default()).unwrap();
        assert_eq!(got, UriSource::File(PathBuf::from("/x/sub dir/a.bin")));
    }
}
