//! The GL side of the viewport (three-d): skinned character (lit per vertex), translucent
//! colliders, gizmo lines, grid and axes, rendered into an offscreen image the UI shows.
//! Knows nothing about egui beyond being handed the shared glow context.
//!
//! Everything is batched (see [`super::batch`]): one mesh per skinned primitive, one for all
//! collider shells, one for the grid and one for the gizmos, so a frame is a handful of draws.

use super::batch::{self, Batch, Placed};
use super::camera::OrbitCamera;
use super::colliders::PlacedCollider;
use super::convert;
use super::gizmo::Segment;
use super::gpu_skin::GpuSkin;
use super::offscreen::{ImageHandle, Offscreen};
use super::pose::Pose;
use super::shade;
use super::skin::{skin, SkinModel, SkinnedPrimitive};
use crate::document::{BoneId, ColliderShape};
use crate::shapes::{self, PartMesh};
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
    /// Changes whenever `colliders` changes (a generation, never an address: a freed
    /// list's address can come back for the next one).
    pub colliders_gen: u64,
    pub colliders: Arc<Vec<PlacedCollider>>,
    /// Every selected bone (the primary first).
    pub selected: Vec<BoneId>,
    /// Each collider shell's colour, in the order of `colliders` (see [`super::tint`]).
    pub shell_colors: Vec<[u8; 4]>,
    /// Changes whenever `segments` changes.
    pub segments_gen: u64,
    pub segments: Arc<Vec<Segment>>,
    pub camera: OrbitCamera,
    /// The character's size (m): the grid and axes are drawn in proportion to it.
    pub character_m: f32,
    /// The ground plane's height (world y): the grid is drawn on it.
    pub ground_y: f32,
    pub show_mesh: bool,
    pub show_colliders: bool,
}

/// GPU resources, created once per GL context.
pub struct GpuScene {
    ctx: Context,
    geometry: FrameGeometry,
    /// The grid and axes, and the character size (m) and ground height they were made for.
    grid_segments: ((f32, f32), Vec<Segment>),
    /// The grid and axes as ribbons facing the eye they were built for.
    grid: Option<(glam::Vec3, Gm<Mesh, ColorMaterial>)>,
    /// The rendered image, redrawn only when something it shows changed.
    image: Offscreen,
    /// What `image` shows.
    image_key: Option<CacheKey>,
}

/// The per-frame (pose, selection, document) geometry of the scene.
#[derive(Default)]
struct FrameGeometry {
    model_gen: Option<u64>,
    pose_gen: Option<u64>,
    /// The character skinned on the GPU; when that is not possible (see [`GpuSkin::new`]),
    /// the error, and the character is skinned on the CPU into `meshes` instead.
    gpu_skin: Option<Result<GpuSkin, String>>,
    meshes: Vec<Gm<Mesh, ColorMaterial>>,
    /// Templates of the colliders' shapes, rebuilt when a shape changes.
    collider_shapes: Vec<ColliderShape>,
    shells: Vec<PartMesh>,
    /// The character size (m) the shells were made for.
    shells_for_m: f32,
    /// All collider shells, and the (colliders, selection) they were built from.
    colliders: Option<(ColliderKey, Gm<Mesh, ColorMaterial>)>,
    /// The gizmos, and the (segments, eye) they were built for.
    lines: Option<((u64, glam::Vec3), Gm<Mesh, ColorMaterial>)>,
}

type ColliderKey = (u64, Vec<[u8; 4]>);

/// Everything the cached image depends on.
#[derive(Debug, Clone, PartialEq)]
struct CacheKey {
    model_gen: u64,
    pose_gen: u64,
    segments_gen: u64,
    colliders_gen: u64,
    selected: Vec<BoneId>,
    shell_colors: Vec<[u8; 4]>,
    camera: OrbitCamera,
    show_mesh: bool,
    show_colliders: bool,
    size: (u32, u32),
}

