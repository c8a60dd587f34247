//! Argument binding by schema, with PyTorch's PythonArgParser rules and texts:
//! positionals fill parameters in order up to `*`, keywords by name; missing,
//! extra and duplicate arguments are the errors PyTorch raises; a lone `int[]`
//! parameter takes varargs (`t.view(2, 3)`); NumPy's `axis`/`keepdims` are
//! accepted. The `op!` rows give each parameter a Rust type through `FromArg`.

use std::rc::Rc;

use super::args::Args;
use super::convert;
use super::schema::{Param, Schema, parsed, type_word};
use super::value::{NamedTuple, Value};
use crate::error::{Error, Result, type_err};
use crate::syntax::ast::Span;
use crate::tensor::{DType, Device, Tensor};

/// Arguments matched to a schema's parameters.
pub struct Bound {
    schema: Rc<Schema>,
    /// One per parameter: the value given (or None) and its span.
    slots: Vec<Option<(Value, Span)>>,
    /// Position (1-based, as PyTorch counts) of each slot given positionally.
    positions: Vec<Option<usize>>,
    pub span: Span,
}

/// Bind a call's arguments to `sig`.
pub fn bind(sig: &'static str, args: Args) -> Result<Bound> {
    let schema = parsed(sig);
    let name = schema.name.rsplit('.').next().unwrap_or(schema.name);
    let n = schema.params.len();
    let mut slots: Vec<Option<(Value, Span)>> = vec![None; n];
    let mut positions = vec![None; n];
    let positional_params: Vec<usize> = (0..n).filter(|&i| !schema.params[i].kw_only).collect();
    let mut given = args.positional;
    // A lone int-list parameter (after the tensor itself) takes varargs: view(2, 3).
    let lists: Vec<usize> = positional_params
        .iter()
        .copied()
        .filter(|&i| i > 0 || schema.params[0].ty != "Tensor")
        .collect();
    if let [only] = lists[..]
        && schema.params[only].is_int_list()
        && given.len() > only + 1
        && given[only..]
            .iter()
            .all(|(v, _)| matches!(v, Value::Int(_)))
    {
        let rest = given.split_off(only);
        let span = rest[0].1.to(rest[rest.len() - 1].1);
        given.push((
            Value::tuple(rest.into_iter().map(|(v, _)| v).collect()),
            span,
        ));
    }
    // `*tensors`: the rest of the positionals, as one tuple.
    if let Some(k) = positional_params
        .iter()
        .position(|&i| schema.params[i].star)
        && given.len() >= k
    {
        let rest = given.split_off(k);
        let span = rest
            .first()
            .map_or(args.span, |r| r.1.to(rest[rest.len() - 1].1));
        given.push((
            Value::tuple(rest.into_iter().map(|(v, _)| v).collect()),
            span,
        ));
    }
    if given.len() > positional_params.len() {
        return Err(
            too_many(&schema, &positional_params, given.len(), args.method)
                .at(given[positional_params.len()].1)
                .hint(format!("see :help {name}")),
        );
    }
    for (k, (v, s)) in given.into_iter().enumerate() {
        let i = positional_params[k];
        slots[i] = Some((v, s));
        positions[i] = Some(k + 1);
    }
    for (key, v, s) in args.keywords {
        let key = match key.as_str() {
            "axis" => "dim".to_string(),
            "keepdims" => "keepdim".to_string(),
            _ => key,
        };
        let Some(i) = schema.params.iter().position(|p| p.name == key && !p.star) else {
            return Err(type_err(format!(
                "{name}() got an unexpected keyword argument '{key}'"
            ))
            .at(s)
            .hint(format!("see :help {name}")));
        };
        if slots[i].is_some() {
            return Err(
                type_err(format!("{name}() got multiple values for argument '{key}'")).at(s),
            );
        }
        slots[i] = Some((v, s));
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| slots[i].is_none() && schema.params[i].required())
        .map(|i| format!("\"{}\"", schema.params[i].name))
        .collect();
    if !missing.is_empty() {
        // PyTorch's own text, its plural included.
        return Err(type_err(format!(
            "{name}() missing {} required positional argument{}: {}",
            missing.len(),
            if missing.len() == 1 { "s" } else { "" },
            missing.join(", ")
        ))
        .at(args.span)
        .hint(format!("see :help {name}")));
    }
    Ok(Bound {
        schema,
        slots,
        positions,
        span: args.span,
    })
}

