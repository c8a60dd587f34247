//! nn.Module's own methods (parameters, children, train/eval, zero_grad, to),
//! nn.Parameter, super, setattr, the module repr, and the layer classes of
//! nn_prelude.py, loaded on first use.

use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::classes::Object;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::{DType, Device, Tensor};

const PRELUDE: &str = concat!(
    include_str!("nn_prelude.py"),
    include_str!("rnn_prelude.py"),
    include_str!("nn_shapes_prelude.py"),
    include_str!("nn_training_prelude.py"),
    include_str!("nn_activation_prelude.py"),
    include_str!("nn_loss_prelude.py"),
    include_str!("nn_pool_conv_prelude.py"),
    include_str!("nn_conv_norm_prelude.py"),
    include_str!("nn_transformer_prelude.py"),
    include_str!("nn_sparse_prelude.py"),
    include_str!("autograd_prelude.py"),
    include_str!("benchmark_prelude.py")
);

/// The name error locations give the prelude's lines: they are not the
/// user's file's.
pub fn prelude_origin(text: &str) -> Option<&'static str> {
    (text.len() == PRELUDE.len() && text == PRELUDE).then_some("<tsh's torch.nn prelude>")
}

/// What autograd_prelude.py defines: torch.autograd's classes, and
/// torch.autograd.functional's functions.
pub const AUTOGRAD: &[&str] = &[
    "Function",
    "FunctionCtx",
    "RemovableHandle",
    "gradcheck",
    "gradgradcheck",
];
pub const AUTOGRAD_FUNCTIONAL: &[&str] = &["jacobian", "hessian", "vjp", "jvp"];

/// torch.nn.functional's functions that the prelude defines.
pub const PRELUDE_FUNCTIONAL: &[&str] = &[
    "relu",
    "conv1d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "interpolate",
    "dropout1d",
    "dropout2d",
    "smooth_l1_loss",
    "huber_loss",
    "kl_div",
    "hardtanh",
    "relu6",
    "hardshrink",
    "softshrink",
    "tanhshrink",
    "softsign",
    "softmin",
    "selu",
    "celu",
    "mish",
    "glu",
    "threshold",
    "prelu",
    "rrelu",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "native_channel_shuffle",
    "pairwise_distance",
    "bilinear",
    "alpha_dropout",
    "feature_alpha_dropout",
    "dropout3d",
    "cosine_embedding_loss",
    "hinge_embedding_loss",
    "margin_ranking_loss",
    "soft_margin_loss",
    "multilabel_soft_margin_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "poisson_nll_loss",
    "gaussian_nll_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "avg_pool1d",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d_with_indices",
    "max_pool3d",
    "avg_pool3d",
    "lp_pool1d",
    "lp_pool2d",
    "lp_pool3d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool3d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose3d",
    "instance_norm",
    "rms_norm",
    "local_response_norm",
    "upsample_nearest",
    "upsample_bilinear",
    "scaled_dot_product_attention",
    "gumbel_softmax",
    "embedding_bag",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d_with_indices",
    "ctc_loss",
    "linear_cross_entropy",
];

/// The prelude's functions that PyTorch also has at `torch.` (its ATen ops).
pub const PRELUDE_TORCH: &[&str] = &[
    "celu",
    "selu",
    "prelu",
    "rrelu",
    "hardshrink",
    "threshold",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "native_channel_shuffle",
    "pairwise_distance",
    "conv1d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose3d",
    "avg_pool1d",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool3d",
    "ctc_loss",
    "bilinear",
    "instance_norm",
    "rms_norm",
    "adaptive_avg_pool1d",
    "adaptive_max_pool1d",
    "cosine_embedding_loss",
    "hinge_embedding_loss",
    "margin_ranking_loss",
    "triplet_margin_loss",
    "poisson_nll_loss",
    "kl_div",
    "alpha_dropout",
    "feature_alpha_dropout",
];

/// torch.nn.utils's functions that the prelude defines.
pub const NN_UTILS: &[&str] = &["clip_grad_norm_", "clip_grad_value_"];

/// torch.utils.benchmark's classes, which benchmark_prelude.py defines.
pub const BENCHMARK: &[&str] = &["Timer", "Measurement", "TaskSpec"];

/// The names of torch.utils.data that the prelude defines.
pub const DATA: &[&str] = &[
    "Dataset",
    "TensorDataset",
    "DataLoader",
    "Subset",
    "ConcatDataset",
    "random_split",
];

