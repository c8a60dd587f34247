//! fakecuda self-test. Not part of tsh's build: tests/fakecuda/selftest.sh copies it into a
//! scratch crate that depends on unmodified cudarc 0.19.10 and runs it with the fake
//! libraries first on LD_LIBRARY_PATH. Env: SELFTEST_CU (kernel source), SELFTEST_MODE
//! ("" = everything, "asan" = only the out-of-bounds kernel, "bench" = only the measurements).
use std::ffi::{c_char, CStr, CString};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use cudarc::cublas::{self, AsumConfig, Asum, CudaBlas, Gemm, GemmConfig, StridedBatchedConfig};
use cudarc::driver::{
    result as dres, sys, CudaContext, CudaModule, CudaStream, DevicePtr, DeviceRepr, DriverError,
    LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::{self, CompileOptions, Ptx};

type R<T> = Result<T, Box<dyn std::error::Error>>;
static FAILS: AtomicUsize = AtomicUsize::new(0);

macro_rules! check {
    ($cond:expr, $($msg:tt)*) => {{
        let ok = $cond;
        println!("{} {}", if ok { "ok  " } else { "FAIL" }, format!($($msg)*));
        if !ok { FAILS.fetch_add(1, Ordering::Relaxed); }
    }};
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}
fn err_is<T>(r: Result<T, DriverError>, code: sys::CUresult) -> bool {
    matches!(r, Err(DriverError(c)) if c == code)
}
fn cfg(grid: (u32, u32, u32), block: (u32, u32, u32), smem: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: grid, block_dim: block, shared_mem_bytes: smem }
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Affine {
    a: f32,
    n: i32,
    bias: [f32; 3],
}
unsafe impl DeviceRepr for Affine {}

fn main() -> R<()> {
    let mode = std::env::var("SELFTEST_MODE").unwrap_or_default();
    let src = std::fs::read_to_string(std::env::var("SELFTEST_CU")?)?;
    check!(unsafe { sys::is_culib_present() }, "libcuda found by cudarc");
    let ctx = CudaContext::new(0)?;
    let name = ctx.name()?;
    check!(name.contains("emulation"), "device name: {name}");
    check!(ctx.compute_capability()? == (9, 0), "compute capability 9.0");
    check!(ctx.has_async_alloc(), "memory pools => cuMemAllocAsync");
    let t = Instant::now();
    let opts = CompileOptions {
        arch: Some("sm_90"),
        name: Some("selftest.cu".into()),
        options: vec!["-DSELFTEST=1".into(), "--std=c++17".into()],
        use_fast_math: Some(true),
        ..Default::default()
    };
    let ptx = nvrtc::compile_ptx_with_opts(&src, opts)?;
    println!("info compile (cached after the first run): {:?}", t.elapsed());
    let module = ctx.load_module(ptx)?;
    let stream = ctx.default_stream();
    if mode == "asan" {
        let x = stream.clone_htod(&[1.0f32; 10])?;
        let mut out = stream.alloc_zeros::<f32>(1)?;
        let f = module.load_function("read_past_end")?;
        let n = 10i32;
        let mut b = stream.launch_builder(&f);
        b.arg(&x).arg(&n).arg(&mut out);
        unsafe { b.launch(cfg((1, 1, 1), (32, 1, 1), 0)) }?;
        println!("FAIL read_past_end was not reported by ASAN");
        std::process::exit(1);
    }
    if mode == "bench" {
        return bench(&stream, &module);
    }
    kernels(&ctx, &stream, &module)?;
    copies_and_streams(&ctx, &stream, &module)?;
    errors(&stream, &module, &src)?;
    blas(&stream)?;
    concurrent(&src)?;
    bench(&stream, &module)?;
    drop(module);
    check!(ctx.check_err().is_ok(), "no error recorded by Drop impls");
    let fails = FAILS.load(Ordering::Relaxed);
    println!("{}", if fails == 0 { "selftest: all passed".to_string() } else { format!("selftest: {fails} FAILED") });
    std::process::exit(if fails == 0 { 0 } else { 1 });
}

fn kernels(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>, m: &Arc<CudaModule>) -> R<()> {
    // pointer + scalar + struct by value
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.01).collect();
    let xd = stream.clone_htod(&x)?;
    let mut out = stream.alloc_zeros::<f32>(n)?;
    let p = Affine { a: 2.0, n: n as i32, bias: [1.0, 2.0, 3.0] };
    let f = m.load_function("affine")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut out).arg(&xd).arg(&p).arg(&0.5f32);
    unsafe { b.launch(LaunchConfig::for_num_elems(n as u32)) }?;
    let got = stream.clone_dtoh(&out)?;
    let ok = (0..n).all(|i| close(got[i] as f64, (0.5 * (2.0 * x[i] + p.bias[i % 3])) as f64, 1e-6));
    check!(ok, "affine: pointer, scalar and by-value struct parameters");

    // tree reduction with __syncthreads over 256 threads, several blocks, float/double atomics
    let n = 10_000usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
    let xd = stream.clone_htod(&x)?;
    let blocks = n.div_ceil(256);
    let (mut of, mut od, mut part) =
        (stream.alloc_zeros::<f32>(1)?, stream.alloc_zeros::<f64>(1)?, stream.alloc_zeros::<f32>(blocks)?);
    let f = m.load_function("reduce_sum")?;
    let ni = n as i32;
    let mut b = stream.launch_builder(&f);
    b.arg(&xd).arg(&ni).arg(&mut of).arg(&mut od).arg(&mut part);
    unsafe { b.launch(cfg((blocks as u32, 1, 1), (256, 1, 1), 0)) }?;
    let want: f64 = x.iter().map(|&v| v as f64).sum();
    let parts = stream.clone_dtoh(&part)?;
    let parts_ok = (0..blocks).all(|bi| {
        let s: f32 = x[bi * 256..((bi + 1) * 256).min(n)].iter().sum();
        parts[bi] == s
    });
    check!(parts_ok, "reduce_sum: per-block tree reduction ({blocks} blocks x 256 threads)");
    check!(stream.clone_dtoh(&of)?[0] as f64 == want && stream.clone_dtoh(&od)?[0] == want,
           "reduce_sum: atomicAdd float and double = {want}");

    // warp shuffles + __shared__ inside a __device__ helper, up to 1024 threads per block
    for (blocks, threads) in [(3usize, 1024usize), (2, 96)] {
        let x: Vec<f32> = (0..blocks * threads).map(|i| (i % 5) as f32).collect();
        let xd = stream.clone_htod(&x)?;
        let mut o = stream.alloc_zeros::<f32>(blocks)?;
        let f = m.load_function("block_sums")?;
        let mut b = stream.launch_builder(&f);
        b.arg(&xd).arg(&mut o);
        unsafe { b.launch(cfg((blocks as u32, 1, 1), (threads as u32, 1, 1), 0)) }?;
        let got = stream.clone_dtoh(&o)?;
        let ok = (0..blocks).all(|bi| got[bi] == x[bi * threads..(bi + 1) * threads].iter().sum::<f32>());
        check!(ok, "block_sums: shuffles + __shared__ in a __device__ function, {blocks} x {threads} threads");
    }
    let f = m.load_function("barriers")?;
    let mut o = stream.alloc_zeros::<f32>(1024)?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o).arg(&3i32);
    unsafe { b.launch(cfg((1, 1, 1), (1024, 1, 1), 0)) }?;
    let mut sim: Vec<f32> = (0..1024).map(|t| t as f32).collect();
    for _ in 0..3 {
        let v: Vec<f32> = (0..1024).map(|t| sim[(t + 1) % 1024]).collect();
        for t in 0..1024 { sim[t] += v[t] * 0.5; }
    }
    check!(stream.clone_dtoh(&o)? == sim, "1024 threads through 6 __syncthreads");

    let mut o = stream.alloc_zeros::<i32>(1)?;
    let f = m.load_function("last_writer")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o);
    unsafe { b.launch(cfg((1, 1, 1), (64, 1, 1), 0)) }?;
    let reverse = std::env::var("FAKECUDA_REVERSE").map(|v| v == "1").unwrap_or(false);
    let last = stream.clone_dtoh(&o)?[0];
    check!(last == if reverse { 0 } else { 63 }, "thread order within a block (FAKECUDA_REVERSE={reverse}): last writer {last}");

    // dynamic shared memory
    let n = 1000usize;
    let v: Vec<i32> = (0..n as i32).collect();
    let vd = stream.clone_htod(&v)?;
    let mut o = stream.alloc_zeros::<i32>(n)?;
    let f = m.load_function("reverse_block")?;
    let ni = n as i32;
    let mut b = stream.launch_builder(&f);
    b.arg(&vd).arg(&mut o).arg(&ni);
    unsafe { b.launch(cfg((n.div_ceil(128) as u32, 1, 1), (128, 1, 1), 128 * 4)) }?;
    let got = stream.clone_dtoh(&o)?;
    let ok = (0..n).all(|i| {
        let (base, cnt) = (i / 128 * 128, 128.min(n - i / 128 * 128));
        got[i] == (base + cnt - 1 - (i - base)) as i32
    });
    check!(ok, "reverse_block: extern __shared__ int buf[]");
    let a: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let bb: Vec<f64> = (0..64).map(|i| 1000.0 + i as f64).collect();
    let (ad, bd) = (stream.clone_htod(&a)?, stream.clone_htod(&bb)?);
    let mut o = stream.alloc_zeros::<f64>(64)?;
    let f = m.load_function("carve")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&ad).arg(&bd).arg(&mut o);
    unsafe { b.launch(cfg((1, 1, 1), (64, 1, 1), 64 * 4 + 8 + 64 * 8)) }?;
    let got = stream.clone_dtoh(&o)?;
    check!((0..64).all(|t| got[t] == a[63 - t] as f64 + bb[(t + 1) % 64]),
           "carve: __align__ extern __shared__ bytes cast to float*/double*");

    // warp shuffles and ballot (n = 120: the last warp is partial)
    let n = 120usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let xd = stream.clone_htod(&x)?;
    let (mut ws, mut sc, mut bl, mut ds, mut bc) = (
        stream.alloc_zeros::<f32>(4)?, stream.alloc_zeros::<i32>(128)?, stream.alloc_zeros::<u32>(4)?,
        stream.alloc_zeros::<f64>(128)?, stream.alloc_zeros::<i32>(128)?);
    let f = m.load_function("warp_ops")?;
    let ni = n as i32;
    let mut b = stream.launch_builder(&f);
    b.arg(&xd).arg(&ni).arg(&mut ws).arg(&mut sc).arg(&mut bl).arg(&mut ds).arg(&mut bc);
    unsafe { b.launch(cfg((2, 1, 1), (64, 1, 1), 0)) }?;
    let (ws, sc, bl, ds, bc) = (stream.clone_dtoh(&ws)?, stream.clone_dtoh(&sc)?, stream.clone_dtoh(&bl)?,
                                stream.clone_dtoh(&ds)?, stream.clone_dtoh(&bc)?);
    let ws_ok = (0..4).all(|w| ws[w] == (w * 32..(w * 32 + 32).min(n)).map(|i| i as f32).sum::<f32>());
    let sc_ok = (0..128).all(|i| sc[i] as usize == (i % 32 + 1) * (i % 32 + 2) / 2);
    let bl_ok = (0..4).all(|w| bl[w] == (0..32).filter(|l| l % 2 == 1 && w * 32 + l < n).map(|l| 1u32 << l).sum::<u32>());
    let ds_ok = ds.iter().all(|&d| d == 496.0);
    let bc_ok = (0..128).all(|i| bc[i] as usize == (i / 32 * 32 + 7) + (i % 32 / 8 * 8 + 3));
    check!(ws_ok && sc_ok && bl_ok && ds_ok && bc_ok,
           "warp_ops: __shfl_down/up/xor/idx(width 8) for float/int/double, __ballot_sync ({ws_ok} {sc_ok} {bl_ok} {ds_ok} {bc_ok})");

    let mut o = stream.alloc_zeros::<i32>(4)?;
    let f = m.load_function("sync_preds")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o);
    unsafe { b.launch(cfg((1, 1, 1), (100, 1, 1), 0)) }?;
    check!(stream.clone_dtoh(&o)? == vec![34, 1, 1, 0], "__syncthreads_count/and/or");

    let mut pf = stream.alloc_zeros::<f32>(100)?;
    let mut pd = stream.alloc_zeros::<f64>(100)?;
    let n100 = 100i32;
    let f32k = m.load_function("fill_f32")?;
    let f64k = m.load_function("fill_f64")?;
    let mut b = stream.launch_builder(&f32k);
    b.arg(&mut pf).arg(&1.5f32).arg(&n100);
    unsafe { b.launch(cfg((4, 1, 1), (32, 1, 1), 0)) }?;
    let mut b = stream.launch_builder(&f64k);
    b.arg(&mut pd).arg(&2.5f64).arg(&n100);
    unsafe { b.launch(cfg((4, 1, 1), (32, 1, 1), 0)) }?;
    let (gf, gd) = (stream.clone_dtoh(&pf)?, stream.clone_dtoh(&pd)?);
    check!((0..100).all(|i| gf[i] == 1.5 * i as f32 && gd[i] == 2.5 * i as f64), "macro-stamped kernels fill_f32/fill_f64");

    let mut o = stream.alloc_zeros::<i32>(144)?;
    let f = m.load_function("ids3d")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o);
    unsafe { b.launch(cfg((3, 2, 1), (4, 3, 2), 0)) }?;
    check!(stream.clone_dtoh(&o)? == (0..144).collect::<Vec<i32>>(), "3-D blocks, 2-D grid: threadIdx/blockIdx/blockDim/gridDim");

    let xd = stream.clone_htod(&[0.3f32])?;
    let (mut fo, mut dout, mut io) =
        (stream.alloc_zeros::<f32>(10)?, stream.alloc_zeros::<f64>(3)?, stream.alloc_zeros::<i32>(8)?);
    let f = m.load_function("math")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&xd).arg(&mut fo).arg(&mut dout).arg(&mut io);
    unsafe { b.launch(cfg((1, 1, 1), (1, 1, 1), 0)) }?;
    let (fo, dout, io) = (stream.clone_dtoh(&fo)?, stream.clone_dtoh(&dout)?, stream.clone_dtoh(&io)?);
    let v = 0.3f32 as f64;
    let pi = std::f64::consts::PI;
    let fw = [v.exp(), 0.27246271472675443, 0.6179114221889527, (pi * v).sin(), (pi * v).cos(),
              1.0 / v.sqrt(), 1.0 / v, 2.5, v.sin(), 0.0];
    let f_ok = (0..10).all(|i| close(fo[i] as f64, fw[i], 2e-6));
    // the input is 0.3f32, not 0.3: correct erfinv(0.3) to first order
    let e = 0.27246271472675443f64;
    let erfinv_v = e + (v - 0.3) * pi.sqrt() / 2.0 * (e * e).exp();
    let d_ok = close(dout[0], erfinv_v, 1e-14) && close(dout[1], 2.453736570842442, 1e-14)
        && close(dout[2], 1.959963984540054, 1e-13);
    check!(f_ok && d_ok, "math API: expf erfinvf normcdff sincospif rsqrtf min/max erfinv lgamma normcdfinv ({fo:?} {dout:?})");
    check!(io == vec![2, -2, 8, i32::MIN, 31, i32::MAX, 4, 3], "integer/conversion intrinsics: {io:?}");

    let n = 5000i32;
    let (mut c, mut mx, mut sm) = (stream.alloc_zeros::<i32>(4)?, stream.alloc_zeros::<u32>(1)?, stream.alloc_zeros::<u64>(1)?);
    let f = m.load_function("atomics")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut c).arg(&mut mx).arg(&mut sm).arg(&n);
    unsafe { b.launch(cfg((20, 1, 1), (256, 1, 1), 0)) }?;
    let (c, mx, sm) = (stream.clone_dtoh(&c)?, stream.clone_dtoh(&mx)?[0], stream.clone_dtoh(&sm)?[0]);
    check!(c == vec![5000, -10000, 0, 42] && mx == 4999 && sm == 5000 * 4999 / 2,
           "integer atomics across blocks: {c:?} {mx} {sm}");

    let mut g = m.get_global("g_scale", stream)?;
    stream.memcpy_htod(&2.5f32.to_ne_bytes(), &mut g)?;
    let mut o = stream.alloc_zeros::<f32>(32)?;
    let f = m.load_function("use_global")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o);
    unsafe { b.launch(cfg((1, 1, 1), (32, 1, 1), 0)) }?;
    check!(stream.clone_dtoh(&o)? == (0..32).map(|t| 2.5 * t as f32).collect::<Vec<_>>(),
           "cuModuleGetGlobal + memcpy into a __device__ variable");

    // template kernel through nvrtcAddNameExpression / nvrtcGetLoweredName
    let src = std::fs::read_to_string(std::env::var("SELFTEST_CU")?)?;
    let prog = nvrtc::result::create_program(&CString::new(src)?, None)?;
    let expr = c"scale_t<float>";
    unsafe { nvrtc::sys::nvrtcAddNameExpression(prog, expr.as_ptr()).result()? };
    unsafe { nvrtc::result::compile_program(prog, &["--gpu-architecture=sm_90"]) }?;
    let mut lowered: *const c_char = std::ptr::null();
    unsafe { nvrtc::sys::nvrtcGetLoweredName(prog, expr.as_ptr(), &mut lowered).result()? };
    let lowered = unsafe { CStr::from_ptr(lowered) }.to_str()?.to_owned();
    let image = unsafe { nvrtc::result::get_ptx(prog) }?;
    let text = unsafe { CStr::from_ptr(image.as_ptr()) }.to_str()?.to_owned();
    unsafe { nvrtc::result::destroy_program(prog) }?;
    let m2 = ctx.load_module(Ptx::from_src(text))?;
    let f = m2.load_function(&lowered)?;
    let mut d = stream.clone_htod(&[1.0f32, 2.0, 3.0])?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut d).arg(&4.0f32).arg(&3i32);
    unsafe { b.launch(cfg((1, 1, 1), (32, 1, 1), 0)) }?;
    check!(stream.clone_dtoh(&d)? == vec![4.0, 8.0, 12.0], "template kernel via name expression '{lowered}'");
    Ok(())
}

