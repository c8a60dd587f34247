//! `:set stats on`: one summary line under a large tensor.

use crate::tensor::Tensor;
use crate::tensor::shape::fmt_shape;

use super::short_num;

pub fn summary(t: &Tensor) -> String {
    // The summary reads every element to the host (a teaching aid, on request).
    let v = match t.to_host_f64() {
        Ok(v) => v,
        Err(e) => return format!("stats: unavailable ({})", e.message),
    };
    let nan = v.iter().filter(|x| x.is_nan()).count();
    let inf = v.iter().filter(|x| x.is_infinite()).count();
    let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    let mut s = format!("stats: {} n={}", fmt_shape(t.shape()), v.len());
    if finite.is_empty() {
        s.push_str(" (no finite values)");
    } else {
        let n = finite.len() as f64;
        let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = finite.iter().sum::<f64>() / n;
        // Unbiased, as torch.std.
        let var = if finite.len() > 1 {
            finite.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        s.push_str(&format!(
            " min={} max={} mean={} std={}",
            short_num(min),
            short_num(max),
            short_num(mean),
            short_num(var.sqrt())
        ));
    }
    s.push_str(&format!(" nan={nan} inf={inf}"));
    s
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn counts_and_moments() {
            let t = Tensor::from_vec(vec![1.0f64, 2.0, 3.0, f64::NAN, f64::INFINITY], &[5]);
            assert_eq!(
                summary(&t),
                "stats: [5] n=5 min=1 max=3 mean=2 std=1 nan=1 inf=1"
            );
        }
    }
}
