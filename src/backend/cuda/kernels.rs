//! The kernel sources (kernels/*.cu), compiled by NVRTC for the device's
//! architecture the first time one of their kernels is needed, with the PTX
//! kept on disk by a hash of the source and the architecture so that later
//! processes skip the compiler. Also the layout every kernel reads its operands
//! through (`Strided`) and the launch geometry.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, DeviceRepr, LaunchConfig};
use cudarc::nvrtc::{CompileOptions, Ptx};

use super::device::{Gpu, driver_err};
use crate::error::{Result, device_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::{BINARY_ROWS, UNARY_ROWS};

/// A kernel source file, compiled as one module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Copy,
    Elementwise,
    Reduce,
    Index,
    Window,
    Random,
    Matmul,
    Norm,
}

pub const SOURCES: [Source; 8] = [
    Source::Copy,
    Source::Elementwise,
    Source::Reduce,
    Source::Index,
    Source::Window,
    Source::Random,
    Source::Matmul,
    Source::Norm,
];

const PRELUDE: &str = include_str!("../../../kernels/prelude.cuh");

impl Source {
    pub fn file(self) -> &'static str {
        match self {
            Source::Copy => "copy.cu",
            Source::Elementwise => "elementwise.cu",
            Source::Reduce => "reduce.cu",
            Source::Index => "index.cu",
            Source::Window => "window.cu",
            Source::Random => "random.cu",
            Source::Matmul => "matmul.cu",
            Source::Norm => "norm.cu",
        }
    }
    fn body(self) -> &'static str {
        match self {
            Source::Copy => include_str!("../../../kernels/copy.cu"),
            Source::Elementwise => include_str!("../../../kernels/elementwise.cu"),
            Source::Reduce => include_str!("../../../kernels/reduce.cu"),
            Source::Index => include_str!("../../../kernels/index.cu"),
            Source::Window => include_str!("../../../kernels/window.cu"),
            Source::Random => include_str!("../../../kernels/random.cu"),
            Source::Matmul => include_str!("../../../kernels/matmul.cu"),
            Source::Norm => include_str!("../../../kernels/norm.cu"),
        }
    }
    /// The whole text NVRTC compiles: the op codes, the prelude, the file.
    pub fn text(self) -> String {
        format!("{}\n{PRELUDE}\n{}", defines(), self.body())
    }
}

/// `Deg2Rad` → `DEG2_RAD`: the names the kernels' switches use.
fn screaming(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

pub const PREDICATES: [&str; 6] = [
    "IsNan",
    "IsInf",
    "IsPosInf",
    "IsNegInf",
    "IsFinite",
    "LogicalNot",
];
pub const REDUCTIONS: [&str; 14] = [
    "Sum",
    "Prod",
    "Mean",
    "Max",
    "Min",
    "ArgMax",
    "ArgMin",
    "Var",
    "Std",
    "All",
    "Any",
    "Norm",
    "LogSumExp",
    "CountNonzero",
];
pub const SCANS: [&str; 4] = ["Sum", "Prod", "Max", "Min"];
pub const TERNARIES: [&str; 4] = ["Where", "Clamp", "Lerp", "AddScaled"];

/// The op and dtype codes as #defines, numbered as the host's enums are (the
/// kernels switch on the same numbers the host passes).
pub fn defines() -> String {
    let mut s = String::from("// op and dtype codes, written by src/backend/cuda/kernels.rs\n");
    let mut group = |prefix: &str, names: &mut dyn Iterator<Item = String>| {
        for (i, n) in names.enumerate() {
            s.push_str(&format!("#define {prefix}_{} {i}\n", screaming(&n)));
        }
    };
    group("U", &mut UNARY_ROWS.iter().map(|r| format!("{:?}", r.op)));
    group("B", &mut BINARY_ROWS.iter().map(|r| format!("{:?}", r.op)));
    group("P", &mut PREDICATES.iter().map(|n| n.to_string()));
    group("R", &mut REDUCTIONS.iter().map(|n| n.to_string()));
    group("S", &mut SCANS.iter().map(|n| n.to_string()));
    group("T", &mut TERNARIES.iter().map(|n| n.to_string()));
    // Dtype codes are DType's order; their names are the kernel suffixes.
    for d in crate::tensor::dtype::ALL_DTYPES {
        s.push_str(&format!(
            "#define DT_{} {}\n",
            suffix(d).to_ascii_uppercase(),
            dtype_code(d)
        ));
    }
    s
}

/// A dtype's kernel-name suffix (`unary_f32`) and its code in `DT_*`.
pub fn suffix(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::U8 => "u8",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        // Complex data reaches a backend only as its real pairs.
        DType::F32 | DType::C64 => "f32",
        DType::F64 | DType::C128 => "f64",
    }
}

pub fn dtype_code(d: DType) -> i32 {
    d as i32
}

/// FNV-1a: a stable hash for the PTX cache's file names.
fn fnv(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0u8]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

