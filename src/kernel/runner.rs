//! `tsh kernel --connection-file F`: bind the sockets, then run the
//! interpreter on this thread (its values hold `Rc`s and never leave it),
//! answering shell requests in the order they came.

use std::cell::{Cell, RefCell};
use std::process::ExitCode;
use std::rc::Rc;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use tsh::interp::{Buffer, Interp, Output};
use tsh::teach::picture::Figure;

use super::connection::Connection;
use super::shell::{Kernel, handle};
use super::sockets::{self, Outgoing};
use super::wire::Message;

/// Where the interpreter's output goes in a kernel: stream messages with the
/// request being answered as parent (and a copy kept for `:save`).
struct KernelOut {
    out: UnboundedSender<Outgoing>,
    session: String,
    parent: Rc<RefCell<Value>>,
    quiet: Rc<Cell<bool>>,
    captured: Buffer,
}

impl KernelOut {
    fn stream(&mut self, name: &'static str, text: &str) {
        self.captured.write_str(text);
        if self.quiet.get() || text.is_empty() {
            return;
        }
        let _ = self.out.send(Outgoing::Stream {
            parent_header: self.parent.borrow().clone(),
            name,
            text: text.to_string(),
        });
    }
}

impl Output for KernelOut {
    fn write_str(&mut self, s: &str) {
        self.stream("stdout", s);
    }

    fn write_warning(&mut self, s: &str) {
        self.stream("stderr", s);
    }

    /// As tqdm in a notebook's plain mode: stderr stream text whose `\r`
    /// overwrites the last drawing. Not kept for `:save`.
    fn write_progress(&mut self, line: &str, last: bool) {
        if self.quiet.get() {
            return;
        }
        let text = if last {
            format!("{line}\n")
        } else {
            line.to_string()
        };
        let _ = self.out.send(Outgoing::Stream {
            parent_header: self.parent.borrow().clone(),
            name: "stderr",
            text,
        });
    }

    /// A picture is a display_data: the drawing as text and, where one can be
    /// drawn, a PNG.
    fn write_figure(&mut self, shown: &str, plain: &str, figure: &Figure) {
        self.captured.write_str(plain);
        if self.quiet.get() {
            return;
        }
        let mut data = json!({"text/plain": shown.trim_end_matches('\n')});
        let mut metadata = json!({});
        if let Some(png) = super::figure::png(figure) {
            data["image/png"] = json!(super::png::base64(&png.bytes));
            metadata["image/png"] = json!({"width": png.width, "height": png.height});
        }
        let parent = self.parent.borrow().clone();
        let m = Message::publish(
            &parent,
            &self.session,
            "display_data",
            json!({"data": data, "metadata": metadata, "transient": {}}),
        );
        let _ = self.out.send(Outgoing::IoPub(m));
    }
}

pub fn run(connection_file: &std::path::Path) -> ExitCode {
    let conn = match Connection::read(connection_file) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error[io]: {e}");
            return ExitCode::from(1);
        }
    };
    let session = super::wire::new_id();
    let (out, requests) = match sockets::start(&conn, session.clone()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error[io]: {e}");
            return ExitCode::from(1);
        }
    };
    // SIGINT interrupts the running cell and nothing more.
    tsh::interrupt::install_request_only_handler();
    exit_with_parent();
    let parent = Rc::new(RefCell::new(json!({})));
    let quiet = Rc::new(Cell::new(false));
    let captured = Buffer::default();
    let mut interp = Interp::new(Box::new(KernelOut {
        out: out.clone(),
        session: session.clone(),
        parent: parent.clone(),
        quiet: quiet.clone(),
        captured: captured.clone(),
    }));
    interp.color = false;
    interp.terminal = false;
    let mut kernel = Kernel {
        interp,
        out,
        session,
        parent,
        quiet,
        captured,
        execution_count: 0,
        history: vec![],
    };
    // The socket thread holds the sender; this ends only if it is gone.
    while let Ok(req) = requests.recv() {
        // tsh's errors are values; a panic would be a bug in tsh, and it must
        // not take the session (and every variable) down with it.
        let header = req.header.clone();
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            handle(&mut kernel, req, &requests)
        }));
        if answered.is_err() {
            sockets::log("a request failed inside tsh (a bug); the kernel goes on");
            let idle = Message::publish(
                &header,
                &kernel.session,
                "status",
                json!({"execution_state": "idle"}),
            );
            let _ = kernel.out.send(Outgoing::IoPub(idle));
        }
    }
    ExitCode::SUCCESS
}

/// End when the process that started the kernel is gone (as ipykernel's
/// parent poller does): a client killed without a shutdown_request must not
/// leave the kernel running forever.
fn exit_with_parent() {
    // SAFETY: getppid cannot fail and has no preconditions.
    let parent = unsafe { libc::getppid() };
    if parent <= 1 {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("tsh-kernel-parent".into())
        .spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
                // SAFETY: as above.
                if unsafe { libc::getppid() } != parent {
                    std::process::exit(0);
                }
            }
        });
}
