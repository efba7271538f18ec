//! The character skinned on the GPU looks as it does skinned on the CPU (the reference
//! path, `render::skin::skin`): real window, real simulation, a collapsed ragdoll so every
//! joint is away from its rest pose. Skipped without a DISPLAY.

use crate::common;
use ragdoll_tuner::document::Document;
use std::path::Path;

/// The mannequin with every drive at zero stiffness: it collapses when simulated.
fn limp_mannequin(dir: &Path) -> std::path::PathBuf {
    let limp = dir.join("limp.glb");
    let doc = Document::open(common::mannequin()).expect("mannequin opens");
    let mut edit = common::ragdoll_tuner();
    edit.arg("edit").arg(common::mannequin());
    for id in doc.bone_ids() {
        let bone = doc.bone(id);
        if bone.physics.as_ref().is_some_and(|p| p.drive.is_some()) {
            edit.arg("--set")
                .arg(format!("{}.drive.stiffness=0", bone.name));
        }
    }
    let out = edit.arg("-o").arg(&limp).output().expect("edit runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    limp
}

/// Which pixels of the screenshot show the lit character (its grey-beige), and the count.
fn mesh_mask(file: &Path, cpu: bool) -> (Vec<bool>, usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let png_path = dir.path().join("shot.png");
    let mut cmd = common::ragdoll_tuner();
    cmd.arg(file)
        .arg("--screenshot")
        .arg(&png_path)
        .args(["--sim-seconds", "1.5"]);
    if cpu {
        cmd.env(ragdoll_tuner::render::scene::CPU_SKIN_ENV, "1");
    } else {
        cmd.env_remove(ragdoll_tuner::render::scene::CPU_SKIN_ENV);
    }
    let out = cmd.output().expect("editor runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("png written"),
    ));
    let mut reader = decoder.read_info().expect("valid png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let (w, h) = (info.width as usize, info.height as usize);
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
    (mask, n)
}

#[test]
fn gpu_skinning_matches_cpu_skinning() {
    if std::env::var_os("DISPLAY").is_none() {
        eprintln!("skipped: no DISPLAY (run under Xvfb to check the real window)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let limp = limp_mannequin(dir.path());
    let (gpu, n_gpu) = mesh_mask(&limp, false);
    let (cpu, n_cpu) = mesh_mask(&limp, true);
    assert!(
        n_cpu > 3000,
        "the collapsed mannequin is drawn: {n_cpu} pixels"
    );
    let differ = gpu.iter().zip(&cpu).filter(|(a, b)| a != b).count();
    println!("mesh pixels: GPU {n_gpu}, CPU {n_cpu}, differing {differ}");
    assert!(
        differ * 50 < n_cpu,
        "{differ} of {n_cpu} mesh pixels differ between GPU and CPU skinning"
    );
}

/// The dense 35,000-vertex character is drawn at a coarser level of detail in the default
/// view (its own compacted vertex buffers); its silhouette matches the full mesh skinned on
/// the CPU.
#[test]
fn coarse_level_of_detail_matches_the_full_mesh() {
    if std::env::var_os("DISPLAY").is_none() {
        eprintln!("skipped: no DISPLAY (run under Xvfb to check the real window)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let dense = dir.path().join("dense.glb");
    let out = common::ragdoll_tuner()
        .args(["generate-mannequin", "--dense"])
        .arg(&dense)
        .output()
        .expect("generator runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (gpu, n_gpu) = mesh_mask(&dense, false);
    let (cpu, n_cpu) = mesh_mask(&dense, true);
    assert!(n_cpu > 3000, "the character is drawn: {n_cpu} pixels");
    let differ = gpu.iter().zip(&cpu).filter(|(a, b)| a != b).count();
    println!(
        "dense mesh pixels: GPU (coarse level) {n_gpu}, CPU (full) {n_cpu}, differing {differ}"
    );
    assert!(
        differ * 25 < n_cpu,
        "{differ} of {n_cpu} mesh pixels differ between the coarse level and the full mesh"
    );
}
