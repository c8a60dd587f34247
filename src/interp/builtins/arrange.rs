//! Rearranging elements: movedim, tile, rot90, unflatten, repeat_interleave,
//! meshgrid, diff, kron, cross, cdist (the math is tensor/ops/arrange.rs).

use super::Builtin;
use crate::error::Result;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::ops::arrange as a;

pub const ROWS: &[Builtin] = &[
    op!(
        Both,
        "movedim(Tensor input, int[1] source, int[1] destination) -> Tensor",
        "A view with dims source moved to destination (the others keep their order).",
        "movedim(zeros(2, 3, 4), 0, -1).shape",
        |input: Tensor, source: Vec<i64>, destination: Vec<i64>| a::movedim(
            &input,
            &source,
            &destination
        )
    ),
    op!(
        Both,
        "moveaxis(Tensor input, int[1] source, int[1] destination) -> Tensor",
        "Alias of movedim.",
        "moveaxis(zeros(2, 3, 4), [0, 1], [2, 0]).shape",
        |input: Tensor, source: Vec<i64>, destination: Vec<i64>| a::movedim(
            &input,
            &source,
            &destination
        )
    ),
    op!(
        Both,
        "tile(Tensor input, int[] dims) -> Tensor",
        "The tensor repeated dims[i] times along each dim (missing leading counts are 1).",
        "tile(tensor([1, 2]), (2, 2))",
        |input: Tensor, dims: Vec<i64>| a::tile(&input, &dims)
    ),
    op!(
        Both,
        "rot90(Tensor input, int k=1, int[] dims=[0, 1]) -> Tensor",
        "Rotated k quarter turns in the plane of dims (from the first towards the second).",
        "rot90(arange(4).reshape(2, 2))",
        |input: Tensor, k: i64, dims: Vec<i64>| a::rot90(&input, k, &dims)
    ),
    op!(
        Both,
        "unflatten(Tensor input, int dim, int[] sizes) -> Tensor",
        "dim split into several of the given sizes (one may be -1).",
        "unflatten(arange(6), 0, (2, 3))",
        |input: Tensor, dim: i64, sizes: Vec<i64>| a::unflatten(&input, dim, &sizes)
    ),
    op!(
        Both,
        "repeat_interleave(Tensor input, Any repeats=None, int? dim=None, *, int? output_size=None) -> Tensor",
        "Each element (slice along dim) repeated in place, repeats times (a count each, or one for all).",
        "repeat_interleave(tensor([1, 2]), 2)",
        |input: Tensor, repeats: Value, dim: Option<i64>, _output_size: Option<i64>| {
            repeat_interleave(&input, &repeats, dim)
        }
    ),
    op!(
        Function,
        "meshgrid(Tensor *tensors, str? indexing=None) -> Tensor[]",
        "Grids of coordinates: each 1-d tensor expanded along its own dim (indexing 'ij' or 'xy').",
        "meshgrid(tensor([1, 2, 3]), tensor([4, 5]), indexing='ij')",
        |tensors: Value, indexing: Option<String>| meshgrid(&tensors, indexing.as_deref())
    ),
    op!(
        Function,
        "cartesian_prod(Tensor *tensors) -> Tensor",
        "Every tuple of one element from each 1-d tensor, as the rows of a matrix.",
        "cartesian_prod(tensor([1, 2]), tensor([3, 4]))",
        |tensors: Value| a::cartesian_prod(&super::matrix::tensor_list(
            &tensors,
            "cartesian_prod"
        )?)
    ),
    op!(
        Function,
        "combinations(Tensor input, int r=2, bool with_replacement=False) -> Tensor",
        "The r-long combinations of a 1-d tensor's elements (as itertools.combinations), as rows.",
        "combinations(tensor([1, 2, 3]), r=2)",
        |input: Tensor, r: i64, with_replacement: bool| a::combinations(
            &input,
            r,
            with_replacement
        )
    ),
    op!(
        Both,
        "diff(Tensor input, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor",
        "The n-th forward difference along dim (after prepend and append).",
        "diff(tensor([1, 3, 2]))",
        |input: Tensor, n: i64, dim: i64, prepend: Option<Tensor>, append: Option<Tensor>| {
            a::diff(&input, n, dim, prepend.as_ref(), append.as_ref())
        }
    ),
    op!(
        Both,
        "kron(Tensor input, Tensor other) -> Tensor",
        "The Kronecker product: each element of input times all of other, in blocks.",
        "kron(tensor([1, 2]), ones(2, 2, dtype=torch.int64))",
        |input: Tensor, other: Tensor| a::kron(&input, &other)
    ),
    op!(
        Both,
        "cross(Tensor input, Tensor other, int? dim=None) -> Tensor",
        "The cross product of 3-vectors along dim (the first dim of size 3 without it).",
        "cross(tensor([[1., 0., 0.]]), tensor([[0., 1., 0.]]), dim=1)",
        |input: Tensor, other: Tensor, dim: Option<i64>| {
            let d = match dim {
                Some(d) => d,
                None => a::first_dim_of_3(&input, &other)?,
            };
            a::cross(&input, &other, d)
        }
    ),
    op!(
        Module,
        "linalg.cross(Tensor input, Tensor other, *, int dim=-1) -> Tensor",
        "The cross product of 3-vectors along dim.",
        "torch.linalg.cross(tensor([1., 0., 0.]), tensor([0., 1., 0.]))",
        |input: Tensor, other: Tensor, dim: i64| a::cross(&input, &other, dim)
    ),
    op!(
        Function,
        "cdist(Tensor x1, Tensor x2, float p=2., str? compute_mode=None) -> Tensor",
        "The p-norm distance between each row of x1 and each row of x2.",
        "cdist(tensor([[0., 0.], [1., 1.]]), tensor([[1., 0.]]))",
        |x1: Tensor, x2: Tensor, p: f64, _compute_mode: Option<String>| a::cdist(&x1, &x2, p)
    ),
];