/// PyTorch's text for extra positionals (the receiver of a method not counted).
fn too_many(schema: &Schema, positional: &[usize], given: usize, method: bool) -> Error {
    let shift = method as usize;
    let max = positional.len() - shift;
    let min = positional
        .iter()
        .filter(|&&i| schema.params[i].required())
        .count()
        - shift;
    let name = schema.name.rsplit('.').next().unwrap_or(schema.name);
    let plural = if max == 1 { "" } else { "s" };
    let (given, verb) = (
        given - shift,
        if given - shift == 1 { "was" } else { "were" },
    );
    if min == max {
        type_err(format!(
            "{name}() takes {max} positional argument{plural} but {given} {verb} given"
        ))
    } else {
        type_err(format!(
            "{name}() takes from {min} to {max} positional argument{plural} but {given} {verb} given"
        ))
    }
}

/// The schema name a closure parameter reads: a leading `_` marks one the
/// row ignores, a trailing `_` a Rust keyword (`type_` reads `type`).
pub fn param_name(p: &str) -> &str {
    let p = p.trim_start_matches('_');
    match p {
        "type_" | "fn_" | "self_" | "in_" | "async_" => &p[..p.len() - 1],
        p => p,
    }
}

/// Does schema parameter `schema` answer to closure parameter `closure`?
/// Rust names are snake_case, so PyTorch's `A` and `UPLO` read as `a`, `uplo`.
pub fn reads_param(schema: &str, closure: &str) -> bool {
    let c = param_name(closure);
    schema == c
        || (schema.eq_ignore_ascii_case(c) && schema.chars().any(|ch| ch.is_ascii_uppercase()))
}

/// What a value of the wrong kind gives: PyTorch's type error, or a more
/// precise error of the conversion's own.
pub enum Bad {
    Type,
    Err(Error),
}

/// A Rust parameter type of an `op!` row.
pub trait FromArg: Sized {
    /// The schema type this reads (`Option<T>` reads `T?`).
    const TY: &'static str;
    const OPTIONAL: bool = false;
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad>;
    /// The value of an absent `T?` parameter.
    fn absent() -> Option<Self> {
        None
    }
}

impl Bound {
    /// The argument for parameter `param` (a leading `_` marks one the row ignores).
    pub fn take<T: FromArg>(&mut self, param: &str) -> Result<T> {
        let Some(i) = self
            .schema
            .params
            .iter()
            .position(|p| reads_param(p.name, param))
        else {
            let param = param_name(param);
            return Err(type_err(format!(
                "the row for {}() reads '{param}', which its schema lacks",
                self.schema.name
            )));
        };
        let p = &self.schema.params[i];
        let param = p.name;
        let value = match self.slots[i].take() {
            Some((v, s)) => Some((v, s)),
            None => p.default.map(|d| (default_value(d), self.span)),
        };
        let Some((v, s)) = value.filter(|(v, _)| !matches!(v, Value::None) || !T::OPTIONAL) else {
            return T::absent().ok_or_else(|| {
                type_err(format!("{}() needs '{param}'", self.schema.name)).at(self.span)
            });
        };
        let v = super::numpy::unwrap(&v);
        T::from_arg(&v).map_err(|bad| match bad {
            Bad::Err(e) => e.at(s),
            Bad::Type => self.type_error(p, i, &v).at(s),
        })
    }

