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

/// Where a chunk's body lies in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSpan {
    pub start: u64,
    pub len: u64,
}

/// Locates the JSON and BIN chunks from the container's length fields alone, reading
/// 4-byte words through `word_at`. Every length is checked against `file_len`.
pub fn locate_chunks(
    file_len: u64,
    mut word_at: impl FnMut(u64) -> Result<u32, String>,
) -> Result<(ChunkSpan, Option<ChunkSpan>), String> {
    if file_len < HEADER_LEN as u64 {
        return Err(format!(
            "file is {file_len} bytes, shorter than the 12-byte GLB header"
        ));
    }
    if word_at(0)?.to_le_bytes() != *MAGIC {
        return Err("bad magic: expected 'glTF'".into());
    }
    let version = word_at(4)?;
    if version != 2 {
        return Err(format!(
            "unsupported GLB version {version} (only 2 is supported)"
        ));
    }
    let declared = u64::from(word_at(8)?);
    if declared > file_len {
        return Err(format!(
            "header declares {declared} bytes but the file has {file_len} (truncated?)"
        ));
    }
    let (mut at, mut index) = (HEADER_LEN as u64, 0);
    let (mut json, mut bin) = (None, None);
    while at < declared {
        if at + CHUNK_HEADER_LEN as u64 > declared {
            return Err(format!(
                "file ends at byte {declared} inside the header of chunk {index}"
            ));
        }
        let len = u64::from(word_at(at)?);
        let kind = word_at(at + 4)?;
        let start = at + CHUNK_HEADER_LEN as u64;
        if start + len > declared {
            return Err(format!(
                "chunk {index} at byte {at} claims {len} bytes, past the end of the file ({declared} bytes)"
            ));
        }
        let span = ChunkSpan { start, len };
        match (index, kind) {
            (0, CHUNK_JSON) => json = Some(span),
            (0, _) => return Err(format!("first chunk has type 0x{kind:08x}, expected JSON")),
            (1, CHUNK_BIN) => bin = Some(span),
            _ => {} // Unknown chunks are allowed by the spec and ignored.
        }
        at = start + len;
        index += 1;
    }
    Ok((json.ok_or("no JSON chunk")?, bin))
}

/// Splits an in-memory GLB into its JSON and BIN chunks.
pub fn parse_glb(data: &[u8]) -> Result<GlbChunks<'_>, String> {
    let (json, bin) = locate_chunks(data.len() as u64, |at| read_u32(data, at as usize))?;
    let body = |s: ChunkSpan| &data[s.start as usize..(s.start + s.len) as usize];
    Ok(GlbChunks {
        json: body(json),
        bin: bin.map(body),
    })
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
    write_glb_with(out, json, bin.map(|b| b.len() as u64), |w| {
        w.write_all(bin.unwrap_or_default())
    })
}

/// Streams a GLB whose BIN body (`bin_len` bytes) is written by `write_bin`.
pub fn write_glb_with<W: Write>(
    out: &mut W,
    json: &[u8],
    bin_len: Option<u64>,
    write_bin: impl FnOnce(&mut W) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let total = glb_len(json.len(), bin_len.map(|b| b as usize));
    let total = u32::try_from(total)
        .map_err(|_| std::io::Error::other("GLB larger than 4 GiB cannot be written"))?;
    out.write_all(MAGIC)?;
    out.write_all(&2u32.to_le_bytes())?;
    out.write_all(&total.to_le_bytes())?;
    write_chunk_header(out, CHUNK_JSON, json.len())?;
    out.write_all(json)?;
    out.write_all(&vec![b' '; padded_len(json.len()) - json.len()])?;
    if let Some(len) = bin_len {
        write_chunk_header(out, CHUNK_BIN, len as usize)?;
        write_bin(out)?;
        out.write_all(&vec![0; padded_len(len as usize) - len as usize])?;
    }
    Ok(())
}

/// Byte offset of the BIN body in a GLB whose JSON chunk holds `json_len` bytes.
pub fn bin_offset(json_len: usize) -> u64 {
    (HEADER_LEN + CHUNK_HEADER_LEN + padded_len(json_len) + CHUNK_HEADER_LEN) as u64
}

fn write_chunk_header<W: Write>(out: &mut W, kind: u32, len: usize) -> std::io::Result<()> {
    out.write_all(&(padded_len(len) as u32).to_le_bytes())?;
    out.write_all(&kind.to_le_bytes())
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
