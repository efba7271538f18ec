//! "Auto-tune…": the tune goals and a time budget in a window; Run searches on a background
//! thread (the editor stays live), with a progress bar showing the best score so far and its
//! figures, and Cancel; Apply writes the tuned gains as one undo step through
//! [`EditorState::execute`]; a before/after table shows what changed.

use super::state::EditorState;
use crate::document::Document;
use crate::tune::{self, Figures, Goals, Options, Outcome, Progress};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// A search running on its own thread.
struct Job {
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<Option<Progress>>>,
    done: mpsc::Receiver<Result<Outcome, String>>,
    /// The document revision it tunes: applying to a changed document is refused.
    revision: u64,
}

/// The dialog's state.
pub struct TuneDialog {
    pub open: bool,
    survive: (bool, f64),
    fall: (bool, f64),
    assist: (bool, f64),
    clip: Option<String>,
    clips: Vec<String>,
    pub budget_s: f64,
    seed: u64,
    /// Measure each direction's push limits (bisection) before and after; None: as the goals
    /// call for (with a push goal; [`tune::Goals::report_bisect`]).
    limits: Option<bool>,
    job: Option<Job>,
    /// The last finished search and the revision it was made for.
    result: Option<(Outcome, u64)>,
    pub last: Option<String>,
}

impl Default for TuneDialog {
    fn default() -> Self {
        Self {
            open: false,
            survive: (true, 0.5),
            fall: (false, 1.5),
            assist: (false, 0.0),
            clip: None,
            clips: Vec::new(),
            budget_s: tune::DEFAULT_BUDGET_S,
            seed: 1,
            limits: None,
            job: None,
            result: None,
            last: None,
        }
    }
}

fn goal_row(ui: &mut egui::Ui, label: &str, (on, v): &mut (bool, f64), unit: &str, max: f64) {
    ui.horizontal(|ui| {
        ui.checkbox(on, label);
        let l = ui.label(unit);
        ui.add_enabled(
            *on,
            egui::DragValue::new(v)
                .range(0.0..=max)
                .speed(0.01)
                .max_decimals(2),
        )
        .labelled_by(l.id);
    });
}

impl TuneDialog {
    /// Opens the dialog (from the menu), reading the document's clip names.
    pub fn open(&mut self, doc: &Document) {
        self.open = true;
        self.clips = doc
            .load_animations()
            .map(|a| a.clips.into_iter().map(|c| c.name).collect())
            .unwrap_or_default();
        if self.clip.as_ref().is_some_and(|c| !self.clips.contains(c)) {
            self.clip = None;
        }
    }

