//! The GL side of the viewport (three-d): skinned character (lit per vertex), translucent
//! colliders, gizmo lines as instanced thin cylinders, grid and axes. Knows nothing about egui beyond being
//! handed the shared glow context and a viewport in pixels.

use super::camera::OrbitCamera;
use super::colliders::PlacedCollider;
use super::convert;
use super::gizmo::Segment;
use super::pose::Pose;
use super::shade;
use super::skin::{skin, SkinModel, SkinnedPrimitive};
use crate::document::{BoneId, ColliderShape};
use std::sync::Arc;
use three_d::*;

/// Everything a frame draws; plain data, built by the UI each frame.
#[derive(Clone)]
pub struct SceneInput {
    /// Changes whenever `model` is replaced (a new document).
    pub model_gen: u64,
    pub model: Option<Arc<SkinModel>>,
    /// Changes whenever `pose` changes; the mesh is re-skinned only then.
    pub pose_gen: u64,
    pub pose: Arc<Pose>,
    pub colliders: Arc<Vec<PlacedCollider>>,
    pub selected: Option<BoneId>,
    /// Changes whenever `segments` changes.
    pub segments_gen: u64,
    pub segments: Arc<Vec<Segment>>,
    pub camera: OrbitCamera,
    pub show_mesh: bool,
    pub show_colliders: bool,
}

/// Pixel rectangles of the target (x, y from the bottom-left, width, height).
#[derive(Debug, Clone, Copy)]
pub struct PixelRect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// GPU resources, created once per GL context.
pub struct GpuScene {
    ctx: Context,
    /// Per offscreen image, the geometry it was drawn from: updating a buffer the previous
    /// frame's drawing still reads would make llvmpipe wait for that frame.
    frames: [FrameGeometry; 2],
    grid: Gm<InstancedMesh, ColorMaterial>,
    /// The last rendered image and what it showed: reused while nothing changed.
    /// Two images used in turn, so a new one is never drawn into a texture the previous
    /// frame is still copying from (llvmpipe would wait for that frame to finish).
    cache: [Option<(Texture2D, DepthTexture2D)>; 2],
    /// Which of `cache` holds the current image.
    front: usize,
    cache_key: Option<CacheKey>,
}

/// The per-frame (pose, selection, document) geometry of the scene.
struct FrameGeometry {
    model_gen: Option<u64>,
    pose_gen: Option<u64>,
    meshes: Vec<Gm<Mesh, ColorMaterial>>,
    collider_shapes: Vec<ColliderShape>,
    colliders: Vec<Gm<Mesh, ColorMaterial>>,
    segments_gen: Option<u64>,
    lines: Gm<InstancedMesh, ColorMaterial>,
}

/// Everything the cached image depends on.
#[derive(Debug, Clone, PartialEq)]
struct CacheKey {
    model_gen: u64,
    pose_gen: u64,
    segments_gen: u64,
    colliders: *const PlacedCollider,
    selected: Option<BoneId>,
    camera: OrbitCamera,
    show_mesh: bool,
    show_colliders: bool,
    size: (u32, u32),
}

fn instances(segs: &[Segment]) -> Instances {
    let mut transformations = Vec::with_capacity(segs.len());
    let mut colors = Vec::with_capacity(segs.len());
    for s in segs {
        let d = s.b - s.a;
        let len = d.length().max(1e-6);
        let rot = glam::Quat::from_rotation_arc(glam::Vec3::X, d / len);
        let m = glam::Mat4::from_scale_rotation_translation(
            glam::Vec3::new(len, s.radius, s.radius),
            rot,
            s.a,
        );
        transformations.push(convert::mat4(m));
        colors.push(convert::color(s.color));
    }
    Instances {
        transformations,
        colors: Some(colors),
        ..Default::default()
    }
}

fn capsule_mesh(radius: f32, half_height: f32) -> CpuMesh {
    let mut m = CpuMesh::sphere(14);
    let normals: Vec<Vec3> = m.positions.to_f32().iter().map(|p| p.normalize()).collect();
    let pos: Vec<Vec3> = m
        .positions
        .to_f32()
        .iter()
        .map(|p| {
            p * radius
                + vec3(
                    0.0,
                    if p.y >= 0.0 {
                        half_height
                    } else {
                        -half_height
                    },
                    0.0,
                )
        })
        .collect();
    m.positions = Positions::F32(pos);
    m.normals = Some(normals);
    m
}

/// Colliders are drawn this much larger (m) than they are, so a body mesh that coincides with
/// them does not z-fight with the translucent shells.
const SHELL_M: f64 = 0.004;

