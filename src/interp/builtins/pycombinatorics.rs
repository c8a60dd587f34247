//! itertools' combinatoric iterators: product, combinations,
//! combinations_with_replacement, permutations. As in Python, the inputs are
//! read whole when the iterator is made and the tuples are made on demand
//! (there may be very many), in Python's order (the algorithms of its docs).

use super::Builtin;
use super::pyitertools::lazy;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "itertools.product",
        "itertools.product(*iterables, repeat=1)",
        "The cartesian product: every tuple of one item from each iterable.",
        "import itertools; list(itertools.product('ab', [0, 1]))",
        product
    ),
    row!(
        Module,
        "itertools.combinations",
        "itertools.combinations(iterable, r)",
        "The r-long tuples of items in their order, no item twice.",
        "import itertools; list(itertools.combinations([1, 2, 3], 2))",
        combinations
    ),
    row!(
        Module,
        "itertools.combinations_with_replacement",
        "itertools.combinations_with_replacement(iterable, r)",
        "The r-long tuples of items in their order, an item repeated allowed.",
        "import itertools; list(itertools.combinations_with_replacement('ab', 2))",
        combinations_with_replacement
    ),
    row!(
        Module,
        "itertools.permutations",
        "itertools.permutations(iterable, r=None)",
        "The r-long orderings of the items (r=None: all of them).",
        "import itertools; list(itertools.permutations([1, 2, 3], 2))",
        permutations
    ),
];

/// Hand out `pool[i]` tuples for each index tuple `next` gives, until it gives none.
fn drive(
    it: &mut Interp,
    name: &str,
    pools: Vec<Vec<Value>>,
    mut next: impl FnMut() -> Option<Vec<usize>> + 'static,
) -> Result<Value> {
    lazy(it, name, move |it| {
        while let Some(ix) = next() {
            let row = ix
                .iter()
                .enumerate()
                .map(|(k, &i)| pools[k % pools.len()][i].clone())
                .collect();
            it.yield_value(Value::tuple(row))?;
        }
        Ok(())
    })
}

fn r_arg(a: &mut Args) -> Result<Option<usize>> {
    match a.opt_int("r")? {
        Some(r) if r < 0 => Err(value_err("r must be non-negative")),
        r => Ok(r.map(|r| r as usize)),
    }
}

fn product(it: &mut Interp, mut a: Args) -> Result<Value> {
    let iterables: Vec<Value> = a.rest_values();
    let repeat = a.take_kw("repeat").map_or(Ok(1), |(v, _)| match v {
        Value::Int(n) if n >= 0 => Ok(n as usize),
        Value::Int(_) => Err(value_err("repeat argument cannot be negative")),
        _ => Err(crate::error::type_err("repeat must be an int")),
    })?;
    a.finish()?;
    let mut pools = Vec::with_capacity(iterables.len());
    for v in &iterables {
        pools.push(it.iterate_items(v)?);
    }
    let pools: Vec<Vec<Value>> = (0..repeat).flat_map(|_| pools.clone()).collect();
    let sizes: Vec<usize> = pools.iter().map(Vec::len).collect();
    // An odometer over the pools, the last one turning fastest.
    let mut state = (!sizes.contains(&0)).then(|| vec![0; sizes.len()]);
    let mut first = true;
    let next = move || {
        let ix = state.as_mut()?;
        if !std::mem::take(&mut first) {
            let Some(i) = (0..ix.len()).rev().find(|&i| ix[i] + 1 < sizes[i]) else {
                state = None;
                return None;
            };
            ix[i] += 1;
            ix[i + 1..].fill(0);
        }
        Some(ix.clone())
    };
    if pools.is_empty() {
        // The product of no iterables is one empty tuple.
        return drive(it, "product", vec![vec![]], next);
    }
    drive(it, "product", pools, next)
}

fn combinations(it: &mut Interp, mut a: Args) -> Result<Value> {
    let pool = it.iterate_items(&a.value("iterable")?)?;
    let r =
        r_arg(&mut a)?.ok_or_else(|| value_err("combinations() missing required argument 'r'"))?;
    a.finish()?;
    let n = pool.len();
    let mut state = (r <= n).then(|| (0..r).collect::<Vec<usize>>());
    let mut first = true;
    let next = move || {
        let ix = state.as_mut()?;
        if !std::mem::take(&mut first) {
            let Some(i) = (0..r).rev().find(|&i| ix[i] != i + n - r) else {
                state = None;
                return None;
            };
            ix[i] += 1;
            for j in i + 1..r {
                ix[j] = ix[j - 1] + 1;
            }
        }
        Some(ix.clone())
    };
    drive(it, "combinations", vec![pool], next)
}

fn combinations_with_replacement(it: &mut Interp, mut a: Args) -> Result<Value> {
    let pool = it.iterate_items(&a.value("iterable")?)?;
    let r = r_arg(&mut a)?.ok_or_else(|| {
        value_err("combinations_with_replacement() missing required argument 'r'")
    })?;
    a.finish()?;
    let n = pool.len();
    let mut state = (n > 0 || r == 0).then(|| vec![0; r]);
    let mut first = true;
    let next = move || {
        let ix = state.as_mut()?;
        if !std::mem::take(&mut first) {
            let Some(i) = (0..r).rev().find(|&i| ix[i] != n - 1) else {
                state = None;
                return None;
            };
            let v = ix[i] + 1;
            ix[i..].fill(v);
        }
        Some(ix.clone())
    };
    drive(it, "combinations_with_replacement", vec![pool], next)
}

fn permutations(it: &mut Interp, mut a: Args) -> Result<Value> {
    let pool = it.iterate_items(&a.value("iterable")?)?;
    let r = r_arg(&mut a)?;
    a.finish()?;
    let n = pool.len();
    let r = r.unwrap_or(n);
    // Python's cycle counters: cycles[i] says how many more choices
    // position i has before it rotates back.
    let mut indices: Vec<usize> = (0..n).collect();
    let mut cycles: Vec<usize> = (0..r).map(|i| n - i).collect();
    let mut live = r <= n;
    let mut first = true;
    let next = move || {
        if !live {
            return None;
        }
        if std::mem::take(&mut first) {
            return Some(indices[..r].to_vec());
        }
        for i in (0..r).rev() {
            cycles[i] -= 1;
            if cycles[i] == 0 {
                indices[i..].rotate_left(1);
                cycles[i] = n - i;
            } else {
                let j = n - cycles[i];
                indices.swap(i, j);
                return Some(indices[..r].to_vec());
            }
        }
        live = false;
        None
    };
    drive(it, "permutations", vec![pool], next)
}
