//! Buffer data and meshes: positions, normals, JOINTS_0, WEIGHTS_0, indices and the skins'
//! inverse bind matrices, for skinned meshes and for rigid meshes carried by a bone alike.
//! Read through [`super::accessor`] (quantized, sparse and view-less accessors) from buffers
//! with their meshopt-compressed views decoded; every accessor is checked against its buffer
//! before it is read, so a hostile file gives an error, never a panic or a huge allocation.

use super::accessor::{read_numbers, read_unsigned};
use super::uri::{self, UriSource};
use super::{compression, draco};
use super::{BoneId, DocError, Document};
use glam::Mat4;
use serde_json::Value;
use std::borrow::Cow;
use std::io::Read;

/// One mesh primitive, with skinning data when the node has a skin. Positions are as the
/// file stores them (quantized integers as their values): the node's world transform, or the
/// skin's inverse bind matrices, place them. `indices` is a triangle list (empty for points
/// and lines).
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
    /// Primitives left out: a Draco stream the decoder cannot decode (a feature it lacks, or
    /// corrupt bytes). The rest of the mesh is read; callers warn.
    pub unread: Vec<Unread>,
}

/// What shapes and anatomy are fitted to ([`Document::fitting_geometry`]).
#[derive(Debug, Clone, Default)]
pub struct Fitting {
    pub geometry: Geometry,
    /// Why no mesh is used at all, when it cannot be read.
    pub unreadable: Option<String>,
    /// One note per primitive left out.
    pub left_out: Vec<String>,
}

impl Fitting {
    /// Every note, the mesh's own first.
    pub fn notes(&self) -> impl Iterator<Item = &String> {
        self.unreadable.iter().chain(&self.left_out)
    }
}

/// A primitive left out of a [`Geometry`].
#[derive(Debug, Clone)]
pub struct Unread {
    /// The primitive, and why.
    pub why: String,
    /// The vertices its POSITION accessor counts.
    pub vertices: usize,
}

impl Geometry {
    /// True when the primitives left out hold more vertices than those read: what is left
    /// would mislead more than the bones alone (a Ready Player Me avatar whose body and
    /// clothes could not be decoded read as its head: 0.31 units tall, `other`).
    pub fn mostly_unread(&self) -> bool {
        let unread: usize = self.unread.iter().map(|u| u.vertices).sum();
        let read: usize = self.primitives.iter().map(|p| p.positions.len()).sum();
        unread > read
    }
}

impl Document {
    /// The bytes of every buffer as the file stores them: the GLB BIN chunk, `data:` URIs or
    /// files beside the asset (under the document's URI policy). A meshopt fallback buffer is
    /// empty: its data is the decoded views ([`Document::decoded_buffers`]).
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
                    _ if compression::is_fallback(b) => Ok(Cow::Owned(Vec::new())),
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