    fn type_error(&self, p: &Param, i: usize, v: &Value) -> Error {
        let name = self
            .schema
            .name
            .rsplit('.')
            .next()
            .unwrap_or(self.schema.name);
        let at = match self.positions[i] {
            Some(k) => format!(" (position {k})"),
            None => String::new(),
        };
        let e = type_err(format!(
            "{name}(): argument '{}'{at} must be {}, not {}",
            p.name,
            type_word(p.ty),
            python_type(v)
        ));
        match p.ty {
            "Tensor[]" => e.hint(format!("wrap them in brackets: {name}([a, b])")),
            _ => e,
        }
    }

    /// The schema's parameter names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.schema.params.iter().map(|p| p.name).collect()
    }

    /// The call's result: a named tuple where the schema names its returns.
    pub fn ret<T: IntoValue>(&self, out: T) -> Result<Value> {
        let v = out.into_value();
        let names: Vec<&'static str> = self.schema.returns.iter().filter_map(|r| r.name).collect();
        match v {
            Value::Tuple(items) if names.len() == items.len() && names.len() > 1 => {
                let fields = names.into_iter().zip(items.iter().cloned()).collect();
                Ok(Value::Named(Rc::new(NamedTuple {
                    name: self.schema.name,
                    fields,
                })))
            }
            v => Ok(v),
        }
    }
}

/// A sparse tensor where an op takes only dense ones.
fn sparse_not_taken(s: &crate::tensor::sparse::SparseTensor) -> Error {
    type_err(format!(
        "this op does not take sparse tensors in tsh (got a torch.{} tensor)",
        s.layout().name()
    ))
    .hint("make it dense with .to_dense() first")
}

/// The name Python's class of a value has (PyTorch's type errors use it).
fn python_type(v: &Value) -> String {
    match v {
        Value::Tensor(_) => "Tensor".into(),
        Value::Array(_) => "numpy.ndarray".into(),
        v => v.type_name().to_string(),
    }
}

/// A schema default as a value.
fn default_value(d: &str) -> Value {
    match d {
        "None" => Value::None,
        "True" => Value::Bool(true),
        "False" => Value::Bool(false),
        "inf" => Value::Float(f64::INFINITY),
        "-inf" => Value::Float(f64::NEG_INFINITY),
        _ if d.starts_with('[') => Value::list(
            d.trim_matches(['[', ']'])
                .split(',')
                .filter(|x| !x.trim().is_empty())
                .map(|x| default_value(x.trim()))
                .collect(),
        ),
        _ if d.starts_with('(') => Value::tuple(
            d.trim_matches(['(', ')'])
                .split(',')
                .filter(|x| !x.trim().is_empty())
                .map(|x| default_value(x.trim()))
                .collect(),
        ),
        _ if d.starts_with(['"', '\'']) => Value::Str(d[1..d.len() - 1].into()),
        _ => match (d.parse::<i64>(), d.parse::<f64>()) {
            (Ok(i), _) => Value::Int(i),
            (_, Ok(f)) => Value::Float(f),
            _ => Value::Str(d.into()),
        },
    }
}

fn converted<T>(r: Result<T>) -> std::result::Result<T, Bad> {
    r.map_err(Bad::Err)
}

impl FromArg for Tensor {
    const TY: &'static str = "Tensor";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Tensor(_)
            | Value::Array(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::List(_)
            | Value::Tuple(_) => converted(convert::to_tensor_arg(v, "", "")),
            Value::Sparse(s) => Err(Bad::Err(sparse_not_taken(s))),
            Value::QTensor(_) => Err(Bad::Err(convert::quantized_where_dense(""))),
            _ => Err(Bad::Type),
        }
    }
}

impl<T: FromArg> FromArg for Option<T> {
    const TY: &'static str = T::TY;
    const OPTIONAL: bool = true;
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::None => Ok(None),
            v => T::from_arg(v).map(Some),
        }
    }
    fn absent() -> Option<Self> {
        Some(None)
    }
}