/// The classes of torch.optim.lr_scheduler that the prelude defines.
pub const SCHEDULERS: &[&str] = &[
    "LRScheduler",
    "StepLR",
    "MultiStepLR",
    "ExponentialLR",
    "LambdaLR",
    "LinearLR",
    "CosineAnnealingLR",
    "OneCycleLR",
    "ReduceLROnPlateau",
];

/// The layer classes tsh writes in Python.
pub const LAYERS: &[&str] = &[
    "Linear",
    "Conv1d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "Upsample",
    "Unfold",
    "Fold",
    "Dropout1d",
    "Dropout2d",
    "SmoothL1Loss",
    "HuberLoss",
    "KLDivLoss",
    "ParameterList",
    "LazyLinear",
    "RNN",
    "LSTM",
    "GRU",
    "RNNCell",
    "LSTMCell",
    "GRUCell",
    "RNNBase",
    "RNNCellBase",
    "ReLU",
    "Sigmoid",
    "Tanh",
    "GELU",
    "LeakyReLU",
    "Softmax",
    "LogSoftmax",
    "Flatten",
    "Dropout",
    "Identity",
    "Sequential",
    "Conv2d",
    "MaxPool2d",
    "AvgPool2d",
    "Dataset",
    "TensorDataset",
    "DataLoader",
    "Subset",
    "ConcatDataset",
    "random_split",
    "MSELoss",
    "L1Loss",
    "CrossEntropyLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "NLLLoss",
    "ModuleList",
    "ModuleDict",
    "LayerNorm",
    "GroupNorm",
    "BatchNorm1d",
    "BatchNorm2d",
    "Embedding",
    "Unflatten",
    "SiLU",
    "ELU",
    "Softplus",
    "LogSigmoid",
    "Hardtanh",
    "ReLU6",
    "Hardsigmoid",
    "Hardswish",
    "Hardshrink",
    "Softshrink",
    "Tanhshrink",
    "Softsign",
    "Mish",
    "Softmin",
    "Softmax2d",
    "SELU",
    "CELU",
    "GLU",
    "Threshold",
    "PReLU",
    "RReLU",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "PixelShuffle",
    "PixelUnshuffle",
    "ChannelShuffle",
    "PairwiseDistance",
    "CosineSimilarity",
    "Bilinear",
    "AlphaDropout",
    "FeatureAlphaDropout",
    "Dropout3d",
    "CosineEmbeddingLoss",
    "HingeEmbeddingLoss",
    "MarginRankingLoss",
    "SoftMarginLoss",
    "MultiLabelSoftMarginLoss",
    "MultiLabelMarginLoss",
    "MultiMarginLoss",
    "TripletMarginLoss",
    "CTCLoss",
    "LinearCrossEntropyLoss",
    "FractionalMaxPool2d",
    "FractionalMaxPool3d",
    "TripletMarginWithDistanceLoss",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
    "MaxPool1d",
    "MaxPool3d",
    "AvgPool1d",
    "AvgPool3d",
    "LPPool1d",
    "LPPool2d",
    "LPPool3d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "BatchNorm3d",
    "RMSNorm",
    "LocalResponseNorm",
    "UpsamplingNearest2d",
    "UpsamplingBilinear2d",
    "MultiheadAttention",
    "NonDynamicallyQuantizableLinear",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerDecoder",
    "Transformer",
    "EmbeddingBag",
];

pub const ROWS: &[Builtin] = &[
    row!(
        Python,
        "super",
        "super(type=None, obj=None)",
        "Inside a method: the instance, seen from its class's bases.",
        "super",
        super_
    ),
    row!(
        Python,
        "setattr",
        "setattr(obj, name, value)",
        "Set an attribute by name.",
        "setattr",
        setattr
    ),
    row!(
        Module,
        "nn.Parameter",
        "nn.Parameter(data, requires_grad=True)",
        "A tensor that a module lists among its parameters().",
        "nn.Parameter(torch.zeros(2))",
        parameter
    ),
];

