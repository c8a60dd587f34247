//! The tables of builtins: every function, method and namespace is a row
//! (name, signature, one-line help, implementation). The same rows drive calls,
//! `:help` and completion.

mod accel;
mod arrange;
mod attrs;
mod autograd;
mod autograd_fn;
mod backend_flags;
mod complex;
mod convert_methods;
mod creation;
pub mod distributions;
mod dtype_info;
mod einsum;
mod fft;
mod generators;
mod init;
mod inplace;
mod io;
mod join;
mod linalg;
mod linalg_lu;
mod math;
mod matrix;
pub mod module_hooks;
mod module_state;
pub mod modules;
mod nn;
mod nn_norm;
pub mod nnmodule;
mod numpy;
mod ops;
pub mod optim;
mod optim_state;
mod order;
mod products;
mod pycombinatorics;
mod pycompat;
mod pycopy;
pub(super) mod pyinteger;
mod pyiter;
mod pyitertools;
mod pymath;
mod pymethods;
pub mod pyos;
pub(crate) mod pyrandom;
mod pyset_rows;
pub(crate) mod pyspecial;
pub mod pysys;
mod python;
mod pytime;
mod pytiming;
mod pytypes;
pub(crate) mod pywarnings;
mod quantize;
mod quantized_tensor;
mod recurrent;
mod reduce;
pub mod runtime_switches;
mod select;
mod shape;
mod sparse;
mod sparse_methods;
mod special_fns;
mod stats;
mod teach;
mod tensor_methods;
mod testing;
mod threads;
mod torch_file;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use super::Interp;
use super::args::Args;
use super::value::{FxHasher, Value};
use crate::error::Result;
use crate::tensor::DType;

pub use attrs::{attr_names, get_attr, receiver_method, set_attr, tensor_attr_names};
pub use dtype_info::g6;
pub use nnmodule::{LAYERS, module_method};
pub use pytypes::{class_of, same_class};
pub use sparse_methods::{binary as sparse_binary, negated as sparse_negated};

/// Where a builtin can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A function: bare and as `torch.NAME`.
    Function,
    /// A tensor method only: `t.NAME(...)`.
    Method,
    /// Both: `torch.NAME(t, ...)` and `t.NAME(...)` (the receiver is the first argument).
    Both,
    /// A Python builtin (`print`, `len`): bare only.
    Python,
    /// Python's `math` module: `math.NAME(...)` only.
    Math,
    /// Only through its module: the row `cuda.is_available` is `torch.cuda.is_available`.
    Module,
}

pub type BuiltinFn = fn(&mut Interp, Args) -> Result<Value>;

pub struct Builtin {
    pub name: &'static str,
    pub sig: &'static str,
    pub help: &'static str,
    /// A line that runs (`:help`, docs/reference.md; a test runs every one).
    pub example: &'static str,
    pub reach: Reach,
    pub func: BuiltinFn,
    /// An `op!` row's parameters as its closure reads them: (name, type, optional).
    /// A test checks them against the schema (`sig`).
    pub typed: &'static [(&'static str, &'static str, bool)],
    /// The row also makes the in-place method `name_`.
    pub inplace: bool,
}

/// A table row: `row!(Reach, "name", "sig", "help", "example", func)`.
#[macro_export]
macro_rules! row {
    ($reach:ident, $name:literal, $sig:literal, $help:literal, $example:literal, $f:expr) => {
        $crate::interp::builtins::Builtin {
            name: $name,
            sig: $sig,
            help: $help,
            example: $example,
            reach: $crate::interp::builtins::Reach::$reach,
            func: $f,
            typed: &[],
            inplace: false,
        }
    };
}

fn tables() -> [&'static [Builtin]; 55] {
    [
        sparse::ROWS,
        pywarnings::ROWS,
        quantize::ROWS,
        pyset_rows::ROWS,
        testing::ROWS,
        fft::ROWS,
        complex::ROWS,
        linalg::ROWS,
        linalg_lu::ROWS,
        autograd_fn::ROWS,
        generators::ROWS,
        stats::ROWS,
        dtype_info::ROWS,
        autograd::MODULE_ROWS,
        nn_norm::ROWS,
        recurrent::ROWS,
        arrange::ROWS,
        nnmodule::ROWS,
        pyiter::ROWS,
        einsum::ROWS,
        select::ROWS,
        pyrandom::ROWS,
        pytime::ROWS,
        pysys::ROWS,
        pyos::ROWS,
        runtime_switches::ROWS,
        pytiming::ROWS,
        threads::ROWS,
        pycopy::ROWS,
        pyitertools::ROWS,
        pycombinatorics::ROWS,
        matrix::ROWS,
        special_fns::ROWS,
        distributions::ROWS,
        numpy::ROWS,
        pycompat::ROWS,
        accel::ROWS,
        pytypes::ROWS,
        io::ROWS,
        teach::ROWS,
        autograd::ROWS,
        nn::ROWS,
        init::ROWS,
        optim::ROWS,
        python::ROWS,
        creation::ROWS,
        math::ROWS,
        reduce::ROWS,
        shape::ROWS,
        join::ROWS,
        products::ROWS,
        order::ROWS,
        tensor_methods::ROWS,
        convert_methods::ROWS,
        inplace::ROWS,
    ]
}

