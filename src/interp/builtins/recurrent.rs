//! The recurrent layers' fused step (the math is nn/recurrent.rs; the layers
//! themselves are rnn_prelude.py).

use super::Builtin;
use crate::nn::recurrent::{CellInputs, fused_lstm_cell};
use crate::op;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[op!(
    Function,
    "_thnn_fused_lstm_cell(Tensor input_gates, Tensor hidden_gates, Tensor cx, Tensor? input_bias=None, Tensor? hidden_bias=None) -> (Tensor, Tensor, Tensor)",
    "One LSTM step from its gates (input_gates + hidden_gates + biases: i, f, g, o): (hy, cy, the activated gates).",
    "torch._thnn_fused_lstm_cell(zeros(1, 4), ones(1, 4), ones(1, 1))",
    |input_gates: Tensor,
     hidden_gates: Tensor,
     cx: Tensor,
     input_bias: Option<Tensor>,
     hidden_bias: Option<Tensor>| {
        fused_lstm_cell(&CellInputs {
            input_gates: &input_gates,
            hidden_gates: &hidden_gates,
            cx: &cx,
            input_bias: input_bias.as_ref(),
            hidden_bias: hidden_bias.as_ref(),
        })
    }
)];
