//! The scalar fast path: arithmetic, comparisons and loops on Python's
//! numbers, evaluated as `Num` (two words, in registers) instead of `Value`
//! inside `Result` (see number.rs for why that matters).
//!
//! Every function here either gives the answer the general path would give or
//! gives up (None) having changed nothing: it reads variables and computes, it
//! never calls, binds or raises. So a statement that gives up is simply
//! evaluated again the general way, which also words any error.

use super::Interp;
use super::number::{self, Num};
use super::value::Value;
use crate::syntax::ast::*;

impl Interp {
    /// `e`'s value when it is a Python number made of names, literals and
    /// arithmetic; None for anything else, and for arithmetic that raises.
    pub(super) fn number(&self, e: &Expr) -> Option<Num> {
        match &e.kind {
            ExprKind::Int(i) => Some(Num::int(*i)),
            ExprKind::Float(f) => Some(Num::float(*f)),
            ExprKind::Bool(b) => Some(Num::bool(*b)),
            ExprKind::Name(n, slot) => match self.innermost(n, slot, Num::of) {
                Some(num) => num,
                None => Num::of(&self.outer(n, Some((n, slot)))?),
            },
            ExprKind::Binary(op, l, r) => {
                number::binary(*op, self.number(l)?, self.number(r)?).ok()
            }
            ExprKind::Unary(UnaryOp::Neg, x) => self.number(x)?.neg(),
            _ => None,
        }
    }

    /// A condition's truth when it is one comparison of numbers, or a number.
    pub(super) fn number_truth(&self, e: &Expr) -> Option<bool> {
        match &e.kind {
            ExprKind::Compare { first, rest, .. } => match rest.as_slice() {
                [(op, right)] => number::compare(*op, self.number(first)?, self.number(right)?),
                _ => None,
            },
            _ => self.number(e).map(Num::truth),
        }
    }

    /// `name op= value` on numbers; false (nothing done) otherwise.
    pub(super) fn number_aug_assign(&mut self, target: &Expr, op: BinOp, value: &Expr) -> bool {
        let ExprKind::Name(n, slot) = &target.kind else {
            return false;
        };
        // The value is a number, so reading it before the variable changes
        // nothing.
        let Some(b) = self.number(value) else {
            return false;
        };
        // A local (or, at the top level, a global) number updated where it
        // lies: one look-up where reading and then binding took two.
        let update = |v: &mut Value| {
            let Some(result) = Num::of(v).and_then(|a| number::binary(op, a, b).ok()) else {
                return false;
            };
            *v = result.value();
            true
        };
        if self.update_slotted(n, slot, update) {
            return true;
        }
        let Some(result) = self
            .number(target)
            .and_then(|a| number::binary(op, a, b).ok())
        else {
            return false;
        };
        self.set_slotted(n, slot, result.value());
        true
    }

    /// `name = value` with a number; false (nothing done) otherwise.
    pub(super) fn number_assign(&mut self, targets: &[Expr], value: &Expr) -> bool {
        let [
            Expr {
                kind: ExprKind::Name(n, slot),
                ..
            },
        ] = targets
        else {
            return false;
        };
        let Some(v) = self.number(value) else {
            return false;
        };
        self.set_slotted(n, slot, v.value());
        true
    }
}