/// Methods of lists, dicts, shapes, grad_fn nodes, optimizers and sparse tensors (reached only
/// through a value of that kind, so not in the tensor method index).
pub fn value_methods() -> impl Iterator<Item = &'static Builtin> {
    attrs::value_methods()
        .chain(optim::optimizer_methods())
        .chain(distributions::METHODS)
        .chain(nnmodule::METHODS)
        .chain(module_state::METHODS)
        .chain(module_hooks::METHODS)
        .chain(generators::METHODS)
        .chain(pyset_rows::all_methods())
        .chain(sparse_methods::METHODS)
        .chain(quantized_tensor::METHODS)
}

/// Every builtin row, for `:help` and completion.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    tables()
        .into_iter()
        .flat_map(|t| t.iter())
        .chain(ops::rows())
        .chain(pymath::rows())
}

/// Builtins by name, FxHashed as variables are (every method call looks one up).
type Table = HashMap<&'static str, &'static Builtin, BuildHasherDefault<FxHasher>>;

struct Index {
    functions: Table,
    methods: Table,
    python: Table,
    math: Table,
    /// Rows reached through a submodule, by `submodule.name`.
    module: Table,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut ix = Index {
            functions: Table::default(),
            methods: Table::default(),
            python: Table::default(),
            math: Table::default(),
            module: Table::default(),
        };
        for b in all() {
            match b.reach {
                Reach::Function => {
                    ix.functions.insert(b.name, b);
                }
                Reach::Method => {
                    ix.methods.insert(b.name, b);
                }
                Reach::Both => {
                    ix.functions.insert(b.name, b);
                    ix.methods.insert(b.name, b);
                }
                Reach::Python => {
                    ix.python.insert(b.name, b);
                }
                Reach::Math => {
                    ix.math.insert(b.name, b);
                }
                Reach::Module => {
                    ix.module.insert(b.name, b);
                }
            }
        }
        for b in inplace_variants() {
            // A method written by hand (add_'s alpha, mul_) stays.
            ix.methods.entry(b.name).or_insert(b);
        }
        ix
    })
}

/// Methods whose `name_` PyTorch has, beyond the rows marked `inplace` (the
/// op rows): rows with arguments of their own, written elsewhere.
const ALSO_INPLACE: &[&str] = &[
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "round",
    "logit",
    "lerp",
    "clamp_min",
    "clamp_max",
    "clip",
    "cumsum",
    "cumprod",
    "nan_to_num",
    "mvlgamma",
    "polygamma",
    "float_power",
    "sgn",
    "gcd",
    "lcm",
    "ldexp",
    "heaviside",
    "logical_not",
];

/// The methods `name_` of the rows marked `inplace`.
fn inplace_variants() -> &'static [Builtin] {
    static ROWS: OnceLock<Vec<Builtin>> = OnceLock::new();
    ROWS.get_or_init(|| {
        all()
            .filter(|b| {
                b.inplace
                    || (ALSO_INPLACE.contains(&b.name)
                        && matches!(b.reach, Reach::Method | Reach::Both))
            })
            .map(|b| Builtin {
                name: ops::leak(format!("{}_", b.name)),
                sig: ops::leak(b.sig.replacen('(', "_(", 1)),
                help: ops::leak(format!("In place: {}", b.help)),
                example: "",
                reach: Reach::Method,
                func: |it, args| {
                    let base = args.name.strip_suffix('_').and_then(method);
                    match base {
                        Some(base) => crate::interp::bind::call_inplace(it, base, args),
                        None => Err(crate::error::type_err(format!("no {}", args.name))),
                    }
                },
                typed: &[],
                inplace: false,
            })
            .collect()
    })
}

pub fn method(name: &str) -> Option<&'static Builtin> {
    index().methods.get(name).copied()
}

pub fn torch_function(name: &str) -> Option<&'static Builtin> {
    index().functions.get(name).copied()
}

pub fn find(name: &str) -> Option<&'static Builtin> {
    let ix = index();
    ix.python
        .get(name)
        .or_else(|| ix.functions.get(name))
        .or_else(|| ix.methods.get(name))
        .copied()
}

