//! The `tsh` command: the REPL, `tsh FILE.tsh`, `tsh -c CODE`, and `tsh kernel`.

mod kernel;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use tsh::interp::{Interp, Stdout};
use tsh::print::error::render;

#[derive(Parser)]
#[command(
    name = "tsh",
    version,
    about = "tsh, the tensor shell: PyTorch-style tensors at a prompt",
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A .tsh script to run.
    file: Option<std::path::PathBuf>,
    /// Arguments for the script: its `sys.argv[1:]`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<String>,
    /// Run this code instead of a file.
    #[arg(short = 'c', value_name = "CODE")]
    code: Option<String>,
    /// Show a transcript: each statement, then what it printed and its value.
    #[arg(long)]
    echo: bool,
    /// Never colour the output (NO_COLOR and non-terminal output do the same).
    #[arg(long)]
    no_color: bool,
    /// Presenter mode: show each statement of FILE, wait for a key, run it, show its output.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "code", "verify"])]
    lesson: Option<std::path::PathBuf>,
    /// Replay checked transcripts (statements followed by `#> output` lines) and
    /// report every difference; exit status 1 on a mismatch.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["file", "code"])]
    verify: Vec<std::path::PathBuf>,
    /// Run every op on DEVICE (e.g. cuda) and on the cpu with the same inputs and
    /// compare what they print: a first check of a new GPU or driver.
    #[arg(long, value_name = "DEVICE", conflicts_with_all = ["file", "code", "verify", "lesson"])]
    check_device: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Run as a Jupyter kernel (`--connection-file F`), or `install` / `uninstall` its kernelspec.
    Kernel(kernel::KernelArgs),
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

fn run(mut cli: Cli) -> ExitCode {
    if let Some(Command::Kernel(args)) = cli.command.take() {
        return kernel::main(args);
    }
    let color = use_color(&cli);
    // sys.argv as python3 gives it: the script (`-c` for code, empty at the prompt), then its arguments.
    let name = match (&cli.code, &cli.file) {
        (Some(_), _) => "-c".to_string(),
        (None, Some(path)) => path.display().to_string(),
        (None, None) => String::new(),
    };
    tsh::interp::builtins::pysys::set_argv(std::iter::once(name).chain(cli.args.clone()).collect());
    let mut interp = Interp::new(Box::new(Stdout));
    interp.color = color;
    if !cli.verify.is_empty() {
        return verify(&cli.verify);
    }
    if let Some(device) = &cli.check_device {
        return check_device(device);
    }
    if let Some(path) = &cli.lesson {
        let Some(src) = read(path) else {
            return ExitCode::from(1);
        };
        return match tsh::teach::lesson::present(&mut interp, &src, &path.display().to_string()) {
            Ok(tsh::teach::lesson::Ending::Interrupted) => ExitCode::from(130),
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprint!("{}", render(&e, &src, &path.display().to_string()));
                ExitCode::from(1)
            }
        };
    }
    let (src, origin) = match (&cli.code, &cli.file) {
        (Some(code), _) => (code.clone(), "<string>".to_string()),
        (None, Some(path)) => match read(path) {
            Some(s) => (s, path.display().to_string()),
            None => return ExitCode::from(1),
        },
        (None, None) => return tsh::repl::run(interp),
    };
    match tsh::script::run_script(&mut interp, &src, cli.echo) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.exit_status().is_some() => {
            let (status, text) = e.exit_status().unwrap_or((1, None));
            if let Some(t) = text {
                eprintln!("{t}");
            }
            ExitCode::from(status)
        }
        Err(e) => {
            eprint!("{}", render(&e, &src, &origin));
            ExitCode::from(1)
        }
    }
}

/// `tsh --check-device cuda`: each program's verdict, a summary, exit 1 on a
/// difference (2 when the device cannot be used at all).
fn check_device(name: &str) -> ExitCode {
    let device = match tsh::tensor::Device::parse(name).and_then(|d| d.check_available().map(|_| d))
    {
        Ok(d) => d,
        Err(e) => {
            eprint!("{}", render(&e, "", "<check-device>"));
            return ExitCode::from(2);
        }
    };
    println!("comparing {device} with the cpu (the same inputs, from the cpu's generator):");
    let report = tsh::teach::device_check::check(device, |what, same| {
        println!("{} {what}", if same { "ok  " } else { "DIFF" });
    });
    for f in &report.failures {
        println!("\n{f}");
    }
    println!(
        "\n{} of {} programs print the same on {device} as on the cpu",
        report.checked - report.failures.len(),
        report.checked
    );
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn read(path: &std::path::Path) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("error[io]: cannot read {}: {e}", path.display());
            None
        }
    }
}

/// `tsh --verify FILE...`: every file's report; exit 1 if any check differs.
fn verify(files: &[std::path::PathBuf]) -> ExitCode {
    let mut ok = true;
    for path in files {
        let Some(src) = read(path) else {
            ok = false;
            continue;
        };
        let mut report = String::new();
        if tsh::teach::transcript::verify(&src, &path.display().to_string(), &mut report).is_err() {
            ok = false;
        }
        print!("{report}");
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
