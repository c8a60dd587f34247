//! Finding and opening CUDA devices. cudarc loads libcuda, libnvrtc and
//! libcublas lazily by name and panics when one is missing, so every library
//! is asked for first (`is_culib_present`) and what is missing becomes a
//! `device` error that says what to install or where to point the loader.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::cublas::CudaBlas;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};

use super::alloc::Pool;
use crate::error::{Error, Result, device_err};

/// One opened device: its context, the stream all work is queued on, the
/// compiled kernel modules and the cache of freed buffers.
pub struct Gpu {
    pub index: usize,
    pub name: String,
    /// NVRTC's target, e.g. `sm_90`.
    pub arch: &'static str,
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub(super) blas: Mutex<Option<CudaBlas>>,
    pub(super) modules: Mutex<HashMap<&'static str, Arc<CudaModule>>>,
    pub(super) functions: Mutex<HashMap<String, CudaFunction>>,
    pub(super) pool: Mutex<Pool>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Gpu(cuda:{} {})", self.index, self.name)
    }
}

/// What the machine has: the number of devices, or why there are none.
fn probe() -> &'static std::result::Result<usize, String> {
    static PROBE: OnceLock<std::result::Result<usize, String>> = OnceLock::new();
    PROBE.get_or_init(|| quietly(probe_now).unwrap_or_else(|| Err(panicked("libcuda"))))
}

fn probe_now() -> std::result::Result<usize, String> {
    // SAFETY: a trial dlopen of the library by its usual names.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(missing("libcuda.so"));
    }
    const NO_GPU: &str = "no CUDA device: the driver is installed but found no GPU";
    cudarc::driver::result::init().map_err(|e| match e.0 {
        // What a driver without a GPU (or with none visible) answers cuInit.
        cudarc::driver::sys::CUresult::CUDA_ERROR_NO_DEVICE => NO_GPU.to_string(),
        _ => format!("the CUDA driver did not start: {e}"),
    })?;
    let count = match CudaContext::device_count() {
        Ok(n) => n.max(0) as usize,
        // Some drivers (and emulations) answer only cuDeviceGet: count what opens.
        Err(_) => (0..16)
            .take_while(|&i| cudarc::driver::result::device::get(i).is_ok())
            .count(),
    };
    if count == 0 {
        return Err(NO_GPU.into());
    }
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(missing("libnvrtc.so"));
    }
    if !unsafe { cudarc::cublas::sys::is_culib_present() } {
        return Err(missing("libcublas.so"));
    }
    Ok(count)
}

/// Run `f`, turning a panic inside cudarc (a library or symbol it could not
/// load) into `None` without the panic message reaching the user.
pub(super) fn quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    std::panic::set_hook(hook);
    r
}

fn panicked(what: &str) -> String {
    format!(
        "no CUDA device: {what} could not be loaded (a library or one of its functions is missing)"
    )
}

/// "libX not found", and where a Python environment's CUDA wheels (PyTorch's
/// `nvidia/*/lib` folders) have it, if they do: the loader is then told there.
/// (The driver, libcuda, comes with the GPU's driver, never with a wheel.)
fn missing(lib: &str) -> String {
    let mut msg = format!("no CUDA device: {lib} not found");
    let stem = lib.trim_end_matches(".so");
    let having: Vec<String> = pip_cuda_dirs()
        .unwrap_or_default()
        .split(':')
        .filter(|d| {
            std::fs::read_dir(d).is_ok_and(|mut es| {
                es.any(|e| {
                    e.is_ok_and(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .starts_with(&format!("{stem}."))
                    })
                })
            })
        })
        .map(String::from)
        .collect();
    if !having.is_empty() {
        let dirs = having.join(":");
        msg.push_str(&format!(
            "; a Python environment has it in {dirs}: start tsh with LD_LIBRARY_PATH={dirs} to use it"
        ));
    }
    msg
}

/// The `nvidia/*/lib` folders of a Python environment (pip's CUDA wheels),
/// joined with `:`, if any exist.
fn pip_cuda_dirs() -> Option<String> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import site,glob,os;print(':'.join(sorted({d for p in site.getsitepackages()+[site.getusersitepackages()] for d in glob.glob(os.path.join(p,'nvidia','*','lib'))})))",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// How many CUDA devices there are (0 without a driver).
pub fn device_count() -> usize {
    probe().as_ref().map_or(0, |&n| n)
}