/// Colliders are drawn this much larger (m) than they are, so a body mesh that coincides with
/// them does not z-fight with the translucent shells.
const SHELL_M: f64 = 0.004;

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

/// Set this environment variable to skin the character on the CPU (to compare the two).
pub const CPU_SKIN_ENV: &str = "RAGDOLL_TUNER_CPU_SKIN";

/// The character skinned to the input's pose on the CPU, one mesh per primitive (used when
/// the GPU cannot skin it).
fn cpu_meshes(ctx: &Context, input: &SceneInput) -> Vec<Gm<Mesh, ColorMaterial>> {
    // A new mesh per pose, not `set_positions`: three-d 0.19 checks new positions against
    // the index count of an indexed mesh and refuses them.
    let mut material = ColorMaterial {
        color: Srgba::WHITE,
        ..Default::default()
    };
    // A character is a closed surface: its back faces are never seen.
    material.render_states.cull = Cull::Back;
    input
        .model
        .iter()
        .flat_map(|m| m.primitives.iter())
        .filter(|p| !p.prim.indices.is_empty())
        .map(|p| Gm::new(posed_mesh(ctx, p, &input.pose), material.clone()))
        .collect()
}

/// Colliders smaller than this share of the character (a finger, a toe) get a coarse shell:
/// they are a few pixels large when the whole character is in view, and under a software
/// renderer each triangle costs its setup however small it is.
const SMALL_SHELL_SHARE: f64 = 0.03;

/// A collider's translucent shell (see [`shapes`]): every triangle is blended, so no more
/// than an outline needs.
fn shell(shape: &ColliderShape, character_m: f32) -> PartMesh {
    let grow = |x: f64| (x + SHELL_M) as f32;
    let small = |extent: f64| extent < SMALL_SHELL_SHARE * character_m as f64;
    let capsule = |r: f64, hh: f64| {
        if small(r + hh) {
            shapes::capsule_with(grow(r), hh as f32, 6, 1)
        } else {
            shapes::capsule(grow(r), hh as f32)
        }
    };
    match *shape {
        ColliderShape::Sphere { radius } => capsule(radius, 0.0),
        ColliderShape::Capsule {
            radius,
            half_height,
        } => capsule(radius, half_height),
        ColliderShape::Box { half_extents: e } => {
            shapes::cuboid(glam::Vec3::new(grow(e[0]), grow(e[1]), grow(e[2])))
        }
    }
}

/// How a batch is drawn.
#[derive(Clone, Copy)]
enum Layer {
    /// Depth-tested and depth-writing.
    Opaque,
    /// Blended over what is there, back faces culled.
    Translucent,
    /// On top of everything (gizmos stay readable inside the body).
    Overlay,
}

/// A batch on the GPU, drawn with its vertex colours.
fn batch_gm(ctx: &Context, b: &Batch, layer: Layer) -> Gm<Mesh, ColorMaterial> {
    let cpu = CpuMesh {
        positions: Positions::F32(b.positions.iter().map(|v| convert::vec3(*v)).collect()),
        colors: Some(b.colors.iter().map(|c| Srgba::from(*c)).collect()),
        indices: Indices::U32(b.indices.clone()),
        ..Default::default()
    };
    let mut material = ColorMaterial {
        color: Srgba::WHITE,
        ..Default::default()
    };
    match layer {
        Layer::Opaque => {}
        Layer::Translucent => {
            material = ColorMaterial::new_transparent(
                ctx,
                &CpuMaterial {
                    albedo: Srgba::WHITE,
                    ..Default::default()
                },
            );
            material.render_states.cull = Cull::Back;
        }
        Layer::Overlay => {
            material.render_states.depth_test = DepthTest::Always;
            material.render_states.write_mask = WriteMask::COLOR;
        }
    }
    Gm::new(Mesh::new(ctx, &cpu), material)
}

/// The viewport's background colour, with the depth buffer cleared to far.
const BACKGROUND: ClearState = ClearState {
    red: Some(0.16),
    green: Some(0.17),
    blue: Some(0.2),
    alpha: Some(1.0),
    depth: Some(1.0),
};

