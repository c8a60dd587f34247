//! PyTorch's rule for the memory order of an element-wise result (its
//! TensorIterator's reorder_dimensions): the result's dims are laid out in
//! the order of the operands' strides, the first operand deciding, so
//! `x.t().abs()` is transposed as its input is (`.stride()` (1, n),
//! `.is_contiguous()` False). Laid out so, an op over transposed or permuted
//! operands walks their memory in order: the dims are permuted to that order,
//! where the operands are contiguous, and the backend's flat loop runs (it
//! was a strided walk, 9x PyTorch's time for `x.t().abs()`).

use crate::tensor::layout::Layout;

/// The result's order of dims, slowest first, and its layout.
pub struct MemoryOrder {
    order: Vec<usize>,
    pub result: Layout,
}

impl MemoryOrder {
    /// An operand's layout (of the result's shape) with its dims in the
    /// result's order: contiguous where the operand is laid out as the
    /// result, so the backend's flat loop runs over it.
    pub fn permute(&self, l: &Layout) -> Layout {
        l.permute(&self.order)
    }
}

/// PyTorch's order from `layouts` (the operands' layouts before any dtype
/// conversion, broadcast to the result's shape); None where it is row-major.
pub fn memory_order(layouts: &[&Layout]) -> Option<MemoryOrder> {
    let order = result_order(layouts)?;
    let shape: Vec<usize> = order.iter().map(|&d| layouts[0].shape[d]).collect();
    let mut inverse = vec![0; order.len()];
    for (i, &d) in order.iter().enumerate() {
        inverse[d] = i;
    }
    let result = Layout::contiguous(&shape).permute(&inverse);
    Some(MemoryOrder { order, result })
}

/// Whether a first operand of this layout makes the result row-major
/// whatever the others are: it is contiguous, of the result's shape, with no
/// dim broadcast (the common case, told before anything is built).
#[inline]
pub fn row_major(first: &Layout, shape: &[usize]) -> bool {
    first.shape[..] == *shape && first.strides.iter().all(|&s| s != 0) && first.is_contiguous()
}

/// The dims from slowest to fastest, where that is not 0, 1, ..., n-1.
fn result_order(layouts: &[&Layout]) -> Option<Vec<usize>> {
    let shape = &layouts.first()?.shape;
    let n = shape.len();
    // A row-major first operand, its dims of more than one element in
    // order, decides at once (the common case: no sort).
    // An empty result is row-major, as in ATen (an empty tensor counts as
    // contiguous there).
    if n < 2 || shape.contains(&0) || row_major(layouts[0], shape) {
        return None;
    }
    // ATen's insertion sort, fastest dim first, with its ambiguous compare.
    let mut perm: Vec<usize> = (0..n).rev().collect();
    for i in 1..n {
        let mut d1 = i;
        for d0 in (0..i).rev() {
            match should_swap(layouts, shape, perm[d0], perm[d1]) {
                std::cmp::Ordering::Greater => {
                    perm.swap(d0, d1);
                    d1 = d0;
                }
                std::cmp::Ordering::Less => break,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    perm.reverse();
    if perm.iter().enumerate().all(|(i, &d)| i == d) {
        None
    } else {
        Some(perm)
    }
}

/// Whether dim `a` (now before `b`, so taken as faster) should move after
/// it: the first operand with a broadcast in neither dim and unequal strides
/// decides; equal strides put the shorter dim first.
fn should_swap(layouts: &[&Layout], shape: &[usize], a: usize, b: usize) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    for l in layouts {
        let (sa, sb) = (l.strides[a], l.strides[b]);
        if sa == 0 || sb == 0 {
            continue;
        }
        if sa != sb {
            return if sa < sb { Less } else { Greater };
        }
        if shape[a] > shape[b] {
            return Greater;
        }
    }
    Equal
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn strides_of(layouts: &[&Layout]) -> Vec<usize> {
        memory_order(layouts).map_or(vec![], |o| o.result.strides.to_vec())
    }

    crate::unit_tests! {
        /// The result's strides as PyTorch gives them (printed by PyTorch
        /// 2.15 for the same views).
        fn memory_order_follows_pytorch() {
            let c = Layout::contiguous(&[3, 4]);
            let t = Layout::contiguous(&[4, 3]).transpose(0, 1);
            let s = Layout::contiguous(&[]).expand(&[3, 4]);
            // Row-major: no order.
            assert!(memory_order(&[&c]).is_none());
            assert!(memory_order(&[&c, &t]).is_none());
            // torch.randn(4, 3).t() + 1: (1, 3); + a contiguous one: the first decides.
            assert_eq!(strides_of(&[&t, &s]), [1, 3]);
            assert_eq!(strides_of(&[&t, &c]), [1, 3]);
            // A scalar first: the tensor after it decides.
            assert_eq!(strides_of(&[&s, &t]), [1, 3]);
            // torch.arange(30).view(2, 5, 3).permute(0, 2, 1): (15, 1, 3).
            let p = Layout::contiguous(&[2, 5, 3]).permute(&[0, 2, 1]);
            assert_eq!(strides_of(&[&p, &p]), [15, 1, 3]);
            // permute(2, 0, 1) of a (2, 3, 4): (1, 12, 4).
            let q = Layout::contiguous(&[2, 3, 4]).permute(&[2, 0, 1]);
            assert_eq!(strides_of(&[&q]), [1, 12, 4]);
            // A transposed row broadcast down: torch.ones(4, 1).t().expand(3, 4)
            // against a transposed (3, 4): the second decides, (1, 3).
            let row = Layout::contiguous(&[4, 1]).transpose(0, 1).expand(&[3, 4]);
            assert_eq!(strides_of(&[&row, &t]), [1, 3]);
            // The layouts the backend gets are permuted alike: contiguous here.
            let o = memory_order(&[&t, &s]).expect("transposed");
            assert!(o.permute(&t).is_contiguous());
            assert_eq!(&o.permute(&t).shape[..], &[4, 3]);
        }
    }
}
