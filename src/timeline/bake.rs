//! Baking a recorded run into a glTF animation clip: a rotation channel for every bone that
//! has a body (its local rotation under its parent node, posed), and a translation channel
//! for the top bodies (the root), keyed at the recorded frames. The clip goes into the
//! document as one edit ([`Edit::Append`]): a new buffer (a base64 data URI, so the file's
//! own buffers and the GLB's BIN chunk stay byte for byte), its views and accessors, and the
//! animation. Pure: no Rapier beyond the poses the recording holds.

use super::{Frame, Recording};
use crate::document::{BoneId, Document, Edit};
use base64::Engine;
use glam::{DMat4, DQuat, DVec3};
use serde_json::{json, Value};

/// Slack of the range's bounds (s), far below a step.
const TIME_SLACK_S: f64 = 1e-4;

/// What to bake.
#[derive(Debug, Clone, PartialEq)]
pub struct BakeOptions {
    pub name: String,
    /// Simulation time of the first key (s); None: the first recorded frame.
    pub from_s: Option<f64>,
    /// Simulation time of the last key (s); None: the last recorded frame.
    pub to_s: Option<f64>,
    /// Keys per second; None: one key per recorded frame.
    pub fps: Option<f64>,
}

/// Why a bake cannot be made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BakeError {
    #[error("nothing recorded between {from_s} s and {to_s} s")]
    Empty { from_s: f64, to_s: f64 },
    #[error("the range is empty: from {from_s} s is not before to {to_s} s")]
    Reversed { from_s: f64, to_s: f64 },
    #[error("keys per second (fps) must be a positive number, not {0}")]
    BadFps(f64),
    #[error("the clip needs a name")]
    NoName,
    #[error("the document already has an animation named '{0}'")]
    NameTaken(String),
}

/// The names of the document's animations (as the file gives them).
pub fn clip_names(doc: &Document) -> impl Iterator<Item = &str> {
    doc.json()
        .get("animations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| a.get("name").and_then(Value::as_str))
}

/// A baked clip: key times, and per channel its node and values.
#[derive(Debug, Clone, PartialEq)]
pub struct Baked {
    /// Key times from 0 (s).
    pub times_s: Vec<f32>,
    /// (node, local rotation x, y, z, w at each key).
    pub rotations: Vec<(usize, Vec<[f32; 4]>)>,
    /// (node, local translation at each key): the top bodies.
    pub translations: Vec<(usize, Vec<[f32; 3]>)>,
}

/// The recorded frames to key: every frame in [from, to], or the frame nearest each 1/fps.
fn keyed<'a>(rec: &'a Recording, o: &BakeOptions) -> Result<Vec<Frame<'a>>, BakeError> {
    let first = rec.frame(0).map_or(0.0, |f| f.time_s);
    let last = rec
        .frame(rec.len().saturating_sub(1))
        .map_or(0.0, |f| f.time_s);
    let (from_s, to_s) = (o.from_s.unwrap_or(first), o.to_s.unwrap_or(last));
    if to_s <= from_s {
        return Err(BakeError::Reversed { from_s, to_s });
    }
    // Recorded times add up a step of f32 length (1/120 s is 0.0083333338): a bound on a
    // recorded moment must take that frame, so the bounds give by far less than a step.
    let inside = |t: f64| t >= from_s - TIME_SLACK_S && t <= to_s + TIME_SLACK_S;
    let frames: Vec<Frame> = match o.fps {
        None => rec.frames().filter(|f| inside(f.time_s)).collect(),
        Some(fps) if !(fps.is_finite() && fps > 0.0) => return Err(BakeError::BadFps(fps)),
        Some(fps) => {
            let keys = ((to_s - from_s) * fps + 1e-6).floor().max(0.0) as usize + 1;
            let mut out: Vec<Frame> = Vec::with_capacity(keys);
            for k in 0..keys {
                let f = rec
                    .nearest(from_s + k as f64 / fps)
                    .filter(|f| inside(f.time_s));
                if let Some(f) = f.filter(|f| out.last().is_none_or(|l| l.step != f.step)) {
                    out.push(f);
                }
            }
            out
        }
    };
    if frames.is_empty() {
        return Err(BakeError::Empty { from_s, to_s });
    }
    Ok(frames)
}

