//! The Python modules that benchmark scripts import around their timing
//! loops: `timeit` (time a callable or a statement), `statistics` (the
//! median and spread of the times) and `gc` (collection switched off while
//! timing; tsh frees values as soon as they are unreachable, as CPython's
//! reference counting does, so there is no collector to switch).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "timeit.timeit",
        "timeit.timeit(stmt='pass', setup='pass', timer=None, number=1000000, globals=None)",
        "Seconds taken to run stmt (a callable, or code as a string) `number` times, after setup once.",
        "import timeit; timeit.timeit(lambda: 1 + 1, number=10) >= 0",
        timeit
    ),
    row!(
        Module,
        "timeit.repeat",
        "timeit.repeat(stmt='pass', setup='pass', timer=None, repeat=5, number=1000000, globals=None)",
        "timeit.timeit `repeat` times: a list of the seconds each took.",
        "import timeit; len(timeit.repeat(lambda: 1 + 1, repeat=3, number=10))",
        repeat
    ),
    row!(
        Module,
        "timeit.default_timer",
        "timeit.default_timer()",
        "The clock timeit uses (time.perf_counter).",
        "import timeit; timeit.default_timer() >= 0",
        default_timer
    ),
    row!(
        Python,
        "exec",
        "exec(source, globals=None)",
        "Run Python statements given as a string, in the session (with a globals dict: in its names, and what they assign goes back into it).",
        "exec('y = 6 * 7'); y",
        exec
    ),
    row!(
        Python,
        "eval",
        "eval(source, globals=None)",
        "The value of one expression given as a string.",
        "eval('2 ** 10')",
        eval
    ),
    row!(
        Python,
        "globals",
        "globals()",
        "A dict of the session's variables (a copy: timeit's globals= takes it; tsh runs timed code in the session itself).",
        "x = 1; globals()['x']",
        globals
    ),
    row!(
        Module,
        "statistics.mean",
        "statistics.mean(data)",
        "The arithmetic mean of a list of numbers.",
        "import statistics; statistics.mean([1, 2, 4])",
        mean
    ),
    row!(
        Module,
        "statistics.fmean",
        "statistics.fmean(data)",
        "The arithmetic mean of a list of numbers, as a float.",
        "import statistics; statistics.fmean([1, 2, 4])",
        fmean
    ),
    row!(
        Module,
        "statistics.median",
        "statistics.median(data)",
        "The middle value of a list of numbers (the mean of the middle two for an even count).",
        "import statistics; statistics.median([3, 1, 4, 1])",
        median
    ),
    row!(
        Module,
        "statistics.stdev",
        "statistics.stdev(data)",
        "The sample standard deviation (n - 1 in the denominator).",
        "import statistics; statistics.stdev([1.0, 2.0, 4.0])",
        stdev
    ),
    row!(
        Module,
        "statistics.pstdev",
        "statistics.pstdev(data)",
        "The population standard deviation (n in the denominator).",
        "import statistics; statistics.pstdev([1.0, 2.0, 4.0])",
        pstdev
    ),
    row!(
        Module,
        "statistics.variance",
        "statistics.variance(data)",
        "The sample variance (n - 1 in the denominator).",
        "import statistics; statistics.variance([1.0, 2.0, 4.0])",
        variance
    ),
    row!(
        Module,
        "gc.collect",
        "gc.collect(generation=2)",
        "Accepted for Python scripts: tsh frees values as soon as nothing refers to them; returns 0.",
        "import gc; gc.collect()",
        collect
    ),
    row!(
        Module,
        "gc.disable",
        "gc.disable()",
        "Accepted for Python scripts (timing loops switch the collector off); see gc.collect.",
        "import gc; gc.disable(); gc.enable()",
        disable
    ),
    row!(
        Module,
        "gc.enable",
        "gc.enable()",
        "Accepted for Python scripts; see gc.disable.",
        "import gc; gc.enable()",
        enable
    ),
    row!(
        Module,
        "gc.isenabled",
        "gc.isenabled()",
        "Whether gc.disable was undone (True at the start).",
        "import gc; gc.isenabled()",
        is_enabled
    ),
];

