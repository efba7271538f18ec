//! The one integration-test binary: real files, the real document layer, the real CLI.

mod alloc;
mod anatomy;
mod anatomy_ui;
mod animation;
mod cli;
mod clips;
mod codec;
mod collapse;
mod commands;
mod common;
mod diagnostics;
mod doctor;
mod doctor_inertia;
mod doctor_live;
mod editor;
mod editor_defects;
mod fall_off_feet;
mod fields;
mod files_open;
mod follow;
mod friction;
mod gains;
mod generate;
mod generated_clean;
mod gpu_skin;
mod ground;
mod hip;
mod hostile;
mod knockout;
mod limit_schema;
mod limits;
mod load;
mod mannequin;
mod mirror;
mod pairs;
mod redraw;
mod save;
mod scene;
mod sim;
mod sleep;
mod step;
mod timeline;
mod tune;
mod tune_search;
mod tune_time;
mod validator;
mod workflow;

/// Counts each thread's heap allocations (`alloc.rs`: the editor's step against Rapier's).
#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;
