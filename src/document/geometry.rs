//! Buffer data and skinned meshes: positions, normals, JOINTS_0, WEIGHTS_0, indices and the
//! skins' inverse bind matrices. Every accessor is checked against its buffer before it is
//! read, so a hostile file gives an error, never a panic or a huge allocation.

use super::uri::{self, UriSource};
use super::{DocError, Document};
use glam::Mat4;
use serde_json::Value;
use std::borrow::Cow;
use std::io::Read;

/// One mesh primitive, with skinning data when the node has a skin.
#[derive(Debug, Clone, Default)]
pub struct MeshPrimitive {
    /// The node that instances the mesh.
    pub node: usize,
    pub skin: Option<usize>,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
}

/// All meshes of a document plus each skin's inverse bind matrices.
#[derive(Debug, Clone, Default)]
pub struct Geometry {
    pub primitives: Vec<MeshPrimitive>,
    /// Per skin, per joint: joint_from_mesh (the inverse bind matrix).
    pub inverse_bind: Vec<Vec<Mat4>>,
}

impl Document {
    /// The bytes of every buffer: the GLB BIN chunk, `data:` URIs or files beside the asset
    /// (under the document's URI policy).
    pub fn load_buffers(&self) -> Result<Vec<Cow<'_, [u8]>>, DocError> {
        let list = self
            .json
            .get("buffers")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        list.iter()
            .enumerate()
            .map(|(i, b)| {
                let declared = b.get("byteLength").and_then(Value::as_u64).unwrap_or(0);
                match b.get("uri").and_then(Value::as_str) {
                    None => self
                        .bin()?
                        .map(Cow::Borrowed)
                        .ok_or_else(|| DocError::Gltf {
                            path: self.path.clone(),
                            reason: format!(
                                "buffers[{i}] has no uri and the file has no GLB BIN chunk"
                            ),
                        }),
                    Some(u) => self
                        .read_uri(&format!("buffers[{i}].uri"), u, Some(declared))
                        .map(Cow::Owned),
                }
            })
            .collect()
    }

    /// Reads an external or `data:` URI. `limit` caps how many bytes are read from a file.
    pub(crate) fn read_uri(
        &self,
        key: &str,
        u: &str,
        limit: Option<u64>,
    ) -> Result<Vec<u8>, DocError> {
        let uri_err = |reason: String| DocError::Uri {
            path: self.path.clone(),
            uri_key: key.into(),
            reason,
        };
        match uri::resolve(u, &self.base_dir(), self.uri_policy).map_err(uri_err)? {
            UriSource::Data(d) => Ok(d),
            UriSource::File(p) => {
                let f = std::fs::File::open(&p)
                    .map_err(|e| uri_err(format!("cannot open {}: {e}", p.display())))?;
                let mut out = Vec::new();
                f.take(limit.unwrap_or(u64::MAX))
                    .read_to_end(&mut out)
                    .map_err(|e| uri_err(format!("cannot read {}: {e}", p.display())))?;
                Ok(out)
            }
        }
    }

    /// Reads every mesh primitive and skin. Errors name the accessor that is out of bounds.
    pub fn load_geometry(&self) -> Result<Geometry, DocError> {
        let buffers = self.load_buffers()?;
        // Animations are read (and their faults reported) by `load_animations`; leave them and
        // the accessors only they use out of the geometry's checks.
        let mut json = self.json.clone();
        let anim_only = animation_accessors(&json);
        if let Some(obj) = json.as_object_mut() {
            obj.remove("animations");
        }
        let text = serde_json::to_string(&json).map_err(|e| self.gltf_err(e.to_string()))?;
        let root = gltf::json::Root::from_str(&text).map_err(|e| self.gltf_err(e.to_string()))?;
        let gdoc = gltf::Document::from_json(root).map_err(|e| self.gltf_err(e.to_string()))?;
        check_accessors(&gdoc, &buffers, &anim_only).map_err(|r| self.gltf_err(r))?;
        let get = |b: gltf::Buffer| buffers.get(b.index()).map(|c| &c[..]);
        let mut geo = Geometry::default();
        for skin in gdoc.skins() {
            let n = skin.joints().count();
            let mats: Vec<Mat4> = match skin.reader(get).read_inverse_bind_matrices() {
                Some(it) => it.map(|m| Mat4::from_cols_array_2d(&m)).collect(),
                None => vec![Mat4::IDENTITY; n],
            };
            geo.inverse_bind.push(mats);
        }
        for node in gdoc.nodes() {
            let Some(mesh) = node.mesh() else { continue };
            for prim in mesh.primitives() {
                geo.primitives.push(read_primitive(
                    node.index(),
                    node.skin().map(|s| s.index()),
                    &prim,
                    get,
                ));
            }
        }
        Ok(geo)
    }

    fn gltf_err(&self, reason: String) -> DocError {
        DocError::Gltf {
            path: self.path.clone(),
            reason,
        }
    }
}

