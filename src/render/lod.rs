//! A coarser level of detail of a skinned mesh for the viewport, by vertex clustering.
//!
//! Under a software GL renderer (llvmpipe) a triangle costs its setup whether it covers a
//! pixel or not: a 35,000-vertex character seen whole in the viewport spends most of the
//! frame on triangles smaller than a pixel. So vertices are grouped into cubic cells (per
//! skin joint, so separate bones never merge), each cell is represented by its vertex
//! nearest the cell's mean, and triangles whose corners fall into fewer than three cells
//! vanish. The result is only a second index buffer over the same vertices: skinning,
//! weights and normals stay those of the full mesh. The viewport draws it only while a cell
//! is smaller on screen than a few pixels (see [`super::gpu_skin`]).

use std::collections::HashMap;

/// Grid resolutions tried, finest first: cells of the mesh's diagonal divided by these.
const DIVISIONS: [f32; 8] = [384.0, 256.0, 192.0, 128.0, 96.0, 64.0, 48.0, 32.0];

/// A simplified index list and the cell size (mesh units) it was clustered at.
#[derive(Debug, Clone, PartialEq)]
pub struct Lod {
    pub indices: Vec<u32>,
    pub cell: f32,
}

/// The finest clustering with at most `max_triangles` triangles (the coarsest tried when none
/// is that small); None when the mesh already has no more than that. `group[i]` keeps
/// vertices of different groups (skin joints) apart; it may be empty.
pub fn cluster(
    positions: &[[f32; 3]],
    group: &[u16],
    indices: &[u32],
    max_triangles: usize,
) -> Option<Lod> {
    if indices.len() / 3 <= max_triangles || positions.is_empty() {
        return None;
    }
    let (lo, hi) = positions
        .iter()
        .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
                [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
            )
        });
    let diag = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
    if !(diag.is_finite() && diag > 0.0) {
        return None;
    }
    let mut best = None;
    for d in DIVISIONS {
        let cell = diag / d;
        let lod = at_cell(positions, group, indices, lo, cell);
        let fits = lod.indices.len() / 3 <= max_triangles;
        best = Some(lod);
        if fits {
            break;
        }
    }
    best
}

/// Clusters at one cell size.
fn at_cell(positions: &[[f32; 3]], group: &[u16], indices: &[u32], lo: [f32; 3], cell: f32) -> Lod {
    let key = |i: usize| {
        let p = positions[i];
        let c = |k: usize| ((p[k] - lo[k]) / cell).floor() as i32;
        (c(0), c(1), c(2), group.get(i).copied().unwrap_or(0))
    };
    // Cluster of every vertex, and each cluster's position sum and count.
    let mut ids: HashMap<(i32, i32, i32, u16), usize> = HashMap::new();
    let mut of_vertex = Vec::with_capacity(positions.len());
    let mut sums: Vec<([f32; 3], f32)> = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let next = sums.len();
        let id = *ids.entry(key(i)).or_insert(next);
        if id == next {
            sums.push(([0.0; 3], 0.0));
        }
        let s = &mut sums[id];
        for (acc, x) in s.0.iter_mut().zip(p) {
            *acc += x;
        }
        s.1 += 1.0;
        of_vertex.push(id);
    }
    // The representative: the cluster's vertex nearest its mean.
    let mut rep: Vec<(u32, f32)> = vec![(u32::MAX, f32::MAX); sums.len()];
    for (i, p) in positions.iter().enumerate() {
        let id = of_vertex[i];
        let (s, n) = sums[id];
        let d: f32 = (0..3).map(|k| (p[k] - s[k] / n).powi(2)).sum();
        if d < rep[id].1 {
            rep[id] = (i as u32, d);
        }
    }
    let mut out = Vec::new();
    for t in indices.chunks_exact(3) {
        let Some(r) = t
            .iter()
            .map(|&i| of_vertex.get(i as usize).map(|&c| rep[c].0))
            .collect::<Option<Vec<u32>>>()
        else {
            continue;
        };
        if r[0] != r[1] && r[1] != r[2] && r[0] != r[2] {
            out.extend(r);
        }
    }
    Lod { indices: out, cell }
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
    fn clustering_keeps_the_shape_with_fewer_triangles() {
        let (pos, idx) = sphere(80, 120);
        let full = idx.len() / 3;
        let lod = cluster(&pos, &[], &idx, 4000).expect("simplified");
        let n = lod.indices.len() / 3;
        assert!(n <= 4000 && n > 1000, "{full} -> {n} triangles");
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
        // Small meshes are left alone; vertices of different groups never merge, so a
        // mesh split in two groups keeps more triangles at the same budget.
        assert_eq!(cluster(&pos, &[], &idx, full), None);
        let groups: Vec<u16> = pos.iter().map(|p| (p[0] > 0.0) as u16).collect();
        let split = cluster(&pos, &groups, &idx, 4000).expect("simplified");
        assert!(split.indices.len() >= lod.indices.len() || split.cell > lod.cell);
    }
}
