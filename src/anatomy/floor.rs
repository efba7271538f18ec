//! The floor a character's skin rests on, when it is not level: a file pitched or rolled as a
//! whole (its root node turned a few degrees) stands its feet on a sloping plane, and a
//! quadruped's front feet then hang above the level floor under its hind ones. Found as the
//! lower hull's plane under the middle of its support: the highest plane below every point, within
//! [`MAX_SLOPE`] of level; a plane within [`LEVEL_DEG`] of level is the level floor, so a
//! character standing level reads exactly as before.

use glam::DVec3;

/// The steepest slope (rise over run) looked for: about 20°.
const MAX_SLOPE: f64 = 0.36;
/// A floor tilted less than this (degrees) is level.
const LEVEL_DEG: f64 = 3.0;
/// The share of the height from the bottom whose lowest points are what the character
/// stands on.
const SUPPORT_SHARE: f64 = 0.25;
/// Cells per side of the grid whose lowest points stand for the skin.
const CELLS: usize = 16;

/// A plane y = height + slope_x · x + slope_z · z.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    pub height: f64,
    pub slope_x: f64,
    pub slope_z: f64,
}

impl Floor {
    /// The floor's height under `p`.
    pub fn at(&self, p: DVec3) -> f64 {
        self.height + self.slope_x * p.x + self.slope_z * p.z
    }
}

/// The sloping floor `points` rest on, or None when it is level (within [`LEVEL_DEG`]) or
/// there are too few points to tell.
pub fn sloping(points: &[DVec3]) -> Option<Floor> {
    let lows = lowest_per_cell(points)?;
    let mid = support_middle(points, &lows)?;
    let best = |center: (f64, f64), span: f64, step: f64| {
        let k = (span / step).round() as i32;
        let mut best: Option<(f64, Floor)> = None;
        for i in -k..=k {
            for j in -k..=k {
                let (sx, sz) = (center.0 + i as f64 * step, center.1 + j as f64 * step);
                let height = lows
                    .iter()
                    .map(|p| p.y - sx * p.x - sz * p.z)
                    .fold(f64::INFINITY, f64::min);
                let f = Floor {
                    height,
                    slope_x: sx,
                    slope_z: sz,
                };
                if best.is_none_or(|(v, _)| f.at(mid) > v) {
                    best = Some((f.at(mid), f));
                }
            }
        }
        best.map(|(_, f)| f)
    };
    let coarse = best((0.0, 0.0), MAX_SLOPE, 0.02)?;
    let fine = best((coarse.slope_x, coarse.slope_z), 0.02, 0.002)?;
    let tilt_deg = fine.slope_x.hypot(fine.slope_z).atan().to_degrees();
    (tilt_deg >= LEVEL_DEG).then_some(fine)
}

/// The middle of what the character stands on: the mean of the cells' lowest points in the
/// lower [`SUPPORT_SHARE`] of its vertical extent (its feet, not its back, whose middle a
/// rolled or pitched body carries off to one side of them).
fn support_middle(points: &[DVec3], lows: &[DVec3]) -> Option<DVec3> {
    let (bottom, top) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(b, t), p| {
            (b.min(p.y), t.max(p.y))
        });
    let line = bottom + SUPPORT_SHARE * (top - bottom);
    let feet: Vec<&DVec3> = lows.iter().filter(|p| p.y <= line).collect();
    (!feet.is_empty()).then(|| feet.iter().fold(DVec3::ZERO, |a, p| a + **p) / feet.len() as f64)
}

/// The lowest point in each cell of a grid over the points' footprint (None: under 16 points).
fn lowest_per_cell(points: &[DVec3]) -> Option<Vec<DVec3>> {
    if points.len() < 16 {
        return None;
    }
    let (lo, hi) = points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let size = (hi - lo).max(DVec3::splat(1e-9));
    let mut cells: Vec<Option<DVec3>> = vec![None; CELLS * CELLS];
    let index =
        |v: f64, lo: f64, size: f64| (((v - lo) / size * CELLS as f64) as usize).min(CELLS - 1);
    for p in points {
        let c = index(p.x, lo.x, size.x) * CELLS + index(p.z, lo.z, size.z);
        if cells[c].is_none_or(|q| p.y < q.y) {
            cells[c] = Some(*p);
        }
    }
    Some(cells.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four feet on a floor pitched 10°, and a body above: the floor is found; level, none.
    #[test]
    fn a_pitched_stance_is_found_and_a_level_one_is_level() {
        let slope = 10f64.to_radians().tan();
        let mut pts = Vec::new();
        for (x, z) in [(-0.3, -1.0), (0.3, -1.0), (-0.3, 1.0), (0.3, 1.0)] {
            for k in 0..8 {
                let y = z * slope + 0.01 * k as f64;
                pts.push(DVec3::new(x + 0.01 * k as f64, y, z));
            }
        }
        let body: Vec<DVec3> = (0..40)
            .map(|k| DVec3::new(0.0, 1.0 + 0.01 * k as f64, -1.0 + 0.05 * k as f64))
            .collect();
        let tilted: Vec<DVec3> = pts.iter().chain(&body).copied().collect();
        let f = sloping(&tilted).expect("a sloping floor");
        assert!((f.slope_z - slope).abs() < 0.005, "{f:?}");
        assert!(
            (f.at(DVec3::new(0.3, 0.0, 1.0)) - slope).abs() < 0.01,
            "{f:?}"
        );
        let level: Vec<DVec3> = tilted
            .iter()
            .map(|p| DVec3::new(p.x, p.y - p.z * slope, p.z))
            .collect();
        assert_eq!(sloping(&level), None);
    }
}