fn read_primitive<'a, 's, F>(
    node: usize,
    skin: Option<usize>,
    prim: &'a gltf::Primitive<'a>,
    get: F,
) -> MeshPrimitive
where
    F: Clone + Fn(gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    let r = prim.reader(get);
    let positions: Vec<[f32; 3]> = r
        .read_positions()
        .map(Iterator::collect)
        .unwrap_or_default();
    let n = positions.len();
    let indices = r
        .read_indices()
        .map(|i| i.into_u32().filter(|&i| (i as usize) < n).collect())
        .unwrap_or_else(|| (0..n as u32).collect());
    MeshPrimitive {
        node,
        skin,
        normals: r.read_normals().map(Iterator::collect).unwrap_or_default(),
        joints: r
            .read_joints(0)
            .map(|j| j.into_u16().collect())
            .unwrap_or_default(),
        weights: r
            .read_weights(0)
            .map(|w| w.into_f32().collect())
            .unwrap_or_default(),
        positions,
        indices,
    }
}

/// The accessors that animation samplers use, and that no mesh or skin uses.
fn animation_accessors(json: &Value) -> std::collections::HashSet<usize> {
    let mut used = std::collections::HashSet::new();
    let anims = json.get("animations").and_then(Value::as_array);
    for s in anims
        .into_iter()
        .flatten()
        .filter_map(|a| a.get("samplers")?.as_array())
        .flatten()
    {
        for k in ["input", "output"] {
            if let Some(i) = s.get(k).and_then(Value::as_u64) {
                used.insert(i as usize);
            }
        }
    }
    let mut geometry = std::collections::HashSet::new();
    for m in json
        .get("meshes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for p in m
            .get("primitives")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let attrs = p.get("attributes").and_then(Value::as_object);
            for v in attrs
                .into_iter()
                .flat_map(|a| a.values())
                .chain(p.get("indices"))
            {
                if let Some(i) = v.as_u64() {
                    geometry.insert(i as usize);
                }
            }
        }
    }
    for sk in json
        .get("skins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(i) = sk.get("inverseBindMatrices").and_then(Value::as_u64) {
            geometry.insert(i as usize);
        }
    }
    used.retain(|i| !geometry.contains(i));
    used
}

/// Checks that every accessor (but `skip`) lies inside its buffer view and every view inside
/// its buffer.
fn check_accessors(
    doc: &gltf::Document,
    buffers: &[Cow<[u8]>],
    skip: &std::collections::HashSet<usize>,
) -> Result<(), String> {
    // Views that only skipped accessors use are the animation reader's to check.
    let anim_views: std::collections::HashSet<usize> = doc
        .accessors()
        .filter(|a| skip.contains(&a.index()))
        .filter_map(|a| a.view().map(|v| v.index()))
        .collect();
    let other_views: std::collections::HashSet<usize> = doc
        .accessors()
        .filter(|a| !skip.contains(&a.index()))
        .filter_map(|a| a.view().map(|v| v.index()))
        .collect();
    let checked = |i: usize| !anim_views.contains(&i) || other_views.contains(&i);
    for view in doc.views().filter(|v| checked(v.index())) {
        let len = buffers.get(view.buffer().index()).map_or(0, |b| b.len());
        let end = view.offset().checked_add(view.length());
        if end.is_none_or(|e| e > len) {
            return Err(format!(
                "bufferViews[{}] spans bytes {}..+{} but buffer {} has {len} bytes",
                view.index(),
                view.offset(),
                view.length(),
                view.buffer().index()
            ));
        }
    }
    for acc in doc.accessors().filter(|a| !skip.contains(&a.index())) {
        if acc.sparse().is_some() {
            return Err(format!(
                "accessors[{}]: sparse accessors are not supported",
                acc.index()
            ));
        }
        let Some(view) = acc.view() else { continue };
        let elem = acc.size();
        let stride = view.stride().unwrap_or(elem);
        let needed = acc
            .count()
            .checked_sub(1)
            .map(|c| c.checked_mul(stride).and_then(|x| x.checked_add(elem)))
            .unwrap_or(Some(0))
            .and_then(|x| x.checked_add(acc.offset()));
        if needed.is_none_or(|n| n > view.length()) || stride < elem {
            return Err(format!(
                "accessors[{}]: {} elements of {elem} bytes (stride {stride}) at offset {} do not fit in bufferViews[{}] of {} bytes",
                acc.index(),
                acc.count(),
                acc.offset(),
                view.index(),
                view.length()
            ));
        }
    }
    Ok(())
}
