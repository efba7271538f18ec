//! Reads a glTF accessor's numbers straight from the JSON and the buffers, checked against
//! the buffer view and buffer before any byte is touched, so a hostile file gives an error
//! naming the accessor (never a panic or a huge allocation). Every form the spec allows is
//! read: any component type (`KHR_mesh_quantization`'s integer attributes included), strided
//! views, accessors without a `bufferView` (all zeros) and sparse accessors (on a view or on
//! zeros). Used for meshes, skins and animations alike.

use serde_json::Value;

/// The numbers of an accessor as f32, `width` per element (normalized integers mapped to
/// -1..1 or 0..1 as the spec says).
#[derive(Debug, Clone, PartialEq)]
pub struct Floats {
    pub width: usize,
    pub values: Vec<f32>,
}

impl Floats {
    pub fn count(&self) -> usize {
        self.values.len() / self.width.max(1)
    }

    /// Element `i` (its `width` numbers).
    pub fn get(&self, i: usize) -> Option<&[f32]> {
        self.values.get(i * self.width..(i + 1) * self.width)
    }
}

/// The largest accessor without a buffer view (bytes of zeros) that is read; a bigger one is
/// a hostile file, not a character.
const MAX_ZEROS: usize = 256 << 20;

/// A component type of the glTF spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Component {
    I8,
    U8,
    I16,
    U16,
    U32,
    F32,
}

impl Component {
    fn from_code(code: u64) -> Option<Self> {
        Some(match code {
            5120 => Self::I8,
            5121 => Self::U8,
            5122 => Self::I16,
            5123 => Self::U16,
            5125 => Self::U32,
            5126 => Self::F32,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::U32 | Self::F32 => 4,
        }
    }

    /// The number in `b` (`size()` bytes, little endian): normalized integers mapped as the
    /// spec says, other integers as their value.
    fn number(self, b: &[u8], normalized: bool) -> f32 {
        let (v, scale) = match self {
            Self::F32 => return f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            Self::I8 => (f32::from(b[0] as i8), 127.0),
            Self::U8 => (f32::from(b[0]), 255.0),
            Self::I16 => (f32::from(i16::from_le_bytes([b[0], b[1]])), 32767.0),
            Self::U16 => (f32::from(u16::from_le_bytes([b[0], b[1]])), 65535.0),
            Self::U32 => (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32, 1.0),
        };
        if normalized && scale > 1.0 {
            (v / scale).max(-1.0)
        } else {
            v
        }
    }

    /// The unsigned integer in `b`, None for a signed or float component.
    fn unsigned(self, b: &[u8]) -> Option<u32> {
        Some(match self {
            Self::U8 => u32::from(b[0]),
            Self::U16 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            Self::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            _ => return None,
        })
    }
}

fn width_of(kind: &str) -> Option<usize> {
    Some(match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        _ => return None,
    })
}

