//! Python's `itertools`: the iterators made on demand (count, cycle, repeat,
//! chain, islice, accumulate, the filters, zip_longest, groupby, tee). Each is
//! a Rust body on a stack of its own that hands out items as they are asked
//! for, so `islice(count(), 5)` and `zip(cycle('ab'), xs)` end. The
//! combinatoric ones (product, combinations, permutations) are in
//! pycombinatorics.rs.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::ops::{binary, compare};
use crate::interp::value::{Iter, Value};
use crate::row;
use crate::syntax::ast::{BinOp, CmpOp, Span};

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "itertools.count",
        "itertools.count(start=0, step=1)",
        "start, start + step, start + 2*step, ... without end.",
        "import itertools; list(itertools.islice(itertools.count(10, 5), 3))",
        count
    ),
    row!(
        Module,
        "itertools.cycle",
        "itertools.cycle(iterable)",
        "The items of iterable, then again, without end.",
        "import itertools; list(itertools.islice(itertools.cycle('ab'), 5))",
        cycle
    ),
    row!(
        Module,
        "itertools.repeat",
        "itertools.repeat(object, times=None)",
        "object, times times (without end when times is None).",
        "import itertools; list(itertools.repeat(7, 3))",
        repeat
    ),
    row!(
        Module,
        "itertools.accumulate",
        "itertools.accumulate(iterable, func=None, *, initial=None)",
        "Running totals (or running func(total, item)), after initial if given.",
        "import itertools; list(itertools.accumulate([1, 2, 3, 4], initial=100))",
        accumulate
    ),
    row!(
        Module,
        "itertools.chain",
        "itertools.chain(*iterables)",
        "The items of each iterable in turn.",
        "import itertools; list(itertools.chain([1, 2], (3,), 'ab'))",
        chain
    ),
    row!(
        Module,
        "itertools.chain.from_iterable",
        "itertools.chain.from_iterable(iterable)",
        "The items of each iterable that iterable gives, in turn.",
        "import itertools; list(itertools.chain.from_iterable([[1], [2, 3]]))",
        chain_from_iterable
    ),
    row!(
        Module,
        "itertools.islice",
        "itertools.islice(iterable, [start,] stop[, step])",
        "The items at start, start + step, ... before stop (None: to the end).",
        "import itertools; list(itertools.islice('abcdefg', 2, None, 2))",
        islice
    ),
    row!(
        Module,
        "itertools.compress",
        "itertools.compress(data, selectors)",
        "The items of data whose selector is true.",
        "import itertools; list(itertools.compress('abcd', [1, 0, 1, 1]))",
        compress
    ),
    row!(
        Module,
        "itertools.takewhile",
        "itertools.takewhile(predicate, iterable)",
        "The items while predicate holds.",
        "import itertools; list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1]))",
        takewhile
    ),
    row!(
        Module,
        "itertools.dropwhile",
        "itertools.dropwhile(predicate, iterable)",
        "The items from the first for which predicate fails.",
        "import itertools; list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1]))",
        dropwhile
    ),
    row!(
        Module,
        "itertools.starmap",
        "itertools.starmap(function, iterable)",
        "function(*item) for each item.",
        "import itertools; list(itertools.starmap(pow, [(2, 3), (3, 2)]))",
        starmap
    ),
    row!(
        Module,
        "itertools.pairwise",
        "itertools.pairwise(iterable)",
        "Overlapping pairs of neighbours: (a, b), (b, c), ...",
        "import itertools; list(itertools.pairwise('abcd'))",
        pairwise
    ),
    row!(
        Module,
        "itertools.zip_longest",
        "itertools.zip_longest(*iterables, fillvalue=None)",
        "zip to the longest iterable, the shorter ones padded with fillvalue.",
        "import itertools; list(itertools.zip_longest('ab', 'xyz', fillvalue='-'))",
        zip_longest
    ),
    row!(
        Module,
        "itertools.groupby",
        "itertools.groupby(iterable, key=None)",
        "(key, group) for each run of neighbouring items with equal keys.",
        "import itertools; [(k, list(g)) for k, g in itertools.groupby('aabccc')]",
        groupby
    ),
    row!(
        Module,
        "itertools.tee",
        "itertools.tee(iterable, n=2)",
        "n independent iterators over the same items.",
        "import itertools; a, b = itertools.tee(iter([1, 2])); list(a), list(b)",
        tee
    ),
];