#[allow(deprecated)]
fn copies_and_streams(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>, m: &Arc<CudaModule>) -> R<()> {
    let host: Vec<u32> = (0..1000).collect();
    let a = stream.memcpy_stod(&host)?;
    let mut b = unsafe { stream.alloc::<u32>(1000) }?;
    stream.memcpy_dtod(&a, &mut b)?;
    let c = b.clone();  // clone_dtod
    let mut back = vec![0u32; 1000];
    stream.memcpy_dtoh(&c, &mut back)?;
    let v = stream.memcpy_dtov(&c)?;
    let mut d = stream.alloc_zeros::<u32>(1000)?;
    stream.memcpy_htod(&host[..500], &mut d.slice_mut(250..750))?;
    let dv = stream.clone_dtoh(&d)?;
    check!(back == host && v == host && dv[250..750] == host[..500] && dv[..250].iter().all(|&x| x == 0),
           "memcpy_stod / alloc / memcpy_dtod / clone / memcpy_dtoh / memcpy_dtov / memcpy_htod into a sub-view");
    let empty = stream.alloc_zeros::<f32>(0)?;
    check!(stream.clone_dtoh(&empty)?.is_empty(), "zero-length allocation and copy");

    let start = stream.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?;
    let s2 = ctx.new_stream()?;  // multi-stream mode: every use records/waits events
    let mut x = s2.alloc_zeros::<f32>(4096)?;
    let f = m.load_function("fill_f32")?;
    let n = 4096i32;
    let mut bld = s2.launch_builder(&f);
    bld.arg(&mut x).arg(&3.0f32).arg(&n);
    unsafe { bld.launch(cfg((16, 1, 1), (256, 1, 1), 0)) }?;
    stream.join(&s2)?;
    let got = stream.clone_dtoh(&x)?;
    s2.synchronize()?;
    let end = stream.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?;
    end.synchronize()?;
    let ms = start.elapsed_ms(&end)?;
    check!(got[4095] == 3.0 * 4095.0 && ms >= 0.0, "second stream + join + events: elapsed {ms:.3} ms");
    stream.synchronize()?;
    ctx.synchronize()?;
    let (free, total) = ctx.mem_get_info()?;
    check!(free <= total && total > 0, "mem_get_info: {free} free of {total}");
    Ok(())
}

