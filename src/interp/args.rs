//! Argument binding for builtins. A builtin asks for its parameters in order
//! (`args.tensor("input")`, `args.opt_int("dim")`...); each request takes the
//! keyword of that name or else the next positional. `finish` rejects leftovers.

use crate::error::{Error, Result, type_err, value_err};
use crate::syntax::ast::Span;
use crate::tensor::{DType, Device, Tensor};

use super::convert;
use super::value::Value;

pub struct Args {
    pub name: &'static str,
    pub positional: Vec<(Value, Span)>,
    pub keywords: Vec<(String, Value, Span)>,
    pub span: Span,
    /// Called as a method (the receiver is the first positional): error texts
    /// count arguments as PyTorch does, without it.
    pub method: bool,
    next: usize,
}

impl Args {
    pub fn new(
        name: &'static str,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Args {
        // PyTorch takes NumPy's `axis=` for `dim=` and `keepdims=` for `keepdim=`.
        let mut keywords = keywords;
        for (k, _, _) in keywords.iter_mut() {
            match k.as_str() {
                "axis" => *k = "dim".into(),
                "keepdims" => *k = "keepdim".into(),
                _ => {}
            }
        }
        Args {
            name,
            positional,
            keywords,
            span,
            method: false,
            next: 0,
        }
    }

    /// The raw value of parameter `param`, if given.
    pub fn take(&mut self, param: &str) -> Option<(Value, Span)> {
        if let Some(i) = self.keywords.iter().position(|(k, _, _)| k == param) {
            let (_, v, s) = self.keywords.remove(i);
            return Some((v, s));
        }
        // Moved out, not cloned: a builtin takes each positional once (what
        // is left after `next` stays for `rest` and `finish`).
        let (v, s) = self.positional.get_mut(self.next)?;
        self.next += 1;
        Some((std::mem::replace(v, Value::None), *s))
    }

    /// Only a keyword (for keyword-only parameters like `dtype=`).
    pub fn take_kw(&mut self, param: &str) -> Option<(Value, Span)> {
        let i = self.keywords.iter().position(|(k, _, _)| k == param)?;
        let (_, v, s) = self.keywords.remove(i);
        Some((v, s))
    }

    /// Every keyword not taken yet (for `**kwargs`-style builtins).
    pub fn keywords_left(&mut self) -> Vec<(String, Value)> {
        std::mem::take(&mut self.keywords)
            .into_iter()
            .map(|(k, v, _)| (k, v))
            .collect()
    }

    pub fn has_more_positional(&self) -> bool {
        self.next < self.positional.len()
    }

    /// All remaining positionals.
    pub fn rest(&mut self) -> Vec<(Value, Span)> {
        // Moved out, not cloned, as `take` does.
        self.positional.drain(self.next..).collect()
    }

    /// All remaining positionals' values.
    pub fn rest_values(&mut self) -> Vec<Value> {
        self.positional.drain(self.next..).map(|(v, _)| v).collect()
    }

    fn missing(&self, param: &str) -> Error {
        type_err(format!(
            "{}() missing required argument '{param}'",
            self.name
        ))
        .at(self.span)
    }

    pub fn value(&mut self, param: &str) -> Result<Value> {
        self.take(param)
            .map(|(v, _)| v)
            .ok_or_else(|| self.missing(param))
    }

    pub fn tensor(&mut self, param: &str) -> Result<Tensor> {
        let (v, s) = self.take(param).ok_or_else(|| self.missing(param))?;
        convert::to_tensor_arg(&v, self.name, param).map_err(|e| e.at(s))
    }

    pub fn opt_tensor(&mut self, param: &str) -> Result<Option<Tensor>> {
        match self.take(param) {
            None | Some((Value::None, _)) => Ok(None),
            Some((v, s)) => convert::to_tensor_arg(&v, self.name, param)
                .map(Some)
                .map_err(|e| e.at(s)),
        }
    }

    pub fn int(&mut self, param: &str) -> Result<i64> {
        let (v, s) = self.take(param).ok_or_else(|| self.missing(param))?;
        convert::to_int(&v, self.name, param).map_err(|e| e.at(s))
    }

    pub fn int_or(&mut self, param: &str, default: i64) -> Result<i64> {
        match self.take(param) {
            None | Some((Value::None, _)) => Ok(default),
            Some((v, s)) => convert::to_int(&v, self.name, param).map_err(|e| e.at(s)),
        }
    }

    pub fn opt_int(&mut self, param: &str) -> Result<Option<i64>> {
        match self.take(param) {
            None | Some((Value::None, _)) => Ok(None),
            Some((v, s)) => convert::to_int(&v, self.name, param)
                .map(Some)
                .map_err(|e| e.at(s)),
        }
    }

    pub fn float(&mut self, param: &str) -> Result<f64> {
        let (v, s) = self.take(param).ok_or_else(|| self.missing(param))?;
        convert::to_float(&v, self.name, param).map_err(|e| e.at(s))
    }

