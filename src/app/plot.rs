//! Time-series plots (egui_plot): joint angle error per selected joint with its limit, torso
//! tilt and centre-of-mass height. Series arrive as plain slices; each is decimated to a min
//! and a max per pixel column of the plot before drawing.

use super::plot_line::{auto_color, ColumnLine};
use egui_plot::{Legend, Plot};

/// The timeline cursor's colour.
const CURSOR: egui::Color32 = egui::Color32::from_rgb(255, 210, 80);
/// A compared run's lines: light grey under the active run's colours.
const OVERLAY: egui::Color32 = egui::Color32::from_rgb(190, 190, 200);

/// Which plot a series belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlotKind {
    /// Joint angle error (deg), one line per joint.
    JointError,
    /// Torso tilt from vertical (deg).
    Tilt,
    /// Centre-of-mass height (m).
    ComHeight,
}

/// One time series: sample times (s, increasing) and values in the plot's unit.
#[derive(Debug, Clone)]
pub struct Series<'a> {
    pub name: String,
    pub plot: PlotKind,
    pub times: &'a [f64],
    pub values: &'a [f64],
    /// A limit drawn as a horizontal line.
    pub limit: Option<f64>,
    /// Set for a compared run's series drawn over the active run's: the suffix naming it.
    pub overlay: Option<String>,
}

/// Keeps the samples with t in [t0, t1], reduced to at most two points (min, max in time
/// order) per column of `columns` equal-width columns.
pub fn decimate(times: &[f64], values: &[f64], t0: f64, t1: f64, columns: usize) -> Vec<[f64; 2]> {
    let n = times.len().min(values.len());
    let bounds = column_bounds(&times[..n], t0, t1, columns);
    let mut out = Vec::new();
    decimate_into(&bounds, times, values, &mut out);
    out
}

/// Index ranges of the non-empty columns: `bounds[k]..bounds[k + 1]` is one column. When the
/// window holds at most two samples per column, every sample is its own "column".
pub fn column_bounds(times: &[f64], t0: f64, t1: f64, columns: usize) -> Vec<usize> {
    let start = times.partition_point(|&t| t < t0);
    let end = times.partition_point(|&t| t <= t1);
    let cols = columns.max(1);
    if end - start <= 2 * cols {
        return (start..=end).collect();
    }
    let width = (t1 - t0).max(1e-12) / cols as f64;
    let mut bounds = Vec::with_capacity(cols + 1);
    bounds.push(start);
    let mut i = start;
    while i < end {
        // The first sample past this column's right edge (times are sorted).
        let col = ((times[i] - t0) / width).floor();
        let j = i + 1 + times[i + 1..end].partition_point(|&t| ((t - t0) / width).floor() <= col);
        bounds.push(j);
        i = j;
    }
    bounds
}

/// Appends, per column of `bounds`, its min and max sample in time order.
pub fn decimate_into(bounds: &[usize], times: &[f64], values: &[f64], out: &mut Vec<[f64; 2]>) {
    for w in bounds.windows(2) {
        let (i, j) = (w[0], w[1].min(values.len()));
        if i >= j {
            continue;
        }
        let (mut lo, mut hi) = (i, i);
        for (k, &v) in values[i..j].iter().enumerate() {
            if v < values[lo] {
                lo = i + k;
            }
            if v > values[hi] {
                hi = i + k;
            }
        }
        let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        out.push([times[a], values[a]]);
        if b != a {
            out.push([times[b], values[b]]);
        }
    }
}

/// Plot panel state.
pub struct PlotPanel {
    /// Rolling window length (s).
    pub window: f64,
    /// Frozen at this end time while paused.
    pub paused_at: Option<f64>,
    /// Plot every joint instead of the selected one.
    pub all_joints: bool,
    /// The timeline's moment (s), drawn as a vertical line; the window follows it.
    pub cursor: Option<f64>,
    /// Set by [`Self::ui`] when a plot was clicked: the time clicked (s).
    pub clicked_at: Option<f64>,
    /// The lines drawn in the last frame, by legend name (a compared run's included).
    pub lines: Vec<String>,
    /// The value range each plot showed in the last frame (`[min, max]`, in [`PLOTS`] order).
    pub shown_values: [Option<[f64; 2]>; 3],
}

impl Default for PlotPanel {
    fn default() -> Self {
        Self {
            window: 10.0,
            paused_at: None,
            all_joints: false,
            cursor: None,
            clicked_at: None,
            lines: Vec::new(),
            shown_values: [None; 3],
        }
    }
}

/// One of the three plots side by side.
struct PlotSpec {
    id: &'static str,
    kind: PlotKind,
    y_label: &'static str,
    /// Values the plot always shows: a settling sag of a millimetre, or a tenth of a degree
    /// of sway, draws as the small thing it is, not as a plunge across the whole plot.
    always_shown: [f64; 2],
    /// Its share of the panel's width.
    width_share: f32,
}