    /// True while a search runs.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    fn options(&self) -> Options {
        let pick = |(on, v): (bool, f64)| on.then_some(v);
        Options {
            goals: Goals {
                survive_dv_m_s: pick(self.survive),
                fall_dv_m_s: pick(self.fall),
                clip: self.clip.clone(),
                assist_max: pick(self.assist),
            },
            budget_s: self.budget_s,
            seed: self.seed,
            bisect: self
                .limits
                .map(|on| if on { tune::REPORT_BISECT } else { 0 }),
        }
    }

    /// Starts the search on a background thread.
    pub fn start(&mut self, st: &EditorState) {
        if self.job.is_some() {
            return;
        }
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(None));
        let (doc, opts) = (st.doc.clone(), self.options());
        let (c, p) = (cancel.clone(), progress.clone());
        std::thread::spawn(move || {
            let report = |x: &Progress| {
                if let Ok(mut slot) = p.lock() {
                    *slot = Some(x.clone());
                }
            };
            let r = tune::tune(&doc, &opts, &c, &report).map_err(|e| e.to_string());
            tx.send(r).ok();
        });
        self.result = None;
        self.job = Some(Job {
            cancel,
            progress,
            done: rx,
            revision: st.doc.revision(),
        });
    }

    /// Collects a finished search.
    fn poll(&mut self, st: &mut EditorState) {
        let Some(job) = &self.job else { return };
        let msg = match job.done.try_recv() {
            Err(mpsc::TryRecvError::Empty) => return,
            Err(mpsc::TryRecvError::Disconnected) => "auto-tune: the search stopped".to_string(),
            Ok(Err(e)) => format!("auto-tune: {e}"),
            Ok(Ok(o)) => {
                let m = format!(
                    "auto-tune: {} evaluations ({:.1}/s), score {:.3} -> {:.3}{}",
                    o.search.evaluations,
                    o.evaluations_per_s,
                    o.search.start_score,
                    o.search.score,
                    if o.search.cancelled {
                        " (cancelled)"
                    } else {
                        ""
                    }
                ) + o.rejected.as_ref().map_or("", |_| {
                    "; not applied: the best gains fell standing within 10 s, the current ones stand"
                }) + &o.over_budget().map_or(String::new(), |m| format!("; {m}"))
                    + &o.time_scale_note().map_or(String::new(), |m| format!("; {m}"))
                    + &o.knockout_note().map_or(String::new(), |m| format!("; {m}"))
                    + &match o.unmet.is_empty() {
                        true => String::new(),
                        false => format!("; goals not met: {}", o.unmet.join(", ")),
                    };
                self.result = Some((o, job.revision));
                m
            }
        };
        self.job = None;
        st.status = msg.clone();
        self.last = Some(msg);
    }

    /// Applies the last result as one undo step.
    pub fn apply(&mut self, st: &mut EditorState) {
        let Some((o, rev)) = &self.result else { return };
        let msg = match &o.edit {
            None => "auto-tune: nothing better than the current gains was found".to_string(),
            Some(_) if *rev != st.doc.revision() => {
                "auto-tune: the document changed since the search; run it again".to_string()
            }
            Some(edit) => match st.execute(edit.clone(), None, "auto-tuned gains applied") {
                Ok(()) => "auto-tuned gains applied (Ctrl+Z undoes)".to_string(),
                Err(e) => format!("auto-tune refused: {e}"),
            },
        };
        st.status = msg.clone();
        self.last = Some(msg);
    }

    /// Draws the window while open; polls the search every frame.
    pub fn show(&mut self, ctx: &egui::Context, st: &mut EditorState) {
        self.poll(st);
        if self.job.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if !self.open {
            return;
        }
        let mut open = true;
        let (mut run, mut apply) = (false, false);
        egui::Window::new("Auto-tune")
            .open(&mut open)
            .collapsible(false)
            .resizable(true)
            .show(ctx, |ui| {
                ui.add_enabled_ui(self.job.is_none(), |ui| self.goals_ui(ui));
                ui.separator();
                ui.horizontal(|ui| {
                    if let Some(job) = &self.job {
                        if ui.button("Cancel").clicked() {
                            job.cancel.store(true, Ordering::Relaxed);
                        }
                    } else {
                        run = ui.button("Run").clicked();
                        let can = self.result.as_ref().is_some_and(|(o, _)| o.edit.is_some());
                        apply = ui.add_enabled(can, egui::Button::new("Apply")).clicked();
                    }
                });
                self.progress_ui(ui);
                if let Some((o, _)) = &self.result {
                    table(ui, &o.before, &o.after);
                    for goal in &o.unmet {
                        ui.colored_label(ui.visuals().warn_fg_color, format!("Not met: {goal}"));
                    }
                }
                if let Some(l) = &self.last {
                    ui.weak(l);
                }
            });
        if run {
            self.start(st);
        }
        if apply {
            self.apply(st);
        }
        self.open &= open;
    }

    fn goals_ui(&mut self, ui: &mut egui::Ui) {
        goal_row(ui, "Survive pushes", &mut self.survive, "Δv m/s", 5.0);
        goal_row(ui, "Fall from pushes", &mut self.fall, "Δv m/s ", 5.0);
        goal_row(ui, "Assist at most", &mut self.assist, "scale 0..1", 1.0);
        ui.horizontal(|ui| {
            let l = ui.label("Track clip");
            egui::ComboBox::from_id_salt("tune_clip")
                .selected_text(self.clip.as_deref().unwrap_or("none"))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.clip, None, "none");
                    for c in &self.clips {
                        ui.selectable_value(&mut self.clip, Some(c.clone()), c);
                    }
                })
                .response
                .labelled_by(l.id);
        });
        ui.weak(
            "Always: stand 10 s, back within 5° of upright in 2 s, limits within 2°, least effort",
        );
        ui.horizontal(|ui| {
            let l = ui.label("Time budget (s)");
            ui.add(
                egui::DragValue::new(&mut self.budget_s)
                    .range(0.0..=600.0)
                    .speed(1.0),
            )
            .labelled_by(l.id);
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(l.id);
        });
        // Until ticked or cleared, it follows the goals: on with a push goal.
        let pushes = self.survive.0 || self.fall.0;
        let mut limits = self.limits.unwrap_or(pushes);
        if ui
            .checkbox(&mut limits, "Measure push limits per direction")
            .changed()
        {
            self.limits = Some(limits);
        }
    }

    fn progress_ui(&self, ui: &mut egui::Ui) {
        let Some(job) = &self.job else { return };
        let p = job.progress.lock().ok().and_then(|p| p.clone());
        let Some(p) = p else {
            ui.add(egui::ProgressBar::new(0.0).text("measuring the current gains…"));
            return;
        };
        let frac = p.evaluations as f32 / p.planned.max(1) as f32;
        ui.add(egui::ProgressBar::new(frac.min(1.0)).text(format!(
            "{}/{} evaluations, best score {:.3} (start {:.3})",
            p.evaluations, p.planned, p.best_score, p.start_score
        )));
        ui.label(format!("best so far: {}", brief_line(&p.best)));
    }
}

