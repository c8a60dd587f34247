//! The socket thread: a small tokio runtime that owns every ZeroMQ socket.
//! Shell requests go to the interpreter thread over a channel; control
//! requests (interrupt, shutdown) are answered here, so they work while a cell
//! runs; everything the interpreter sends back comes in on one channel and
//! leaves in that order. The heartbeat echoes on a thread of its own, so a
//! busy kernel still looks alive.

use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use zeromq::{
    PubSocket, RepSocket, RouterSendHalf, RouterSocket, Socket, SocketRecv, SocketSend, ZmqMessage,
};

use super::connection::Connection;
use super::wire::{Message, Signer};

/// What the interpreter (and the control handler) hand to the socket thread.
pub enum Outgoing {
    Shell(Message),
    Control(Message),
    IoPub(Message),
    /// Printed text: joined with what follows it for a moment, so a loop that
    /// prints a line at a time does not send a message per line.
    Stream {
        parent_header: Value,
        name: &'static str,
        text: String,
    },
    /// Send what is queued, then end the process.
    Exit,
}

/// How long printed text waits for more before it is published.
const STREAM_DELAY: Duration = Duration::from_millis(50);
/// How long the replies to a shutdown get to leave before the process ends.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// Bind every socket (heartbeat first), then serve them on their threads.
/// Returns once all are bound: the channel to send on, and the shell requests.
pub fn start(
    conn: &Connection,
    session: String,
) -> Result<(UnboundedSender<Outgoing>, std_mpsc::Receiver<Message>), String> {
    start_heartbeat(conn.endpoint(conn.hb_port))?;
    let (out_tx, out_rx) = tokio::sync::mpsc::unbounded_channel();
    let (shell_tx, shell_rx) = std_mpsc::channel();
    let (ready_tx, ready_rx) = std_mpsc::channel();
    let endpoints = [
        conn.endpoint(conn.shell_port),
        conn.endpoint(conn.control_port),
        conn.endpoint(conn.stdin_port),
        conn.endpoint(conn.iopub_port),
    ];
    let signer = Arc::new(Signer::new(conn.key.as_bytes()));
    let control_tx = out_tx.clone();
    std::thread::Builder::new()
        .name("tsh-kernel-io".into())
        .spawn(move || {
            let rt = match runtime() {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            rt.block_on(async move {
                let sockets = match bind(&endpoints).await {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                serve(sockets, signer, session, shell_tx, control_tx, out_rx).await;
            });
        })
        .map_err(|e| format!("cannot start the socket thread: {e}"))?;
    ready_rx
        .recv()
        .map_err(|_| "the socket thread ended before binding".to_string())??;
    Ok((out_tx, shell_rx))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the socket runtime: {e}"))
}

struct Sockets {
    shell: RouterSocket,
    control: RouterSocket,
    stdin: RouterSocket,
    iopub: PubSocket,
}

async fn bind(endpoints: &[String; 4]) -> Result<Sockets, String> {
    let fail = |what: &str, e: zeromq::ZmqError| format!("cannot bind the {what} socket: {e}");
    let mut shell = RouterSocket::new();
    shell
        .bind(&endpoints[0])
        .await
        .map_err(|e| fail("shell", e))?;
    let mut control = RouterSocket::new();
    control
        .bind(&endpoints[1])
        .await
        .map_err(|e| fail("control", e))?;
    let mut stdin = RouterSocket::new();
    stdin
        .bind(&endpoints[2])
        .await
        .map_err(|e| fail("stdin", e))?;
    let mut iopub = PubSocket::new();
    iopub
        .bind(&endpoints[3])
        .await
        .map_err(|e| fail("iopub", e))?;
    Ok(Sockets {
        shell,
        control,
        stdin,
        iopub,
    })
}

/// The heartbeat: a REP socket that sends back whatever it gets.
fn start_heartbeat(endpoint: String) -> Result<(), String> {
    let (ready_tx, ready_rx) = std_mpsc::channel();
    std::thread::Builder::new()
        .name("tsh-kernel-hb".into())
        .spawn(move || {
            let rt = match runtime() {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            rt.block_on(async move {
                let mut rep = RepSocket::new();
                if let Err(e) = rep.bind(&endpoint).await {
                    let _ = ready_tx.send(Err(format!("cannot bind the heartbeat socket: {e}")));
                    return;
                }
                let _ = ready_tx.send(Ok(()));
                loop {
                    match rep.recv().await {
                        Ok(ping) => {
                            if let Err(e) = rep.send(ping).await {
                                log(&format!("heartbeat: {e}"));
                            }
                        }
                        Err(e) => {
                            log(&format!("heartbeat: {e}"));
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                }
            });
        })
        .map_err(|e| format!("cannot start the heartbeat thread: {e}"))?;
    ready_rx
        .recv()
        .map_err(|_| "the heartbeat thread ended before binding".to_string())?
}

pub fn log(what: &str) {
    eprintln!("tsh kernel: {what}");
}

/// Receive from a ROUTER forever, handing each decoded message to `handle`;
/// what does not decode (or is badly signed) is logged and dropped.
async fn receive(
    mut socket: impl SocketRecv,
    what: &'static str,
    signer: Arc<Signer>,
    mut handle: impl FnMut(Message) -> bool,
) {
    loop {
        match socket.recv().await {
            Ok(m) => {
                let frames: Vec<&[u8]> = m.iter().map(|b| b.as_ref()).collect();
                match signer.decode(&frames) {
                    Ok(msg) => {
                        if !handle(msg) {
                            return;
                        }
                    }
                    Err(e) => log(&format!("dropped a message on {what}: {e}")),
                }
            }
            Err(e) => {
                log(&format!("{what}: {e}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn serve(
    sockets: Sockets,
    signer: Arc<Signer>,
    session: String,
    shell_tx: std_mpsc::Sender<Message>,
    control_tx: UnboundedSender<Outgoing>,
    mut out_rx: UnboundedReceiver<Outgoing>,
) {
    let (mut shell_send, shell_recv) = sockets.shell.split();
    let (mut control_send, control_recv) = sockets.control.split();
    let (_stdin_send, stdin_recv) = sockets.stdin.split();
    let mut iopub = sockets.iopub;
    tokio::spawn(receive(shell_recv, "shell", signer.clone(), move |m| {
        shell_tx.send(m).is_ok()
    }));
    let control_session = session.clone();
    tokio::spawn(receive(control_recv, "control", signer.clone(), move |m| {
        control(&m, &control_session, &control_tx);
        true
    }));
    // Nothing asks for input: stdin is bound because clients connect to it.
    tokio::spawn(receive(stdin_recv, "stdin", signer.clone(), |_| true));
    publish(
        &mut iopub,
        &signer,
        &Message::publish(
            &json!({}),
            &session,
            "status",
            json!({"execution_state": "starting"}),
        ),
    )
    .await;

    let mut pending: Option<(Value, &'static str, String)> = None;
    let mut deadline = tokio::time::Instant::now();
    loop {
        let next = tokio::select! {
            next = out_rx.recv() => next,
            _ = tokio::time::sleep_until(deadline), if pending.is_some() => {
                flush(&mut pending, &mut iopub, &signer, &session).await;
                continue;
            }
        };
        let Some(next) = next else { return };
        match next {
            Outgoing::Stream {
                parent_header,
                name,
                text,
            } => {
                if let Some((p, n, t)) = &mut pending
                    && *n == name
                    && p["msg_id"] == parent_header["msg_id"]
                {
                    t.push_str(&text);
                    continue;
                }
                flush(&mut pending, &mut iopub, &signer, &session).await;
                pending = Some((parent_header, name, text));
                deadline = tokio::time::Instant::now() + STREAM_DELAY;
            }
            other => {
                flush(&mut pending, &mut iopub, &signer, &session).await;
                match other {
                    Outgoing::Shell(m) => route(&mut shell_send, &signer, &m, "shell").await,
                    Outgoing::Control(m) => route(&mut control_send, &signer, &m, "control").await,
                    Outgoing::IoPub(m) => publish(&mut iopub, &signer, &m).await,
                    Outgoing::Exit => {
                        tokio::time::sleep(EXIT_GRACE).await;
                        std::process::exit(0);
                    }
                    Outgoing::Stream { .. } => {}
                }
            }
        }
    }
}

async fn flush(
    pending: &mut Option<(Value, &'static str, String)>,
    iopub: &mut PubSocket,
    signer: &Signer,
    session: &str,
) {
    if let Some((parent, name, text)) = pending.take() {
        let m = Message::publish(
            &parent,
            session,
            "stream",
            json!({"name": name, "text": text}),
        );
        publish(iopub, signer, &m).await;
    }
}

fn frames_to_zmq(frames: Vec<Vec<u8>>) -> Option<ZmqMessage> {
    let mut frames = frames.into_iter();
    let mut z = ZmqMessage::from(frames.next()?);
    for f in frames {
        z.push_back(f.into());
    }
    Some(z)
}

async fn publish(iopub: &mut PubSocket, signer: &Signer, m: &Message) {
    if let Some(z) = frames_to_zmq(signer.encode(m))
        && let Err(e) = iopub.send(z).await
    {
        log(&format!("iopub: {e}"));
    }
}

async fn route(socket: &mut RouterSendHalf, signer: &Signer, m: &Message, what: &str) {
    if m.identities.is_empty() {
        log(&format!(
            "a {} on {what} has no peer to go to",
            m.msg_type()
        ));
        return;
    }
    if let Some(z) = frames_to_zmq(signer.encode(m))
        && let Err(e) = socket.send(z).await
    {
        log(&format!("{what}: {e}"));
    }
}

/// A control request, answered on this thread with busy/idle around it.
fn control(req: &Message, session: &str, out: &UnboundedSender<Outgoing>) {
    let status = |state: &str| {
        Outgoing::IoPub(Message::publish(
            &req.header,
            session,
            "status",
            json!({"execution_state": state}),
        ))
    };
    let reply = |msg_type: &str, content: Value| {
        Outgoing::Control(Message::child(req, session, msg_type, content))
    };
    let kind = req.msg_type();
    let answer = match kind {
        "interrupt_request" => {
            tsh::interrupt::request();
            reply("interrupt_reply", json!({"status": "ok"}))
        }
        "shutdown_request" => {
            // A running cell stops at its next check; the process ends anyway.
            tsh::interrupt::request();
            let restart = req.content["restart"].as_bool().unwrap_or(false);
            reply(
                "shutdown_reply",
                json!({"status": "ok", "restart": restart}),
            )
        }
        "kernel_info_request" => reply("kernel_info_reply", super::shell::kernel_info()),
        other => {
            log(&format!("no answer to {other} on control"));
            return;
        }
    };
    let _ = out.send(status("busy"));
    let _ = out.send(answer);
    let _ = out.send(status("idle"));
    if kind == "shutdown_request" {
        let _ = out.send(Outgoing::Exit);
    }
}
