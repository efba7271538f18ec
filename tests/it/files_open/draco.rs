//! `KHR_draco_mesh_compression` (the compression web characters are most often shipped
//! with): `tests/data/mannequin_draco.glb` is the bundled mannequin compressed by
//! gltf-transform 4.5 (`gltf-transform draco assets/mannequin.glb tests/data/mannequin_draco.glb`:
//! edgebreaker, 14-bit positions, 10-bit normals, 8-bit weights). Written again whenever the
//! mannequin changes (the first test says so). It reads as the plain file does, generates the
//! same ragdoll, saves its compressed stream untouched, and a corrupt stream is an error that
//! names the file and the view.

use super::real::{glb_chunks, saved_with_an_edit};
use crate::common::*;
use ragdoll_tuner::document::geometry::MeshPrimitive;
use ragdoll_tuner::document::*;
use std::path::PathBuf;

fn draco_mannequin() -> PathBuf {
    root().join("tests/data/mannequin_draco.glb")
}

/// Each vertex of `a` (position, dominant joint) has one in `b` within `tol` (the encoder's
/// quantization); the worst distance found.
fn worst_match(a: &MeshPrimitive, b: &MeshPrimitive) -> f32 {
    let dominant = |p: &MeshPrimitive, i: usize| {
        let w = p.weights[i];
        let k = (0..4).max_by(|&x, &y| w[x].total_cmp(&w[y])).unwrap();
        p.joints[i][k]
    };
    let mut worst = 0.0f32;
    for (i, pa) in a.positions.iter().enumerate() {
        let best = b
            .positions
            .iter()
            .enumerate()
            .filter(|&(j, _)| dominant(b, j) == dominant(a, i))
            .map(|(_, pb)| (0..3).map(|k| (pa[k] - pb[k]).powi(2)).sum::<f32>().sqrt())
            .fold(f32::INFINITY, f32::min);
        worst = worst.max(best);
    }
    worst
}

#[test]
fn a_draco_mannequin_reads_as_the_plain_one() {
    let plain = Document::open(mannequin())
        .unwrap()
        .load_geometry()
        .unwrap();
    let doc = Document::open(draco_mannequin()).expect("a Draco file opens");
    let draco = doc.load_geometry().expect("its meshes decode");
    assert_eq!(plain.primitives.len(), draco.primitives.len());
    for (p, d) in plain.primitives.iter().zip(&draco.primitives) {
        // The encoder drops degenerate triangles (24 of the mannequin's 2556).
        let (tp, td) = (p.indices.len() / 3, d.indices.len() / 3);
        assert!(
            td <= tp && td * 100 >= tp * 99,
            "{td} triangles of {tp} (if the mannequin changed, write the Draco copy again: see the file's doc)"
        );
        // One point per vertex the accessors count (the decoder's copies merged).
        let json = doc.json();
        let acc = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
            .as_u64()
            .unwrap();
        assert_eq!(
            Some(d.positions.len() as u64),
            json["accessors"][acc as usize]["count"].as_u64()
        );
        assert_eq!(d.positions.len(), d.joints.len());
        assert_eq!(d.positions.len(), d.weights.len());
        assert_eq!(d.positions.len(), d.normals.len());
        let (there, back) = (worst_match(p, d), worst_match(d, p));
        println!("vertices apart at most {there:.5} / {back:.5} m");
        // 14-bit positions over the 1.8 m mannequin: 0.11 mm a step.
        assert!(there < 2e-3 && back < 2e-3, "{there} {back}");
        for w in &d.weights {
            let sum: f32 = w.iter().sum();
            assert!((sum - 1.0).abs() < 0.02, "weights sum to {sum}");
        }
    }
}

#[test]
fn a_draco_mannequin_generates_the_same_ragdoll() {
    let gen = |path: PathBuf| {
        let doc = Document::open(path).unwrap();
        ragdoll_tuner::generate::generate(&doc, &Default::default()).unwrap()
    };
    let (plain, draco) = (gen(mannequin()), gen(draco_mannequin()));
    let (p, d) = (&plain.report, &draco.report);
    assert_eq!(p.character_type, d.character_type);
    assert_eq!(p.body_count, d.body_count);
    let mass = |r: &ragdoll_tuner::generate::Report| r.total_mass_kg;
    let rel = (mass(p) - mass(d)).abs() / mass(p);
    println!("mass {} / {} kg", mass(p), mass(d));
    assert!(rel < 1e-3, "{} vs {}", mass(p), mass(d));
}

#[test]
fn a_draco_file_saves_its_compressed_stream_untouched() {
    let (doc, _dir, out, saved) = saved_with_an_edit(&draco_mannequin(), "head");
    assert_eq!(glb_chunks(&draco_mannequin()).0["meshes"], saved["meshes"]);
    let again = Document::open(&out).unwrap().load_geometry().unwrap();
    assert_eq!(
        doc.load_geometry().unwrap().primitives[0].positions,
        again.primitives[0].positions
    );
}

