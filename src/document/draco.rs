//! `KHR_draco_mesh_compression`: a primitive whose attributes and indices are stored as one
//! Draco bitstream in a buffer view. It is decoded in memory (the pure-Rust `draco-oxide`
//! decoder, Draco bitstream 2.2: what Google's encoder, gltf-transform, gltfpack and
//! Blender write) into the arrays the geometry reader gives every other primitive; the file's
//! bytes are never changed, so a save writes the compressed stream back untouched. Errors
//! name the primitive's view and attribute; a stream the decoder refuses, or panics on, is an
//! error, never a crash.

use super::accessor::view_bytes;
use super::geometry::Vertices;
use draco_oxide_core::attribute::{Attribute, ComponentDataType};
use draco_oxide_core::mesh::Mesh;
use serde_json::Value;

/// The extension's name.
pub const EXTENSION: &str = "KHR_draco_mesh_compression";

/// The primitive's Draco extension object, if it has one.
pub(super) fn extension(prim: &Value) -> Option<&Value> {
    prim.get("extensions")?.get(EXTENSION)
}

/// Decodes the stream `ext` (the primitive `prim`'s extension object) points at. The outer
/// error is the file's structure (a view that is missing or outside its buffer, an attribute
/// the stream lacks); the inner one, a stream the decoder cannot decode (a feature it lacks,
/// or corrupt bytes), which leaves this primitive out and the rest of the mesh read.
pub(super) fn decode(
    json: &Value,
    buffers: &[&[u8]],
    prim: &Value,
    ext: &Value,
) -> Result<Result<Vertices, String>, String> {
    let key = format!("extensions.{EXTENSION}");
    let view = ext
        .get("bufferView")
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("{key}.bufferView is missing"))?;
    let bytes = view_bytes(json, buffers, view, &key)?;
    let mesh = match decode_mesh(bytes) {
        Ok(mesh) => mesh,
        Err(e) => return Ok(Err(format!("{key}: bufferView {view}: {e}"))),
    };
    let (new_of_old, first_old) = unique_points(&mesh);
    let src = Source {
        json,
        prim,
        ext,
        mesh: &mesh,
        points: &first_old,
        key: &key,
    };
    let joints = src.read::<4>("JOINTS_0")?.unwrap_or_default();
    let out = Vertices {
        positions: src.read::<3>("POSITION")?.unwrap_or_default(),
        normals: src.read::<3>("NORMAL")?.unwrap_or_default(),
        weights: src.read::<4>("WEIGHTS_0")?.unwrap_or_default(),
        joints: joints
            .iter()
            .map(|j| j.map(|x| x.clamp(0.0, 65535.0) as u16))
            .collect(),
        indices: mesh
            .faces
            .iter()
            .flat_map(|f| f.iter().map(|&p| new_of_old[usize::from(p)]))
            .collect(),
    };
    let n = out.positions.len() as u64;
    if let Some(bad) = out.indices.iter().find(|&&i| u64::from(i) >= n) {
        return Ok(Err(format!(
            "{key}: bufferView {view}: a face names point {bad} of {n}"
        )));
    }
    Ok(Ok(out))
}

/// What a glTF attribute of a decoded primitive is read from.
struct Source<'a> {
    json: &'a Value,
    prim: &'a Value,
    ext: &'a Value,
    mesh: &'a Mesh,
    /// The points kept (one per vertex: [`unique_points`]).
    points: &'a [usize],
    key: &'a str,
}

impl Source<'_> {
    /// The attribute `name` at every kept point as `N` floats (None when the extension does
    /// not map it), integers scaled to 0..1 when the glTF accessor is `normalized`.
    fn read<const N: usize>(&self, name: &str) -> Result<Option<Vec<[f32; N]>>, String> {
        let key = self.key;
        let Some(id) = self
            .ext
            .get("attributes")
            .and_then(|a| a.get(name)?.as_u64())
        else {
            return Ok(None);
        };
        let att = self
            .mesh
            .get_attributes()
            .iter()
            .find(|a| a.get_id().as_usize() as u64 == id)
            .ok_or_else(|| format!("{key}.attributes.{name}: the stream has no attribute {id}"))?;
        let width = att.get_num_components();
        if width != N {
            return Err(format!(
                "{key}.attributes.{name}: the Draco attribute has {width} components, not {N}"
            ));
        }
        let normalized = self.normalized(name);
        Ok(Some(
            self.points
                .iter()
                .map(|&p| std::array::from_fn(|c| component(att, p, c, normalized)))
                .collect(),
        ))
    }

    /// Whether the accessor the primitive names for `name` is `normalized`.
    fn normalized(&self, name: &str) -> bool {
        let acc = self
            .prim
            .get("attributes")
            .and_then(|a| a.get(name)?.as_u64());
        acc.and_then(|a| {
            self.json
                .get("accessors")?
                .get(a as usize)?
                .get("normalized")?
                .as_bool()
        }) == Some(true)
    }
}

