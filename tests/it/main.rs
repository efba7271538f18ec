//! The one integration-test binary: real files, the real document layer, the real CLI.

mod cli;
mod common;
mod diagnostics;
mod editor;
mod editor_defects;
mod gpu_skin;
mod hostile;
mod load;
mod mannequin;
mod save;
mod sim;
mod validator;
