//! An element-wise program (tensor/op/program.rs) in one pass over memory:
//! every step runs on a block of a few hundred elements that stays in the
//! first-level cache, and the written operands take their final values at the
//! end of each block. The steps are the op rows' own block kernels, so each
//! result has the bits the ops give one by one (Adam's step was seven passes
//! and five new buffers, then a copy into the parameter).

use super::elem::{CpuStorage, Element};
use super::elementwise::float_ternary_block;
use super::kernels::{BinaryKernels, UnaryKernels, binary_kernels, unary_kernels};
use super::scratch::{Out, filled_vec, written};
use super::strided::parallel;
use crate::tensor::op::TernaryOp;
use crate::tensor::op::program::{Arg, Inst, Program};

/// Elements per block: an optimizer's dozen live blocks of float64 fit in
/// 48 KiB.
const CHUNK: usize = 512;

/// One operand's contiguous run of elements.
pub enum Access<'a> {
    Read(&'a CpuStorage, usize),
    Write(&'a mut CpuStorage, usize),
}

enum Run<'a, T> {
    Read(&'a [T]),
    Write(&'a mut [T]),
    /// A fresh output's slots: written, never read.
    Fresh(&'a mut [Out<T>]),
}

impl<T> Run<'_, T> {
    /// What a step reads (nothing of a fresh output: run_fresh checks that
    /// no step reads it).
    fn get(&self) -> &[T] {
        match self {
            Run::Read(s) => s,
            Run::Write(s) => s,
            Run::Fresh(_) => &[],
        }
    }

    fn len(&self) -> usize {
        match self {
            Run::Read(s) => s.len(),
            Run::Write(s) => s.len(),
            Run::Fresh(s) => s.len(),
        }
    }
}

/// Runs `program` over `n` elements of each operand: false (nothing
/// written) unless every operand is float32, or every one float64.
pub fn run(program: &Program, operands: Vec<Access<'_>>, n: usize) -> bool {
    match operands.first() {
        Some(Access::Read(s, _)) if s.dtype() == crate::tensor::DType::F64 => {
            typed::<f64>(program, operands, n)
        }
        Some(Access::Write(s, _)) if s.dtype() == crate::tensor::DType::F64 => {
            typed::<f64>(program, operands, n)
        }
        _ => typed::<f32>(program, operands, n),
    }
}

fn typed<T: Element>(program: &Program, operands: Vec<Access<'_>>, n: usize) -> bool {
    let mut runs = Vec::with_capacity(operands.len());
    for a in operands {
        let run = match a {
            Access::Read(s, at) => T::slice(s).and_then(|v| v.get(at..at + n)).map(Run::Read),
            Access::Write(s, at) => T::slice_mut(s)
                .and_then(|v| v.get_mut(at..at + n))
                .map(Run::Write),
        };
        let Some(run) = run else { return false };
        runs.push(run);
    }
    execute(program, runs, n);
    true
}

/// Runs `program` over `n` elements of each input into a fresh buffer,
/// which takes the program's one output (operand `inputs.len()`, which no
/// step may read): written once, never filled first (a fresh `addcmul`
/// zero-filled its result, a quarter of its time). None unless every input
/// is float32, or every one float64.
pub fn run_fresh(
    program: &Program,
    inputs: Vec<(&CpuStorage, usize)>,
    n: usize,
) -> Option<CpuStorage> {
    let fresh = inputs.len();
    let reads_fresh = program.steps.iter().any(|s| {
        s.args[..s.inst.arity()]
            .iter()
            .any(|a| matches!(a, Arg::In(i) if *i == fresh))
    });
    let one_output = matches!(&program.outputs[..], [(o, _)] if *o == fresh);
    if reads_fresh || !one_output {
        return None;
    }
    match inputs.first() {
        Some((s, _)) if s.dtype() == crate::tensor::DType::F64 => {
            fresh_typed::<f64>(program, inputs, n)
        }
        Some(_) => fresh_typed::<f32>(program, inputs, n),
        None => None,
    }
}

fn fresh_typed<T: Element>(
    program: &Program,
    inputs: Vec<(&CpuStorage, usize)>,
    n: usize,
) -> Option<CpuStorage> {
    let mut reads = Vec::with_capacity(inputs.len());
    for (s, at) in inputs {
        reads.push(T::slice(s)?.get(at..at + n)?);
    }
    let out = filled_vec(n, |out| {
        let mut runs: Vec<Run<'_, T>> = reads.into_iter().map(Run::Read).collect();
        runs.push(Run::Fresh(out));
        // Every element of the fresh run is written: by the last step of
        // each block where that step makes the output, else by the copy of
        // the output's block after the block's steps (Task::run).
        execute(program, runs, n);
    });
    Some(T::wrap(out))
}

/// The program over the runs (each `n` long), on every core where it pays.
fn execute<T: Element>(program: &Program, runs: Vec<Run<'_, T>>, n: usize) {
    let kernels: Vec<Kernel> = program.steps.iter().map(|s| Kernel::of(s.inst)).collect();
    let work = |task: Vec<Run<'_, T>>| Task::new(program, &kernels).run(task);
    if parallel(n * program.steps.len()) {
        let mut tasks = split(
            runs,
            n.div_ceil(4 * crate::threads::count()).div_ceil(CHUNK) * CHUNK,
        );
        let each_task = crate::threads::ChunksMut::new(&mut tasks, 1);
        crate::threads::zip(each_task, |_, task| work(std::mem::take(&mut task[0])));
    } else {
        work(runs);
    }
}

/// Each operand cut into consecutive pieces of `len` elements, piece by piece.
fn split<T: Send + Sync>(runs: Vec<Run<'_, T>>, len: usize) -> Vec<Vec<Run<'_, T>>> {
    let mut tasks: Vec<Vec<Run<'_, T>>> = Vec::new();
    for run in runs {
        let pieces: Vec<Run<'_, T>> = match run {
            Run::Read(s) => s.chunks(len).map(Run::Read).collect(),
            Run::Write(s) => s.chunks_mut(len).map(Run::Write).collect(),
            Run::Fresh(s) => s.chunks_mut(len).map(Run::Fresh).collect(),
        };
        tasks.resize_with(pieces.len(), Vec::new);
        for (t, p) in tasks.iter_mut().zip(pieces) {
            t.push(p);
        }
    }
    tasks
}

/// A step's kernel, looked up once per program.
enum Kernel {
    Unary(UnaryKernels),
    Binary(BinaryKernels),
    Ternary(TernaryOp),
}

impl Kernel {
    fn of(inst: Inst) -> Kernel {
        match inst {
            Inst::Unary(op) => Kernel::Unary(unary_kernels(op)),
            Inst::Binary(op) => Kernel::Binary(binary_kernels(op)),
            Inst::Ternary(op) => Kernel::Ternary(op),
        }
    }
}

/// One thread's scratch: a block per slot, and the numbers filled into
/// blocks (as an op fills a broadcast scalar).
struct Task<'p, T> {
    program: &'p Program,
    kernels: &'p [Kernel],
    slots: Vec<Vec<Out<T>>>,
    numbers: Vec<(u64, Vec<T>)>,
}

impl<'p, T: Element> Task<'p, T> {
    fn new(program: &'p Program, kernels: &'p [Kernel]) -> Self {
        let mut numbers: Vec<(u64, Vec<T>)> = Vec::new();
        for s in &program.steps {
            for a in &s.args[..s.inst.arity()] {
                if let Arg::Num(v) = a
                    && !numbers.iter().any(|(b, _)| *b == v.to_bits())
                {
                    numbers.push((v.to_bits(), vec![T::from_f64(*v); CHUNK]));
                }
            }
        }
        let block = || (0..CHUNK).map(|_| Out::uninit()).collect();
        Task {
            program,
            kernels,
            slots: (0..program.slots).map(|_| block()).collect(),
            numbers,
        }
    }

    fn run(mut self, mut runs: Vec<Run<'_, T>>) {
        let len = runs.first().map_or(0, |r| r.len());
        // A fresh output (run_fresh's, which no step reads) is taken out of
        // the runs; where the last step makes it, that step writes into it
        // directly, and no block is copied.
        let mut fresh: Option<(usize, &mut [Out<T>])> = None;
        for (i, r) in runs.iter_mut().enumerate() {
            if let Run::Fresh(_) = r
                && let Run::Fresh(d) = std::mem::replace(r, Run::Read(&[]))
            {
                fresh = Some((i, d));
            }
        }
        let last = self.program.steps.len().wrapping_sub(1);
        let direct = match (&fresh, self.program.steps.last()) {
            (Some((i, _)), Some(s)) => self.program.outputs == [(*i, s.out)],
            _ => false,
        };
        for at in (0..len).step_by(CHUNK) {
            let n = CHUNK.min(len - at);
            for (j, (s, k)) in self.program.steps.iter().zip(self.kernels).enumerate() {
                // The result's slot is never an argument's (Program::allocate).
                let mut out = std::mem::take(&mut self.slots[s.out]);
                let arg = |i: usize| -> &[T] {
                    match s.args[i] {
                        Arg::In(o) => &runs[o].get()[at..at + n],
                        // SAFETY: an earlier step of this block wrote the
                        // slot's first n elements (steps are in order, and a
                        // value is read only after the step that makes it).
                        Arg::Tmp(t) => unsafe { written(&self.slots[t][..n]) },
                        Arg::Num(v) => self.number(v, n),
                    }
                };
                let dst = match &mut fresh {
                    Some((_, d)) if direct && j == last => &mut d[at..at + n],
                    _ => &mut out[..n],
                };
                match k {
                    Kernel::Unary(k) => T::unary_block(arg(0), dst, k),
                    Kernel::Binary(k) => T::binary_block(arg(0), arg(1), dst, k),
                    Kernel::Ternary(op) => float_ternary_block(*op, arg(0), arg(1), arg(2), dst),
                }
                self.slots[s.out] = out;
            }
            if direct {
                continue;
            }
            for &(o, slot) in &self.program.outputs {
                // SAFETY: the step that made the output wrote its first n.
                let src = unsafe { written(&self.slots[slot][..n]) };
                match (&mut runs[o], &mut fresh) {
                    (Run::Write(d), _) => d[at..at + n].copy_from_slice(src),
                    (_, Some((i, d))) if *i == o => {
                        for (d, &x) in d[at..at + n].iter_mut().zip(src) {
                            d.write(x);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn number(&self, v: f64, n: usize) -> &[T] {
        let bits = v.to_bits();
        let found = self.numbers.iter().find(|(b, _)| *b == bits);
        // Task::new filled a block for every number the steps use.
        found.map_or(&[][..], |(_, block)| &block[..n])
    }
}
