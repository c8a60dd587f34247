//! Checked transcripts. A statement followed by `#> …` lines expects exactly
//! that output (what the REPL would show; an error as its first line).
//! `:save` writes one from a session; `tsh --verify FILE` replays and diffs.

use crate::interp::session::Entry;
use crate::interp::{Buffer, Interp};
use crate::tensor::Device;

/// Entries whose output changes from run to run are left out; trace lines too.
fn replayable(e: &Entry) -> bool {
    let s = e.source.trim_start();
    !(s.starts_with(":time")
        || s.starts_with(":save")
        || s.starts_with(":trace")
        || s.starts_with(":devices")
        || s.starts_with(":quit"))
}

/// The text of a checked transcript for these entries.
pub fn write(entries: &[Entry]) -> String {
    let mut out = String::from(
        "# tsh transcript: `tsh --verify FILE` replays it and compares the #> lines\n\n",
    );
    for e in entries.iter().filter(|e| replayable(e)) {
        if e.interrupted {
            // Replaying it would run it in full; it stays, as a comment.
            out.push_str("# stopped with Ctrl-C, so not replayed:\n");
            for line in e.source.trim_end().lines() {
                out.push_str(&format!("#   {line}\n"));
            }
            out.push('\n');
            continue;
        }
        out.push_str(e.source.trim_end());
        out.push('\n');
        let shown: Vec<&str> = e.output.lines().filter(|l| !l.starts_with("  ┆")).collect();
        out.push_str(&expected_lines(&shown));
    }
    out
}

/// Output as `#>` lines, then the blank line that ends a check.
fn expected_lines(lines: &[&str]) -> String {
    let mut out = String::new();
    for line in lines {
        if line.is_empty() {
            out.push_str("#>\n");
        } else {
            out.push_str(&format!("#> {line}\n"));
        }
    }
    out.push('\n');
    out
}

/// One unit of a transcript: code, and the output it expects.
#[derive(Debug, PartialEq)]
pub struct Check {
    /// 1-based line of the code's first line.
    pub line: usize,
    pub code: String,
    pub expected: String,
}

/// Split a transcript into checks, one per entry as the REPL would read it:
/// a statement (with the comment lines above it) ends where it is complete, and
/// the `#>` lines after it are its expected output.
pub fn parse(src: &str) -> Vec<Check> {
    let mut checks = vec![];
    let mut code = String::new();
    let mut expected = String::new();
    let mut first = 0;
    let mut complete = false;
    let flush =
        |code: &mut String, expected: &mut String, first: usize, checks: &mut Vec<Check>| {
            if !code.trim().is_empty() || !expected.is_empty() {
                checks.push(Check {
                    line: first,
                    code: std::mem::take(code),
                    expected: std::mem::take(expected),
                });
            }
        };
    for (i, line) in src.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("#>") {
            expected.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            expected.push('\n');
            continue;
        }
        // `else` on the line after an `if`'s `}` continues that entry, as at the prompt.
        let continues = complete && expected.is_empty() && crate::repl::starts_with_else(line);
        // A line back at the margin ends a Python block.
        let block_ends = !code.trim().is_empty() && crate::repl::block_ends_before(&code, line);
        if (complete && !continues) || !expected.is_empty() || block_ends {
            flush(&mut code, &mut expected, first, &mut checks);
            complete = false;
        }
        let is_comment = line.trim_start().starts_with('#') || line.trim().is_empty();
        if code.is_empty() {
            first = i + 1;
        }
        if line.trim().is_empty() && code.trim().is_empty() {
            continue;
        }
        code.push_str(line);
        code.push('\n');
        // An entry ends with a line that leaves nothing open (comments wait for code).
        let has_code = code
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        complete = has_code
            && !is_comment
            && !crate::repl::is_incomplete(&code)
            && !crate::syntax::python_block_open(&code);
    }
    flush(&mut code, &mut expected, first, &mut checks);
    checks
}

/// What the REPL would show for `code` in this session, colour-free.
pub fn replay(interp: &mut Interp, code: &str) -> String {
    let buf = Buffer::default();
    let saved = std::mem::replace(&mut interp.out, Box::new(buf.clone()));
    let mut text = String::new();
    let emit_error = |e: crate::error::Error, text: &mut String, buf: &Buffer| {
        text.push_str(&buf.take());
        text.push_str(&format!("{e}\n"));
    };
    // `:command` lines run as commands; everything else as code.
    for part in crate::script::split_parts(code) {
        crate::interrupt::clear();
        let r = match part {
            crate::script::Part::Code(c) => interp.run(&c, true),
            crate::script::Part::Command(line) => {
                crate::repl::commands::dispatch(interp, line).map(|_| ())
            }
        };
        match r {
            Ok(()) => text.push_str(&buf.take()),
            Err(e) => {
                interp.set_last_error(e.clone(), code);
                emit_error(e, &mut text, &buf);
                break;
            }
        }
    }
    interp.out = saved;
    text
}

/// Replay every check of `src`; the report lists mismatches. Ok(count) when all match.
pub fn verify(src: &str, origin: &str, report: &mut String) -> Result<usize, usize> {
    verify_on(src, origin, report, Device::Cpu)
}

/// Do two outputs match? Trailing blank space is ignored, and so are memory
/// addresses (`<MulBackward0 object at 0x7f...>` differs from run to run, as
/// in Python).
pub fn same_output(got: &str, expected: &str) -> bool {
    without_addresses(got.trim_end()) == without_addresses(expected.trim_end())
}

