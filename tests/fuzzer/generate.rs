//! Random tsh programs: grammar-aware generation (statements, expressions, calls
//! of every builtin row with random arguments) and mutation of seed programs
//! (the scripts, transcripts and every builtin's example).

use tsh::interp::builtins::{self, Reach};

/// splitmix64: small, fast and reproducible from a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Integers that find overflow, sign and size bugs.
const EDGE_INTS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "3",
    "7",
    "255",
    "256",
    "2**31",
    "2**32",
    "2**53 + 1",
    "2**62",
    "9223372036854775807",
    "-9223372036854775807 - 1",
    "99999999999999999999999",
    "10**12",
    "-10**12",
    "0x7fffffffffffffff",
    "0b1010",
];

const EDGE_FLOATS: &[&str] = &[
    "0.5",
    "-0.0",
    "1.5",
    "-2.5",
    "1e308",
    "1e309",
    "1e-320",
    "3.4e38",
    "float('inf')",
    "float('-inf')",
    "float('nan')",
    "1e-7",
];

const DTYPES: &[&str] = &[
    "float32",
    "float64",
    "float16",
    "bfloat16",
    "int64",
    "int32",
    "int16",
    "int8",
    "uint8",
    "bool",
    "torch.float32",
    "torch.long",
    "\"float32\"",
    "complex64",
];

const BINOPS: &[&str] = &[
    "+", "-", "*", "/", "//", "%", "**", "@", "==", "!=", "<", "<=", ">", ">=", "&", "|", "^",
    "<<", ">>", "and", "or", "in", "not in", "is", "is not",
];

const UNOPS: &[&str] = &["-", "+", "~", "not "];

const AUG_OPS: &[&str] = &[
    "+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=",
];

const COMMANDS: &[&str] = &[
    ":vars",
    ":help",
    ":help zeros",
    ":help nosuch",
    ":set precision 2",
    ":set precision -1",
    ":set sci on",
    ":set threshold 3",
    ":set linewidth 1",
    ":set edgeitems 0",
    ":set broadcast error",
    ":set broadcast warn",
    ":set stats on",
    ":set",
    ":trace on",
    ":trace off",
    ":devices",
    ":why",
    ":graph v0",
    ":explain v0 + v1",
    ":explain v0 @ v1",
    ":explain v0[0]",
    ":explain",
    ":reset",
    ":nosuch",
    ":load nosuch.tsh",
];

/// One way to call a builtin row.
struct Callable {
    /// What goes before the argument list: `zeros`, `F.relu`, `torch.sum`.
    name: String,
    /// True when it is called on a value: `x.sum(...)`.
    method: bool,
    params: Vec<String>,
}

pub struct Gen {
    pub rng: Rng,
    callables: Vec<Callable>,
    attrs: Vec<&'static str>,
    seeds: Vec<String>,
    vars: usize,
    fns: usize,
}

impl Gen {
    pub fn new(seed: u64, seeds: Vec<String>) -> Gen {
        Gen {
            rng: Rng::new(seed),
            callables: callables(),
            attrs: builtins::tensor_attr_names().to_vec(),
            seeds,
            vars: 0,
            fns: 0,
        }
    }

    /// The next input: a generated program, a mutated seed, or a splice of both.
    pub fn input(&mut self) -> String {
        self.vars = 0;
        self.fns = 0;
        match self.rng.below(10) {
            0..=4 => self.program(),
            5..=7 if !self.seeds.is_empty() => {
                let seed = self.rng.pick(&self.seeds).clone();
                self.mutate(&seed)
            }
            8 => {
                let mut p = self.program();
                p = self.mutate(&p);
                p
            }
            _ => {
                let a = self.program();
                let b = if self.seeds.is_empty() {
                    self.program()
                } else {
                    self.rng.pick(&self.seeds).clone()
                };
                format!("{a}\n{b}")
            }
        }
    }

    pub fn program(&mut self) -> String {
        let mut out = String::new();
        // Start with a few tensors so that methods and operators have operands.
        for _ in 0..1 + self.rng.below(3) {
            let t = self.tensor();
            out.push_str(&format!("v{} = {t}\n", self.vars));
            self.vars += 1;
        }
        for _ in 0..1 + self.rng.below(8) {
            out.push_str(&self.stmt(0));
            out.push('\n');
        }
        out
    }

    fn var(&mut self) -> String {
        format!("v{}", self.rng.below(self.vars.max(1) + 1))
    }

    fn block(&mut self, depth: usize) -> String {
        format!("{{\n{}\n}}", self.body(depth))
    }

    fn body(&mut self, depth: usize) -> String {
        let n = 1 + self.rng.below(3);
        let body: Vec<String> = (0..n).map(|_| self.stmt(depth + 1)).collect();
        body.join("\n")
    }