impl FrameGeometry {
    /// A new model: skinned on the GPU unless that fails (or [`CPU_SKIN_ENV`] is set); the
    /// pose is drawn again.
    fn upload_model(&mut self, ctx: &Context, input: &SceneInput) {
        self.model_gen = Some(input.model_gen);
        self.pose_gen = None;
        self.meshes.clear();
        self.gpu_skin = input.model.as_ref().map(|m| {
            if std::env::var_os(CPU_SKIN_ENV).is_some() {
                return Err(format!("{CPU_SKIN_ENV} is set"));
            }
            GpuSkin::new(ctx, m)
        });
        if let Some(Err(e)) = &self.gpu_skin {
            eprintln!("note: skinning on the CPU: {e}");
        }
    }

    /// The collider shells, rebuilt when the shapes or the character's size changed, and
    /// their placed batch, rebuilt when the placements or colours changed.
    fn sync_colliders(&mut self, ctx: &Context, input: &SceneInput) {
        let shapes = input.colliders.iter().map(|c| &c.shape);
        if !shapes.clone().eq(&self.collider_shapes) || self.shells_for_m != input.character_m {
            self.collider_shapes = shapes.cloned().collect();
            self.shells_for_m = input.character_m;
            self.shells = self
                .collider_shapes
                .iter()
                .map(|s| shell(s, input.character_m))
                .collect();
            self.colliders = None;
        }
        let key = (input.colliders_gen, input.shell_colors.clone());
        if self.colliders.as_ref().is_none_or(|(k, _)| *k != key) {
            let placed = input.colliders.iter().zip(&self.shells).enumerate();
            let placed = placed.map(|(i, (c, s))| Placed {
                positions: &s.positions,
                indices: &s.indices,
                world_from_local: c.world_from_collider,
                color: input.shell_colors.get(i).copied().unwrap_or(
                    if input.selected.contains(&c.bone) {
                        super::tint::SELECTED
                    } else {
                        super::tint::PLAIN
                    },
                ),
            });
            self.colliders = Some((
                key,
                batch_gm(ctx, &batch::merge(placed), Layer::Translucent),
            ));
        }
    }
}

impl GpuScene {
    pub fn new(gl: Arc<three_d::context::Context>) -> Result<Self, String> {
        let ctx = Context::from_gl_context(gl).map_err(|e| e.to_string())?;
        let image = Offscreen::new(&ctx)?;
        Ok(Self {
            ctx,
            geometry: FrameGeometry::default(),
            grid_segments: ((f32::NAN, f32::NAN), Vec::new()),
            grid: None,
            image,
            image_key: None,
        })
    }

    fn sync(ctx: &Context, f: &mut FrameGeometry, input: &SceneInput) {
        if f.model_gen != Some(input.model_gen) {
            f.upload_model(ctx, input);
        }
        if f.pose_gen != Some(input.pose_gen) {
            f.pose_gen = Some(input.pose_gen);
            if let (Some(Ok(gpu)), Some(model)) = (&mut f.gpu_skin, &input.model) {
                gpu.set_pose(model, &input.pose);
            } else {
                f.meshes = cpu_meshes(ctx, input);
            }
        }
        f.sync_colliders(ctx, input);
        let key = (input.segments_gen, input.camera.eye());
        if f.lines.as_ref().is_none_or(|(k, _)| *k != key) {
            let b = batch::ribbons(&input.segments, key.1);
            f.lines = Some((key, batch_gm(ctx, &b, Layer::Overlay)));
        }
    }

    fn key(input: &SceneInput, size: [u32; 2]) -> CacheKey {
        CacheKey {
            model_gen: input.model_gen,
            pose_gen: input.pose_gen,
            segments_gen: input.segments_gen,
            colliders_gen: input.colliders_gen,
            selected: input.selected.clone(),
            shell_colors: input.shell_colors.clone(),
            camera: input.camera,
            show_mesh: input.show_mesh,
            show_colliders: input.show_colliders,
            size: (size[0].max(1), size[1].max(1)),
        }
    }