/// Why `cuda:index` cannot be used, if it cannot.
pub fn check(index: usize) -> Result<()> {
    match probe() {
        Err(why) => Err(no_device(format!("cannot use cuda:{index}: {why}"))),
        Ok(n) if index >= *n => Err(device_err(format!(
            "CUDA error: invalid device ordinal: cuda:{index} does not exist (this machine has {n} CUDA device{})",
            if *n == 1 { "" } else { "s" }
        ))
        .hint("use cuda:0 .. cuda:N-1; torch.cuda.device_count() says N")),
        Ok(_) => gpu(index).map(|_| ()),
    }
}

pub fn no_device(why: String) -> Error {
    device_err(why).hint(
        "keep the tensor on the cpu (torch.cuda.is_available() says whether CUDA can be used)",
    )
}

/// The devices opened so far.
static OPEN: Mutex<Vec<(usize, Arc<Gpu>)>> = Mutex::new(Vec::new());

/// Wait for every device opened so far (none opened: nothing to wait for);
/// the names of those waited for.
pub fn synchronize_open() -> Result<Vec<usize>> {
    let open: Vec<Arc<Gpu>> = OPEN
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .map(|(_, g)| g.clone())
        .collect();
    for g in &open {
        g.stream
            .synchronize()
            .map_err(|e| driver_err("synchronize", e))?;
    }
    Ok(open.iter().map(|g| g.index).collect())
}

/// The opened device `index` (opened on first use).
pub fn gpu(index: usize) -> Result<Arc<Gpu>> {
    let mut open = OPEN.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, g)) = open.iter().find(|(i, _)| *i == index) {
        return Ok(g.clone());
    }
    if let Err(why) = probe() {
        return Err(no_device(why.clone()));
    }
    let g = quietly(|| open_gpu(index))
        .unwrap_or_else(|| Err(no_device(panicked("a CUDA library"))))?;
    let g = Arc::new(g);
    open.push((index, g.clone()));
    Ok(g)
}

fn open_gpu(index: usize) -> Result<Gpu> {
    let ctx =
        CudaContext::new(index).map_err(|e| no_device(format!("cannot open cuda:{index}: {e}")))?;
    // One stream per device: its order is the only order, so cudarc's
    // per-buffer events (for sharing buffers between streams) are not needed.
    // SAFETY: no other stream of this context ever touches tsh's buffers.
    unsafe { ctx.disable_event_tracking() };
    let stream = ctx
        .new_stream()
        .map_err(|e| no_device(format!("cannot make a stream on cuda:{index}: {e}")))?;
    let name = ctx.name().unwrap_or_else(|_| "CUDA device".to_string());
    let (major, minor) = ctx.compute_capability().unwrap_or((7, 0));
    Ok(Gpu {
        index,
        name,
        arch: arch_name(major, minor),
        ctx,
        stream,
        blas: Mutex::new(None),
        modules: Mutex::new(HashMap::new()),
        functions: Mutex::new(HashMap::new()),
        pool: Mutex::new(Pool::default()),
    })
}

/// NVRTC's name for a compute capability (a 'static str, as cudarc wants).
fn arch_name(major: i32, minor: i32) -> &'static str {
    const KNOWN: &[(i32, i32, &str)] = &[
        (7, 0, "sm_70"),
        (7, 5, "sm_75"),
        (8, 0, "sm_80"),
        (8, 6, "sm_86"),
        (8, 7, "sm_87"),
        (8, 9, "sm_89"),
        (9, 0, "sm_90"),
        (10, 0, "sm_100"),
        (12, 0, "sm_120"),
    ];
    KNOWN
        .iter()
        .find(|k| k.0 == major && k.1 == minor)
        .map(|k| k.2)
        .unwrap_or_else(|| Box::leak(format!("sm_{major}{minor}").into_boxed_str()))
}

/// The devices found, for `:devices`: (index, name).
pub fn list() -> std::result::Result<Vec<(usize, String)>, String> {
    let n = probe().clone()?;
    Ok((0..n)
        .map(|i| {
            let name = gpu(i).map_or_else(
                |e| format!("(cannot open: {})", e.message),
                |g| g.name.clone(),
            );
            (i, name)
        })
        .collect())
}

/// Wait until every queued kernel and copy on every open device is done.
pub fn synchronize(index: usize) -> Result<()> {
    let g = gpu(index)?;
    g.stream
        .synchronize()
        .map_err(|e| driver_err("synchronize", e))
}

/// A driver failure as a `device` error.
pub fn driver_err(what: &str, e: impl std::fmt::Display) -> Error {
    device_err(format!("CUDA error during {what}: {e}"))
}
