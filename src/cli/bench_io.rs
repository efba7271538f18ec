//! `bench-io`: open + edit one bone + save a GLB with a large BIN chunk, side by side with a
//! plain file copy of the same file, in one run. Prints one JSON line.

use crate::document::{container, write_atomic, Document, Edit};
use serde_json::{json, Value};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(mb: usize, dir: &Path, runs: usize) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(dir)?;
    let src = dir.join("big.glb");
    make_big_glb(&src, mb * 1_000_000)?;
    let copy = dir.join("copy.glb");
    let mut copy_s = Vec::new();
    let mut save_s = Vec::new();
    for i in 0..runs.max(1) {
        settle();
        let t = Instant::now();
        std::fs::copy(&src, &copy)?;
        copy_s.push(t.elapsed().as_secs_f64());
        settle();
        let t = Instant::now();
        let mut doc = Document::open(&src)?;
        let id = doc
            .bone_by_name("thigh_l")
            .ok_or_else(|| anyhow::anyhow!("no thigh_l"))?;
        let target = doc.bone_target(id);
        doc.apply(&Edit::Set {
            target,
            key: crate::document::fields::Key::Mass.path().into(),
            value: json!(8.0 + i as f64),
        })?;
        let written = doc.save()?;
        anyhow::ensure!(
            written.images_not_carried.is_empty(),
            "{}",
            written.warnings().join("; ")
        );
        save_s.push(t.elapsed().as_secs_f64());
    }
    let (copy_med, save_med) = (median(&mut copy_s), median(&mut save_s));
    let report = json!({
        "bin_mb": mb,
        "file_bytes": std::fs::metadata(&src)?.len(),
        "runs": runs,
        "copy_median_s": copy_med,
        "open_edit_save_median_s": save_med,
        "ratio": save_med / copy_med,
    });
    println!("{report}");
    let _ = std::fs::remove_file(&copy);
    let _ = std::fs::remove_file(&src);
    Ok(ExitCode::SUCCESS)
}

/// Flushes dirty pages so each timed phase starts from the same state, not paying for the
/// write-back of the phase before it.
fn settle() {
    // SAFETY: sync(2) takes no arguments and cannot fail.
    #[cfg(unix)]
    unsafe {
        libc::sync();
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The mannequin with `extra` bytes of pseudo-random data appended to its BIN chunk as an
/// extra buffer view.
pub fn make_big_glb(path: &Path, extra: usize) -> anyhow::Result<()> {
    let glb = crate::mannequin::generate();
    let chunks = container::parse_glb(&glb).map_err(anyhow::Error::msg)?;
    let mut json: Value = serde_json::from_slice(chunks.json)?;
    let mut bin = chunks.bin.unwrap_or_default().to_vec();
    let offset = bin.len();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    bin.reserve(extra);
    for _ in 0..extra / 8 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bin.extend_from_slice(&x.to_le_bytes());
    }
    if let Some(views) = json["bufferViews"].as_array_mut() {
        views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": bin.len() - offset, "name": "payload" }));
    }
    json["buffers"][0]["byteLength"] = json!(bin.len());
    let text = serde_json::to_vec(&json)?;
    write_atomic(path, |w| container::write_glb(w, &text, Some(&bin)))?;
    Ok(())
}
