//! A plot line drawn as one unfeathered triangle strip with two vertices per pixel column.
//!
//! egui_plot's own `Line` tessellates every segment with anti-aliased feathering (four
//! vertices and six triangles per point). Under a software GL renderer that triangle count,
//! not the pixels, is what a plot of every joint costs. Per pixel column this item keeps the
//! span the data covers there (joined to the previous column, so steep edges stay closed)
//! and draws it as a quad: what the pixels can show, at two triangles a column. A joint's
//! limit belongs to the same item, so the legend has one entry per joint and hiding the
//! joint hides its limit too.

use egui::epaint::{Color32, Mesh, Pos2, Rect, Shape};
use egui_plot::{PlotBounds, PlotGeometry, PlotItem, PlotItemBase, PlotPoint, PlotTransform};
use std::ops::RangeInclusive;

/// Line thickness (screen points); doubled while the legend entry is hovered.
const WIDTH: f32 = 1.5;

/// One time series with an optional horizontal limit line.
pub struct ColumnLine {
    base: PlotItemBase,
    color: Color32,
    points: Vec<PlotPoint>,
    limit: Option<f64>,
}

impl ColumnLine {
    /// `points` in increasing x (time).
    pub fn new(name: String, color: Color32, points: &[[f64; 2]], limit: Option<f64>) -> Self {
        Self {
            base: PlotItemBase::new(name),
            color,
            points: points.iter().map(|&p| PlotPoint::from(p)).collect(),
            limit,
        }
    }
}

/// The vertical span of the line in each pixel column, left to right: (x, top, bottom).
fn column_spans(
    points: &[PlotPoint],
    transform: &PlotTransform,
    clip: Rect,
) -> Vec<(f32, f32, f32)> {
    let mut spans: Vec<(f32, f32, f32)> = Vec::new();
    let mut prev_y: Option<f32> = None;
    for p in points {
        let pos = transform.position_from_point(p);
        if !pos.is_finite() {
            prev_y = None;
            continue;
        }
        if pos.x < clip.min.x - 1.0 || pos.x > clip.max.x + 1.0 {
            prev_y = Some(pos.y);
            continue;
        }
        let col = pos.x.floor() + 0.5;
        match spans.last_mut() {
            Some(s) if s.0 == col => {
                s.1 = s.1.min(pos.y);
                s.2 = s.2.max(pos.y);
            }
            _ => {
                // Join to where the line was, so a jump between columns leaves no gap.
                let from = prev_y.unwrap_or(pos.y);
                spans.push((col, pos.y.min(from), pos.y.max(from)));
            }
        }
        prev_y = Some(pos.y);
    }
    spans
}

/// Drops columns the strip would pass within `tol` pixels of anyway (the "sleeve" method:
/// the slopes from the last kept column that still pass every column since, within `tol`,
/// narrow as columns are added; when none is left the previous column is kept). A settled,
/// flat line costs two vertices instead of two per column; the error stays under `2 * tol`.
pub fn simplify(spans: &[(f32, f32, f32)], tol: f32) -> Vec<(f32, f32, f32)> {
    let Some((&first, rest)) = spans.split_first() else {
        return Vec::new();
    };
    let mut out = vec![first];
    let mut anchor = first;
    let mut prev = first;
    let full = [
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::INFINITY,
    ];
    let mut sleeve = full;
    for &s in rest {
        let narrowed = narrow(sleeve, anchor, s, tol);
        if narrowed[0] <= narrowed[1] && narrowed[2] <= narrowed[3] {
            sleeve = narrowed;
        } else {
            out.push(prev);
            anchor = prev;
            sleeve = narrow(full, anchor, s, tol);
        }
        prev = s;
    }
    if out.len() == 1 || out.last() != Some(&prev) {
        out.push(prev);
    }
    out
}

/// The slope ranges [top lo, top hi, bottom lo, bottom hi] from `anchor` that pass within
/// `tol` of `s`, intersected with `sleeve`.
fn narrow(sleeve: [f32; 4], anchor: (f32, f32, f32), s: (f32, f32, f32), tol: f32) -> [f32; 4] {
    let dx = (s.0 - anchor.0).max(1e-3);
    let slope = |y: f32, a: f32, d: f32| (y + d - a) / dx;
    [
        sleeve[0].max(slope(s.1, anchor.1, -tol)),
        sleeve[1].min(slope(s.1, anchor.1, tol)),
        sleeve[2].max(slope(s.2, anchor.2, -tol)),
        sleeve[3].min(slope(s.2, anchor.2, tol)),
    ]
}