/// Items pulled one at a time from any iterable.
pub(super) type Items = Box<dyn Iterator<Item = Result<Value>>>;

pub(super) fn items(it: &mut Interp, v: &Value) -> Result<Items> {
    it.iterate(v)
}

/// Call `f` with these arguments.
fn call(it: &mut Interp, f: &Value, args: Vec<Value>) -> Result<Value> {
    let args = args.into_iter().map(|v| (v, Span::default())).collect();
    it.call(f, args, vec![], Span::default())
}

/// An itertools object whose items `run` makes on demand.
pub(super) fn lazy(
    it: &mut Interp,
    name: &str,
    run: impl FnOnce(&mut Interp) -> Result<()> + 'static,
) -> Result<Value> {
    it.native_iter(format!("itertools.{name} object"), run)
}

fn count(it: &mut Interp, mut a: Args) -> Result<Value> {
    let start = a.take("start").map_or(Value::Int(0), |(v, _)| v);
    let step = a.take("step").map_or(Value::Int(1), |(v, _)| v);
    a.finish()?;
    lazy(it, "count", move |it| {
        let mut n = start;
        loop {
            let next = binary(BinOp::Add, &n, &step)?;
            it.yield_value(std::mem::replace(&mut n, next))?;
        }
    })
}

fn cycle(it: &mut Interp, mut a: Args) -> Result<Value> {
    let mut src = items(it, &a.value("iterable")?)?;
    a.finish()?;
    lazy(it, "cycle", move |it| {
        // The first pass keeps what it hands out; later passes replay it.
        let mut saved = vec![];
        for v in src.by_ref() {
            let v = v?;
            saved.push(v.clone());
            it.yield_value(v)?;
        }
        while !saved.is_empty() {
            for v in &saved {
                it.yield_value(v.clone())?;
            }
        }
        Ok(())
    })
}

fn repeat(it: &mut Interp, mut a: Args) -> Result<Value> {
    let object = a.value("object")?;
    let times = a.opt_int("times")?;
    a.finish()?;
    lazy(it, "repeat", move |it| {
        match times {
            Some(n) => (0..n).try_for_each(|_| it.yield_value(object.clone()))?,
            None => loop {
                it.yield_value(object.clone())?;
            },
        }
        Ok(())
    })
}

fn accumulate(it: &mut Interp, mut a: Args) -> Result<Value> {
    let src = items(it, &a.value("iterable")?)?;
    let func = a
        .take("func")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    let initial = a
        .take_kw("initial")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    a.finish()?;
    lazy(it, "accumulate", move |it| {
        let mut total = initial;
        if let Some(t) = &total {
            it.yield_value(t.clone())?;
        }
        for v in src {
            let v = v?;
            let next = match (total.take(), &func) {
                (None, _) => v,
                (Some(t), None) => binary(BinOp::Add, &t, &v)?,
                (Some(t), Some(f)) => call(it, f, vec![t, v])?,
            };
            total = Some(next.clone());
            it.yield_value(next)?;
        }
        Ok(())
    })
}

/// The items of each iterable that `outer` gives, each opened only when reached.
fn chained(it: &mut Interp, outer: Items) -> Result<Value> {
    lazy(it, "chain", move |it| {
        for inner in outer {
            for v in items(it, &inner?)? {
                it.yield_value(v?)?;
            }
        }
        Ok(())
    })
}

fn chain(it: &mut Interp, mut a: Args) -> Result<Value> {
    let iterables: Vec<Value> = a.rest_values();
    a.finish()?;
    chained(it, Box::new(iterables.into_iter().map(Ok)))
}