/// Every node's posed world transform at a frame: bones with bodies where their bodies are
/// (at their rest scale), every other node carried by its parent at its rest offset.
pub fn posed_nodes(doc: &Document, rec: &Recording, f: &Frame) -> Vec<DMat4> {
    let nodes = &doc.skeleton.nodes;
    let mut body_of = vec![None; nodes.len()];
    for (k, &b) in rec.bones().iter().enumerate() {
        body_of[doc.bone(b).node] = Some(k);
    }
    let mut world: Vec<Option<DMat4>> = vec![None; nodes.len()];
    let mut stack: Vec<usize> = (0..nodes.len())
        .filter(|&n| nodes[n].parent.is_none())
        .collect();
    while let Some(n) = stack.pop() {
        let w = match body_of[n].and_then(|k| f.poses.get(k)) {
            Some(p) => {
                let scale = nodes[n].world_from_node.to_scale_rotation_translation().0;
                let (t, r) = (p.translation.as_dvec3(), p.rotation.as_dquat());
                DMat4::from_scale_rotation_translation(scale, r.normalize(), t)
            }
            None => match nodes[n].parent.and_then(|p| world[p]) {
                Some(pw) => pw * nodes[n].parent_from_node,
                None => nodes[n].world_from_node,
            },
        };
        world[n] = Some(w);
        stack.extend(nodes[n].children.iter().copied());
    }
    world
        .into_iter()
        .zip(nodes)
        .map(|(w, n)| w.unwrap_or(n.world_from_node))
        .collect()
}

/// The local transform of `node` under its parent in a posed frame.
fn local(doc: &Document, world: &[DMat4], node: usize) -> (DQuat, DVec3) {
    let parent = doc.skeleton.nodes[node]
        .parent
        .map_or(DMat4::IDENTITY, |p| world[p]);
    let (_, r, t) = (parent.inverse() * world[node]).to_scale_rotation_translation();
    (r.normalize(), t)
}

/// Bakes the recorded frames `o` selects.
pub fn bake(doc: &Document, rec: &Recording, o: &BakeOptions) -> Result<Baked, BakeError> {
    if o.name.trim().is_empty() {
        return Err(BakeError::NoName);
    }
    if clip_names(doc).any(|n| n == o.name) {
        return Err(BakeError::NameTaken(o.name.clone()));
    }
    let frames = keyed(rec, o)?;
    let t0 = frames[0].time_s;
    let nodes: Vec<usize> = rec.bones().iter().map(|&b| doc.bone(b).node).collect();
    let top: Vec<usize> = rec
        .bones()
        .iter()
        .filter(|&&b| !has_body_above(doc, rec, b))
        .map(|&b| doc.bone(b).node)
        .collect();
    let mut rotations: Vec<(usize, Vec<[f32; 4]>)> =
        nodes.iter().map(|&n| (n, Vec::new())).collect();
    let mut translations: Vec<(usize, Vec<[f32; 3]>)> =
        top.iter().map(|&n| (n, Vec::new())).collect();
    for f in &frames {
        let world = posed_nodes(doc, rec, f);
        for (node, keys) in &mut rotations {
            let (mut q, _) = local(doc, &world, *node);
            // The shorter way from the previous key, for linear (slerp) interpolation.
            if keys
                .last()
                .is_some_and(|p| DQuat::from_array(p.map(f64::from)).dot(q) < 0.0)
            {
                q = -q;
            }
            keys.push(q.to_array().map(|x| x as f32));
        }
        for (node, keys) in &mut translations {
            keys.push(local(doc, &world, *node).1.to_array().map(|x| x as f32));
        }
    }
    Ok(Baked {
        times_s: frames.iter().map(|f| (f.time_s - t0) as f32).collect(),
        rotations,
        translations,
    })
}

