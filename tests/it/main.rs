//! The one integration-test binary: real files, the real document layer, the real CLI.

mod anatomy;
mod anatomy_ui;
mod animation;
mod cli;
mod codec;
mod common;
mod diagnostics;
mod editor;
mod editor_defects;
mod fields;
mod files_open;
mod follow;
mod generate;
mod gpu_skin;
mod hostile;
mod limit_schema;
mod limits;
mod load;
mod mannequin;
mod mirror;
mod redraw;
mod save;
mod sim;
mod validator;
mod workflow;
