//! Lossless saving. Only the keys the tool owns change; everything else (unknown keys,
//! extensions, key order, number spelling, the BIN chunk) is written back as read. An
//! unedited document writes its JSON bytes verbatim. Every write is atomic.

use super::uri::{self, UriSource};
use super::{compression, container};
use super::{DocError, Document, Format};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a write left as it was rather than fail: each image file the output still names but
/// could not carry (missing or unreadable), as the error reading it gave. A loader reads such
/// an image as missing (tinygltf warns and keeps the uri), and the mesh, the skeleton and the
/// physics are written whole. Empty when everything was carried. Every caller that writes
/// for a user tells them (`cli::write_out`, the editor's status line).
#[derive(Debug, Default)]
pub struct Written {
    pub images_not_carried: Vec<DocError>,
}

impl Written {
    /// One line per image not carried, for a status bar or stderr.
    pub fn warnings(&self) -> Vec<String> {
        self.images_not_carried
            .iter()
            .map(|e| format!("{e}; written as a reference to the missing file, not carried"))
            .collect()
    }
}

impl Document {
    /// Saves to the document's own path.
    pub fn save(&mut self) -> Result<Written, DocError> {
        let path = self.path.clone();
        self.save_as(&path)
    }

    /// Saves to `out` (`.glb` or `.gltf`); the document then lives at `out`. A document in an
    /// earlier schema is brought to this build's first (see [`Document::migration`]).
    pub fn save_as(&mut self, out: &Path) -> Result<Written, DocError> {
        if let Some(m) = self.migration() {
            self.apply(&m).map_err(|e| DocError::Migrate {
                path: self.path.clone(),
                reason: e.to_string(),
            })?;
        }
        let written = self.write_to(out)?;
        if out != self.path || Format::from_path(out) != self.format {
            *self = Document::open_with(out, self.uri_policy)?;
            return Ok(written);
        }
        self.original_json = self.json_bytes(self.format);
        self.mark_saved();
        if let Some(bin) = &mut self.bin {
            let offset = container::bin_offset(self.original_json.len());
            bin.relocate(out, offset).map_err(|source| DocError::Read {
                path: out.into(),
                source,
            })?;
        }
        Ok(written)
    }

    /// Writes the document to `out` without changing it. `.glb` output packs external
    /// buffers and images into the BIN chunk; `.gltf` output keeps or writes them beside it.
    pub fn write_to(&self, out: &Path) -> Result<Written, DocError> {
        if let Some(m) = self.migration() {
            let mut migrated = self.clone();
            migrated.apply(&m).map_err(|e| DocError::Migrate {
                path: self.path.clone(),
                reason: e.to_string(),
            })?;
            return migrated.write_unmigrated(out);
        }
        self.write_unmigrated(out)
    }

    fn write_unmigrated(&self, out: &Path) -> Result<Written, DocError> {
        match (self.format, Format::from_path(out)) {
            (Format::Glb, Format::Glb) if !self.has_external_uris() => {
                let json = self.json_bytes(Format::Glb);
                let bin = self.bin.as_ref();
                write_atomic(out, |w| {
                    container::write_glb_with(w, &json, bin.map(|b| b.len()), |w| match bin {
                        Some(b) => b.write_into(w),
                        None => Ok(()),
                    })
                })?;
                Ok(Written::default())
            }
            (_, Format::Glb) => self.write_packed_glb(out),
            (Format::Gltf, Format::Gltf) => {
                let written = self.copy_externals(out)?;
                let json = self.json_bytes(Format::Gltf);
                write_atomic(out, |w| w.write_all(&json))?;
                Ok(written)
            }
            (Format::Glb, Format::Gltf) => self.write_unpacked_gltf(out),
        }
    }

    /// The JSON text to write: the original bytes when unedited, else the edited JSON.
    fn json_bytes(&self, format: Format) -> Vec<u8> {
        if !self.is_dirty() && format == self.format {
            return self.original_json.clone();
        }
        encode_json(
            &self.json,
            format == Format::Gltf && self.original_json.contains(&b'\n'),
        )
    }

    fn has_external_uris(&self) -> bool {
        uri_entries(&self.json)
            .iter()
            .any(|(_, _, u)| !u.starts_with("data:"))
    }

