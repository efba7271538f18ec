//! Skinning on the GPU: the character's rest vertices, joint indices and weights are
//! uploaded once per document, and a frame sends only one matrix per skin joint. The vertex
//! shader blends them (linear blend skinning, as [`super::skin::skin`] does on the CPU) and
//! lights each vertex as [`super::shade`] does, so a new pose costs no per-vertex work on the
//! CPU and no vertex upload.

use super::pose::Pose;
use super::skin::{SkinModel, SkinnedPrimitive};
use glam::Mat4;
use three_d::{
    vec3, vec4, Camera, Context, Cull, ElementBuffer, Program, RenderStates, Vec3, Vec4,
    VertexBuffer, Viewer,
};

/// The vertex shader: blend the joint matrices, light the vertex (two suns plus ambient, in
/// linear light), hand its colour on.
const VERTEX: &str = r#"
uniform mat4 viewProjection;
uniform mat4 joints[MAX_JOINTS];
uniform vec3 albedo;
uniform vec3 sunDir[2];
uniform float sunIntensity[2];
uniform float ambient;

in vec3 position;
in vec3 normal;
in vec4 jointIndex;
in vec4 jointWeight;

out vec3 litColor;

void main() {
    mat4 m = jointWeight.x * joints[int(jointIndex.x)]
           + jointWeight.y * joints[int(jointIndex.y)]
           + jointWeight.z * joints[int(jointIndex.z)]
           + jointWeight.w * joints[int(jointIndex.w)];
    vec3 n = mat3(m) * normal;
    float len = length(n);
    n = len > 1e-12 ? n / len : vec3(0.0, 1.0, 0.0);
    float light = ambient;
    for (int i = 0; i < 2; i++) {
        light += sunIntensity[i] * max(dot(n, -sunDir[i]), 0.0);
    }
    litColor = albedo * light;
    gl_Position = viewProjection * m * vec4(position, 1.0);
}
"#;

/// The fragment shader: the interpolated colour, encoded to sRGB for the window.
const FRAGMENT: &str = r#"
in vec3 litColor;
layout (location = 0) out vec4 outColor;

void main() {
    vec3 c = clamp(litColor, 0.0, 1.0);
    vec3 lo = c * 12.92;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    outColor = vec4(mix(lo, hi, step(vec3(0.0031308), c)), 1.0);
}
"#;

/// One level of detail's buffers: only the vertices its triangles use.
struct Level {
    positions: VertexBuffer<Vec3>,
    normals: VertexBuffer<Vec3>,
    joint_index: VertexBuffer<Vec4>,
    joint_weight: VertexBuffer<Vec4>,
    elements: ElementBuffer<u32>,
    /// How far its surface may stray from the full mesh's (mesh units); 0 for the full mesh.
    error: f32,
}

impl Level {
    /// Uploads the vertices `indices` refer to, renumbered in first-use order. A software
    /// renderer runs the vertex shader over the whole range an index list spans, so a
    /// coarse list over the full mesh's buffers would still skin every vertex.
    fn new(ctx: &Context, v: &Vertices, indices: &[u32], error: f32) -> Self {
        let mut remap = vec![u32::MAX; v.positions.len()];
        let mut used: Vec<usize> = Vec::new();
        let elements: Vec<u32> = indices
            .iter()
            .map(|&i| {
                let slot = &mut remap[i as usize];
                if *slot == u32::MAX {
                    *slot = used.len() as u32;
                    used.push(i as usize);
                }
                *slot
            })
            .collect();
        let pick = |xs: &[Vec3]| used.iter().map(|&i| xs[i]).collect::<Vec<_>>();
        let pick4 = |xs: &[Vec4]| used.iter().map(|&i| xs[i]).collect::<Vec<_>>();
        Self {
            positions: VertexBuffer::new_with_data(ctx, &pick(&v.positions)),
            normals: VertexBuffer::new_with_data(ctx, &pick(&v.normals)),
            joint_index: VertexBuffer::new_with_data(ctx, &pick4(&v.joint_index)),
            joint_weight: VertexBuffer::new_with_data(ctx, &pick4(&v.joint_weight)),
            elements: ElementBuffer::new_with_data(ctx, &elements),
            error,
        }
    }
}

/// A primitive's vertex attributes on the CPU, one entry per vertex.
struct Vertices {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joint_index: Vec<Vec4>,
    joint_weight: Vec<Vec4>,
}

/// One primitive on the GPU.
struct GpuPrimitive {
    /// The full mesh first, then coarser levels (see [`super::lod`]); the coarsest whose
    /// error is at most [`LOD_MAX_ERROR_PX`] on screen is drawn.
    levels: Vec<Level>,
    /// The matrices of this frame's pose, one per skin joint plus a last identity matrix
    /// that out-of-range joint indices point at (what the CPU path does with them).
    matrices: Vec<Mat4>,
}