fn errors(stream: &Arc<CudaStream>, m: &Arc<CudaModule>, src: &str) -> R<()> {
    let small = stream.alloc_zeros::<f32>(4)?;
    let big = vec![1.0f32; 8];
    let (p, _rec) = small.device_ptr(stream);
    let r = unsafe { dres::memcpy_htod_async(p, &big[..], stream.cu_stream()) };
    check!(err_is(r, sys::CUresult::CUDA_ERROR_INVALID_VALUE), "out-of-range memcpy_htod -> CUDA_ERROR_INVALID_VALUE");
    let mut buf = vec![0f32; 4];
    let r = unsafe { dres::memcpy_dtoh_async(&mut buf[..], p + 8, stream.cu_stream()) };
    check!(err_is(r, sys::CUresult::CUDA_ERROR_INVALID_VALUE), "out-of-range memcpy_dtoh (offset) -> CUDA_ERROR_INVALID_VALUE");
    drop(_rec);
    let r = stream.begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
    check!(err_is(r, sys::CUresult::CUDA_ERROR_NOT_SUPPORTED), "unemulated call (graph capture) -> CUDA_ERROR_NOT_SUPPORTED, no panic");
    let r = unsafe {
        sys::cuLaunchKernel(0x1234usize as sys::CUfunction, 1, 1, 1, 1, 1, 1, 0, std::ptr::null_mut(),
                            std::ptr::null_mut(), std::ptr::null_mut())
    };
    check!(r == sys::CUresult::CUDA_ERROR_INVALID_HANDLE, "unknown function handle -> CUDA_ERROR_INVALID_HANDLE");
    check!(unsafe { sys::cuDeviceGetCount(std::ptr::null_mut()) } == sys::CUresult::CUDA_ERROR_INVALID_VALUE,
           "null out-pointer -> CUDA_ERROR_INVALID_VALUE");
    check!(err_is(m.load_function("no_such_kernel"), sys::CUresult::CUDA_ERROR_NOT_FOUND), "missing kernel -> CUDA_ERROR_NOT_FOUND");
    let f = m.load_function("fill_f32")?;
    let mut x = stream.alloc_zeros::<f32>(10)?;
    let n = 10i32;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut x).arg(&1.0f32).arg(&n);
    check!(err_is(unsafe { b.launch(cfg((1, 1, 1), (2048, 1, 1), 0)) }, sys::CUresult::CUDA_ERROR_INVALID_VALUE),
           "block of 2048 threads -> CUDA_ERROR_INVALID_VALUE");
    check!(err_is(unsafe { b.launch(cfg((1, 1, 1), (32, 1, 1), 64 * 1024)) }, sys::CUresult::CUDA_ERROR_INVALID_VALUE),
           "64 KiB dynamic shared memory without the attribute -> CUDA_ERROR_INVALID_VALUE");
    f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 * 1024)?;
    check!(unsafe { b.launch(cfg((1, 1, 1), (32, 1, 1), 64 * 1024)) }.is_ok(), "... and accepted after cuFuncSetAttribute");

    let xs = stream.clone_htod(&[1.0f32, -1.0])?;
    let f = m.load_function("checked")?;
    let n = 2i32;
    let mut b = stream.launch_builder(&f);
    b.arg(&xs).arg(&n);
    check!(err_is(unsafe { b.launch(cfg((1, 1, 1), (32, 1, 1), 0)) }, sys::CUresult::CUDA_ERROR_ASSERT),
           "device assert -> CUDA_ERROR_ASSERT");
    let mut o = stream.alloc_zeros::<i32>(64)?;
    let f = m.load_function("wild_write")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o);
    check!(err_is(unsafe { b.launch(cfg((4, 1, 1), (64, 1, 1), 0)) }, sys::CUresult::CUDA_ERROR_ILLEGAL_ADDRESS),
           "wild write in a kernel -> CUDA_ERROR_ILLEGAL_ADDRESS, process survives");
    let f = m.load_function("deadlock")?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut o);
    check!(err_is(unsafe { b.launch(cfg((1, 1, 1), (64, 1, 1), 0)) }, sys::CUresult::CUDA_ERROR_LAUNCH_FAILED),
           "barrier deadlock -> CUDA_ERROR_LAUNCH_FAILED (a GPU would hang)");

    // What NVRTC rejects must not compile here either (cuda.md).
    for (what, body) in [("INFINITY", "p[0] = INFINITY;"), ("NAN", "p[0] = NAN;"), ("int64_t", "int64_t x = 1; p[0] = x;"),
                         ("max(int, long long)", "int a = 1; long long b = 2; p[0] = max(a, b);"),
                         ("__half", "__half h; (void)h;")] {
        let k = format!("extern \"C\" __global__ void k(float* p) {{ {body} }}\n");
        check!(nvrtc::compile_ptx(k).is_err(), "{what} is rejected, as by NVRTC");
    }
    let bad = format!("{src}\nextern \"C\" __global__ void broken(float* p) {{ p[0] = undeclared; }}\n");
    match nvrtc::compile_ptx(bad) {
        Err(nvrtc::CompileError::CompileError { log, .. }) => {
            let log = log.to_string_lossy();
            check!(log.contains("undeclared"), "compile error -> NVRTC_ERROR_COMPILATION with g++'s log");
        }
        other => check!(false, "compile error expected, got {:?}", other.map(|_| ())),
    }
    let mut sz = 0usize;
    let r = unsafe { nvrtc::sys::nvrtcGetLTOIRSize(std::ptr::null_mut(), &mut sz) };
    check!(r == nvrtc::sys::nvrtcResult::NVRTC_ERROR_INTERNAL_ERROR, "unemulated NVRTC call -> {r:?}");
    let blas = CudaBlas::new(stream.clone())?;
    let xs = stream.clone_htod(&[1.0f32, -2.0])?;
    let mut res = 0f32;
    let r = unsafe { blas.asum(AsumConfig { n: 2, incx: 1 }, &xs, &mut res) };
    check!(matches!(r, Err(cublas::result::CublasError(cublas::sys::cublasStatus_t::CUBLAS_STATUS_NOT_SUPPORTED))),
           "unemulated cuBLAS call -> CUBLAS_STATUS_NOT_SUPPORTED");
    Ok(())
}

