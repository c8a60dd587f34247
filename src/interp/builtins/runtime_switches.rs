//! The switches benchmark and training scripts flip before they start:
//! `torch.set_float32_matmul_precision`, `torch.use_deterministic_algorithms`,
//! `torch.compile` and `torch.jit.script`, anomaly detection, and what the
//! CPU backends report. tsh runs eagerly, deterministically and in full
//! float32 precision whatever is set; it keeps what is set and reads it back,
//! and hands compiled or scripted code back as it is.

use std::cell::RefCell;

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "torch.set_float32_matmul_precision",
        "torch.set_float32_matmul_precision(precision)",
        "'highest', 'high' or 'medium' (kept; tsh's float32 products are always full precision).",
        "torch.set_float32_matmul_precision('highest')",
        set_matmul_precision
    ),
    row!(
        Module,
        "torch.get_float32_matmul_precision",
        "torch.get_float32_matmul_precision()",
        "What set_float32_matmul_precision last set ('highest' at the start).",
        "torch.get_float32_matmul_precision()",
        get_matmul_precision
    ),
    row!(
        Module,
        "torch.use_deterministic_algorithms",
        "torch.use_deterministic_algorithms(mode, *, warn_only=False)",
        "Kept: tsh's ops give the same results on every run.",
        "torch.use_deterministic_algorithms(True)",
        use_deterministic
    ),
    row!(
        Module,
        "torch.are_deterministic_algorithms_enabled",
        "torch.are_deterministic_algorithms_enabled()",
        "What use_deterministic_algorithms last set (False at the start).",
        "torch.are_deterministic_algorithms_enabled()",
        are_deterministic
    ),
    row!(
        Module,
        "torch.set_flush_denormal",
        "torch.set_flush_denormal(mode)",
        "False: tsh keeps denormal numbers (it does not switch the CPU's flush mode).",
        "torch.set_flush_denormal(True)",
        set_flush_denormal
    ),
    row!(
        Module,
        "torch.compile",
        "torch.compile(model=None, *, fullgraph=False, dynamic=None, backend='inductor', mode=None, options=None, disable=False)",
        "The model or function itself: tsh runs eagerly (with no model, a decorator that does the same).",
        "f = torch.compile(lambda x: x * 2); f(tensor(3.))",
        compile
    ),
    row!(
        Module,
        "jit.script",
        "torch.jit.script(obj)",
        "The module or function itself: tsh runs it as written.",
        "torch.jit.script(nn.Linear(2, 1))",
        script
    ),
    row!(
        Module,
        "jit.trace",
        "torch.jit.trace(func, example_inputs)",
        "The module or function itself: tsh runs it as written.",
        "torch.jit.trace(nn.Linear(2, 1), torch.ones(1, 2))",
        trace
    ),
    row!(
        Module,
        "autograd.set_detect_anomaly",
        "torch.autograd.set_detect_anomaly(mode, check_nan=True)",
        "Accepted: tsh's backward errors already name the op and its tensors.",
        "torch.autograd.set_detect_anomaly(False)",
        set_detect_anomaly
    ),
    row!(
        Module,
        "mkldnn.is_available",
        "torch.backends.mkldnn.is_available()",
        "False: tsh's kernels are its own, not oneDNN's.",
        "torch.backends.mkldnn.is_available()",
        mkldnn_available
    ),
    row!(
        Module,
        "cpu.get_cpu_capability",
        "torch.backends.cpu.get_cpu_capability()",
        "The widest vector instructions tsh's kernels use here: 'AVX512', 'AVX2' or 'DEFAULT'.",
        "torch.backends.cpu.get_cpu_capability() in ('AVX512', 'AVX2', 'DEFAULT')",
        cpu_capability
    ),
];

/// The hidden decorator `torch.compile(mode=...)` returns without a model.
const IDENTITY: Builtin = row!(
    Module,
    "compile.decorator",
    "torch.compile(...)(model)",
    "The model or function itself.",
    "",
    identity
);

thread_local! {
    static MATMUL_PRECISION: RefCell<&'static str> = const { RefCell::new("highest") };
    static DETERMINISTIC: RefCell<bool> = const { RefCell::new(false) };
}

fn set_matmul_precision(it: &mut Interp, mut a: Args) -> Result<Value> {
    let p = a.string("precision")?;
    a.finish()?;
    let kept = match p.as_str() {
        "highest" => "highest",
        "high" => "high",
        "medium" => "medium",
        other => {
            // PyTorch warns and changes nothing.
            it.warn(&format!(
                "{other} is not one of 'highest', 'high', or 'medium'; the current \
                 set_float32_matmul_precision call has no effect"
            ));
            return Ok(Value::None);
        }
    };
    MATMUL_PRECISION.with(|m| *m.borrow_mut() = kept);
    Ok(Value::None)
}

fn get_matmul_precision(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::str(MATMUL_PRECISION.with(|m| *m.borrow())))
}

fn use_deterministic(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mode = a.value("mode")?.truthy()?;
    let _ = a.take_kw("warn_only");
    a.finish()?;
    DETERMINISTIC.with(|d| *d.borrow_mut() = mode);
    Ok(Value::None)
}

fn are_deterministic(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(DETERMINISTIC.with(|d| *d.borrow())))
}

fn set_flush_denormal(_: &mut Interp, mut a: Args) -> Result<Value> {
    let _ = a.value("mode")?.truthy()?;
    a.finish()?;
    Ok(Value::Bool(false))
}

/// The first argument, `param`, handed back; the options after it (example
/// inputs, strict, ...) change nothing in tsh and are not read.
fn given(mut a: Args, param: &str) -> Result<Value> {
    a.take(param)
        .map(|(v, _)| v)
        .ok_or_else(|| type_err(format!("{}() missing required argument '{param}'", a.name)))
}

fn compile(_: &mut Interp, mut a: Args) -> Result<Value> {
    match a.take("model") {
        Some((Value::None, _)) | None => Ok(Value::Builtin(&IDENTITY)),
        Some((m, _)) => Ok(m),
    }
}

fn identity(_: &mut Interp, a: Args) -> Result<Value> {
    given(a, "model")
}

fn script(_: &mut Interp, a: Args) -> Result<Value> {
    given(a, "obj")
}

fn trace(_: &mut Interp, a: Args) -> Result<Value> {
    given(a, "func")
}

fn set_detect_anomaly(_: &mut Interp, mut a: Args) -> Result<Value> {
    let _ = a.value("mode")?.truthy()?;
    let _ = a.take("check_nan");
    a.finish()?;
    Ok(Value::None)
}

fn mkldnn_available(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(false))
}

fn cpu_capability(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let level = if has_all(&["avx512f", "avx512bw", "avx512vl", "avx512dq"]) {
        "AVX512"
    } else if has_all(&["avx2", "fma"]) {
        "AVX2"
    } else {
        "DEFAULT"
    };
    Ok(Value::str(level))
}

/// Whether every feature named is present (false off x86).
fn has_all(features: &[&str]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        features.iter().all(|f| match *f {
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
            "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
            "avx512dq" => std::arch::is_x86_feature_detected!("avx512dq"),
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "fma" => std::arch::is_x86_feature_detected!("fma"),
            _ => false,
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = features;
        false
    }
}