/// The whole model's triangle budgets for its coarser levels of detail, finest first: the
/// finest is about what llvmpipe sets up in a millisecond; each next one has half as many.
const LOD_TRIANGLES: [usize; 3] = [8000, 4000, 2000];
/// A coarser level of detail is drawn while its surface strays from the full mesh's by at
/// most this many pixels on screen: the whole character in the default view, not a close-up
/// of a hand. Of those that qualify, the coarsest is drawn.
pub const LOD_MAX_ERROR_PX: f32 = 1.0;

/// The character skinned on the GPU.
pub struct GpuSkin {
    program: Program,
    primitives: Vec<GpuPrimitive>,
    /// The uniform array's length the program was compiled for.
    max_joints: usize,
}

/// The joint matrices a primitive needs: one per skin joint (world_from_joint times
/// joint_from_mesh), or for an unskinned primitive its node's transform, moved with the bone
/// that carries it.
fn joint_matrices(p: &SkinnedPrimitive, pose: &Pose, out: &mut Vec<Mat4>) {
    out.clear();
    if p.joints.is_empty() || p.prim.joints.len() != p.prim.positions.len() {
        out.push(p.rigid_matrix(pose));
    } else {
        out.extend(
            p.joints
                .iter()
                .map(|(bone, ibm)| match bone.and_then(|b| pose.get(b)) {
                    Some(w) => w.as_mat4() * *ibm,
                    None => Mat4::IDENTITY,
                }),
        );
    }
    out.push(Mat4::IDENTITY);
}

/// Joint indices (as floats) and weights of each vertex; out-of-range indices point at the
/// last (identity) matrix, a primitive without skin data uses matrix 0 with full weight.
fn vertex_joints(p: &SkinnedPrimitive, matrix_count: usize) -> (Vec<Vec4>, Vec<Vec4>) {
    let n = p.prim.positions.len();
    let skinned = !p.joints.is_empty() && p.prim.joints.len() == n && p.prim.weights.len() == n;
    if !skinned {
        return (
            vec![vec4(0.0, 0.0, 0.0, 0.0); n],
            vec![vec4(1.0, 0.0, 0.0, 0.0); n],
        );
    }
    let identity = (matrix_count - 1) as f32;
    let index = |j: u16| {
        if (j as usize) < matrix_count - 1 {
            j as f32
        } else {
            identity
        }
    };
    let idx = p
        .prim
        .joints
        .iter()
        .map(|j| vec4(index(j[0]), index(j[1]), index(j[2]), index(j[3])))
        .collect();
    let w = p
        .prim
        .weights
        .iter()
        .map(|w| vec4(w[0], w[1], w[2], w[3]))
        .collect();
    (idx, w)
}

/// Whether this GPU's vertex uniforms hold `max_joints` matrices (16 floats each) and room
/// for the other uniforms.
fn check_uniform_room(ctx: &Context, max_joints: usize) -> Result<(), String> {
    // SAFETY: a plain query of a limit on the current context.
    let limit = unsafe {
        use three_d::context::HasContext;
        ctx.get_parameter_i32(three_d::context::MAX_VERTEX_UNIFORM_COMPONENTS)
    };
    if (max_joints * 16 + 64) as i64 > limit as i64 {
        return Err(format!(
            "{max_joints} skin joints need more vertex uniforms than the GPU has ({limit})"
        ));
    }
    Ok(())
}

impl Vertices {
    /// The primitive's vertices; normals it lacks point up.
    fn of(p: &SkinnedPrimitive, matrix_count: usize) -> Self {
        let (joint_index, joint_weight) = vertex_joints(p, matrix_count);
        let v3 = |xs: &[[f32; 3]]| {
            xs.iter()
                .map(|v| vec3(v[0], v[1], v[2]))
                .collect::<Vec<_>>()
        };
        let mut normals = v3(&p.prim.normals);
        normals.resize(p.prim.positions.len(), vec3(0.0, 1.0, 0.0));
        Self {
            positions: v3(&p.prim.positions),
            normals,
            joint_index,
            joint_weight,
        }
    }
}

/// The primitive's triangles whose indices are inside the vertex arrays: the others would
/// read outside the buffers (the CPU path's mesh builder refuses them too).
fn in_range_indices(p: &SkinnedPrimitive) -> Vec<u32> {
    let n = p.prim.positions.len() as u32;
    p.prim
        .indices
        .chunks_exact(3)
        .filter(|t| t.iter().all(|&i| i < n))
        .flatten()
        .copied()
        .collect()
}