fn chain_from_iterable(it: &mut Interp, mut a: Args) -> Result<Value> {
    let outer = items(it, &a.value("iterable")?)?;
    a.finish()?;
    chained(it, outer)
}

/// islice's start and stop: None or a non-negative int.
fn slice_index(v: Option<Value>, default: Option<usize>) -> Result<Option<usize>> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(Value::Int(i)) if i >= 0 => Ok(Some(i as usize)),
        Some(_) => Err(value_err(
            "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.",
        )),
    }
}

fn islice(it: &mut Interp, mut a: Args) -> Result<Value> {
    let mut src = items(it, &a.value("iterable")?)?;
    let bounds: Vec<Value> = a.rest_values();
    a.finish()?;
    let (start, stop, step) = match bounds.as_slice() {
        [stop] => (None, Some(stop.clone()), None),
        [start, stop] => (Some(start.clone()), Some(stop.clone()), None),
        [start, stop, step] => (Some(start.clone()), Some(stop.clone()), Some(step.clone())),
        _ => {
            return Err(type_err(format!(
                "islice expected at most 4 arguments, got {}",
                bounds.len() + 1
            )));
        }
    };
    let start = slice_index(start, Some(0))?.unwrap_or(0);
    let stop = slice_index(stop, None)?;
    let step = match step {
        None | Some(Value::None) => 1,
        Some(Value::Int(s)) if s > 0 => s as usize,
        Some(_) => {
            return Err(value_err(
                "Step for islice() must be a positive integer or None.",
            ));
        }
    };
    lazy(it, "islice", move |it| {
        // Items are pulled only up to the last one wanted, so an endless
        // source is read no further than stop.
        let mut want = start;
        let mut i = 0;
        while stop.is_none_or(|s| want < s) {
            let Some(v) = src.next() else { break };
            let v = v?;
            if i == want {
                it.yield_value(v)?;
                want += step;
            }
            i += 1;
        }
        // Python's islice reads its source up to stop even past the last item
        // it hands out (when the step skips over stop).
        if let Some(s) = stop {
            while i < s.min(want) {
                match src.next() {
                    Some(v) => drop(v?),
                    None => break,
                }
                i += 1;
            }
        }
        Ok(())
    })
}

fn compress(it: &mut Interp, mut a: Args) -> Result<Value> {
    let data = items(it, &a.value("data")?)?;
    let selectors = items(it, &a.value("selectors")?)?;
    a.finish()?;
    lazy(it, "compress", move |it| {
        for (d, s) in data.zip(selectors) {
            let d = d?;
            if s?.truthy()? {
                it.yield_value(d)?;
            }
        }
        Ok(())
    })
}

fn takewhile(it: &mut Interp, mut a: Args) -> Result<Value> {
    let pred = a.value("predicate")?;
    let src = items(it, &a.value("iterable")?)?;
    a.finish()?;
    lazy(it, "takewhile", move |it| {
        for v in src {
            let v = v?;
            if !call(it, &pred, vec![v.clone()])?.truthy()? {
                break;
            }
            it.yield_value(v)?;
        }
        Ok(())
    })
}

fn dropwhile(it: &mut Interp, mut a: Args) -> Result<Value> {
    let pred = a.value("predicate")?;
    let src = items(it, &a.value("iterable")?)?;
    a.finish()?;
    lazy(it, "dropwhile", move |it| {
        let mut dropping = true;
        for v in src {
            let v = v?;
            if dropping && call(it, &pred, vec![v.clone()])?.truthy()? {
                continue;
            }
            dropping = false;
            it.yield_value(v)?;
        }
        Ok(())
    })
}

fn starmap(it: &mut Interp, mut a: Args) -> Result<Value> {
    let f = a.value("function")?;
    let src = items(it, &a.value("iterable")?)?;
    a.finish()?;
    lazy(it, "starmap", move |it| {
        for v in src {
            let args = it.iterate_items(&v?)?;
            let out = call(it, &f, args)?;
            it.yield_value(out)?;
        }
        Ok(())
    })
}