const PLOTS: [PlotSpec; 3] = [
    PlotSpec {
        id: "angles",
        kind: PlotKind::JointError,
        y_label: "joint angle error (deg)",
        always_shown: [0.0, 2.0],
        width_share: 0.5,
    },
    PlotSpec {
        id: "tilt",
        kind: PlotKind::Tilt,
        y_label: "torso tilt (deg)",
        always_shown: [0.0, 5.0],
        width_share: 0.25,
    },
    PlotSpec {
        id: "com",
        kind: PlotKind::ComHeight,
        // The ground: a fall reads as the drop to it.
        y_label: "CoM height (m)",
        always_shown: [0.0, 0.0],
        width_share: 0.25,
    },
];

/// What every plot of a frame shares: the time window and the panel's size.
struct PlotFrame {
    t0_s: f64,
    t1_s: f64,
    panel_width_pt: f32,
    height_pt: f32,
    pixels_per_point: f32,
}

impl PlotPanel {
    /// The value range (`[min, max]`) the plot of `kind` showed in the last frame.
    pub fn values_shown(&self, kind: PlotKind) -> Option<[f64; 2]> {
        let i = PLOTS.iter().position(|p| p.kind == kind)?;
        self.shown_values[i]
    }

    /// Draws the plots; joint lines are those of `selected` unless "All joints" is on.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        series: &[Series],
        now: f64,
        selected: Option<&str>,
    ) -> Option<String> {
        let panel_width_pt = ui.available_width();
        let csv = self.controls(ui, series, now);
        if self.all_joints {
            joint_key(ui, series);
        }
        let (t0_s, t1_s) = self.time_window(now);
        self.clicked_at = None;
        self.lines.clear();
        let frame = PlotFrame {
            t0_s,
            t1_s,
            panel_width_pt,
            height_pt: ui.available_height().max(80.0),
            pixels_per_point: ui.ctx().pixels_per_point(),
        };
        ui.horizontal(|ui| {
            for (i, spec) in PLOTS.iter().enumerate() {
                self.shown_values[i] = Some(self.plot(ui, spec, &frame, series, selected));
            }
        });
        csv
    }

    /// The row above the plots; the CSV of every series when "Export CSV…" was clicked.
    fn controls(&mut self, ui: &mut egui::Ui, series: &[Series], now: f64) -> Option<String> {
        let mut csv = None;
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.all_joints, "All joints in plot");
            let mut paused = self.paused_at.is_some();
            if ui.checkbox(&mut paused, "Pause plot").changed() {
                self.paused_at = paused.then_some(now);
            }
            let l = ui.label("Window");
            ui.add(
                egui::DragValue::new(&mut self.window)
                    .range(1.0..=120.0)
                    .suffix(" s"),
            )
            .labelled_by(l.id);
            if ui.button("Export CSV…").clicked() {
                csv = Some(to_csv(series));
            }
            if series.is_empty() {
                ui.weak("No telemetry yet (simulation not connected).");
            }
        });
        csv
    }

    /// The window's start and end times (s): it ends now (or where paused) and follows the
    /// timeline cursor when that leaves it.
    fn time_window(&self, now: f64) -> (f64, f64) {
        let mut t1 = self.paused_at.unwrap_or(now).max(self.window);
        if let Some(c) = self.cursor.filter(|&c| c < t1 - self.window || c > t1) {
            t1 = (c + self.window / 2.0).max(self.window);
        }
        (t1 - self.window, t1)
    }

    /// Draws one plot; returns the value range it showed.
    fn plot(
        &mut self,
        ui: &mut egui::Ui,
        spec: &PlotSpec,
        frame: &PlotFrame,
        series: &[Series],
        selected: Option<&str>,
    ) -> [f64; 2] {
        let kind = spec.kind;
        let width = ((frame.panel_width_pt - 48.0) * spec.width_share).max(80.0);
        let columns = (width * frame.pixels_per_point) as usize;
        let mut plot = Plot::new(spec.id);
        // Every joint's name does not fit in the plot: they are listed above it.
        if !(self.all_joints && kind == PlotKind::JointError) {
            // No legend box over the data.
            plot = plot.legend(
                Legend::default()
                    .background_alpha(0.0)
                    .text_style(egui::TextStyle::Small),
            );
        }
        let shown = plot
            .width(width)
            .height(frame.height_pt)
            .x_axis_label("time (s)")
            .y_axis_label(spec.y_label)
            .include_x(frame.t0_s)
            .include_x(frame.t1_s)
            .include_y(spec.always_shown[0])
            .include_y(spec.always_shown[1])
            .allow_scroll(false)
            // The panel colour is the background: no second fill of the plot area.
            .show_background(false)
            .show(ui, |p| {
                self.add_lines(p, kind, frame, columns, series, selected)
            });
        if shown.response.clicked() {
            self.clicked_at = shown
                .response
                .interact_pointer_pos()
                .map(|pos| shown.transform.value_from_position(pos).x);
        }
        let any = series
            .iter()
            .any(|s| !s.values.is_empty() && drawn(s, kind, self.all_joints, selected));
        if !any {
            let none = !series
                .iter()
                .any(|s| s.plot == kind && !s.values.is_empty());
            placeholder(ui, shown.response.rect, kind, none);
        }
        let b = shown.transform.bounds();
        [b.min()[1], b.max()[1]]
    }

    /// The plot's lines, each decimated to its pixel columns, and the timeline cursor.
    fn add_lines(
        &mut self,
        p: &mut egui_plot::PlotUi,
        kind: PlotKind,
        frame: &PlotFrame,
        columns: usize,
        series: &[Series],
        selected: Option<&str>,
    ) {
        // Joint series share one time axis: find the columns once.
        let mut shared: Option<(*const f64, usize, Vec<usize>)> = None;
        let all_joints = self.all_joints;
        let wanted = series
            .iter()
            .filter(|s| drawn(s, kind, all_joints, selected));
        for (i, s) in wanted.enumerate() {
            let key = (s.times.as_ptr(), s.times.len());
            if shared.as_ref().is_none_or(|(p, n, _)| (*p, *n) != key) {
                let n = s.times.len().min(s.values.len());
                let b = column_bounds(&s.times[..n], frame.t0_s, frame.t1_s, columns);
                shared = Some((key.0, key.1, b));
            }
            let bounds = shared.as_ref().map(|(_, _, b)| b.as_slice()).unwrap_or(&[]);
            let mut pts = Vec::with_capacity(2 * bounds.len());
            decimate_into(bounds, s.times, s.values, &mut pts);
            let (name, color) = match &s.overlay {
                Some(run) => (format!("{}{run}", s.name), OVERLAY),
                None => (s.name.clone(), auto_color(i)),
            };
            self.lines.push(name.clone());
            p.add(ColumnLine::new(name, color, &pts, s.limit));
        }
        if let Some(c) = self.cursor {
            p.add(egui_plot::VLine::new("", c).color(CURSOR).width(1.5));
        }
    }
}

