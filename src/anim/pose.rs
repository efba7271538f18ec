//! A clip's pose: every node's world matrix by forward kinematics from the clip's local
//! transforms (rest transforms where the clip has no channel), and clip time from play time.

use crate::document::{Clip, LocalTrs, Skeleton};
use glam::DMat4;

/// How play time maps onto clip time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playback {
    /// Clip seconds per simulated second.
    pub speed: f32,
    /// Wrap around at the end (else hold the last frame).
    pub looping: bool,
    /// Clip time at play time 0 (s).
    pub start_s: f32,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            speed: 1.0,
            looping: true,
            start_s: 0.0,
        }
    }
}

/// How many whole loops the clip has played at play time `t_s` (0 when not looping).
pub fn loops_done(clip: &Clip, playback: &Playback, t_s: f64) -> f64 {
    let d = clip.duration_s.max(0.0) as f64;
    if !playback.looping || d <= 0.0 {
        return 0.0;
    }
    ((playback.start_s as f64 + t_s * playback.speed as f64) / d).floor()
}

/// The clip time (s) at play time `t_s`.
pub fn clip_time_s(clip: &Clip, playback: &Playback, t_s: f64) -> f32 {
    let d = clip.duration_s.max(0.0) as f64;
    let t = playback.start_s as f64 + t_s * playback.speed as f64;
    let t = if d <= 0.0 {
        0.0
    } else if playback.looping {
        t.rem_euclid(d)
    } else {
        t.clamp(0.0, d)
    };
    t as f32
}

fn rest_trs(m: &DMat4) -> LocalTrs {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    LocalTrs {
        translation,
        rotation,
        scale,
    }
}

/// Every node's world matrix at clip time `t_s`. Parents are computed before children by an
/// explicit walk from the roots (the document's hierarchy is a checked tree).
pub fn world_pose(skeleton: &Skeleton, clip: &Clip, t_s: f32) -> Vec<DMat4> {
    let nodes = &skeleton.nodes;
    let mut world = vec![DMat4::IDENTITY; nodes.len()];
    let mut stack: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].parent.is_none())
        .collect();
    while let Some(i) = stack.pop() {
        let Some(n) = nodes.get(i) else { continue };
        let local = if clip.animates(i) {
            let l = clip.sample_node(i, t_s, rest_trs(&n.parent_from_node));
            DMat4::from_scale_rotation_translation(l.scale, l.rotation, l.translation)
        } else {
            n.parent_from_node
        };
        let parent = n
            .parent
            .and_then(|p| world.get(p).copied())
            .unwrap_or(DMat4::IDENTITY);
        if let Some(w) = world.get_mut(i) {
            *w = parent * local;
        }
        stack.extend(n.children.iter().copied());
    }
    world
}
