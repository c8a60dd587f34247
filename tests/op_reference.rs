//! Every op row against a float64 reference, on every device that is present:
//! unary and binary ops over every dtype, reductions, scans, softmax and
//! matmul, on contiguous, transposed, sliced, broadcast, empty and 0-d inputs.
//! The reference applies the row's own f64/i64 scalar function element by
//! element on the host, so it checks the kernels, the strided and broadcast
//! walks, the compute-type conversions and the casts. A device that is missing
//! is reported as skipped, with the reason.

mod common;

use tsh::tensor::dtype::ALL_DTYPES;
use tsh::tensor::op::{
    BINARY_ROWS, BinaryFn, BinaryOp, BinaryVisitor, ReduceOp, ScanOp, UNARY_ROWS, UnaryFn, UnaryOp,
    UnaryVisitor,
};
use tsh::tensor::ops::{elementwise, matmul, reduce, view};
use tsh::tensor::{DType, Device, Tensor};

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() as f64 / (1u64 << 31) as f64)
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// Random values for a tensor of `dtype` (integers avoid 0 when `nonzero`).
fn values(rng: &mut Lcg, n: usize, dtype: DType, nonzero: bool) -> Vec<f64> {
    (0..n)
        .map(|_| match dtype {
            DType::Bool => (rng.next() % 2) as f64,
            DType::U8 if nonzero => rng.int(1, 9) as f64,
            DType::U8 => rng.int(0, 9) as f64,
            d if d.is_float() => rng.uniform(-2.0, 2.0),
            _ if nonzero => {
                let v = rng.int(1, 5);
                (if rng.next().is_multiple_of(2) { v } else { -v }) as f64
            }
            _ => rng.int(-5, 5) as f64,
        })
        .collect()
}

fn make(v: Vec<f64>, shape: &[usize], dtype: DType, device: Device) -> Tensor {
    Tensor::from_vec(v, shape)
        .to_dtype(dtype)
        .and_then(|t| t.to_device(device))
        .expect("input")
}

/// The same 3x5 values in the layouts each op is tried on.
fn layouts(
    rng: &mut Lcg,
    dtype: DType,
    device: Device,
    nonzero: bool,
) -> Vec<(&'static str, Tensor)> {
    let mut out = vec![];
    out.push((
        "contiguous",
        make(values(rng, 15, dtype, nonzero), &[3, 5], dtype, device),
    ));
    let t = make(values(rng, 15, dtype, nonzero), &[5, 3], dtype, device);
    out.push(("transposed", view::transpose(&t, 0, 1).expect("view")));
    let wide = make(values(rng, 30, dtype, nonzero), &[3, 10], dtype, device);
    out.push((
        "sliced",
        view::slice_dim(&wide, 1, None, None, 2).expect("view"),
    ));
    let row = make(values(rng, 5, dtype, nonzero), &[1, 5], dtype, device);
    out.push(("broadcast", view::expand(&row, &[3, 5]).expect("view")));
    out.push(("empty", make(vec![], &[0, 5], dtype, device)));
    out.push((
        "0-d",
        make(values(rng, 1, dtype, nonzero), &[], dtype, device),
    ));
    out
}

fn host(t: &Tensor) -> Vec<f64> {
    t.to_host_f64().expect("host")
}

/// An integer result as the dtype's fixed width stores it.
fn wrap(v: i64, d: DType) -> f64 {
    (match d {
        DType::U8 => v as u8 as i64,
        DType::I8 => v as i8 as i64,
        DType::I16 => v as i16 as i64,
        DType::I32 => v as i32 as i64,
        DType::Bool => (v != 0) as i64,
        _ => v,
    }) as f64
}

/// A float result as the dtype stores it.
fn round(v: f64, d: DType) -> f64 {
    match d {
        DType::F32 => v as f32 as f64,
        DType::F16 => half::f16::from_f64(v).to_f64(),
        DType::BF16 => half::bf16::from_f64(v).to_f64(),
        _ => v,
    }
}