/// Points that share their value of every attribute merged, as Google's decoder merges them
/// (its `DeduplicatePointIds`, by each attribute's value index): the edgebreaker walk can give
/// one vertex several points, and the glTF accessors count each once (the web chibi of
/// session 35: 1605 points decoded, 1523 in its accessor; the copies weighed double in the
/// fits). Returns each point's new index and each new point's first old one.
fn unique_points(mesh: &Mesh) -> (Vec<u32>, Vec<usize>) {
    let atts = mesh.get_attributes();
    let n = atts.iter().map(Attribute::len).max().unwrap_or(0);
    let mut seen = std::collections::HashMap::with_capacity(n);
    let (mut new_of_old, mut first_old) = (Vec::with_capacity(n), Vec::new());
    let mut key = Vec::new();
    for p in 0..n {
        key.clear();
        for att in atts {
            let v = value_index(att, p);
            key.extend_from_slice(&(v as u32).to_le_bytes());
        }
        let next = first_old.len() as u32;
        let id = *seen.entry(key.clone()).or_insert(next);
        if id == next {
            first_old.push(p);
        }
        new_of_old.push(id);
    }
    (new_of_old, first_old)
}

/// The decoder's mesh, or its refusal; a panic inside the decoder (a hostile stream) becomes
/// an error too.
fn decode_mesh(bytes: &[u8]) -> Result<Mesh, String> {
    let run = std::panic::catch_unwind(|| draco_oxide_decoder::Decoder::new().decode_mesh(bytes));
    match run {
        Ok(Ok(mesh)) => Ok(mesh),
        Ok(Err(e)) => Err(format!("not a Draco mesh this tool can decode ({e})")),
        Err(_) => Err("the Draco stream is corrupt (the decoder stopped on it)".into()),
    }
}

/// The index of point `p`'s value in `att` (its own index without a point map).
fn value_index(att: &Attribute, p: usize) -> usize {
    att.point_map_as_slice()
        .map_or(p, |m| m.get(p).map_or(p, |&v| usize::from(v)))
}

/// Component `c` of point `p`'s value of `att` (0 where the buffer is short).
fn component(att: &Attribute, p: usize, c: usize, normalized: bool) -> f32 {
    let ty = att.get_component_type();
    let size = ty.size();
    let at = (value_index(att, p) * att.get_num_components() + c) * size;
    att.get_data_as_bytes()
        .get(at..at + size)
        .map_or(0.0, |b| number(ty, b, normalized))
}

/// One component's value.
fn number(ty: ComponentDataType, b: &[u8], normalized: bool) -> f32 {
    let (x, max) = match ty {
        ComponentDataType::F32 => return f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        ComponentDataType::F64 => {
            return f64::from_le_bytes(std::array::from_fn(|i| b[i])) as f32;
        }
        ComponentDataType::U8 => (f32::from(b[0]), 255.0),
        ComponentDataType::I8 => (f32::from(b[0] as i8), 127.0),
        ComponentDataType::U16 => (f32::from(u16::from_le_bytes([b[0], b[1]])), 65535.0),
        ComponentDataType::I16 => (f32::from(i16::from_le_bytes([b[0], b[1]])), 32767.0),
        ComponentDataType::U32 => (
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
            u32::MAX as f32,
        ),
        ComponentDataType::I32 => (
            i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
            i32::MAX as f32,
        ),
        ComponentDataType::U64 | ComponentDataType::I64 | ComponentDataType::Invalid => {
            return 0.0;
        }
    };
    if normalized {
        (x / max).max(-1.0)
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draco_oxide_core::attribute::{AttributeDomain, AttributeId, AttributeType};
    use draco_oxide_core::types::NdVector;

    fn attribute(id: usize, kind: AttributeType, per_point: &[[f32; 3]]) -> Attribute {
        let data = per_point.iter().map(|&v| NdVector::from(v)).collect();
        Attribute::from(
            AttributeId::new(id),
            data,
            kind,
            AttributeDomain::Corner,
            Vec::new(),
        )
    }

    /// Points 0 and 2 share their position and their normal: one vertex. Points 1 and 3 share
    /// a position but not a normal (a hard edge): two.
    #[test]
    fn points_sharing_every_value_merge_as_googles_decoder_merges_them() {
        let (a, b) = ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
        let (up, side, down) = ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]);
        let mut mesh = Mesh::new();
        mesh.attributes = vec![
            attribute(0, AttributeType::Position, &[a, b, a, b]),
            attribute(1, AttributeType::Normal, &[up, side, up, down]),
        ];
        let (new_of_old, first_old) = unique_points(&mesh);
        assert_eq!(new_of_old, [0, 1, 0, 2]);
        assert_eq!(first_old, [0, 1, 3]);
    }
}
