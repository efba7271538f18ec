//! Low-poly closed meshes of the collider shapes (capsule, sphere, box), outward-facing:
//! the mannequin's visible body parts and the viewport's collider shells, so a body built to
//! match its colliders matches them facet for facet.

use glam::Vec3;

/// Triangles with per-vertex normals.
#[derive(Debug, Default, Clone)]
pub struct PartMesh {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub indices: Vec<u32>,
}

const SEGMENTS: u32 = 12;
const CAP_RINGS: u32 = 3;

/// A capsule along +Y centred on the origin (a sphere when `half_height` is 0).
pub fn capsule(radius: f32, half_height: f32) -> PartMesh {
    capsule_with(radius, half_height, SEGMENTS, CAP_RINGS)
}

/// A capsule with `segments` around its axis and `cap_rings` bands per half-sphere (more for
/// a dense test skin, fewer for a collider shell a few pixels large).
pub fn capsule_with(radius: f32, half_height: f32, segments: u32, cap_rings: u32) -> PartMesh {
    let (seg, cap) = (segments.max(3), cap_rings.max(1));
    let mut m = PartMesh::default();
    // Rings from the bottom pole to the top pole; the cylinder part splits the two caps.
    let rings = 2 * cap + 1;
    for ring in 0..=rings {
        let (phi, y_off) = if ring <= cap {
            (
                -std::f32::consts::FRAC_PI_2 * (1.0 - ring as f32 / cap as f32),
                -half_height,
            )
        } else {
            let k = ring - cap - 1;
            (
                std::f32::consts::FRAC_PI_2 * k as f32 / cap as f32,
                half_height,
            )
        };
        for s in 0..=seg {
            let theta = std::f32::consts::TAU * s as f32 / seg as f32;
            let n = Vec3::new(phi.cos() * theta.cos(), phi.sin(), phi.cos() * theta.sin());
            m.positions.push(n * radius + Vec3::Y * y_off);
            m.normals.push(n);
        }
    }
    let row = seg + 1;
    for ring in 0..rings {
        for s in 0..seg {
            let a = ring * row + s;
            let b = a + row;
            m.indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    m
}

/// An axis-aligned box centred on the origin.
pub fn cuboid(half: Vec3) -> PartMesh {
    let mut m = PartMesh::default();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut n = Vec3::ZERO;
            n[axis] = sign;
            let (u, v) = (
                Vec3::from_array(unit((axis + 1) % 3)),
                Vec3::from_array(unit((axis + 2) % 3)),
            );
            let (u, v) = if sign > 0.0 { (u, v) } else { (v, u) };
            let base = m.positions.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                m.positions.push((n + u * a + v * b) * half);
                m.normals.push(n);
            }
            m.indices
                .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    m
}

fn unit(i: usize) -> [f32; 3] {
    let mut a = [0.0; 3];
    a[i] = 1.0;
    a
}
