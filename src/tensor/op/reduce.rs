//! Reductions and scans: the op vocabulary the backends implement, with the
//! dtype each returns and PyTorch's grad_fn names.

use crate::error::{Result, dtype_err};
use crate::tensor::DType;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReduceOp {
    Sum,
    /// A sum taken element by element, flushed into partial sums in levels
    /// of 16 or more: the order ATen's nll_loss accumulates its losses in
    /// (torch.sum's order is another), so cross-entropy rounds as PyTorch's.
    SumInOrder,
    Prod,
    Mean,
    Max,
    Min,
    ArgMax,
    ArgMin,
    /// Variance with Bessel's `correction` (1 = unbiased, PyTorch's default).
    Var(f64),
    Std(f64),
    All,
    Any,
    /// The p-norm; `inf` is the max-abs norm.
    Norm(f64),
    LogSumExp,
    CountNonzero,
}

impl ReduceOp {
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum | ReduceOp::SumInOrder => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Mean => "mean",
            ReduceOp::Max => "max",
            ReduceOp::Min => "min",
            ReduceOp::ArgMax => "argmax",
            ReduceOp::ArgMin => "argmin",
            ReduceOp::Var(_) => "var",
            ReduceOp::Std(_) => "std",
            ReduceOp::All => "all",
            ReduceOp::Any => "any",
            ReduceOp::Norm(_) => "norm",
            ReduceOp::LogSumExp => "logsumexp",
            ReduceOp::CountNonzero => "count_nonzero",
        }
    }

    /// The dtype the reduction returns for an input dtype, or PyTorch's refusal.
    pub fn output_dtype(self, d: DType) -> Result<DType> {
        use ReduceOp::*;
        Ok(match self {
            Sum | SumInOrder | Prod if !d.is_float() => DType::I64,
            Sum | SumInOrder | Prod | Max | Min => d,
            ArgMax | ArgMin if d.is_bool() => {
                return Err(dtype_err(format!(
                    "{}() is not implemented for bool tensors",
                    self.name()
                ))
                .hint("convert first, e.g. t.long()"));
            }
            ArgMax | ArgMin | CountNonzero => DType::I64,
            // PyTorch keeps uint8 for all/any (a legacy of byte masks).
            All | Any if d == DType::U8 => DType::U8,
            All | Any => DType::Bool,
            LogSumExp => crate::tensor::promote::to_float(d),
            Mean | Var(_) | Std(_) | Norm(_) => {
                if !d.is_float() {
                    return Err(dtype_err(format!(
                        "{}() needs a floating point tensor, but this one is {}",
                        self.name(),
                        d
                    ))
                    .hint(format!("convert first: t.float().{}()", self.name())));
                }
                d
            }
        })
    }

    /// The dtype the kernel reads the input as (integers become float for the
    /// float-only reductions, e.g. logsumexp).
    pub fn input_dtype(self, d: DType) -> DType {
        match self {
            ReduceOp::LogSumExp => crate::tensor::promote::to_float(d),
            _ => d,
        }
    }

    /// PyTorch's grad_fn name, over all dims or some.
    pub fn grad_fn(self, all: bool) -> Option<&'static str> {
        use ReduceOp::*;
        Some(match (self, all) {
            (Sum | SumInOrder, true) => "SumBackward0",
            (Sum | SumInOrder, false) => "SumBackward1",
            (Mean, true) => "MeanBackward0",
            (Mean, false) => "MeanBackward1",
            (Prod, true) => "ProdBackward0",
            (Prod, false) => "ProdBackward1",
            (Max, _) => "MaxBackward1",
            (Min, _) => "MinBackward1",
            (Var(_), _) => "VarBackward0",
            (Std(_), _) => "StdBackward0",
            (Norm(_), _) => "LinalgVectorNormBackward0",
            (LogSumExp, _) => "LogsumexpBackward0",
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOp {
    Sum,
    Prod,
    Max,
    Min,
}

impl ScanOp {
    /// cumsum/cumprod of integers and bool give int64; cummax/cummin keep the dtype.
    pub fn output_dtype(self, d: DType) -> DType {
        match self {
            ScanOp::Sum | ScanOp::Prod if !d.is_float() => DType::I64,
            _ => d,
        }
    }
}

/// Element-wise ops of three operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TernaryOp {
    /// where(cond, a, b): the condition is the first operand.
    Where,
    /// clamp(x, lo, hi), NaN kept.
    Clamp,
    /// lerp(start, end, weight) as PyTorch computes it.
    Lerp,
    /// a + b * c rounded once, a fused multiply-add (PyTorch's add and sub with
    /// alpha, c alpha negated for sub; addcmul); float32 and float64 only.
    AddScaled,
}