fn field(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

fn usize_field(v: &Value, key: &str) -> usize {
    field(v, key).map_or(0, |x| usize::try_from(x).unwrap_or(usize::MAX))
}

/// An accessor's elements, tightly packed, sparse substitutions applied.
struct Packed {
    width: usize,
    component: Component,
    normalized: bool,
    bytes: Vec<u8>,
}

impl Packed {
    fn components(&self) -> impl Iterator<Item = &[u8]> {
        self.bytes.chunks_exact(self.component.size())
    }
}

/// Reads accessor `index` of `json` from `buffers`: any component type, normalized integers
/// mapped to -1..1 or 0..1, other integers as their value (quantized positions and texture
/// coordinates, which the node transform or the inverse bind matrices scale).
pub fn read_numbers(json: &Value, buffers: &[&[u8]], index: usize) -> Result<Floats, String> {
    let p = read_packed(json, buffers, index)?;
    let values = p
        .components()
        .map(|b| p.component.number(b, p.normalized))
        .collect();
    Ok(Floats {
        width: p.width,
        values,
    })
}

/// Reads an accessor the animation spec allows: floats or normalized integers.
pub fn read_floats(json: &Value, buffers: &[&[u8]], index: usize) -> Result<Floats, String> {
    let acc = accessor(json, index)?;
    let ctype = field(acc, "componentType").unwrap_or(0);
    let normalized = acc.get("normalized").and_then(Value::as_bool) == Some(true);
    if ctype != 5126 && !(normalized && matches!(ctype, 5120..=5123)) {
        return Err(format!(
            "accessors[{index}].componentType {ctype} is not float or a normalized integer"
        ));
    }
    read_numbers(json, buffers, index)
}

/// Reads an accessor of unsigned integers (indices, joint numbers), `width` per element.
pub fn read_unsigned(
    json: &Value,
    buffers: &[&[u8]],
    index: usize,
) -> Result<(usize, Vec<u32>), String> {
    let p = read_packed(json, buffers, index)?;
    let values: Option<Vec<u32>> = p.components().map(|b| p.component.unsigned(b)).collect();
    let values = values.ok_or_else(|| {
        format!("accessors[{index}].componentType is not an unsigned integer type")
    })?;
    Ok((p.width, values))
}

fn accessor(json: &Value, index: usize) -> Result<&Value, String> {
    json.get("accessors")
        .and_then(|a| a.get(index))
        .ok_or_else(|| format!("accessor {index} does not exist"))
}

fn read_packed(json: &Value, buffers: &[&[u8]], index: usize) -> Result<Packed, String> {
    let acc = accessor(json, index)?;
    let kind = acc.get("type").and_then(Value::as_str).unwrap_or("");
    let width = width_of(kind)
        .ok_or_else(|| format!("accessors[{index}].type '{kind}' is not SCALAR, VECn or MATn"))?;
    let code = field(acc, "componentType").unwrap_or(0);
    let component = Component::from_code(code)
        .ok_or_else(|| format!("accessors[{index}].componentType {code} is not a glTF type"))?;
    if kind.starts_with("MAT") && component != Component::F32 {
        return Err(format!(
            "accessors[{index}]: {kind} of componentType {code} (column-padded integer matrices) is not supported"
        ));
    }
    let count =
        field(acc, "count").ok_or_else(|| format!("accessors[{index}].count is missing"))?;
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    let elem = component.size() * width;
    let bytes = match field(acc, "bufferView") {
        Some(view) => {
            let at = View::find(json, buffers, view, &format!("accessors[{index}]"))?;
            let offset = usize_field(acc, "byteOffset");
            at.elements(offset, count, elem, true, &format!("accessors[{index}]"))?
        }
        None => zeros(count, elem).ok_or_else(|| {
            format!(
                "accessors[{index}]: {count} elements of {elem} bytes without a bufferView exceed the {} MiB limit",
                MAX_ZEROS >> 20
            )
        })?,
    };
    let mut packed = Packed {
        width,
        component,
        normalized: acc.get("normalized").and_then(Value::as_bool) == Some(true),
        bytes,
    };
    if let Some(sparse) = acc.get("sparse") {
        apply_sparse(json, buffers, index, sparse, &mut packed, count)?;
    }
    Ok(packed)
}

fn zeros(count: usize, elem: usize) -> Option<Vec<u8>> {
    let n = count.checked_mul(elem).filter(|&n| n <= MAX_ZEROS)?;
    Some(vec![0; n])
}

/// Overwrites the elements a sparse accessor lists with its values.
fn apply_sparse(
    json: &Value,
    buffers: &[&[u8]],
    index: usize,
    sparse: &Value,
    packed: &mut Packed,
    count: usize,
) -> Result<(), String> {
    let key = format!("accessors[{index}].sparse");
    let n = field(sparse, "count").ok_or_else(|| format!("{key}.count is missing"))?;
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > count {
        return Err(format!(
            "{key}.count {n} is more than the accessor's {count} elements"
        ));
    }
    let icode = sparse
        .pointer("/indices/componentType")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let itype = Component::from_code(icode)
        .filter(|c| c.unsigned(&[0; 4]).is_some())
        .ok_or_else(|| {
            format!("{key}.indices.componentType {icode} is not an unsigned integer type")
        })?;
    let (iview, ioff) = sparse_part(json, buffers, sparse, "indices", &key)?;
    let indices = iview.elements(ioff, n, itype.size(), false, &format!("{key}.indices"))?;
    let elem = packed.component.size() * packed.width;
    let (vview, voff) = sparse_part(json, buffers, sparse, "values", &key)?;
    let values = vview.elements(voff, n, elem, false, &format!("{key}.values"))?;
    for (k, b) in indices.chunks_exact(itype.size()).enumerate() {
        let i = itype.unsigned(b).unwrap_or(u32::MAX) as usize;
        let Some(dst) = packed.bytes.get_mut(i * elem..(i + 1) * elem) else {
            return Err(format!(
                "{key}.indices[{k}] = {i} is past the accessor's {count} elements"
            ));
        };
        dst.copy_from_slice(&values[k * elem..(k + 1) * elem]);
    }
    Ok(())
}

/// The view and byte offset of a sparse accessor's `indices` or `values`.
fn sparse_part<'a>(
    json: &Value,
    buffers: &[&'a [u8]],
    sparse: &Value,
    name: &str,
    key: &str,
) -> Result<(View<'a>, usize), String> {
    let p = sparse
        .get(name)
        .ok_or_else(|| format!("{key}.{name} is missing"))?;
    let view =
        field(p, "bufferView").ok_or_else(|| format!("{key}.{name}.bufferView is missing"))?;
    let at = View::find(json, buffers, view, &format!("{key}.{name}"))?;
    Ok((at, usize_field(p, "byteOffset")))
}

/// The bytes of buffer view `index` (checked to lie inside its buffer); `key` names what
/// refers to it in errors.
pub fn view_bytes<'a>(
    json: &Value,
    buffers: &[&'a [u8]],
    index: u64,
    key: &str,
) -> Result<&'a [u8], String> {
    View::find(json, buffers, index, key).map(|v| v.bytes)
}

