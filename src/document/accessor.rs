//! Reads a glTF accessor's numbers straight from the JSON and the buffers, checked against
//! the buffer view and buffer before any byte is touched, so a hostile file gives an error
//! naming the accessor (never a panic or a huge allocation). Used for animation data, whose
//! faults must not stop the rest of the file from loading.

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

fn width_of(kind: &str) -> Option<usize> {
    Some(match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        _ => return None,
    })
}

fn field(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

/// Reads accessor `index` of `json` from `buffers`. The error says what is wrong.
pub fn read_floats(json: &Value, buffers: &[&[u8]], index: usize) -> Result<Floats, String> {
    let acc = json
        .get("accessors")
        .and_then(|a| a.get(index))
        .ok_or_else(|| format!("accessor {index} does not exist"))?;
    let kind = acc.get("type").and_then(Value::as_str).unwrap_or("");
    let width = width_of(kind)
        .ok_or_else(|| format!("accessors[{index}].type '{kind}' is not SCALAR or VECn"))?;
    let count =
        field(acc, "count").ok_or_else(|| format!("accessors[{index}].count is missing"))? as usize;
    let ctype = field(acc, "componentType").unwrap_or(0);
    let normalized = acc
        .get("normalized")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let size = match (ctype, normalized) {
        (5126, _) => 4,
        (5120 | 5121, true) => 1,
        (5122 | 5123, true) => 2,
        _ => {
            return Err(format!(
                "accessors[{index}].componentType {ctype} is not float or a normalized integer"
            ))
        }
    };
    if acc.get("sparse").is_some() {
        return Err(format!(
            "accessors[{index}]: sparse accessors are not supported"
        ));
    }
    let Some(view_index) = field(acc, "bufferView") else {
        // No view: all zeros, as the spec says.
        return Ok(Floats {
            width,
            values: vec![0.0; width.saturating_mul(count).min(1 << 24)],
        });
    };
    let view = json
        .get("bufferViews")
        .and_then(|v| v.get(view_index as usize))
        .ok_or_else(|| format!("accessors[{index}].bufferView {view_index} does not exist"))?;
    let buffer_index = field(view, "buffer").unwrap_or(u64::MAX) as usize;
    let buffer = buffers
        .get(buffer_index)
        .ok_or_else(|| format!("bufferViews[{view_index}].buffer {buffer_index} does not exist"))?;
    let view_offset = field(view, "byteOffset").unwrap_or(0) as usize;
    let view_len = field(view, "byteLength").unwrap_or(0) as usize;
    let elem = size * width;
    let stride = field(view, "byteStride").map_or(elem, |s| s as usize);
    let acc_offset = field(acc, "byteOffset").unwrap_or(0) as usize;
    let needed = count
        .checked_sub(1)
        .map(|c| c.checked_mul(stride).and_then(|x| x.checked_add(elem)))
        .unwrap_or(Some(0))
        .and_then(|x| x.checked_add(acc_offset));
    let view_end = view_offset.checked_add(view_len);
    if needed.is_none_or(|n| n > view_len)
        || stride < elem
        || view_end.is_none_or(|e| e > buffer.len())
    {
        return Err(format!(
            "accessors[{index}]: {count} elements of {elem} bytes (stride {stride}) do not fit in bufferViews[{view_index}] ({view_len} bytes at {view_offset}) of a {}-byte buffer",
            buffer.len()
        ));
    }
    let base = view_offset + acc_offset;
    let mut values = Vec::with_capacity(count * width);
    for i in 0..count {
        let at = base + i * stride;
        for c in 0..width {
            let p = at + c * size;
            let Some(b) = buffer.get(p..p + size) else {
                return Err(format!(
                    "accessors[{index}]: element {i} lies outside its buffer"
                ));
            };
            values.push(match (ctype, size) {
                (5126, _) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                (5120, _) => (b[0] as i8 as f32 / 127.0).max(-1.0),
                (5121, _) => b[0] as f32 / 255.0,
                (5122, _) => (i16::from_le_bytes([b[0], b[1]]) as f32 / 32767.0).max(-1.0),
                _ => u16::from_le_bytes([b[0], b[1]]) as f32 / 65535.0,
            });
        }
    }
    Ok(Floats { width, values })
}
