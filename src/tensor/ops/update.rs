//! In-place element-wise updates of a few same-shaped tensors, written as the
//! in-place ops PyTorch's code runs (an optimizer's step: `exp_avg.lerp_(g,
//! 1 - beta1)`, `param.addcdiv_(exp_avg, denom, value=-step_size)`) and run
//! as one program (tensor/op/program.rs): on the CPU in one pass over memory,
//! elsewhere op by op with the tensor ops. Either way each op rounds as the op
//! itself does, so the bits are the ops'.

use std::sync::{RwLockReadGuard, RwLockWriteGuard};

use crate::backend::{Access, Storage};
use crate::error::{Result, value_err};
use crate::tensor::op::program::{Arg, Inst, Program, Step};
use crate::tensor::op::{BinaryOp, TernaryOp, UnaryOp};
use crate::tensor::{DType, Tensor};

use super::arith::num;
use super::elementwise::{binary, fused_multiply_add, lerp, unary};
use super::index::write_all;

/// An operand's storage, held for the program's run.
enum Guard<'a> {
    Read(RwLockReadGuard<'a, Storage>),
    Write(RwLockWriteGuard<'a, Storage>),
}

/// A value in an update: an operand (as the update has left it so far) or
/// a step's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Var(usize);

/// A step's argument: a value or a Python number.
#[derive(Clone, Copy, Debug)]
pub enum V {
    Var(Var),
    Num(f64),
}

impl From<Var> for V {
    fn from(v: Var) -> V {
        V::Var(v)
    }
}

impl From<f64> for V {
    fn from(x: f64) -> V {
        V::Num(x)
    }
}

/// An update being written: its operands, its steps (step i makes value
/// i), and what each variable holds now.
pub struct Update {
    operands: Vec<Tensor>,
    /// Operand i's variable.
    operand_vars: Vec<usize>,
    vars: Vec<Arg>,
    steps: Vec<Step>,
    /// The dtype the ops compute in: float32 and float64 have fused
    /// multiply-adds (add with alpha, addcmul), other dtypes round twice.
    fused: bool,
}

/// Whether `t` can be updated in place, in one pass, from `others`: all
/// float32 or float64 of t's dtype and shape, none sharing t's memory, and
/// nothing recording (else the caller computes out of place).
pub fn fits_in_place(t: &Tensor, others: &[&Tensor]) -> bool {
    let dtype = t.dtype();
    matches!(dtype, DType::F32 | DType::F64)
        && others
            .iter()
            .all(|o| o.dtype() == dtype && o.shape() == t.shape() && !o.shares_storage(t))
        && !crate::autograd::needs_grad(&[t])
        && !crate::autograd::needs_grad(others)
}

impl Update {
    pub fn new(dtype: DType) -> Update {
        Update {
            operands: Vec::new(),
            operand_vars: Vec::new(),
            vars: Vec::new(),
            steps: Vec::new(),
            fused: matches!(dtype, DType::F32 | DType::F64),
        }
    }

    /// A tensor the update reads, and writes where `set` says so. The same
    /// tensor twice is one operand (`v.addcmul_(g, g)`).
    pub fn operand(&mut self, t: &Tensor) -> Var {
        if let Some(i) = self.operands.iter().position(|o| o.same_tensor(t)) {
            return Var(self.operand_vars[i]);
        }
        self.operands.push(t.clone());
        self.vars.push(Arg::In(self.operands.len() - 1));
        self.operand_vars.push(self.vars.len() - 1);
        Var(self.vars.len() - 1)
    }

    /// `x` holds `value` from here on (an in-place op's result); for an
    /// operand, its final value is written back.
    pub fn set(&mut self, x: Var, value: Var) {
        self.vars[x.0] = self.vars[value.0];
    }

    fn arg(&self, v: V) -> Arg {
        match v {
            V::Var(x) => self.vars[x.0],
            V::Num(n) => Arg::Num(n),
        }
    }

    fn step<const N: usize>(&mut self, inst: Inst, args: [V; N]) -> Var {
        let mut all = [Arg::Num(0.0); 3];
        for (slot, a) in all.iter_mut().zip(args) {
            *slot = self.arg(a);
        }
        self.steps.push(Step {
            inst,
            args: all,
            out: 0,
        });
        self.vars.push(Arg::Tmp(self.steps.len() - 1));
        Var(self.vars.len() - 1)
    }

    pub fn unary(&mut self, op: UnaryOp, x: Var) -> Var {
        self.step(Inst::Unary(op), [x.into()])
    }
    pub fn binary(&mut self, op: BinaryOp, a: impl Into<V>, b: impl Into<V>) -> Var {
        self.step(Inst::Binary(op), [a.into(), b.into()])
    }
    pub fn mul(&mut self, a: impl Into<V>, b: impl Into<V>) -> Var {
        self.binary(BinaryOp::Mul, a, b)
    }
    pub fn div(&mut self, a: impl Into<V>, b: impl Into<V>) -> Var {
        self.binary(BinaryOp::Div, a, b)
    }
    pub fn add(&mut self, a: impl Into<V>, b: impl Into<V>) -> Var {
        self.binary(BinaryOp::Add, a, b)
    }
    pub fn sqrt(&mut self, x: Var) -> Var {
        self.unary(UnaryOp::Sqrt, x)
    }
    /// `start.lerp(end, w)`.
    pub fn lerp(&mut self, start: Var, end: Var, w: f64) -> Var {
        self.step(
            Inst::Ternary(TernaryOp::Lerp),
            [start.into(), end.into(), w.into()],
        )
    }
    /// `a.add(b, alpha=k)`: one fused multiply-add in float32 and float64.
    pub fn add_scaled(&mut self, a: Var, b: Var, k: f64) -> Var {
        if self.fused {
            return self.step(
                Inst::Ternary(TernaryOp::AddScaled),
                [a.into(), b.into(), k.into()],
            );
        }
        let scaled = self.mul(b, k);
        self.add(a, scaled)
    }
    /// `x.addcmul(t1, t2, value=k)`: x + (k·t1)·t2, the last two as one fused
    /// multiply-add in float32 and float64 (as ATen's loop contracts it).
    pub fn addcmul(&mut self, x: Var, t1: Var, t2: Var, k: f64) -> Var {
        let scaled = self.mul(k, t1);
        if self.fused {
            return self.step(
                Inst::Ternary(TernaryOp::AddScaled),
                [x.into(), scaled.into(), t2.into()],
            );
        }
        let term = self.mul(scaled, t2);
        self.add(x, term)
    }
    /// `x.addcdiv(t1, t2, value=k)`: x + (k·t1)/t2.
    pub fn addcdiv(&mut self, x: Var, t1: Var, t2: Var, k: f64) -> Var {
        let scaled = self.mul(k, t1);
        let term = self.div(scaled, t2);
        self.add(x, term)
    }
    /// A copy of x's value (`t.clone()`): a product with 1, which is exact.
    pub fn copy(&mut self, x: Var) -> Var {
        self.mul(x, 1.0)
    }

    /// Runs the update: every operand `set` gave a new value takes it.
    pub fn run(mut self) -> Result<()> {
        let mut outputs = Vec::new();
        for (i, &var) in self.operand_vars.clone().iter().enumerate() {
            match self.vars[var] {
                Arg::In(j) if j == i => {}
                // Set to another operand's value: written from a copy, so
                // that no write-back reads what another has written.
                Arg::In(_) => {
                    let copy = self.copy(Var(var));
                    outputs.push((i, self.step_of(copy)?));
                }
                // A value that an operand takes already: a copy of its own
                // for this one (op by op, a fresh result's buffer is handed
                // to the first operand, not copied).
                Arg::Tmp(s) if outputs.iter().any(|&(_, t)| t == s) => {
                    let copy = self.copy(Var(var));
                    outputs.push((i, self.step_of(copy)?));
                }
                Arg::Tmp(s) => outputs.push((i, s)),
                Arg::Num(_) => {
                    return Err(value_err("internal: an update set an operand to a number"));
                }
            }
        }
        if self.fused_run(&outputs)? {
            return Ok(());
        }
        self.op_by_op(&outputs)
    }

    /// Runs the update into a fresh tensor that takes `value`, writing no
    /// operand (`torch.addcmul(x, a, b)`): one pass on a backend that runs
    /// programs, where every operand is one contiguous run of the same shape
    /// and float dtype and nothing records. None elsewhere: nothing ran.
    pub fn run_fresh(self, value: Var) -> Result<Option<Tensor>> {
        let Some(all) = self.as_one_run() else {
            return Ok(None);
        };
        let program =
            Program::allocate(self.steps.clone(), vec![(all.len(), self.step_of(value)?)]);
        let guards: Vec<_> = all.iter().map(|t| t.read()).collect();
        let inputs = guards
            .iter()
            .zip(&all)
            .map(|(g, t)| (&**g, t.offset()))
            .collect();
        let out = Storage::run_program_fresh(&program, inputs, all[0].numel());
        Ok(out.map(|s| Tensor::from_contiguous(s, all[0].shape())))
    }

    /// The operands, where a program can run over them in one pass: at least
    /// one, each one contiguous run of the same shape and float dtype, and
    /// nothing recording.
    fn as_one_run(&self) -> Option<Vec<&Tensor>> {
        let first = self.operands.first()?;
        let all: Vec<&Tensor> = self.operands.iter().collect();
        let fits = |t: &&Tensor| {
            t.dtype() == first.dtype() && t.shape() == first.shape() && t.is_contiguous()
        };
        let float = matches!(first.dtype(), DType::F32 | DType::F64);
        let fit = float && all.iter().all(fits) && !crate::autograd::needs_grad(&all);
        fit.then_some(all)
    }

    fn step_of(&self, v: Var) -> Result<usize> {
        match self.vars[v.0] {
            Arg::Tmp(s) => Ok(s),
            _ => Err(value_err("internal: an update's value is not a step's")),
        }
    }

    /// On a backend that runs programs (the CPU) when every operand is one
    /// contiguous run of the same shape and float dtype, nothing records the
    /// update, and no two operands share memory.
    fn fused_run(&self, outputs: &[(usize, usize)]) -> Result<bool> {
        let Some(first) = self.operands.first() else {
            return Ok(true);
        };
        let Some(all) = self.as_one_run() else {
            return Ok(false);
        };
        let apart = all
            .iter()
            .enumerate()
            .all(|(i, t)| all[..i].iter().all(|u| !t.shares_storage(u)));
        if !apart {
            return Ok(false);
        }
        let program = Program::allocate(self.steps.clone(), outputs.to_vec());
        let written: Vec<bool> = (0..all.len())
            .map(|i| outputs.iter().any(|(o, _)| *o == i))
            .collect();
        let mut guards: Vec<(Guard<'_>, usize)> = all
            .iter()
            .zip(&written)
            .map(|(t, w)| match w {
                true => (Guard::Write(t.write()), t.offset()),
                false => (Guard::Read(t.read()), t.offset()),
            })
            .collect();
        let access = guards
            .iter_mut()
            .map(|(g, at)| match g {
                Guard::Read(r) => Access::Read(r, *at),
                Guard::Write(w) => Access::Write(w, *at),
            })
            .collect();
        Ok(Storage::run_program(&program, access, first.numel()))
    }

    /// Each step as a tensor op, then each output written into its operand.
    fn op_by_op(&self, outputs: &[(usize, usize)]) -> Result<()> {
        let mut values: Vec<Tensor> = Vec::with_capacity(self.steps.len());
        for s in &self.steps {
            let args: Vec<Tensor> = s.args[..s.inst.arity()]
                .iter()
                .map(|a| match a {
                    Arg::In(i) => self.operands[*i].clone(),
                    Arg::Tmp(v) => values[*v].clone(),
                    Arg::Num(x) => num(*x),
                })
                .collect();
            let out = match (s.inst, &args[..]) {
                (Inst::Unary(op), [a]) => unary(op, a)?,
                (Inst::Binary(op), [a, b]) => binary(op, a, b)?,
                (Inst::Ternary(TernaryOp::Lerp), [a, b, c]) => lerp(a, b, c)?,
                (Inst::Ternary(TernaryOp::AddScaled), [a, b, c]) => {
                    fused_multiply_add("add", a, b, c)?
                }
                _ => return Err(value_err(format!("internal: an update step {:?}", s.inst))),
            };
            values.push(out);
        }
        for &(o, v) in outputs {
            write_all(&self.operands[o], &values[v])?;
        }
        Ok(())
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn t(v: &[f32], shape: &[usize]) -> Tensor {
        Tensor::from_vec(v.to_vec(), shape)
    }

    /// n values of `dtype` from a pattern that has negatives and fractions.
    fn pattern(n: usize, step: usize, dtype: DType) -> Result<Tensor> {
        let v: Vec<f32> = (0..n)
            .map(|i| ((i * step) % 23) as f32 / 8.0 - 1.3)
            .collect();
        Tensor::from_vec(v, &[n]).to_dtype(dtype)
    }

    crate::unit_tests! {
        /// addcmul and addcdiv into a fresh tensor (one pass, no fill) give
        /// the bits of their ops one by one, for empty, short, many-block and
        /// parallel lengths; a strided operand leaves it to the caller.
        fn a_fresh_result_has_the_ops_bits() -> Result<()> {
            use super::super::arith::{add, div, mul};
            use super::super::view::transpose;
            for dtype in [DType::F32, DType::F64] {
                for n in [0, 5, 1500, 300_000] {
                    let (x, a, b) = (pattern(n, 7, dtype)?, pattern(n, 5, dtype)?, pattern(n, 3, dtype)?);
                    let b = add(&b, &num(2.0))?;
                    for divide in [false, true] {
                        let mut u = Update::new(dtype);
                        let (vx, va, vb) = (u.operand(&x), u.operand(&a), u.operand(&b));
                        let next = if divide { u.addcdiv(vx, va, vb, 0.3) } else { u.addcmul(vx, va, vb, 0.3) };
                        let Some(got) = u.run_fresh(next)? else {
                            return Err(value_err("no fresh result on contiguous operands"));
                        };
                        let scaled = mul(&num(0.3), &a)?;
                        let want = if divide {
                            add(&x, &div(&scaled, &b)?)?
                        } else {
                            fused_multiply_add("add", &x, &scaled, &b)?
                        };
                        assert_eq!(got.shape(), want.shape());
                        assert_eq!(got.to_host_f64()?, want.to_host_f64()?, "{dtype:?} n={n} divide={divide}");
                    }
                }
            }
            let m = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]);
            let mt = transpose(&m, 0, 1)?;
            let mut u = Update::new(DType::F32);
            let (vx, va) = (u.operand(&m), u.operand(&mt));
            let next = u.addcmul(vx, va, va, 1.0);
            assert!(u.run_fresh(next)?.is_none());
            Ok(())
        }

        /// The same update on contiguous operands (one pass) and with a
        /// transposed one (op by op): operands read after `set` see their new
        /// values, one value can go to two operands, and an operand can take
        /// another's first value.
        fn both_ways_give_the_in_place_ops_results() -> Result<()> {
            use super::super::view::transpose;
            for strided in [false, true] {
                let a = t(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
                let b = t(&[10.0, 20.0, 30.0, 40.0], &[2, 2]);
                let c = t(&[0.0; 4], &[2, 2]);
                let g = t(&[0.5, 0.25, 0.125, 2.0], &[2, 2]);
                let g = if strided {
                    transpose(&transpose(&g, 0, 1)?.contiguous()?, 0, 1)?
                } else {
                    g
                };
                assert_eq!(g.is_contiguous(), !strided);
                let mut u = Update::new(DType::F32);
                let (va, vb, vc, vg) = (u.operand(&a), u.operand(&b), u.operand(&c), u.operand(&g));
                // a = a * g; b = b + a (a's new value); c = a's new value too.
                let next_a = u.mul(va, vg);
                u.set(va, next_a);
                let next_b = u.add(vb, va);
                u.set(vb, next_b);
                u.set(vc, va);
                u.run()?;
                assert_eq!(a.to_host_f64()?, [0.5, 0.5, 0.375, 8.0]);
                assert_eq!(b.to_host_f64()?, [10.5, 20.5, 30.375, 48.0]);
                assert_eq!(c.to_host_f64()?, [0.5, 0.5, 0.375, 8.0]);
                // An operand set to another's value before the update.
                let mut u = Update::new(DType::F32);
                let (va, vg) = (u.operand(&a), u.operand(&g));
                u.set(va, vg);
                u.run()?;
                assert_eq!(a.to_host_f64()?, g.to_host_f64()?);
            }
            Ok(())
        }
    }
}