/// Methods every nn.Module instance has.
pub const METHODS: &[Builtin] = &[
    row!(
        Method,
        "parameters",
        "module.parameters()",
        "Its parameters and its children's, in order.",
        "nn.Linear(2, 1).parameters()",
        parameters
    ),
    row!(
        Method,
        "named_parameters",
        "module.named_parameters()",
        "(name, parameter) pairs, in order.",
        "nn.Linear(2, 1).named_parameters()",
        named_parameters
    ),
    row!(
        Method,
        "children",
        "module.children()",
        "Its submodules, in order.",
        "nn.Sequential(nn.ReLU()).children()",
        children
    ),
    row!(
        Method,
        "named_children",
        "module.named_children()",
        "(name, submodule) pairs.",
        "nn.Sequential(nn.ReLU()).named_children()",
        named_children
    ),
    row!(
        Method,
        "zero_grad",
        "module.zero_grad()",
        "Clear every parameter's .grad.",
        "nn.Linear(2, 1).zero_grad()",
        zero_grad
    ),
    row!(
        Method,
        "train",
        "module.train(mode=True)",
        "Training mode (dropout on), for it and its children.",
        "nn.Dropout().train()",
        train
    ),
    row!(
        Method,
        "eval",
        "module.eval()",
        "Evaluation mode (dropout off).",
        "nn.Dropout().eval()",
        eval
    ),
    row!(
        Method,
        "to",
        "module.to(device=None, dtype=None)",
        "The module itself, its parameters (and their gradients) moved to the device and/or cast to the floating dtype; move a model before making its optimizer.",
        "nn.Linear(2, 1).to('cpu')",
        to
    ),
    row!(
        Method,
        "cpu",
        "module.cpu()",
        "The module itself, its parameters moved to the cpu.",
        "nn.Linear(2, 1).cpu()",
        cpu
    ),
    row!(
        Method,
        "cuda",
        "module.cuda(device=None)",
        "The module itself, its parameters moved to the CUDA device.",
        "nn.Linear(2, 1).cuda() if torch.cuda.is_available() else None",
        cuda
    ),
    row!(
        Method,
        "double",
        "module.double()",
        "The module itself, its floating parameters cast to float64.",
        "nn.Linear(2, 1).double().weight.dtype",
        double
    ),
    row!(
        Method,
        "float",
        "module.float()",
        "The module itself, its floating parameters cast to float32.",
        "nn.Linear(2, 1).double().float().weight.dtype",
        float
    ),
    row!(
        Method,
        "half",
        "module.half()",
        "The module itself, its floating parameters cast to float16.",
        "nn.Linear(2, 1).half().weight.dtype",
        half
    ),
    row!(
        Method,
        "bfloat16",
        "module.bfloat16()",
        "The module itself, its floating parameters cast to bfloat16.",
        "nn.Linear(2, 1).bfloat16().weight.dtype",
        bfloat16
    ),
    row!(
        Method,
        "__init__",
        "Module.__init__()",
        "nn.Module's own setup (nothing to do in tsh).",
        "nn.Module().__init__()",
        init
    ),
    row!(
        Method,
        "extra_repr",
        "module.extra_repr()",
        "The text inside the module's parentheses.",
        "nn.Linear(2, 1).extra_repr()",
        extra_repr
    ),
];

pub fn module_method(name: &str) -> Option<&'static Builtin> {
    METHODS
        .iter()
        .chain(super::module_state::METHODS)
        .chain(super::module_hooks::METHODS)
        .find(|b| b.name == name)
}

/// The file of torch.nn.modules a layer lives in (its class path says so).
fn home(name: &str) -> &'static str {
    match name {
        "Linear" | "Identity" | "Bilinear" | "LazyLinear" | "NonDynamicallyQuantizableLinear" => {
            "linear"
        }
        n if n.starts_with("Transformer") => "transformer",
        "Dataset" | "TensorDataset" | "Subset" | "ConcatDataset" => "dataset",
        "DataLoader" => "dataloader",
        "Flatten" | "Unflatten" => "flatten",
        "LayerNorm" | "GroupNorm" | "RMSNorm" | "LocalResponseNorm" => "normalization",
        "Embedding" | "EmbeddingBag" => "sparse",
        "PixelShuffle" | "PixelUnshuffle" => "pixelshuffle",
        "ChannelShuffle" => "channelshuffle",
        "PairwiseDistance" | "CosineSimilarity" => "distance",
        "ModuleList" | "ModuleDict" | "Sequential" | "ParameterList" => "container",
        "Upsample" | "UpsamplingNearest2d" | "UpsamplingBilinear2d" => "upsampling",
        "Unfold" | "Fold" => "fold",
        n if n.starts_with("BatchNorm") => "batchnorm",
        n if n.starts_with("InstanceNorm") => "instancenorm",
        n if n.starts_with("Conv") => "conv",
        n if n.contains("Pool") || n.contains("Unpool") => "pooling",
        n if n.contains("Pad") => "padding",
        n if n.contains("Dropout") => "dropout",
        n if n.starts_with("RNN") || matches!(n, "LSTM" | "GRU" | "LSTMCell" | "GRUCell") => "rnn",
        n if n.ends_with("Loss") => "loss",
        _ => "activation",
    }
}

