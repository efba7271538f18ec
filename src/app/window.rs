//! The editor window: opening it with the command line's options, and the exit code of a
//! headless run.

use super::headless::Outcome;
use super::{state, timeline_panel, EditorApp, Options};
use crate::document::Document;
use std::process::ExitCode;

/// Opens the editor window; returns when it closes.
pub fn run(opts: Options) -> ExitCode {
    let doc = match &opts.file {
        Some(p) => match Document::open_with(p, opts.policy) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => state::EditorState::mannequin_document(),
    };
    let headless = opts.screenshot.is_some() || opts.bench_frames.is_some();
    // Headless and scripted runs start from a clean layout and leave the user's settings alone.
    let scratch = headless || !opts.apply.is_empty();
    let outcome = Outcome::default();
    let out = outcome.clone();
    let scratch_store = scratch.then(scratch_storage_path);
    let res = eframe::run_native(
        "ragdoll-tuner",
        native_options(scratch_store.clone()),
        Box::new(move |cc| Ok(Box::new(start_app(cc, doc, &opts, out)))),
    );
    if let Some(p) = scratch_store {
        // Nothing of a scratch run is kept (a file left behind would be read by a later
        // run that got the same name).
        if let Err(e) = std::fs::remove_file(&p) {
            if e.kind() != std::io::ErrorKind::NotFound {
                eprintln!("note: could not remove {}: {e}", p.display());
            }
        }
    }
    if let Err(e) = res {
        eprintln!("error: the window could not be opened: {e}");
        return ExitCode::from(2);
    }
    let result = outcome.lock().ok().and_then(|mut o| o.take());
    exit_code(result, headless)
}

/// A file no earlier run left behind, for a scratch run's settings: named by the process
/// and the time (process ids come back: a layout stored under a reused one moved the panels
/// of a later screenshot).
fn scratch_storage_path() -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let name = format!("ragdoll-tuner-headless-{}-{nanos}", std::process::id());
    std::env::temp_dir().join(name)
}

/// The window: GL with a depth buffer; a scratch run keeps its settings in `scratch_store`
/// (a new file, removed when the window closes) and starts from the default layout.
fn native_options(scratch_store: Option<std::path::PathBuf>) -> eframe::NativeOptions {
    eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        depth_buffer: 24,
        persist_window: scratch_store.is_none(),
        persistence_path: scratch_store,
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("ragdoll-tuner")
            .with_drag_and_drop(true),
        ..Default::default()
    }
}

/// The app with the command line's clip, fast-forward, scrub and branch applied.
fn start_app(
    cc: &eframe::CreationContext<'_>,
    doc: Document,
    opts: &Options,
    outcome: Outcome,
) -> EditorApp {
    let mut app = EditorApp::new(cc, doc, opts);
    app.outcome = outcome;
    if let Some(c) = &opts.clip {
        app.select_clip(c);
    }
    if let Some(s) = opts.sim_seconds {
        app.fast_forward(s);
    }
    if let Some(t) = opts.scrub {
        app.timeline.pending.push(timeline_panel::Request::Scrub(t));
    }
    if let (Some(t), Some(s)) = (opts.branch_at, opts.sim_seconds) {
        app.branch_and_compare(t, &opts.branch_set, s);
    }
    // The frame benchmark measures the editor with the simulation running.
    app.sim.playing = opts.bench_frames.is_some();
    app
}

/// The exit code (and its line on stdout or stderr) of the hook's result.
fn exit_code(result: Option<Result<String, String>>, headless: bool) -> ExitCode {
    match result {
        Some(Ok(line)) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Some(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        None if headless => {
            eprintln!("error: the window closed before the headless hook finished");
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