/// `text` with every ` at 0x<hex>` written ` at 0x…`.
pub fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(" at 0x") {
        out.push_str(&rest[..i + 6]);
        rest = &rest[i + 6..];
        let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex > 0 {
            out.push('…');
        }
        rest = &rest[hex..];
    }
    out.push_str(rest);
    out
}

/// Text printed by tensors on `device` as the CPU prints it: PyTorch adds
/// `device='cuda:0'` to a CUDA tensor's text, and nothing else differs, so one
/// expected output serves every device.
pub fn as_printed_on_cpu(text: &str, device: Device) -> String {
    match device {
        Device::Cpu => text.to_string(),
        Device::Cuda(_) => {
            // PyTorch's suffix, then tsh's own mentions of the device: the
            // footer and :explain ("[3] float32 cuda:0") and the :vars table.
            let mut t = text.replace(&format!(", device='{device}'"), "");
            for d in crate::tensor::dtype::ALL_DTYPES {
                t = t.replace(
                    &format!("{} {device}", d.name()),
                    &format!("{} cpu", d.name()),
                );
            }
            t = t.replace(&format!("┆ {device} ┆"), "┆ cpu    ┆");
            // :why's tables end their rows with the device.
            let tail = format!(" {device}");
            t.split('\n')
                .map(|l| match l.strip_suffix(&tail) {
                    Some(head) => format!("{head} cpu"),
                    None => l.to_string(),
                })
                .collect::<Vec<String>>()
                .join("\n")
        }
    }
}

/// `verify` with tensors created on `device` (as `set_default_device`), the
/// output compared as the CPU prints it.
pub fn verify_on(
    src: &str,
    origin: &str,
    report: &mut String,
    device: Device,
) -> Result<usize, usize> {
    crate::tensor::device::set_default_device(device);
    let mut interp = Interp::new(Box::new(Buffer::default()));
    let checks = parse(src);
    let mut failed = 0;
    for c in &checks {
        let got = as_printed_on_cpu(&replay(&mut interp, &c.code), device);
        if same_output(&got, &c.expected) {
            continue;
        }
        failed += 1;
        report.push_str(&format!("MISMATCH {origin}:{}\n", c.line));
        for l in c.code.lines() {
            report.push_str(&format!("  | {l}\n"));
        }
        report.push_str(&diff(&c.expected, &got));
    }
    if failed == 0 {
        report.push_str(&format!("ok {origin}: {} checks passed\n", checks.len()));
        Ok(checks.len())
    } else {
        report.push_str(&format!(
            "FAILED {origin}: {failed} of {} checks differ\n",
            checks.len()
        ));
        Err(failed)
    }
}

/// `src` with every check's `#>` lines replaced by what it prints now.
pub fn bless(src: &str) -> String {
    let mut interp = Interp::new(Box::new(Buffer::default()));
    let mut out = String::new();
    for c in parse(src) {
        let got = replay(&mut interp, &c.code);
        out.push_str(&c.code);
        let shown: Vec<&str> = got.trim_end_matches('\n').lines().collect();
        out.push_str(&expected_lines(&shown));
    }
    out
}

/// Expected and actual output, line by line, `-` for expected and `+` for got.
fn diff(expected: &str, got: &str) -> String {
    let e: Vec<&str> = expected.trim_end().lines().collect();
    let g: Vec<&str> = got.trim_end().lines().collect();
    let mut out = String::new();
    for i in 0..e.len().max(g.len()) {
        match (e.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => out.push_str(&format!("    {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("  - {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!("  + {b}\n"));
                }
            }
        }
    }
    out
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn splits_at_expected_output_and_blank_lines() {
            let src =
                "x = 1\nx + 1\n#> 2\n# a loop\nfor i in range(2) {\n\n  print(i)\n}\n#> 0\n#> 1\n";
            let checks = parse(src);
            assert_eq!(checks.len(), 3);
            assert_eq!(checks[0].code, "x = 1\n");
            assert_eq!(checks[0].expected, "");
            assert_eq!(checks[1].expected, "2\n");
            assert_eq!(checks[2].line, 4);
            assert!(checks[2].code.starts_with("# a loop\nfor") && checks[2].code.contains("print(i)"));
            assert_eq!(checks[2].expected, "0\n1\n");
        }

        fn round_trip_and_mismatch() {
            let entries = vec![
                Entry {
                    source: "x = tensor([1, 2])".into(),
                    output: String::new(),
                    interrupted: false,
                },
                Entry {
                    source: "x * 2".into(),
                    output: "tensor([2, 4])\n[2] int64 cpu\n".into(),
                    interrupted: false,
                },
                Entry {
                    source: ":time x + 1".into(),
                    output: "median 1 µs\n".into(),
                    interrupted: false,
                },
                Entry {
                    source: "y".into(),
                    output: "error[name]: name 'y' is not defined\n".into(),
                    interrupted: false,
                },
                Entry {
                    source: "while true {\n  x = x + 1\n}".into(),
                    output: "error[interrupt]: interrupted (Ctrl-C)\n".into(),
                    interrupted: true,
                },
            ];
            let text = write(&entries);
            assert!(!text.contains(":time"));
            assert!(text.contains("#   while true {"), "{text}");
            let mut report = String::new();
            // The interrupted loop is a comment above no statement: a check with no code.
            assert_eq!(verify(&text, "t.tsh", &mut report), Ok(4), "{report}");
            let wrong = text.replace("#> tensor([2, 4])", "#> tensor([2, 5])");
            let mut report = String::new();
            assert_eq!(verify(&wrong, "t.tsh", &mut report), Err(1));
            assert!(
                report.contains("  - tensor([2, 5])\n  + tensor([2, 4])"),
                "{report}"
            );
        }
    }
}