/// `super()`, or Python 2's spelling `super(Class, self)` that recipes still write.
fn super_(it: &mut Interp, mut a: Args) -> Result<Value> {
    let class = a.take("type");
    let obj = a.take("obj");
    a.finish()?;
    match (class, obj) {
        (None, None) => it.super_proxy(),
        (Some((Value::Class(c), _)), Some((obj @ Value::Object(_), _))) => {
            Ok(Value::Super(Rc::new((obj, c))))
        }
        (Some((other, s)), _) => Err(type_err(format!(
            "super() argument 1 must be a type, not {}",
            other.type_name()
        ))
        .at(s)),
        (None, Some(_)) => Err(type_err("super() needs the class first")),
    }
}

fn setattr(it: &mut Interp, mut a: Args) -> Result<Value> {
    let obj = a.value("obj")?;
    let name = a.string("name")?;
    let v = a.value("value")?;
    a.finish()?;
    super::set_attr(it, &obj, &name, v)?;
    Ok(Value::None)
}

fn parameter(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("data")?;
    let grad = a.flag("requires_grad", true)?;
    a.finish()?;
    // Shares the data (as PyTorch's Parameter does) and is a leaf.
    let p = t.detached();
    if grad {
        p.set_requires_grad(true);
    }
    crate::nn::parameter::mark(&p);
    Ok(Value::Tensor(p))
}

fn receiver(a: &mut Args) -> Result<Rc<Object>> {
    match a.value("self")? {
        Value::Object(o) => Ok(o),
        other => Err(type_err(format!("{} is not a module", other.a_type_name()))),
    }
}

/// The module and its submodules, depth first, each once (a module that holds
/// itself, directly or not, is not walked again), with their name prefixes.
pub(super) fn modules_of(o: &Rc<Object>) -> Vec<(String, Rc<Object>)> {
    let mut out: Vec<(String, Rc<Object>)> = vec![];
    let mut stack = vec![(String::new(), o.clone())];
    while let Some((prefix, m)) = stack.pop() {
        if out.iter().any(|(_, seen)| Rc::ptr_eq(seen, &m)) {
            continue;
        }
        let kids = child_modules(&m);
        out.push((prefix.clone(), m));
        for (name, c) in kids.into_iter().rev() {
            stack.push((format!("{prefix}{name}."), c));
        }
    }
    out
}

/// (name, parameter) of a module and its children, depth first, each once.
fn walk_parameters(o: &Rc<Object>, out: &mut Vec<(String, crate::tensor::Tensor)>) {
    for (prefix, m) in modules_of(o) {
        for (name, v) in m.attrs.borrow().iter() {
            if let Value::Tensor(t) = v
                && crate::nn::parameter::is_parameter(t)
                && !out.iter().any(|(_, p)| p.same_tensor(t))
            {
                out.push((format!("{prefix}{name}"), t.clone()));
            }
        }
    }
}

fn named_list(o: &Rc<Object>) -> Vec<(String, crate::tensor::Tensor)> {
    let mut out = vec![];
    walk_parameters(o, &mut out);
    out
}

fn parameters(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    let _ = a.take_kw("recurse");
    a.finish()?;
    let params = named_list(&o)
        .into_iter()
        .map(|(_, t)| Value::Tensor(t))
        .collect();
    Ok(generator("parameters", params))
}

fn named_parameters(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    a.finish()?;
    let pairs = named_list(&o)
        .into_iter()
        .map(|(n, t)| Value::tuple(vec![Value::Str(n.into()), Value::Tensor(t)]))
        .collect();
    Ok(generator("named_parameters", pairs))
}

pub(super) fn child_modules(o: &Rc<Object>) -> Vec<(Rc<str>, Rc<Object>)> {
    o.attrs
        .borrow()
        .iter()
        .filter_map(|(n, v)| match v {
            Value::Object(c) if c.class.module => Some((n.clone(), c.clone())),
            _ => None,
        })
        .collect()
}

/// What PyTorch's module methods return: a generator (tsh's are eager).
pub(super) fn generator(method: &str, items: Vec<Value>) -> Value {
    crate::interp::value::Iter::value(format!("generator object Module.{method}"), items)
}

