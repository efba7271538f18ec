//! `EXT_meshopt_compression` (and `KHR_meshopt_compression`, the same format): buffer views
//! whose bytes are stored compressed in another buffer. They are decoded in memory into the
//! view's own buffer (the "fallback" buffer, which in files such as gltfpack's holds no bytes
//! at all), with the meshopt crate's vertex and index codecs and its OCTAHEDRAL, QUATERNION,
//! EXPONENTIAL and COLOR filters. The file's buffers are never changed: a save writes the
//! compressed bytes back untouched.

use serde_json::Value;
use std::borrow::Cow;

/// The extensions this module decodes (the same bitstream under two names).
pub const EXTENSIONS: [&str; 2] = ["EXT_meshopt_compression", "KHR_meshopt_compression"];

/// The codecs cannot shrink data more than about 64 times (two header bits per 16 bytes of
/// constant data), so a view claiming more than this ratio is hostile, not compressed.
const MAX_RATIO: usize = 256;
/// The largest view decoded.
const MAX_DECODED: usize = 1 << 30;

/// The view's or buffer's compression extension object, if it has one.
fn extension(v: &Value) -> Option<(&'static str, &Value)> {
    let ext = v.get("extensions")?;
    EXTENSIONS
        .iter()
        .find_map(|name| Some((*name, ext.get(name)?)))
}

/// True for a buffer that only stands in for decoded data (`"fallback": true`): its bytes,
/// if any, are never needed.
pub fn is_fallback(buffer: &Value) -> bool {
    extension(buffer)
        .and_then(|(_, e)| e.get("fallback")?.as_bool())
        .unwrap_or(false)
}

fn num(v: &Value, key: &str) -> usize {
    v.get(key)
        .and_then(Value::as_u64)
        .map_or(0, |x| usize::try_from(x).unwrap_or(usize::MAX))
}

