//! Coarser levels of detail of a skinned mesh for the viewport, by edge-collapse
//! simplification (meshoptimizer's, through the `meshopt` crate).
//!
//! Under a software GL renderer (llvmpipe) a triangle costs its setup whether it covers a
//! pixel or not: a 35,000-vertex character seen whole in the viewport spends most of the
//! frame on triangles smaller than a pixel. A simplified level keeps a subset of the
//! original vertices (no new ones), so skinning, weights and normals stay those of the full
//! mesh: it is only another index list. Each level knows its geometric error, how far its
//! surface strays from the full mesh at most, and the viewport draws the coarsest whose
//! error is under a pixel on screen (see [`super::gpu_skin`]).

use meshopt::SimplifyOptions;

/// A simplified index list and its error: how far its surface may lie from the full mesh's
/// (mesh units).
#[derive(Debug, Clone, PartialEq)]
pub struct Lod {
    pub indices: Vec<u32>,
    pub error: f32,
}

/// The mesh simplified to at most `max_triangles` triangles (as near that as the mesh's
/// shape allows); None when it already has no more than that, or nothing is left.
pub fn simplify(positions: &[[f32; 3]], indices: &[u32], max_triangles: usize) -> Option<Lod> {
    if indices.len() / 3 <= max_triangles || positions.is_empty() {
        return None;
    }
    // Indices past the vertex array would make the simplifier read out of bounds.
    let n = positions.len() as u32;
    if indices.iter().any(|&i| i >= n) {
        return None;
    }
    let mut relative_error = 0.0f32;
    let out = meshopt::simplify_decoder(
        indices,
        positions,
        max_triangles * 3,
        // No error bound: the triangle budget decides; the error is reported.
        f32::MAX,
        SimplifyOptions::None,
        Some(&mut relative_error),
    );
    if out.is_empty() {
        return None;
    }
    let scale = meshopt::simplify_scale_decoder(positions);
    Some(Lod {
        indices: out,
        error: relative_error * scale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finely tessellated sphere of radius 1 (rings x segments quads).
    fn sphere(rings: u32, segs: u32) -> (Vec<[f32; 3]>, Vec<u32>) {
        let mut pos = Vec::new();
        for r in 0..=rings {
            let lat = std::f32::consts::PI * (r as f32 / rings as f32 - 0.5);
            for s in 0..=segs {
                let th = std::f32::consts::TAU * s as f32 / segs as f32;
                pos.push([lat.cos() * th.cos(), lat.sin(), lat.cos() * th.sin()]);
            }
        }
        let mut idx = Vec::new();
        for r in 0..rings {
            for s in 0..segs {
                let a = r * (segs + 1) + s;
                let b = a + segs + 1;
                idx.extend([a, b, a + 1, a + 1, b, b + 1]);
            }
        }
        (pos, idx)
    }

    #[test]
    fn simplification_keeps_the_shape_with_fewer_triangles() {
        let (pos, idx) = sphere(80, 120);
        let full = idx.len() / 3;
        let lod = simplify(&pos, &idx, 2000).expect("simplified");
        let n = lod.indices.len() / 3;
        assert!(n <= 2000 && n > 500, "{full} -> {n} triangles");
        // Only original vertices are used, so every kept corner lies on the sphere, and no
        // triangle is degenerate.
        for t in lod.indices.chunks_exact(3) {
            assert!(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
            for &i in t {
                let p = pos[i as usize];
                let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                assert!((r - 1.0).abs() < 1e-5);
            }
        }
        // The reported error is that of a chord: a sphere of 2000 triangles strays from
        // the true one by about 1% of its radius, and a coarser level strays further.
        assert!(lod.error > 1e-4 && lod.error < 0.05, "{}", lod.error);
        let coarse = simplify(&pos, &idx, 500).expect("simplified");
        assert!(
            coarse.error > lod.error,
            "{} vs {}",
            coarse.error,
            lod.error
        );
        // Small meshes are left alone, and so are broken index lists.
        assert_eq!(simplify(&pos, &idx, full), None);
        assert_eq!(simplify(&pos[..10], &idx, 100), None);
    }
}