fn children(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    a.finish()?;
    let kids = child_modules(&o)
        .into_iter()
        .map(|(_, c)| Value::Object(c))
        .collect();
    Ok(generator("children", kids))
}

fn named_children(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    a.finish()?;
    let kids = child_modules(&o)
        .into_iter()
        .map(|(n, c)| Value::tuple(vec![Value::Str(n.into()), Value::Object(c)]))
        .collect();
    Ok(generator("named_children", kids))
}

fn zero_grad(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    let _ = a.take_kw("set_to_none");
    a.finish()?;
    for (_, t) in named_list(&o) {
        t.set_grad(None);
    }
    Ok(Value::None)
}

fn set_training(o: &Rc<Object>, mode: bool) {
    for (_, m) in modules_of(o) {
        m.set(Rc::from("training"), Value::Bool(mode));
    }
}

fn train(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    let mode = a.flag("mode", true)?;
    a.finish()?;
    set_training(&o, mode);
    Ok(Value::Object(o))
}

fn eval(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    a.finish()?;
    set_training(&o, false);
    Ok(Value::Object(o))
}

fn to(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    let (dtype, device) = super::convert_methods::to_arguments(&mut a)?;
    if let Some(d) = dtype.filter(|d| !d.is_float()) {
        return Err(type_err(format!(
            "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.{d}"
        )));
    }
    convert_module(&o, dtype, device)
}

fn cpu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    a.finish()?;
    convert_module(&o, None, Some(Device::Cpu))
}

fn cuda(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = receiver(&mut a)?;
    let device = super::convert_methods::cuda_argument(&mut a)?;
    convert_module(&o, None, Some(device))
}

/// `module.double()`, `.float()`, `.half()`, `.bfloat16()`.
fn cast(mut a: Args, dtype: DType) -> Result<Value> {
    let o = receiver(&mut a)?;
    a.finish()?;
    convert_module(&o, Some(dtype), None)
}

fn double(_: &mut Interp, a: Args) -> Result<Value> {
    cast(a, DType::F64)
}

fn float(_: &mut Interp, a: Args) -> Result<Value> {
    cast(a, DType::F32)
}

fn half(_: &mut Interp, a: Args) -> Result<Value> {
    cast(a, DType::F16)
}

fn bfloat16(_: &mut Interp, a: Args) -> Result<Value> {
    cast(a, DType::BF16)
}

/// PyTorch's Module._apply: every parameter of the module and its children,
/// with its gradient, converted (a dtype applies to floating parameters only).
/// The modules stay the same objects; a converted parameter is a new leaf
/// (shared parameters stay shared), so, as the tutorials do, move the model
/// before making its optimizer.
fn convert_module(o: &Rc<Object>, dtype: Option<DType>, device: Option<Device>) -> Result<Value> {
    if let Some(d) = device {
        d.check_available()?;
    }
    let mut done: Vec<(Tensor, Tensor)> = vec![];
    for (_, m) in modules_of(o) {
        let params: Vec<(Rc<str>, Tensor)> = m
            .attrs
            .borrow()
            .iter()
            .filter_map(|(n, v)| match v {
                Value::Tensor(t) if crate::nn::parameter::is_parameter(t) => {
                    Some((n.clone(), t.clone()))
                }
                _ => None,
            })
            .collect();
        for (name, p) in params {
            let new = match done.iter().find(|(old, _)| old.same_tensor(&p)) {
                Some((_, new)) => new.clone(),
                None => {
                    let new = converted_parameter(&p, dtype, device)?;
                    if !new.same_tensor(&p) {
                        crate::nn::parameter::mark_replaced(&p);
                    }
                    done.push((p, new.clone()));
                    new
                }
            };
            m.set(name, Value::Tensor(new));
        }
        // Buffers (BatchNorm's running statistics) move too, floating ones cast.
        for (name, b) in super::module_state::own_buffers(&m) {
            let dt = dtype.filter(|_| b.dtype().is_float()).unwrap_or(b.dtype());
            let moved = crate::autograd::no_grad(|| {
                b.to_device(device.unwrap_or(b.device()))?.to_dtype(dt)
            })?;
            m.set(name.into(), Value::Tensor(moved));
        }
    }
    Ok(Value::Object(o.clone()))
}

