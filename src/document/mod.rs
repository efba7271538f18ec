//! The character document: a glTF file, its physics extras as typed values, and the
//! diagnostics about them. No GL, no UI. Edits change only the keys the tool owns, in the
//! document's own JSON, so a save keeps everything else as it was.

pub mod accessor;
pub mod animation;
mod bin;
mod bones;
pub mod canonical;
pub mod compression;
pub mod container;
mod diagnostics;
pub mod draco;
mod edit;
mod error;
mod extensions;
pub mod fields;
pub mod geometry;
pub mod ground;
pub mod manual_anatomy;
pub mod pairs;
pub mod parse;
pub mod placement;
mod save;
pub mod schema;
mod skeleton;
pub mod uri;
mod validate;
pub mod write;

pub use animation::{Animations, Channel, ChannelPath, Clip, Interpolation, LocalTrs};
pub use bones::{Bone, BoneId};
pub use diagnostics::{has_errors, Diagnostic, Severity};
pub use edit::{parse_assignment, Edit, EditTarget};
pub use error::{DocError, EditError};
pub use manual_anatomy::{ManualAnatomy, RoleAssignment};
pub use save::{write_atomic, Written};
pub use schema::*;
pub use skeleton::{display_name, NodeInfo, Skeleton, SkinInfo};
pub use uri::UriPolicy;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The container the document was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Glb,
    Gltf,
}

impl Format {
    /// The format a path's extension asks for: `.glb` and `.vrm` (a VRM file is a GLB by its
    /// specification, and VRM loaders read nothing else) as GLB, anything else as `.gltf`.
    /// Before, saving a `.vrm` wrote glTF JSON text with a `.bin` beside it, which no VRM
    /// loader opens.
    pub fn from_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("vrm") => {
                Format::Glb
            }
            _ => Format::Gltf,
        }
    }
}

/// A loaded character.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it was read from (saves go here by default).
    pub path: PathBuf,
    pub format: Format,
    /// Which external URIs may be followed.
    pub uri_policy: UriPolicy,
    /// The JSON exactly as read, written back verbatim when nothing was edited.
    original_json: Vec<u8>,
    /// The document JSON (order and number spelling preserved); edits change it in place.
    json: Value,
    /// The GLB BIN chunk, written back byte for byte.
    bin: Option<bin::BinChunk>,
    pub skeleton: Skeleton,
    pub bones: Vec<Bone>,
    names: HashMap<String, BoneId>,
    pub balance: BalanceSettings,
    /// The physics schema version the file says it was written with (1 when it says none).
    pub schema_version: u32,
    /// Kind and bone roles a person assigned (the root's `extras.physics.anatomy`).
    pub manual_anatomy: ManualAnatomy,
    pub diagnostics: Vec<Diagnostic>,
    /// Count of edits applied since load or the last save.
    edits_since_save: usize,
    /// Changes with every change of content (load, edit, undo): unique across documents, so
    /// views derived from a document rebuild exactly when it changes ([`Document::revision`]).
    revision: u64,
}

