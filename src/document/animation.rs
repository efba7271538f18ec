//! glTF animations: clips of translation, rotation and scale channels on nodes, with STEP,
//! LINEAR and CUBICSPLINE samplers, read from the JSON and buffers by our own checked reader.
//! Bad data (NaN keys, mismatched counts, accessors out of range, times that do not increase,
//! a target node that does not exist) becomes a diagnostic naming the animation, channel and
//! key; the channel is dropped, the rest of the clip plays. Animations are never written: a
//! save keeps them byte for byte.

use super::accessor::{read_floats, Floats};
use super::diagnostics::Diagnostic;
use super::{DocError, Document};
use glam::{DQuat, DVec3};
use serde_json::Value;

/// How a sampler interpolates between keyframes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    Step,
    Linear,
    CubicSpline,
}

/// What a channel animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelPath {
    Translation,
    Rotation,
    Scale,
}

/// One animated property of one node. `values` holds one element per key (`[x, y, z, w]`
/// for rotations, `[x, y, z, 0]` otherwise); for CUBICSPLINE three per key: in-tangent,
/// value, out-tangent.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    pub node: usize,
    pub path: ChannelPath,
    pub interpolation: Interpolation,
    pub times_s: Vec<f32>,
    pub values: Vec<[f32; 4]>,
}

/// One animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// The animation's name, or `animation<index>`.
    pub name: String,
    pub index: usize,
    pub channels: Vec<Channel>,
    /// The last key time of any channel (s).
    pub duration_s: f32,
    /// The channels of each node (indices into `channels`), built once at load: sampling a
    /// pose visits each channel once, not every channel for every node.
    by_node: Vec<Vec<usize>>,
}

/// The clips of a document and the problems found reading them.
#[derive(Debug, Clone, Default)]
pub struct Animations {
    pub clips: Vec<Clip>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Animations {
    /// A clip by name, or by index written as a number.
    pub fn find(&self, name_or_index: &str) -> Option<&Clip> {
        self.clips
            .iter()
            .find(|c| c.name == name_or_index)
            .or_else(|| {
                let i: usize = name_or_index.parse().ok()?;
                self.clips.iter().find(|c| c.index == i)
            })
    }

    /// The clips a user can name, for a message: `Walk (0), Run (1)`, or `none`.
    pub fn listing(&self) -> String {
        if self.clips.is_empty() {
            return "none".into();
        }
        let names: Vec<String> = self
            .clips
            .iter()
            .map(|c| format!("{} ({})", c.name, c.index))
            .collect();
        names.join(", ")
    }
}

/// A node's local transform as glTF composes it: T * R * S.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalTrs {
    pub translation: DVec3,
    pub rotation: DQuat,
    pub scale: DVec3,
}

fn interpolation(s: Option<&str>) -> Result<Interpolation, String> {
    match s.unwrap_or("LINEAR") {
        "LINEAR" => Ok(Interpolation::Linear),
        "STEP" => Ok(Interpolation::Step),
        "CUBICSPLINE" => Ok(Interpolation::CubicSpline),
        other => Err(format!("unknown interpolation '{other}'")),
    }
}

fn path(s: Option<&str>) -> Option<Result<ChannelPath, String>> {
    Some(Ok(match s? {
        "translation" => ChannelPath::Translation,
        "rotation" => ChannelPath::Rotation,
        "scale" => ChannelPath::Scale,
        // Morph target weights are not skeleton motion: skipped without a word.
        "weights" => return None,
        other => return Some(Err(format!("unknown target path '{other}'"))),
    }))
}