/// A statement to time: a callable, or code parsed once (a timing loop
/// must not time the parser).
enum Timed {
    Call(Value),
    Code(Rc<str>, Vec<crate::syntax::ast::Stmt>),
}

impl Timed {
    fn new(stmt: Value) -> Result<Timed> {
        Ok(match stmt {
            Value::Str(code) => {
                let program = crate::syntax::parse_program(&code)?;
                Timed::Code(code.as_str().into(), program)
            }
            f => Timed::Call(f),
        })
    }

    fn run(&self, it: &mut Interp) -> Result<()> {
        match self {
            Timed::Code(code, program) => {
                // Errors quote the timed code; the script's own text is what
                // later errors and traces quote.
                let outer = std::mem::replace(&mut it.source, code.clone());
                let result = it.run_stmts(program, false, |_, _| {});
                it.source = outer;
                result
            }
            Timed::Call(f) => it.call(f, vec![], vec![], Default::default()).map(|_| ()),
        }
    }
}

/// timeit's arguments: (stmt, setup, number, repeat, globals); `repeat`
/// only for timeit.repeat.
struct Timing {
    stmt: Timed,
    setup: Timed,
    number: i64,
    repeats: i64,
    globals: Option<Value>,
}

fn timing_args(mut a: Args, with_repeat: bool) -> Result<Timing> {
    let stmt = a.take("stmt").map_or(Value::str("pass"), |(v, _)| v);
    let setup = a.take("setup").map_or(Value::str("pass"), |(v, _)| v);
    // A timer other than the default is accepted and not used.
    let _ = a.take("timer");
    let repeats = if with_repeat {
        a.int_or("repeat", 5)?
    } else {
        1
    };
    let number = a.int_or("number", 1_000_000)?;
    let globals = a
        .take("globals")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    a.finish()?;
    if number < 0 || repeats < 0 {
        return Err(value_err("timeit: number and repeat must not be negative"));
    }
    Ok(Timing {
        stmt: Timed::new(stmt)?,
        setup: Timed::new(setup)?,
        number,
        repeats,
        globals,
    })
}

/// Run `f` with the names of a `globals=` dict in scope (over the session's
/// own, which code given no globals sees); what setup assigns, stmt sees.
fn in_globals<T>(
    it: &mut Interp,
    globals: Option<&Value>,
    f: impl FnOnce(&mut Interp) -> Result<T>,
) -> Result<T> {
    let Some(g) = globals else {
        return f(it);
    };
    let Value::Dict(d) = g else {
        return Err(type_err(format!(
            "globals must be a dict, not {}",
            g.a_type_name()
        )));
    };
    let scope = Rc::new(crate::interp::value::Scope::default());
    for (k, v) in d.borrow().iter() {
        if let Value::Str(name) = k {
            scope
                .vars
                .borrow_mut()
                .insert(name.as_str().into(), v.clone());
        }
    }
    let locals = std::mem::replace(&mut it.locals, vec![scope.clone()]);
    let result = f(it);
    it.locals = locals;
    // What the code assigned goes back into the dict, as Python's does.
    let mut dict = d.borrow_mut();
    for (name, v) in scope.vars.borrow().iter() {
        dict.insert(name.into(), v.clone());
    }
    result
}

/// exec's and eval's arguments: the code, and a globals dict if given
/// (a locals mapping is accepted and not used).
fn source_args(mut a: Args) -> Result<(String, Option<Value>)> {
    let code = a.string("source")?;
    let globals = a
        .take("globals")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    let _ = a.take("locals");
    a.finish()?;
    Ok((code, globals))
}

fn exec(it: &mut Interp, a: Args) -> Result<Value> {
    let (code, globals) = source_args(a)?;
    let program = Timed::new(Value::str(&code))?;
    in_globals(it, globals.as_ref(), |it| program.run(it))?;
    Ok(Value::None)
}

