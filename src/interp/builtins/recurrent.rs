//! The recurrent layers' fused step and nn.LSTM's fused layer (the math is
//! nn/recurrent.rs and nn/lstm_layer.rs; the layers themselves are
//! rnn_prelude.py).

use super::Builtin;
use crate::error::{Result, shape_err, value_err};
use crate::nn::lstm_layer::{LayerInputs, lstm_layer};
use crate::nn::recurrent::{CellInputs, fused_lstm_cell};
use crate::op;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
    op!(
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
    ),
    op!(
        Function,
        "mkldnn_rnn_layer(Tensor input, Tensor weight0, Tensor weight1, Tensor? weight2, Tensor? weight3, Tensor hx_, Tensor cx_, bool reverse, int[] batch_sizes, int mode, int hidden_size, int num_layers, bool has_biases, bool bidirectional, bool batch_first, bool train) -> (Tensor, Tensor, Tensor, Tensor)",
        "One LSTM layer over a [steps, batch, features] sequence, as nn.LSTM runs it: (output, hy, cy, the activated gates).",
        "torch.mkldnn_rnn_layer(ones(3, 1, 2), ones(4, 2), ones(4, 1), None, None, zeros(1, 1), zeros(1, 1), False, [], 2, 1, 1, False, False, False, False)[0]",
        |input: Tensor,
         weight0: Tensor,
         weight1: Tensor,
         weight2: Option<Tensor>,
         weight3: Option<Tensor>,
         hx_: Tensor,
         cx_: Tensor,
         reverse: bool,
         batch_sizes: Vec<i64>,
         mode: i64,
         hidden_size: i64,
         num_layers: i64,
         has_biases: bool,
         bidirectional: bool,
         batch_first: bool,
         train: bool| {
            // One layer in one direction: nn.LSTM loops over layers and
            // directions itself, so these three only describe the module.
            let _ = (num_layers, bidirectional, train);
            layer_arguments(mode, &batch_sizes, batch_first, hidden_size, &hx_)?;
            lstm_layer(&LayerInputs {
                input: &input,
                w_ih: &weight0,
                w_hh: &weight1,
                b_ih: weight2.as_ref().filter(|_| has_biases),
                b_hh: weight3.as_ref().filter(|_| has_biases),
                hx: &hx_,
                cx: &cx_,
                reverse,
            })
        }
    ),
];

/// What mkldnn_rnn_layer runs: an LSTM (mode 2) over a padded sequence,
/// steps first, with hx's hidden size.
fn layer_arguments(
    mode: i64,
    batch_sizes: &[i64],
    batch_first: bool,
    hidden_size: i64,
    hx: &Tensor,
) -> Result<()> {
    if mode != 2 {
        return Err(value_err(format!(
            "mkldnn_rnn_layer: tsh runs mode 2 (LSTM) only, got mode {mode}"
        )));
    }
    if !batch_sizes.is_empty() {
        return Err(value_err(
            "mkldnn_rnn_layer: packed sequences (batch_sizes) are not supported",
        ));
    }
    if batch_first {
        return Err(value_err(
            "mkldnn_rnn_layer: the input must be [steps, batch, features] (nn.LSTM transposes a batch_first input before its layers)",
        ));
    }
    if hx.ndim() == 2 && hx.shape()[1] as i64 != hidden_size {
        return Err(shape_err(format!(
            "mkldnn_rnn_layer: hidden_size is {hidden_size} but hx has {} features",
            hx.shape()[1]
        )));
    }
    Ok(())
}
