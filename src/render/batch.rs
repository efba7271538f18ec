//! CPU-side batching of the viewport's many small things into a few meshes.
//!
//! Under a software GL renderer every draw call and every instance costs a fixed price on the
//! UI thread, far above what its few triangles cost. So gizmo and grid segments become one
//! mesh of camera-facing ribbons (two triangles a segment), and all collider shells one mesh,
//! rebuilt on the CPU when the pose, the selection or the camera changes.

use super::gizmo::Segment;
use glam::{Mat4, Vec3};

/// Plain triangle geometry: positions, sRGBA colours, indices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    pub positions: Vec<Vec3>,
    pub colors: Vec<[u8; 4]>,
    pub indices: Vec<u32>,
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    fn quad(&mut self, corners: [Vec3; 4], color: [u8; 4]) {
        let k = self.positions.len() as u32;
        self.positions.extend(corners);
        self.colors.extend([color; 4]);
        self.indices.extend([k, k + 1, k + 2, k + 1, k + 3, k + 2]);
    }
}

/// Each segment as a flat ribbon `2 * radius` wide, turned to face `eye`.
pub fn ribbons(segs: &[Segment], eye: Vec3) -> Batch {
    let mut out = Batch::default();
    for s in segs {
        let d = s.b - s.a;
        let to_eye = eye - (s.a + s.b) * 0.5;
        let side = d
            .cross(to_eye)
            .try_normalize()
            .unwrap_or_else(|| d.any_orthonormal_vector());
        if !side.is_finite() {
            continue;
        }
        let w = side * s.radius;
        out.quad([s.a - w, s.a + w, s.b - w, s.b + w], s.color);
    }
    out
}

/// A template shell (local positions and indices) placed in the world with a colour.
pub struct Placed<'a> {
    pub positions: &'a [Vec3],
    pub indices: &'a [u32],
    pub world_from_local: Mat4,
    pub color: [u8; 4],
}

/// All shells in one batch, each transformed to the world and given its colour.
pub fn merge<'a>(shells: impl IntoIterator<Item = Placed<'a>>) -> Batch {
    let mut out = Batch::default();
    for s in shells {
        let k = out.positions.len() as u32;
        out.positions.extend(
            s.positions
                .iter()
                .map(|p| s.world_from_local.transform_point3(*p)),
        );
        out.colors
            .extend(std::iter::repeat_n(s.color, s.positions.len()));
        out.indices.extend(s.indices.iter().map(|i| i + k));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ribbon_faces_the_eye_and_keeps_its_width() {
        let seg = Segment {
            a: Vec3::ZERO,
            b: Vec3::X,
            radius: 0.01,
            color: [1, 2, 3, 4],
        };
        let b = ribbons(&[seg], Vec3::new(0.5, 0.0, 5.0));
        assert_eq!(b.indices.len(), 6);
        let across = b.positions[1] - b.positions[0];
        assert!((across.length() - 0.02).abs() < 1e-6);
        // Perpendicular to both the segment and the view direction: the ribbon is seen flat.
        assert!(across.dot(Vec3::X).abs() < 1e-6 && across.dot(Vec3::Z).abs() < 1e-6);
    }

    #[test]
    fn merge_offsets_indices_and_places_shells() {
        let tri = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let idx = [0, 1, 2];
        let shell = |x: f32| Placed {
            positions: &tri,
            indices: &idx,
            world_from_local: Mat4::from_translation(Vec3::new(x, 0.0, 0.0)),
            color: [9; 4],
        };
        let b = merge([shell(0.0), shell(10.0)]);
        assert_eq!(b.indices, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(b.positions[4], Vec3::new(11.0, 0.0, 0.0));
    }
}
