//! Entry point: a subcommand runs the CLI; otherwise the editor opens.

use clap::Parser;
use ragdoll_tuner::cli::{self, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Behave like a Unix tool when piped into `head`: exit quietly on a closed pipe.
    // SAFETY: restoring the default signal disposition before any thread starts.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let mut args = Cli::parse();
    let policy = args.uri_policy();
    match args.command.take() {
        Some(command) => cli::run(command, policy),
        None => ragdoll_tuner::app::run(args.editor_options()),
    }
}