fn close(got: f64, want: f64, d: DType) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if !d.is_float() || got == want {
        return got == want;
    }
    let tol = match d {
        DType::F64 => 1e-12,
        DType::F32 => 1e-5,
        _ => 2e-2,
    };
    (got - want).abs() <= tol * want.abs().max(1.0)
}

struct Failures(Vec<String>);

impl Failures {
    fn compare(&mut self, what: &str, got: &[f64], want: &[f64], d: DType) {
        if got.len() != want.len() {
            self.0
                .push(format!("{what}: {} values, want {}", got.len(), want.len()));
            return;
        }
        if let Some(i) = (0..got.len()).find(|&i| !close(got[i], want[i], d)) {
            self.0.push(format!(
                "{what}: element {i} is {}, want {}",
                got[i], want[i]
            ));
        }
    }
}

struct UnaryRef;
impl UnaryVisitor for UnaryRef {
    type Out = (fn(f64) -> f64, fn(i64) -> i64);
    fn visit<F: UnaryFn>(self) -> Self::Out {
        (F::f64, F::i64)
    }
}

struct BinaryRef;
impl BinaryVisitor for BinaryRef {
    type Out = (
        fn(f64, f64) -> f64,
        fn(i64, i64) -> i64,
        fn(f64, f64) -> bool,
        fn(i64, i64) -> bool,
    );
    fn visit<F: BinaryFn>(self) -> Self::Out {
        (F::f64, F::i64, F::cmp_f64, F::cmp_i64)
    }
}

fn check_unary(device: Device, f: &mut Failures) {
    let mut rng = Lcg(7);
    for row in UNARY_ROWS {
        let (ff, fi) = row.op.visit(UnaryRef);
        for &d in ALL_DTYPES.iter() {
            for (layout, x) in layouts(&mut rng, d, device, false) {
                let what = format!("{}({d}, {layout}) on {device}", row.name);
                let out = match elementwise::unary(row.op, &x) {
                    Ok(o) => o,
                    Err(_) => continue, // Refusals are checked against PyTorch in dtype_rules.rs.
                };
                let od = out.dtype();
                let want: Vec<f64> = if od.is_float() {
                    host(&x)
                        .iter()
                        .map(|&v| round(ff(round(v, od)), od))
                        .collect()
                } else if d == DType::Bool && row.op == UnaryOp::BitwiseNot {
                    host(&x).iter().map(|&v| (v == 0.0) as i64 as f64).collect()
                } else {
                    x.to_host_i64()
                        .expect("host")
                        .iter()
                        .map(|&v| wrap(fi(v), od))
                        .collect()
                };
                f.compare(&what, &host(&out), &want, od);
            }
        }
    }
}

