//! An optimizer's per-parameter state under PyTorch's names, for
//! `optimizer.state_dict()` and `load_state_dict`.

use super::optim::{Kind, Optimizer};
use crate::error::Result;
use crate::tensor::Tensor;

impl Optimizer {
    /// PyTorch's name for each of a kind's state slots, in PyTorch's order.
    fn slot_names(&self) -> Vec<(&'static str, Slot)> {
        use Slot::*;
        match self.kind {
            Kind::Sgd { momentum, .. } if momentum != 0.0 => vec![("momentum_buffer", M)],
            Kind::Sgd { .. } => vec![],
            Kind::Adam { amsgrad, .. } => {
                let mut v = vec![("step", Step), ("exp_avg", M), ("exp_avg_sq", V)];
                if amsgrad {
                    v.push(("max_exp_avg_sq", VMax));
                }
                v
            }
            Kind::RmsProp {
                momentum, centered, ..
            } => {
                let mut v = vec![("step", Step), ("square_avg", M)];
                if momentum > 0.0 {
                    v.push(("momentum_buffer", VMax));
                }
                if centered {
                    v.push(("grad_avg", V));
                }
                v
            }
            Kind::Adagrad { .. } => vec![("step", Step), ("sum", M)],
            Kind::Adadelta { .. } => vec![("step", Step), ("square_avg", M), ("acc_delta", V)],
            Kind::Adamax { .. } => vec![("step", Step), ("exp_avg", M), ("exp_inf", V)],
            Kind::NAdam { .. } => vec![
                ("step", Step),
                ("mu_product", MuProduct),
                ("exp_avg", M),
                ("exp_avg_sq", V),
            ],
        }
    }

    /// Parameter `i`'s state, empty until a step has updated it.
    pub fn state_of(&self, i: usize) -> Vec<(&'static str, Tensor)> {
        let st = &self.state[i];
        if st.m.is_none() {
            return vec![];
        }
        let f32 = crate::tensor::DType::F32;
        self.slot_names()
            .into_iter()
            .filter_map(|(name, slot)| {
                let t = match slot {
                    Slot::Step => Some(Tensor::scalar_f64(self.steps as f64, f32)),
                    Slot::MuProduct => st.mu_product.map(|x| Tensor::scalar_f64(x, f32)),
                    Slot::M => st.m.clone(),
                    Slot::V => st.v.clone(),
                    Slot::VMax => st.vmax.clone(),
                };
                t.map(|t| (name, t))
            })
            .collect()
    }

    /// Set parameter `i`'s state from PyTorch's names (load_state_dict).
    pub fn set_state(&mut self, i: usize, name: &str, t: &Tensor) -> Result<()> {
        let Some((_, slot)) = self.slot_names().into_iter().find(|(n, _)| *n == name) else {
            return Ok(());
        };
        let p = &self.params[i];
        let moved =
            || -> Result<Tensor> { t.to_device(p.device())?.to_dtype(p.dtype())?.deep_clone() };
        let st = &mut self.state[i];
        match slot {
            Slot::Step => self.steps = crate::tensor::ops::scalar::item_f64(t)? as u64,
            Slot::MuProduct => st.mu_product = Some(crate::tensor::ops::scalar::item_f64(t)?),
            Slot::M => st.m = Some(moved()?),
            Slot::V => st.v = Some(moved()?),
            Slot::VMax => st.vmax = Some(moved()?),
        }
        Ok(())
    }
}

/// Where a state entry lives in `State`.
#[derive(Clone, Copy)]
enum Slot {
    Step,
    MuProduct,
    M,
    V,
    VMax,
}