fn repeat_interleave(t: &Tensor, repeats: &Value, dim: Option<i64>) -> Result<Tensor> {
    use crate::tensor::ops::select::index_select;
    match repeats {
        // torch.repeat_interleave(counts): the index of each count, repeated.
        Value::None => a::repeat_index(&t.to_host_i64()?, t.device()),
        Value::Int(r) => {
            a::repeat_interleave(t, crate::interp::args::check_positive(*r, "repeats")?, dim)
        }
        Value::Tensor(r) if r.numel() == 1 && r.ndim() == 0 => {
            let n = convert::to_int(repeats, "repeat_interleave", "repeats")?;
            a::repeat_interleave(t, crate::interp::args::check_positive(n, "repeats")?, dim)
        }
        other => {
            let counts = convert::to_int_list(other, "repeat_interleave", "repeats")?;
            let idx = a::repeat_index(&counts, t.device())?;
            match dim {
                Some(d) => index_select(t, d, &idx),
                None => index_select(&crate::tensor::ops::view::reshape(t, &[-1])?, 0, &idx),
            }
        }
    }
}

fn meshgrid(tensors: &Value, indexing: Option<&str>) -> Result<Vec<Tensor>> {
    let items = tensors.iter_items()?;
    let items = match &items[..] {
        [one @ (Value::List(_) | Value::Tuple(_))] => one.iter_items()?,
        _ => items,
    };
    let ts: Vec<Tensor> = items
        .iter()
        .map(|v| convert::to_tensor_arg(v, "meshgrid", "tensors"))
        .collect::<Result<_>>()?;
    let xy = match indexing {
        None => {
            crate::warnings::warn(
                crate::warnings::WarningKind::User,
                "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            );
            false
        }
        Some("ij") => false,
        Some("xy") => true,
        Some(other) => {
            return Err(crate::error::value_err(format!(
                "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {other}"
            )));
        }
    };
    a::meshgrid(&ts, xy)
}