fn pairwise(it: &mut Interp, mut a: Args) -> Result<Value> {
    let src = items(it, &a.value("iterable")?)?;
    a.finish()?;
    lazy(it, "pairwise", move |it| {
        let mut prev = None;
        for v in src {
            let v = v?;
            if let Some(p) = prev.replace(v.clone()) {
                it.yield_value(Value::tuple(vec![p, v]))?;
            }
        }
        Ok(())
    })
}

fn zip_longest(it: &mut Interp, mut a: Args) -> Result<Value> {
    let iterables: Vec<Value> = a.rest_values();
    let fill = a.take_kw("fillvalue").map_or(Value::None, |(v, _)| v);
    a.finish()?;
    let mut srcs: Vec<Option<Items>> = iterables
        .iter()
        .map(|v| items(it, v).map(Some))
        .collect::<Result<_>>()?;
    lazy(it, "zip_longest", move |it| {
        let mut live = srcs.len();
        while live > 0 {
            let mut row = Vec::with_capacity(srcs.len());
            for src in srcs.iter_mut() {
                match src.as_mut().and_then(Iterator::next) {
                    Some(v) => row.push(v?),
                    None => {
                        if src.take().is_some() {
                            live -= 1;
                        }
                        row.push(fill.clone());
                    }
                }
            }
            if live == 0 {
                break;
            }
            it.yield_value(Value::tuple(row))?;
        }
        Ok(())
    })
}

fn groupby(it: &mut Interp, mut a: Args) -> Result<Value> {
    let src = items(it, &a.value("iterable")?)?;
    let key = a
        .take("key")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    a.finish()?;
    lazy(it, "groupby", move |it| {
        // Each group is gathered whole before it is handed out: Python's
        // groups share the source and empty as the outer iterator moves on,
        // tsh's keep their items.
        let mut run: Option<(Value, Vec<Value>)> = None;
        for v in src {
            let v = v?;
            let k = match &key {
                Some(f) => call(it, f, vec![v.clone()])?,
                None => v.clone(),
            };
            match &mut run {
                Some((rk, group)) if compare(CmpOp::Eq, rk, &k)?.truthy()? => group.push(v),
                _ => {
                    if let Some(done) = run.replace((k, vec![v])) {
                        it.yield_value(group_pair(done))?;
                    }
                }
            }
        }
        if let Some(done) = run {
            it.yield_value(group_pair(done))?;
        }
        Ok(())
    })
}

fn group_pair((key, group): (Value, Vec<Value>)) -> Value {
    Value::tuple(vec![
        key,
        Iter::value("itertools._grouper object".into(), group),
    ])
}

/// tee's shared source, and what each branch has not taken yet.
struct Tee {
    src: Items,
    pending: Vec<VecDeque<Value>>,
}

fn tee(it: &mut Interp, mut a: Args) -> Result<Value> {
    let src = items(it, &a.value("iterable")?)?;
    let n = a.int_or("n", 2)?;
    a.finish()?;
    if n < 0 {
        return Err(value_err("n must be >= 0"));
    }
    let n = n as usize;
    let shared = Rc::new(RefCell::new(Tee {
        src,
        pending: vec![VecDeque::new(); n],
    }));
    let branches = (0..n)
        .map(|i| {
            let shared = shared.clone();
            lazy(it, "_tee", move |it| {
                loop {
                    let next = {
                        let mut t = shared
                            .try_borrow_mut()
                            .map_err(|_| value_err("a tee iterator read itself"))?;
                        match t.pending[i].pop_front() {
                            Some(v) => Some(v),
                            None => match t.src.next().transpose()? {
                                // A new item goes to every other branch's queue.
                                Some(v) => {
                                    for (j, q) in t.pending.iter_mut().enumerate() {
                                        if j != i {
                                            q.push_back(v.clone());
                                        }
                                    }
                                    Some(v)
                                }
                                None => None,
                            },
                        }
                    };
                    match next {
                        Some(v) => it.yield_value(v)?,
                        None => return Ok(()),
                    }
                }
            })
        })
        .collect::<Result<_>>()?;
    Ok(Value::tuple(branches))
}
