//! A head's skin without what spreads thinly far from it: antlers, horns, long ears, a
//! ponytail. They are vertices of the head bone like the skull's, and a shape fitted to all of
//! them grows round them: a reindeer's head became a 45 cm ball round its antlers on a 1 m
//! body, 4.8 of its 15 kg. No bone says how big a skull is (a cartoon's is five times its
//! neck), so the skin does: counted by distance from the head bone, a skull's vertices pile up
//! to its radius and stop, while an appendage's trail off at a low, even count per unit of
//! distance. The core ends where the count first falls below [`TAIL_SHARE`] of its peak, when
//! what lies beyond is a real share of the skin and reaches well past that.

use super::rig::{percentile, sorted};
use glam::DVec3;

/// Distance bins between the head bone and its farthest vertices (99th percentile).
const BINS: usize = 24;
/// The count per bin, as a share of the peak's, below which the skull has ended.
pub const TAIL_SHARE: f64 = 0.3;
/// Fewer vertices than this: too few to count by distance, every vertex kept.
const MIN_VERTICES: usize = 100;
/// What lies past the core must be at least this share of the skin to be left out...
const MIN_LEFT_OUT: f64 = 0.1;
/// ...and reach at least this many times the core's radius from the bone.
const MIN_REACH: f64 = 2.0;
/// The core keeps at least this share of the skin.
const MIN_KEPT: f64 = 0.3;

/// The points of a head's skin within its core: the whole skin when it has no far, thin
/// appendage. The head bone is measured from as the segment from its joint to its farthest
/// child joint in the file, end bones included (`HeadTop_End`, `HeadNub`: where the file says
/// the skull ends); a head bone with no child keeps its whole skin, as there is nothing to
/// measure from (a skin counted from a lone joint cannot tell a sparse, low-poly body running
/// from it, a snake's, from an appendage).
pub fn core(points: Vec<DVec3>, (joint, tip): (DVec3, Option<DVec3>)) -> Vec<DVec3> {
    let Some(tip) = tip.filter(|t| *t != joint) else {
        return points;
    };
    if points.len() < MIN_VERTICES {
        return points;
    }
    let (dir, len) = ((tip - joint).normalize(), tip.distance(joint));
    let d: Vec<f64> = (points.iter())
        .map(|&p| super::fit::distance_to_segment(p, joint, dir, len))
        .collect();
    let Some(radius) = core_radius(&d) else {
        return points;
    };
    points
        .into_iter()
        .zip(d)
        .filter(|&(_, d)| d <= radius)
        .map(|(p, _)| p)
        .collect()
}

/// The distance at which the skull ends, when beyond it lies a far, thin appendage.
fn core_radius(d: &[f64]) -> Option<f64> {
    let s = sorted(d.iter().copied());
    let far = percentile(&s, 0.99);
    if far <= 0.0 {
        return None;
    }
    let width = far / BINS as f64;
    let mut counts = [0usize; BINS];
    for &x in &s {
        counts[((x / width) as usize).min(BINS - 1)] += 1;
    }
    let peak_bin = (0..BINS).max_by_key(|&k| counts[k])?;
    let floor = TAIL_SHARE * counts[peak_bin] as f64;
    let end = (peak_bin + 1..BINS).find(|&k| (counts[k] as f64) < floor)?;
    let radius = (end + 1) as f64 * width;
    let kept = s.partition_point(|&x| x <= radius) as f64 / s.len() as f64;
    let reach = percentile(&s, 0.95);
    ((MIN_KEPT..=1.0 - MIN_LEFT_OUT).contains(&kept) && reach >= MIN_REACH * radius)
        .then_some(radius)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vertices on a sphere of radius `r` round `c` (a Fibonacci lattice).
    fn ball(c: DVec3, r: f64, n: usize) -> Vec<DVec3> {
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        (0..n)
            .map(|k| {
                let y = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
                let ring = (1.0 - y * y).sqrt();
                let a = golden * k as f64;
                c + r * DVec3::new(ring * a.cos(), y, ring * a.sin())
            })
            .collect()
    }

    #[test]
    fn antlers_are_left_out_and_a_skull_alone_is_kept_whole() {
        let bone = (DVec3::ZERO, Some(DVec3::Y * 0.2));
        let skull = ball(DVec3::Y * 0.1, 0.1, 600);
        assert_eq!(core(skull.clone(), bone).len(), skull.len());
        // Two antlers: thin lines rising and spreading to 0.6 from the skull's top.
        let antlers: Vec<DVec3> = (0..400)
            .map(|k| {
                let t = (k / 2) as f64 / 200.0;
                let side = if k % 2 == 0 { 1.0 } else { -1.0 };
                DVec3::new(side * 0.5 * t, 0.2 + 0.4 * t, 0.0)
            })
            .collect();
        let mut head = skull.clone();
        head.extend(&antlers);
        let lone = (DVec3::ZERO, None);
        assert_eq!(
            core(head.clone(), lone).len(),
            head.len(),
            "no child: all kept"
        );
        // The antlers' roots, within the skull's reach of the bone, stay (at most a quarter).
        let kept = core(head, bone);
        assert!(
            kept.len() >= skull.len() && kept.len() <= skull.len() + antlers.len() / 4,
            "kept {} of {} skull + {} antler vertices",
            kept.len(),
            skull.len(),
            antlers.len()
        );
    }

    #[test]
    fn an_elongated_head_along_its_bone_is_kept_whole() {
        // A horse's head: a long snout along the bone, every vertex near it.
        let bone = (DVec3::ZERO, Some(DVec3::Z * 0.6));
        let snout: Vec<DVec3> = (0..800)
            .map(|k| {
                let a = k as f64 * 0.37;
                let z = 0.6 * (k as f64 / 800.0);
                let r = 0.12 - 0.06 * (z / 0.6);
                DVec3::new(r * a.cos(), r * a.sin(), z)
            })
            .collect();
        assert_eq!(core(snout.clone(), bone).len(), snout.len());
    }
}
