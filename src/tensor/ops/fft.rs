//! torch.fft: discrete Fourier transforms as complex matrix products with the
//! DFT matrix along each dim (composites, so they run on every device and
//! their twiddles are exact at the quarter turns, as pocketfft's are). A long
//! dim of composite length is split in two (the four-step Cooley–Tukey), so
//! work grows as n·(n1 + n2), not n².

use crate::error::{Result, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::ops::arith::{mul, num};
use crate::tensor::ops::complex::conj;
use crate::tensor::ops::view::{narrow, reshape, transpose};
use crate::tensor::shape::normalize_dim;

/// x times a real factor (both parts of a complex x scaled, as pocketfft's
/// factor does, so a zero part keeps its sign).
fn scaled(x: &Tensor, f: f64) -> Result<Tensor> {
    if f == 1.0 {
        return Ok(x.clone());
    }
    if x.dtype().is_complex() {
        return mul(&x.view_as_real()?, &num(f))?.view_as_complex();
    }
    mul(x, &num(f))
}

/// How a transform is scaled: PyTorch's `norm=` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    Backward,
    Ortho,
    Forward,
}

impl Norm {
    pub fn parse(s: Option<&str>) -> Result<Norm> {
        Ok(match s {
            None | Some("backward") => Norm::Backward,
            Some("ortho") => Norm::Ortho,
            Some("forward") => Norm::Forward,
            Some(other) => {
                return Err(value_err(format!(
                    "Invalid normalization mode: \"{other}\""
                )));
            }
        })
    }

