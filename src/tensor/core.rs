//! `Tensor`: a layout over shared storage, plus the flags autograd will need.
//! Cloning a Tensor clones a handle (Python reference semantics); views share the
//! storage and differ only in layout.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::device::Device;
use super::dtype::DType;
use super::layout::{Layout, numel};
use super::promote::Operand;
use super::shape::fmt_shape;
use crate::autograd::Node;
use crate::backend::{Element, HostBuffer, Scalar, Storage};
use crate::error::{Error, ErrorKind, Result};

/// A storage buffer shared by a tensor and its views, with a version counter that
/// every in-place write bumps (autograd uses it to refuse stale saved tensors).
struct Shared {
    data: RwLock<Storage>,
    version: AtomicU64,
}

static NEXT_SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub struct Inner {
    storage: Arc<Shared>,
    layout: Layout,
    dtype: DType,
    device: Device,
    /// A Python number turned into a 0-d tensor: it takes part in type promotion
    /// with the lowest priority, as PyTorch's "wrapped numbers" do.
    wrapped: bool,
    /// Made by a view op (shares another tensor's storage through its own layout).
    is_view: bool,
    /// Creation order: of two tensors on one storage, the older is the base the
    /// newer one is "a view of" (the footer and :vars say so).
    seq: u64,
    /// Set on leaves by the user; a tensor with a grad_fn requires grad by definition.
    requires_grad: AtomicBool,
    /// The autograd node that made this tensor (none for leaves). A Mutex because an
    /// in-place op moves the tensor onto a new node.
    grad_fn: Mutex<Option<Arc<Node>>>,
    /// Whether grad_fn holds a node, readable without its lock: every op asks
    /// whether its inputs require grad, and the lock was most of that.
    has_grad_fn: AtomicBool,
    /// The accumulated gradient of a leaf.
    grad: Mutex<Option<Tensor>>,
    /// `t.grad_dtype` when set on a leaf: Some(None) lets a gradient of any
    /// dtype in, Some(Some(d)) casts gradients to d; unset means the tensor's
    /// own dtype.
    grad_dtype: Mutex<Option<Option<DType>>>,
    /// `register_hook` on a leaf: run on each gradient before it accumulates.
    hooks: crate::autograd::callback::Hooks,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Poisoning needs a panic while locked, and nothing panics while holding these.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone)]
pub struct Tensor(Arc<Inner>);

impl Tensor {
    /// What `id(t)` shows: one number per tensor object (views are other objects).
    pub fn identity(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// A reference that does not keep the tensor alive.
    pub fn downgrade(&self) -> WeakTensor {
        WeakTensor(Arc::downgrade(&self.0))
    }
}

/// A tensor held without keeping it alive (registries keyed by identity use it
/// so that a freed tensor's address, reused, is not mistaken for it).
#[derive(Clone, Debug)]
pub struct WeakTensor(std::sync::Weak<Inner>);

/// A tensor's storage buffer named without keeping its data alive (caches of
/// derived copies key on it): while this is held, no other storage can take
/// the same address, and the data goes when the last tensor on it does.
pub struct StorageRef(std::sync::Weak<Shared>);

impl StorageRef {
    /// Is `t` a view of this storage?
    pub fn holds(&self, t: &Tensor) -> bool {
        std::sync::Weak::as_ptr(&self.0) == Arc::as_ptr(&t.0.storage)
    }
    /// Does any tensor still use the storage?
    pub fn alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}

impl WeakTensor {
    pub fn alive(&self) -> bool {
        self.0.strong_count() > 0
    }

    /// Is this the (still living) tensor `t`?
    pub fn is(&self, t: &Tensor) -> bool {
        self.0.upgrade().is_some_and(|a| Arc::ptr_eq(&a, &t.0))
    }
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tensor({} {})", fmt_shape(self.shape()), self.dtype())
    }
}

/// The most bytes one new tensor may take: what the machine (and the cgroup the
/// process runs in, if it has a memory limit) has available right now, or
/// TSH_MEMORY_LIMIT when that is set. Asked afresh each time, since earlier
/// tensors use memory too: a request the system cannot back is a `memory`
/// error, not an out-of-memory kill.
pub fn memory_limit() -> u64 {
    let cap = MEMORY_CAP.load(std::sync::atomic::Ordering::Relaxed);
    if cap > 0 {
        return cap;
    }
    if let Some(v) = std::env::var("TSH_MEMORY_LIMIT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        return v;
    }
    let machine = meminfo_available().unwrap_or(16 << 30);
    match cgroup_room() {
        Some(room) => machine.min(room),
        None => machine,
    }
}