    fn stmt(&mut self, depth: usize) -> String {
        let compound = depth < 2;
        match self.rng.below(if compound { 21 } else { 12 }) {
            0..=3 => {
                let e = self.expr(0);
                let v = if self.rng.chance(60) {
                    self.vars += 1;
                    format!("v{}", self.vars - 1)
                } else {
                    self.var()
                };
                format!("{v} = {e}")
            }
            4..=5 => self.expr(0),
            6 => format!("{} {} {}", self.var(), self.rng.pick(AUG_OPS), self.expr(1)),
            7 => format!("{}[{}] = {}", self.var(), self.subscripts(), self.expr(1)),
            8 => match self.rng.below(4) {
                0 => format!("{}.requires_grad = {}", self.var(), self.leaf()),
                1 => format!("{}.grad = {}", self.var(), self.expr(1)),
                2 => format!("{}.backward()", self.var()),
                _ => format!("{}.sum().backward()", self.var()),
            },
            9 => format!("assert {}, \"fuzz\"", self.expr(1)),
            10 => self
                .rng
                .pick(&["break", "continue", "return", "return v0"])
                .to_string(),
            11 => format!("print({})", self.expr(1)),
            12 => format!(
                "if {} {} else {}",
                self.expr(1),
                self.block(depth),
                self.block(depth)
            ),
            13 => {
                let it = match self.rng.below(4) {
                    0 => format!("range({})", self.rng.below(5)),
                    1 => self.var(),
                    2 => format!("enumerate({})", self.var()),
                    _ => self.expr(1),
                };
                let target = if self.rng.chance(50) { "i" } else { "i, j" };
                format!("for {target} in {it} {}", self.block(depth))
            }
            14 => {
                // The counter moves first, so `continue` in the body cannot spin forever.
                // One counter per nesting depth, so an inner loop cannot reset an outer one.
                let body = self.body(depth);
                let k = format!("k{depth}");
                format!(
                    "{k} = 0\nwhile {k} < {} {{\n{k} += 1\n{body}\n}}",
                    self.rng.below(4)
                )
            }
            15 => {
                self.fns += 1;
                let f = self.fns - 1;
                let body = self.block(depth);
                let (default, args, v) = (self.leaf(), self.args(), self.vars);
                format!("fn f{f}(a, b={default}) {body}\nv{v} = f{f}({args})")
            }
            16 => format!("no_grad {}", self.block(depth)),
            17 if depth == 0 => format!("\n{}\n", self.rng.pick(COMMANDS)),
            18 => {
                let (v, args) = (self.vars, self.args());
                format!("v{v} = [{args}]")
            }
            // Containers that hold themselves, and deep nesting built by a loop.
            19 => match self.rng.below(4) {
                0 => format!("{0} = [1]\n{0}.append({0})\n{0}", self.var()),
                1 => format!("{0} = dict(a=1)\n{0}[\"b\"] = {0}\n{0}", self.var()),
                2 => format!(
                    "{0} = []\nfor i in range(2000) {{ {0} = [{0}] }}",
                    self.var()
                ),
                _ => format!("{0} = [{0}, {0}]", self.var()),
            },
            _ => self.expr(0),
        }
    }

    pub fn expr(&mut self, depth: usize) -> String {
        if depth > 3 {
            return self.leaf();
        }
        match self.rng.below(14) {
            0..=2 => self.leaf(),
            3..=4 => format!(
                "{} {} {}",
                self.expr(depth + 1),
                self.rng.pick(BINOPS),
                self.expr(depth + 1)
            ),
            5 => format!("{}{}", self.rng.pick(UNOPS), self.expr(depth + 1)),
            6..=8 => self.call(depth),
            9 => {
                let obj = self.operand(depth);
                let attr = self.attrs[self.rng.below(self.attrs.len())];
                format!("{obj}.{attr}")
            }
            10 => format!("{}[{}]", self.operand(depth), self.subscripts()),
            11 => format!("[{}]", self.args()),
            12 => format!("({}, {})", self.expr(depth + 1), self.expr(depth + 1)),
            _ => self.tensor(),
        }
    }

    /// An expression that can take a postfix without parentheses changing its meaning.
    fn operand(&mut self, depth: usize) -> String {
        let e = self.expr(depth + 1);
        let name = e.starts_with(|c: char| c.is_alphabetic() || c == '_');
        if name && e.chars().all(|c| c.is_alphanumeric() || c == '_') {
            e
        } else {
            format!("({e})")
        }
    }

