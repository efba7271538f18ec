//! Synthetic skinned characters for the generator: a humanoid with Mixamo names (or none),
//! optionally under a root scaled 0.01 with centimetre translations, with as many skin
//! vertices as asked; and degenerate skeletons. Written as real GLB files.

use glam::{Mat4, Vec3};
use serde_json::{json, Value};

/// One bone: name, parent, head and tail (world, metres), skin radius.
#[derive(Debug, Clone)]
pub struct BoneDef {
    pub name: String,
    pub parent: Option<usize>,
    pub head: Vec3,
    pub tail: Vec3,
    pub radius: f32,
}

pub fn push(
    list: &mut Vec<BoneDef>,
    name: &str,
    parent: Option<usize>,
    head: [f32; 3],
    tail: [f32; 3],
    radius: f32,
) -> usize {
    list.push(BoneDef {
        name: name.to_string(),
        parent,
        head: Vec3::from_array(head),
        tail: Vec3::from_array(tail),
        radius,
    });
    list.len() - 1
}

/// A 1.75 m humanoid with Mixamo names: 55 bones (fingers, toes and end bones included).
pub fn humanoid() -> Vec<BoneDef> {
    let mut b = Vec::new();
    let m = |n: &str| format!("mixamorig:{n}");
    let hips = push(
        &mut b,
        &m("Hips"),
        None,
        [0.0, 0.95, 0.0],
        [0.0, 1.05, 0.0],
        0.13,
    );
    let s0 = push(
        &mut b,
        &m("Spine"),
        Some(hips),
        [0.0, 1.05, 0.0],
        [0.0, 1.2, 0.0],
        0.12,
    );
    let s1 = push(
        &mut b,
        &m("Spine1"),
        Some(s0),
        [0.0, 1.2, 0.0],
        [0.0, 1.34, 0.0],
        0.13,
    );
    let s2 = push(
        &mut b,
        &m("Spine2"),
        Some(s1),
        [0.0, 1.34, 0.0],
        [0.0, 1.48, 0.0],
        0.14,
    );
    let neck = push(
        &mut b,
        &m("Neck"),
        Some(s2),
        [0.0, 1.48, 0.0],
        [0.0, 1.56, 0.01],
        0.05,
    );
    let head = push(
        &mut b,
        &m("Head"),
        Some(neck),
        [0.0, 1.56, 0.01],
        [0.0, 1.75, 0.02],
        0.1,
    );
    push(
        &mut b,
        &m("HeadTop_End"),
        Some(head),
        [0.0, 1.75, 0.02],
        [0.0, 1.76, 0.02],
        0.0,
    );
    for (side, x) in [("Left", 1.0f32), ("Right", -1.0f32)] {
        let clav = push(
            &mut b,
            &m(&format!("{side}Shoulder")),
            Some(s2),
            [0.03 * x, 1.45, 0.0],
            [0.17 * x, 1.45, 0.0],
            0.045,
        );
        let up = push(
            &mut b,
            &m(&format!("{side}Arm")),
            Some(clav),
            [0.2 * x, 1.44, 0.0],
            [0.26 * x, 1.17, 0.0],
            0.05,
        );
        let fore = push(
            &mut b,
            &m(&format!("{side}ForeArm")),
            Some(up),
            [0.26 * x, 1.17, 0.0],
            [0.28 * x, 0.93, 0.04],
            0.04,
        );
        let hand = push(
            &mut b,
            &m(&format!("{side}Hand")),
            Some(fore),
            [0.28 * x, 0.93, 0.04],
            [0.29 * x, 0.84, 0.05],
            0.035,
        );
        for (k, f) in ["Thumb", "Index", "Middle", "Ring", "Pinky"]
            .iter()
            .enumerate()
        {
            let dz = 0.02 * (k as f32 - 2.0);
            let mut parent = hand;
            let mut y = 0.84;
            for seg in 1..=3 {
                let h = [0.29 * x, y, 0.05 + dz];
                y -= 0.025;
                let t = [0.29 * x, y, 0.05 + dz];
                parent = push(
                    &mut b,
                    &m(&format!("{side}Hand{f}{seg}")),
                    Some(parent),
                    h,
                    t,
                    0.009,
                );
            }
        }
        let thigh = push(
            &mut b,
            &m(&format!("{side}UpLeg")),
            Some(hips),
            [0.1 * x, 0.93, 0.0],
            [0.1 * x, 0.5, 0.01],
            0.075,
        );
        let shin = push(
            &mut b,
            &m(&format!("{side}Leg")),
            Some(thigh),
            [0.1 * x, 0.5, 0.01],
            [0.1 * x, 0.09, 0.0],
            0.05,
        );
        let foot = push(
            &mut b,
            &m(&format!("{side}Foot")),
            Some(shin),
            [0.1 * x, 0.09, 0.0],
            [0.1 * x, 0.035, 0.13],
            0.04,
        );
        let toe = push(
            &mut b,
            &m(&format!("{side}ToeBase")),
            Some(foot),
            [0.1 * x, 0.035, 0.13],
            [0.1 * x, 0.03, 0.19],
            0.028,
        );
        push(
            &mut b,
            &m(&format!("{side}Toe_End")),
            Some(toe),
            [0.1 * x, 0.03, 0.19],
            [0.1 * x, 0.03, 0.2],
            0.0,
        );
    }
    b
}

