//! tsh as a Jupyter kernel, driven over ZeroMQ as a client would: a connection
//! file with free ports and a key, the built binary started as `tsh kernel
//! --connection-file F`, and every request a notebook makes. Every wait has a
//! timeout, so a broken kernel fails the test instead of hanging it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use hmac::{KeyInit, Mac};
use serde_json::{Value, json};
use zeromq::{DealerSocket, ReqSocket, Socket, SocketRecv, SocketSend, SubSocket, ZmqMessage};

const TSH: &str = env!("CARGO_BIN_EXE_tsh");
const KEY: &str = "a0436f6c-1916-498b-8eb9-e81ab9368e84";
/// Long enough for a loaded 2-core machine; a kernel that hangs still fails.
const WAIT: Duration = Duration::from_secs(20);

fn temp_dir(what: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tsh-kernel-test-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Ports the OS says are free now.
fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// The kernel process, killed if the test ends without shutting it down.
struct Kernel(Child);

impl Drop for Kernel {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Client {
    session: String,
    shell: DealerSocket,
    control: DealerSocket,
    iopub: SubSocket,
    hb: ReqSocket,
    counter: u64,
}

fn sign(parts: &[Vec<u8>]) -> String {
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(KEY.as_bytes()).unwrap();
    for p in parts {
        mac.update(p);
    }
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A received message: header, parent header and content (signature checked).
struct Msg {
    header: Value,
    parent: Value,
    content: Value,
}

impl Msg {
    fn kind(&self) -> &str {
        self.header["msg_type"].as_str().unwrap()
    }
    fn parent_id(&self) -> &str {
        self.parent["msg_id"].as_str().unwrap_or("")
    }
}

fn decode(m: ZmqMessage) -> Msg {
    let frames: Vec<Vec<u8>> = m.into_vec().into_iter().map(|b| b.to_vec()).collect();
    let at = frames
        .iter()
        .position(|f| f == b"<IDS|MSG>")
        .expect("delimiter");
    let parts = frames[at + 2..at + 6].to_vec();
    assert_eq!(
        String::from_utf8_lossy(&frames[at + 1]),
        sign(&parts),
        "signature"
    );
    let json = |i: usize| -> Value { serde_json::from_slice(&parts[i]).unwrap() };
    let header = json(0);
    assert_eq!(header["version"], "5.3");
    Msg {
        header,
        parent: json(1),
        content: json(3),
    }
}

async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    match tokio::time::timeout(WAIT, f).await {
        Ok(v) => v,
        Err(_) => panic!("timed out waiting for {what}"),
    }
}

/// A socket connected to `endpoint`, retried until the kernel, which may
/// still be starting, has bound it (a connection it resets is tried again).
async fn connected<S: Socket>(what: &str, endpoint: &str) -> S {
    let deadline = Instant::now() + WAIT;
    loop {
        let mut s = S::new();
        match within(what, s.connect(endpoint)).await {
            Ok(()) => return s,
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{what}: {e}"),
        }
    }
}

impl Client {
    async fn connect(ports: &[u16]) -> Client {
        let at = |p: u16| format!("tcp://127.0.0.1:{p}");
        let shell: DealerSocket = connected("shell", &at(ports[0])).await;
        let control: DealerSocket = connected("control", &at(ports[3])).await;
        let mut iopub: SubSocket = connected("iopub", &at(ports[1])).await;
        iopub.subscribe("").await.unwrap();
        let hb: ReqSocket = connected("heartbeat", &at(ports[4])).await;
        Client {
            session: "test-session".into(),
            shell,
            control,
            iopub,
            hb,
            counter: 0,
        }
    }

    fn frames(&mut self, msg_type: &str, content: Value) -> (String, ZmqMessage) {
        self.counter += 1;
        let id = format!("msg-{}", self.counter);
        let header = json!({"msg_id": id, "session": self.session, "username": "test",
            "date": "2025-01-01T00:00:00.000000Z", "msg_type": msg_type, "version": "5.3"});
        let parts: Vec<Vec<u8>> = [header, json!({}), json!({}), content]
            .iter()
            .map(|v| serde_json::to_vec(v).unwrap())
            .collect();
        let mut m = ZmqMessage::from(b"<IDS|MSG>".to_vec());
        m.push_back(sign(&parts).into_bytes().into());
        for p in parts {
            m.push_back(p.into());
        }
        (id, m)
    }

    async fn shell_request(&mut self, msg_type: &str, content: Value) -> String {
        let (id, m) = self.frames(msg_type, content);
        within("shell send", self.shell.send(m)).await.unwrap();
        id
    }

    async fn control_request(&mut self, msg_type: &str, content: Value) -> String {
        let (id, m) = self.frames(msg_type, content);
        within("control send", self.control.send(m)).await.unwrap();
        id
    }

    async fn shell_reply(&mut self, id: &str) -> Msg {
        let m = decode(within("a shell reply", self.shell.recv()).await.unwrap());
        assert_eq!(m.parent_id(), id, "the reply names its request");
        m
    }

    async fn control_reply(&mut self, id: &str) -> Msg {
        let m = decode(
            within("a control reply", self.control.recv())
                .await
                .unwrap(),
        );
        assert_eq!(m.parent_id(), id);
        m
    }

    /// What iopub published for request `id`, from busy to idle.
    async fn published(&mut self, id: &str) -> Vec<Msg> {
        let got = self.until_idle(id).await;
        assert_eq!(got[0].kind(), "status");
        assert_eq!(
            got[0].content["execution_state"], "busy",
            "busy comes first"
        );
        got
    }

    /// What iopub publishes for request `id` from now until its idle.
    async fn until_idle(&mut self, id: &str) -> Vec<Msg> {
        let mut got = vec![];
        loop {
            let m = decode(within("iopub", self.iopub.recv()).await.unwrap());
            if m.parent_id() != id {
                continue;
            }
            let idle = m.kind() == "status" && m.content["execution_state"] == "idle";
            got.push(m);
            if idle {
                break;
            }
        }
        got
    }

    /// A shell request, its reply, and what it published.
    async fn ask(&mut self, msg_type: &str, content: Value) -> (Msg, Vec<Msg>) {
        let id = self.shell_request(msg_type, content).await;
        let reply = self.shell_reply(&id).await;
        let published = self.published(&id).await;
        (reply, published)
    }

    async fn execute(&mut self, code: &str) -> (Msg, Vec<Msg>) {
        self.ask(
            "execute_request",
            json!({"code": code, "silent": false,
            "store_history": true, "user_expressions": {}, "allow_stdin": false}),
        )
        .await
    }
}

fn unbase64(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut out = vec![];
    for chunk in s.as_bytes().chunks(4) {
        let digits: Vec<u8> = chunk
            .iter()
            .filter(|&&c| c != b'=')
            .map(|&c| value(c))
            .collect();
        let n = digits
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend(&n.to_be_bytes()[1..digits.len()]);
    }
    out
}

fn stdout_of(published: &[Msg]) -> String {
    published
        .iter()
        .filter(|m| m.kind() == "stream" && m.content["name"] == "stdout")
        .map(|m| m.content["text"].as_str().unwrap())
        .collect()
}

fn result_of(published: &[Msg]) -> Option<String> {
    published
        .iter()
        .find(|m| m.kind() == "execute_result")
        .map(|m| {
            m.content["data"]["text/plain"]
                .as_str()
                .unwrap()
                .to_string()
        })
}

fn start_kernel(dir: &Path) -> (Kernel, Vec<u16>) {
    let ports = free_ports(5);
    let conn = json!({"shell_port": ports[0], "iopub_port": ports[1], "stdin_port": ports[2],
        "control_port": ports[3], "hb_port": ports[4], "ip": "127.0.0.1", "key": KEY,
        "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "tsh"});
    let file = dir.join("connection.json");
    std::fs::write(&file, conn.to_string()).unwrap();
    let child = Command::new(TSH)
        .args(["kernel", "--connection-file"])
        .arg(&file)
        .spawn()
        .unwrap();
    (Kernel(child), ports)
}

#[test]
fn a_client_drives_the_kernel_over_zeromq() {
    let dir = temp_dir("session");
    let (mut kernel, ports) = start_kernel(&dir);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = Client::connect(&ports).await;

        // kernel_info, asked until iopub is seen to carry its status: a SUB
        // socket misses what was published before its subscription arrived.
        let deadline = Instant::now() + WAIT;
        let info = loop {
            let id = c.shell_request("kernel_info_request", json!({})).await;
            let reply = c.shell_reply(&id).await;
            let seen = tokio::time::timeout(Duration::from_millis(500), c.published(&id)).await;
            if seen.is_ok() {
                break reply;
            }
            assert!(Instant::now() < deadline, "iopub never published a status");
        };
        assert_eq!(info.kind(), "kernel_info_reply");
        assert_eq!(info.content["protocol_version"], "5.3");
        assert_eq!(info.content["implementation"], "tsh");
        assert_eq!(info.content["language_info"]["name"], "tsh");
        assert_eq!(info.content["language_info"]["file_extension"], ".tsh");
        assert_eq!(info.content["language_info"]["pygments_lexer"], "python");

        // The heartbeat echoes.
        within("hb send", c.hb.send(ZmqMessage::from(b"ping".to_vec())))
            .await
            .unwrap();
        let echo = within("hb echo", c.hb.recv()).await.unwrap();
        assert_eq!(echo.get(0).unwrap().as_ref(), b"ping");

        // Printed text as a stream, the last expression's value as PyTorch's repr.
        let (reply, published) = c
            .execute("x = tensor([1., 2.])\nprint('hi', 1 + 1)\nx * 2")
            .await;
        assert_eq!(reply.content["status"], "ok");
        assert_eq!(reply.content["execution_count"], 1);
        let kinds: Vec<&str> = published.iter().map(Msg::kind).collect();
        assert_eq!(
            kinds,
            [
                "status",
                "execute_input",
                "stream",
                "execute_result",
                "status"
            ]
        );
        assert_eq!(
            published[1].content["code"]
                .as_str()
                .unwrap()
                .lines()
                .count(),
            3
        );
        assert_eq!(stdout_of(&published), "hi 2\n");
        assert_eq!(result_of(&published).as_deref(), Some("tensor([2., 4.])"));
        let html = published[3].content["data"]["text/html"].as_str().unwrap();
        assert!(html.contains("[2] float32 cpu"), "{html}");

        // An error: an `error` on iopub and an error reply; what ran before it stays.
        let (reply, published) = c.execute("y = 5\nundefined_name + 1").await;
        assert_eq!(reply.content["status"], "error");
        assert_eq!(reply.content["ename"], "NameError");
        assert_eq!(reply.content["execution_count"], 2);
        let tb: Vec<&str> = reply.content["traceback"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert!(tb[0].starts_with("error[name]"), "{tb:?}");
        assert!(tb.iter().any(|l| l.contains("In[2]:2:1")), "{tb:?}");
        assert!(
            published
                .iter()
                .any(|m| m.kind() == "error" && m.content["ename"] == "NameError")
        );
        let (reply, published) = c.execute("y + x.sum().item()").await;
        assert_eq!(reply.content["status"], "ok");
        assert_eq!(result_of(&published).as_deref(), Some("8.0"));

        // Pictures are display_data: a real PNG, and the terminal drawing as text.
        let (_, published) = c
            .execute(
                "imshow(arange(64.).reshape(8, 8))\nplot(sin(linspace(0, 6.28, 50)), title='sin')",
            )
            .await;
        let pictures: Vec<&Msg> = published
            .iter()
            .filter(|m| m.kind() == "display_data")
            .collect();
        assert_eq!(pictures.len(), 2);
        for p in pictures {
            let png = unbase64(p.content["data"]["image/png"].as_str().unwrap());
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            assert_eq!(&png[12..16], b"IHDR");
            let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
            let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
            assert_eq!(p.content["metadata"]["image/png"]["width"], width);
            assert_eq!(p.content["metadata"]["image/png"]["height"], height);
            assert!(png.ends_with(b"IEND\xaeB`\x82"));
            assert!(!p.content["data"]["text/plain"].as_str().unwrap().is_empty());
        }

        // progress() draws on stderr as tqdm does in a notebook: lines that
        // overwrite each other with \r, the last one ended by a newline.
        let (_, published) = c.execute("for i in progress(range(3)):\n    pass").await;
        let bar: String = published
            .iter()
            .filter(|m| m.kind() == "stream" && m.content["name"] == "stderr")
            .map(|m| m.content["text"].as_str().unwrap())
            .collect();
        assert!(bar.starts_with('\r'), "{bar:?}");
        assert!(
            bar.ends_with("3/3 [00:00<00:00, ") || bar.contains("| 3/3 ["),
            "{bar:?}"
        );
        assert!(bar.ends_with('\n'), "{bar:?}");

        // A trailing semicolon hides the value, as in IPython; silent runs publish nothing.
        let (_, published) = c.execute("y;").await;
        assert_eq!(result_of(&published), None);
        let (reply, published) = c
            .ask(
                "execute_request",
                json!({"code": "print('quiet')", "silent": true}),
            )
            .await;
        assert_eq!(reply.content["status"], "ok");
        assert_eq!(stdout_of(&published), "");

        // Completion: offsets in code points (é is two bytes).
        let (reply, published) = c
            .ask(
                "complete_request",
                json!({"code": "é = 1; zer", "cursor_pos": 10}),
            )
            .await;
        assert_eq!(published.len(), 2, "busy and idle");
        assert_eq!(reply.content["status"], "ok");
        assert_eq!(reply.content["cursor_start"], 7);
        assert_eq!(reply.content["cursor_end"], 10);
        let matches: Vec<&str> = reply.content["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(matches.contains(&"zeros"), "{matches:?}");
        let (reply, _) = c
            .ask(
                "complete_request",
                json!({"code": "x.resh", "cursor_pos": 6}),
            )
            .await;
        assert_eq!(reply.content["cursor_start"], 2);
        assert!(
            reply.content["matches"]
                .as_array()
                .unwrap()
                .contains(&json!("reshape"))
        );

        // Inspection: :help's text.
        let (reply, _) = c
            .ask(
                "inspect_request",
                json!({"code": "torch.zeros(2)", "cursor_pos": 8, "detail_level": 0}),
            )
            .await;
        assert_eq!(reply.content["found"], true);
        let text = reply.content["data"]["text/plain"].as_str().unwrap();
        assert!(text.contains("zeros("), "{text}");
        let (reply, _) = c
            .ask(
                "inspect_request",
                json!({"code": "no_such_name_zz", "cursor_pos": 3, "detail_level": 0}),
            )
            .await;
        assert_eq!(reply.content["found"], false);

        // is_complete: open blocks continue with their indent.
        let (reply, _) = c.ask("is_complete_request", json!({"code": "x = 1"})).await;
        assert_eq!(reply.content["status"], "complete");
        let (reply, _) = c
            .ask("is_complete_request", json!({"code": "for i in range(3):"}))
            .await;
        assert_eq!(reply.content["status"], "incomplete");
        assert_eq!(reply.content["indent"], "    ");
        let (reply, _) = c.ask("is_complete_request", json!({"code": "x = )"})).await;
        assert_eq!(reply.content["status"], "invalid");

        // history and comm_info.
        let (reply, _) = c
            .ask(
                "history_request",
                json!({"hist_access_type": "tail", "n": 2, "output": false, "raw": true}),
            )
            .await;
        let rows = reply.content["history"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][2], "y;");
        let (reply, _) = c.ask("comm_info_request", json!({})).await;
        assert_eq!(reply.content["comms"], json!({}));

        // Run All: the cells queued behind a failed one are aborted, not run.
        let failing = c
            .shell_request(
                "execute_request",
                json!({"code": "import time\ntime.sleep(0.5)\nno_such_zz"}),
            )
            .await;
        let queued = c
            .shell_request("execute_request", json!({"code": "z = 1"}))
            .await;
        assert_eq!(c.shell_reply(&failing).await.content["status"], "error");
        assert_eq!(c.shell_reply(&queued).await.content["status"], "aborted");
        // (Cells still arriving until the failed one's idle are aborted too.)
        c.published(&failing).await;
        let (reply, _) = c.execute("z").await;
        assert_eq!(reply.content["ename"], "NameError");

        // An endless loop stops on interrupt_request; the kernel and its variables stay.
        let started = Instant::now();
        let run = c
            .shell_request("execute_request", json!({"code": "while True: pass"}))
            .await;
        // Wait until it is running (busy).
        loop {
            let m = decode(within("busy", c.iopub.recv()).await.unwrap());
            if m.parent_id() == run && m.kind() == "execute_input" {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let interrupt = c.control_request("interrupt_request", json!({})).await;
        let ack = c.control_reply(&interrupt).await;
        assert_eq!(ack.kind(), "interrupt_reply");
        let reply = c.shell_reply(&run).await;
        assert_eq!(reply.content["status"], "error");
        assert_eq!(reply.content["ename"], "KeyboardInterrupt");
        let rest = c.until_idle(&run).await;
        assert!(rest.iter().any(|m| m.kind() == "error"));
        assert!(started.elapsed() < Duration::from_secs(15));
        let (_, published) = c.execute("y").await;
        assert_eq!(result_of(&published).as_deref(), Some("5"));

        // shutdown: the reply, then the process ends.
        let bye = c
            .control_request("shutdown_request", json!({"restart": false}))
            .await;
        let reply = c.control_reply(&bye).await;
        assert_eq!(reply.kind(), "shutdown_reply");
        assert_eq!(reply.content["restart"], false);
    });
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = kernel.0.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the kernel did not exit after shutdown"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_messages_are_dropped_and_the_kernel_goes_on() {
    let dir = temp_dir("robust");
    let (_kernel, ports) = start_kernel(&dir);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = Client::connect(&ports).await;
        // No delimiter, a bad signature, and JSON that is not JSON.
        within("junk", c.shell.send(ZmqMessage::from(b"junk".to_vec())))
            .await
            .unwrap();
        let (_, mut m) = c.frames("execute_request", json!({"code": "1"}));
        let mut frames = m.into_vec();
        frames[1] = b"0000".to_vec().into();
        m = ZmqMessage::try_from(frames).unwrap();
        within("bad sig", c.shell.send(m)).await.unwrap();
        let mut m = ZmqMessage::from(b"<IDS|MSG>".to_vec());
        let parts = [
            b"{".to_vec(),
            b"{}".to_vec(),
            b"{}".to_vec(),
            b"{}".to_vec(),
        ];
        m.push_back(sign(&parts).into_bytes().into());
        for p in parts {
            m.push_back(p.into());
        }
        within("bad json", c.shell.send(m)).await.unwrap();
        // Odd contents are answered, not fatal.
        for (kind, content) in [
            ("complete_request", json!({"code": 5, "cursor_pos": -3})),
            (
                "complete_request",
                json!({"code": "é\u{0}:load \"", "cursor_pos": 999}),
            ),
            ("inspect_request", json!({"code": "é.", "cursor_pos": 2})),
            ("inspect_request", json!({"code": ":", "cursor_pos": 1})),
            ("is_complete_request", json!({"code": null})),
            ("is_complete_request", json!({"code": "\"\"\"\n"})),
            (
                "history_request",
                json!({"hist_access_type": "search", "pattern": "[", "n": -1}),
            ),
            (
                "execute_request",
                json!({"code": "\u{0}é(", "user_expressions": {"a": "1 +", "b": 7}}),
            ),
        ] {
            // Each answered in turn, and its idle awaited: the failing execute
            // aborts whatever arrives before its idle (as ipykernel), which a
            // request sent on its reply alone could race into.
            let (reply, _) = c.ask(kind, content).await;
            assert!(
                reply.content["status"].is_string(),
                "{kind}: {}",
                reply.content
            );
        }
        // An execute_request with no code at all is still answered.
        let id = c.shell_request("execute_request", json!({})).await;
        let reply = c.shell_reply(&id).await;
        assert_eq!(reply.content["status"], "ok");
        let id = c.shell_request("kernel_info_request", json!({})).await;
        assert_eq!(c.shell_reply(&id).await.kind(), "kernel_info_reply");
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn install_writes_a_kernelspec_under_the_prefix() {
    let dir = temp_dir("install");
    let out = Command::new(TSH)
        .args(["kernel", "install", "--prefix"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let spec_dir = dir.join("share/jupyter/kernels/tsh");
    assert!(String::from_utf8_lossy(&out.stdout).contains(&*spec_dir.to_string_lossy()));
    let spec: Value =
        serde_json::from_str(&std::fs::read_to_string(spec_dir.join("kernel.json")).unwrap())
            .unwrap();
    let argv: Vec<&str> = spec["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        Path::new(argv[0]).is_absolute() && Path::new(argv[0]).is_file(),
        "{argv:?}"
    );
    assert_eq!(
        argv[1..],
        ["kernel", "--connection-file", "{connection_file}"]
    );
    assert_eq!(spec["display_name"], "tsh");
    assert_eq!(spec["language"], "tsh");
    assert_eq!(spec["interrupt_mode"], "message");
    for logo in ["logo-32x32.png", "logo-64x64.png"] {
        let bytes = std::fs::read(spec_dir.join(logo)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{logo}");
    }
    let out = Command::new(TSH)
        .args(["kernel", "uninstall", "--prefix"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!spec_dir.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example notebook, run top to bottom by nbclient (as `jupyter nbconvert
/// --execute` runs it) with the kernelspec installed under a temporary prefix.
/// Where python3 lacks nbclient the test says so and checks nothing more.
#[test]
fn the_example_notebook_runs_under_nbclient() {
    let has_nbclient = Command::new("python3")
        .args(["-c", "import nbclient, nbformat, jupyter_client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_nbclient {
        eprintln!(
            "note: the_example_notebook_runs_under_nbclient checked nothing: python3 has no nbclient (pip install jupyter_client nbclient)"
        );
        return;
    }
    let dir = temp_dir("notebook");
    let out = Command::new(TSH)
        .args(["kernel", "install", "--prefix"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let notebook = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lesson1_tensors.ipynb");
    let script = r#"
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=60, kernel_name="tsh", startup_timeout=60).execute()
outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
errors = [o for o in outputs if o.output_type == "error"]
pngs = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.data]
results = [c for c in nb.cells if c.cell_type == "code" and any(o.output_type == "execute_result" for o in c.outputs)]
print(len(outputs), len(errors), len(pngs), len(results))
sys.exit(1 if errors or len(pngs) < 4 else 0)
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .arg(&notebook)
        .env("JUPYTER_PATH", dir.join("share/jupyter"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nbclient did not finish the notebook in time");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut said).unwrap();
    assert!(status.success(), "nbclient: {said}");
    let counts: Vec<usize> = said
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(counts[1], 0, "no errors");
    assert!(counts[3] >= 12, "cells with results: {said}");
    let _ = std::fs::remove_dir_all(&dir);
}
