//! Layer and batch normalisation on the device (kernels/norm.cu).

use cudarc::driver::PushKernelArg;

use super::CudaStorage;
use super::kernels::{Source, Strided, suffix};
use crate::backend::BackendStorage;
use crate::error::{Result, dtype_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;

type Param<'a> = Option<(&'a CudaStorage, &'a Layout)>;

/// An optional affine parameter as the kernels take it: present or not, its
/// layout, and an address (x's where it is absent: never read then).
fn param(p: Param, x: &CudaStorage) -> Result<(i32, Strided, u64)> {
    match p {
        Some((s, l)) if s.dtype == x.dtype => Ok((1, Strided::exact(l)?, s.ptr())),
        Some(_) => Err(dtype_err("layer_norm: mixed dtypes")),
        None => Ok((0, Strided::exact(&Layout::contiguous(&[0]))?, x.ptr())),
    }
}

/// Float64 statistics of `rows` empty rows: 0/0, as on the CPU.
fn nan_stats(x: &CudaStorage, rows: usize) -> Result<CudaStorage> {
    CudaStorage::full(
        x.gpu().index,
        rows,
        DType::F64,
        crate::backend::Scalar::float(f64::NAN),
    )
}

pub fn layer_norm(
    x: &CudaStorage,
    l: &Layout,
    w: Param,
    b: Param,
    eps: f64,
) -> Result<(CudaStorage, CudaStorage, CudaStorage)> {
    let (rows, n) = (l.shape[0], l.shape[1]);
    let gpu = x.gpu();
    let y = CudaStorage::empty(gpu, rows * n, x.dtype)?;
    if rows * n == 0 {
        let stat_rows = if n == 0 { rows } else { 0 };
        return Ok((y, nan_stats(x, stat_rows)?, nan_stats(x, stat_rows)?));
    }
    let (mean, rstd) = (
        CudaStorage::empty(gpu, rows, DType::F64)?,
        CudaStorage::empty(gpu, rows, DType::F64)?,
    );
    let ((hw, wl, wp), (hb, bl, bp)) = (param(w, x)?, param(b, x)?);
    let (r64, n64, xl, xp) = (rows as i64, n as i64, Strided::exact(l)?, x.ptr());
    let (yp, mp, rp) = (y.ptr(), mean.ptr(), rstd.ptr());
    let name = format!("layer_norm_{}", suffix(x.dtype));
    launch!(gpu, Source::Norm, &name, rows;
        r64, n64, eps, xl, xp, hw, wl, wp, hb, bl, bp, yp, mp, rp)?;
    Ok((y, mean, rstd))
}

pub fn layer_norm_backward(
    g: &CudaStorage,
    gl: &Layout,
    (x, xl): (&CudaStorage, &Layout),
    (mean, rstd): (&CudaStorage, &CudaStorage),
    w: Param,
) -> Result<(CudaStorage, CudaStorage, CudaStorage)> {
    if x.dtype != g.dtype || mean.dtype != DType::F64 || rstd.dtype != DType::F64 {
        return Err(dtype_err("layer_norm: mixed dtypes"));
    }
    let (rows, n) = (gl.shape[0], gl.shape[1]);
    let gpu = g.gpu();
    let dx = CudaStorage::empty(gpu, rows * n, g.dtype)?;
    let (dw, db) = (
        CudaStorage::empty(gpu, n, g.dtype)?,
        CudaStorage::empty(gpu, n, g.dtype)?,
    );
    if rows * n == 0 {
        let zeros = || CudaStorage::full(gpu.index, n, g.dtype, crate::backend::Scalar::float(0.0));
        return Ok((dx, zeros()?, zeros()?));
    }
    let (hw, wl, wp) = param(w, x)?;
    let (r64, n64) = (rows as i64, n as i64);
    let (gs, xs) = (Strided::exact(gl)?, Strided::exact(xl)?);
    let (gp, xp, mp, rp) = (g.ptr(), x.ptr(), mean.ptr(), rstd.ptr());
    let (dxp, dwp, dbp) = (dx.ptr(), dw.ptr(), db.ptr());
    let sfx = suffix(g.dtype);
    launch!(gpu, Source::Norm, &format!("layer_norm_grad_{sfx}"), rows;
        r64, n64, gs, gp, xs, xp, mp, rp, hw, wl, wp, dxp)?;
    launch!(gpu, Source::Norm, &format!("layer_norm_params_grad_{sfx}"), n;
        r64, n64, gs, gp, xs, xp, mp, rp, dwp, dbp)?;
    Ok((dx, dw, db))
}

/// A float64 per-channel operand, or the error for another dtype.
fn f64s(s: &CudaStorage) -> Result<&CudaStorage> {
    match s.dtype {
        DType::F64 => Ok(s),
        _ => Err(dtype_err("batch_norm: per-channel values must be float64")),
    }
}

/// An optional float64 per-channel operand: present or not, and an address
/// (`other`'s where it is absent: never read then).
fn optional(p: Option<&CudaStorage>, other: &CudaStorage) -> Result<(i32, u64)> {
    match p {
        Some(s) => Ok((1, f64s(s)?.ptr())),
        None => Ok((0, other.ptr())),
    }
}

pub fn batch_norm(
    x: &CudaStorage,
    l: &Layout,
    stats: Option<(&CudaStorage, &CudaStorage)>,
    w: Option<&CudaStorage>,
    b: Option<&CudaStorage>,
    eps: f64,
) -> Result<(CudaStorage, CudaStorage, CudaStorage)> {
    let (nb, c, s) = (l.shape[0], l.shape[1], l.shape[2]);
    let gpu = x.gpu();
    let (n64, c64, s64, xl, xp) = (nb as i64, c as i64, s as i64, Strided::exact(l)?, x.ptr());
    let (mean, var) = match stats {
        Some((m, v)) => {
            let per = Layout::contiguous(&[c]);
            (
                f64s(m)?.cast(&per, DType::F64)?,
                f64s(v)?.cast(&per, DType::F64)?,
            )
        }
        None => {
            let (m, v) = (
                CudaStorage::empty(gpu, c, DType::F64)?,
                CudaStorage::empty(gpu, c, DType::F64)?,
            );
            let (mp, vp) = (m.ptr(), v.ptr());
            let name = format!("bn_stats_{}", suffix(x.dtype));
            launch!(gpu, Source::Norm, &name, c; n64, c64, s64, xl, xp, mp, vp)?;
            (m, v)
        }
    };
    let y = CudaStorage::empty(gpu, nb * c * s, x.dtype)?;
    let ((hw, wp), (hb, bp)) = (optional(w, &mean)?, optional(b, &mean)?);
    let (mp, vp, yp, tr) = (mean.ptr(), var.ptr(), y.ptr(), stats.is_none() as i32);
    let name = format!("bn_apply_{}", suffix(x.dtype));
    launch!(gpu, Source::Norm, &name, nb * c * s;
        n64, c64, s64, eps, tr, xl, xp, mp, vp, hw, wp, hb, bp, yp)?;
    Ok((y, mean, var))
}

pub fn batch_norm_backward(
    g: &CudaStorage,
    gl: &Layout,
    (x, xl): (&CudaStorage, &Layout),
    (mean, var): (&CudaStorage, &CudaStorage),
    w: Option<&CudaStorage>,
    (eps, training): (f64, bool),
) -> Result<(CudaStorage, CudaStorage, CudaStorage)> {
    if x.dtype != g.dtype {
        return Err(dtype_err("batch_norm: mixed dtypes"));
    }
    let (mean, var) = (f64s(mean)?, f64s(var)?);
    let (nb, c, s) = (gl.shape[0], gl.shape[1], gl.shape[2]);
    let gpu = g.gpu();
    let (n64, c64, s64, tr) = (nb as i64, c as i64, s as i64, training as i32);
    let (gs, xs, gp, xp) = (Strided::exact(gl)?, Strided::exact(xl)?, g.ptr(), x.ptr());
    let per = || CudaStorage::empty(gpu, c, DType::F64);
    let (sum_g, dot, dw) = (per()?, per()?, per()?);
    let (mp, vp, sp, dp, wgp) = (mean.ptr(), var.ptr(), sum_g.ptr(), dot.ptr(), dw.ptr());
    let sfx = suffix(g.dtype);
    launch!(gpu, Source::Norm, &format!("bn_grad_sums_{sfx}"), c;
        n64, c64, s64, eps, tr, gs, gp, xs, xp, mp, vp, sp, dp, wgp)?;
    let dx = CudaStorage::empty(gpu, nb * c * s, g.dtype)?;
    let ((hw, wp), dxp) = (optional(w, mean)?, dx.ptr());
    launch!(gpu, Source::Norm, &format!("bn_grad_{sfx}"), nb * c * s;
        n64, c64, s64, eps, tr, gs, gp, xs, xp, mp, vp, hw, wp, sp, dp, dxp)?;
    Ok((dx, sum_g, dw))
}
