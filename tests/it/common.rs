//! Paths to the real third-party assets and small helpers shared by the tests.

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file from `../shared/assets` (never copied into the project).
pub fn shared_asset(rel: &str) -> PathBuf {
    let p = root().join("../shared/assets").join(rel);
    assert!(p.exists(), "missing shared asset {}", p.display());
    p
}

pub fn cesium_man() -> PathBuf {
    shared_asset("CesiumMan/CesiumMan.glb")
}

pub fn fox_glb() -> PathBuf {
    shared_asset("Fox/Fox.glb")
}

pub fn fox_gltf() -> PathBuf {
    shared_asset("Fox/glTF/Fox.gltf")
}

pub fn mannequin() -> PathBuf {
    root().join("assets/mannequin.glb")
}

/// Every real character of the acceptance corpus: the zoo, CesiumMan, the Fox and the
/// bundled mannequin.
pub fn characters() -> Vec<PathBuf> {
    let mut out = zoo_files();
    out.extend([cesium_man(), fox_glb(), mannequin()]);
    out
}

/// Every character of the zoo (`../shared/assets/zoo`: .glb, .gltf and .vrm), sorted.
pub fn zoo_files() -> Vec<PathBuf> {
    let zoo = root().join("../shared/assets/zoo");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&zoo)
        .unwrap_or_else(|e| panic!("{}: {e}", zoo.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "glb" || x == "vrm" || x == "gltf")
        })
        .collect();
    out.sort();
    out
}

/// Writes a glTF JSON document into a fresh temp folder and returns (dir, path).
pub fn write_gltf(json: &serde_json::Value) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.gltf");
    std::fs::write(&path, serde_json::to_vec_pretty(json).unwrap()).unwrap();
    (dir, path)
}

/// A minimal valid glTF with the given nodes (physics extras included by the caller).
pub fn gltf_with_nodes(nodes: serde_json::Value) -> serde_json::Value {
    let list = nodes.as_array().cloned().unwrap_or_default();
    let is_child = |i: usize| {
        list.iter().any(|n| {
            n["children"]
                .as_array()
                .is_some_and(|c| c.iter().any(|x| x.as_u64() == Some(i as u64)))
        })
    };
    let roots: Vec<usize> = (0..list.len()).filter(|&i| !is_child(i)).collect();
    serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
    })
}

/// The joint (constraint kind) of the bone named `name`; panics when there is none.
pub fn joint_kind(
    doc: &ragdoll_tuner::document::Document,
    name: &str,
) -> ragdoll_tuner::document::ConstraintKind {
    let id = doc
        .bone_by_name(name)
        .unwrap_or_else(|| panic!("no bone {name}"));
    doc.bone(id)
        .constraint()
        .unwrap_or_else(|| panic!("{name} has no joint"))
        .kind
        .clone()
}

pub fn ragdoll_tuner() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_ragdoll-tuner"))
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the editor's screenshot hook on `file` (the default mannequin when None) with extra
/// arguments, after `setup` has adjusted the command (environment), and returns the PNG as
/// (width, height, RGBA bytes).
pub fn screenshot_with(
    file: Option<&Path>,
    args: &[&str],
    setup: impl FnOnce(&mut std::process::Command),
) -> (usize, usize, Vec<u8>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let png_path = dir.path().join("shot.png");
    let mut cmd = ragdoll_tuner();
    cmd.args(file).arg("--screenshot").arg(&png_path).args(args);
    setup(&mut cmd);
    run_ok(&mut cmd);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("png written"),
    ));
    let mut reader = decoder.read_info().expect("valid png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    (info.width as usize, info.height as usize, buf)
}

/// [`screenshot_with`] with the command as it is.
pub fn screenshot(file: Option<&Path>, args: &[&str]) -> (usize, usize, Vec<u8>) {
    screenshot_with(file, args, |_| {})
}