/// Appends a strip through `spans`, each at least `width` tall.
fn strip(mesh: &mut Mesh, spans: &[(f32, f32, f32)], width: f32, color: Color32) {
    if spans.len() < 2 {
        return;
    }
    let base = mesh.vertices.len() as u32;
    for &(x, top, bottom) in spans {
        let grow = ((width - (bottom - top)) * 0.5).max(0.0);
        mesh.colored_vertex(Pos2::new(x, top - grow), color);
        mesh.colored_vertex(Pos2::new(x, bottom + grow), color);
    }
    for i in 0..spans.len() as u32 - 1 {
        let k = base + 2 * i;
        mesh.add_triangle(k, k + 1, k + 2);
        mesh.add_triangle(k + 1, k + 3, k + 2);
    }
}

impl PlotItem for ColumnLine {
    fn shapes(&self, ui: &egui::Ui, transform: &PlotTransform, shapes: &mut Vec<Shape>) {
        let width = if self.highlighted() {
            2.0 * WIDTH
        } else {
            WIDTH
        };
        let clip = ui.clip_rect().intersect(*transform.frame());
        let mut mesh = Mesh::default();
        if let Some(limit) = self.limit {
            let y = transform.position_from_point_y(limit);
            if y.is_finite() && clip.y_range().contains(y) {
                let faint = self.color.gamma_multiply(0.55);
                let x = [clip.min.x, clip.max.x];
                strip(&mut mesh, &[(x[0], y, y), (x[1], y, y)], 1.0, faint);
            }
        }
        let spans = simplify(&column_spans(&self.points, transform, clip), 0.25);
        strip(&mut mesh, &spans, width, self.color);
        if !mesh.is_empty() {
            shapes.push(Shape::mesh(mesh));
        }
    }

    fn initialize(&mut self, _x_range: RangeInclusive<f64>) {}

    fn color(&self) -> Color32 {
        self.color
    }

    fn geometry(&self) -> PlotGeometry<'_> {
        PlotGeometry::Points(&self.points)
    }

    fn bounds(&self) -> PlotBounds {
        let mut b = PlotBounds::NOTHING;
        for p in &self.points {
            b.extend_with(p);
        }
        if let Some(l) = self.limit {
            b.extend_with_y(l);
        }
        b
    }

    fn base(&self) -> &PlotItemBase {
        &self.base
    }

    fn base_mut(&mut self) -> &mut PlotItemBase {
        &mut self.base
    }
}

/// The colour of the `i`-th line of a plot (egui_plot's own automatic palette).
pub fn auto_color(i: usize) -> Color32 {
    let golden_ratio = std::f32::consts::GOLDEN_RATIO - 1.0;
    let h = (i as f32 * golden_ratio).fract();
    egui::ecolor::Hsva::new(h, 0.85, 0.5, 1.0).into()
}

#[cfg(test)]
mod tests {
    use super::simplify;

    #[test]
    fn a_flat_line_keeps_its_ends_and_a_step_keeps_its_corners() {
        let flat: Vec<_> = (0..600).map(|x| (x as f32, 10.0, 10.0)).collect();
        assert_eq!(simplify(&flat, 0.25).len(), 2);
        let step: Vec<_> = (0..100)
            .map(|x| {
                let y = if x < 50 { 10.0 } else { 40.0 };
                (x as f32, y, y)
            })
            .collect();
        let s = simplify(&step, 0.25);
        assert!(s.len() <= 5, "{s:?}");
        // Every column stays within 2 * tol of the simplified strip.
        for &(x, y, _) in &step {
            let i = s.partition_point(|p| p.0 <= x).clamp(1, s.len() - 1);
            let (a, b) = (s[i - 1], s[i]);
            let t = (x - a.0) / (b.0 - a.0);
            let on = a.1 + (b.1 - a.1) * t;
            assert!((on - y).abs() <= 0.5 + 1e-3, "x {x}: {on} vs {y}");
        }
    }
}