    /// The buffers with every meshopt-compressed view decoded into place: what accessors read.
    pub fn decoded_buffers(&self) -> Result<Vec<Cow<'_, [u8]>>, DocError> {
        let mut buffers = self.load_buffers()?;
        compression::decode_views(&self.json, &mut buffers).map_err(|r| self.gltf_err(r))?;
        Ok(buffers)
    }

    /// Reads every mesh primitive and skin. Errors name the node, mesh primitive, attribute
    /// and accessor that cannot be read.
    pub fn load_geometry(&self) -> Result<Geometry, DocError> {
        let buffers = self.decoded_buffers()?;
        let slices: Vec<&[u8]> = buffers.iter().map(|b| &b[..]).collect();
        let mut geo = Geometry::default();
        for (s, skin) in self.skeleton.skins.iter().enumerate() {
            let ibm = self
                .json
                .pointer(&format!("/skins/{s}/inverseBindMatrices"))
                .and_then(Value::as_u64);
            let mats = match ibm {
                Some(a) => arrays::<16>(&self.json, &slices, a as usize)
                    .map_err(|r| self.gltf_err(format!("skins[{s}].inverseBindMatrices: {r}")))?
                    .iter()
                    .map(Mat4::from_cols_array)
                    .collect(),
                None => vec![Mat4::IDENTITY; skin.joints.len()],
            };
            geo.inverse_bind.push(mats);
        }
        for (n, node) in self.skeleton.nodes.iter().enumerate() {
            let Some(m) = node.mesh else { continue };
            let prims = self.json.pointer(&format!("/meshes/{m}/primitives"));
            for (p, prim) in prims
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let read = read_primitive(&self.json, &slices, prim, n, node.skin);
                let key = format!("nodes[{n}] ('{}'): meshes[{m}].primitives[{p}]", node.name);
                match read.map_err(|r| self.gltf_err(format!("{key}.{r}")))? {
                    PrimitiveRead::Mesh(prim) => geo.primitives.push(prim),
                    PrimitiveRead::NoPositions => {}
                    PrimitiveRead::Undecoded(why) => geo.unread.push(Unread {
                        why: format!("{key}.{why}"),
                        vertices: position_count(&self.json, prim),
                    }),
                }
            }
        }
        Ok(geo)
    }

    /// The mesh the anatomy and the generator fit to, and what to tell a person about it:
    /// the whole mesh when it reads; the rest when primitives are left out
    /// ([`Geometry::unread`]); nothing (the bones alone) when it cannot be read, or when most
    /// of it is left out. One place decides, so `generate`, `validate` and the editor agree.
    pub fn fitting_geometry(&self) -> Fitting {
        match self.load_geometry() {
            Err(e) => Fitting {
                geometry: Geometry::default(),
                unreadable: Some(format!(
                    "the mesh cannot be read ({e}); the bones alone are used"
                )),
                left_out: Vec::new(),
            },
            Ok(geo) => {
                let mostly = geo.mostly_unread();
                let instead = match mostly {
                    true => "most of the mesh is: the bones alone are used",
                    false => "the rest of the mesh is used",
                };
                let left_out = geo
                    .unread
                    .iter()
                    .map(|u| {
                        let why = &u.why;
                        format!(
                            "a mesh primitive cannot be read ({why}): it is left out; {instead}"
                        )
                    })
                    .collect();
                Fitting {
                    geometry: if mostly { Geometry::default() } else { geo },
                    unreadable: None,
                    left_out,
                }
            }
        }
    }

    /// The bone that carries a mesh on `node`: the node itself when it is a bone, else its
    /// nearest ancestor that is one. A rigid mesh moves with it and is fitted to it.
    pub fn carrier_bone(&self, node: usize) -> Option<BoneId> {
        std::iter::once(node)
            .chain(self.skeleton.ancestors(node))
            .find_map(|n| self.bone_of_node(n))
    }

    fn gltf_err(&self, reason: String) -> DocError {
        DocError::Gltf {
            path: self.path.clone(),
            reason,
        }
    }
}

/// `N` numbers per element, or an error naming the accessor's actual width.
fn arrays<const N: usize>(
    json: &Value,
    buffers: &[&[u8]],
    index: usize,
) -> Result<Vec<[f32; N]>, String> {
    let f = read_numbers(json, buffers, index)?;
    if f.width != N {
        return Err(format!(
            "accessors[{index}] has {} numbers per element, not {N}",
            f.width
        ));
    }
    Ok(f.values
        .chunks_exact(N)
        .map(|c| std::array::from_fn(|k| c[k]))
        .collect())
}

/// The vertices `prim`'s POSITION accessor counts (0 when it names none).
fn position_count(json: &Value, prim: &Value) -> usize {
    let acc = prim.pointer("/attributes/POSITION").and_then(Value::as_u64);
    acc.and_then(|a| {
        json.get("accessors")?
            .get(a as usize)?
            .get("count")?
            .as_u64()
    })
    .map_or(0, |c| usize::try_from(c).unwrap_or(usize::MAX))
}

/// What reading one primitive gave.
enum PrimitiveRead {
    Mesh(MeshPrimitive),
    /// No POSITION: nothing to read.
    NoPositions,
    /// A compressed stream the decoder could not decode (why).
    Undecoded(String),
}

/// One primitive; points and lines get no triangles, but their vertices are still there to
/// fit shapes to.
fn read_primitive(
    json: &Value,
    buffers: &[&[u8]],
    prim: &Value,
    node: usize,
    skin: Option<usize>,
) -> Result<PrimitiveRead, String> {
    let mode = prim.get("mode").and_then(Value::as_u64).unwrap_or(4);
    let pos = prim.pointer("/attributes/POSITION").and_then(Value::as_u64);
    let Some(pos) = pos.map(|i| i as usize) else {
        return Ok(PrimitiveRead::NoPositions);
    };
    let v = match draco::extension(prim) {
        Some(ext) => match draco::decode(json, buffers, prim, ext)? {
            Ok(v) => v,
            Err(why) => return Ok(PrimitiveRead::Undecoded(why)),
        },
        None => plain_vertices(json, buffers, prim, (pos, mode))?,
    };
    let n = v.positions.len();
    let list = if mode < 4 { Vec::new() } else { v.indices };
    Ok(PrimitiveRead::Mesh(MeshPrimitive {
        node,
        skin,
        indices: triangles(&list, mode, n),
        positions: v.positions,
        normals: v.normals,
        joints: v.joints,
        weights: v.weights,
    }))
}