    fn call(&mut self, depth: usize) -> String {
        if self.fns > 0 && self.rng.chance(10) {
            return format!("f{}({})", self.rng.below(self.fns), self.args());
        }
        let i = self.rng.below(self.callables.len());
        let (name, method) = (self.callables[i].name.clone(), self.callables[i].method);
        let mut args: Vec<String> = (0..self.rng.below(4)).map(|_| self.arg()).collect();
        if self.rng.chance(40) && !self.callables[i].params.is_empty() {
            let p = self.rng.pick(&self.callables[i].params).clone();
            let v = self.kwarg_value(&p);
            args.push(format!("{p}={v}"));
        }
        if method {
            format!("{}.{name}({})", self.operand(depth), args.join(", "))
        } else {
            format!("{name}({})", args.join(", "))
        }
    }

    fn kwarg_value(&mut self, param: &str) -> String {
        match param {
            "dtype" => self.rng.pick(DTYPES).to_string(),
            "device" => self
                .rng
                .pick(&["\"cpu\"", "\"cuda\"", "\"cuda:7\"", "\"meta\"", "\"\""])
                .to_string(),
            "dim" | "dim0" | "dim1" => self
                .rng
                .pick(&["0", "1", "-1", "2", "-3", "(0, 1)", "None"])
                .to_string(),
            _ => self.arg(),
        }
    }

    fn arg(&mut self) -> String {
        match self.rng.below(6) {
            0..=1 => self.small_int(),
            2 => self.var(),
            3 => self.tensor(),
            _ => self.expr(3),
        }
    }

    fn args(&mut self) -> String {
        let n = self.rng.below(4);
        (0..n).map(|_| self.arg()).collect::<Vec<_>>().join(", ")
    }