fn shape_mesh(shape: &ColliderShape) -> CpuMesh {
    let shell = |x: f64| (x + SHELL_M) as f32;
    match *shape {
        ColliderShape::Sphere { radius } => {
            let mut m = CpuMesh::sphere(14);
            m.transform(Mat4::from_scale(shell(radius))).ok();
            m
        }
        ColliderShape::Capsule {
            radius,
            half_height,
        } => capsule_mesh(shell(radius), half_height as f32),
        ColliderShape::Box { half_extents: e } => {
            let mut m = CpuMesh::cube();
            m.transform(Mat4::from_nonuniform_scale(
                shell(e[0]),
                shell(e[1]),
                shell(e[2]),
            ))
            .ok();
            m
        }
    }
}

/// One primitive skinned to `pose`, lit per vertex, on the GPU.
fn posed_mesh(ctx: &Context, p: &SkinnedPrimitive, pose: &Pose) -> Mesh {
    let (pos, nrm) = skin(p, pose);
    let lit = shade::lit_colors(&nrm, shade::ALBEDO_LINEAR);
    let cpu = CpuMesh {
        positions: Positions::F32(pos.iter().map(|v| convert::vec3(*v)).collect()),
        colors: Some(lit.into_iter().map(Srgba::from).collect()),
        indices: Indices::U32(p.prim.indices.clone()),
        ..Default::default()
    };
    Mesh::new(ctx, &cpu)
}

impl GpuScene {
    pub fn new(gl: Arc<three_d::context::Context>) -> Result<Self, String> {
        let ctx = Context::from_gl_context(gl).map_err(|e| e.to_string())?;
        let line_mat = ColorMaterial {
            color: Srgba::WHITE,
            ..Default::default()
        };
        // Gizmo lines are a few pixels thick and unlit: a square prism reads as well as a round
        // cylinder at half the vertex work.
        let unit = CpuMesh::cylinder(4);
        let frame = || FrameGeometry {
            model_gen: None,
            pose_gen: None,
            meshes: Vec::new(),
            collider_shapes: Vec::new(),
            colliders: Vec::new(),
            segments_gen: None,
            lines: Gm::new(
                InstancedMesh::new(&ctx, &Instances::default(), &unit),
                line_mat.clone(),
            ),
        };
        let frames = [frame(), frame()];
        let grid_segs = super::gizmo::grid_and_axes(5);
        let grid = Gm::new(
            InstancedMesh::new(&ctx, &instances(&grid_segs), &unit),
            line_mat,
        );
        Ok(Self {
            ctx,
            frames,
            grid,
            cache: [None, None],
            front: 0,
            cache_key: None,
        })
    }

    fn sync(ctx: &Context, f: &mut FrameGeometry, input: &SceneInput) {
        if f.model_gen != Some(input.model_gen) {
            f.model_gen = Some(input.model_gen);
            f.pose_gen = Some(input.pose_gen);
            // Unlit: the vertex colours carry the lighting (see `shade`).
            let material = ColorMaterial {
                color: Srgba::WHITE,
                ..Default::default()
            };
            f.meshes = input
                .model
                .iter()
                .flat_map(|m| m.primitives.iter())
                .map(|p| Gm::new(posed_mesh(ctx, p, &input.pose), material.clone()))
                .collect();
        }
        if f.pose_gen != Some(input.pose_gen) {
            f.pose_gen = Some(input.pose_gen);
            if let Some(model) = &input.model {
                for (gm, p) in f.meshes.iter_mut().zip(&model.primitives) {
                    // A new mesh, not `set_positions`: three-d 0.19 checks the new positions
                    // against the index count of an indexed mesh and refuses them.
                    gm.geometry = posed_mesh(ctx, p, &input.pose);
                }
            }
        }
        let shapes: Vec<ColliderShape> = input.colliders.iter().map(|c| c.shape.clone()).collect();
        if shapes != f.collider_shapes {
            f.colliders = shapes
                .iter()
                .map(|s| {
                    let mat = CpuMaterial {
                        albedo: Srgba::new(90, 160, 255, 70),
                        ..Default::default()
                    };
                    let mut cm = ColorMaterial::new_transparent(ctx, &mat);
                    cm.render_states.cull = Cull::Back;
                    Gm::new(Mesh::new(ctx, &shape_mesh(s)), cm)
                })
                .collect();
            f.collider_shapes = shapes;
        }
        for (gm, c) in f.colliders.iter_mut().zip(input.colliders.iter()) {
            gm.geometry
                .set_transformation(convert::mat4(c.world_from_collider));
            gm.material.color = if Some(c.bone) == input.selected {
                Srgba::new(255, 200, 60, 110)
            } else {
                Srgba::new(90, 160, 255, 60)
            };
        }
        if f.segments_gen != Some(input.segments_gen) {
            f.segments_gen = Some(input.segments_gen);
            f.lines.geometry.set_instances(&instances(&input.segments));
        }
    }

