//! The character skinned on the GPU looks as it does skinned on the CPU (the reference
//! path, `render::skin::skin`): real window, real simulation, a collapsed ragdoll so every
//! joint is away from its rest pose. Skipped without a DISPLAY.

use crate::common;
use std::path::Path;

/// Which pixels of the screenshot show the lit character (its grey-beige), their count and
/// the screenshot's width.
fn mesh_mask(file: &Path, cpu: bool) -> (Vec<bool>, usize, usize) {
    let (w, h, buf) = common::screenshot_with(Some(file), &["--sim-seconds", "1.5"], |cmd| {
        if cpu {
            cmd.env(ragdoll_tuner::render::scene::CPU_SKIN_ENV, "1");
        } else {
            cmd.env_remove(ragdoll_tuner::render::scene::CPU_SKIN_ENV);
        }
    });
    let mut mask = vec![false; w * h];
    // The viewport only: between the side panels, above the plots.
    for y in h / 12..h * 2 / 3 {
        for x in w / 4..w * 7 / 10 {
            let p = &buf[(y * w + x) * 4..(y * w + x) * 4 + 3];
            let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
            // As `editor::classify` tells the body from gizmos and background.
            mask[y * w + x] = r > 120 && (r - g).abs() < 25 && (g - b).abs() < 30 && r < 235;
        }
    }
    let n = mask.iter().filter(|&&m| m).count();
    (mask, n, w)
}

/// The mask's bounding box (x0, y0, x1, y1) in a `width`-pixel-wide screenshot, for the
/// failure message: a moved or resized character shows there.
fn bounds(mask: &[bool], width: usize) -> Option<(usize, usize, usize, usize)> {
    let on = mask.iter().enumerate().filter(|(_, &m)| m);
    on.fold(None, |b, (i, _)| {
        let (x, y) = (i % width, i / width);
        Some(b.map_or((x, y, x, y), |(x0, y0, x1, y1)| {
            (x.min(x0), y.min(y0), x.max(x1), y.max(y1))
        }))
    })
}

#[test]
fn gpu_skinning_matches_cpu_skinning() {
    if common::needs_display() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let limp = common::limp_mannequin(dir.path());
    let (gpu, n_gpu, w_gpu) = mesh_mask(&limp, false);
    let (cpu, n_cpu, w_cpu) = mesh_mask(&limp, true);
    assert!(
        n_cpu > 3000,
        "the collapsed mannequin is drawn: {n_cpu} pixels"
    );
    let differ = gpu.iter().zip(&cpu).filter(|(a, b)| a != b).count();
    println!("mesh pixels: GPU {n_gpu}, CPU {n_cpu}, differing {differ}");
    assert!(
        differ * 50 < n_cpu,
        "{differ} of {n_cpu} mesh pixels differ between GPU and CPU skinning \
         (bounds: GPU {:?}, CPU {:?})",
        bounds(&gpu, w_gpu),
        bounds(&cpu, w_cpu)
    );
}

/// The dense 35,000-vertex character is drawn at a coarser level of detail in the default
/// view (its own compacted vertex buffers); its silhouette matches the full mesh skinned on
/// the CPU.
#[test]
fn coarse_level_of_detail_matches_the_full_mesh() {
    if common::needs_display() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let dense = dir.path().join("dense.glb");
    common::run_ok(
        common::ragdoll_tuner()
            .args(["generate-mannequin", "--dense"])
            .arg(&dense),
    );
    let (gpu, n_gpu, w_gpu) = mesh_mask(&dense, false);
    let (cpu, n_cpu, w_cpu) = mesh_mask(&dense, true);
    assert!(n_cpu > 3000, "the character is drawn: {n_cpu} pixels");
    let differ = gpu.iter().zip(&cpu).filter(|(a, b)| a != b).count();
    println!(
        "dense mesh pixels: GPU (coarse level) {n_gpu}, CPU (full) {n_cpu}, differing {differ}"
    );
    assert!(
        differ * 25 < n_cpu,
        "{differ} of {n_cpu} mesh pixels differ between the coarse level and the full mesh \
         (bounds: coarse {:?}, full {:?})",
        bounds(&gpu, w_gpu),
        bounds(&cpu, w_cpu)
    );
}
