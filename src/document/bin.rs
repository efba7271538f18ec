//! The GLB BIN chunk. It stays in the file until something needs its bytes, so opening,
//! editing and saving a character with a huge BIN costs little more than copying the file:
//! the save copies the chunk file-to-file (copy_file_range on Linux), byte for byte.

use super::DocError;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

/// Where the chunk's bytes are.
#[derive(Debug, Clone)]
enum Source {
    /// Only in memory (documents made from bytes).
    Memory,
    /// In a file, at `offset`; `stamp` detects a file changed on disk since it was opened.
    File {
        path: PathBuf,
        offset: u64,
        stamp: (u64, Option<SystemTime>),
    },
}

/// A BIN chunk, loaded on first use.
#[derive(Debug, Clone)]
pub(crate) struct BinChunk {
    source: Source,
    len: u64,
    bytes: OnceLock<Vec<u8>>,
}

fn stamp_of(path: &Path) -> std::io::Result<(u64, Option<SystemTime>)> {
    let m = std::fs::metadata(path)?;
    Ok((m.len(), m.modified().ok()))
}

impl BinChunk {
    pub fn in_memory(bytes: Vec<u8>) -> Self {
        Self {
            source: Source::Memory,
            len: bytes.len() as u64,
            bytes: OnceLock::from(bytes),
        }
    }

    pub fn in_file(path: &Path, offset: u64, len: u64) -> std::io::Result<Self> {
        let stamp = stamp_of(path)?;
        Ok(Self {
            source: Source::File {
                path: path.into(),
                offset,
                stamp,
            },
            len,
            bytes: OnceLock::new(),
        })
    }

    /// The file region, checked to be unchanged since it was opened.
    fn open_region(&self) -> Result<Option<std::io::Take<std::fs::File>>, DocError> {
        let Source::File {
            path,
            offset,
            stamp,
        } = &self.source
        else {
            return Ok(None);
        };
        let read_err = |source| DocError::Read {
            path: path.clone(),
            source,
        };
        if stamp_of(path).map_err(read_err)? != *stamp {
            return Err(DocError::Unsupported {
                path: path.clone(),
                reason: "the file changed on disk since it was opened; reopen it before saving"
                    .into(),
            });
        }
        let mut f = std::fs::File::open(path).map_err(read_err)?;
        f.seek(SeekFrom::Start(*offset)).map_err(read_err)?;
        Ok(Some(f.take(self.len)))
    }

    /// The chunk's bytes, read from the file on first use.
    pub fn bytes(&self) -> Result<&[u8], DocError> {
        if let Some(b) = self.bytes.get() {
            return Ok(b);
        }
        let mut out = Vec::with_capacity(self.len as usize);
        if let Some(mut region) = self.open_region()? {
            let path = match &self.source {
                Source::File { path, .. } => path.clone(),
                Source::Memory => PathBuf::new(),
            };
            region
                .read_to_end(&mut out)
                .map_err(|source| DocError::Read { path, source })?;
        }
        Ok(self.bytes.get_or_init(|| out))
    }

    /// Streams the chunk into `w`: from memory when loaded, else file to file.
    pub fn write_into(&self, w: &mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()> {
        if let Some(b) = self.bytes.get() {
            return w.write_all(b);
        }
        let region = self.open_region().map_err(std::io::Error::other)?;
        let mut region = region.ok_or_else(|| std::io::Error::other("BIN chunk has no source"))?;
        let copied = std::io::copy(&mut region, w)?;
        if copied != self.len {
            return Err(std::io::Error::other(format!(
                "BIN chunk: copied {copied} of {} bytes",
                self.len
            )));
        }
        Ok(())
    }

    /// After the document was saved over its own file: the chunk now lives at `offset`.
    pub fn relocate(&mut self, path: &Path, offset: u64) -> std::io::Result<()> {
        let stamp = stamp_of(path)?;
        self.source = Source::File {
            path: path.into(),
            offset,
            stamp,
        };
        Ok(())
    }

    pub fn len(&self) -> u64 {
        self.len
    }
}