    /// Draws the scene into `viewport`, clipped to `clip`, of a screen `screen` px large.
    /// The scene is rendered into an offscreen texture only when something it shows changed;
    /// otherwise the last image is copied to the screen.
    pub fn render(
        &mut self,
        input: &SceneInput,
        viewport: PixelRect,
        clip: PixelRect,
        screen: [u32; 2],
    ) {
        let (w, h) = (viewport.width.max(1), viewport.height.max(1));
        let key = CacheKey {
            model_gen: input.model_gen,
            pose_gen: input.pose_gen,
            segments_gen: input.segments_gen,
            colliders: input.colliders.as_ptr(),
            selected: input.selected,
            camera: input.camera,
            show_mesh: input.show_mesh,
            show_colliders: input.show_colliders,
            size: (w, h),
        };
        if self.cache_key.as_ref() != Some(&key) {
            let back = 1 - self.front;
            if self.cache[back]
                .as_ref()
                .is_none_or(|(t, _)| (t.width(), t.height()) != (w, h))
            {
                let color = Texture2D::new_empty::<[u8; 4]>(
                    &self.ctx,
                    w,
                    h,
                    Interpolation::Nearest,
                    Interpolation::Nearest,
                    None,
                    Wrapping::ClampToEdge,
                    Wrapping::ClampToEdge,
                );
                let depth = DepthTexture2D::new::<f32>(
                    &self.ctx,
                    w,
                    h,
                    Wrapping::ClampToEdge,
                    Wrapping::ClampToEdge,
                );
                self.cache[back] = Some((color, depth));
            }
            Self::sync(&self.ctx, &mut self.frames[back], input);
            self.draw_offscreen(back, input, w, h);
            self.front = back;
            self.cache_key = Some(key);
        }
        // Copy the image into the viewport, clipped to the panel.
        let x0 = viewport.x.max(clip.x);
        let y0 = viewport.y.max(clip.y);
        let x1 = (viewport.x + viewport.width as i32).min(clip.x + clip.width as i32);
        let y1 = (viewport.y + viewport.height as i32).min(clip.y + clip.height as i32);
        let scissor = ScissorBox {
            x: x0,
            y: y0,
            width: (x1 - x0).max(0) as u32,
            height: (y1 - y0).max(0) as u32,
        };
        let Some((color, _)) = &self.cache[self.front] else {
            return;
        };
        let camera = Camera::new_2d(Viewport {
            x: viewport.x,
            y: viewport.y,
            width: w,
            height: h,
        });
        let effect = CopyEffect {
            write_mask: WriteMask::COLOR,
            blend: Blend::Disabled,
        };
        RenderTarget::screen(&self.ctx, screen[0], screen[1]).apply_screen_effect_partially(
            scissor,
            &effect,
            &camera,
            &[],
            Some(ColorTexture::Single(color)),
            None,
        );
    }

    /// Renders the whole scene into the offscreen texture (`w` x `h` px).
    fn draw_offscreen(&self, slot: usize, input: &SceneInput, w: u32, h: u32) {
        let Some((color, depth)) = &self.cache[slot] else {
            return;
        };
        let cam = &input.camera;
        let (near, far) = cam.near_far();
        let vp = Viewport {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        let camera = Camera::new_perspective(
            vp,
            convert::vec3(cam.eye()),
            convert::vec3(cam.target),
            vec3(0.0, 1.0, 0.0),
            radians(cam.fov_y),
            near,
            far,
        );
        // Everything is unlit: the mesh carries per-vertex lighting (see `shade`).
        let lights: [&dyn Light; 0] = [];
        let target = RenderTarget::new(color.as_color_target(None), depth.as_depth_target());
        target.clear(ClearState::color_and_depth(0.16, 0.17, 0.2, 1.0, 1.0));
        let mut opaque: Vec<&dyn Object> = vec![&self.grid];
        if input.show_mesh {
            opaque.extend(self.frames[slot].meshes.iter().map(|m| m as &dyn Object));
        }
        target.render(&camera, opaque, &lights);
        if input.show_colliders {
            target.render(&camera, self.frames[slot].colliders.iter(), &lights);
        }
        // Gizmos on top: clear depth so the limits stay readable inside the body.
        target.clear(ClearState::depth(1.0));
        target.render(&camera, [&self.frames[slot].lines], &lights);
    }
}
