//! Recording a run: every body's pose at every step for the last N seconds, in a ring of fixed
//! size allocated once (no allocation per step; memory bounded and reported), so a run can
//! be scrubbed back, stepped frame by frame, and baked into an animation clip.

use crate::document::BoneId;
use crate::sim::Simulation;
use rapier3d::prelude::Pose;

/// The last `capacity` frames of a run.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The bones with bodies, in the order each frame lists their poses.
    bones: Vec<BoneId>,
    capacity: usize,
    /// Frames held (at most `capacity`), and the slot of the oldest.
    len: usize,
    oldest: usize,
    steps: Vec<u64>,
    times_s: Vec<f64>,
    /// `capacity * bones.len()` poses, frame after frame.
    poses: Vec<Pose>,
}

/// One recorded frame.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub step: u64,
    pub time_s: f64,
    /// The pose of each of [`Recording::bones`], in that order.
    pub poses: &'a [Pose],
}

impl Recording {
    /// A recording of `sim`'s bodies holding the last `seconds` of steps (at least one frame).
    pub fn new(sim: &Simulation, seconds: f64) -> Self {
        let bones: Vec<BoneId> = sim.body_poses().map(|(b, _)| b).collect();
        let dt = f64::from(sim.settings().dt_s).max(1e-6);
        let capacity = ((seconds.max(0.0) / dt).ceil() as usize + 1).max(1);
        Self {
            capacity,
            len: 0,
            oldest: 0,
            steps: vec![0; capacity],
            times_s: vec![0.0; capacity],
            poses: vec![Pose::IDENTITY; capacity * bones.len()],
            bones,
        }
    }

    /// Records `sim`'s current state (the oldest frame goes when the ring is full).
    pub fn push(&mut self, sim: &Simulation) {
        let n = self.bones.len();
        let slot = (self.oldest + self.len) % self.capacity;
        if self.len == self.capacity {
            self.oldest = (self.oldest + 1) % self.capacity;
        } else {
            self.len += 1;
        }
        self.steps[slot] = sim.steps();
        self.times_s[slot] = sim.time_s();
        let out = &mut self.poses[slot * n..(slot + 1) * n];
        for (o, (_, p)) in out.iter_mut().zip(sim.body_poses()) {
            *o = p;
        }
    }

    pub fn bones(&self) -> &[BoneId] {
        &self.bones
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Frame `i`, the oldest held being 0.
    pub fn frame(&self, i: usize) -> Option<Frame<'_>> {
        if i >= self.len {
            return None;
        }
        let slot = (self.oldest + i) % self.capacity;
        let n = self.bones.len();
        Some(Frame {
            step: self.steps[slot],
            time_s: self.times_s[slot],
            poses: &self.poses[slot * n..(slot + 1) * n],
        })
    }

    /// The frames held, oldest first.
    pub fn frames(&self) -> impl Iterator<Item = Frame<'_>> {
        (0..self.len).filter_map(|i| self.frame(i))
    }

    /// The frame recorded nearest to `time_s`.
    pub fn nearest(&self, time_s: f64) -> Option<Frame<'_>> {
        self.frames().min_by(|a, b| {
            (a.time_s - time_s)
                .abs()
                .total_cmp(&(b.time_s - time_s).abs())
        })
    }

    /// The index of the first frame for which `pred` is false (frames are in step order and
    /// `pred` must hold for a prefix of them).
    fn partition_point(&self, pred: impl Fn(Frame<'_>) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.frame(mid) {
                Some(f) if pred(f) => lo = mid + 1,
                _ => hi = mid,
            }
        }
        lo
    }

    /// The index of the frame recorded at `step`.
    pub fn index_of_step(&self, step: u64) -> Option<usize> {
        let i = self.partition_point(|f| f.step < step);
        self.frame(i).filter(|f| f.step == step).map(|_| i)
    }

    /// The index of the frame nearest to `time_s` (None when empty).
    pub fn index_near(&self, time_s: f64) -> Option<usize> {
        let i = self.partition_point(|f| f.time_s < time_s);
        let dist = |j: usize| {
            self.frame(j)
                .map_or(f64::INFINITY, |f| (f.time_s - time_s).abs())
        };
        match (i.checked_sub(1), i < self.len) {
            (Some(a), true) => Some(if dist(a) <= dist(i) { a } else { i }),
            (Some(a), false) => Some(a),
            (None, true) => Some(i),
            (None, false) => None,
        }
    }

    /// Forgets the frames recorded after `step` (a branch rewrites the future).
    pub fn truncate_after(&mut self, step: u64) {
        self.len = self.partition_point(|f| f.step <= step);
    }

    /// Memory held by the ring (bytes).
    pub fn bytes(&self) -> usize {
        self.capacity * (std::mem::size_of::<u64>() + std::mem::size_of::<f64>())
            + self.poses.len() * std::mem::size_of::<Pose>()
            + self.bones.len() * std::mem::size_of::<BoneId>()
    }
}