fn eval(it: &mut Interp, a: Args) -> Result<Value> {
    let (code, globals) = source_args(a)?;
    let program = crate::syntax::parse_program(code.trim())?;
    let [stmt] = program.as_slice() else {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Syntax,
            "eval() takes one expression",
        )
        .hint("run statements with exec(...)"));
    };
    let crate::syntax::ast::StmtKind::Expr(e) = &stmt.kind else {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Syntax,
            "eval() takes an expression, not a statement",
        )
        .hint("run statements with exec(...)"));
    };
    let source: Rc<str> = Rc::from(code.trim());
    in_globals(it, globals.as_ref(), |it| {
        let outer = std::mem::replace(&mut it.source, source.clone());
        let v = it.eval(e);
        it.source = outer;
        v
    })
}

fn time_loop(it: &mut Interp, stmt: &Timed, number: i64) -> Result<f64> {
    let start = Instant::now();
    for _ in 0..number {
        stmt.run(it)?;
        crate::interrupt::check()?;
    }
    Ok(start.elapsed().as_secs_f64())
}

fn timeit(it: &mut Interp, a: Args) -> Result<Value> {
    let t = timing_args(a, false)?;
    in_globals(it, t.globals.as_ref(), |it| {
        t.setup.run(it)?;
        Ok(Value::Float(time_loop(it, &t.stmt, t.number)?))
    })
}

fn repeat(it: &mut Interp, a: Args) -> Result<Value> {
    let t = timing_args(a, true)?;
    in_globals(it, t.globals.as_ref(), |it| {
        let mut times = Vec::new();
        for _ in 0..t.repeats {
            t.setup.run(it)?;
            times.push(Value::Float(time_loop(it, &t.stmt, t.number)?));
        }
        Ok(Value::list(times))
    })
}

fn default_timer(it: &mut Interp, a: Args) -> Result<Value> {
    super::pytime::perf_counter(it, a)
}

fn globals(it: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::dict(
        it.globals
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    ))
}

/// The numbers of `data` (a list, tuple or other iterable of ints and floats),
/// and whether they were all ints (mean and median keep ints as Python does
/// where the answer is whole).
fn numbers(mut a: Args, what: &str) -> Result<(Vec<f64>, bool)> {
    let (data, span) = a.take("data").ok_or_else(|| {
        type_err(format!(
            "{what}() missing 1 required positional argument: 'data'"
        ))
    })?;
    a.finish()?;
    let items = data.iter_items().map_err(|e| e.at(span))?;
    let mut all_int = true;
    let values = items
        .iter()
        .map(|v| match v {
            Value::Int(i) => Ok(*i as f64),
            Value::Bool(b) => Ok(*b as i64 as f64),
            Value::Float(f) => {
                all_int = false;
                Ok(*f)
            }
            other => Err(type_err(format!(
                "{what}: can't convert type '{}' to numerator/denominator",
                other.type_name()
            ))
            .at(span)),
        })
        .collect::<Result<Vec<f64>>>()?;
    Ok((values, all_int))
}

fn need(values: &[f64], at_least: usize, what: &str) -> Result<()> {
    if values.len() < at_least {
        let text = if at_least == 1 {
            format!("{what} requires at least one data point")
        } else {
            format!("{what} requires at least two data points")
        };
        return Err(value_err(text).hint("statistics raises StatisticsError here"));
    }
    Ok(())
}

/// A double-double (hi + lo): Python's statistics computes in exact
/// fractions and rounds once; sums and squares carried to ~106 bits round
/// to the same float.
#[derive(Clone, Copy)]
struct Dd(f64, f64);