/// The mannequin with every drive at zero stiffness and balance off, written into `dir`: it
/// collapses when simulated. (With balance on, its knees straight at their limits hold it up
/// like stilts: at 16 solver substeps it stood through 4 s; at 8 the limits gave way.)
pub fn limp_mannequin(dir: &Path) -> PathBuf {
    let limp = dir.join("limp.glb");
    let doc = ragdoll_tuner::document::Document::open(mannequin()).expect("mannequin opens");
    let mut edit = ragdoll_tuner();
    edit.arg("edit").arg(mannequin());
    for id in doc.bone_ids() {
        let bone = doc.bone(id);
        if bone.physics.as_ref().is_some_and(|p| p.drive.is_some()) {
            edit.arg("--set")
                .arg(format!("{}.drive.stiffness=0", bone.name));
        }
    }
    edit.arg("--set").arg(format!(
        "@{}=false",
        ragdoll_tuner::document::fields::Key::BalanceEnabled.path()
    ));
    run_ok(edit.arg("-o").arg(&limp));
    limp
}

/// True (and says so) when there is no X display: the tests of the real window skip then.
pub fn needs_display() -> bool {
    if std::env::var_os("DISPLAY").is_none() {
        // Under CI a missing display is a broken setup, never a silent pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "no DISPLAY under CI: .ci/run starts Xvfb for the real-window tests"
        );
        eprintln!("skipped: no DISPLAY (run under Xvfb to check the real window)");
        return true;
    }
    false
}

/// Runs a command that must succeed; its stderr is the failure message.
pub fn run_ok(cmd: &mut std::process::Command) -> std::process::Output {
    let out = cmd.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `edit SRC --set SET -o OUT` (must succeed), then OUT opened.
pub fn edited(src: &Path, set: &str, out: &Path) -> ragdoll_tuner::document::Document {
    run_ok(
        ragdoll_tuner()
            .arg("edit")
            .arg(src)
            .args(["--set", set, "-o"])
            .arg(out),
    );
    ragdoll_tuner::document::Document::open(out).expect("the edited file opens")
}

/// A `.glb` file with its scene turned by `deg` about the vertical (under a new root node),
/// as another tool might place it: the same character facing another way.
pub fn turned_glb(src: &Path, deg: f64) -> ragdoll_tuner::document::Document {
    let h = deg.to_radians() / 2.0;
    placed_glb(
        src,
        serde_json::json!({"name": "turned", "rotation": [0.0, h.sin(), 0.0, h.cos()]}),
    )
}

/// A `.glb` file with its scene under a new root node `node` (a glTF node without children:
/// its name and transform), as another tool might place the same character.
pub fn placed_glb(src: &Path, mut node: serde_json::Value) -> ragdoll_tuner::document::Document {
    glb_with_json(src, |j| {
        let scene = j["scene"].as_u64().unwrap_or(0) as usize;
        node["children"] = j["scenes"][scene]["nodes"].take();
        let nodes = j["nodes"].as_array_mut().expect("nodes");
        nodes.push(node);
        j["scenes"][scene]["nodes"] = serde_json::json!([nodes.len() - 1]);
    })
}

/// A `.glb` file opened with its glTF JSON changed by `edit` (its binary chunk as it is).
pub fn glb_with_json(
    src: &Path,
    edit: impl FnOnce(&mut serde_json::Value),
) -> ragdoll_tuner::document::Document {
    let bytes = std::fs::read(src).expect("the .glb");
    let n = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let mut j: serde_json::Value = serde_json::from_slice(&bytes[20..20 + n]).expect("JSON");
    edit(&mut j);
    let mut text = serde_json::to_vec(&j).expect("JSON");
    text.resize(text.len().div_ceil(4) * 4, b' ');
    let rest = &bytes[20 + n..];
    let total = (20 + text.len() + rest.len()) as u32;
    let mut out = b"glTF".to_vec();
    out.extend(2u32.to_le_bytes());
    out.extend(total.to_le_bytes());
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(text);
    out.extend_from_slice(rest);
    ragdoll_tuner::document::Document::from_bytes(src, &out, Default::default())
        .expect("the edited file opens")
}