/// A stream the decoder cannot decode (corrupt here; in the wild, a feature the decoder
/// lacks) leaves its primitive out with a warning naming the file, the primitive and the
/// view; the rest of the file reads. The mannequin has one primitive, so most of its mesh is
/// unread, and the generator sizes its shapes from the bones alone, as for any mesh it
/// cannot read.
#[test]
fn a_corrupt_draco_stream_is_left_out_with_a_warning_naming_the_file_and_view() {
    let (json, bin) = glb_chunks(&draco_mannequin());
    let prim = &json["meshes"][0]["primitives"][0];
    let view = prim["extensions"]["KHR_draco_mesh_compression"]["bufferView"].as_u64();
    let view = &json["bufferViews"][view.unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    let dir = tempfile::tempdir().unwrap();
    // Scrambled past the header, and zeroed past it.
    for (name, zeroed) in [("scrambled.glb", false), ("zeroed.glb", true)] {
        let mut b = bin.clone();
        if zeroed {
            b[start + 8..start + len].fill(0);
        } else {
            for (i, x) in b[start + 12..start + len].iter_mut().enumerate() {
                *x = x.wrapping_mul(31).wrapping_add(i as u8);
            }
        }
        let mut bytes = Vec::new();
        container::write_glb(&mut bytes, &serde_json::to_vec(&json).unwrap(), Some(&b)).unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let geo = Document::open(&path)
            .expect("the JSON is intact")
            .load_geometry()
            .expect("the rest of the file reads");
        assert!(geo.primitives.is_empty() && geo.mostly_unread());
        let why = &geo.unread[0].why;
        assert!(
            why.contains("meshes[0].primitives[0]") && why.contains("bufferView"),
            "{why}"
        );
        let out = run_ok(ragdoll_tuner().arg("validate").arg(&path));
        let text = String::from_utf8_lossy(&out.stdout);
        println!("{name}: {text}");
        assert!(
            text.lines().any(|l| l.contains(name)
                && l.contains("warning")
                && l.contains("KHR_draco_mesh_compression")
                && l.contains("bufferView")),
            "{text}"
        );
        let generated =
            ragdoll_tuner::generate::generate(&Document::open(&path).unwrap(), &Default::default())
                .expect("generates from the bones");
        assert!(
            generated.report.body_count > 10,
            "the bones give the bodies"
        );
    }
}

/// One primitive the decoder cannot decode beside others that it can: the others are read,
/// and the ragdoll is the one the whole mesh gives. A second primitive on the mannequin's
/// mesh, a Draco stream of garbage bytes for ten vertices.
#[test]
fn an_undecodable_primitive_leaves_the_rest_of_the_mesh_read() {
    let (mut json, mut bin) = glb_chunks(&draco_mannequin());
    let offset = bin.len();
    bin.extend((0..64u8).map(|i| i.wrapping_mul(37)));
    let view = json["bufferViews"].as_array().unwrap().len();
    json["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"buffer": 0, "byteOffset": offset, "byteLength": 64}));
    json["buffers"][0]["byteLength"] = serde_json::json!(bin.len());
    let acc = json["accessors"].as_array().unwrap().len();
    json["accessors"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(
            {"componentType": 5126, "count": 10, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]}
        ));
    let extra = serde_json::json!({
        "attributes": {"POSITION": acc},
        "extensions": {"KHR_draco_mesh_compression": {"bufferView": view, "attributes": {"POSITION": 0}}}
    });
    json["meshes"][0]["primitives"]
        .as_array_mut()
        .unwrap()
        .push(extra);
    let mut bytes = Vec::new();
    container::write_glb(&mut bytes, &serde_json::to_vec(&json).unwrap(), Some(&bin)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one_bad_primitive.glb");
    std::fs::write(&path, bytes).unwrap();
    let doc = Document::open(&path).unwrap();
    let geo = doc.load_geometry().expect("the rest of the file reads");
    assert_eq!((geo.primitives.len(), geo.unread.len()), (1, 1));
    assert_eq!(geo.unread[0].vertices, 10);
    assert!(!geo.mostly_unread());
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).unwrap();
    let plain = Document::open(draco_mannequin()).unwrap();
    let p = ragdoll_tuner::generate::generate(&plain, &Default::default()).unwrap();
    assert_eq!(g.report.total_mass_kg, p.report.total_mass_kg);
    assert!(
        g.diagnostics
            .iter()
            .any(|d| d.to_string().contains("meshes[0].primitives[1]")),
        "{:?}",
        g.diagnostics
    );
}