    fn subscripts(&mut self) -> String {
        let n = 1 + self.rng.below(3);
        (0..n)
            .map(|_| match self.rng.below(8) {
                0..=2 => self.small_int(),
                3 => format!(
                    "{}:{}:{}",
                    self.opt_int(),
                    self.opt_int(),
                    self.rng.pick(&["", "1", "2", "-1", "0", "3"])
                ),
                4 => self.rng.pick(&["...", "None", ":", "::2"]).to_string(),
                5 => format!("{} > 0", self.var()),
                6 => format!("[{}, {}]", self.small_int(), self.small_int()),
                _ => self.expr(2),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn opt_int(&mut self) -> String {
        if self.rng.chance(30) {
            String::new()
        } else {
            self.small_int()
        }
    }

    fn small_int(&mut self) -> String {
        if self.rng.chance(8) {
            self.rng.pick(EDGE_INTS).to_string()
        } else {
            (self.rng.below(7) as i64 - 2).to_string()
        }
    }

    fn leaf(&mut self) -> String {
        match self.rng.below(10) {
            0..=2 => self.small_int(),
            3 => self.rng.pick(EDGE_FLOATS).to_string(),
            4..=6 => self.var(),
            7 => self
                .rng
                .pick(&[
                    "true", "false", "None", "\"s\"", "'é🙂'", "\"\"", "...", "torch", "F", "nn",
                ])
                .to_string(),
            8 => self.rng.pick(DTYPES).to_string(),
            _ => self.tensor(),
        }
    }

    fn dims(&mut self) -> Vec<String> {
        (0..self.rng.below(4))
            .map(|_| {
                if self.rng.chance(5) {
                    self.rng
                        .pick(&["-1", "0", "10**10", "2**40", "100000"])
                        .to_string()
                } else {
                    self.rng.below(5).to_string()
                }
            })
            .collect()
    }

    pub fn tensor(&mut self) -> String {
        let dims = self.dims();
        let kw = match self.rng.below(6) {
            0 => vec![format!("dtype={}", self.rng.pick(DTYPES))],
            1 => vec!["requires_grad=true".to_string()],
            _ => vec![],
        };
        let with_kw = |args: Vec<String>| [args, kw.clone()].concat().join(", ");
        match self.rng.below(9) {
            0 => format!("randn({})", with_kw(dims)),
            1 => format!("zeros({})", with_kw(dims)),
            2 => format!("ones({})", with_kw(dims)),
            3 => format!("arange({})", with_kw(vec![self.small_int()])),
            4 => format!("tensor({})", with_kw(vec![self.nested_list(0)])),
            5 => format!(
                "rand({}).mul(10).floor().to({})",
                dims.join(", "),
                self.rng.pick(DTYPES)
            ),
            6 => format!("eye({})", self.rng.below(4)),
            7 => {
                let shape = match dims.len() {
                    0 => "()".to_string(),
                    _ => format!("({},)", dims.join(", ")),
                };
                format!("full({shape}, {})", self.leaf())
            }
            _ => format!("tensor({})", self.rng.pick(EDGE_FLOATS)),
        }
    }

    fn nested_list(&mut self, depth: usize) -> String {
        if depth > 2 || self.rng.chance(30) {
            return match self.rng.below(4) {
                0 => self.rng.pick(EDGE_FLOATS).to_string(),
                1 => self.rng.pick(&["true", "false"]).to_string(),
                _ => self.small_int(),
            };
        }
        let n = self.rng.below(4);
        let items: Vec<String> = (0..n).map(|_| self.nested_list(depth + 1)).collect();
        format!("[{}]", items.join(", "))
    }

    /// Byte-level and token-level damage to a program: deletions, duplications,
    /// insertions of tokens, edge numbers and odd characters, and bracket bombs.
    pub fn mutate(&mut self, src: &str) -> String {
        let mut s = src.to_string();
        for _ in 0..1 + self.rng.below(4) {
            let at = char_boundary(&s, self.rng.below(s.len() + 1));
            let to = char_boundary(&s, at + self.rng.below(16));
            match self.rng.below(9) {
                0 => s.replace_range(at..to, ""),
                1 => {
                    let chunk = s[at..to].to_string();
                    s.insert_str(at, &chunk);
                }
                2 | 3 => {
                    let tok = self.rng.pick(TOKENS).to_string();
                    s.insert_str(at, &tok);
                }
                4 => {
                    let n = self.rng.pick(EDGE_INTS).to_string();
                    s.replace_range(at..to, &n);
                }
                5 => {
                    let e = self.expr(1);
                    s.insert_str(at, &e);
                }
                6 => {
                    let bomb = self
                        .rng
                        .pick(&["(", "[", "{", "-", "not ", "~", "[0]", ".T"]);
                    let n = self.rng.pick(&[50usize, 101, 500, 5000]);
                    s.insert_str(at, &bomb.repeat(*n));
                }
                7 => {
                    let c = self.rng.pick(&[
                        "\0", "\u{feff}", "é", "🙂", "\t", "\r", "\\", "\"", "'", "\n",
                    ]);
                    s.insert_str(at, c);
                }
                _ => {
                    let stmt = self.stmt(0);
                    s.insert_str(at, &format!("\n{stmt}\n"));
                }
            }
        }
        s
    }
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ";",
    ".",
    "=",
    "==",
    "-",
    "**",
    "@",
    "...",
    "None",
    "\n",
    "#",
    " if ",
    " else ",
    " for ",
    " in ",
    " fn ",
    " while ",
    "return",
    "break",
    "lambda",
    "x",
    "v0",
    "grad",
    ".backward()",
    ".cuda()",
    ".T",
    "[::-1]",
    "[None]",
    "*",
    "/",
    "0",
    "-0",
    "1e",
    "0x",
    "'",
    "\"",
    "\\",
    "no_grad",
    "assert",
];

fn char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every builtin row as the user would call it, with its parameter names.
fn callables() -> Vec<Callable> {
    let mut out = vec![];
    for b in builtins::all().chain(builtins::value_methods()) {
        let params = params_of(b.sig);
        let prefix = prefix_in_example(b.example, b.name);
        if matches!(b.reach, Reach::Function | Reach::Both | Reach::Python) {
            out.push(Callable {
                name: format!("{prefix}{}", b.name),
                method: false,
                params: params.clone(),
            });
        }
        if matches!(b.reach, Reach::Method | Reach::Both) {
            out.push(Callable {
                name: b.name.to_string(),
                method: true,
                params,
            });
        }
    }
    out
}

/// `F.` for `F.relu(...)`, `torch.` for `torch.sum(...)`, empty for `zeros(...)`.
fn prefix_in_example(example: &str, name: &str) -> String {
    let call = format!("{name}(");
    let Some(at) = example.find(&call) else {
        return String::new();
    };
    let before = &example[..at];
    let start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let prefix = &before[start..];
    // A method call on a variable (`x.sum(`) is not a namespace.
    if [
        "torch.",
        "F.",
        "nn.",
        "optim.",
        "nn.init.",
        "torch.nn.functional.",
        "torch.optim.",
    ]
    .contains(&prefix)
    {
        prefix.to_string()
    } else {
        String::new()
    }
}

fn params_of(sig: &str) -> Vec<String> {
    let mut out = vec![];
    // The text before the first `(` is the function's own name, not a parameter.
    let after_name = sig.split_once('(').map_or("", |(_, rest)| rest);
    for part in after_name.split(['(', ')', ',', '|']) {
        let p = part.trim().trim_start_matches('*');
        let name = p.split('=').next().unwrap_or("").trim();
        if !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !name.chars().next().is_some_and(|c| c.is_ascii_digit())
            && !out.iter().any(|o: &String| o == name)
        {
            out.push(name.to_string());
        }
    }
    out
}
