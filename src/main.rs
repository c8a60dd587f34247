//! The `tsh` command: the REPL, `tsh FILE.tsh`, and `tsh -c CODE`.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use tsh::interp::{Interp, Stdout};
use tsh::print::error::render;

#[derive(Parser)]
#[command(
    name = "tsh",
    version,
    about = "tsh, the tensor shell: PyTorch-style tensors at a prompt"
)]
struct Cli {
    /// A .tsh script to run.
    file: Option<std::path::PathBuf>,
    /// Run this code instead of a file.
    #[arg(short = 'c', value_name = "CODE")]
    code: Option<String>,
    /// Show a transcript: each statement, then what it printed and its value.
    #[arg(long)]
    echo: bool,
    /// Never colour the output.
    #[arg(long)]
    no_color: bool,
}

/// The interpreter recurses over the AST; give it a deep stack so that the
/// nesting and recursion limits, not the thread's stack, decide what is too deep.
const STACK_BYTES: usize = 512 << 20;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error[internal]: the interpreter thread failed");
            ExitCode::from(2)
        }
    }
}

fn use_color(cli: &Cli) -> bool {
    !cli.no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

fn run(cli: Cli) -> ExitCode {
    let color = use_color(&cli);
    let mut interp = Interp::new(Box::new(Stdout));
    interp.color = color;
    let (src, origin) = match (&cli.code, &cli.file) {
        (Some(code), _) => (code.clone(), "<string>".to_string()),
        (None, Some(path)) => match std::fs::read_to_string(path) {
            Ok(s) => (s, path.display().to_string()),
            Err(e) => {
                eprintln!("error[io]: cannot read {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        (None, None) => return tsh::repl::run(interp),
    };
    match tsh::script::run_script(&mut interp, &src, cli.echo) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprint!("{}", render(&e, &src, &origin));
            ExitCode::from(1)
        }
    }
}