    /// `.gltf` saved into another folder: copies its relative external files along.
    fn copy_externals(&self, out: &Path) -> Result<Written, DocError> {
        let mut written = Written::default();
        let out_dir = out.parent().map(Path::to_path_buf).unwrap_or_default();
        if same_dir(&out_dir, &self.base_dir()) {
            return Ok(written);
        }
        for (key, array, u) in uri_entries(&self.json) {
            let uri_err = |reason: String| DocError::Uri {
                path: self.path.clone(),
                uri_key: key.clone(),
                reason,
            };
            if let UriSource::File(src) =
                uri::resolve(&u, &self.base_dir(), self.uri_policy).map_err(uri_err)?
            {
                if Path::new(&u).is_absolute() || u.starts_with("file:") {
                    continue; // An allowed absolute path stays valid from anywhere.
                }
                let bytes = match self.read_uri(&key, &u, None) {
                    Err(e) if array == "images" => {
                        written.images_not_carried.push(e);
                        continue;
                    }
                    read => read?,
                };
                let dest = out_dir.join(src.strip_prefix(self.base_dir()).unwrap_or(&src));
                if let Some(parent) = dest.parent() {
                    std::fs::create_dir_all(parent).map_err(|source| DocError::Write {
                        path: dest.clone(),
                        source,
                    })?;
                }
                write_atomic(&dest, |w| w.write_all(&bytes))?;
            }
        }
        Ok(written)
    }

    /// `.glb` output with every buffer and image packed into one BIN chunk. A meshopt
    /// fallback buffer (no bytes of its own) stays its own buffer, without a uri.
    fn write_packed_glb(&self, out: &Path) -> Result<Written, DocError> {
        let mut json = self.json.clone();
        let buffers = self.load_buffers()?;
        let list = json
            .get("buffers")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut bin = Vec::new();
        let mut places = Vec::with_capacity(buffers.len());
        let mut kept = Vec::new();
        for (i, b) in buffers.iter().enumerate() {
            if let Some(f) = list.get(i).filter(|b| compression::is_fallback(b)) {
                let mut f = f.as_object().cloned().unwrap_or_default();
                f.remove("uri");
                kept.push(Value::Object(f));
                places.push((kept.len() as u64, 0));
                continue;
            }
            align(&mut bin, 8);
            places.push((0, bin.len() as u64));
            bin.extend_from_slice(b);
        }
        rebase_views(&mut json, &places);
        let written = self.pack_images(&mut json, &mut bin);
        let first = json
            .pointer("/buffers/0")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if !bin.is_empty() || !kept.is_empty() {
            let mut buffer = first;
            buffer.remove("uri");
            if let Some(ext) = buffer.get_mut("extensions").and_then(Value::as_object_mut) {
                ext.retain(|name, _| !compression::EXTENSIONS.contains(&name.as_str()));
            }
            buffer.insert("byteLength".into(), json!(bin.len()));
            let all = std::iter::once(Value::Object(buffer)).chain(kept);
            json["buffers"] = Value::Array(all.collect());
        }
        let text = encode_json(&json, false);
        let bin = (!bin.is_empty()).then_some(bin.as_slice());
        write_atomic(out, |w| container::write_glb(w, &text, bin))?;
        Ok(written)
    }

