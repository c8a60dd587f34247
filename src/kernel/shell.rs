//! Shell requests, answered on the interpreter thread one at a time: each is
//! bracketed by busy and idle on iopub, with everything it printed published
//! before idle.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::mpsc::Receiver;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use tsh::interp::{Interp, Value as TshValue};
use tsh::print::error::render;
use tsh::script::{Part, split_parts};

use super::sockets::{Outgoing, log};
use super::wire::Message;

/// The interpreter and what the kernel keeps about the session.
pub struct Kernel {
    pub interp: Interp,
    pub out: UnboundedSender<Outgoing>,
    pub session: String,
    /// The request being answered: what the interpreter prints goes out with it as parent.
    pub parent: Rc<RefCell<Value>>,
    /// A silent execute publishes nothing.
    pub quiet: Rc<Cell<bool>>,
    /// What the running cell printed, for `:save`.
    pub captured: tsh::interp::Buffer,
    pub execution_count: u64,
    /// The cells run with store_history, numbered.
    pub history: Vec<(u64, String)>,
}

impl Kernel {
    fn publish(&self, parent: &Message, msg_type: &str, content: Value) {
        let m = Message::publish(&parent.header, &self.session, msg_type, content);
        let _ = self.out.send(Outgoing::IoPub(m));
    }

    fn reply(&self, req: &Message, msg_type: &str, content: Value) {
        let m = Message::child(req, &self.session, msg_type, content);
        let _ = self.out.send(Outgoing::Shell(m));
    }
}

pub fn kernel_info() -> Value {
    let version = env!("CARGO_PKG_VERSION");
    json!({
        "status": "ok",
        "protocol_version": super::wire::PROTOCOL_VERSION,
        "implementation": "tsh",
        "implementation_version": version,
        "language_info": {
            "name": "tsh",
            "version": version,
            "mimetype": "text/x-python",
            "file_extension": ".tsh",
            "pygments_lexer": "python",
            "codemirror_mode": "python",
            "nbconvert_exporter": "python",
        },
        "banner": format!("tsh {version}, the tensor shell: PyTorch-style tensors. :help for help."),
        "help_links": [
            {"text": "PyTorch documentation", "url": "https://pytorch.org/docs/stable/index.html"},
        ],
        "debugger": false,
    })
}

/// Answer one shell request. When it is a cell that failed and asked
/// (stop_on_error, the default) that the cells queued after it not run, those
/// in `queued` are aborted before this request's idle, as ipykernel does, so a
/// client that waits for idle never sees its next cell aborted.
pub fn handle(k: &mut Kernel, req: Message, queued: &Receiver<Message>) {
    *k.parent.borrow_mut() = req.header.clone();
    k.publish(&req, "status", json!({"execution_state": "busy"}));
    let kind = req.msg_type().to_string();
    let answer = match kind.as_str() {
        "kernel_info_request" => Some(kernel_info()),
        "execute_request" => Some(execute(k, &req)),
        "complete_request" => Some(super::assist::complete(k, &req.content)),
        "inspect_request" => Some(super::assist::inspect(k, &req.content)),
        "is_complete_request" => Some(super::assist::is_complete(&req.content)),
        "history_request" => Some(super::history::history(k, &req.content)),
        "comm_info_request" => Some(json!({"status": "ok", "comms": {}})),
        "shutdown_request" => {
            let restart = req.content["restart"].as_bool().unwrap_or(false);
            Some(json!({"status": "ok", "restart": restart}))
        }
        other => {
            log(&format!("no answer to {other} on shell"));
            None
        }
    };
    let stop = kind == "execute_request"
        && answer.as_ref().is_some_and(|a| a["status"] == "error")
        && req.content["stop_on_error"].as_bool().unwrap_or(true)
        && !req.content["silent"].as_bool().unwrap_or(false);
    if let Some(content) = answer {
        let reply_type = kind.replace("_request", "_reply");
        k.reply(&req, &reply_type, content);
    }
    if stop {
        while let Ok(next) = queued.try_recv() {
            if next.msg_type() == "execute_request" {
                abort(k, &next);
            } else {
                handle(k, next, queued);
            }
        }
        *k.parent.borrow_mut() = req.header.clone();
    }
    k.publish(&req, "status", json!({"execution_state": "idle"}));
    if kind == "shutdown_request" {
        let _ = k.out.send(Outgoing::Exit);
    }
}

/// A cell queued behind one that failed: not run, as ipykernel does for
/// "Run All" (the notebook stops at the first error).
fn abort(k: &Kernel, req: &Message) {
    k.publish(req, "status", json!({"execution_state": "busy"}));
    k.reply(
        req,
        "execute_reply",
        json!({"status": "aborted", "execution_count": k.execution_count}),
    );
    k.publish(req, "status", json!({"execution_state": "idle"}));
}