/// A primitive's vertex arrays (empty where it has no such attribute) and its index list,
/// from plain accessors or a decoded Draco stream.
#[derive(Debug, Default)]
pub(super) struct Vertices {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
}

/// The vertices of a primitive stored in plain accessors (POSITION at accessor `pos`); every
/// vertex in order without an index accessor, no indices for points and lines (`mode` < 4).
fn plain_vertices(
    json: &Value,
    buffers: &[&[u8]],
    prim: &Value,
    (pos, mode): (usize, u64),
) -> Result<Vertices, String> {
    let attr = |name: &str| {
        prim.get("attributes")?
            .get(name)?
            .as_u64()
            .map(|i| i as usize)
    };
    let positions = within("POSITION", arrays::<3>(json, buffers, pos))?;
    let normals = match attr("NORMAL") {
        Some(a) => within("NORMAL", arrays::<3>(json, buffers, a))?,
        None => Vec::new(),
    };
    let weights = match attr("WEIGHTS_0") {
        Some(a) => within("WEIGHTS_0", arrays::<4>(json, buffers, a))?,
        None => Vec::new(),
    };
    let joints = match attr("JOINTS_0") {
        Some(a) => within("JOINTS_0", read_joints(json, buffers, a))?,
        None => Vec::new(),
    };
    let indices = match prim.get("indices").and_then(Value::as_u64) {
        _ if mode < 4 => Vec::new(),
        Some(a) => {
            let (_, v) =
                read_unsigned(json, buffers, a as usize).map_err(|e| format!("indices: {e}"))?;
            v
        }
        None => (0..positions.len() as u32).collect(),
    };
    Ok(Vertices {
        positions,
        normals,
        joints,
        weights,
        indices,
    })
}

fn within<T>(name: &str, r: Result<T, String>) -> Result<T, String> {
    r.map_err(|e| format!("attributes.{name}: {e}"))
}

fn read_joints(json: &Value, buffers: &[&[u8]], index: usize) -> Result<Vec<[u16; 4]>, String> {
    let (width, v) = read_unsigned(json, buffers, index)?;
    if width != 4 {
        return Err(format!(
            "accessors[{index}] has {width} numbers per element, not 4"
        ));
    }
    Ok(v.chunks_exact(4)
        .map(|c| std::array::from_fn(|k| u16::try_from(c[k]).unwrap_or(u16::MAX)))
        .collect())
}

/// A triangle list from the indices of a TRIANGLES, TRIANGLE_STRIP or TRIANGLE_FAN
/// primitive; triangles naming a vertex past `n` are dropped whole.
fn triangles(list: &[u32], mode: u64, n: usize) -> Vec<u32> {
    let tris: Vec<[u32; 3]> = match mode {
        5 => list
            .windows(3)
            .enumerate()
            .map(|(i, w)| {
                if i % 2 == 0 {
                    [w[0], w[1], w[2]]
                } else {
                    [w[1], w[0], w[2]]
                }
            })
            .collect(),
        6 => list
            .get(1..)
            .unwrap_or_default()
            .windows(2)
            .map(|w| [list[0], w[0], w[1]])
            .collect(),
        _ => list.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
    };
    tris.into_iter()
        .filter(|t| t.iter().all(|&i| (i as usize) < n))
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::triangles;

    #[test]
    fn strips_and_fans_become_lists_and_bad_triangles_drop_whole() {
        assert_eq!(triangles(&[0, 1, 2, 3], 5, 4), vec![0, 1, 2, 2, 1, 3]);
        assert_eq!(triangles(&[0, 1, 2, 3], 6, 4), vec![0, 1, 2, 0, 2, 3]);
        assert_eq!(triangles(&[0, 1, 2, 0, 9, 1, 2, 1], 4, 3), vec![0, 1, 2]);
    }
}