fn lcg(seed: &mut u64) -> f32 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}
// Reference C = alpha op(A) op(B) + beta C, column-major, in f64.
#[allow(clippy::too_many_arguments)]
fn gemm_ref(ta: bool, tb: bool, m: usize, n: usize, k: usize, alpha: f64, a: &[f64], lda: usize,
            b: &[f64], ldb: usize, beta: f64, c: &mut [f64], ldc: usize) {
    for j in 0..n {
        for i in 0..m {
            let mut s = 0.0;
            for p in 0..k {
                let av = if ta { a[p + i * lda] } else { a[i + p * lda] };
                let bv = if tb { b[j + p * ldb] } else { b[p + j * ldb] };
                s += av * bv;
            }
            c[i + j * ldc] = alpha * s + beta * c[i + j * ldc];
        }
    }
}
fn to_bf16(f: f32) -> u16 {
    let x = f.to_bits();
    ((x + 0x7fff + ((x >> 16) & 1)) >> 16) as u16
}
fn from_bf16(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

fn blas(stream: &Arc<CudaStream>) -> R<()> {
    use cublas::sys::cublasOperation_t::{CUBLAS_OP_N as N, CUBLAS_OP_T as T};
    let blas = CudaBlas::new(stream.clone())?;
    let mut seed = 1u64;
    for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
        let (m, n, k) = (37usize, 23usize, 19usize);
        let (lda, ldb, ldc) = (if ta { k } else { m } + 3, if tb { n } else { k } + 1, m + 2);
        let a: Vec<f32> = (0..lda * if ta { m } else { k }).map(|_| lcg(&mut seed)).collect();
        let b: Vec<f32> = (0..ldb * if tb { k } else { n }).map(|_| lcg(&mut seed)).collect();
        let c0: Vec<f32> = (0..ldc * n).map(|_| lcg(&mut seed)).collect();
        let (ad, bd) = (stream.clone_htod(&a)?, stream.clone_htod(&b)?);
        let mut cd = stream.clone_htod(&c0)?;
        let cfgg = GemmConfig { transa: if ta { T } else { N }, transb: if tb { T } else { N }, m: m as i32,
            n: n as i32, k: k as i32, alpha: 1.5f32, lda: lda as i32, ldb: ldb as i32, beta: 0.5f32, ldc: ldc as i32 };
        unsafe { blas.gemm(cfgg, &ad, &bd, &mut cd) }?;
        let got = stream.clone_dtoh(&cd)?;
        let f64v = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
        let mut want = f64v(&c0);
        gemm_ref(ta, tb, m, n, k, 1.5, &f64v(&a), lda, &f64v(&b), ldb, 0.5, &mut want, ldc);
        let ok = (0..ldc * n).all(|i| close(got[i] as f64, want[i], 1e-5));
        check!(ok, "sgemm transa={ta} transb={tb} with padded lda/ldb/ldc, beta=0.5");
    }
    // bad leading dimension
    let z = stream.alloc_zeros::<f32>(64)?;
    let mut zc = stream.alloc_zeros::<f32>(64)?;
    let bad = GemmConfig { transa: N, transb: N, m: 8, n: 8, k: 8, alpha: 1.0f32, lda: 4, ldb: 8, beta: 0.0f32, ldc: 8 };
    check!(matches!(unsafe { blas.gemm(bad, &z, &z, &mut zc) },
                    Err(cublas::result::CublasError(cublas::sys::cublasStatus_t::CUBLAS_STATUS_INVALID_VALUE))),
           "lda < m -> CUBLAS_STATUS_INVALID_VALUE");
    let small = stream.alloc_zeros::<f32>(10)?;
    let ok_cfg = GemmConfig { transa: N, transb: N, m: 8, n: 8, k: 8, alpha: 1.0f32, lda: 8, ldb: 8, beta: 0.0f32, ldc: 8 };
    check!(matches!(unsafe { blas.gemm(ok_cfg, &small, &z, &mut zc) },
                    Err(cublas::result::CublasError(cublas::sys::cublasStatus_t::CUBLAS_STATUS_EXECUTION_FAILED))),
           "operand A smaller than m x k -> CUBLAS_STATUS_EXECUTION_FAILED");

    // GemmEx: bf16 in/out, f32 compute (alpha/beta are f32), A transposed
    let (m, n, k) = (16usize, 8usize, 32usize);
    let a: Vec<u16> = (0..k * m).map(|_| to_bf16(lcg(&mut seed))).collect();  // k x m, op T
    let b: Vec<u16> = (0..k * n).map(|_| to_bf16(lcg(&mut seed))).collect();
    let (ad, bd) = (stream.clone_htod(&a)?, stream.clone_htod(&b)?);
    let mut cd = stream.alloc_zeros::<u16>(m * n)?;
    let (alpha, beta) = (1.0f32, 0.0f32);
    {
        let (ap, _ra) = ad.device_ptr(stream);
        let (bp, _rb) = bd.device_ptr(stream);
        let (cp, _rc) = cudarc::driver::DevicePtrMut::device_ptr_mut(&mut cd, stream);
        unsafe {
            cublas::result::gemm_ex(*blas.handle(), T, N, m as i32, n as i32, k as i32,
                &alpha as *const f32 as *const _, ap as *const _, cublas::sys::cudaDataType_t::CUDA_R_16BF, k as i32,
                bp as *const _, cublas::sys::cudaDataType_t::CUDA_R_16BF, k as i32,
                &beta as *const f32 as *const _, cp as *mut _, cublas::sys::cudaDataType_t::CUDA_R_16BF, m as i32,
                cublas::sys::cublasComputeType_t::CUBLAS_COMPUTE_32F, cublas::sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT)
        }?;
    }
    let got = stream.clone_dtoh(&cd)?;
    let dec = |v: &[u16]| v.iter().map(|&x| from_bf16(x) as f64).collect::<Vec<f64>>();
    let mut want = vec![0f64; m * n];
    gemm_ref(true, false, m, n, k, 1.0, &dec(&a), k, &dec(&b), k, 0.0, &mut want, m);
    let ok = (0..m * n).all(|i| got[i] == to_bf16(want[i] as f32) || close(from_bf16(got[i]) as f64, want[i], 8e-3));
    check!(ok, "cublasGemmEx bf16 x bf16 -> bf16, CUBLAS_COMPUTE_32F, transa=T");

    // strided batched (f32) and dgemm
    let (m, n, k, batch) = (9usize, 7usize, 5usize, 3usize);
    let (sa, sb, sc) = (m * k + 4, k * n + 2, m * n + 1);
    let a: Vec<f32> = (0..sa * batch).map(|_| lcg(&mut seed)).collect();
    let b: Vec<f32> = (0..sb * batch).map(|_| lcg(&mut seed)).collect();
    let (ad, bd) = (stream.clone_htod(&a)?, stream.clone_htod(&b)?);
    let mut cd = stream.alloc_zeros::<f32>(sc * batch)?;
    let sbc = StridedBatchedConfig {
        gemm: GemmConfig { transa: N, transb: N, m: m as i32, n: n as i32, k: k as i32, alpha: 1.0f32,
                           lda: m as i32, ldb: k as i32, beta: 0.0f32, ldc: m as i32 },
        batch_size: batch as i32, stride_a: sa as i64, stride_b: sb as i64, stride_c: sc as i64,
    };
    unsafe { blas.gemm_strided_batched(sbc, &ad, &bd, &mut cd) }?;
    let got = stream.clone_dtoh(&cd)?;
    let mut ok = true;
    for bi in 0..batch {
        let f64v = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
        let mut want = vec![0f64; m * n];
        gemm_ref(false, false, m, n, k, 1.0, &f64v(&a[bi * sa..]), m, &f64v(&b[bi * sb..]), k, 0.0, &mut want, m);
        ok &= (0..m * n).all(|i| close(got[bi * sc + i] as f64, want[i], 1e-5));
    }
    check!(ok, "sgemm strided batched (batch 3, padded strides)");
    let a: Vec<f64> = (0..6).map(|i| i as f64).collect();
    let (ad, mut cd) = (stream.clone_htod(&a)?, stream.alloc_zeros::<f64>(4)?);
    let dg = GemmConfig { transa: N, transb: T, m: 2, n: 2, k: 3, alpha: 1.0f64, lda: 2, ldb: 2, beta: 0.0f64, ldc: 2 };
    unsafe { blas.gemm(dg, &ad, &ad, &mut cd) }?;
    check!(stream.clone_dtoh(&cd)? == vec![20.0, 26.0, 26.0, 35.0], "dgemm A * A^T");
    Ok(())
}