impl FromArg for i64 {
    const TY: &'static str = "int";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Int(_) | Value::Bool(_) => converted(convert::to_int(v, "", "")),
            Value::Tensor(t) if t.ndim() == 0 && !t.dtype().is_float() => {
                converted(convert::to_int(v, "", ""))
            }
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for f64 {
    const TY: &'static str = "float";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
                converted(convert::to_float(v, "", ""))
            }
            Value::Tensor(t) if t.numel() == 1 => converted(convert::to_float(v, "", "")),
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for bool {
    const TY: &'static str = "bool";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Bool(b) => Ok(*b),
            Value::Int(i) => Ok(*i != 0),
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for String {
    const TY: &'static str = "str";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Str(s) => Ok(s.to_string()),
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for Vec<i64> {
    const TY: &'static str = "int[]";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::Int(i) => Ok(vec![*i]),
            Value::List(_) | Value::Tuple(_) | Value::Shape(_) => {
                converted(convert::to_int_list(v, "", ""))
            }
            Value::Tensor(t) if t.ndim() <= 1 && !t.dtype().is_float() => {
                converted(convert::to_int_list(v, "", ""))
            }
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for Vec<Tensor> {
    const TY: &'static str = "Tensor[]";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::List(_) | Value::Tuple(_) => {
                let items = converted(v.iter_items())?;
                items.iter().map(Tensor::from_arg).collect()
            }
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for DType {
    const TY: &'static str = "ScalarType";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::DType(_) | Value::QDType(_) | Value::Str(_) | Value::Type(_) => {
                converted(convert::to_dtype(v))
            }
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for Device {
    const TY: &'static str = "Device";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        converted(convert::to_device(v))
    }
}

impl FromArg for Value {
    const TY: &'static str = "Any";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        Ok(v.clone())
    }
}

/// A row's result as a value.
pub trait IntoValue {
    fn into_value(self) -> Value;
}

impl IntoValue for Value {
    fn into_value(self) -> Value {
        self
    }
}
impl IntoValue for Tensor {
    fn into_value(self) -> Value {
        Value::Tensor(self)
    }
}
impl IntoValue for Vec<Tensor> {
    fn into_value(self) -> Value {
        Value::tuple(self.into_iter().map(Value::Tensor).collect())
    }
}
impl IntoValue for (Tensor, Tensor) {
    fn into_value(self) -> Value {
        Value::tuple(vec![Value::Tensor(self.0), Value::Tensor(self.1)])
    }
}
impl IntoValue for (Tensor, Tensor, Tensor) {
    fn into_value(self) -> Value {
        Value::tuple(vec![
            Value::Tensor(self.0),
            Value::Tensor(self.1),
            Value::Tensor(self.2),
        ])
    }
}
impl IntoValue for i64 {
    fn into_value(self) -> Value {
        Value::Int(self)
    }
}
impl IntoValue for f64 {
    fn into_value(self) -> Value {
        Value::Float(self)
    }
}
impl IntoValue for bool {
    fn into_value(self) -> Value {
        Value::Bool(self)
    }
}
impl IntoValue for DType {
    fn into_value(self) -> Value {
        Value::DType(self)
    }
}

/// A row of the binding table: a PyTorch schema and a typed closure whose
/// parameters are read from the bound arguments by name.
/// `op!(Both, "sig", "help", "example", |input: Tensor, dim: i64| input.f(dim))`;
/// `op!(Both inplace, …)` also makes the method `name_`; `|it; a: T|` lends the interpreter.
#[macro_export]
macro_rules! op {
    ($reach:ident $($inplace:ident)?, $sig:literal, $help:literal, $example:literal,
     |$it:ident ; $($p:ident : $t:ty),* $(,)?| $body:expr) => {
        $crate::op!(@row $reach [$($inplace)?], $sig, $help, $example, [$it] $($p : $t),* => $body)
    };
    ($reach:ident $($inplace:ident)?, $sig:literal, $help:literal, $example:literal,
     |$($p:ident : $t:ty),* $(,)?| $body:expr) => {
        $crate::op!(@row $reach [$($inplace)?], $sig, $help, $example, [_it] $($p : $t),* => $body)
    };
    (@row $reach:ident [$($inplace:ident)?], $sig:literal, $help:literal, $example:literal,
     [$it:ident] $($p:ident : $t:ty),* => $body:expr) => {
        $crate::interp::builtins::Builtin {
            name: $crate::interp::schema::name_of($sig),
            sig: $sig,
            help: $help,
            example: $example,
            reach: $crate::interp::builtins::Reach::$reach,
            func: |$it: &mut $crate::interp::Interp, args: $crate::interp::args::Args| {
                let mut _b = $crate::interp::bind::bind($sig, args)?;
                $(let $p: $t = _b.take(stringify!($p))?;)*
                let out = $body?;
                _b.ret(out)
            },
            typed: &[$((stringify!($p), <$t as $crate::interp::bind::FromArg>::TY,
                        <$t as $crate::interp::bind::FromArg>::OPTIONAL)),*],
            inplace: $crate::op!(@inplace $($inplace)?),
        }
    };
    (@inplace) => { false };
    (@inplace inplace) => { true };
}

/// The method `name_` of an `inplace` row: the op computed from the tensor
/// (a recorded copy when autograd tracks it), then written back into it.
pub fn call_inplace(
    it: &mut super::Interp,
    base: &'static super::builtins::Builtin,
    mut args: Args,
) -> Result<Value> {
    let Some((Value::Tensor(t), _)) = args.positional.first().cloned() else {
        return (base.func)(it, args);
    };
    args.positional[0].0 = Value::Tensor(super::ops::inplace_source(&t)?);
    // The base op runs under its own name (rows that share one function,
    // as the unary ops do, tell themselves apart by it).
    args.name = base.name;
    let what = format!("{}_", base.name);
    match (base.func)(it, args)? {
        Value::Tensor(r) => {
            super::ops::write_into(&t, &r, &what)?;
            Ok(Value::Tensor(t))
        }
        other => Err(type_err(format!(
            "{what}: the op gave {}, not a tensor",
            other.a_type_name()
        ))),
    }
}

#[doc(hidden)]
pub mod tests {
    use super::super::schema::parse;

    /// Whether a closure parameter of Rust type `rust` can read a schema `ty`.
    fn reads(ty: &str, rust: &str) -> bool {
        match (ty, rust) {
            (_, "Any") => true,
            ("Scalar", "Tensor" | "float" | "int") => true,
            ("int[]", "int[]") => true,
            (t, "int[]") => t.starts_with("int["),
            (t, r) => t == r,
        }
    }

    crate::unit_tests! {
        /// Every `op!` row reads exactly its schema's parameters, with types that fit,
        /// and optional exactly where the schema lets the argument be None.
        fn rows_agree_with_their_schemas() {
            let mut bad = vec![];
            for b in super::super::builtins::all().filter(|b| !b.typed.is_empty()) {
                let s = parse(b.sig);
                if s.name != b.name {
                    bad.push(format!("{}: schema names {}", b.name, s.name));
                }
                if s.params.len() != b.typed.len() {
                    bad.push(format!(
                        "{}: schema has {} parameters, the closure reads {}",
                        b.name,
                        s.params.len(),
                        b.typed.len()
                    ));
                }
                for (name, ty, optional) in b.typed {
                    let Some(p) = s.params.iter().find(|p| super::reads_param(p.name, name)) else {
                        let name = super::param_name(name);
                        bad.push(format!("{}: reads '{name}', not in its schema", b.name));
                        continue;
                    };
                    if !reads(p.ty, ty) {
                        bad.push(format!(
                            "{}: '{name}' is {} in the schema, read as {ty}",
                            b.name, p.ty
                        ));
                    }
                    let may_be_none = p.optional || p.default == Some("None");
                    if may_be_none != *optional && *ty != "Any" {
                        bad.push(format!(
                            "{}: '{name}' may be None: {may_be_none}, read as Option: {optional}",
                            b.name
                        ));
                    }
                }
            }
            assert!(
                bad.is_empty(),
                "rows that disagree with their schema:\n{}",
                bad.join("\n")
            );
        }
    }
}
