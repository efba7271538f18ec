//! An orbit camera in glam: orbit, pan, zoom, framing, and the pick ray through a pixel.

use glam::{Mat4, Vec2, Vec3};

/// Orbit camera around a target point; Y is up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    /// Radians around +Y.
    pub yaw: f32,
    /// Radians above the horizon.
    pub pitch: f32,
    pub distance: f32,
    /// Vertical field of view (radians).
    pub fov_y: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Vec3::new(0.0, 0.9, 0.0),
            yaw: 0.6,
            pitch: 0.2,
            distance: 2.9,
            fov_y: 45f32.to_radians(),
        }
    }
}

impl OrbitCamera {
    pub fn eye(&self) -> Vec3 {
        let dir = Vec3::new(
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
            self.pitch.cos() * self.yaw.cos(),
        );
        self.target + dir * self.distance
    }

    pub fn near_far(&self) -> (f32, f32) {
        (
            (self.distance * 0.01).max(0.005),
            self.distance * 50.0 + 50.0,
        )
    }

    /// Rotates by a mouse drag in pixels.
    pub fn orbit(&mut self, delta: Vec2) {
        self.yaw -= delta.x * 0.008;
        self.pitch = (self.pitch + delta.y * 0.008).clamp(-1.5, 1.5);
    }

    /// Pixels per world unit at the target's distance, in a view `height` px tall (what the
    /// skin's level of detail, panning and the viewport's redraw threshold go by).
    pub fn px_per_m(&self, height: f32) -> f32 {
        height.max(1.0) / (2.0 * self.distance * (self.fov_y * 0.5).tan()).max(1e-9)
    }

    /// Moves the target in the view plane by a drag in pixels of a view `height` px tall.
    pub fn pan(&mut self, delta: Vec2, height: f32) {
        let forward = (self.target - self.eye()).normalize();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        self.target += (-right * delta.x + up * delta.y) / self.px_per_m(height);
    }

    /// Zooms by scroll steps (positive = closer).
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * (-steps * 0.1).exp()).clamp(0.05, 1.0e5);
    }

    /// The default view of a whole character whose skinned mesh and joints span the box
    /// `min..max`: centred on it and backed off until the box's bounding sphere, with a small
    /// margin, fits the vertical field of view (and so any wider view).
    pub fn home(min: Vec3, max: Vec3) -> Self {
        let fov_y = Self::default().fov_y;
        let radius = ((max - min) * 0.5).length().max(1e-3) * 1.08;
        Self {
            target: (min + max) * 0.5,
            distance: radius / (fov_y * 0.5).sin(),
            ..Self::default()
        }
    }

    /// Centres on a sphere and backs off to fit it.
    pub fn frame(&mut self, center: Vec3, radius: f32) {
        self.target = center;
        // Room for the joint gizmos around the body, not just the body itself.
        self.distance = (2.5 * radius.max(0.05) / (self.fov_y * 0.5).sin()).max(0.3);
    }

    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    pub fn projection(&self, aspect: f32) -> Mat4 {
        let (n, f) = self.near_far();
        glam::camera::rh::proj::opengl::perspective(self.fov_y, aspect.max(1e-3), n, f)
    }

    /// The world ray (origin, unit direction) through `pixel` of a view `size` px large (y down).
    pub fn ray(&self, pixel: Vec2, size: Vec2) -> (Vec3, Vec3) {
        let ndc = Vec2::new(
            2.0 * pixel.x / size.x.max(1.0) - 1.0,
            1.0 - 2.0 * pixel.y / size.y.max(1.0),
        );
        let inv = (self.projection(size.x / size.y.max(1.0)) * self.view()).inverse();
        let near = inv.project_point3(ndc.extend(-1.0));
        let far = inv.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or(Vec3::NEG_Z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every corner of the framed box projects inside the view, for a tall, a flat and a
    /// tiny box.
    #[test]
    fn home_view_contains_the_whole_box() {
        for (min, max) in [
            (Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.3, 2.6, 0.2)),
            (Vec3::new(-2.0, 0.0, -0.5), Vec3::new(2.0, 0.4, 0.5)),
            (Vec3::new(-0.01, 0.0, -0.01), Vec3::new(0.01, 0.2, 0.01)),
        ] {
            let cam = OrbitCamera::home(min, max);
            let clip = cam.projection(1.0) * cam.view();
            for i in 0..8 {
                let c = Vec3::new(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                );
                let p = clip.project_point3(c);
                assert!(
                    p.x.abs() <= 1.0 && p.y.abs() <= 1.0,
                    "{c} -> {p} for {min}..{max}"
                );
            }
        }
    }
}