    /// The factor for a transform of length n in the given direction.
    fn factor(self, n: usize, inverse: bool) -> f64 {
        match (self, inverse) {
            (Norm::Ortho, _) => 1.0 / (n as f64).sqrt(),
            (Norm::Backward, false) | (Norm::Forward, true) => 1.0,
            (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / n as f64,
        }
    }
}

/// cos and sin of 2π·m/n, reduced to the first octant first (as pocketfft
/// does), so symmetric twiddles are exactly equal and opposite, and the
/// quarter turns are exact.
fn turn(m: usize, n: usize) -> (f64, f64) {
    // The angle is 2π·k/total, in eighths so the reductions stay integral.
    let (mut k, total) = (8 * (m % n), 8 * n);
    let (mut neg_s, mut neg_c, mut swap) = (false, false, false);
    if 2 * k > total {
        k = total - k;
        neg_s = true;
    }
    if 4 * k > total {
        k = total / 2 - k;
        neg_c = true;
    }
    if 8 * k > total {
        k = total / 4 - k;
        swap = true;
    }
    let a = 2.0 * std::f64::consts::PI * k as f64 / total as f64;
    let (mut c, mut s) = if k == 0 {
        (1.0, 0.0)
    } else {
        (a.cos(), a.sin())
    };
    if swap {
        std::mem::swap(&mut c, &mut s);
    }
    if neg_c {
        c = -c;
    }
    if neg_s {
        s = -s;
    }
    (c, s)
}

/// A complex [rows, cols] matrix of e^(∓2πi·j·k/n), in `dtype` on `like`'s device.
fn twiddles(rows: usize, cols: usize, n: usize, inverse: bool, like: &Tensor) -> Result<Tensor> {
    let sign = if inverse { 1.0 } else { -1.0 };
    let mut pairs = Vec::with_capacity(rows * cols * 2);
    for j in 0..rows {
        for k in 0..cols {
            let (c, s) = turn(j * k, n);
            pairs.push(c);
            pairs.push(sign * s);
        }
    }
    let part = like.dtype().real_part();
    let m = Tensor::from_vec(pairs, &[rows, cols, 2])
        .to_dtype(part)?
        .to_device(like.device())?;
    m.view_as_complex()
}

/// A real [rows, n] matrix of cos (or ±sin) of 2π·j·k/n for j = 1..=rows.
fn trig(rows: usize, n: usize, sine: bool, sign: f64, like: &Tensor) -> Result<Tensor> {
    let mut v = Vec::with_capacity(rows * n);
    for j in 1..=rows {
        for k in 0..n {
            let (c, s) = turn(j * k, n);
            v.push(if sine { sign * s } else { c });
        }
    }
    Tensor::from_vec(v, &[rows, n])
        .to_dtype(like.dtype().real_part())?
        .to_device(like.device())
}

/// The DFT as products with cos and sin matrices over the pairs x[j] ± x[n-j]
/// (pocketfft's butterflies): a symmetric input gives exact zeros, whatever
/// order the products are summed in.
fn dft_direct(x: &Tensor, inverse: bool) -> Result<Tensor> {
    use crate::tensor::ops::arith::{add, sub};
    use crate::tensor::ops::matmul::matmul as real_mm;
    let n = *x.shape().last().unwrap_or(&1);
    let h = (n - 1) / 2;
    let pick = |start: usize, len: usize| narrow(x, -1, start as i64, len as i64);
    let (x0r, x0i) = pick(0, 1)?.parts()?;
    let (mut re, mut im) = (x0r.contiguous()?, x0i.contiguous()?);
    let full = |t: &Tensor| -> Result<Tensor> {
        let mut shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
        if let Some(last) = shape.last_mut() {
            *last = n as i64;
        }
        crate::tensor::ops::view::expand(t, &shape)
    };
    re = full(&re)?;
    im = full(&im)?;
    if h > 0 {
        let fwd = pick(1, h)?;
        let bwd = crate::tensor::ops::view::flip(&pick(n - h, h)?, &[-1])?;
        let (sr, si) =
            crate::tensor::ops::complex::binary(crate::tensor::op::BinaryOp::Add, &fwd, &bwd)?
                .parts()?;
        let (dr, di) =
            crate::tensor::ops::complex::binary(crate::tensor::op::BinaryOp::Sub, &fwd, &bwd)?
                .parts()?;
        let sign = if inverse { 1.0 } else { -1.0 };
        let c = trig(h, n, false, sign, x)?;
        let s = trig(h, n, true, sign, x)?;
        // X = x0 + s·C + i·(d·S)
        re = add(&re, &sub(&real_mm(&sr, &c)?, &real_mm(&di, &s)?)?)?;
        im = add(&im, &add(&real_mm(&si, &c)?, &real_mm(&dr, &s)?)?)?;
    }
    if n.is_multiple_of(2) && n > 1 {
        // The middle term x[n/2]·(-1)^k.
        let alt: Vec<f64> = (0..n)
            .map(|k| if k % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let alt = Tensor::from_vec(alt, &[n])
            .to_dtype(x.dtype().real_part())?
            .to_device(x.device())?;
        let (mr, mi) = pick(n / 2, 1)?.parts()?;
        re = add(&re, &mul(&mr, &alt)?)?;
        im = add(&im, &mul(&mi, &alt)?)?;
    }
    crate::tensor::complex::from_parts(&re, &im)
}

/// The unscaled DFT of a complex tensor along its last dim.
fn dft_last(x: &Tensor, inverse: bool) -> Result<Tensor> {
    let n = *x.shape().last().unwrap_or(&1);
    let n1 = (2..=n.isqrt())
        .rev()
        .find(|d| n.is_multiple_of(*d))
        .unwrap_or(1);
    if n <= 256 || n1 == 1 {
        return dft_direct(x, inverse);
    }
    // n = n1·n2; input index n2·j1 + j2, output index k1 + n1·k2.
    let n2 = n / n1;
    let lead: Vec<i64> = x.shape()[..x.ndim() - 1]
        .iter()
        .map(|&d| d as i64)
        .collect();
    let grid = reshape(x, &[&lead[..], &[n1 as i64, n2 as i64]].concat())?;
    let y = transpose(&dft_last(&transpose(&grid, -1, -2)?, inverse)?, -1, -2)?;
    // y is [..., k1, j2]: twist by w^(j2·k1), then transform over j2.
    let y = mul(&y, &twiddles(n1, n2, n, inverse, x)?)?;
    let z = dft_last(&y, inverse)?;
    // z is [..., k1, k2]; the output runs k1 fastest.
    let z = transpose(&z, -1, -2)?.contiguous()?;
    reshape(&z, &[&lead[..], &[n as i64]].concat())
}

/// x cut or zero-padded to length n along dim.
fn resized(x: &Tensor, dim: usize, n: usize) -> Result<Tensor> {
    let have = x.shape()[dim];
    if n == have {
        return Ok(x.clone());
    }
    if n < have {
        return narrow(x, dim as i64, 0, n as i64);
    }
    let mut shape = x.shape().to_vec();
    shape[dim] = n - have;
    let zeros = crate::tensor::ops::creation::zeros_on(&shape, x.dtype(), x.device())?;
    crate::tensor::ops::join::cat(&[x.clone(), zeros], dim as i64)
}

/// The complex dtype a transform computes in (integers as the default float).
fn complex_of(x: &Tensor) -> Result<Tensor> {
    let d = x.dtype();
    let target = if d.is_complex() {
        d
    } else if d.is_float() {
        d.to_complex()
    } else {
        crate::tensor::dtype::default_float().to_complex()
    };
    x.to_dtype(target)
}

fn check_length(n: usize, what: &str) -> Result<()> {
    if n == 0 {
        return Err(
            value_err(format!("Invalid number of data points ({n}) specified"))
                .hint(format!("{what} needs at least one point")),
        );
    }
    Ok(())
}

/// One complex transform along `dim`, of length n (padded or cut).
fn along(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm, inverse: bool) -> Result<Tensor> {
    if inverse && !x.dtype().is_complex() {
        // A real signal's inverse transform is the conjugate of its forward one,
        // which is how PyTorch computes it (its zero parts keep that sign).
        let forward = along(x, n, dim, norm, false)?;
        let n = forward.shape()[normalize_dim(dim, forward.ndim())?];
        let f = norm.factor(n, true) / norm.factor(n, false);
        return scaled(&conj(&forward)?, f);
    }
    let real_input = !x.dtype().is_complex();
    let x = complex_of(x)?;
    if x.ndim() == 0 {
        return Err(value_err(
            "fft: expected a tensor with at least one dimension",
        ));
    }
    let d = normalize_dim(dim, x.ndim())?;
    let n = n.map_or(x.shape()[d], |n| n.max(0) as usize);
    check_length(n, "fft")?;
    let x = resized(&x, d, n)?;
    let moved = transpose(&x, d as i64, -1)?;
    let out = dft_last(&moved, inverse)?;
    let out = transpose(&out, d as i64, -1)?.contiguous()?;
    // PyTorch transforms a real signal as its half spectrum, mirrored by
    // conjugation (so the mirrored zero parts carry the opposite sign).
    let out = if real_input {
        hermitian(&out, d, n)?.contiguous()?
    } else {
        out
    };
    scaled(&out, norm.factor(n, inverse))
}

pub fn fft(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm) -> Result<Tensor> {
    along(x, n, dim, norm, false)
}

pub fn ifft(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm) -> Result<Tensor> {
    along(x, n, dim, norm, true)
}

/// The dims and lengths an n-dimensional transform covers: `dim` (default the
/// last len(s) dims, or all) with lengths `s` (default the input's).
fn plan(x: &Tensor, s: Option<&[i64]>, dim: Option<&[i64]>) -> Result<Vec<(i64, Option<i64>)>> {
    let dims: Vec<i64> = match (dim, s) {
        (Some(d), _) => d.to_vec(),
        (None, Some(s)) => {
            let nd = x.ndim() as i64;
            (nd - s.len() as i64..nd).collect()
        }
        (None, None) => (0..x.ndim() as i64).collect(),
    };
    if let Some(s) = s
        && s.len() != dims.len()
    {
        return Err(value_err(
            "When given, dim and shape arguments must have the same length",
        ));
    }
    Ok(dims
        .iter()
        .enumerate()
        .map(|(i, &d)| (d, s.map(|s| s[i]).filter(|&n| n != -1)))
        .collect())
}

pub fn fftn(
    x: &Tensor,
    s: Option<&[i64]>,
    dim: Option<&[i64]>,
    norm: Norm,
    inverse: bool,
) -> Result<Tensor> {
    over(complex_of(x)?, plan(x, s, dim)?, norm, inverse)
}

/// rfft: the non-negative frequencies of a real signal's transform.
pub fn rfft(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(crate::error::dtype_err(
            "rfft expects a real input tensor, but got ComplexFloat",
        ));
    }
    let full = fft(x, n, dim, norm)?;
    let d = normalize_dim(dim, full.ndim())?;
    let len = full.shape()[d];
    narrow(&full, d as i64, 0, (len / 2 + 1) as i64)?.contiguous()
}

/// The Hermitian spectrum of length n from its first n/2 + 1 entries
/// (padded or cut to that): X[n - k] = conj(X[k]).
fn hermitian(x: &Tensor, d: usize, n: usize) -> Result<Tensor> {
    let half = resized(x, d, n / 2 + 1)?;
    let rest = n - (n / 2 + 1);
    if rest == 0 {
        return Ok(half);
    }
    let mirror = narrow(&half, d as i64, 1, rest as i64)?;
    let mirror = crate::tensor::ops::view::flip(&conj(&mirror)?, &[d as i64])?;
    crate::tensor::ops::join::cat(&[half, mirror], d as i64)
}

/// A half spectrum along dim and the length n of the signal it stands for
/// (default 2·(m - 1)).
fn half_spectrum(
    x: &Tensor,
    n: Option<i64>,
    dim: i64,
    what: &str,
) -> Result<(Tensor, usize, usize)> {
    let x = complex_of(x)?;
    let d = normalize_dim(dim, x.ndim())?;
    let n = n.map_or(2 * (x.shape()[d].max(1) - 1), |n| n.max(0) as usize);
    check_length(n, what)?;
    Ok((x, d, n))
}

/// irfft: the real signal of length n whose rfft is x.
pub fn irfft(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm) -> Result<Tensor> {
    let (x, d, n) = half_spectrum(x, n, dim, "irfft")?;
    let full = hermitian(&x, d, n)?;
    let out = ifft(&full, Some(n as i64), d as i64, norm)?;
    crate::tensor::ops::complex::real(&out)?.contiguous()
}

/// hfft: the real transform of a Hermitian signal given by its first half.
pub fn hfft(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm) -> Result<Tensor> {
    let (x, d, n) = half_spectrum(x, n, dim, "hfft")?;
    let full = hermitian(&conj(&x)?, d, n)?;
    // The forward transform's scaling, computed as an inverse one.
    let out = ifft(&full, Some(n as i64), d as i64, Norm::Forward)?;
    let out = crate::tensor::ops::complex::real(&out)?.contiguous()?;
    scaled(&out, norm.factor(n, false))
}

/// ihfft: the first half of the inverse transform of a real signal.
pub fn ihfft(x: &Tensor, n: Option<i64>, dim: i64, norm: Norm) -> Result<Tensor> {
    let half = rfft(x, n, dim, Norm::Forward)?;
    let len = x.shape()[normalize_dim(dim, x.ndim())?];
    let n = n.map_or(len, |n| n.max(0) as usize);
    let out = conj(&half)?;
    // rfft with "forward" scaled by 1/n; ihfft's own norm decides.
    scaled(&out, norm.factor(n, true) * n as f64)
}

/// The plan's last (dim, length), which a half-spectrum transform takes, and
/// the others, which full transforms take.
type Split = (Vec<(i64, Option<i64>)>, (i64, Option<i64>));

fn split_plan(x: &Tensor, s: Option<&[i64]>, dim: Option<&[i64]>) -> Result<Option<Split>> {
    let mut steps = plan(x, s, dim)?;
    Ok(steps.pop().map(|last| (steps, last)))
}

/// Full transforms of `x` over each (dim, length) in turn.
fn over(
    mut x: Tensor,
    steps: Vec<(i64, Option<i64>)>,
    norm: Norm,
    inverse: bool,
) -> Result<Tensor> {
    for (d, n) in steps {
        x = along(&x, n, d, norm, inverse)?;
    }
    Ok(x)
}

/// rfftn: rfft over the last dim of the plan, fft over the others.
pub fn rfftn(x: &Tensor, s: Option<&[i64]>, dim: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    match split_plan(x, s, dim)? {
        None => complex_of(x),
        Some((rest, (last, n))) => over(rfft(x, n, last, norm)?, rest, norm, false),
    }
}

/// irfftn: ifft over all but the last dim of the plan, irfft over the last.
pub fn irfftn(x: &Tensor, s: Option<&[i64]>, dim: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    match split_plan(x, s, dim)? {
        None => complex_of(x),
        Some((rest, (last, n))) => irfft(&over(complex_of(x)?, rest, norm, true)?, n, last, norm),
    }
}

/// hfftn: forward transforms over all but the last dim, hfft over the last.
pub fn hfftn(x: &Tensor, s: Option<&[i64]>, dim: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    match split_plan(x, s, dim)? {
        None => complex_of(x),
        Some((rest, (last, n))) => hfft(&over(complex_of(x)?, rest, norm, false)?, n, last, norm),
    }
}

/// ihfftn: ihfft over the last dim of the plan, inverse transforms over the others.
pub fn ihfftn(x: &Tensor, s: Option<&[i64]>, dim: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    match split_plan(x, s, dim)? {
        None => complex_of(x),
        Some((rest, (last, n))) => over(ihfft(x, n, last, norm)?, rest, norm, true),
    }
}

/// fftfreq: the sample frequencies [0, 1, ..., -2, -1] / (d·n).
pub fn fftfreq(n: i64, d: f64, dtype: DType, device: crate::tensor::Device) -> Result<Tensor> {
    let n = n.max(0);
    let v: Vec<f64> = (0..n)
        .map(|i| if i < (n + 1) / 2 { i } else { i - n } as f64 / (d * n as f64))
        .collect();
    Tensor::from_vec(v, &[n as usize])
        .to_dtype(dtype)?
        .to_device(device)
}

/// rfftfreq: the non-negative frequencies [0, ..., n/2] / (d·n).
pub fn rfftfreq(n: i64, d: f64, dtype: DType, device: crate::tensor::Device) -> Result<Tensor> {
    let n = n.max(0);
    let v: Vec<f64> = (0..=n / 2).map(|i| i as f64 / (d * n as f64)).collect();
    let len = v.len();
    Tensor::from_vec(v, &[len])
        .to_dtype(dtype)?
        .to_device(device)
}

/// fftshift / ifftshift: roll each dim (default all) by half its length.
pub fn fftshift(x: &Tensor, dim: Option<&[i64]>, inverse: bool) -> Result<Tensor> {
    let dims: Vec<i64> = match dim {
        Some(d) => d.to_vec(),
        None => (0..x.ndim() as i64).collect(),
    };
    let shifts = dims
        .iter()
        .map(|&d| {
            let n = x.shape()[normalize_dim(d, x.ndim())?] as i64;
            Ok(if inverse { -(n / 2) } else { n / 2 })
        })
        .collect::<Result<Vec<i64>>>()?;
    crate::tensor::ops::select::roll(x, &shifts, &dims)
}