fn check_binary(device: Device, f: &mut Failures) {
    let mut rng = Lcg(11);
    let pairs = [
        (DType::F32, DType::F32),
        (DType::F64, DType::F32),
        (DType::F16, DType::F16),
        (DType::BF16, DType::F32),
        (DType::I64, DType::I64),
        (DType::I32, DType::I64),
        (DType::U8, DType::I8),
        (DType::I16, DType::I16),
        (DType::Bool, DType::Bool),
        (DType::I64, DType::F32),
    ];
    for row in BINARY_ROWS {
        let (ff, fi, cf, ci) = row.op.visit(BinaryRef);
        for (da, db) in pairs {
            let a = make(values(&mut rng, 3, da, true), &[3, 1], da, device);
            let bt = make(values(&mut rng, 10, db, true), &[5, 2], db, device);
            // A column against a transposed, strided row: broadcast and strides at once.
            let b = view::slice_dim(
                &view::transpose(&bt, 0, 1).expect("view"),
                0,
                Some(0),
                Some(1),
                1,
            )
            .expect("view");
            for (x, y, how) in [(&a, &b, "column op row"), (&b, &a, "row op column")] {
                let what = format!("{:?}({da}, {db}, {how}) on {device}", row.op);
                let Ok(cd) = elementwise::compute_dtype(row.op, x, y) else {
                    continue; // Refusals are checked in dtype_rules.rs.
                };
                let out = match elementwise::binary(row.op, x, y) {
                    Ok(o) => o,
                    // Integers to negative powers are refused, as in PyTorch.
                    Err(_) if row.op == BinaryOp::Pow && !cd.is_float() => continue,
                    Err(e) => {
                        f.0.push(format!("{what}: {}", e.message));
                        continue;
                    }
                };
                let xs = host(&view::expand(x, &[3, 5]).expect("view"));
                let ys = host(&view::expand(y, &[3, 5]).expect("view"));
                let want: Vec<f64> = xs
                    .iter()
                    .zip(&ys)
                    .map(|(&p, &q)| {
                        if cd.is_float() {
                            let (p, q) = (round(p, cd), round(q, cd));
                            if row.compare {
                                cf(p, q) as i64 as f64
                            } else {
                                round(ff(p, q), cd)
                            }
                        } else if row.compare {
                            ci(p as i64, q as i64) as i64 as f64
                        } else {
                            wrap(fi(p as i64, q as i64), cd)
                        }
                    })
                    .collect();
                f.compare(&what, &host(&out), &want, out.dtype());
            }
        }
    }
}

/// The reference reduction of one group of values.
fn reduce_ref(op: ReduceOp, g: &[f64]) -> f64 {
    let n = g.len() as f64;
    let sum: f64 = g.iter().sum();
    match op {
        ReduceOp::Sum | ReduceOp::SumInOrder => sum,
        ReduceOp::Mean => sum / n,
        ReduceOp::Prod => g.iter().product(),
        ReduceOp::Max => g.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ReduceOp::Min => g.iter().copied().fold(f64::INFINITY, f64::min),
        ReduceOp::Var(c) | ReduceOp::Std(c) => {
            let m = sum / n;
            let var = g.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - c);
            if matches!(op, ReduceOp::Std(_)) {
                var.sqrt()
            } else {
                var
            }
        }
        ReduceOp::Norm(p) if p == f64::INFINITY => g.iter().fold(0.0, |a, x| a.max(x.abs())),
        ReduceOp::Norm(p) => g.iter().map(|x| x.abs().powf(p)).sum::<f64>().powf(1.0 / p),
        ReduceOp::LogSumExp => g.iter().map(|x| x.exp()).sum::<f64>().ln(),
        ReduceOp::All => g.iter().all(|&x| x != 0.0) as i64 as f64,
        ReduceOp::Any => g.iter().any(|&x| x != 0.0) as i64 as f64,
        ReduceOp::CountNonzero => g.iter().filter(|&&x| x != 0.0).count() as f64,
        ReduceOp::ArgMax => (0..g.len()).fold(0, |b, i| if g[i] > g[b] { i } else { b }) as f64,
        ReduceOp::ArgMin => (0..g.len()).fold(0, |b, i| if g[i] < g[b] { i } else { b }) as f64,
    }
}