/// Names of namespaces and what they hold.
pub const MODULES: [(&str, &str); 8] = [
    ("np", "numpy"),
    ("optim", "torch.optim"),
    ("init", "torch.nn.init"),
    ("torch", "torch"),
    ("nn", "torch.nn"),
    ("F", "torch.nn.functional"),
    ("functional", "torch.nn.functional"),
    ("math", "math"),
];

fn constant(name: &str) -> Option<Value> {
    Some(match name {
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "inf" => Value::Float(f64::INFINITY),
        "nan" => Value::Float(f64::NAN),
        "cpu" => Value::Device(crate::tensor::Device::Cpu),
        "strided" => Value::Layout("strided"),
        n => {
            return crate::tensor::sparse::SparseLayout::from_name(n)
                .map(|l| Value::Layout(l.name()));
        }
    })
}

/// A dtype by name, but not the Python type names `int`, `float`, `bool`
/// (bare, those are Python's conversion functions; as `torch.int` they are dtypes).
fn dtype_global(name: &str) -> Option<DType> {
    match name {
        "int" | "float" | "bool" => None,
        _ => DType::from_name(name),
    }
}

/// What a bare name means when no variable has it.
pub fn global(name: &str) -> Option<Value> {
    if name == "torch" {
        return Some(Value::Module("torch"));
    }
    // A script or entry always runs as Python's main module does.
    if name == "__name__" {
        return Some(Value::str("__main__"));
    }
    if let Some((_, path)) = MODULES.iter().find(|(n, _)| *n == name) {
        return Some(Value::Module(path));
    }
    let ix = index();
    if let Some(b) = ix.python.get(name).or_else(|| ix.functions.get(name)) {
        return Some(Value::Builtin(b));
    }
    if let Some(d) = dtype_global(name) {
        return Some(Value::DType(d));
    }
    quantized_name(name).or_else(|| constant(name))
}

/// `torch.quint8` and the other quantized dtypes, and the quantization schemes.
fn quantized_name(name: &str) -> Option<Value> {
    use crate::tensor::quantized::{QDType, QScheme};
    QDType::from_name(name)
        .map(Value::QDType)
        .or_else(|| QScheme::from_name(name).map(Value::QScheme))
}

/// What `torch.random` holds, of the names tsh has.
const TORCH_RANDOM: &[&str] = &[
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "thread_safe_generator",
];

/// `module.name`: only the names that module holds in PyTorch (or Python), of
/// those tsh has.
/// The module table's row `short.name`, its key built on the stack: an
/// attribute such as `torch.cat` is looked up on every call, and formatting
/// the key was an allocation each time.
fn module_row(short: &str, name: &str) -> Option<&'static Builtin> {
    let mut buf = [0u8; 64];
    match dotted(&mut buf, short, name) {
        Some(key) => index().module.get(key).copied(),
        None => index()
            .module
            .get(format!("{short}.{name}").as_str())
            .copied(),
    }
}

/// `module.name` spelled into `buf`, when it fits.
pub(super) fn dotted<'a>(buf: &'a mut [u8; 64], module: &str, name: &str) -> Option<&'a str> {
    let key = buf.get_mut(..module.len() + 1 + name.len())?;
    key[..module.len()].copy_from_slice(module.as_bytes());
    key[module.len()] = b'.';
    key[module.len() + 1..].copy_from_slice(name.as_bytes());
    // Two strs joined by an ASCII dot are UTF-8.
    std::str::from_utf8(key).ok()
}