    /// Moves every image file into the BIN chunk; one that cannot be read keeps its uri.
    fn pack_images(&self, json: &mut Value, bin: &mut Vec<u8>) -> Written {
        let mut written = Written::default();
        let count = json
            .get("images")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        for i in 0..count {
            let Some(u) = json["images"][i]
                .get("uri")
                .and_then(Value::as_str)
                .map(String::from)
            else {
                continue;
            };
            let key = format!("images[{i}].uri");
            let bytes = match self.read_uri(&key, &u, None) {
                Ok(b) => b,
                Err(e) => {
                    written.images_not_carried.push(e);
                    continue;
                }
            };
            align(bin, 8);
            let view = json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()});
            bin.extend_from_slice(&bytes);
            let views = json
                .as_object_mut()
                .map(|o| o.entry("bufferViews").or_insert_with(|| json!([])))
                .and_then(Value::as_array_mut);
            let Some(views) = views else { continue };
            views.push(view);
            let view_index = views.len() - 1;
            let image = json["images"][i]
                .as_object_mut()
                .expect("images[i] was read as an object above");
            image.remove("uri");
            image.insert("bufferView".into(), json!(view_index));
            if !image.contains_key("mimeType") {
                image.insert("mimeType".into(), json!(mime_type(&u, &bytes)));
            }
        }
        written
    }

    /// `.gltf` output from a `.glb`: the BIN chunk becomes `<name>.bin` beside it.
    fn write_unpacked_gltf(&self, out: &Path) -> Result<Written, DocError> {
        let written = self.copy_externals(out)?;
        let mut json = self.json.clone();
        if let Some(bin) = self.bin()? {
            let bin_path = out.with_extension("bin");
            let name = bin_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            write_atomic(&bin_path, |w| w.write_all(bin))?;
            if let Some(b0) = json
                .pointer_mut("/buffers/0")
                .and_then(Value::as_object_mut)
            {
                b0.insert("uri".into(), json!(name));
            }
        }
        let text = encode_json(&json, true);
        write_atomic(out, |w| w.write_all(&text))?;
        Ok(written)
    }
}

fn encode_json(json: &Value, pretty: bool) -> Vec<u8> {
    let out = if pretty {
        serde_json::to_vec_pretty(json)
    } else {
        serde_json::to_vec(json)
    };
    out.expect("a serde_json::Value always serializes")
}

/// Every `(key, array, uri)` of buffers and images with a `uri`.
fn uri_entries(json: &Value) -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    for array in ["buffers", "images"] {
        let Some(list) = json.get(array).and_then(Value::as_array) else {
            continue;
        };
        for (i, item) in list.iter().enumerate() {
            if let Some(u) = item.get("uri").and_then(Value::as_str) {
                out.push((format!("{array}[{i}].uri"), array, u.to_string()));
            }
        }
    }
    out
}

/// Points every buffer view (and the compressed bytes of a meshopt view) at its buffer's new
/// place: `places[old buffer]` is (new buffer, byte offset of the old buffer in it).
fn rebase_views(json: &mut Value, places: &[(u64, u64)]) {
    let Some(views) = json.get_mut("bufferViews").and_then(Value::as_array_mut) else {
        return;
    };
    let rebase = |obj: &mut serde_json::Map<String, Value>| {
        let buffer = obj.get("buffer").and_then(Value::as_u64).unwrap_or(0) as usize;
        let (to, base) = places.get(buffer).copied().unwrap_or((0, 0));
        let offset = obj.get("byteOffset").and_then(Value::as_u64).unwrap_or(0);
        obj.insert("buffer".into(), json!(to));
        if base != 0 || obj.contains_key("byteOffset") {
            obj.insert("byteOffset".into(), json!(base + offset));
        }
    };
    for view in views.iter_mut().filter_map(Value::as_object_mut) {
        rebase(view);
        let exts = view.get_mut("extensions").and_then(Value::as_object_mut);
        for (name, ext) in exts.into_iter().flatten() {
            if compression::EXTENSIONS.contains(&name.as_str()) {
                if let Some(ext) = ext.as_object_mut() {
                    rebase(ext);
                }
            }
        }
    }
}

fn align(bin: &mut Vec<u8>, to: usize) {
    bin.resize(bin.len().div_ceil(to) * to, 0);
}

fn mime_type(u: &str, bytes: &[u8]) -> &'static str {
    if bytes.starts_with(b"\x89PNG") || u.ends_with(".png") {
        "image/png"
    } else if bytes.starts_with(&[0xff, 0xd8]) || u.ends_with(".jpg") || u.ends_with(".jpeg") {
        "image/jpeg"
    } else if u.ends_with(".webp") {
        "image/webp"
    } else {
        "application/octet-stream"
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
    };
    canon(a) == canon(b)
}

/// Writes through a temporary file in the same folder, then renames it over `path`.
/// A failure leaves `path` untouched and says why.
pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), DocError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp: PathBuf = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let werr = |source| DocError::Write {
        path: path.to_path_buf(),
        source,
    };
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(werr)
}