fn check_reductions(device: Device, f: &mut Failures) {
    let mut rng = Lcg(13);
    let ops = [
        ReduceOp::Sum,
        ReduceOp::SumInOrder,
        ReduceOp::Mean,
        ReduceOp::Prod,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::Var(1.0),
        ReduceOp::Std(0.0),
        ReduceOp::Norm(1.0),
        ReduceOp::Norm(2.0),
        ReduceOp::Norm(3.0),
        ReduceOp::Norm(f64::INFINITY),
        ReduceOp::LogSumExp,
        ReduceOp::All,
        ReduceOp::Any,
        ReduceOp::CountNonzero,
        ReduceOp::ArgMax,
        ReduceOp::ArgMin,
    ];
    for d in [DType::F32, DType::F64, DType::I64, DType::I32, DType::BF16] {
        for (layout, x) in layouts(&mut rng, d, device, false) {
            if x.ndim() != 2 || x.numel() == 0 {
                continue;
            }
            let v = host(&x);
            for op in ops {
                for dim in [0usize, 1] {
                    let what = format!("{op:?} over dim {dim} ({d}, {layout}) on {device}");
                    let Ok(out) = reduce::reduce(&x, op, Some(&[dim as i64]), false) else {
                        continue; // Refused (mean of ints): dtype_rules.rs checks that.
                    };
                    let (rows, cols) = (x.shape()[0], x.shape()[1]);
                    let groups: Vec<Vec<f64>> = if dim == 0 {
                        (0..cols)
                            .map(|c| (0..rows).map(|r| v[r * cols + c]).collect())
                            .collect()
                    } else {
                        (0..rows)
                            .map(|r| v[r * cols..(r + 1) * cols].to_vec())
                            .collect()
                    };
                    let want: Vec<f64> = groups
                        .iter()
                        .map(|g| {
                            let r = reduce_ref(op, g);
                            if out.dtype().is_float() {
                                round(r, out.dtype())
                            } else {
                                r
                            }
                        })
                        .collect();
                    f.compare(&what, &host(&out), &want, out.dtype());
                }
                let what = format!("{op:?} over all ({d}, {layout}) on {device}");
                if let Ok(out) = reduce::reduce(&x, op, None, false) {
                    let r = reduce_ref(op, &v);
                    let want = if out.dtype().is_float() {
                        round(r, out.dtype())
                    } else {
                        r
                    };
                    f.compare(&what, &host(&out), &[want], out.dtype());
                }
            }
        }
    }
}

fn check_scans_and_softmax(device: Device, f: &mut Failures) {
    let mut rng = Lcg(17);
    for d in [DType::F32, DType::F64, DType::I64] {
        for (layout, x) in layouts(&mut rng, d, device, false) {
            if x.ndim() != 2 {
                continue;
            }
            let v = host(&x);
            let (rows, cols) = (x.shape()[0], x.shape()[1]);
            for dim in [0usize, 1] {
                let line = |k: usize| -> Vec<usize> {
                    if dim == 0 {
                        (0..rows).map(|r| r * cols + k).collect()
                    } else {
                        (0..cols).map(|c| k * cols + c).collect()
                    }
                };
                let lines = if dim == 0 { cols } else { rows };
                for (op, name) in [(ScanOp::Sum, "cumsum"), (ScanOp::Prod, "cumprod")] {
                    let out = reduce::scan(&x, op, dim as i64).expect("scan");
                    let mut want = vec![0.0; v.len()];
                    for k in 0..lines {
                        let mut acc = if op == ScanOp::Sum { 0.0 } else { 1.0 };
                        for i in line(k) {
                            acc = if op == ScanOp::Sum {
                                acc + v[i]
                            } else {
                                acc * v[i]
                            };
                            want[i] = round(acc, out.dtype());
                        }
                    }
                    f.compare(
                        &format!("{name} dim {dim} ({d}, {layout}) on {device}"),
                        &host(&out),
                        &want,
                        out.dtype(),
                    );
                }
                if !d.is_float() {
                    continue;
                }
                for log in [false, true] {
                    let out = if log {
                        reduce::log_softmax(&x, dim as i64)
                    } else {
                        reduce::softmax(&x, dim as i64)
                    }
                    .expect("softmax");
                    let mut want = vec![0.0; v.len()];
                    for k in 0..lines {
                        let idx = line(k);
                        let m = idx.iter().map(|&i| v[i]).fold(f64::NEG_INFINITY, f64::max);
                        let s: f64 = idx.iter().map(|&i| (v[i] - m).exp()).sum();
                        for &i in &idx {
                            let r = if log {
                                v[i] - m - s.ln()
                            } else {
                                (v[i] - m).exp() / s
                            };
                            want[i] = round(r, d);
                        }
                    }
                    let name = if log { "log_softmax" } else { "softmax" };
                    f.compare(
                        &format!("{name} dim {dim} ({d}, {layout}) on {device}"),
                        &host(&out),
                        &want,
                        d,
                    );
                }
            }
        }
    }
}

