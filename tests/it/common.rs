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

pub fn ragdoll_tuner() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_ragdoll-tuner"))
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}