/// Decodes every compressed buffer view of `json` into its own buffer. Errors name the view.
pub fn decode_views(json: &Value, buffers: &mut [Cow<'_, [u8]>]) -> Result<(), String> {
    let views = json.get("bufferViews").and_then(Value::as_array);
    let declared: Vec<usize> = json
        .get("buffers")
        .and_then(Value::as_array)
        .map_or(Vec::new(), |b| {
            b.iter().map(|b| num(b, "byteLength")).collect()
        });
    for (v, view) in views.into_iter().flatten().enumerate() {
        let Some((name, ext)) = extension(view) else {
            continue;
        };
        let key = format!("bufferViews[{v}].extensions.{name}");
        let decoded = decode_view(ext, buffers, &key)?;
        let (target, offset) = (num(view, "buffer"), num(view, "byteOffset"));
        if decoded.len() > num(view, "byteLength") {
            return Err(format!(
                "{key}: {} decoded bytes do not fit in the view's byteLength {}",
                decoded.len(),
                num(view, "byteLength")
            ));
        }
        let end = offset.saturating_add(decoded.len());
        let limit = declared.get(target).copied().unwrap_or(0);
        let Some(buffer) = buffers.get_mut(target).filter(|_| end <= limit) else {
            return Err(format!(
                "bufferViews[{v}]: decoded bytes {offset}..{end} lie outside buffers[{target}] ({limit} bytes)"
            ));
        };
        let bytes = buffer.to_mut();
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        bytes[offset..end].copy_from_slice(&decoded);
    }
    Ok(())
}

/// One view's decoded bytes.
fn decode_view(ext: &Value, buffers: &[Cow<'_, [u8]>], key: &str) -> Result<Vec<u8>, String> {
    let (source, offset, len) = (
        num(ext, "buffer"),
        num(ext, "byteOffset"),
        num(ext, "byteLength"),
    );
    let src = buffers
        .get(source)
        .and_then(|b| b.get(offset..offset.checked_add(len)?))
        .ok_or_else(|| {
            format!("{key}: compressed bytes {offset}..+{len} lie outside buffers[{source}]")
        })?;
    let (count, stride) = (num(ext, "count"), num(ext, "byteStride"));
    let size = count
        .checked_mul(stride)
        .filter(|&n| n <= MAX_DECODED && n <= len.saturating_mul(MAX_RATIO) + 4096)
        .ok_or_else(|| {
            format!(
                "{key}: {count} elements of {stride} bytes cannot come from {len} compressed bytes"
            )
        })?;
    let mode = ext.get("mode").and_then(Value::as_str).unwrap_or("");
    let filter = ext.get("filter").and_then(Value::as_str).unwrap_or("NONE");
    let out = match mode {
        "ATTRIBUTES" => {
            let mut out = decode_attributes(src, count, stride)?;
            apply_filter(filter, &mut out, stride)?;
            out
        }
        "TRIANGLES" | "INDICES" => decode_indices(src, count, stride, mode == "INDICES")?,
        other => {
            return Err(format!(
                "{key}.mode '{other}' is not ATTRIBUTES, TRIANGLES or INDICES"
            ))
        }
    };
    debug_assert_eq!(out.len(), size);
    Ok(out)
}

/// One vertex of `N` bytes, for the codec (whose stride is the element's size).
#[derive(Clone, Copy)]
struct Vertex<const N: usize>([u8; N]);

impl<const N: usize> Default for Vertex<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

fn decode_n<const N: usize>(src: &[u8], count: usize) -> Result<Vec<u8>, String> {
    let v: Vec<Vertex<N>> = meshopt::decode_vertex_buffer(src, count)
        .map_err(|e| format!("the vertex data does not decode ({e})"))?;
    Ok(v.into_iter().flat_map(|x| x.0).collect())
}

macro_rules! by_stride {
    ($stride:expr, $src:expr, $count:expr; $($n:literal)*) => {
        match $stride {
            $($n => decode_n::<$n>($src, $count),)*
            s => Err(format!("byteStride {s} is not a multiple of 4 up to 256")),
        }
    };
}

fn decode_attributes(src: &[u8], count: usize, stride: usize) -> Result<Vec<u8>, String> {
    by_stride!(stride, src, count;
        4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112
        116 120 124 128 132 136 140 144 148 152 156 160 164 168 172 176 180 184 188 192 196
        200 204 208 212 216 220 224 228 232 236 240 244 248 252 256)
}

fn decode_indices(
    src: &[u8],
    count: usize,
    stride: usize,
    sequence: bool,
) -> Result<Vec<u8>, String> {
    let err = |e: meshopt::Error| format!("the index data does not decode ({e})");
    match (stride, sequence) {
        (2, false) => Ok(le_bytes(
            meshopt::decode_index_buffer::<u16>(src, count).map_err(err)?,
        )),
        (4, false) => Ok(le_bytes(
            meshopt::decode_index_buffer::<u32>(src, count).map_err(err)?,
        )),
        (2, true) => Ok(le_bytes(
            meshopt::decode_index_sequence::<u16>(src, count).map_err(err)?,
        )),
        (4, true) => Ok(le_bytes(
            meshopt::decode_index_sequence::<u32>(src, count).map_err(err)?,
        )),
        (s, _) => Err(format!("index byteStride {s} is not 2 or 4")),
    }
}

fn le_bytes<T: Into<u32> + Copy>(v: Vec<T>) -> Vec<u8> {
    let size = std::mem::size_of::<T>();
    v.iter()
        .flat_map(|&x| x.into().to_le_bytes().into_iter().take(size))
        .collect()
}

/// Runs `f` on the bytes seen as elements of `W` components of type `C`, in place.
fn filtered<C: Copy + Default, const W: usize>(
    bytes: &mut [u8],
    read: impl Fn(&[u8]) -> C,
    write: impl Fn(C, &mut [u8]),
    f: impl FnOnce(&mut [[C; W]]),
) {
    let size = std::mem::size_of::<C>();
    let mut items: Vec<[C; W]> = bytes
        .chunks_exact(size * W)
        .map(|e| std::array::from_fn(|k| read(&e[k * size..])))
        .collect();
    f(&mut items);
    for (e, item) in bytes.chunks_exact_mut(size * W).zip(&items) {
        for (k, &c) in item.iter().enumerate() {
            write(c, &mut e[k * size..(k + 1) * size]);
        }
    }
}

fn i8_of(b: &[u8]) -> i8 {
    b[0] as i8
}
fn put_i8(c: i8, b: &mut [u8]) {
    b[0] = c as u8;
}
fn i16_of(b: &[u8]) -> i16 {
    i16::from_le_bytes([b[0], b[1]])
}
fn put_i16(c: i16, b: &mut [u8]) {
    b.copy_from_slice(&c.to_le_bytes());
}

/// The extension's filters, undone in place on decoded vertex data.
fn apply_filter(filter: &str, out: &mut [u8], stride: usize) -> Result<(), String> {
    match (filter, stride) {
        ("NONE", _) => {}
        ("OCTAHEDRAL", 4) => filtered::<i8, 4>(out, i8_of, put_i8, meshopt::decode_filter_oct),
        ("OCTAHEDRAL", 8) => filtered::<i16, 4>(out, i16_of, put_i16, meshopt::decode_filter_oct),
        ("QUATERNION", 8) => filtered::<i16, 4>(out, i16_of, put_i16, meshopt::decode_filter_quat),
        ("EXPONENTIAL", s) if s % 4 == 0 => filtered::<u32, 1>(
            out,
            |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            |c, b| b.copy_from_slice(&c.to_le_bytes()),
            meshopt::decode_filter_exp::<1>,
        ),
        ("COLOR", 4) => filtered::<i8, 4>(out, i8_of, put_i8, meshopt::decode_filter_color),
        ("COLOR", 8) => filtered::<i16, 4>(out, i16_of, put_i16, meshopt::decode_filter_color),
        (f, s) => {
            return Err(format!(
                "filter '{f}' with byteStride {s} is not in the extension"
            ))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_and_indices_round_trip_through_the_codec() {
        let verts: Vec<[u16; 6]> = (0..100u16).map(|i| [i, i * 2, 7, i, 0, 9]).collect();
        let enc = meshopt::encode_vertex_buffer(&verts).unwrap();
        let dec = decode_attributes(&enc, 100, 12).unwrap();
        assert_eq!(dec, le_bytes(verts.iter().flatten().copied().collect()));
        let idx: Vec<u32> = vec![0, 1, 2, 2, 1, 3, 3, 1, 4];
        let enc = meshopt::encode_index_buffer(&idx, 5).unwrap();
        let dec = decode_indices(&enc, 9, 2, false).unwrap();
        assert_eq!(dec, le_bytes(idx.iter().map(|&i| i as u16).collect()));
    }

    #[test]
    fn filters_decode_unit_vectors_and_quaternions() {
        let n = [0.6f32, 0.0, 0.8, 0.0];
        let mut b: Vec<u8> = meshopt::encode_filter_oct::<i16>(&[n], 16)
            .iter()
            .flatten()
            .flat_map(|c| c.to_le_bytes())
            .collect();
        apply_filter("OCTAHEDRAL", &mut b, 8).unwrap();
        let x = i16_of(&b[0..]) as f32 / 32767.0;
        let z = i16_of(&b[4..]) as f32 / 32767.0;
        assert!((x - 0.6).abs() < 1e-3 && (z - 0.8).abs() < 1e-3, "{x} {z}");
        assert!(apply_filter("QUATERNION", &mut b, 4).is_err());
    }
}