fn execute(k: &mut Kernel, req: &Message) -> Value {
    let c = &req.content;
    let code = c["code"].as_str().unwrap_or("").to_string();
    let silent = c["silent"].as_bool().unwrap_or(false);
    let store = !silent && c["store_history"].as_bool().unwrap_or(true);
    if store {
        k.execution_count += 1;
    }
    let n = k.execution_count;
    if !silent {
        k.publish(
            req,
            "execute_input",
            json!({"code": code, "execution_count": n}),
        );
    }
    k.quiet.set(silent);
    k.captured.take();
    let result = run_cell(&mut k.interp, &code);
    let shown = k.captured.take();
    k.interp
        .record_entry(&code, &shown, result.as_ref().err().map(|f| &f.0));
    if store {
        k.history.push((n, code.clone()));
    }
    let reply = match result {
        Ok(value) => {
            let hidden = code.trim_end().ends_with(';');
            if let Some(v) = value.filter(|v| !matches!(v, TshValue::None))
                && !silent
                && !hidden
            {
                let data = display_data(&mut k.interp, &v);
                k.publish(
                    req,
                    "execute_result",
                    json!({"execution_count": n, "data": data, "metadata": {}}),
                );
            }
            let exprs = user_expressions(&mut k.interp, &c["user_expressions"]);
            json!({"status": "ok", "execution_count": n, "user_expressions": exprs, "payload": []})
        }
        Err(failed) => {
            let (e, src) = *failed;
            let text = render(&e, &src, &format!("In[{n}]"));
            k.interp.set_last_error(e.clone(), &src);
            let error = json!({
                "ename": &*e.py_class(),
                "evalue": e.message,
                "traceback": text.lines().collect::<Vec<_>>(),
            });
            if !silent {
                k.publish(req, "error", error.clone());
            }
            let mut reply = error;
            reply["status"] = json!("error");
            reply["execution_count"] = json!(n);
            reply
        }
    };
    k.quiet.set(false);
    reply
}

/// Run a cell as a script runs (code and `:command` lines), keeping the value
/// of its last statement when that is an expression. An error comes with the
/// text its span points into.
fn run_cell(
    interp: &mut Interp,
    code: &str,
) -> Result<Option<TshValue>, Box<(tsh::error::Error, String)>> {
    tsh::interrupt::clear();
    let mut value = None;
    for part in split_parts(code) {
        match part {
            Part::Code(src) => {
                if src.trim().is_empty() {
                    continue;
                }
                value = interp
                    .run_keep_last(&src)
                    .map_err(|e| (e, code.to_string()))?;
            }
            Part::Command(line) => {
                value = None;
                match tsh::repl::commands::dispatch(interp, line) {
                    Ok(tsh::repl::commands::Outcome::Quit) => break,
                    Ok(_) => {}
                    Err(e) => return Err(Box::new((e, line.to_string()))),
                }
            }
        }
    }
    Ok(value)
}

/// A value as a notebook shows it: PyTorch's repr as text; a tensor also as
/// HTML with tsh's footer line (shape, dtype, device) under it.
fn display_data(interp: &mut Interp, v: &TshValue) -> Value {
    let text = interp.repr_text(v);
    let mut data = json!({"text/plain": text});
    if matches!(
        v,
        TshValue::Tensor(_) | TshValue::Sparse(_) | TshValue::QTensor(_)
    ) {
        let echoed = tsh::print::value::echo(v, &interp.print_opts, false, &interp.globals);
        if let Some(footer) = echoed
            .strip_prefix(&text)
            .and_then(|f| f.strip_prefix('\n'))
        {
            data["text/html"] = json!(format!(
                "<pre style=\"margin:0\">{}</pre><pre style=\"margin:0;color:#888\">{}</pre>",
                escape_html(&text),
                escape_html(footer)
            ));
        }
    }
    data
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Each of `user_expressions` evaluated after the cell, as the protocol asks.
fn user_expressions(interp: &mut Interp, exprs: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for (name, expr) in exprs.as_object().into_iter().flatten() {
        let src = expr.as_str().unwrap_or("");
        let result = match interp.eval_src(src) {
            Ok(v) => {
                json!({"status": "ok", "data": {"text/plain": interp.repr_text(&v)}, "metadata": {}})
            }
            Err(e) => json!({
                "status": "error",
                "ename": &*e.py_class(),
                "evalue": e.message,
                "traceback": render(&e, src, name).lines().collect::<Vec<_>>(),
            }),
        };
        out.insert(name.clone(), result);
    }
    Value::Object(out)
}