fn cache_dir() -> Option<std::path::PathBuf> {
    if let Some(d) = std::env::var_os("TSH_KERNEL_CACHE") {
        return Some(d.into());
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache")))?;
    Some(base.join("tsh").join("kernels"))
}

/// Compile `text` for `arch` with NVRTC; the compiler's log on failure.
pub fn compile(text: &str, name: &str, arch: &'static str) -> std::result::Result<Ptx, String> {
    let opts = CompileOptions {
        arch: Some(arch),
        options: vec!["--std=c++17".to_string()],
        name: Some(name.to_string()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(text, opts).map_err(|e| format!("{e:?}"))
}

impl Gpu {
    fn module(&self, src: Source) -> Result<Arc<CudaModule>> {
        let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = modules.get(src.file()) {
            return Ok(m.clone());
        }
        let text = src.text();
        let key = format!("{:016x}", fnv(&[&text, self.arch, &self.name]));
        let path = cache_dir().map(|d| d.join(format!("{}-{}-{key}.ptx", src.file(), self.arch)));
        // A cached PTX that no longer loads (a new driver) is compiled afresh.
        let cached = path
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|ptx| self.ctx.load_module(Ptx::from_src(ptx)).ok());
        let m = match cached {
            Some(m) => m,
            None => {
                let ptx = super::device::quietly(|| compile(&text, src.file(), self.arch))
                    .unwrap_or_else(|| {
                        Err("the CUDA runtime compiler (NVRTC) could not be loaded".into())
                    })
                    .map_err(|log| {
                        device_err(format!("cannot compile kernels/{}: {log}", src.file()))
                    })?;
                if let Some(p) = &path {
                    write_atomically(p, &ptx.to_src());
                }
                self.ctx
                    .load_module(ptx)
                    .map_err(|e| driver_err(&format!("loading kernels/{}", src.file()), e))?
            }
        };
        modules.insert(src.file(), m.clone());
        Ok(m)
    }

    /// The kernel `name` of `src`.
    pub fn function(&self, src: Source, name: &str) -> Result<CudaFunction> {
        if let Some(f) = self
            .functions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
        {
            return Ok(f.clone());
        }
        let f = self
            .module(src)?
            .load_function(name)
            .map_err(|e| driver_err(&format!("finding kernel {name}"), e))?;
        self.functions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_string(), f.clone());
        Ok(f)
    }
}

/// Best effort: a cache that cannot be written only costs a compile next time.
fn write_atomically(path: &std::path::Path, text: &str) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// The most dims a kernel layout has after merging (MAXD in prelude.cuh).
pub const MAXD: usize = 12;

/// A layout as the kernels take it (struct Strided in prelude.cuh).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Strided {
    pub offset: i64,
    pub ndim: i64,
    pub shape: [i64; MAXD],
    pub stride: [i64; MAXD],
}

// SAFETY: plain integers, laid out as the C struct.
unsafe impl DeviceRepr for Strided {}

impl Strided {
    /// A layout exactly as given (kernels that need every dim, e.g. windows).
    pub fn exact(l: &Layout) -> Result<Strided> {
        if l.ndim() > MAXD {
            return Err(too_many_dims(l.ndim()));
        }
        let mut s = Strided {
            offset: l.offset as i64,
            ndim: l.ndim() as i64,
            shape: [1; MAXD],
            stride: [0; MAXD],
        };
        for d in 0..l.ndim() {
            s.shape[d] = l.shape[d] as i64;
            s.stride[d] = l.strides[d] as i64;
        }
        Ok(s)
    }

    pub fn contiguous(shape: &[usize]) -> Result<Strided> {
        Strided::exact(&Layout::contiguous(shape))
    }
}

fn too_many_dims(n: usize) -> crate::error::Error {
    device_err(format!(
        "this CUDA kernel takes views of at most {MAXD} dims that cannot be merged, but got {n}"
    ))
    .hint("call .contiguous() first")
}

/// Layouts of one shape, with the dims merged that every one of them lets
/// merge (a contiguous tensor becomes one dim) and dims of size 1 dropped: the
/// kernels then do less index arithmetic, and most views fit in MAXD.
pub fn merged(ls: &[&Layout]) -> Result<Vec<Strided>> {
    let shape = &ls[0].shape;
    let keep: Vec<usize> = (0..shape.len()).filter(|&d| shape[d] != 1).collect();
    let mut dims: Vec<(usize, Vec<usize>)> = Vec::new(); // (size, stride per layout)
    for &d in &keep {
        let strides: Vec<usize> = ls.iter().map(|l| l.strides[d]).collect();
        if let Some((size, prev)) = dims.last_mut()
            && prev.iter().zip(&strides).all(|(&p, &s)| p == s * shape[d])
        {
            *size *= shape[d];
            *prev = strides;
            continue;
        }
        dims.push((shape[d], strides));
    }
    if dims.len() > MAXD {
        return Err(too_many_dims(dims.len()));
    }
    Ok(ls
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let mut s = Strided {
                offset: l.offset as i64,
                ndim: dims.len() as i64,
                shape: [1; MAXD],
                stride: [0; MAXD],
            };
            for (d, (size, strides)) in dims.iter().enumerate() {
                s.shape[d] = *size as i64;
                s.stride[d] = strides[k] as i64;
            }
            s
        })
        .collect())
}

/// Threads per block of the element-wise kernels (and RED_THREADS).
pub const THREADS: u32 = 256;

/// A grid for `n` elements in grid-stride loops: enough blocks to fill a GPU,
/// never more than there is work for.
pub fn grid(n: usize) -> LaunchConfig {
    let blocks = n.div_ceil(THREADS as usize).clamp(1, 16_384) as u32;
    LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// One block of `threads`, and `blocks` of them.
pub fn blocks(blocks: usize, threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (blocks.clamp(1, 65_535) as u32, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Launch errors as `device` errors.
pub fn launched<T>(
    name: &str,
    r: std::result::Result<T, cudarc::driver::DriverError>,
) -> Result<()> {
    r.map(|_| ())
        .map_err(|e| driver_err(&format!("kernel {name}"), e))
}