/// Options of a synthetic file.
#[derive(Debug, Clone, Copy)]
pub struct Build {
    /// Skin vertices in total (spread over bones with a radius).
    pub vertices: usize,
    /// Scale of the armature root node (translations divided by it, so the world is the same).
    pub root_scale: f32,
    /// Keep the bone names (else nodes are unnamed).
    pub names: bool,
    /// Every position and the root scaled by this (a tiny or huge character).
    pub size: f32,
    /// Every weight zero.
    pub zero_weights: bool,
    /// Some positions NaN and some 1e30.
    pub poison: bool,
    /// Meshes, each with its own skin listing the same joints.
    pub skins: usize,
    /// An unskinned mesh (a ball of points of this radius, metres) hanging from this bone,
    /// centred one radius above its tail: an accessory such as antlers or a helmet.
    pub rigid_on: Option<(usize, f32)>,
    /// Tubes of skin with no bone of their own (a tail, a foot left unweighted), each weighted
    /// wholly to a bone.
    pub appendages: [Option<Appendage>; 2],
    /// Each bone's first ring of skin blended with its parent (else every vertex wholly its
    /// bone's, as a rig painted in hard blocks).
    pub blend: bool,
}

/// A tube of skin from `from` to `to` (world, metres) of `radius`, weighted wholly to `bone`.
#[derive(Debug, Clone, Copy)]
pub struct Appendage {
    pub bone: usize,
    pub from: Vec3,
    pub to: Vec3,
    pub radius: f32,
}

impl Default for Build {
    fn default() -> Self {
        Self {
            vertices: 6000,
            root_scale: 1.0,
            names: true,
            size: 1.0,
            zero_weights: false,
            poison: false,
            skins: 1,
            rigid_on: None,
            appendages: [None; 2],
            blend: true,
        }
    }
}

/// Positions, joints and weights of the skin vertices.
type SkinData = (Vec<[f32; 3]>, Vec<[u16; 4]>, Vec<[f32; 4]>);

/// Points on a tube round each bone, weighted to it (the first ring blended with the parent).
fn skin(bones: &[BoneDef], total: usize, (size, blend): (f32, bool)) -> SkinData {
    let skinned: Vec<usize> = (0..bones.len())
        .filter(|&i| bones[i].radius > 0.0)
        .collect();
    let per = (total / skinned.len().max(1)).max(12);
    let (mut p, mut j, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for &i in &skinned {
        let b = &bones[i];
        let axis = (b.tail - b.head).normalize_or(Vec3::Y);
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u);
        let rings = (per / 12).max(1);
        for r in 0..rings {
            let t = (r as f32 + 0.5) / rings as f32;
            let c = b.head.lerp(b.tail, t);
            for k in 0..12 {
                let a = k as f32 / 12.0 * std::f32::consts::TAU;
                let q = c + (u * a.cos() + v * a.sin()) * b.radius;
                p.push((q * size).to_array());
                let parent = b.parent.unwrap_or(i) as u16;
                if blend && r == 0 && b.parent.is_some() {
                    j.push([i as u16, parent, 0, 0]);
                    w.push([0.6, 0.4, 0.0, 0.0]);
                } else {
                    j.push([i as u16, 0, 0, 0]);
                    w.push([1.0, 0.0, 0.0, 0.0]);
                }
            }
        }
    }
    (p, j, w)
}