fn bench(stream: &Arc<CudaStream>, m: &Arc<CudaModule>) -> R<()> {
    let n = 1usize << 24;
    let x = stream.alloc_zeros::<f32>(n)?;
    let mut y = stream.alloc_zeros::<f32>(n)?;
    let f = m.load_function("saxpy")?;
    let ni = n as i32;
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let mut b = stream.launch_builder(&f);
        b.arg(&2.0f32).arg(&x).arg(&mut y).arg(&ni);
        unsafe { b.launch(cfg((n as u32 / 256, 1, 1), (256, 1, 1), 0)) }?;
        stream.synchronize()?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("measure elementwise saxpy: {:.0} M threads/s ({} threads in {:.1} ms)", n as f64 / best / 1e6, n, best * 1e3);

    let f = m.load_function("barriers")?;
    let (blocks, threads) = (32u32, 256u32);
    let mut out = stream.alloc_zeros::<f32>((blocks * threads) as usize)?;
    let mut time = |rounds: i32| -> R<f64> {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let mut b = stream.launch_builder(&f);
            b.arg(&mut out).arg(&rounds);
            unsafe { b.launch(cfg((blocks, 1, 1), (threads, 1, 1), 0)) }?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok(best)
    };
    let (t0, t1) = (time(0)?, time(100)?);
    let per = (t1 - t0) / (200.0 * (blocks * threads) as f64);
    println!("measure barrier: {:.1} ns per __syncthreads per thread ({} blocks x {} threads, 200 barriers: {:.1} ms)",
             per * 1e9, blocks, threads, t1 * 1e3);

    let blas = CudaBlas::new(stream.clone())?;
    let sz = 256usize;
    let a = stream.alloc_zeros::<f32>(sz * sz)?;
    let mut c = stream.alloc_zeros::<f32>(sz * sz)?;
    use cublas::sys::cublasOperation_t::CUBLAS_OP_N as N;
    let g = GemmConfig { transa: N, transb: N, m: 256, n: 256, k: 256, alpha: 1.0f32, lda: 256, ldb: 256, beta: 0.0f32, ldc: 256 };
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        unsafe { blas.gemm(g, &a, &a, &mut c) }?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("measure sgemm 256^3: {:.1} ms", best * 1e3);
    Ok(())
}

