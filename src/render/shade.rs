//! Per-vertex (Gouraud) lighting of the character mesh, computed on the CPU next to skinning.
//!
//! A physically based fragment shader costs far more per pixel than the viewport can afford
//! under a software GL renderer (llvmpipe), and the mannequin needs no more than diffuse
//! light: so each skinned vertex gets its lit colour here and the GPU only interpolates it.

use glam::Vec3;

/// A directional light: unit direction the light travels in, and its intensity.
struct Sun {
    dir: Vec3,
    intensity: f32,
}

/// Light every surface gets, whatever its direction.
pub const AMBIENT: f32 = 0.35;

fn suns() -> [Sun; 2] {
    [
        Sun {
            dir: Vec3::new(-0.4, -1.0, -0.6).normalize(),
            intensity: 1.1,
        },
        Sun {
            dir: Vec3::new(0.6, -0.2, 0.8).normalize(),
            intensity: 0.35,
        },
    ]
}

/// The suns as (unit direction the light travels in, intensity), for the GPU skinning
/// shader, which lights vertices the same way.
pub fn sun_directions() -> [(Vec3, f32); 2] {
    suns().map(|s| (s.dir, s.intensity))
}

/// Linear-light albedo of the character's skin.
pub const ALBEDO_LINEAR: Vec3 = Vec3::new(0.40, 0.35, 0.31);

/// Linear light (0..1) to an 8-bit sRGB channel.
fn srgb_u8(linear: f32) -> u8 {
    let c = linear.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// Lit sRGB colour (RGBA8) of each vertex from its world normal.
pub fn lit_colors(normals: &[Vec3], albedo_linear: Vec3) -> Vec<[u8; 4]> {
    let suns = suns();
    normals
        .iter()
        .map(|n| {
            let light = suns
                .iter()
                .map(|s| s.intensity * n.dot(-s.dir).max(0.0))
                .sum::<f32>()
                + AMBIENT;
            let c = albedo_linear * light;
            [srgb_u8(c.x), srgb_u8(c.y), srgb_u8(c.z), 255]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_towards_the_sun_are_brighter_than_faces_away() {
        let c = lit_colors(&[Vec3::Y, -Vec3::Y], ALBEDO_LINEAR);
        assert!(c[0][0] > c[1][0] + 60, "{c:?}");
        assert!(c[1][0] > 40, "ambient keeps the underside visible: {c:?}");
    }
}