fn bytes_of<T: Copy>(v: &[T]) -> &[u8] {
    // SAFETY: plain old data (f32/u16 arrays) viewed as bytes for a little-endian buffer.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

/// A GLB of the skeleton and its skin.
pub fn glb(bones: &[BoneDef], o: Build) -> Vec<u8> {
    let (mut pos, mut joints, mut weights) = skin(bones, o.vertices, (o.size, o.blend));
    for a in o.appendages.iter().flatten() {
        let tube = BoneDef {
            name: String::new(),
            parent: None,
            head: a.from,
            tail: a.to,
            radius: a.radius,
        };
        let (p, _, _) = skin(&[tube], o.vertices / 24, (o.size, o.blend));
        joints.extend(p.iter().map(|_| [a.bone as u16, 0, 0, 0]));
        weights.extend(p.iter().map(|_| [1.0, 0.0, 0.0, 0.0]));
        pos.extend(p);
    }
    if o.zero_weights {
        weights.iter_mut().for_each(|w| *w = [0.0; 4]);
    }
    if o.poison {
        for (i, p) in pos.iter_mut().enumerate() {
            match i % 7 {
                0 => *p = [f32::NAN, 0.0, 0.0],
                3 => *p = [1e30, -1e30, 1e30],
                _ => {}
            }
        }
    }
    let n_nodes = bones.len();
    // Node 0: armature root (scaled), then one mesh node per skin, then the bones.
    let mut nodes = vec![
        json!({"name": "Armature", "scale": [o.root_scale * o.size, o.root_scale * o.size, o.root_scale * o.size], "children": []}),
    ];
    let skins = o.skins.max(1);
    for k in 0..skins {
        nodes.push(json!({"name": format!("Body{k}"), "mesh": 0, "skin": k}));
    }
    let first_bone = nodes.len();
    let mut roots = Vec::new();
    for (i, b) in bones.iter().enumerate() {
        let parent_head = b.parent.map_or(Vec3::ZERO, |p| bones[p].head);
        let t = if b.parent.is_some() {
            (b.head - parent_head) / o.root_scale
        } else {
            b.head / o.root_scale
        };
        let mut node = json!({"translation": t.to_array()});
        if o.names {
            node["name"] = json!(b.name);
        }
        let children: Vec<usize> = (0..n_nodes)
            .filter(|&c| bones[c].parent == Some(i))
            .map(|c| c + first_bone)
            .collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        if b.parent.is_none() {
            roots.push(i + first_bone);
        }
        nodes.push(node);
    }
    nodes[0]["children"] = json!(roots);
    if let Some((bone, _)) = o.rigid_on {
        let b = &bones[bone];
        let centre = (b.tail - b.head) / o.root_scale;
        let node = nodes.len();
        nodes.push(json!({"name": "Accessory", "mesh": 1, "translation": centre.to_array()}));
        let bone_node = &mut nodes[first_bone + bone];
        let mut children = bone_node["children"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        children.push(json!(node));
        bone_node["children"] = json!(children);
    }
    let ibm: Vec<[f32; 16]> = bones
        .iter()
        .map(|b| {
            let world = Mat4::from_scale_rotation_translation(
                Vec3::splat(o.root_scale * o.size),
                glam::Quat::IDENTITY,
                b.head * o.size,
            );
            world.inverse().to_cols_array()
        })
        .collect();
    let mut bin = Vec::new();
    let mut views = Vec::new();
    for chunk in [
        bytes_of(&pos),
        bytes_of(&joints),
        bytes_of(&weights),
        bytes_of(&ibm),
    ] {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": chunk.len()}));
        bin.extend_from_slice(chunk);
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
    }
    let rigid = o.rigid_on.map(|(_, r)| ball(r / o.root_scale));
    if let Some(points) = &rigid {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": 12 * points.len()}));
        bin.extend_from_slice(bytes_of(points));
    }
    let (lo, hi) = pos
        .iter()
        .fold(([f32::MAX; 3], [f32::MIN; 3]), |(mut lo, mut hi), p| {
            for k in 0..3 {
                if p[k].is_finite() {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
            (lo, hi)
        });
    let joints_list: Vec<usize> = (first_bone..first_bone + n_nodes).collect();
    let skin_list: Vec<Value> = (0..skins)
        .map(|_| json!({"joints": joints_list, "inverseBindMatrices": 3}))
        .collect();
    let mut scene_nodes = vec![0];
    scene_nodes.extend(1..first_bone);
    let n = pos.len();
    let mut meshes = vec![
        json!({"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "mode": 0}]}),
    ];
    let mut accessors = vec![
        json!({"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3", "min": lo, "max": hi}),
        json!({"bufferView": 1, "componentType": 5123, "count": n, "type": "VEC4"}),
        json!({"bufferView": 2, "componentType": 5126, "count": n, "type": "VEC4"}),
        json!({"bufferView": 3, "componentType": 5126, "count": n_nodes, "type": "MAT4"}),
    ];
    if let Some(points) = &rigid {
        let r = o.rigid_on.map_or(0.0, |(_, r)| r / o.root_scale);
        accessors.push(json!({"bufferView": 4, "componentType": 5126, "count": points.len(), "type": "VEC3", "min": [-r, 0.0, -r], "max": [r, 2.0 * r, r]}));
        meshes.push(json!({"primitives": [{"attributes": {"POSITION": 4}, "mode": 0}]}));
    }
    let doc = json!({
        "asset": {"version": "2.0", "generator": "ragdoll-tuner test fixture"},
        "scene": 0,
        "scenes": [{"nodes": scene_nodes}],
        "nodes": nodes,
        "meshes": meshes,
        "skins": skin_list,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": bin.len()}],
    });
    glb_bytes(&doc, &bin)
}

/// Points on a ball of radius `r` resting on the origin (centre one radius up): 20 rings of
/// 24.
fn ball(r: f32) -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    for i in 0..20 {
        let polar = (i as f32 + 0.5) / 20.0 * std::f32::consts::PI;
        for k in 0..24 {
            let a = k as f32 / 24.0 * std::f32::consts::TAU;
            let (s, c) = polar.sin_cos();
            out.push([r * s * a.cos(), r * (1.0 + c), r * s * a.sin()]);
        }
    }
    out
}

/// GLB container bytes of a JSON document and a BIN chunk.
pub fn glb_bytes(doc: &Value, bin: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let text = serde_json::to_vec(doc).unwrap();
    ragdoll_tuner::document::container::write_glb(&mut out, &text, Some(bin)).unwrap();
    out
}

/// The humanoid with Unreal names, a `root` above the pelvis, twist bones on the upper arms
/// and thighs (with skin) and IK helper bones (without).
pub fn unreal() -> Vec<BoneDef> {
    let mut b = humanoid();
    let rename = |n: &str| -> String {
        let n = n.trim_start_matches("mixamorig:");
        let side = if n.starts_with("Left") { "_l" } else { "_r" };
        let base = n.trim_start_matches("Left").trim_start_matches("Right");
        match base {
            "Hips" => "pelvis".into(),
            "Spine" => "spine_01".into(),
            "Spine1" => "spine_02".into(),
            "Spine2" => "spine_03".into(),
            "Neck" => "neck_01".into(),
            "Head" => "head".into(),
            "HeadTop_End" => "head_end".into(),
            "Shoulder" => format!("clavicle{side}"),
            "Arm" => format!("upperarm{side}"),
            "ForeArm" => format!("lowerarm{side}"),
            "Hand" => format!("hand{side}"),
            "UpLeg" => format!("thigh{side}"),
            "Leg" => format!("calf{side}"),
            "Foot" => format!("foot{side}"),
            "ToeBase" => format!("ball{side}"),
            "Toe_End" => format!("ball_end{side}"),
            other => format!("{}{side}", other.to_lowercase().replace("hand", "")),
        }
    };
    for d in &mut b {
        d.name = rename(&d.name);
    }
    let n = b.len();
    for i in 0..n {
        let name = b[i].name.clone();
        if name.starts_with("upperarm_") || name.starts_with("thigh_") {
            let (h, t) = (b[i].head, b[i].tail);
            let part = name.split('_').next().unwrap_or("x").to_string();
            let side = &name[name.len() - 2..];
            b.push(BoneDef {
                name: format!("{part}_twist_01{side}"),
                parent: Some(i),
                head: h.lerp(t, 0.4),
                tail: h.lerp(t, 0.6),
                radius: b[i].radius * 1.01,
            });
        }
    }
    let root = b.len();
    b.push(BoneDef {
        name: "root".into(),
        parent: None,
        head: Vec3::ZERO,
        tail: Vec3::new(0.0, 0.1, 0.0),
        radius: 0.0,
    });
    b[0].parent = Some(root);
    let ik = b.len();
    b.push(BoneDef {
        name: "ik_foot_root".into(),
        parent: Some(root),
        head: Vec3::ZERO,
        tail: Vec3::new(0.0, 0.05, 0.0),
        radius: 0.0,
    });
    for side in ["l", "r"] {
        let x = if side == "l" { 0.1 } else { -0.1 };
        b.push(BoneDef {
            name: format!("ik_foot_{side}"),
            parent: Some(ik),
            head: Vec3::new(x, 0.09, 0.0),
            tail: Vec3::new(x, 0.1, 0.0),
            radius: 0.0,
        });
    }
    b
}

/// The humanoid with Rigify deform names, thighs and upper arms split into `X` and its twist
/// segment `X.001` in the middle of the chain (the shin hangs from `DEF-thigh.L.001`).
pub fn rigify() -> Vec<BoneDef> {
    let src = humanoid();
    let mut out: Vec<BoneDef> = Vec::new();
    let mut map = vec![0usize; src.len()];
    for (i, d) in src.iter().enumerate() {
        let n = d.name.trim_start_matches("mixamorig:");
        let side = if n.starts_with("Left") { ".L" } else { ".R" };
        let base = n.trim_start_matches("Left").trim_start_matches("Right");
        let name = match base {
            "Hips" => "DEF-spine".to_string(),
            "Spine" => "DEF-spine.001".into(),
            "Spine1" => "DEF-spine.002".into(),
            "Spine2" => "DEF-spine.003".into(),
            "Neck" => "DEF-spine.004".into(),
            "Head" => "DEF-spine.006".into(),
            "HeadTop_End" => "DEF-spine.006_end".into(),
            "Shoulder" => format!("DEF-shoulder{side}"),
            "Arm" => format!("DEF-upper_arm{side}"),
            "ForeArm" => format!("DEF-forearm{side}"),
            "Hand" => format!("DEF-hand{side}"),
            "UpLeg" => format!("DEF-thigh{side}"),
            "Leg" => format!("DEF-shin{side}"),
            "Foot" => format!("DEF-foot{side}"),
            "ToeBase" => format!("DEF-toe{side}"),
            "Toe_End" => format!("DEF-toe{side}_end"),
            other => format!("DEF-f_{}{side}", other.to_lowercase()),
        };
        let parent = d.parent.map(|p| map[p]);
        let split = base == "Arm" || base == "UpLeg";
        if split {
            let mid = d.head.lerp(d.tail, 0.5);
            out.push(BoneDef {
                name: name.clone(),
                parent,
                head: d.head,
                tail: mid,
                radius: d.radius,
            });
            let first = out.len() - 1;
            out.push(BoneDef {
                name: format!("{name}.001"),
                parent: Some(first),
                head: mid,
                tail: d.tail,
                radius: d.radius,
            });
        } else {
            out.push(BoneDef {
                name,
                parent,
                head: d.head,
                tail: d.tail,
                radius: d.radius,
            });
        }
        map[i] = out.len() - 1;
    }
    out
}