fn check_matmul(device: Device, f: &mut Failures) {
    let mut rng = Lcg(19);
    for d in [DType::F32, DType::F64, DType::I64, DType::BF16] {
        // [2, 3, 4] @ [4, 5] (broadcast batch), the left operand transposed in memory.
        let a = make(values(&mut rng, 24, d, false), &[2, 4, 3], d, device);
        let a = view::transpose(&a, 1, 2).expect("view");
        let b = make(values(&mut rng, 20, d, false), &[4, 5], d, device);
        let out = matmul::matmul(&a, &b).expect("matmul");
        let (av, bv) = (host(&a), host(&b));
        let mut want = vec![0.0; 2 * 3 * 5];
        for bi in 0..2 {
            for i in 0..3 {
                for j in 0..5 {
                    let s: f64 = (0..4)
                        .map(|k| av[bi * 12 + i * 4 + k] * bv[k * 5 + j])
                        .sum();
                    want[bi * 15 + i * 5 + j] = round(s, d);
                }
            }
        }
        f.compare(&format!("matmul ({d}) on {device}"), &host(&out), &want, d);
    }
}

#[test]
fn every_op_matches_the_float64_reference_on_every_device() {
    let mut failures = Failures(vec![]);
    let mut ran = 0;
    for device in common::devices("op reference") {
        check_unary(device, &mut failures);
        check_binary(device, &mut failures);
        check_reductions(device, &mut failures);
        check_scans_and_softmax(device, &mut failures);
        check_matmul(device, &mut failures);
        ran += 1;
    }
    assert!(ran >= 1, "no device ran the op reference");
    assert!(
        failures.0.is_empty(),
        "{} differ from the reference:\n{}",
        failures.0.len(),
        failures.0.join("\n")
    );
}

/// The fake driver's checking modes, on the op reference: kernels built under
/// AddressSanitizer (an out-of-bounds index fails with the kernel's file and
/// line), then fresh allocations poisoned (a read of memory no kernel wrote
/// shows as a wrong value). Only where the CUDA half runs on the fake driver.
fn fake_pass(env: &[(&str, &str)]) {
    if std::env::var_os("TSH_TEST_ONLY_CUDA").is_some()
        || tsh::tensor::Device::Cuda(0).check_available().is_ok()
    {
        return;
    }
    if let Err(why) = common::fakecuda::run_test_on_fake_cuda(
        "every_op_matches_the_float64_reference_on_every_device",
        env,
    ) {
        eprintln!("op reference ({env:?}) on cuda:0: skipped: {why}");
    }
}

#[test]
fn op_reference_under_address_sanitizer_on_the_fake_driver() {
    let Some(asan) = common::fakecuda::libasan() else {
        eprintln!("op reference under ASAN: skipped: the C++ compiler has no libasan");
        return;
    };
    let cache = common::fakecuda::libdir().map(|d| d.join("ptx-asan"));
    let cache = cache.as_ref().map(|p| p.to_string_lossy().to_string());
    let cache = cache.as_deref().unwrap_or("");
    fake_pass(&[
        ("FAKECUDA_ASAN", "1"),
        ("LD_PRELOAD", &asan),
        ("ASAN_OPTIONS", "detect_leaks=0"),
        // Kernels compiled anew (with ASAN), not the plain ones cached as PTX.
        ("TSH_KERNEL_CACHE", cache),
    ]);
}

#[test]
fn op_reference_with_poisoned_allocations_on_the_fake_driver() {
    fake_pass(&[("FAKECUDA_POISON", "1")]);
}

/// A leaner driver: only the entry points the backend's contract lists
/// answer (no cuDeviceGetCount, no batched gemms); the backend falls back.
#[test]
fn op_reference_on_a_minimal_fake_driver() {
    fake_pass(&[("FAKECUDA_MINIMAL", "1")]);
}
