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
        strip(
            &mut mesh,
            &column_spans(&self.points, transform, clip),
            width,
            self.color,
        );
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