impl GpuPrimitive {
    /// Uploads a primitive: its full mesh, then each coarser level of detail its share of
    /// [`LOD_TRIANGLES`] gives (of the model's `total_indices`).
    fn upload(ctx: &Context, p: &SkinnedPrimitive, total_indices: usize) -> Self {
        let matrices = vec![Mat4::IDENTITY; p.joints.len().max(1) + 1];
        let vertices = Vertices::of(p, matrices.len());
        let indices = in_range_indices(p);
        let mut levels = vec![Level::new(ctx, &vertices, &indices, 0.0)];
        let mut fewest = indices.len();
        for total in LOD_TRIANGLES {
            let budget = total * indices.len() / total_indices.max(1);
            let Some(l) = super::lod::simplify(&p.prim.positions, &indices, budget) else {
                continue;
            };
            // A budget the mesh's shape cannot go below gives the same level again.
            if l.indices.len() < fewest {
                fewest = l.indices.len();
                levels.push(Level::new(ctx, &vertices, &l.indices, l.error));
            }
        }
        GpuPrimitive { levels, matrices }
    }
}

impl GpuSkin {
    /// Uploads a model. Fails (and the caller skins on the CPU instead) when the shader does
    /// not compile or the model has more joints than this GPU's vertex uniforms hold.
    pub fn new(ctx: &Context, model: &SkinModel) -> Result<Self, String> {
        let max_joints = model
            .primitives
            .iter()
            .map(|p| p.joints.len().max(1) + 1)
            .max()
            .unwrap_or(2);
        check_uniform_room(ctx, max_joints)?;
        let vs = VERTEX.replace("MAX_JOINTS", &max_joints.to_string());
        let program = Program::from_source(ctx, &vs, FRAGMENT).map_err(|e| e.to_string())?;
        let total_indices: usize = model.primitives.iter().map(|p| p.prim.indices.len()).sum();
        let primitives = model
            .primitives
            .iter()
            .filter(|p| !p.prim.indices.is_empty())
            .map(|p| GpuPrimitive::upload(ctx, p, total_indices))
            .collect();
        Ok(Self {
            program,
            primitives,
            max_joints,
        })
    }

    /// Takes a new pose: only the joint matrices change.
    pub fn set_pose(&mut self, model: &SkinModel, pose: &Pose) {
        let prims = model
            .primitives
            .iter()
            .filter(|p| !p.prim.indices.is_empty());
        for (gpu, p) in self.primitives.iter_mut().zip(prims) {
            joint_matrices(p, pose, &mut gpu.matrices);
            gpu.matrices.truncate(self.max_joints);
        }
    }

    /// Draws the character with the camera's view and projection (call inside a render
    /// target's `write`), back faces culled, depth-tested. `px_per_m` is how many pixels a
    /// metre at the character covers: it picks the level of detail.
    pub fn draw(&self, camera: &Camera, px_per_m: f32) {
        let p = &self.program;
        p.use_uniform("viewProjection", camera.projection() * camera.view());
        let a = super::shade::ALBEDO_LINEAR;
        p.use_uniform("albedo", vec3(a.x, a.y, a.z));
        let suns = super::shade::sun_directions();
        p.use_uniform_array("sunDir", &suns.map(|(d, _)| vec3(d.x, d.y, d.z)));
        p.use_uniform_array("sunIntensity", &suns.map(|(_, i)| i));
        p.use_uniform("ambient", super::shade::AMBIENT);
        let states = RenderStates {
            cull: Cull::Back,
            ..Default::default()
        };
        for g in &self.primitives {
            let mats: Vec<Mat4Cg> = g.matrices.iter().map(|m| mat4_cg(*m)).collect();
            p.use_uniform_array("joints", &mats);
            // Levels past the first are coarser; the full mesh qualifies at any size.
            let Some(l) = g
                .levels
                .iter()
                .rev()
                .find(|l| l.error * px_per_m <= LOD_MAX_ERROR_PX)
            else {
                continue;
            };
            p.use_vertex_attribute("position", &l.positions);
            p.use_vertex_attribute("normal", &l.normals);
            p.use_vertex_attribute("jointIndex", &l.joint_index);
            p.use_vertex_attribute("jointWeight", &l.joint_weight);
            p.draw_elements(states, camera.viewport(), &l.elements);
        }
    }
}

type Mat4Cg = three_d::Mat4;

fn mat4_cg(m: Mat4) -> Mat4Cg {
    let c = m.to_cols_array_2d();
    Mat4Cg::from_cols(c[0].into(), c[1].into(), c[2].into(), c[3].into())
}
