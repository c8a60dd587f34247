//! Builtins made from the op rows (tensor::op): every unary op and every binary
//! op with a function name is a function and a tensor method, with the row's
//! help and example. Ops whose builtins take more (add's alpha, div's
//! rounding_mode, round's decimals) are written in math.rs instead.

use std::sync::OnceLock;

use super::{Builtin, Reach};
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::tensor::op::binary::BINARY_ALIASES;
use crate::tensor::op::unary::UNARY_ALIASES;
use crate::tensor::op::{BINARY_ROWS, BinaryOp, UNARY_ROWS, UnaryOp};
use crate::tensor::ops::elementwise::{binary, unary};

/// Names whose builtins math.rs writes by hand.
const BY_HAND: &[&str] = &[
    "add",
    "sub",
    "subtract",
    "div",
    "divide",
    "true_divide",
    "pow",
    "round",
    "logit",
    // nn.functional's (nn.rs): PyTorch has no torch.silu, torch.gelu,
    // torch.leaky_relu, torch.softplus, torch.elu, torch.hardsigmoid or
    // torch.hardswish.
    "leaky_relu",
    "softplus",
    "elu",
    "hardsigmoid",
    "hardswish",
    "silu",
    "gelu",
    "logsigmoid",
];

pub(super) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn unary_builtin(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let t = a.tensor("input")?;
    a.finish()?;
    let op =
        UnaryOp::from_name(name).ok_or_else(|| type_err(format!("{name}() is not a unary op")))?;
    unary(op, &t).map(Value::Tensor)
}

fn binary_builtin(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    a.finish()?;
    let op = BinaryOp::from_name(name)
        .ok_or_else(|| type_err(format!("{name}() is not a binary op")))?;
    binary(op, &x, &y).map(Value::Tensor)
}

fn unary_row(name: &'static str, help: &'static str, example: String) -> Builtin {
    Builtin {
        name,
        sig: leak(format!("{name}(input)")),
        help,
        example: leak(example),
        reach: Reach::Both,
        func: unary_builtin,
        typed: &[],
        // x.exp_(), x.relu_(), x.sigmoid_(): computed, then written back.
        inplace: true,
    }
}

/// The builtins the op rows make.
pub fn rows() -> &'static [Builtin] {
    static ROWS: OnceLock<Vec<Builtin>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = vec![];
        for r in UNARY_ROWS.iter().filter(|r| !BY_HAND.contains(&r.name)) {
            out.push(unary_row(r.name, r.help, r.example.to_string()));
        }
        for (alias, op) in UNARY_ALIASES {
            let row = op.row();
            out.push(unary_row(
                alias,
                leak(format!("Alias of {}.", row.name)),
                row.example.replacen(row.name, alias, 1),
            ));
        }
        let named = BINARY_ROWS
            .iter()
            .filter(|r| {
                r.name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
            .filter(|r| !BY_HAND.contains(&r.name))
            .map(|r| (r.name, r.help, r.example.to_string()));
        let aliases = BINARY_ALIASES
            .iter()
            .filter(|(n, _)| !BY_HAND.contains(n))
            .map(|(alias, op)| {
                let row = op.row();
                (
                    *alias,
                    leak(format!("Alias of {}.", row.name)),
                    row.example.replacen(row.name, alias, 1),
                )
            });
        for (name, help, example) in named.chain(aliases) {
            out.push(Builtin {
                name,
                sig: leak(format!("{name}(input, other)")),
                help,
                example: leak(example),
                reach: Reach::Both,
                func: binary_builtin,
                typed: &[],
                // x.atan2_(y), x.eq_(y): computed, then written back (a
                // comparison's bools as 1 and 0 in x's dtype).
                inplace: true,
            });
        }
        out
    })
}