/// Whether `s` is drawn in the plot of `kind`: joint lines are the selected joint's unless
/// all joints are shown.
fn drawn(s: &Series, kind: PlotKind, all_joints: bool, selected: Option<&str>) -> bool {
    s.plot == kind
        && (kind != PlotKind::JointError || all_joints || selected == Some(s.name.as_str()))
}

/// What an empty plot will show, written across it.
fn placeholder(ui: &egui::Ui, rect: egui::Rect, kind: PlotKind, no_series: bool) {
    let text = match kind {
        PlotKind::JointError if !no_series => {
            "Select a joint (or tick All joints in plot) to see its angle error to the target"
        }
        PlotKind::JointError => {
            "Each joint's angle error to its target, with its limit, appears here while the ragdoll simulates"
        }
        PlotKind::Tilt => "Torso tilt, while simulating",
        PlotKind::ComHeight => "Centre-of-mass height, while simulating",
    };
    let color = ui.visuals().weak_text_color();
    // Narrow plots get a smaller font, so the text stays clear of the axes and the legend.
    let size = if rect.width() < 260.0 { 11.0 } else { 13.0 };
    let font = egui::FontId::proportional(size);
    let galley = ui
        .painter()
        .layout(text.into(), font, color, (rect.width() - 56.0).max(60.0));
    let at = rect.center() - galley.size() / 2.0 + egui::vec2(8.0, 6.0);
    ui.painter().galley(at, galley, color);
}

/// The joints' names in their line colours, wrapped above the plots (with every joint shown,
/// a legend inside the plot would not fit).
fn joint_key(ui: &mut egui::Ui, series: &[Series]) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 10.0;
        let joints = series
            .iter()
            .filter(|s| s.plot == PlotKind::JointError && s.overlay.is_none());
        for (i, s) in joints.enumerate() {
            let color = auto_color(i);
            let (swatch, _) = ui.allocate_exact_size(egui::vec2(10.0, 3.0), egui::Sense::hover());
            ui.painter().rect_filled(swatch, 0.0, color);
            ui.add_space(-6.0);
            ui.label(egui::RichText::new(&s.name).small().color(color));
        }
    });
}

/// All series as CSV rows: series,unit,time_s,value.
pub fn to_csv(series: &[Series]) -> String {
    let mut out = String::from("series,unit,time_s,value\n");
    for s in series {
        let unit = if s.plot == PlotKind::ComHeight {
            "m"
        } else {
            "deg"
        };
        for (t, v) in s.times.iter().zip(s.values) {
            out.push_str(&format!("{},{unit},{t},{v}\n", s.name));
        }
    }
    out
}
