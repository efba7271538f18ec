//! The GLB container: header, JSON chunk, optional BIN chunk. Parsed defensively
//! (every length is checked against the data) and written with correct padding.

use std::io::Write;

const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;
const HEADER_LEN: usize = 12;
const CHUNK_HEADER_LEN: usize = 8;

/// The two chunks of a GLB, borrowed from the file bytes.
#[derive(Debug)]
pub struct GlbChunks<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

/// True when the bytes start with the GLB magic.
pub fn is_glb(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

fn read_u32(data: &[u8], at: usize) -> Result<u32, String> {
    let bytes = data
        .get(at..at + 4)
        .ok_or_else(|| format!("file ends at byte {} inside a length field", data.len()))?;
    Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// Splits a GLB into its JSON and BIN chunks. Errors say what is wrong and where.
pub fn parse_glb(data: &[u8]) -> Result<GlbChunks<'_>, String> {
    if data.len() < HEADER_LEN {
        return Err(format!(
            "file is {} bytes, shorter than the 12-byte GLB header",
            data.len()
        ));
    }
    if !is_glb(data) {
        return Err("bad magic: expected 'glTF'".into());
    }
    let version = read_u32(data, 4)?;
    if version != 2 {
        return Err(format!("unsupported GLB version {version} (only 2 is supported)"));
    }
    let declared = read_u32(data, 8)? as usize;
    if declared > data.len() {
        return Err(format!(
            "header declares {declared} bytes but the file has {} (truncated?)",
            data.len()
        ));
    }
    let data = &data[..declared];
    let mut at = HEADER_LEN;
    let mut json = None;
    let mut bin = None;
    let mut index = 0;
    while at < data.len() {
        let len = read_u32(data, at)? as usize;
        let kind = read_u32(data, at + 4)?;
        let start = at + CHUNK_HEADER_LEN;
        let end = start
            .checked_add(len)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| {
                format!(
                    "chunk {index} at byte {at} claims {len} bytes, past the end of the file ({} bytes)",
                    data.len()
                )
            })?;
        let body = &data[start..end];
        match (index, kind) {
            (0, CHUNK_JSON) => json = Some(body),
            (0, _) => return Err(format!("first chunk has type 0x{kind:08x}, expected JSON")),
            (1, CHUNK_BIN) => bin = Some(body),
            _ => {} // Unknown chunks are allowed by the spec and ignored.
        }
        at = end;
        index += 1;
    }
    let json = json.ok_or("no JSON chunk")?;
    Ok(GlbChunks { json, bin })
}

fn padded_len(len: usize) -> usize {
    len.div_ceil(4) * 4
}

/// Total byte length of a GLB with these chunks.
pub fn glb_len(json_len: usize, bin_len: Option<usize>) -> usize {
    HEADER_LEN
        + CHUNK_HEADER_LEN
        + padded_len(json_len)
        + bin_len.map_or(0, |b| CHUNK_HEADER_LEN + padded_len(b))
}

/// Streams a GLB: JSON padded with spaces, BIN padded with zeros, as the spec asks.
pub fn write_glb<W: Write>(out: &mut W, json: &[u8], bin: Option<&[u8]>) -> std::io::Result<()> {
    let total = glb_len(json.len(), bin.map(<[u8]>::len));
    let total = u32::try_from(total)
        .map_err(|_| std::io::Error::other("GLB larger than 4 GiB cannot be written"))?;
    out.write_all(MAGIC)?;
    out.write_all(&2u32.to_le_bytes())?;
    out.write_all(&total.to_le_bytes())?;
    write_chunk(out, CHUNK_JSON, json, b' ')?;
    if let Some(bin) = bin {
        write_chunk(out, CHUNK_BIN, bin, 0)?;
    }
    Ok(())
}

fn write_chunk<W: Write>(out: &mut W, kind: u32, body: &[u8], pad: u8) -> std::io::Result<()> {
    let padded = padded_len(body.len());
    out.write_all(&(padded as u32).to_le_bytes())?;
    out.write_all(&kind.to_le_bytes())?;
    out.write_all(body)?;
    out.write_all(&vec![pad; padded - body.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_pads_and_reparses() {
        let mut out = Vec::new();
        write_glb(&mut out, br#"{"a":1}"#, Some(&[1, 2, 3])).unwrap();
        assert_eq!(out.len() % 4, 0);
        let chunks = parse_glb(&out).unwrap();
        assert_eq!(chunks.json, br#"{"a":1} "#);
        assert_eq!(chunks.bin.unwrap(), &[1, 2, 3, 0]);
    }

    #[test]
    fn rejects_lengths_past_end() {
        let mut out = Vec::new();
        write_glb(&mut out, b"{}", None).unwrap();
        out[12] = 0xff;
        assert!(parse_glb(&out).unwrap_err().contains("past the end"));
    }
}