/// True when a bone above `b` has a body in the recording.
fn has_body_above(doc: &Document, rec: &Recording, b: BoneId) -> bool {
    std::iter::successors(doc.bone(b).parent, |&p| doc.bone(p).parent)
        .any(|p| rec.bones().contains(&p))
}

fn floats(out: &mut Vec<u8>, xs: impl IntoIterator<Item = f32>) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// The edit that adds `baked` to `doc` as the animation `name`.
pub fn append_edit(doc: &Document, baked: &Baked, name: &str) -> Edit {
    let mut data = BakedData::after(doc);
    let k = baked.times_s.len();
    let input = data.add_floats(baked.times_s.clone(), "SCALAR", k, true);
    let mut clip = ClipJson {
        input,
        channels: Vec::new(),
        samplers: Vec::new(),
    };
    for (node, keys) in &baked.rotations {
        let out = data.add_floats(keys.iter().flatten().copied().collect(), "VEC4", k, false);
        clip.channel(*node, "rotation", out);
    }
    for (node, keys) in &baked.translations {
        let out = data.add_floats(keys.iter().flatten().copied().collect(), "VEC3", k, false);
        clip.channel(*node, "translation", out);
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&data.bytes)
    );
    Edit::Append {
        arrays: vec![
            (
                "buffers".into(),
                vec![
                    json!({"byteLength": data.bytes.len(), "uri": uri, "name": format!("{name} (baked)")}),
                ],
            ),
            ("bufferViews".into(), data.views),
            ("accessors".into(), data.accessors),
            (
                "animations".into(),
                vec![json!({"name": name, "channels": clip.channels, "samplers": clip.samplers})],
            ),
        ],
    }
}

/// The baked clip's one new buffer, with its buffer views and accessors, numbered after the
/// document's own.
struct BakedData {
    buffer: usize,
    first_view: usize,
    first_accessor: usize,
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl BakedData {
    fn after(doc: &Document) -> Self {
        let len = |k: &str| {
            doc.json()
                .get(k)
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        };
        Self {
            buffer: len("buffers"),
            first_view: len("bufferViews"),
            first_accessor: len("accessors"),
            bytes: Vec::new(),
            views: Vec::new(),
            accessors: Vec::new(),
        }
    }

    /// Appends `data` as floats with a view and an accessor (with min and max when asked);
    /// the accessor's index.
    fn add_floats(&mut self, data: Vec<f32>, ty: &str, count: usize, minmax: bool) -> usize {
        let offset = self.bytes.len();
        floats(&mut self.bytes, data.iter().copied());
        self.views.push(
            json!({"buffer": self.buffer, "byteOffset": offset, "byteLength": data.len() * 4}),
        );
        let view = self.first_view + self.views.len() - 1;
        let mut a = json!({"bufferView": view, "componentType": 5126, "count": count, "type": ty});
        if minmax {
            let (lo, hi) = data
                .iter()
                .fold((f32::MAX, f32::MIN), |(l, h), &x| (l.min(x), h.max(x)));
            a["min"] = json!([lo]);
            a["max"] = json!([hi]);
        }
        self.accessors.push(a);
        self.first_accessor + self.accessors.len() - 1
    }
}

/// The baked clip's channels, each with its own linear sampler over the shared key times.
struct ClipJson {
    /// The key times' accessor.
    input: usize,
    channels: Vec<Value>,
    samplers: Vec<Value>,
}

impl ClipJson {
    fn channel(&mut self, node: usize, path: &str, output: usize) {
        self.samplers
            .push(json!({"input": self.input, "output": output, "interpolation": "LINEAR"}));
        self.channels.push(
            json!({"sampler": self.samplers.len() - 1, "target": {"node": node, "path": path}}),
        );
    }
}
