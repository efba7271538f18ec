//! Opening files off the UI thread: the document and its geometry are read in a worker, the
//! window keeps drawing (with a spinner) and the result is picked up by a later frame.

use crate::document::geometry::Geometry;
use crate::document::{Document, UriPolicy};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::Instant;

/// A loaded document with its meshes (or why the meshes could not be read).
pub type Loaded = Result<(Document, Result<Geometry, String>), String>;

/// A file being read in the background.
pub struct Loading {
    pub path: PathBuf,
    pub started: Instant,
    rx: Receiver<Loaded>,
}

impl Loading {
    pub fn start(path: &Path, policy: UriPolicy) -> Self {
        let (tx, rx) = channel();
        let p = path.to_path_buf();
        std::thread::spawn(move || {
            let res = Document::open_with(&p, policy)
                .map_err(|e| e.to_string())
                .map(|doc| {
                    let geo = doc.load_geometry().map_err(|e| e.to_string());
                    (doc, geo)
                });
            let _ = tx.send(res);
        });
        Self {
            path: path.to_path_buf(),
            started: Instant::now(),
            rx,
        }
    }

    /// The result once the worker is done.
    pub fn poll(&self) -> Option<Loaded> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the loader stopped unexpectedly".into())),
        }
    }

    /// Blocks until the worker is done (tests and headless runs).
    pub fn wait(self) -> Loaded {
        self.rx
            .recv()
            .unwrap_or_else(|_| Err("the loader stopped unexpectedly".into()))
    }
}
