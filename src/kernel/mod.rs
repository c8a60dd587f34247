//! tsh as a Jupyter kernel: `tsh kernel install`, and `tsh kernel
//! --connection-file F`, which speaks the Jupyter messaging protocol over
//! ZeroMQ. A front end like the REPL, so it lives with the command line and
//! uses the library as the REPL does.
//!
//! Threads: the interpreter runs where `main` put it (its values hold `Rc`s);
//! a socket thread owns the ZeroMQ sockets on a small tokio runtime and
//! answers control requests; the heartbeat has a thread of its own. Only
//! plain data (decoded messages, strings, JSON) crosses between them.

mod assist;
mod canvas;
mod chart;
mod connection;
mod figure;
mod font;
mod history;
mod image;
mod install;
mod png;
mod runner;
mod shell;
mod sockets;
mod wire;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct KernelArgs {
    /// The connection file Jupyter wrote (ports and key); runs the kernel.
    #[arg(long, value_name = "FILE")]
    connection_file: Option<PathBuf>,
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Subcommand)]
enum Action {
    /// Install the kernelspec (kernel.json and logos) where Jupyter finds it.
    Install(Where),
    /// Remove an installed kernelspec.
    Uninstall(Where),
}

#[derive(Args)]
struct Where {
    /// The user's Jupyter data directory (the default).
    #[arg(long, conflicts_with_all = ["sys_prefix", "prefix"])]
    user: bool,
    /// share/jupyter under the prefix of the python3 on PATH (a virtualenv or conda env).
    #[arg(long, conflicts_with = "prefix")]
    sys_prefix: bool,
    /// share/jupyter under this prefix.
    #[arg(long, value_name = "PREFIX")]
    prefix: Option<PathBuf>,
    /// The kernel's name (a folder under kernels/).
    #[arg(long, default_value = "tsh")]
    name: String,
}

impl Where {
    fn location(&self) -> install::Location {
        match (&self.prefix, self.sys_prefix) {
            (Some(p), _) => install::Location::Prefix(p.clone()),
            (None, true) => install::Location::SysPrefix,
            (None, false) => install::Location::User,
        }
    }
}

pub fn main(args: KernelArgs) -> ExitCode {
    match (args.action, args.connection_file) {
        (Some(Action::Install(w)), _) => install::run(true, &w.location(), &w.name),
        (Some(Action::Uninstall(w)), _) => install::run(false, &w.location(), &w.name),
        (None, Some(file)) => runner::run(&file),
        (None, None) => {
            eprintln!(
                "error[syntax]: tsh kernel needs --connection-file FILE (Jupyter passes it), or install / uninstall"
            );
            ExitCode::from(2)
        }
    }
}
