//! The one integration-test binary: real files, the real document layer, the real CLI.

mod common;
mod diagnostics;
mod hostile;
mod load;
mod mannequin;
mod save;
mod validator;
mod cli;
mod sim;
mod editor;