/// A candidate's figures in one line, each goal's only where the search measured it.
fn brief_line(b: &tune::Brief) -> String {
    let mut parts = Vec::new();
    if b.survived.1 > 0 {
        parts.push(format!("survived {}/{}", b.survived.0, b.survived.1));
    }
    if b.felled.1 > 0 {
        parts.push(format!("felled {}/{}", b.felled.0, b.felled.1));
    }
    if let Some(m) = b.clip_median_rms_deg {
        parts.push(format!("clip median {m:.2}°"));
    }
    parts.push(format!("limit violation {:.1}°", b.max_violation_deg));
    parts.push(format!("work {:.0} J", b.work_j));
    parts.join(", ")
}

fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.2}"))
}

fn goal_count(f: &Figures, g: fn(&tune::report::DirectionFigures) -> Option<bool>) -> String {
    let of = f.directions.iter().filter(|d| g(d).is_some()).count();
    let n = f.directions.iter().filter(|d| g(d) == Some(true)).count();
    if of == 0 {
        "-".into()
    } else {
        format!("{n}/{of}")
    }
}

/// One row of the before/after table.
struct CompareRow {
    label: String,
    before: String,
    after: String,
}

impl CompareRow {
    fn new(label: impl Into<String>, before: String, after: String) -> Self {
        Self {
            label: label.into(),
            before,
            after,
        }
    }
}

fn table(ui: &mut egui::Ui, b: &Figures, a: &Figures) {
    let mut rows = goal_rows(b, a);
    rows.extend(direction_rows(b, a));
    rows.extend(clip_rows(b, a));
    rows.extend(effort_rows(b, a));
    rows.extend(group_rows(b, a));
    let strategies = b.strategy_rows().into_iter().zip(a.strategy_rows());
    rows.extend(
        strategies.map(|((label, before), (_, after))| CompareRow::new(label, before, after)),
    );
    egui::Grid::new("tune_table").striped(true).show(ui, |ui| {
        ui.strong("");
        ui.strong("Before");
        ui.strong("After");
        ui.end_row();
        for r in rows {
            ui.label(r.label);
            ui.label(r.before);
            ui.label(r.after);
            ui.end_row();
        }
    });
}

/// Standing, and how many push directions meet the survive and fall goals.
fn goal_rows(b: &Figures, a: &Figures) -> Vec<CompareRow> {
    let yes = |x: Option<bool>| match x {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    };
    vec![
        CompareRow::new(
            "Stands 10 s",
            yes(b.stands_10s).into(),
            yes(a.stands_10s).into(),
        ),
        CompareRow::new(
            "Survive goal",
            goal_count(b, |d| d.survives_goal),
            goal_count(a, |d| d.survives_goal),
        ),
        CompareRow::new(
            "Fall goal",
            goal_count(b, |d| d.falls_at_goal),
            goal_count(a, |d| d.falls_at_goal),
        ),
    ]
}

/// Per measured push direction: the speed change survived and the one that fells (m/s).
fn direction_rows(b: &Figures, a: &Figures) -> Vec<CompareRow> {
    let f = |d: &tune::report::DirectionFigures| {
        format!("{:.2} / {}", d.survived_dv_m_s, opt(d.fell_dv_m_s))
    };
    b.directions
        .iter()
        .zip(&a.directions)
        .filter(|(db, _)| db.survived_dv_m_s.is_finite())
        .map(|(db, da)| {
            CompareRow::new(
                format!("{} survives / fells (m/s)", db.direction),
                f(db),
                f(da),
            )
        })
        .collect()
}

/// The clip tracking error per joint group (deg).
fn clip_rows(b: &Figures, a: &Figures) -> Vec<CompareRow> {
    b.clip_rms_by_group
        .iter()
        .zip(&a.clip_rms_by_group)
        .map(|(gb, ga)| {
            CompareRow::new(
                format!("Clip RMS {} (°)", gb.group.name()),
                format!("{:.2}", gb.rms_deg),
                format!("{:.2}", ga.rms_deg),
            )
        })
        .collect()
}

/// Peak assist, standing effort and the worst limit violation.
fn effort_rows(b: &Figures, a: &Figures) -> Vec<CompareRow> {
    vec![
        CompareRow::new(
            "Peak assist (N·m)",
            opt(b.peak_assist_n_m),
            opt(a.peak_assist_n_m),
        ),
        CompareRow::new(
            "Effort, 10 s (J)",
            format!("{:.1}", b.effort_stand_j),
            format!("{:.1}", a.effort_stand_j),
        ),
        CompareRow::new(
            "Max limit violation (°)",
            format!("{:.2}", b.max_limit_violation_deg),
            format!("{:.2}", a.max_limit_violation_deg),
        ),
    ]
}

/// Per joint group: its natural frequency (Hz) and damping ratio.
fn group_rows(b: &Figures, a: &Figures) -> Vec<CompareRow> {
    let f = |g: &tune::params::GroupNatural| {
        format!("{} Hz, ζ {}", opt(g.freq_hz), opt(g.damping_ratio))
    };
    b.groups
        .iter()
        .zip(&a.groups)
        .map(|(gb, ga)| CompareRow::new(gb.group.name(), f(gb), f(ga)))
        .collect()
}