/// A buffer view, checked to lie inside its buffer.
struct View<'a> {
    index: u64,
    bytes: &'a [u8],
    stride: Option<usize>,
}

impl<'a> View<'a> {
    fn find(json: &Value, buffers: &[&'a [u8]], index: u64, key: &str) -> Result<Self, String> {
        let view = json
            .get("bufferViews")
            .and_then(|v| v.get(usize::try_from(index).ok()?))
            .ok_or_else(|| format!("{key}.bufferView {index} does not exist"))?;
        let buffer_index = usize_field(view, "buffer");
        let buffer = buffers
            .get(buffer_index)
            .ok_or_else(|| format!("bufferViews[{index}].buffer {buffer_index} does not exist"))?;
        let offset = usize_field(view, "byteOffset");
        let len = usize_field(view, "byteLength");
        let bytes = offset
            .checked_add(len)
            .and_then(|end| buffer.get(offset..end))
            .ok_or_else(|| {
                format!(
                    "bufferViews[{index}] spans bytes {offset}..+{len} but buffer {buffer_index} has {} bytes",
                    buffer.len()
                )
            })?;
        Ok(Self {
            index,
            bytes,
            stride: field(view, "byteStride").map(|s| s as usize),
        })
    }

    /// `count` elements of `elem` bytes from `offset`, packed; strided when `strided` (vertex
    /// attributes), tightly packed otherwise (sparse indices and values).
    fn elements(
        &self,
        offset: usize,
        count: usize,
        elem: usize,
        strided: bool,
        key: &str,
    ) -> Result<Vec<u8>, String> {
        let stride = self.stride.filter(|_| strided).unwrap_or(elem);
        let needed = count
            .checked_sub(1)
            .map(|c| c.checked_mul(stride).and_then(|x| x.checked_add(elem)))
            .unwrap_or(Some(0))
            .and_then(|x| x.checked_add(offset));
        if needed.is_none_or(|n| n > self.bytes.len()) || stride < elem {
            return Err(format!(
                "{key}: {count} elements of {elem} bytes (stride {stride}) at offset {offset} do not fit in bufferViews[{}] of {} bytes",
                self.index,
                self.bytes.len()
            ));
        }
        let data = &self.bytes[offset..];
        if stride == elem {
            return Ok(data[..count * elem].to_vec());
        }
        let mut out = Vec::with_capacity(count * elem);
        for i in 0..count {
            out.extend_from_slice(&data[i * stride..i * stride + elem]);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quantized_and_normalized_components() {
        let b = [0x80u8, 0x7f, 0xff, 0xff];
        assert_eq!(Component::I8.number(&b[..1], true), -1.0);
        assert_eq!(Component::I8.number(&b[1..2], true), 1.0);
        assert_eq!(Component::U8.number(&b[2..3], true), 1.0);
        assert_eq!(Component::U16.number(&b[2..4], false), 65535.0);
        assert_eq!(Component::I16.number(&b[2..4], false), -1.0);
    }

    #[test]
    fn strided_view_without_view_and_sparse() {
        // Three u16 VEC2 positions in an 8-byte stride; a sparse override of element 1.
        let mut bin = Vec::new();
        for v in [[1u16, 2], [3, 4], [5, 6]] {
            bin.extend(v.iter().flat_map(|x| x.to_le_bytes()));
            bin.extend([0xee; 4]);
        }
        let idx = bin.len();
        bin.extend([1u8, 0, 0, 0]);
        bin.extend(9u16.to_le_bytes());
        bin.extend(10u16.to_le_bytes());
        let json = json!({
            "bufferViews": [
                {"buffer": 0, "byteLength": 24, "byteStride": 8},
                {"buffer": 0, "byteOffset": idx, "byteLength": 8}
            ],
            "accessors": [
                {"bufferView": 0, "componentType": 5123, "count": 3, "type": "VEC2",
                 "sparse": {"count": 1,
                    "indices": {"bufferView": 1, "componentType": 5121},
                    "values": {"bufferView": 1, "byteOffset": 4}}},
                {"componentType": 5126, "count": 2, "type": "VEC3"}
            ]
        });
        let f = read_numbers(&json, &[&bin], 0).unwrap();
        assert_eq!(f.values, vec![1.0, 2.0, 9.0, 10.0, 5.0, 6.0]);
        assert_eq!(
            read_numbers(&json, &[&bin], 1).unwrap().values,
            vec![0.0; 6]
        );
        assert!(read_floats(&json, &[&bin], 0).is_err());
    }
}
