//! A short element-wise program over a few same-shaped tensors, updated in
//! place: an optimizer's step is one (`exp_avg.lerp_(g, 1 - b1)`,
//! `exp_avg_sq.mul_(b2).addcmul_(g, g, value=1 - b2)`, ...). Each step is one
//! of the op rows' kernels, so a backend can run the whole program block by
//! block in one pass over memory (the CPU does) and still give each op's
//! bits; any other backend runs it op by op (tensor/ops/update.rs).

use super::{BinaryOp, TernaryOp, UnaryOp};

/// One step's op.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inst {
    Unary(UnaryOp),
    Binary(BinaryOp),
    /// Float ternaries only: Lerp, AddScaled.
    Ternary(TernaryOp),
}

impl Inst {
    pub fn arity(self) -> usize {
        match self {
            Inst::Unary(_) => 1,
            Inst::Binary(_) => 2,
            Inst::Ternary(_) => 3,
        }
    }
}

/// A step's argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// Operand i's value before the program ran.
    In(usize),
    /// A step's result, by the scratch slot it was given.
    Tmp(usize),
    /// A Python number, rounded to the operands' dtype as an op rounds it.
    Num(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub inst: Inst,
    /// The first `inst.arity()` are used.
    pub args: [Arg; 3],
    /// The scratch slot it writes: never one of its own arguments'.
    pub out: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub steps: Vec<Step>,
    /// (operand, the slot of its final value): written back at the end.
    pub outputs: Vec<(usize, usize)>,
    /// Scratch slots the steps use (reused once a value is dead).
    pub slots: usize,
}

impl Program {
    /// Steps whose results are numbered in order (step i makes value i),
    /// given slots: a value's slot is freed after its last use, and the
    /// outputs' values live to the end. Keeps a block's scratch small enough
    /// to stay in the first-level cache.
    /// `outputs`: (operand, the step whose value it takes).
    pub fn allocate(steps: Vec<Step>, outputs: Vec<(usize, usize)>) -> Program {
        let n = steps.len();
        let mut last = vec![0usize; n];
        for (i, s) in steps.iter().enumerate() {
            for a in &s.args[..s.inst.arity()] {
                if let Arg::Tmp(v) = a {
                    last[*v] = i;
                }
            }
        }
        for (_, v) in &outputs {
            last[*v] = usize::MAX;
        }
        let (mut slot_of, mut free, mut slots) = (vec![0usize; n], Vec::new(), 0usize);
        let remap = |a: Arg, slot_of: &[usize]| match a {
            Arg::Tmp(v) => Arg::Tmp(slot_of[v]),
            other => other,
        };
        let mut out_steps = Vec::with_capacity(n);
        for (i, s) in steps.into_iter().enumerate() {
            // The result's slot is taken before the arguments' are freed, so a
            // step never writes over what it reads.
            let slot = free.pop().unwrap_or_else(|| {
                slots += 1;
                slots - 1
            });
            slot_of[i] = slot;
            let args = s.args.map(|a| remap(a, &slot_of));
            for a in &s.args[..s.inst.arity()] {
                if let Arg::Tmp(v) = a
                    && last[*v] == i
                    && !free.contains(&slot_of[*v])
                {
                    free.push(slot_of[*v]);
                }
            }
            if last[i] <= i {
                // Never read (later steps read it) and not an output: its
                // slot is free again.
                free.push(slot);
            }
            out_steps.push(Step {
                inst: s.inst,
                args,
                out: slot,
            });
        }
        let outputs = outputs.into_iter().map(|(o, v)| (o, slot_of[v])).collect();
        Program {
            steps: out_steps,
            outputs,
            slots,
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn step(inst: Inst, args: [Arg; 3]) -> Step {
        Step { inst, args, out: 0 }
    }

    crate::unit_tests! {
        fn slots_are_reused_once_dead_and_never_overlap_a_steps_arguments() {
            let mul = Inst::Binary(BinaryOp::Mul);
            let z = Arg::Num(0.0);
            // v0 = a*2; v1 = v0*3; v2 = v1*v1; v3 = v2*a; out = v3
            let p = Program::allocate(
                vec![
                    step(mul, [Arg::In(0), Arg::Num(2.0), z]),
                    step(mul, [Arg::Tmp(0), Arg::Num(3.0), z]),
                    step(mul, [Arg::Tmp(1), Arg::Tmp(1), z]),
                    step(mul, [Arg::Tmp(2), Arg::In(0), z]),
                ],
                vec![(0, 3)],
            );
            assert_eq!(p.slots, 2);
            for s in &p.steps {
                for a in &s.args[..2] {
                    assert_ne!(*a, Arg::Tmp(s.out));
                }
            }
            assert_eq!(p.outputs, vec![(0, p.steps[3].out)]);
        }

        fn an_output_keeps_its_slot_to_the_end() {
            let add = Inst::Binary(BinaryOp::Add);
            let z = Arg::Num(0.0);
            // v0 = a+1 (output of operand 1); v1 = a+2; v2 = v1+3 (output of operand 0)
            let p = Program::allocate(
                vec![
                    step(add, [Arg::In(0), Arg::Num(1.0), z]),
                    step(add, [Arg::In(0), Arg::Num(2.0), z]),
                    step(add, [Arg::Tmp(1), Arg::Num(3.0), z]),
                ],
                vec![(1, 0), (0, 2)],
            );
            let kept = p.steps[0].out;
            assert!(p.steps[1..].iter().all(|s| s.out != kept));
        }
    }
}