// Several host threads, each with its own context handle (the same primary context) and
// module, launching multi-block kernels at the same time (as parallel tests do).
fn concurrent(src: &str) -> R<()> {
    let handles: Vec<_> = (0..4)
        .map(|tid| {
            let src = src.to_string();
            std::thread::spawn(move || -> Result<bool, String> {
                let run = || -> R<bool> {
                    let ctx = CudaContext::new(0)?;
                    let stream = if tid % 2 == 0 { ctx.default_stream() } else { ctx.new_stream()? };
                    let m = ctx.load_module(nvrtc::compile_ptx(&src)?)?;
                    let f = m.load_function("reduce_sum")?;
                    let n = 3000usize;
                    let x: Vec<f32> = (0..n).map(|i| ((i + tid) % 5) as f32).collect();
                    let want: f32 = x.iter().sum();
                    let xd = stream.clone_htod(&x)?;
                    let mut ok = true;
                    for _ in 0..20 {
                        let (mut of, mut od, mut part) = (stream.alloc_zeros::<f32>(1)?, stream.alloc_zeros::<f64>(1)?,
                                                          stream.alloc_zeros::<f32>(12)?);
                        let ni = n as i32;
                        let mut b = stream.launch_builder(&f);
                        b.arg(&xd).arg(&ni).arg(&mut of).arg(&mut od).arg(&mut part);
                        unsafe { b.launch(cfg((12, 1, 1), (256, 1, 1), 0)) }?;
                        ok &= stream.clone_dtoh(&of)?[0] == want;
                    }
                    Ok(ok)
                };
                run().map_err(|e| e.to_string())
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    check!(results.iter().all(|r| matches!(r, Ok(true))), "4 host threads launching concurrently: {results:?}");
    Ok(())
}