    /// Gets the offscreen image of the scene at `size` pixels up to date (on the UI thread,
    /// before the window is painted) and returns it for [`super::offscreen::blit`], with
    /// whether it was drawn again this time. A scene that holds still is not drawn again; a
    /// changed one is drawn into the image, never into the window during the UI's pass
    /// (under llvmpipe that direct draw, with its scissored clear, cost about 1.2 ms a frame
    /// more on the 35,000-vertex character).
    pub fn prepare(&mut self, input: &SceneInput, size: [u32; 2]) -> (ImageHandle, bool) {
        let key = Self::key(input, size);
        let stale = self.image_key.as_ref() != Some(&key);
        if stale {
            Self::sync(&self.ctx, &mut self.geometry, input);
            let eye = input.camera.eye();
            let made_for = (input.character_m, input.ground_y);
            if self.grid_segments.0 != made_for {
                self.grid_segments = (
                    made_for,
                    super::gizmo::grid_and_axes(5, input.character_m, input.ground_y),
                );
                self.grid = None;
            }
            if self.grid.as_ref().is_none_or(|(e, _)| *e != eye) {
                let b = batch::ribbons(&self.grid_segments.1, eye);
                self.grid = Some((eye, batch_gm(&self.ctx, &b, Layer::Opaque)));
            }
            self.render_image(input, key);
        }
        (self.image.handle(), stale)
    }

    /// Renders the scene into the offscreen image. Leaves the default framebuffer bound.
    fn render_image(&mut self, input: &SceneInput, key: CacheKey) {
        let (w, h) = key.size;
        self.image.ensure_size(&self.ctx, [w, h]);
        let target = RenderTarget::from_framebuffer(&self.ctx, w, h, self.image.framebuffer());
        let whole = ScissorBox::new_at_origo(w, h);
        target.clear(BACKGROUND);
        self.draw(&target, whole, Viewport::new_at_origo(w, h), input);
        // The framebuffer is ours: take it back before the target would delete it.
        target.into_framebuffer();
        // SAFETY: rebinding the default framebuffer the UI painter draws into.
        unsafe {
            use three_d::context::HasContext;
            self.ctx
                .bind_framebuffer(three_d::context::FRAMEBUFFER, None);
        }
        self.image_key = Some(key);
    }

    /// Draws the scene's objects into `target` at `vp`, within `scissor`.
    fn draw(&self, target: &RenderTarget, scissor: ScissorBox, vp: Viewport, input: &SceneInput) {
        let cam = &input.camera;
        let (near, far) = cam.near_far();
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
        let f = &self.geometry;
        let mut opaque: Vec<&dyn Object> = Vec::new();
        opaque.extend(self.grid.as_ref().map(|(_, g)| g as &dyn Object));
        if input.show_mesh {
            opaque.extend(f.meshes.iter().map(|m| m as &dyn Object));
        }
        target.render_partially(scissor, &camera, opaque, &lights);
        if let (true, Some(Ok(gpu))) = (input.show_mesh, &f.gpu_skin) {
            // Pixels per metre at the camera's target, where the character is.
            let px_per_m = cam.px_per_m(vp.height as f32);
            let drawn = target.write_partially(scissor, || {
                gpu.draw(&camera, px_per_m);
                Ok::<(), std::convert::Infallible>(())
            });
            if let Err(never) = drawn {
                match never {}
            }
        }
        if input.show_colliders {
            target.render_partially(
                scissor,
                &camera,
                f.colliders.iter().map(|(_, g)| g),
                &lights,
            );
        }
        // Gizmos last, on top of everything (see `Layer::Overlay`).
        target.render_partially(scissor, &camera, f.lines.iter().map(|(_, g)| g), &lights);
    }
}
