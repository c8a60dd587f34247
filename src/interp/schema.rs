//! PyTorch's schema language (the `native_functions.yaml` subset) for the
//! binding table: `gather(Tensor input, int dim, Tensor index, *, bool
//! sparse_grad=False) -> Tensor`. A schema is parsed once; it drives argument
//! binding (bind.rs), `:help`, completion, docs/reference.md and the fuzzer.
//! Older rows write untyped signatures (`chunk(input, chunks, dim=0)`); they
//! parse too, with every parameter typed `Any`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Debug)]
pub struct Schema {
    pub name: &'static str,
    pub params: Vec<Param>,
    /// `-> (Tensor values, Tensor indices)`: the names make a named tuple.
    pub returns: Vec<Ret>,
}

#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    /// The type without `?` and `(a!)`: `Tensor`, `int[]`, `int[2]`, `Scalar`, `Any`.
    pub ty: &'static str,
    pub optional: bool,
    /// The default as written (`None`, `-1`, `"mean"`, `[0, 1]`), if any.
    pub default: Option<&'static str>,
    pub kw_only: bool,
    /// `*args` or `**kwargs` in an untyped signature.
    pub star: bool,
}

#[derive(Debug)]
pub struct Ret {
    pub ty: &'static str,
    pub name: Option<&'static str>,
}

impl Param {
    pub fn is_int_list(&self) -> bool {
        self.ty.starts_with("int[")
    }
    pub fn required(&self) -> bool {
        self.default.is_none() && !self.optional && !self.star
    }
}

/// The name of a signature (the text before `(`), usable in a `const` row.
pub const fn name_of(sig: &'static str) -> &'static str {
    let b = sig.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i] != b'(' {
        i += 1;
    }
    let (head, _) = b.split_at(i);
    match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(_) => panic!("a signature's name must be UTF-8"),
    }
}

/// The parsed schema of a row's signature, cached by the text's address.
pub fn parsed(sig: &'static str) -> Rc<Schema> {
    thread_local! {
        static CACHE: RefCell<HashMap<usize, Rc<Schema>>> = RefCell::new(HashMap::new());
    }
    CACHE.with(|c| {
        c.borrow_mut()
            .entry(sig.as_ptr() as usize ^ sig.len().rotate_left(48))
            .or_insert_with(|| Rc::new(parse(sig)))
            .clone()
    })
}

/// Parse a signature. Malformed text parses as far as it can (the row test
/// reports it); calls never fail on a schema.
pub fn parse(sig: &'static str) -> Schema {
    let open = sig.find('(').unwrap_or(sig.len());
    let name = &sig[..open];
    let close = matching_paren(sig, open).unwrap_or(sig.len());
    let inner = sig.get(open + 1..close).unwrap_or("");
    let mut params = vec![];
    let mut kw_only = false;
    for part in split_top(inner) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if part == "*" {
            kw_only = true;
            continue;
        }
        params.push(parse_param(part, kw_only));
        if part.starts_with('*') {
            kw_only = true;
        }
    }
    let rest = sig.get(close + 1..).unwrap_or("").trim();
    let returns = rest
        .strip_prefix("->")
        .map(|r| parse_returns(r.trim()))
        .unwrap_or_default();
    Schema {
        name,
        params,
        returns,
    }
}

fn parse_param(part: &'static str, kw_only: bool) -> Param {
    let (decl, default) = match part.find('=') {
        Some(i) => (part[..i].trim(), Some(part[i + 1..].trim())),
        None => (part, None),
    };
    let (ty, name) = match decl.rfind(' ') {
        Some(i) => (decl[..i].trim(), decl[i + 1..].trim()),
        None => ("Any", decl),
    };
    let star = name.starts_with('*');
    let ty = ty.trim_end_matches("(a!)");
    let optional = ty.ends_with('?');
    Param {
        name: name.trim_start_matches('*'),
        ty: ty.trim_end_matches('?').trim_end_matches("(a!)"),
        optional,
        default,
        kw_only,
        star,
    }
}

fn parse_returns(r: &'static str) -> Vec<Ret> {
    let r = r
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(r);
    split_top(r)
        .into_iter()
        .map(|p| {
            let p = p.trim();
            match p.rfind(' ') {
                Some(i) => Ret {
                    ty: p[..i].trim(),
                    name: Some(p[i + 1..].trim()),
                },
                None => Ret { ty: p, name: None },
            }
        })
        .collect()
}

fn matching_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Split at commas outside brackets and quotes.
fn split_top(s: &'static str) -> Vec<&'static str> {
    let (mut out, mut depth, mut quote, mut start) = (vec![], 0i32, None, 0);
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// PyTorch's word for a parameter type in error messages.
pub fn type_word(ty: &str) -> &'static str {
    match ty {
        "Tensor" => "Tensor",
        "Tensor[]" => "tuple of Tensors",
        "int" => "int",
        "float" => "float",
        "bool" => "bool",
        "str" => "str",
        "Scalar" => "Number",
        "ScalarType" => "torch.dtype",
        "Device" => "torch.device",
        "Generator" => "torch.Generator",
        t if t.starts_with("int[") => "tuple of ints",
        t if t.starts_with("float[") => "tuple of floats",
        _ => "object",
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn parses_types_defaults_and_keyword_only() {
            let s = parse(
                "scatter_reduce(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, int[] sizes=[1, 2]) -> Tensor",
            );
            assert_eq!(s.name, "scatter_reduce");
            let names: Vec<_> = s.params.iter().map(|p| p.name).collect();
            assert_eq!(
                names,
                [
                    "input",
                    "dim",
                    "index",
                    "src",
                    "reduce",
                    "include_self",
                    "sizes"
                ]
            );
            assert!(s.params[5].kw_only && !s.params[4].kw_only);
            assert_eq!(s.params[5].default, Some("True"));
            assert_eq!(s.params[6].default, Some("[1, 2]"));
            assert!(s.params[6].is_int_list());
            assert_eq!(s.returns[0].ty, "Tensor");
        }

        fn parses_optional_named_returns_and_untyped() {
            let s = parse(
                "aminmax(Tensor input, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
            );
            assert!(s.params[1].optional && s.params[1].kw_only);
            assert_eq!(s.returns[1].name, Some("max"));
            let old = parse("chunk(input, chunks, dim=0)");
            assert_eq!(old.params[2].ty, "Any");
            assert_eq!(old.params[2].default, Some("0"));
            let star = parse("print(*args, sep=' ', end='\\n')");
            assert!(star.params[0].star && star.params[1].kw_only);
            assert_eq!(name_of("linalg.solve(Tensor A, Tensor B)"), "linalg.solve");
        }
    }
}
