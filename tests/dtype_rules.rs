//! Which dtypes each op accepts and what it returns, against the table PyTorch
//! printed (tests/fixtures/dtype_rules.py): for every op and every input dtype,
//! the result's dtype, or "error" where PyTorch refuses. Every refusal PyTorch
//! makes must be tsh's too, and every dtype it returns must match.

use tsh::interp::{Buffer, Interp, Value};

/// How each row of the fixture reads in tsh, on a 2x2 tensor `t`.
fn expression(op: &str, dtype: &str) -> Option<String> {
    let divisor = if dtype == "bool" { "t" } else { "(t + 1)" };
    const UNARY: &[&str] = &[
        "abs",
        "neg",
        "sign",
        "floor",
        "ceil",
        "trunc",
        "round",
        "reciprocal",
        "square",
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "sqrt",
        "rsqrt",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "sinh",
        "cosh",
        "tanh",
        "sigmoid",
        "relu",
        "erf",
        "frac",
        "bitwise_not",
        "logical_not",
        "isnan",
        "isinf",
        "isfinite",
        "sgn",
        "erfc",
        "asinh",
        "acosh",
        "atanh",
        "deg2rad",
        "rad2deg",
        "logit",
        "sinc",
    ];
    if UNARY.contains(&op) {
        return Some(format!("torch.{op}(t)"));
    }
    Some(
        match op {
            "softmax" => "t.softmax(0)",
            "log_softmax" => "t.log_softmax(0)",
            "F.relu" | "F.gelu" | "F.silu" | "F.softplus" | "F.elu" | "F.leaky_relu"
            | "F.logsigmoid" => return Some(format!("{op}(t)")),
            "sum" => "t.sum()",
            "sum_dim" => "t.sum(0)",
            "mean" | "prod" | "max" | "min" | "argmax" | "var" | "std" | "norm" | "all" | "any"
            | "count_nonzero" | "unique" => return Some(format!("t.{op}()")),
            "amax" => "t.amax(0)",
            "logsumexp" => "t.logsumexp(0)",
            "cumsum" => "t.cumsum(0)",
            "cumprod" => "t.cumprod(0)",
            "sort" => "t.sort()[0]",
            "topk" => "t.topk(1)[0]",
            "clamp" => "t.clamp(0, 1)",
            "clamp_min" => "t.clamp(min=0)",
            "neg_op" => "-t",
            "invert_op" => "~t",
            "abs_op" => "abs(t)",
            "add_self" => "t + t",
            "sub_self" => "t - t",
            "mul_self" => "t * t",
            "div_self" => "t / t",
            "floordiv_self" => return Some(format!("t // {divisor}")),
            "mod_self" => return Some(format!("t % {divisor}")),
            "pow_self" => "t ** t",
            "and_self" => "t & t",
            "or_self" => "t | t",
            "xor_self" => "t ^ t",
            "lshift_self" => "t << t",
            "eq_self" => "t == t",
            "lt_self" => "t < t",
            "maximum" => "torch.maximum(t, t)",
            "atan2" => "torch.atan2(t, t)",
            "fmod" => return Some(format!("torch.fmod(t, {divisor})")),
            "hypot" => "torch.hypot(t, t)",
            "logaddexp" => "torch.logaddexp(t, t)",
            "copysign" => "torch.copysign(t, t)",
            "xlogy" => "torch.xlogy(t, t)",
            "add_int" => "t + 1",
            "add_float" => "t + 1.5",
            "mul_bool" => "t * True",
            "sub_int" => "t - 1",
            "rsub_int" => "1 - t",
            "pow_2" => "t ** 2",
            "pow_half" => "t ** 0.5",
            "matmul" => "t @ t",
            "dot" => "t[0].dot(t[1])",
            "where" => "torch.where(t > 0, t, t)",
            "lerp" => "torch.lerp(t, t, 0.5)",
            "nan_to_num" => "torch.nan_to_num(t)",
            "flip" => "t.flip(0)",
            "repeat" => "t.repeat(2, 1)",
            "isclose" => "torch.isclose(t, t)",
            "outer" => "torch.outer(t[0], t[1])",
            "F.mse_loss" => "F.mse_loss(t, t)",
            "F.l1_loss" => "F.l1_loss(t, t)",
            "F.dropout" => "F.dropout(t, 0.5)",
            "sqrt_op" => "t.sqrt()",
            _ => return None,
        }
        .to_string(),
    )
}

/// Fixture rows tsh has no function for yet (each is named in the closing notes).
const NOT_IN_TSH: &[&str] = &["positive", "F.normalize", "bincount"];

#[test]
fn every_op_takes_and_returns_the_dtypes_pytorch_does() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/dtype_rules.json"
    );
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    let mut wrong = vec![];
    let mut checked = 0;
    for (op, by_dtype) in fixture.as_object().expect("object") {
        if NOT_IN_TSH.contains(&op.as_str()) {
            continue;
        }
        for (dtype, want) in by_dtype.as_object().expect("object") {
            let expr =
                expression(op, dtype).unwrap_or_else(|| panic!("no tsh expression for {op}"));
            let want = want.as_str().expect("string");
            let mut it = Interp::new(Box::new(Buffer::default()));
            let setup = format!("t = tensor([[1, 0], [1, 1]]).to(torch.{dtype})");
            it.run(&setup, false).expect("setup");
            let got = match it.eval_src(&expr) {
                Ok(Value::Tensor(r)) => r.dtype().name().to_string(),
                Ok(other) => format!("not a tensor: {}", other.type_name()),
                Err(_) => "error".to_string(),
            };
            checked += 1;
            if got != want {
                wrong.push(format!("{expr} on {dtype}: PyTorch {want}, tsh {got}"));
            }
        }
    }
    assert!(checked > 900, "only {checked} checks ran");
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