fn converted_parameter(p: &Tensor, dtype: Option<DType>, device: Option<Device>) -> Result<Tensor> {
    let dtype = dtype.filter(|_| p.dtype().is_float()).unwrap_or(p.dtype());
    let device = device.unwrap_or(p.device());
    if dtype == p.dtype() && device == p.device() {
        return Ok(p.clone());
    }
    let moved = |t: &Tensor| {
        crate::autograd::no_grad(|| t.to_device(device).and_then(|t| t.to_dtype(dtype)))
    };
    let new = moved(p)?.detached();
    new.set_requires_grad(p.requires_grad());
    crate::nn::parameter::mark(&new);
    if let Some(g) = p.grad() {
        new.set_grad(Some(moved(&g)?));
    }
    Ok(new)
}

fn init(_: &mut Interp, a: Args) -> Result<Value> {
    let _ = a.positional;
    Ok(Value::None)
}

fn extra_repr(_: &mut Interp, a: Args) -> Result<Value> {
    let _ = a.positional;
    Ok(Value::str(""))
}

impl Interp {
    /// `nn.Linear` and the other layers of nn_prelude.py (run once, on first use).
    pub fn nn_layer(&mut self, name: &str) -> Result<Option<Value>> {
        let known = [
            LAYERS,
            SCHEDULERS,
            AUTOGRAD,
            AUTOGRAD_FUNCTIONAL,
            PRELUDE_FUNCTIONAL,
            NN_UTILS,
            BENCHMARK,
        ];
        if !known.iter().any(|names| names.contains(&name)) || self.nn_loading {
            return Ok(None);
        }
        if self.nn_classes.is_none() {
            self.nn_loading = true;
            let loaded = self.load_prelude();
            self.nn_loading = false;
            self.nn_classes = Some(loaded?);
        }
        Ok(self.nn_classes.as_ref().and_then(|m| m.get(name).cloned()))
    }

    fn load_prelude(&mut self) -> Result<crate::interp::value::Vars> {
        let program = crate::syntax::parse_program(PRELUDE)?;
        // Run at the top level of a scope of its own, even when first asked for
        // inside a running function.
        // Its top level is a scope of its own, which its classes' methods close
        // over (so they see its helpers, and none of the user's names shadow them).
        let saved = std::mem::replace(&mut self.source, Rc::from(PRELUDE));
        let scope = Rc::new(crate::interp::value::Scope::default());
        let locals = std::mem::replace(&mut self.locals, vec![scope.clone()]);
        let r = program.iter().try_for_each(|s| self.exec(s).map(|_| ()));
        self.locals = locals;
        self.source = saved;
        let defined: crate::interp::value::Vars = scope.vars.borrow().clone();
        r?;
        for (name, v) in &defined {
            if let Value::Class(c) = v {
                let home = home(name);
                let path = if SCHEDULERS.contains(&name.as_ref()) {
                    "torch.optim.lr_scheduler".to_string()
                } else if name.as_ref() == "RemovableHandle" {
                    "torch.utils.hooks".to_string()
                } else if name.as_ref() == "Timer" {
                    "torch.utils.benchmark.utils.timer".to_string()
                } else if BENCHMARK.contains(&name.as_ref()) {
                    "torch.utils.benchmark.utils.common".to_string()
                } else if AUTOGRAD.contains(&name.as_ref()) {
                    "torch.autograd.function".to_string()
                } else if matches!(home, "dataset" | "dataloader") {
                    format!("torch.utils.data.{home}")
                } else {
                    format!("torch.nn.modules.{home}")
                };
                *c.path.borrow_mut() = Rc::from(path);
            }
        }
        Ok(defined)
    }

    /// PyTorch's module repr: `Net(\n  (fc): Linear(...)\n)`.
    pub fn module_repr(&mut self, o: &Rc<Object>) -> String {
        // A module that holds itself would print forever (PyTorch's recursion
        // error); the walk stops at the nesting limit every printer shares.
        let Some(_level) = crate::interp::value::Nested::enter() else {
            return format!("{}(...)", o.class.name);
        };
        let extra = match crate::interp::classes::object_attr(o, "extra_repr") {
            Some(f) => match self.call(&f, vec![], vec![], Default::default()) {
                Ok(Value::Str(s)) => s.to_string(),
                _ => String::new(),
            },
            None => String::new(),
        };
        let mut lines: Vec<String> = extra
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        for (name, child) in child_modules(o) {
            let text = self.module_repr(&child).replace('\n', "\n  ");
            lines.push(format!("({name}): {text}"));
        }
        let name = &o.class.name;
        match lines.as_slice() {
            [] => format!("{name}()"),
            [one] if child_modules(o).is_empty() => format!("{name}({one})"),
            _ => format!("{name}(\n  {}\n)", lines.join("\n  ")),
        }
    }
}