    pub fn float_or(&mut self, param: &str, default: f64) -> Result<f64> {
        match self.take(param) {
            None | Some((Value::None, _)) => Ok(default),
            Some((v, s)) => convert::to_float(&v, self.name, param).map_err(|e| e.at(s)),
        }
    }

    pub fn opt_float(&mut self, param: &str) -> Result<Option<f64>> {
        match self.take(param) {
            None | Some((Value::None, _)) => Ok(None),
            Some((v, s)) => convert::to_float(&v, self.name, param)
                .map(Some)
                .map_err(|e| e.at(s)),
        }
    }

    pub fn flag(&mut self, param: &str, default: bool) -> Result<bool> {
        match self.take(param) {
            None => Ok(default),
            Some((Value::Bool(b), _)) => Ok(b),
            Some((Value::Int(i), _)) => Ok(i != 0),
            Some((v, s)) => Err(type_err(format!(
                "{}() argument '{param}' must be a bool, not {}",
                self.name,
                v.type_name()
            ))
            .at(s)),
        }
    }

    pub fn kw_flag(&mut self, param: &str, default: bool) -> Result<bool> {
        match self.take_kw(param) {
            None => Ok(default),
            Some((v, s)) => v.truthy().map_err(|e| e.at(s)),
        }
    }

    pub fn string(&mut self, param: &str) -> Result<String> {
        match self.take(param) {
            Some((Value::Str(s), _)) => Ok(s.to_string()),
            Some((v, s)) => Err(type_err(format!(
                "{}() argument '{param}' must be a str, not {}",
                self.name,
                v.type_name()
            ))
            .at(s)),
            None => Err(self.missing(param)),
        }
    }

    /// `dim=` as an int, a list or tuple of ints, or none (meaning every dim).
    pub fn dims(&mut self, param: &str) -> Result<Option<Vec<i64>>> {
        match self.take(param) {
            None | Some((Value::None, _)) => Ok(None),
            Some((v, s)) => convert::to_int_list(&v, self.name, param)
                .map(Some)
                .map_err(|e| e.at(s)),
        }
    }

    /// Sizes given as varargs `f(2, 3)`, one list/tuple/shape `f([2, 3])`, or `size=`.
    pub fn sizes(&mut self, param: &str) -> Result<Vec<i64>> {
        if let Some((v, s)) = self.take_kw(param) {
            return convert::to_int_list(&v, self.name, param).map_err(|e| e.at(s));
        }
        let rest = self.rest();
        if rest.len() == 1 && !matches!(rest[0].0, Value::Int(_) | Value::Bool(_)) {
            if let Value::Tensor(t) = &rest[0].0
                && t.ndim() == 0
            {
                return convert::to_int(&rest[0].0, self.name, param)
                    .map(|i| vec![i])
                    .map_err(|e| e.at(rest[0].1));
            }
            return convert::to_int_list(&rest[0].0, self.name, param).map_err(|e| e.at(rest[0].1));
        }
        rest.iter()
            .map(|(v, s)| convert::to_int(v, self.name, param).map_err(|e| e.at(*s)))
            .collect()
    }

    /// A shape for creation functions: sizes that must be non-negative.
    pub fn shape(&mut self, param: &str) -> Result<Vec<usize>> {
        let span = self.span;
        let sizes = self.sizes(param)?;
        convert::to_shape(&sizes).map_err(|e| e.at(span))
    }

    pub fn dtype_kw(&mut self) -> Result<Option<DType>> {
        match self.take_kw("dtype") {
            None | Some((Value::None, _)) => Ok(None),
            Some((v, s)) => convert::to_dtype(&v).map(Some).map_err(|e| e.at(s)),
        }
    }

    pub fn device_kw(&mut self) -> Result<Option<Device>> {
        match self.take_kw("device") {
            None | Some((Value::None, _)) => Ok(None),
            Some((v, s)) => convert::to_device(&v).map(Some).map_err(|e| e.at(s)),
        }
    }

    /// `finish` where the arguments were lent (`&mut Args`) to a helper that
    /// reads the last of them.
    pub fn finish_lent(&mut self) -> Result<()> {
        let span = self.span;
        std::mem::replace(self, Args::new("", vec![], vec![], span)).finish()
    }

    /// Every argument was used; anything left is the caller's mistake.
    pub fn finish(self) -> Result<()> {
        if let Some((k, _, s)) = self.keywords.first() {
            return Err(type_err(format!(
                "{}() got an unexpected keyword argument '{k}'",
                self.name
            ))
            .at(*s)
            .hint(format!("see :help {}", self.name)));
        }
        if self.next < self.positional.len() {
            let s = self.positional[self.next].1;
            return Err(type_err(format!(
                "{}() takes at most {} positional argument{} but {} were given",
                self.name,
                self.next,
                if self.next == 1 { "" } else { "s" },
                self.positional.len()
            ))
            .at(s)
            .hint(format!("see :help {}", self.name)));
        }
        Ok(())
    }
}

pub fn check_positive(v: i64, what: &str) -> Result<usize> {
    if v < 0 {
        return Err(value_err(format!("{what} must be non-negative, got {v}")));
    }
    Ok(v as usize)
}
