//! Hostile inputs give a clear error, never a panic, hang or blow-up.

use crate::common::*;
use ragdoll_tuner::document::*;
use serde_json::json;
use std::time::Instant;

/// Opens `bytes` from a file that stays on disk for the whole test run (a GLB's BIN chunk
/// is read from its file on first use).
fn open_bytes(bytes: &[u8], name: &str) -> Result<Document, DocError> {
    let dir = tempfile::tempdir().unwrap().keep();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    Document::open(&path)
}

fn expect_err(bytes: &[u8], name: &str, text: &str) {
    let err = open_bytes(bytes, name).expect_err("must fail");
    let msg = err.to_string();
    assert!(msg.contains(text), "'{msg}' should mention '{text}'");
    assert!(msg.contains(name), "'{msg}' should name the file");
}

fn glb_of(json: &serde_json::Value, bin: Option<&[u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    container::write_glb(&mut out, &serde_json::to_vec(json).unwrap(), bin).unwrap();
    out
}

#[test]
fn empty_and_garbage_files() {
    expect_err(b"", "empty.glb", "empty");
    expect_err(b"{\"asset\": ", "cut.gltf", "invalid glTF JSON");
    expect_err(&[0xff, 0xfe, 0x00, 0x41], "bin.gltf", "not UTF-8");
    expect_err(
        b"glTX\x02\0\0\0\x0c\0\0\0",
        "magic.glb",
        "invalid glTF JSON",
    );
    expect_err(b"[1, 2, 3]", "array.gltf", "invalid glTF");
}

#[test]
fn broken_glb_containers() {
    let good = std::fs::read(mannequin()).unwrap();
    expect_err(&good[..good.len() / 2], "truncated.glb", "truncated");
    expect_err(
        &good[..10],
        "tiny.glb",
        "shorter than the 12-byte GLB header",
    );
    let mut v1 = good.clone();
    v1[4] = 1;
    expect_err(&v1, "version.glb", "unsupported GLB version 1");
    let mut long_chunk = good.clone();
    long_chunk[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    expect_err(&long_chunk, "chunk.glb", "past the end");
    let mut bin_chunk = good.clone();
    let json_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let at = 20 + json_len;
    bin_chunk[at..at + 4].copy_from_slice(&(u32::MAX - 3).to_le_bytes());
    expect_err(&bin_chunk, "binchunk.glb", "past the end");
}

#[test]
fn cycles_and_shared_children_in_the_node_tree() {
    let cyc = json!({"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"children": [0]}]});
    expect_err(&serde_json::to_vec(&cyc).unwrap(), "cycle.gltf", "cycle");
    let own = json!({"asset": {"version": "2.0"}, "nodes": [{"children": [0]}]});
    expect_err(&serde_json::to_vec(&own).unwrap(), "self.gltf", "cycle");
    let shared =
        json!({"asset": {"version": "2.0"}, "nodes": [{"children": [2]}, {"children": [2]}, {}]});
    expect_err(
        &serde_json::to_vec(&shared).unwrap(),
        "shared.gltf",
        "child of both",
    );
}

#[test]
fn a_100000_deep_node_chain_opens_without_overflow() {
    let n = 100_000;
    let mut text = String::from(r#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":["#);
    for i in 0..n {
        if i + 1 < n {
            text.push_str(&format!(
                r#"{{"translation":[0,0.001,0],"children":[{}]}},"#,
                i + 1
            ));
        } else {
            text.push_str(r#"{"extras":{"physics":{"collider":"sphere"}}}"#);
        }
    }
    text.push_str("]}");
    let t = Instant::now();
    let doc = open_bytes(text.as_bytes(), "deep.gltf").unwrap();
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
    assert_eq!(doc.skeleton.nodes.len(), n);
    let leaf = &doc.skeleton.nodes[n - 1];
    assert!((leaf.world_from_node.w_axis.y - 0.001 * (n - 1) as f64).abs() < 1e-3);
    assert_eq!(doc.bones.len(), 1);
}

fn mesh_doc(count: u64, joints: serde_json::Value) -> serde_json::Value {
    json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"mesh": 0, "skin": 0}, {"name": "j"}],
        "skins": [{"joints": joints}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3", "min": [0,0,0], "max": [1,1,1]}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "buffers": [{"byteLength": 36}]
    })
}

#[test]
fn accessor_counts_past_their_buffer() {
    let bin = [0u8; 36];
    let ok = open_bytes(&glb_of(&mesh_doc(3, json!([1])), Some(&bin)), "ok.glb").unwrap();
    assert_eq!(ok.load_geometry().unwrap().primitives[0].positions.len(), 3);
    let doc = open_bytes(
        &glb_of(&mesh_doc(4_000_000_000, json!([1])), Some(&bin)),
        "huge.glb",
    )
    .unwrap();
    let err = doc.load_geometry().unwrap_err().to_string();
    assert!(
        err.contains("accessors[0]") && err.contains("do not fit"),
        "{err}"
    );
    let mut short = mesh_doc(3, json!([1]));
    short["bufferViews"][0]["byteLength"] = json!(3600);
    let doc = open_bytes(&glb_of(&short, Some(&bin)), "view.glb").unwrap();
    let err = doc.load_geometry().unwrap_err().to_string();
    assert!(err.contains("bufferViews[0]"), "{err}");
}

#[test]
fn skin_joints_out_of_range() {
    let bin = [0u8; 36];
    let bytes = glb_of(&mesh_doc(3, json!([1, 99])), Some(&bin));
    let err = open_bytes(&bytes, "joints.glb").unwrap_err().to_string();
    assert!(err.contains("skins[0].joints[1]"), "{err}");
}

#[test]
fn uri_escapes_are_refused_and_never_exported() {
    for uri in [
        "/etc/passwd",
        "../../../../etc/passwd",
        "file:///etc/passwd",
        "sub/../../x.bin",
    ] {
        let mut doc_json = mesh_doc(3, json!([1]));
        doc_json["buffers"][0]["uri"] = json!(uri);
        let (dir, path) = write_gltf(&doc_json);
        let doc = Document::open(&path).unwrap();
        let err = doc.load_geometry().unwrap_err().to_string();
        assert!(
            err.contains("buffers[0].uri") && err.contains("refused"),
            "{err}"
        );
        let out = dir.path().join("out.glb");
        let err = doc.write_to(&out).unwrap_err().to_string();
        assert!(err.contains("refused"), "{err}");
        assert!(!out.exists());
        // With the explicit opt-in an absolute path is followed.
        if uri == "/etc/passwd" {
            let allowed = Document::open_with(&path, UriPolicy::AllowAnyLocalFile).unwrap();
            assert!(allowed.load_buffers().is_ok());
        }
    }
}

#[test]
fn data_uris_load() {
    let mut doc_json = mesh_doc(3, json!([1]));
    doc_json["buffers"][0]["uri"] = json!(format!(
        "data:application/octet-stream;base64,{}",
        "A".repeat(48)
    ));
    let (_dir, path) = write_gltf(&doc_json);
    let geo = Document::open(&path).unwrap().load_geometry().unwrap();
    assert_eq!(geo.primitives[0].positions, vec![[0.0; 3]; 3]);
}

/// A `.gltf` whose `.bin` is missing: `generate` says so and stops, exit 2, nothing
/// written. It warned that "the bones alone are used", generated from them, and only then
/// failed to write (a fallback that never happened).
#[test]
fn generate_without_the_buffer_file_says_so_first() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("Fox.gltf");
    std::fs::copy(crate::common::fox_gltf(), &gltf).unwrap();
    let out = dir.path().join("out.glb");
    let o = crate::common::ragdoll_tuner()
        .arg("generate")
        .arg(&gltf)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("Fox.gltf: cannot generate") && err.contains("Fox.bin"),
        "{err}"
    );
    assert!(!err.contains("the bones alone are used"), "{err}");
    assert!(!out.exists());
}