pub fn module_attr(module: &str, name: &str) -> Option<Value> {
    if let Some(m) = backend_flags::submodule(module, name) {
        return Some(Value::Module(m));
    }
    if let Some(v) = backend_flags::get(module, name) {
        return Some(v);
    }
    match (module, name) {
        ("torch", "nn") => Some(Value::Module("torch.nn")),
        ("torch.nn", "functional") => Some(Value::Module("torch.nn.functional")),
        ("torch.nn", "init") => Some(Value::Module("torch.nn.init")),
        ("torch.nn", "utils") => Some(Value::Module("torch.nn.utils")),
        ("torch.nn", "Module") => Some(Value::Class(crate::interp::classes::module_base())),
        ("torch.nn", "Parameter") => index()
            .module
            .get("nn.Parameter")
            .map(|b| Value::Builtin(b)),
        ("torch", "optim") => Some(Value::Module("torch.optim")),
        ("torch.optim", "lr_scheduler") => Some(Value::Module("torch.optim.lr_scheduler")),
        ("torch", "linalg") => Some(Value::Module("torch.linalg")),
        ("torch", "fft") => Some(Value::Module("torch.fft")),
        ("torch", "sparse") => Some(Value::Module("torch.sparse")),
        ("torch", "testing") => Some(Value::Module("torch.testing")),
        ("torch", "random") => Some(Value::Module("torch.random")),
        // `from torch.distributions import multinomial` (d2l writes it).
        ("torch.distributions", n) if crate::interp::pystmt::DISTRIBUTION_MODULES.contains(&n) => {
            Some(Value::Module("torch.distributions"))
        }
        // torch.random holds the default generator's functions.
        ("torch.random", n) if TORCH_RANDOM.contains(&n) => module_attr("torch", n),
        ("torch", "autograd") => Some(Value::Module("torch.autograd")),
        ("torch", "special") => Some(Value::Module("torch.special")),
        ("torch.special", n) => modules::special(n)
            .and_then(torch_function)
            .or_else(|| module_row("special", n))
            .map(Value::Builtin),
        ("torch.autograd", "functional") => Some(Value::Module("torch.autograd.functional")),
        ("torch", "Tensor") => torch_function("Tensor").map(Value::Builtin),
        // The PyTorch whose behaviour tsh follows.
        ("torch", "__version__") => Some(Value::str("2.15.0")),
        ("sys", n) if pysys::attr(n).is_some() => pysys::attr(n),
        ("os", n) if pyos::attr(n).is_some() => pyos::attr(n),
        (m, n) if accel::submodule(m, n).is_some() => accel::submodule(m, n).map(Value::Module),
        ("numpy", n) => numpy::attr(n).or_else(|| module_row("np", n).map(Value::Builtin)),
        (
            "torch.cuda"
            | "torch.accelerator"
            | "torch.backends.mps"
            | "torch.distributions"
            | "torch.linalg"
            | "torch.fft"
            | "torch.sparse"
            | "torch.testing"
            | "torch.autograd"
            | "random"
            | "time"
            | "copy"
            | "itertools"
            | "warnings"
            | "sys"
            | "timeit"
            | "statistics"
            | "gc"
            | "os"
            | "os.path"
            | "torch.jit"
            | "torch.backends.mkldnn"
            | "torch.backends.cpu"
            | "sys.stdout"
            | "sys.stderr",
            n,
        ) => {
            let short = module.rsplit('.').next().unwrap_or(module);
            module_row(short, n).map(Value::Builtin)
        }
        ("torch", n) if modules::NOT_IN_TORCH.contains(&n) => None,
        ("torch", n) => {
            if let Some(b) = module_row("torch", n) {
                return Some(Value::Builtin(b));
            }
            if let Some(d) = DType::from_name(n) {
                return Some(Value::DType(d));
            }
            torch_function(n)
                .map(Value::Builtin)
                .or_else(|| quantized_name(n))
                .or_else(|| constant(n))
        }
        ("torch.nn.functional", n) if modules::FUNCTIONAL.contains(&n) => {
            torch_function(n).map(Value::Builtin)
        }
        ("torch.optim", n) if modules::OPTIM.contains(&n) => torch_function(n).map(Value::Builtin),
        ("torch.nn.init", n) if modules::INIT.contains(&n) => torch_function(n).map(Value::Builtin),
        ("math", n) => index()
            .math
            .get(n)
            .map(|b| Value::Builtin(b))
            .or_else(|| pymath::constant(n)),
        _ => None,
    }
}

/// What `module` holds that tsh has (completion, suggestions).
pub fn module_names(module: &str) -> Vec<&'static str> {
    // Rows reached through a module are keyed `short.name` (`fft.rfft`).
    let reached = index()
        .module
        .keys()
        .filter_map(|k| k.split_once('.').map(|(_, n)| n));
    let mut names: Vec<&'static str> = global_names()
        .chain(modules::FUNCTIONAL.iter().copied())
        .chain(reached)
        .chain(nnmodule::LAYERS.iter().copied())
        .chain(index().math.keys().copied())
        .chain(["nn", "functional", "init", "optim", "Tensor", "e", "tau"])
        .filter(|n| module_attr(module, n).is_some())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Every bare name the language knows (for suggestions and completion).
pub fn global_names() -> impl Iterator<Item = &'static str> {
    let ix = index();
    ix.python
        .keys()
        .chain(ix.functions.keys())
        .copied()
        .chain(crate::tensor::dtype::ALL_DTYPES.iter().map(|d| d.name()))
        .chain(
            crate::tensor::quantized::QDType::ALL
                .iter()
                .map(|d| d.name()),
        )
        .chain(
            crate::tensor::quantized::QScheme::ALL
                .iter()
                .map(|s| s.name()),
        )
        .chain(["torch", "pi", "inf", "nan", "F"])
}