impl Document {
    /// Reads every animation. Only a buffer that cannot be read at all is an error; anything
    /// wrong inside an animation is a diagnostic.
    pub fn load_animations(&self) -> Result<Animations, DocError> {
        let mut out = Animations::default();
        let Some(list) = self.json().get("animations").and_then(Value::as_array) else {
            return Ok(out);
        };
        let buffers = self.decoded_buffers()?;
        let slices: Vec<&[u8]> = buffers.iter().map(|b| &b[..]).collect();
        for (index, anim) in list.iter().enumerate() {
            let name = anim
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| format!("animation{index}"), String::from);
            let mut clip = Clip {
                name,
                index,
                channels: Vec::new(),
                duration_s: 0.0,
                by_node: vec![Vec::new(); self.skeleton.nodes.len()],
            };
            let channels = anim.get("channels").and_then(Value::as_array);
            for (c, ch) in channels.into_iter().flatten().enumerate() {
                let key = format!("animations[{index}].channels[{c}]");
                match self.read_channel(anim, ch, &slices) {
                    Ok(Some(channel)) => clip.channels.push(channel),
                    Ok(None) => {}
                    Err(p) => out.diagnostics.push(Diagnostic::error(
                        None,
                        &format!("animation '{}'", clip.name),
                        &format!("{key}{}", p.key_suffix),
                        format!("{}; the channel is ignored", p.message),
                    )),
                }
            }
            clip.duration_s = clip
                .channels
                .iter()
                .filter_map(|c| c.times_s.last().copied())
                .fold(0.0, f32::max);
            for (k, c) in clip.channels.iter().enumerate() {
                if let Some(list) = clip.by_node.get_mut(c.node) {
                    list.push(k);
                }
            }
            out.clips.push(clip);
        }
        Ok(out)
    }

    /// One channel, or the key suffix and message of what is wrong with it.
    fn read_channel(
        &self,
        anim: &Value,
        ch: &Value,
        buffers: &[&[u8]],
    ) -> Result<Option<Channel>, ChannelProblem> {
        let Some((path, node)) = self.channel_target(ch)? else {
            return Ok(None);
        };
        let s = ch
            .get("sampler")
            .and_then(Value::as_u64)
            .and_then(|s| anim.get("samplers")?.get(s as usize))
            .ok_or_else(|| ChannelProblem::new(".sampler", "the sampler does not exist"))?;
        let interp = interpolation(s.get("interpolation").and_then(Value::as_str))
            .map_err(|m| ChannelProblem::new(".sampler.interpolation", m))?;
        let acc = |k: &str| -> Result<Floats, ChannelProblem> {
            let key = format!(".sampler.{k}");
            let i = s
                .get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| ChannelProblem::new(&key, "missing accessor"))?;
            read_floats(self.json(), buffers, i as usize).map_err(|m| ChannelProblem::new(&key, m))
        };
        let (input, output) = (acc("input")?, acc("output")?);
        let times_s = input.values;
        check_key_times(&times_s)?;
        check_key_values(path, interp, &output, times_s.len())?;
        let values = (0..output.count())
            .filter_map(|i| output.get(i))
            .map(|e| [e[0], e[1], e[2], e.get(3).copied().unwrap_or(0.0)])
            .collect();
        Ok(Some(Channel {
            node,
            path,
            interpolation: interp,
            times_s,
            values,
        }))
    }

    /// The channel's target: its path and node; None for a path we do not animate.
    fn channel_target(&self, ch: &Value) -> Result<Option<(ChannelPath, usize)>, ChannelProblem> {
        let target = ch.get("target");
        let Some(path) = path(target.and_then(|t| t.get("path")).and_then(Value::as_str)) else {
            return Ok(None);
        };
        let path = path.map_err(|m| ChannelProblem::new(".target.path", m))?;
        let node = target
            .and_then(|t| t.get("node"))
            .and_then(Value::as_u64)
            .map(|n| n as usize)
            .filter(|&n| n < self.skeleton.nodes.len())
            .ok_or_else(|| ChannelProblem::new(".target.node", "the target node does not exist"))?;
        Ok(Some((path, node)))
    }
}

/// What is wrong with a channel: the suffix of its key (`.sampler.input`) and a message.
struct ChannelProblem {
    key_suffix: String,
    message: String,
}

impl ChannelProblem {
    fn new(key_suffix: &str, message: impl Into<String>) -> Self {
        Self {
            key_suffix: key_suffix.to_string(),
            message: message.into(),
        }
    }
}

/// Key times are finite and strictly increasing.
fn check_key_times(times_s: &[f32]) -> Result<(), ChannelProblem> {
    if times_s.iter().any(|t| !t.is_finite()) || times_s.windows(2).any(|w| w[1] <= w[0]) {
        return Err(ChannelProblem::new(
            ".sampler.input",
            "key times must be finite and strictly increasing",
        ));
    }
    Ok(())
}

/// The output holds, per key time, one finite value (three with cubic-spline tangents) of
/// the path's width; at least one key.
fn check_key_values(
    path: ChannelPath,
    interp: Interpolation,
    output: &Floats,
    key_count: usize,
) -> Result<(), ChannelProblem> {
    let width = if path == ChannelPath::Rotation { 4 } else { 3 };
    let per_key = if interp == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    if output.width != width || output.count() != key_count * per_key || key_count == 0 {
        return Err(ChannelProblem::new(
            ".sampler.output",
            format!(
                "{} values of {} numbers for {} key times; expected {} of {width}",
                output.count(),
                output.width,
                key_count,
                key_count * per_key
            ),
        ));
    }
    if output.values.iter().any(|v| !v.is_finite()) {
        return Err(ChannelProblem::new(
            ".sampler.output",
            "a key value is not finite",
        ));
    }
    Ok(())
}

fn quat(v: [f32; 4]) -> DQuat {
    DQuat::from_xyzw(v[0] as f64, v[1] as f64, v[2] as f64, v[3] as f64)
}

