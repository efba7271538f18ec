//! Headless hooks: `--screenshot` (write the window as PNG after a few frames, then exit) and
//! `--bench-frames` (frame times of the full editor and of a bare window of the same size,
//! in alternating blocks, so both see the same load on a shared machine).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Frames rendered before the screenshot is taken (layout and GL resources settle).
const WARMUP_FRAMES: u32 = 8;

/// The bench alternates this many editor frames with as many bare-window frames...
const BENCH_BLOCK: usize = 50;
/// ...and leaves out the first frames of each block (the switch itself costs a redraw).
const BENCH_SETTLE: usize = 3;

/// What a headless run does.
pub enum Hook {
    Screenshot(Screenshot),
    Bench(FrameBench),
}

/// `--screenshot`: the window as PNG after [`WARMUP_FRAMES`].
pub struct Screenshot {
    path: PathBuf,
    frame: u32,
    result: Arc<Mutex<Option<Result<(), String>>>>,
}

/// `--bench-frames`: frame times of the editor and of a bare window, in alternating blocks.
pub struct FrameBench {
    frames: usize,
    full: Vec<f64>,
    bare: Vec<f64>,
    last: Option<Instant>,
    /// Whether the frame being drawn is a bare one, and its index in its block.
    bare_now: bool,
    in_block: usize,
    /// Per full frame, the editor's `ui()` time outside GL work (ms)...
    ui_cpu: Vec<f64>,
    /// ...and the GL work inside it: the viewport's buffer uploads (ms).
    ui_gl: Vec<f64>,
    /// The times of the full frames that drew the scene's image again (ms)...
    drawn: Vec<f64>,
    /// ...and whether the frame now being timed did.
    drawing: bool,
}

/// The result of a finished hook, shown on stdout/stderr by `run`.
pub type Outcome = Arc<Mutex<Option<Result<String, String>>>>;

impl Hook {
    pub fn screenshot(path: PathBuf) -> Self {
        Hook::Screenshot(Screenshot {
            path,
            frame: 0,
            result: Arc::default(),
        })
    }

    pub fn bench(frames: usize) -> Self {
        Hook::Bench(FrameBench {
            frames: frames.max(1),
            full: Vec::new(),
            bare: Vec::new(),
            last: None,
            bare_now: false,
            in_block: 0,
            ui_cpu: Vec::new(),
            ui_gl: Vec::new(),
            drawn: Vec::new(),
            drawing: false,
        })
    }

    pub fn is_bench(&self) -> bool {
        matches!(self, Hook::Bench(_))
    }

    /// True while the bench draws the bare window.
    pub fn bare(&self) -> bool {
        matches!(self, Hook::Bench(b) if b.bare_now)
    }

    /// Called once per frame, before the UI is built.
    pub fn frame(&mut self, ctx: &egui::Context, outcome: &Outcome) {
        ctx.request_repaint();
        match self {
            Hook::Screenshot(s) => s.frame(ctx, outcome),
            Hook::Bench(b) => b.frame(ctx, outcome),
        }
    }

    /// Records one full editor frame's `ui()` time: all of it, and the part spent in GL;
    /// and whether it drew the scene's image again.
    pub fn record_ui_cpu(&mut self, total_ms: f64, gl_ms: f64, drew_scene: bool) {
        if let Hook::Bench(b) = self {
            if !b.bare_now && b.full.len() < b.frames {
                b.ui_cpu.push(total_ms - gl_ms);
                b.ui_gl.push(gl_ms);
                b.drawing = drew_scene;
            }
        }
    }
}

impl Screenshot {
    fn frame(&mut self, ctx: &egui::Context, outcome: &Outcome) {
        self.frame += 1;
        if self.frame == WARMUP_FRAMES {
            let (p, r) = (self.path.clone(), self.result.clone());
            let cb = egui::ScreenshotCallback::new(move |img| {
                let res = write_png(&p, &img);
                if let Ok(mut slot) = r.lock() {
                    *slot = Some(res);
                }
            });
            ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(cb));
        }
        let done = self.result.lock().ok().and_then(|mut r| r.take());
        if let Some(res) = done {
            finish(
                ctx,
                outcome,
                res.map(|()| format!("wrote {}", self.path.display())),
            );
        } else if self.frame > WARMUP_FRAMES + 120 {
            finish(ctx, outcome, Err("the screenshot never arrived".into()));
        }
    }
}

impl FrameBench {
    fn frame(&mut self, ctx: &egui::Context, outcome: &Outcome) {
        self.record_previous_frame();
        self.drawing = false;
        self.choose_phase();
        if self.full.len() >= self.frames && self.bare.len() >= self.frames {
            finish(ctx, outcome, Ok(self.report().to_string()));
        }
    }

    /// The time since the last call is the previous frame's: kept past a block's settling
    /// frames, in the list of its phase.
    fn record_previous_frame(&mut self) {
        let now = Instant::now();
        let Some(prev) = self.last.replace(now) else {
            return;
        };
        let ms = (now - prev).as_secs_f64() * 1e3;
        let list = if self.bare_now {
            &mut self.bare
        } else {
            &mut self.full
        };
        if self.in_block >= BENCH_SETTLE && list.len() < self.frames {
            list.push(ms);
            if std::mem::take(&mut self.drawing) {
                self.drawn.push(ms);
            }
        }
        self.in_block += 1;
    }

    /// This frame's phase: switch at the end of a block, or when one side is done.
    fn choose_phase(&mut self) {
        let (full_done, bare_done) = (
            self.full.len() >= self.frames,
            self.bare.len() >= self.frames,
        );
        let switch = self.in_block >= BENCH_BLOCK
            || (self.bare_now && bare_done)
            || (!self.bare_now && full_done);
        if !switch || (full_done && bare_done) {
            return;
        }
        let next = if full_done {
            true
        } else if bare_done {
            false
        } else {
            !self.bare_now
        };
        if next != self.bare_now {
            self.in_block = 0;
        } else {
            self.in_block = BENCH_SETTLE;
        }
        self.bare_now = next;
    }

    fn report(&self) -> serde_json::Value {
        serde_json::json!({
            "frames": self.frames,
            "median_frame_ms": round(percentile(&self.full, 0.5)),
            "p95_frame_ms": round(percentile(&self.full, 0.95)),
            "bare_median_frame_ms": round(percentile(&self.bare, 0.5)),
            "ui_cpu_median_ms": round(percentile(&self.ui_cpu, 0.5)),
            "ui_gl_median_ms": round(percentile(&self.ui_gl, 0.5)),
            // How many of the editor's frames drew the 3D scene again, and their
            // median (null, not measured, when none did).
            "scene_drawn_frames": self.drawn.len(),
            "scene_drawn_median_frame_ms":
                (!self.drawn.is_empty()).then(|| round(percentile(&self.drawn, 0.5))),
        })
    }
}

fn finish(ctx: &egui::Context, outcome: &Outcome, res: Result<String, String>) {
    if let Ok(mut o) = outcome.lock() {
        if o.is_none() {
            *o = Some(res);
        }
    }
    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The `q` quantile (nearest rank) of unsorted samples.
pub fn percentile(samples: &[f64], q: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * q).round() as usize]
}

fn write_png(path: &Path, img: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = img.size;
    let file = std::fs::File::create(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = img.pixels.iter().flat_map(|c| c.to_array()).collect();
    writer.write_image_data(&bytes).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}
