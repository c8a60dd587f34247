//! Matrix products (cuBLAS for the float dtypes, kernels/matmul.cu for the
//! rest) and the im2col windows of convolution and pooling (kernels/window.cu).

use cudarc::cublas::sys::{cublasComputeType_t, cublasOperation_t, cublasStatus_t, cudaDataType};
use cudarc::cublas::{CudaBlas, result as blas};

use cudarc::driver::PushKernelArg;

use super::CudaStorage;
use super::device::{Gpu, driver_err};
use super::kernels::{Source, Strided, merged, suffix};
use crate::backend::{AvgWindows, Scalar, Window};
use crate::error::{Result, device_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;

/// One operand as cuBLAS sees it: row-major (ld = row stride) or stored
/// transposed (column-major, ld = column stride), with a batch stride.
struct Operand {
    ptr: u64,
    transposed: bool,
    ld: i32,
    batch_stride: i64,
    _keep: Option<CudaStorage>,
}

fn as_i32(x: usize) -> Result<i32> {
    i32::try_from(x).map_err(|_| device_err("a matrix dim too large for cuBLAS (over 2**31)"))
}

/// `l` ([batch..., r, c]) as a cuBLAS operand, gathered first when its
/// matrices or batches have no single stride.
fn operand(s: &CudaStorage, l: &Layout, r: usize, c: usize) -> Result<Operand> {
    let nd = l.ndim();
    let (mut rs, mut cs) = (l.strides[nd - 2], l.strides[nd - 1]);
    if c == 1 {
        cs = 1;
    }
    if r == 1 {
        rs = c.max(1);
    }
    let batch = Layout {
        shape: crate::tensor::layout::Dims::from_slice(&l.shape[..nd - 2]),
        strides: crate::tensor::layout::Dims::from_slice(&l.strides[..nd - 2]),
        offset: 0,
    };
    let bm = merged(&[&batch])?.remove(0);
    let single_batch = bm.ndim <= 1;
    let layout = if cs == 1 && rs >= c.max(1) {
        Some((false, rs))
    } else if rs == 1 && cs >= r.max(1) {
        Some((true, cs))
    } else {
        None
    };
    match layout {
        Some((transposed, ld)) if single_batch => Ok(Operand {
            ptr: s.ptr() + (l.offset * s.dtype.size()) as u64,
            transposed,
            ld: as_i32(ld)?,
            batch_stride: if bm.ndim == 1 { bm.stride[0] } else { 0 },
            _keep: None,
        }),
        _ => {
            let g = s.gather(l)?;
            Ok(Operand {
                ptr: g.ptr(),
                transposed: false,
                ld: as_i32(c.max(1))?,
                batch_stride: (r * c) as i64,
                _keep: Some(g),
            })
        }
    }
}

pub fn matmul(a: &CudaStorage, la: &Layout, b: &CudaStorage, lb: &Layout) -> Result<CudaStorage> {
    let nd = la.ndim();
    let (m, k, n) = (la.shape[nd - 2], la.shape[nd - 1], lb.shape[nd - 1]);
    let batch: usize = la.shape[..nd - 2].iter().product();
    let gpu = a.gpu().clone();
    let out = CudaStorage::empty(&gpu, batch * m * n, a.dtype)?;
    if batch * m * n == 0 {
        return Ok(out);
    }
    if k == 0 {
        let zero = CudaStorage::full(gpu.index, batch * m * n, a.dtype, Scalar::int(0))?;
        return Ok(zero);
    }
    match a.dtype {
        DType::F32 | DType::F64 | DType::F16 | DType::BF16 => {
            let oa = operand(a, la, m, k)?;
            let ob = operand(b, lb, k, n)?;
            gemm(&gpu, a.dtype, &oa, &ob, out.ptr(), [m, n, k], batch)?;
        }
        _ => integer_matmul(&gpu, a, la, b, lb, &out, [m, n, k], batch)?,
    }
    Ok(out)
}

/// Row-major C = A @ B is column-major C^T = B^T A^T: cuBLAS gets B first.
fn gemm(
    gpu: &Gpu,
    dtype: DType,
    a: &Operand,
    b: &Operand,
    c: u64,
    mnk: [usize; 3],
    batch: usize,
) -> Result<()> {
    let [m, n, k] = mnk;
    let (m, n, k) = (as_i32(m)?, as_i32(n)?, as_i32(k)?);
    let op = |t: bool| {
        if t {
            cublasOperation_t::CUBLAS_OP_T
        } else {
            cublasOperation_t::CUBLAS_OP_N
        }
    };
    let mut guard = gpu.blas.lock().unwrap_or_else(|p| p.into_inner());
    if guard.is_none() {
        *guard =
            Some(CudaBlas::new(gpu.stream.clone()).map_err(|e| driver_err("starting cuBLAS", e))?);
    }
    let h = *guard
        .as_ref()
        .map(|b| b.handle())
        .ok_or_else(|| device_err("cuBLAS did not start"))?;
    let (ta, tb) = (op(b.transposed), op(a.transposed));
    let stride_c = (m as i64) * (n as i64);
    let batches = as_i32(batch)?;
    let err = |e| driver_err("a cuBLAS matrix product", e);
    // SAFETY: the pointers address live buffers of the sizes these dims and
    // strides describe (checked by the tensor layer's shapes).
    unsafe {
        match dtype {
            // One gemm, or one strided-batched call: the same arguments for
            // f32 and f64 but the element type and the functions.
            DType::F32 | DType::F64 => {
                macro_rules! gemm_of {
                    ($t:ty, $single:ident, $batched:ident) => {{
                        let (one, zero): ($t, $t) = (1.0, 0.0);
                        if batch == 1 {
                            blas::$single(
                                h, ta, tb, n, m, k, &one, b.ptr as _, b.ld, a.ptr as _, a.ld,
                                &zero, c as _, n,
                            )
                        } else {
                            let r = blas::$batched(
                                h,
                                ta,
                                tb,
                                n,
                                m,
                                k,
                                &one,
                                b.ptr as _,
                                b.ld,
                                b.batch_stride,
                                a.ptr as _,
                                a.ld,
                                a.batch_stride,
                                &zero,
                                c as _,
                                n,
                                stride_c,
                                batches,
                            );
                            match r {
                                // A cuBLAS (or an emulation) without the batched
                                // call: one gemm per matrix.
                                Err(e) if e.0 == cublasStatus_t::CUBLAS_STATUS_NOT_SUPPORTED => {
                                    let at = |p: u64, i: usize, s: i64| {
                                        p + (i as u64) * (s as u64) * size_of::<$t>() as u64
                                    };
                                    (0..batch).try_for_each(|i| {
                                        blas::$single(
                                            h,
                                            ta,
                                            tb,
                                            n,
                                            m,
                                            k,
                                            &one,
                                            at(b.ptr, i, b.batch_stride) as _,
                                            b.ld,
                                            at(a.ptr, i, a.batch_stride) as _,
                                            a.ld,
                                            &zero,
                                            at(c, i, stride_c) as _,
                                            n,
                                        )
                                    })
                                }
                                r => r,
                            }
                        }
                    }};
                }
                if dtype == DType::F32 {
                    gemm_of!(f32, sgemm, sgemm_strided_batched)
                } else {
                    gemm_of!(f64, dgemm, dgemm_strided_batched)
                }
                .map_err(err)
            }
            _ => {
                // Half precision in, float accumulation (as PyTorch), one gemm per batch.
                let t = if dtype == DType::F16 {
                    cudaDataType::CUDA_R_16F
                } else {
                    cudaDataType::CUDA_R_16BF
                };
                let (one, zero) = (1f32, 0f32);
                let size = dtype.size() as u64;
                for i in 0..batch as u64 {
                    blas::gemm_ex(
                        h,
                        ta,
                        tb,
                        n,
                        m,
                        k,
                        &one as *const f32 as _,
                        (b.ptr + i * b.batch_stride as u64 * size) as _,
                        t,
                        b.ld,
                        (a.ptr + i * a.batch_stride as u64 * size) as _,
                        t,
                        a.ld,
                        &zero as *const f32 as _,
                        (c + i * stride_c as u64 * size) as _,
                        t,
                        n,
                        cublasComputeType_t::CUBLAS_COMPUTE_32F,
                        cudarc::cublas::sys::cublasGemmAlgo_t::CUBLAS_GEMM_DFALT,
                    )
                    .map_err(err)?;
                }
                Ok(())
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn integer_matmul(
    gpu: &Gpu,
    a: &CudaStorage,
    la: &Layout,
    b: &CudaStorage,
    lb: &Layout,
    out: &CudaStorage,
    mnk: [usize; 3],
    batch: usize,
) -> Result<()> {
    let [m, n, k] = mnk;
    let nd = la.ndim();
    let batch_of = |l: &Layout| Layout {
        shape: crate::tensor::layout::Dims::from_slice(&l.shape[..nd - 2]),
        strides: crate::tensor::layout::Dims::from_slice(&l.strides[..nd - 2]),
        offset: l.offset,
    };
    let (ab, bb) = (
        merged(&[&batch_of(la)])?.remove(0),
        merged(&[&batch_of(lb)])?.remove(0),
    );
    let name = format!("matmul_{}", suffix(a.dtype));
    let total = batch * m * n;
    let (t64, m64, n64, k64) = (total as i64, m as i64, n as i64, k as i64);
    let (ars, acs, brs, bcs) = (
        la.strides[nd - 2] as i64,
        la.strides[nd - 1] as i64,
        lb.strides[nd - 2] as i64,
        lb.strides[nd - 1] as i64,
    );
    let (ap, bp, op) = (a.ptr(), b.ptr(), out.ptr());
    launch!(gpu, Source::Matmul, &name, total;
        t64, m64, n64, k64, ab, ars, acs, ap, bb, brs, bcs, bp, op)
}

/// struct Win in kernels/window.cu.
#[repr(C)]
#[derive(Clone, Copy)]
struct Win {
    kernel: [i64; 2],
    stride: [i64; 2],
    pad: [i64; 2],
    dilation: [i64; 2],
    out: [i64; 2],
}

// SAFETY: plain integers, laid out as the C struct.
unsafe impl cudarc::driver::DeviceRepr for Win {}

fn win(w: &Window) -> Win {
    let two = |a: [usize; 2]| [a[0] as i64, a[1] as i64];
    Win {
        kernel: two(w.kernel),
        stride: two(w.stride),
        pad: two(w.pad_before),
        dilation: two(w.dilation),
        out: two(w.out),
    }
}

pub fn unfold(s: &CudaStorage, l: &Layout, w: &Window, pad: f64) -> Result<CudaStorage> {
    let (nb, c, h, wd) = (l.shape[0], l.shape[1], l.shape[2], l.shape[3]);
    let total = nb * c * w.kernel[0] * w.kernel[1] * w.out[0] * w.out[1];
    let out = CudaStorage::empty(s.gpu(), total, s.dtype)?;
    if total == 0 {
        return Ok(out);
    }
    let (t, c64, h64, w64, wn, il) = (
        total as i64,
        c as i64,
        h as i64,
        wd as i64,
        win(w),
        Strided::exact(l)?,
    );
    let (ip, op) = (s.ptr(), out.ptr());
    let name = format!("unfold_{}", suffix(s.dtype));
    launch!(s.gpu(), Source::Window, &name, total; t, c64, h64, w64, wn, il, ip, pad, op)?;
    Ok(out)
}

pub fn fold(
    s: &CudaStorage,
    l: &Layout,
    w: &Window,
    channels: usize,
    hw: [usize; 2],
) -> Result<CudaStorage> {
    let total = l.shape[0] * channels * hw[0] * hw[1];
    let out = CudaStorage::empty(s.gpu(), total, s.dtype)?;
    if total == 0 {
        return Ok(out);
    }
    let (t, c64, h64, w64, wn, cl) = (
        total as i64,
        channels as i64,
        hw[0] as i64,
        hw[1] as i64,
        win(w),
        Strided::exact(l)?,
    );
    let (cp, op) = (s.ptr(), out.ptr());
    let name = format!("fold_{}", suffix(s.dtype));
    launch!(s.gpu(), Source::Window, &name, total; t, c64, h64, w64, wn, cl, cp, op)?;
    Ok(out)
}

pub fn max_pool(s: &CudaStorage, l: &Layout, w: &Window) -> Result<(CudaStorage, CudaStorage)> {
    let (nb, c, h, wd) = (l.shape[0], l.shape[1], l.shape[2], l.shape[3]);
    let total = nb * c * w.out[0] * w.out[1];
    let out = CudaStorage::empty(s.gpu(), total, s.dtype)?;
    let idx = CudaStorage::empty(s.gpu(), total, DType::I64)?;
    if total == 0 {
        return Ok((out, idx));
    }
    let (t, c64, h64, w64, wn, il) = (
        total as i64,
        c as i64,
        h as i64,
        wd as i64,
        win(w),
        Strided::exact(l)?,
    );
    let (ip, op, xp) = (s.ptr(), out.ptr(), idx.ptr());
    let name = format!("max_pool_{}", suffix(s.dtype));
    launch!(s.gpu(), Source::Window, &name, total; t, c64, h64, w64, wn, il, ip, op, xp)?;
    Ok((out, idx))
}

/// struct AvgSpec in kernels/window.cu.
#[repr(C)]
#[derive(Clone, Copy)]
struct AvgSpec {
    adaptive: i64,
    w: Win,
    pad_after: [i64; 2],
    include_pad: i64,
    divisor: i64,
}

// SAFETY: plain integers, laid out as the C struct.
unsafe impl cudarc::driver::DeviceRepr for AvgSpec {}

pub fn avg_pool(s: &CudaStorage, l: &Layout, a: &AvgWindows) -> Result<CudaStorage> {
    float_only(s, "average pooling")?;
    let (nb, c, h, wd) = (l.shape[0], l.shape[1], l.shape[2], l.shape[3]);
    let [oh, ow] = a.out();
    let total = nb * c * oh * ow;
    let out = CudaStorage::empty(s.gpu(), total, s.dtype)?;
    if total == 0 {
        return Ok(out);
    }
    let (t, c64, h64, w64, spec, il) = (
        total as i64,
        c as i64,
        h as i64,
        wd as i64,
        avg_spec(a),
        Strided::exact(l)?,
    );
    let (ip, op) = (s.ptr(), out.ptr());
    let name = format!("avg_pool_{}", suffix(s.dtype));
    launch!(s.gpu(), Source::Window, &name, total; t, c64, h64, w64, spec, il, ip, op)?;
    Ok(out)
}

/// avg_pool's gradient as a gather, in output order.
pub fn avg_pool_backward(
    g: &CudaStorage,
    gl: &Layout,
    a: &AvgWindows,
    hw: [usize; 2],
) -> Result<CudaStorage> {
    float_only(g, "average pooling's gradient")?;
    let c = gl.shape[1];
    let total = gl.shape[0] * c * hw[0] * hw[1];
    let out = CudaStorage::empty(g.gpu(), total, g.dtype)?;
    if total == 0 {
        return Ok(out);
    }
    let (t, c64, h64, w64, spec, glx) = (
        total as i64,
        c as i64,
        hw[0] as i64,
        hw[1] as i64,
        avg_spec(a),
        Strided::exact(gl)?,
    );
    let (gp, op) = (g.ptr(), out.ptr());
    let name = format!("avg_pool_backward_{}", suffix(g.dtype));
    launch!(g.gpu(), Source::Window, &name, total; t, c64, h64, w64, spec, glx, gp, op)?;
    Ok(out)
}

fn float_only(s: &CudaStorage, what: &str) -> Result<()> {
    if s.dtype.is_float() && !s.dtype.is_complex() {
        return Ok(());
    }
    Err(crate::error::dtype_err(format!(
        "{what} is for floating-point tensors, not {}",
        s.dtype
    )))
}

fn avg_spec(a: &AvgWindows) -> AvgSpec {
    match a {
        AvgWindows::Fixed {
            win: w,
            include_pad,
            divisor,
        } => AvgSpec {
            adaptive: 0,
            w: win(w),
            pad_after: [0, 1].map(|d| (w.pad_total[d] - w.pad_before[d]) as i64),
            include_pad: *include_pad as i64,
            divisor: divisor.unwrap_or(0),
        },
        AvgWindows::Adaptive { out } => AvgSpec {
            adaptive: 1,
            w: Win {
                kernel: [1, 1],
                stride: [1, 1],
                pad: [0, 0],
                dilation: [1, 1],
                out: [out[0] as i64, out[1] as i64],
            },
            pad_after: [0, 0],
            include_pad: 0,
            divisor: 0,
        },
    }
}

/// max_pool's gradient as a gather: each input element looks only at the
/// windows that can reach it, which the window's geometry bounds.
pub fn max_pool_backward(
    g: &CudaStorage,
    gl: &Layout,
    idx: &CudaStorage,
    il: &Layout,
    w: &Window,
    hw: [usize; 2],
) -> Result<CudaStorage> {
    if idx.dtype != DType::I64 {
        return Err(crate::error::dtype_err("pooling indices must be int64"));
    }
    let c = gl.shape[1];
    let total = gl.shape[0] * c * hw[0] * hw[1];
    let out = CudaStorage::empty(g.gpu(), total, g.dtype)?;
    if total == 0 {
        return Ok(out);
    }
    let (t, c64, h64, w64, wn, glx, ilx) = (
        total as i64,
        c as i64,
        hw[0] as i64,
        hw[1] as i64,
        win(w),
        Strided::exact(gl)?,
        Strided::exact(il)?,
    );
    let (gp, xp, op) = (g.ptr(), idx.ptr(), out.ptr());
    let name = format!("max_pool_backward_{}", suffix(g.dtype));
    launch!(g.gpu(), Source::Window, &name, total; t, c64, h64, w64, wn, glx, gp, ilx, xp, op)?;
    Ok(out)
}