fn vec(v: [f32; 4]) -> DVec3 {
    DVec3::new(v[0] as f64, v[1] as f64, v[2] as f64)
}

/// Hermite basis of the glTF cubic spline at s in 0..1: (value k, out-tangent k, value k+1,
/// in-tangent k+1), the tangents already multiplied by the key interval.
fn hermite(s: f64) -> [f64; 4] {
    let (s2, s3) = (s * s, s * s * s);
    [
        2.0 * s3 - 3.0 * s2 + 1.0,
        s3 - 2.0 * s2 + s,
        -2.0 * s3 + 3.0 * s2,
        s3 - s2,
    ]
}

impl Channel {
    /// The key interval holding `t` and the fraction into it; clamped outside the keys.
    fn locate(&self, t: f32) -> (usize, usize, f64, f64) {
        let n = self.times_s.len();
        let last = n.saturating_sub(1);
        let first_t = self.times_s.first().copied().unwrap_or(0.0);
        let last_t = self.times_s.last().copied().unwrap_or(0.0);
        if n < 2 || t <= first_t {
            return (0, 0, 0.0, 0.0);
        }
        if t >= last_t {
            return (last, last, 0.0, 0.0);
        }
        let k = self
            .times_s
            .partition_point(|&x| x <= t)
            .saturating_sub(1)
            .min(last - 1);
        let (t0, t1) = (self.times_s[k] as f64, self.times_s[k + 1] as f64);
        let dt = t1 - t0;
        (k, k + 1, ((t as f64 - t0) / dt).clamp(0.0, 1.0), dt)
    }

    /// The element of key `k` (the value, not a tangent, for a cubic spline).
    fn key(&self, k: usize, part: usize) -> [f32; 4] {
        let i = match self.interpolation {
            Interpolation::CubicSpline => 3 * k + part,
            _ => k,
        };
        self.values.get(i).copied().unwrap_or([0.0, 0.0, 0.0, 1.0])
    }

    /// The vector value at `t` (translation or scale).
    pub fn sample_vec3(&self, t: f32) -> DVec3 {
        let (a, b, s, dt) = self.locate(t);
        match self.interpolation {
            Interpolation::Step => vec(self.key(a, 1)),
            Interpolation::Linear => vec(self.key(a, 1)).lerp(vec(self.key(b, 1)), s),
            Interpolation::CubicSpline => {
                let h = hermite(s);
                vec(self.key(a, 1)) * h[0]
                    + vec(self.key(a, 2)) * (h[1] * dt)
                    + vec(self.key(b, 1)) * h[2]
                    + vec(self.key(b, 0)) * (h[3] * dt)
            }
        }
    }

    /// The rotation at `t` (unit quaternion).
    pub fn sample_rotation(&self, t: f32) -> DQuat {
        let (a, b, s, dt) = self.locate(t);
        let q = match self.interpolation {
            Interpolation::Step => quat(self.key(a, 1)),
            Interpolation::Linear => quat(self.key(a, 1))
                .normalize()
                .slerp(quat(self.key(b, 1)).normalize(), s),
            Interpolation::CubicSpline => {
                let h = hermite(s);
                let v = |k, p| glam::DVec4::from_array(self.key(k, p).map(f64::from));
                let x =
                    v(a, 1) * h[0] + v(a, 2) * (h[1] * dt) + v(b, 1) * h[2] + v(b, 0) * (h[3] * dt);
                DQuat::from_vec4(x)
            }
        };
        q.normalize_or(DQuat::IDENTITY)
    }
}

trait NormalizeOr {
    fn normalize_or(self, fallback: DQuat) -> DQuat;
}

impl NormalizeOr for DQuat {
    fn normalize_or(self, fallback: DQuat) -> DQuat {
        let l = self.length();
        if l.is_finite() && l > 1e-12 {
            self / l
        } else {
            fallback
        }
    }
}

impl Clip {
    /// The local transform of `node` at time `t`: the clip's channels where it has them, the
    /// given rest transform elsewhere.
    pub fn sample_node(&self, node: usize, t_s: f32, rest: LocalTrs) -> LocalTrs {
        let mut out = rest;
        let list = self.by_node.get(node).map_or(&[][..], Vec::as_slice);
        for c in list.iter().filter_map(|&k| self.channels.get(k)) {
            match c.path {
                ChannelPath::Translation => out.translation = c.sample_vec3(t_s),
                ChannelPath::Rotation => out.rotation = c.sample_rotation(t_s),
                ChannelPath::Scale => out.scale = c.sample_vec3(t_s),
            }
        }
        out
    }

    /// True when some channel animates `node`.
    pub fn animates(&self, node: usize) -> bool {
        self.by_node.get(node).is_some_and(|l| !l.is_empty())
    }
}