/// The next document revision (one counter for all documents).
static NEXT_REVISION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_revision() -> u64 {
    NEXT_REVISION.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Document {
    /// Opens a `.glb` or `.gltf` file with the default (safe) URI policy.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, DocError> {
        Self::open_with(path, UriPolicy::default())
    }

    /// Opens a file with an explicit URI policy.
    pub fn open_with(path: impl AsRef<Path>, policy: UriPolicy) -> Result<Self, DocError> {
        let path = path.as_ref();
        let read_err = |source| DocError::Read {
            path: path.into(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(read_err)?;
        let mut magic = [0u8; 4];
        let n = std::io::Read::read(&mut file, &mut magic).map_err(read_err)?;
        if !container::is_glb(&magic[..n]) {
            let data = std::fs::read(path).map_err(read_err)?;
            return Self::from_bytes(path, &data, policy);
        }
        let (json, bin) = read_glb_json(path, &mut file)?;
        Self::from_parts(path, Format::Glb, json, bin, policy)
    }

    /// Parses file bytes; `path` names the file in messages and anchors relative URIs.
    pub fn from_bytes(path: &Path, data: &[u8], policy: UriPolicy) -> Result<Self, DocError> {
        if container::is_glb(data) {
            let chunks = container::parse_glb(data).map_err(|reason| DocError::Glb {
                path: path.into(),
                reason,
            })?;
            let bin = chunks.bin.map(|b| bin::BinChunk::in_memory(b.to_vec()));
            return Self::from_parts(path, Format::Glb, chunks.json.to_vec(), bin, policy);
        }
        Self::from_parts(path, Format::Gltf, data.to_vec(), None, policy)
    }

    fn from_parts(
        path: &Path,
        format: Format,
        json_bytes: Vec<u8>,
        bin: Option<bin::BinChunk>,
        policy: UriPolicy,
    ) -> Result<Self, DocError> {
        let json_err = |reason: String| DocError::Json {
            path: path.into(),
            reason,
        };
        let text = std::str::from_utf8(&json_bytes)
            .map_err(|e| json_err(format!("not UTF-8 text ({e})")))?;
        if text.trim().is_empty() {
            return Err(json_err("the file is empty".into()));
        }
        let text = text.trim_end_matches(['\0', ' ']);
        let json: Value = serde_json::from_str(text).map_err(|e| json_err(e.to_string()))?;
        let skeleton = read_skeleton(path, text, &json)?;
        let mut doc = Document {
            path: path.to_path_buf(),
            format,
            uri_policy: policy,
            original_json: json_bytes,
            json,
            bin,
            skeleton,
            bones: Vec::new(),
            names: HashMap::new(),
            balance: BalanceSettings::default(),
            schema_version: 1,
            manual_anatomy: ManualAnatomy::default(),
            diagnostics: Vec::new(),
            edits_since_save: 0,
            revision: next_revision(),
        };
        doc.analyse();
        Ok(doc)
    }

    /// Re-derives bones, physics, balance and diagnostics from the JSON.
    pub(crate) fn analyse(&mut self) {
        let previous: Vec<usize> = self.bones.iter().map(|b| b.node).collect();
        let nodes = bones::bone_nodes(&self.json, &self.skeleton, &previous);
        let parents = bones::bone_parents(&self.skeleton, &nodes);
        let mut diags = Vec::new();
        let mut list: Vec<Bone> = nodes
            .iter()
            .zip(parents)
            .map(|(&node, parent)| {
                let name = self.skeleton.nodes[node].name.clone();
                let physics = bones::node_physics(&self.json, node).map(|v| {
                    let mut cx = parse::Ctx {
                        node: Some(node),
                        bone: &name,
                        diags: &mut diags,
                    };
                    parse::parse_bone_physics(v, &mut cx)
                });
                Bone {
                    node,
                    name,
                    parent,
                    physics,
                    has_problems: false,
                }
            })
            .collect();
        self.names = name_index(&list);
        validate::check_bones(&mut list, &self.names, &mut diags);
        let root_physics = self.json.get("extras").and_then(|e| e.get(write::PHYSICS));
        let balance_json = root_physics.and_then(|p| p.get(write::BALANCE));
        let mut cx = parse::Ctx {
            node: None,
            bone: "document",
            diags: &mut diags,
        };
        self.schema_version = parse::parse_root(root_physics, &mut cx);
        self.balance = parse::parse_balance(balance_json, &mut cx);
        self.manual_anatomy = parse::anatomy::parse_anatomy(root_physics, &mut cx);
        parse::anatomy::check_bones(&mut self.manual_anatomy, &self.names, &mut cx);
        validate::check_balance(&self.balance, &self.names, &mut diags);
        self.bones = list;
        diags.extend(self.scale_diagnostics());
        diags.extend(validate::check_swing_axes(self));
        for b in &mut self.bones {
            b.has_problems = diags.iter().any(|d| d.node == Some(b.node));
        }
        self.diagnostics = diags;
    }

    /// Finds a bone by display name, or by `node<index>`.
    pub fn bone_by_name(&self, name: &str) -> Option<BoneId> {
        self.names.get(name).copied()
    }

    /// A name that [`Self::bone_by_name`] resolves back to this bone: its name, or
    /// `node<index>` when another bone shares the name.
    pub fn bone_ref(&self, id: BoneId) -> String {
        let b = self.bone(id);
        match self.bone_by_name(&b.name) {
            Some(x) if x == id => b.name.clone(),
            _ => format!("node{}", b.node),
        }
    }

    pub fn bone(&self, id: BoneId) -> &Bone {
        &self.bones[id.index()]
    }

    pub fn bone_ids(&self) -> impl Iterator<Item = BoneId> {
        (0..self.bones.len() as u32).map(BoneId)
    }

    /// The bone on a node, if the node is a bone.
    pub fn bone_of_node(&self, node: usize) -> Option<BoneId> {
        self.bones
            .iter()
            .position(|b| b.node == node)
            .map(|i| BoneId(i as u32))
    }

    /// A bone's `extras.physics` object as the file states it, if it has one.
    pub fn physics_json(&self, id: BoneId) -> Option<&Value> {
        bones::node_physics(&self.json, self.bone(id).node)
    }

    /// True when the file has a balance object (`extras.physics.balance` of the root).
    pub fn has_balance_settings(&self) -> bool {
        self.json
            .get("extras")
            .and_then(|e| e.get(write::PHYSICS))
            .and_then(|p| p.get(write::BALANCE))
            .is_some()
    }

    /// A node's `extras.physics` object as the file states it, if it has one.
    pub fn physics_json_of_node(&self, node: usize) -> Option<&Value> {
        bones::node_physics(&self.json, node)
    }

    /// The edits that bring this document to this build's schema before a save (version 1's
    /// limits rewritten, the version stamped), or None when it needs none.
    pub fn migration(&self) -> Option<Edit> {
        canonical::migration(self)
    }

    /// The document's JSON (read only; change it through [`Document::apply`]).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// The GLB BIN chunk's bytes, if the file has one (read on first use).
    pub fn bin(&self) -> Result<Option<&[u8]>, DocError> {
        self.bin.as_ref().map(bin::BinChunk::bytes).transpose()
    }

    /// The document's revision: it changes with every change of its content (an edit, an
    /// undo, another document) and only then.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub(crate) fn bump_revision(&mut self) {
        self.revision = next_revision();
    }

    /// True when edits were applied since load or the last save.
    pub fn is_dirty(&self) -> bool {
        self.edits_since_save > 0
    }

    /// The folder external URIs are resolved against.
    pub fn base_dir(&self) -> PathBuf {
        self.path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }
}

/// Reads a GLB's JSON chunk and locates its BIN chunk without reading it.
fn read_glb_json(
    path: &Path,
    file: &mut std::fs::File,
) -> Result<(Vec<u8>, Option<bin::BinChunk>), DocError> {
    use std::io::{Read, Seek, SeekFrom};
    let read_err = |source| DocError::Read {
        path: path.into(),
        source,
    };
    let file_len = file.metadata().map_err(read_err)?.len();
    let (json, bin) = container::locate_chunks(file_len, |at| {
        let mut w = [0u8; 4];
        file.seek(SeekFrom::Start(at))
            .and_then(|_| file.read_exact(&mut w))
            .map_err(|e| e.to_string())?;
        Ok(u32::from_le_bytes(w))
    })
    .map_err(|reason| DocError::Glb {
        path: path.into(),
        reason,
    })?;
    let mut text = vec![0u8; json.len as usize];
    file.seek(SeekFrom::Start(json.start))
        .and_then(|_| file.read_exact(&mut text))
        .map_err(read_err)?;
    let bin = bin
        .map(|b| bin::BinChunk::in_file(path, b.start, b.len))
        .transpose()
        .map_err(read_err)?;
    Ok((text, bin))
}

fn name_index(bones: &[Bone]) -> HashMap<String, BoneId> {
    let mut names = HashMap::new();
    for (i, b) in bones.iter().enumerate() {
        names.insert(format!("node{}", b.node), BoneId(i as u32));
    }
    for (i, b) in bones.iter().enumerate().rev() {
        names.insert(b.name.clone(), BoneId(i as u32));
    }
    names
}

/// Validates the glTF structure with the `gltf` crate and reads the node tree. Animations are
/// left out of that check: our own reader reports their faults as diagnostics
/// ([`Document::load_animations`]), so a broken clip does not stop the file from opening. A
/// required extension the tool cannot read is an error naming it; those it reads or may
/// ignore are hidden from the crate, which would refuse them.
fn read_skeleton(path: &Path, text: &str, json: &Value) -> Result<Skeleton, DocError> {
    let gltf_err = |reason: String| DocError::Gltf {
        path: path.into(),
        reason,
    };
    if let Some((extension, what)) = extensions::unreadable(json) {
        return Err(DocError::RequiredExtension {
            path: path.into(),
            extension,
            what: what.into(),
        });
    }
    let stripped;
    let text = match extensions::for_validation(json) {
        Some(v) => {
            stripped = serde_json::to_string(&v).map_err(|e| gltf_err(e.to_string()))?;
            stripped.as_str()
        }
        None => text,
    };
    let root = gltf::json::Root::from_str(text).map_err(|e| gltf_err(e.to_string()))?;
    validate(&root).map_err(gltf_err)?;
    let doc = gltf::Document::from_json_without_validation(root);
    Skeleton::from_gltf(&doc).map_err(gltf_err)
}

/// The `gltf` crate's validation, but for what the spec allows and the crate does not (an
/// accessor without a `bufferView`: all zeros, which [`accessor`] reads), and for faults where
/// the tool never looks: a mesh's missing POSITION bounds (many exporters omit them) and
/// materials, textures, images, samplers and cameras.
fn validate(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::validation::{Error, Validate};
    const UNREAD: [&str; 5] = [
        "materials[",
        "textures[",
        "images[",
        "samplers[",
        "cameras[",
    ];
    let mut errors = Vec::new();
    root.validate(root, gltf::json::Path::new, &mut |path, error| {
        let path = path();
        let p = path.as_str();
        let zeros = p.starts_with("accessors[") && p.ends_with("].bufferView");
        let bounds = p.starts_with("meshes[") && (p.ends_with(".min") || p.ends_with(".max"));
        let tolerated = (zeros && matches!(error, Error::Missing))
            || bounds
            || UNREAD.iter().any(|u| p.starts_with(u));
        if !tolerated {
            errors.push(format!("{p}: {error}"));
        }
    });
    match errors.is_empty() {
        true => Ok(()),
        false => Err(errors.into_iter().take(5).collect::<Vec<_>>().join("; ")),
    }
}
