//! torch.nn.functional rows for normalisation, lookup and padding (the math
//! is nn/normalization.rs).

use super::Builtin;
use crate::interp::convert::to_shape;
use crate::nn::normalization as n;
use crate::op;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor",
        "Each sample normalised over its last dims (normalized_shape), then scaled and shifted.",
        "F.layer_norm(tensor([[1., 2., 3.]]), (3,))",
        |input: Tensor,
         normalized_shape: Vec<i64>,
         weight: Option<Tensor>,
         bias: Option<Tensor>,
         eps: f64| {
            n::layer_norm(
                &input,
                &to_shape(&normalized_shape)?,
                weight.as_ref(),
                bias.as_ref(),
                eps,
            )
        }
    ),
    op!(
        Function,
        "batch_norm(Tensor input, Tensor? running_mean, Tensor? running_var, Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, float eps=1e-05) -> Tensor",
        "Each channel (dim 1) normalised over the batch; training updates the running statistics in place.",
        "F.batch_norm(tensor([[1., 2.], [3., 6.]]), None, None, training=True)",
        |input: Tensor,
         running_mean: Option<Tensor>,
         running_var: Option<Tensor>,
         weight: Option<Tensor>,
         bias: Option<Tensor>,
         training: bool,
         momentum: f64,
         eps: f64| {
            n::batch_norm(
                &input,
                running_mean.as_ref(),
                running_var.as_ref(),
                weight.as_ref(),
                bias.as_ref(),
                training,
                momentum,
                eps,
            )
        }
    ),
    op!(
        Function,
        "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor",
        "The channels split into num_groups groups, each sample's group normalised.",
        "F.group_norm(arange(8.).reshape(1, 4, 2), 2)",
        |input: Tensor, num_groups: i64, weight: Option<Tensor>, bias: Option<Tensor>, eps: f64| {
            n::group_norm(&input, num_groups, weight.as_ref(), bias.as_ref(), eps)
        }
    ),
    op!(
        Function,
        "embedding(Tensor input, Tensor weight, int? padding_idx=None, float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
        "The rows of weight at input's indices (padding_idx's row gets no gradient).",
        "F.embedding(tensor([[0, 2]]), arange(6.).reshape(3, 2))",
        |input: Tensor,
         weight: Tensor,
         padding_idx: Option<i64>,
         _max_norm: Option<f64>,
         _norm_type: f64,
         _scale_grad_by_freq: bool,
         _sparse: bool| { n::embedding(&input, &weight, padding_idx) }
    ),
    op!(
        Function,
        "normalize(Tensor input, float p=2.0, int dim=1, float eps=1e-12) -> Tensor",
        "input divided by its p-norm along dim (at least eps).",
        "F.normalize(tensor([[3., 4.]]))",
        |input: Tensor, p: f64, dim: i64, eps: f64| n::normalize(&input, p, dim, eps)
    ),
    op!(
        Function,
        "cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor",
        "The cosine of the angle between x1 and x2 along dim.",
        "F.cosine_similarity(tensor([[1., 0.]]), tensor([[1., 1.]]))",
        |x1: Tensor, x2: Tensor, dim: i64, eps: f64| n::cosine_similarity(&x1, &x2, dim, eps)
    ),
    op!(
        Function,
        "pad(Tensor input, int[] pad, str mode=\"constant\", float? value=None) -> Tensor",
        "Padded by (left, right) pairs from the last dim back; modes constant, reflect, replicate, circular.",
        "F.pad(tensor([[1, 2]]), (1, 2))",
        |input: Tensor, pad: Vec<i64>, mode: String, value: Option<f64>| n::pad(
            &input,
            &pad,
            &mode,
            value.unwrap_or(0.0)
        )
    ),
];