impl Dd {
    fn add(self, x: f64) -> Dd {
        let s = self.0 + x;
        let v = s - self.0;
        let e = (self.0 - (s - v)) + (x - v);
        Dd::fast(s, e + self.1)
    }
    fn plus(self, o: Dd) -> Dd {
        let d = self.add(o.0);
        Dd::fast(d.0, d.1 + o.1)
    }
    fn fast(hi: f64, lo: f64) -> Dd {
        let s = hi + lo;
        Dd(s, lo - (s - hi))
    }
    fn square(self) -> Dd {
        let p = self.0 * self.0;
        let e = self.0.mul_add(self.0, -p);
        Dd::fast(p, e + 2.0 * self.0 * self.1)
    }
    fn div(self, k: f64) -> Dd {
        let q = self.0 / k;
        let r = (-q).mul_add(k, self.0) + self.1;
        Dd::fast(q, r / k)
    }
    fn sqrt(self) -> f64 {
        let s = self.0.sqrt();
        if s == 0.0 || !s.is_finite() {
            return s;
        }
        s + ((-s).mul_add(s, self.0) + self.1) / (2.0 * s)
    }
}

fn sum_of(values: &[f64]) -> Dd {
    values.iter().fold(Dd(0.0, 0.0), |acc, &x| acc.add(x))
}

fn mean_dd(values: &[f64]) -> Dd {
    sum_of(values).div(values.len() as f64)
}

fn mean_of(values: &[f64]) -> f64 {
    mean_dd(values).0
}

/// An int where Python's statistics gives one (a whole mean of ints).
fn number(x: f64, ints: bool) -> Value {
    if ints && x.fract() == 0.0 && x.abs() < 9e15 {
        Value::Int(x as i64)
    } else {
        Value::Float(x)
    }
}

fn mean(_: &mut Interp, a: Args) -> Result<Value> {
    let (v, ints) = numbers(a, "mean")?;
    need(&v, 1, "mean")?;
    Ok(number(mean_of(&v), ints))
}

fn fmean(_: &mut Interp, a: Args) -> Result<Value> {
    let (v, _) = numbers(a, "fmean")?;
    need(&v, 1, "fmean")?;
    // Python's fmean: math.fsum (one rounding), then a float division.
    Ok(Value::Float(sum_of(&v).0 / v.len() as f64))
}

fn median(_: &mut Interp, a: Args) -> Result<Value> {
    let (mut v, ints) = numbers(a, "median")?;
    need(&v, 1, "median")?;
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Ok(if n % 2 == 1 {
        number(v[n / 2], ints)
    } else {
        // Python averages the middle two: a float, even for ints.
        Value::Float((v[n / 2 - 1] + v[n / 2]) / 2.0)
    })
}

/// The sum of squared deviations from the mean.
fn squares(v: &[f64]) -> Dd {
    let m = mean_dd(v);
    v.iter().fold(Dd(0.0, 0.0), |acc, &x| {
        let d = Dd(-m.0, -m.1).add(x);
        acc.plus(d.square())
    })
}

fn variance(_: &mut Interp, a: Args) -> Result<Value> {
    let (v, _) = numbers(a, "variance")?;
    need(&v, 2, "variance")?;
    Ok(Value::Float(squares(&v).div((v.len() - 1) as f64).0))
}

fn stdev(_: &mut Interp, a: Args) -> Result<Value> {
    let (v, _) = numbers(a, "stdev")?;
    need(&v, 2, "stdev")?;
    Ok(Value::Float(squares(&v).div((v.len() - 1) as f64).sqrt()))
}

fn pstdev(_: &mut Interp, a: Args) -> Result<Value> {
    let (v, _) = numbers(a, "pstdev")?;
    need(&v, 1, "pstdev")?;
    Ok(Value::Float(squares(&v).div(v.len() as f64).sqrt()))
}

thread_local! {
    /// gc.isenabled()'s answer: what the script last asked for.
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

fn collect(_: &mut Interp, mut a: Args) -> Result<Value> {
    // Which generation to collect: tsh has none, so any is accepted.
    let _ = a.take("generation");
    a.finish()?;
    Ok(Value::Int(0))
}

fn switch(a: Args, on: bool) -> Result<Value> {
    a.finish()?;
    ENABLED.with(|e| e.set(on));
    Ok(Value::None)
}

fn disable(_: &mut Interp, a: Args) -> Result<Value> {
    switch(a, false)
}

fn enable(_: &mut Interp, a: Args) -> Result<Value> {
    switch(a, true)
}

fn is_enabled(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(ENABLED.with(Cell::get)))
}