static MEMORY_CAP: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Cap what one tensor may take, in bytes, whatever the machine has (0: no cap).
/// The fuzzer uses it to keep inputs that ask for gigabytes fast.
pub fn set_memory_limit(bytes: u64) {
    MEMORY_CAP.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

fn meminfo_available() -> Option<u64> {
    let m = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Bytes left under a cgroup v2 memory limit (containers), if there is one.
fn cgroup_room() -> Option<u64> {
    let read = |f: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{f}")).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?; // "max" means no limit
    let current: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

/// Allocations below this size are not checked against the system: they cannot
/// exhaust it alone, and reading /proc for every small tensor would cost.
const CHECK_FROM_BYTES: u128 = 64 << 20;

pub fn human_bytes(b: u128) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} bytes")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Refuse, before allocating, a tensor larger than memory: a `memory` error, not an abort.
pub fn check_alloc(shape: &[usize], dtype: DType) -> Result<()> {
    check_working_set(shape, dtype, dtype.size())
}

/// `check_alloc` for ops that hold `per_element` bytes per element while they
/// build the tensor (a float64 or int64 buffer that is then cast, say): the peak,
/// not only the result, must fit.
pub fn check_working_set(shape: &[usize], dtype: DType, per_element: usize) -> Result<()> {
    // Small tensors (every op of a loop over them) answer in machine words.
    let per = per_element.max(dtype.size());
    if shape
        .iter()
        .try_fold(per, |bytes, &d| bytes.checked_mul(d))
        .is_some_and(|bytes| (bytes as u128) < CHECK_FROM_BYTES)
    {
        return Ok(());
    }
    let n: u128 = shape.iter().map(|&d| d as u128).product();
    let bytes = n * per_element.max(dtype.size()) as u128;
    if bytes < CHECK_FROM_BYTES {
        return Ok(());
    }
    let limit = memory_limit() as u128;
    if bytes > limit || n > isize::MAX as u128 / 16 {
        return Err(Error::new(
            ErrorKind::Memory,
            format!(
                "cannot allocate a {} {} tensor: it needs {} ({} bytes), more than the {} available",
                fmt_shape(shape),
                dtype,
                human_bytes(bytes),
                bytes,
                human_bytes(limit)
            ),
        ));
    }
    Ok(())
}

impl Tensor {
    fn make(
        storage: Arc<Shared>,
        layout: Layout,
        dtype: DType,
        device: Device,
        wrapped: bool,
        is_view: bool,
    ) -> Tensor {
        // Creation order without a locked read-modify-write, which drained
        // the store buffer on every tensor made: tensors are made on the
        // interpreter's thread, and all the order decides is which of two
        // views of one storage a footer calls the base.
        let seq = NEXT_SEQ.load(std::sync::atomic::Ordering::Relaxed);
        NEXT_SEQ.store(seq + 1, std::sync::atomic::Ordering::Relaxed);
        Tensor(Arc::new(Inner {
            storage,
            layout,
            dtype,
            device,
            wrapped,
            is_view,
            seq,
            requires_grad: AtomicBool::new(false),
            grad_fn: Mutex::new(None),
            has_grad_fn: AtomicBool::new(false),
            grad: Mutex::new(None),
            grad_dtype: Mutex::new(None),
            hooks: Default::default(),
        }))
    }

    pub fn from_storage(storage: Storage, layout: Layout) -> Tensor {
        let (dtype, device) = (storage.dtype(), storage.device());
        let shared = Arc::new(Shared {
            data: RwLock::new(storage),
            version: AtomicU64::new(0),
        });
        Tensor::make(shared, layout, dtype, device, false, false)
    }

    /// Host data of `shape` moved to `device`.
    pub fn from_host(h: HostBuffer, shape: &[usize], device: Device) -> Result<Tensor> {
        Ok(Tensor::from_contiguous(
            Storage::from_host(h, device)?,
            shape,
        ))
    }

    /// A contiguous tensor over `storage`, which must hold exactly `numel(shape)` elements.
    pub fn from_contiguous(storage: Storage, shape: &[usize]) -> Tensor {
        debug_assert_eq!(storage.len(), numel(shape));
        Tensor::from_storage(storage, Layout::contiguous(shape))
    }

    /// A CPU tensor of host values (literals, files, constants of shape arithmetic).
    pub fn from_vec<T: Element>(v: Vec<T>, shape: &[usize]) -> Tensor {
        Tensor::from_contiguous(Storage::Cpu(T::wrap(v)), shape)
    }

    pub fn scalar_f64(v: f64, dtype: DType) -> Tensor {
        Tensor::from_contiguous(
            Storage::Cpu(HostBuffer::full(1, dtype, Scalar::float(v))),
            &[],
        )
    }
    pub fn scalar_i64(v: i64, dtype: DType) -> Tensor {
        Tensor::from_contiguous(
            Storage::Cpu(HostBuffer::full(1, dtype, Scalar::int(v))),
            &[],
        )
    }

    /// A Python number as a wrapped 0-d tensor of `dtype` (int64, float64 or
    /// bool), made in one step: `x * 2.0` makes one each time it runs.
    pub fn wrapped_scalar(value: Scalar, dtype: DType) -> Tensor {
        let shared = Arc::new(Shared {
            data: RwLock::new(Storage::Cpu(HostBuffer::full(1, dtype, value))),
            version: AtomicU64::new(0),
        });
        Tensor::make(
            shared,
            Layout::contiguous(&[]),
            dtype,
            Device::Cpu,
            true,
            false,
        )
    }

    /// A 0-d tensor as a wrapped number (it shares the storage).
    pub fn wrapped_number(t: Tensor) -> Tensor {
        Tensor::make(
            t.0.storage.clone(),
            t.0.layout.clone(),
            t.0.dtype,
            t.0.device,
            true,
            false,
        )
    }

    /// A new tensor sharing this one's storage through another layout (no autograd
    /// history: view ops record theirs).
    pub fn view_with(&self, layout: Layout) -> Tensor {
        Tensor::make(
            self.0.storage.clone(),
            layout,
            self.0.dtype,
            self.0.device,
            false,
            true,
        )
    }

    /// The same storage seen as `dtype` through `layout`: how a complex tensor and
    /// its (re, im) pairs view each other (`tensor::complex` keeps the rules).
    pub(crate) fn reinterpret(&self, dtype: DType, layout: Layout) -> Tensor {
        Tensor::make(
            self.0.storage.clone(),
            layout,
            dtype,
            self.0.device,
            false,
            true,
        )
    }

    /// Another handle to the same data and layout without autograd history (a
    /// view only if this tensor is one).
    pub fn detached(&self) -> Tensor {
        Tensor::make(
            self.0.storage.clone(),
            self.0.layout.clone(),
            self.0.dtype,
            self.0.device,
            false,
            self.0.is_view,
        )
    }

    pub fn dtype(&self) -> DType {
        self.0.dtype
    }
    pub fn device(&self) -> Device {
        self.0.device
    }
    pub fn layout(&self) -> &Layout {
        &self.0.layout
    }
    pub fn shape(&self) -> &[usize] {
        &self.0.layout.shape
    }
    pub fn strides(&self) -> &[usize] {
        &self.0.layout.strides
    }
    pub fn offset(&self) -> usize {
        self.0.layout.offset
    }
    pub fn ndim(&self) -> usize {
        self.0.layout.ndim()
    }
    pub fn numel(&self) -> usize {
        self.0.layout.numel()
    }
    pub fn is_contiguous(&self) -> bool {
        self.0.layout.is_contiguous()
    }
    pub fn is_wrapped_number(&self) -> bool {
        self.0.wrapped
    }
    /// When this tensor was made, relative to others (larger is newer).
    pub fn seq(&self) -> u64 {
        self.0.seq
    }
    pub fn is_view(&self) -> bool {
        self.0.is_view
    }
    /// Does autograd track this tensor: a leaf marked by the user, or an op's result?
    pub fn requires_grad(&self) -> bool {
        self.0.requires_grad.load(Ordering::Relaxed) || self.0.has_grad_fn.load(Ordering::Acquire)
    }
    pub fn set_requires_grad(&self, on: bool) {
        self.0.requires_grad.store(on, Ordering::Relaxed)
    }
    pub fn is_leaf(&self) -> bool {
        !self.0.has_grad_fn.load(Ordering::Acquire)
    }
    pub fn grad_fn(&self) -> Option<Arc<Node>> {
        if !self.0.has_grad_fn.load(Ordering::Acquire) {
            return None;
        }
        lock(&self.0.grad_fn).clone()
    }
    pub fn set_grad_fn(&self, node: Option<Arc<Node>>) {
        let mut slot = lock(&self.0.grad_fn);
        self.0.has_grad_fn.store(node.is_some(), Ordering::Release);
        *slot = node;
    }
    /// A leaf's gradient hooks.
    pub fn leaf_hooks(&self) -> &crate::autograd::callback::Hooks {
        &self.0.hooks
    }
    pub fn grad(&self) -> Option<Tensor> {
        lock(&self.0.grad).clone()
    }
    pub fn set_grad(&self, g: Option<Tensor>) {
        *lock(&self.0.grad) = g;
    }
    /// How many in-place writes the storage has seen.
    /// The dtype `.grad` must have (None: any), as PyTorch's `grad_dtype`.
    pub fn grad_dtype(&self) -> Option<DType> {
        lock(&self.0.grad_dtype).unwrap_or(Some(self.dtype()))
    }
    pub fn set_grad_dtype(&self, d: Option<DType>) {
        *lock(&self.0.grad_dtype) = Some(d);
    }
    pub fn version(&self) -> u64 {
        self.0.storage.version.load(Ordering::Relaxed)
    }
    /// Is this the only handle on its memory (no other tensor, view or weak
    /// reference), laid out over the whole of it? Then it can be kept as is
    /// where a copy would otherwise be taken (a leaf's first gradient).
    pub fn is_sole_owner(&self) -> bool {
        Arc::strong_count(&self.0) == 1
            && Arc::weak_count(&self.0) == 0
            && Arc::strong_count(&self.0.storage) == 1
            && Arc::weak_count(&self.0.storage) == 0
            && self.is_contiguous()
            && self.offset() == 0
            && self.numel() == self.storage_len()
    }
    /// Its storage, named without being kept alive.
    pub fn storage_ref(&self) -> StorageRef {
        StorageRef(Arc::downgrade(&self.0.storage))
    }
    /// Do the two tensors share a storage buffer (one is a view of the other)?
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.0.storage, &other.0.storage)
    }
    /// What `t.data_ptr()` shows: where the first element sits (views of one
    /// storage differ by their offset).
    pub fn data_ptr(&self) -> usize {
        Arc::as_ptr(&self.0.storage) as usize + self.offset() * self.dtype().size()
    }
    pub fn same_tensor(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    pub fn storage_len(&self) -> usize {
        self.read().len()
    }

    /// Shared access to the storage. Poisoning cannot happen (kernels do not panic
    /// on user input), but if it did the data is still valid, so it is used.
    pub fn read(&self) -> RwLockReadGuard<'_, Storage> {
        self.0
            .storage
            .data
            .read()
            .unwrap_or_else(|e| e.into_inner())
    }
    pub fn write(&self) -> RwLockWriteGuard<'_, Storage> {
        self.0.storage.version.fetch_add(1, Ordering::Relaxed);
        self.0
            .storage
            .data
            .write()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// How promotion sees this tensor.
    pub fn operand(&self) -> Operand {
        if self.0.wrapped {
            Operand::Scalar(self.dtype())
        } else {
            Operand::Tensor {
                dtype: self.dtype(),
                zero_dim: self.ndim() == 0,
            }
        }
    }

    /// The elements, row-major, copied to host memory: the one way data leaves a
    /// device (printing, `item`/`tolist`, files, `:set stats`). A complex tensor
    /// gives its (re, im) pairs, two real elements each.
    pub fn to_host(&self) -> Result<HostBuffer> {
        if self.dtype().is_complex() {
            return self.view_as_real()?.to_host();
        }
        self.read().to_host(self.layout())
    }
    /// `to_host`, as f64 / i64 values.
    pub fn to_host_f64(&self) -> Result<Vec<f64>> {
        Ok(self.to_host()?.to_f64_vec())
    }
    pub fn to_host_i64(&self) -> Result<Vec<i64>> {
        Ok(self.to_host()?.to_i64_vec())
    }

    /// A fresh contiguous tensor with this one's elements in `dtype`, on its device.
    fn copied(&self, dtype: DType) -> Result<Tensor> {
        check_alloc(self.shape(), dtype)?;
        if self.dtype().is_complex() || dtype.is_complex() {
            return super::complex::cast(self, dtype);
        }
        let s = self.read().cast(self.layout(), dtype)?;
        Ok(Tensor::from_contiguous(s, self.shape()))
    }

    pub fn contiguous(&self) -> Result<Tensor> {
        if self.is_contiguous() {
            return Ok(self.clone());
        }
        let out = self.copied(self.dtype())?;
        Ok(crate::autograd::rules::elementwise::record_identity(
            "CloneBackward0",
            self,
            out,
        ))
    }

    /// A copy in another dtype (a fresh contiguous tensor; the same tensor if unchanged).
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        if dtype == self.dtype() {
            return Ok(self.clone());
        }
        let out = self.copied(dtype)?;
        Ok(crate::autograd::rules::elementwise::record_identity(
            "ToCopyBackward0",
            self,
            out,
        ))
    }

    /// An independent contiguous copy.
    pub fn deep_clone(&self) -> Result<Tensor> {
        let out = self.copied(self.dtype())?;
        Ok(crate::autograd::rules::elementwise::record_identity(
            "CloneBackward0",
            self,
            out,
        ))
    }

    /// A copy on `device` (the same tensor if it is there already).
    pub fn to_device(&self, device: Device) -> Result<Tensor> {
        if device == self.device() {
            return Ok(self.clone());
        }
        let host = self.to_host()?;
        let out = if self.dtype().is_complex() {
            Tensor::complex_from_host(host, self.shape(), device, self.dtype())?
        } else {
            Tensor::from_host(host, self.shape(), device)?
        };
        Ok(crate::autograd::rules::elementwise::record_identity(
            "ToCopyBackward0",
            self,
            out,
        ))
    }
}
