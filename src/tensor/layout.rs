//! Shape, strides and offset: how a tensor's elements sit in its storage. View
//! operations (transpose, permute, narrow, expand, reshape-as-view) only make a
//! new Layout; they never touch data.

/// A shape or its strides, inline up to four dims. Every op builds a few
/// layouts; a heap block for each was a fifth of a small op's time.
pub type Dims = smallvec::SmallVec<[usize; 4]>;

#[derive(Debug, PartialEq, Eq)]
pub struct Layout {
    pub shape: Dims,
    pub strides: Dims,
    pub offset: usize,
}

impl Clone for Layout {
    // SmallVec's own clone collects element by element; a copy of the slice
    // is a few instructions.
    fn clone(&self) -> Layout {
        Layout {
            shape: Dims::from_slice(&self.shape),
            strides: Dims::from_slice(&self.strides),
            offset: self.offset,
        }
    }
}

pub fn contiguous_strides(shape: &[usize]) -> Dims {
    // The shape's copy, overwritten from the last dim: each index of a
    // SmallVec asks whether it spilled, and smallvec![0; n] was a call.
    let mut strides = Dims::from_slice(shape);
    let mut acc = 1usize;
    for s in strides.iter_mut().rev() {
        let n = *s;
        *s = acc;
        acc = acc.saturating_mul(n.max(1));
    }
    strides
}

pub fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

impl Layout {
    pub fn contiguous(shape: &[usize]) -> Layout {
        Layout {
            shape: Dims::from_slice(shape),
            strides: contiguous_strides(shape),
            offset: 0,
        }
    }
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    pub fn numel(&self) -> usize {
        numel(&self.shape)
    }
    /// Row-major and gap-free (PyTorch's rule: dims of size 1 may have any stride).
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for (&n, &st) in self.shape.iter().zip(self.strides.iter()).rev() {
            if n == 1 {
                continue;
            }
            if st != expected {
                return false;
            }
            expected *= n;
        }
        true
    }
    /// The same elements in the same order with as few dims as possible: size-1
    /// dims dropped, neighbours merged where one steps over the other whole
    /// (an expanded scalar becomes one dim of stride 0). Strided loops then
    /// run over long inner runs.
    pub fn coalesced(&self) -> Layout {
        let mut shape: Vec<usize> = Vec::with_capacity(self.ndim());
        let mut strides: Vec<usize> = Vec::with_capacity(self.ndim());
        for (&n, &st) in self.shape.iter().zip(&self.strides) {
            if n == 1 {
                continue;
            }
            match (shape.last_mut(), strides.last_mut()) {
                (Some(pn), Some(ps)) if *ps == st * n => {
                    *pn *= n;
                    *ps = st;
                }
                _ => {
                    shape.push(n);
                    strides.push(st);
                }
            }
        }
        if shape.is_empty() || self.numel() == 0 {
            return Layout {
                shape: smallvec::smallvec![self.numel()],
                strides: smallvec::smallvec![1],
                offset: self.offset,
            };
        }
        Layout {
            shape: shape.into(),
            strides: strides.into(),
            offset: self.offset,
        }
    }
    /// The storage range this layout may touch is `offset..offset + span`.
    pub fn storage_span(&self) -> usize {
        if self.numel() == 0 {
            return 0;
        }
        1 + self
            .shape
            .iter()
            .zip(&self.strides)
            .map(|(&n, &s)| (n - 1) * s)
            .sum::<usize>()
    }

    pub fn transpose(&self, a: usize, b: usize) -> Layout {
        let mut l = self.clone();
        l.shape.swap(a, b);
        l.strides.swap(a, b);
        l
    }
    pub fn permute(&self, dims: &[usize]) -> Layout {
        Layout {
            shape: dims.iter().map(|&d| self.shape[d]).collect(),
            strides: dims.iter().map(|&d| self.strides[d]).collect(),
            offset: self.offset,
        }
    }
    /// Elements `start, start+step, ...` (`len` of them) along `dim`.
    pub fn slice(&self, dim: usize, start: usize, len: usize, step: usize) -> Layout {
        let mut l = self.clone();
        if len > 0 {
            l.offset += start * self.strides[dim];
        }
        l.shape[dim] = len;
        l.strides[dim] = self.strides[dim] * step;
        l
    }
    pub fn select(&self, dim: usize, index: usize) -> Layout {
        let mut l = self.clone();
        l.offset += index * self.strides[dim];
        l.shape.remove(dim);
        l.strides.remove(dim);
        l
    }
    /// The `k`-th diagonal of dims `a` and `b` as the last dim (a view: its
    /// stride steps along both at once).
    pub fn diagonal(&self, k: i64, a: usize, b: usize) -> Layout {
        let (na, nb) = (self.shape[a] as i64, self.shape[b] as i64);
        let (r0, c0) = if k >= 0 { (0, k) } else { (-k, 0) };
        let len = (na - r0).min(nb - c0).max(0) as usize;
        let mut l = self.clone();
        if len > 0 {
            l.offset += r0 as usize * self.strides[a] + c0 as usize * self.strides[b];
        }
        let step = self.strides[a] + self.strides[b];
        for d in [a.max(b), a.min(b)] {
            l.shape.remove(d);
            l.strides.remove(d);
        }
        l.shape.push(len);
        l.strides.push(step);
        l
    }
    pub fn unsqueeze(&self, dim: usize) -> Layout {
        let mut l = self.clone();
        let stride = if dim < self.ndim() {
            self.strides[dim] * self.shape[dim]
        } else {
            1
        };
        l.shape.insert(dim, 1);
        l.strides.insert(dim, stride);
        l
    }
    pub fn squeeze_dims(&self, dims: &[usize]) -> Layout {
        let mut l = Layout {
            shape: Dims::new(),
            strides: Dims::new(),
            offset: self.offset,
        };
        for i in 0..self.ndim() {
            if !(dims.contains(&i) && self.shape[i] == 1) {
                l.shape.push(self.shape[i]);
                l.strides.push(self.strides[i]);
            }
        }
        l
    }
    /// Broadcast to `shape` (already checked compatible): new leading dims and
    /// stretched size-1 dims get stride 0.
    pub fn expand(&self, shape: &[usize]) -> Layout {
        if self.shape.as_slice() == shape {
            return self.clone();
        }
        let extra = shape.len() - self.ndim();
        let mut strides: Dims = smallvec::smallvec![0; shape.len()];
        for i in 0..self.ndim() {
            strides[extra + i] = if self.shape[i] == shape[extra + i] {
                self.strides[i]
            } else {
                0
            };
        }
        Layout {
            shape: Dims::from_slice(shape),
            strides,
            offset: self.offset,
        }
    }

    /// The strides a view of `new_shape` would have over the same elements, if one
    /// exists without copying (PyTorch's `computeStride`).
    pub fn view_strides(&self, new_shape: &[usize]) -> Option<Dims> {
        if self.numel() == 0 || self.ndim() == 0 {
            return Some(contiguous_strides(new_shape));
        }
        let mut new_strides: Dims = smallvec::smallvec![0; new_shape.len()];
        let mut view_d = new_shape.len() as isize - 1;
        let mut chunk_base_stride = *self.strides.last()?;
        let mut tensor_numel = 1usize;
        let mut view_numel = 1usize;
        for tensor_d in (0..self.ndim()).rev() {
            tensor_numel *= self.shape[tensor_d];
            let boundary = tensor_d == 0
                || (self.shape[tensor_d - 1] != 1
                    && self.strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
            if boundary {
                while view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d as usize] == 1)
                {
                    new_strides[view_d as usize] = view_numel * chunk_base_stride;
                    view_numel *= new_shape[view_d as usize];
                    view_d -= 1;
                }
                if view_numel != tensor_numel {
                    return None;
                }
                if tensor_d > 0 {
                    chunk_base_stride = self.strides[tensor_d - 1];
                    tensor_numel = 1;
                    view_numel = 1;
                }
            }
        }
        if view_d != -1 {
            return None;
        }
        Some(new_strides)
    }

    /// Storage offsets of every element in row-major order.
    pub fn offsets(&self) -> Offsets<'_> {
        Offsets::new(self)
    }
}

/// Iterates the storage offsets of a layout's elements in row-major order,
/// stepping the innermost dimension in a tight loop.
pub struct Offsets<'a> {
    layout: &'a Layout,
    index: Vec<usize>,
    next: usize,
    remaining: usize,
}

impl<'a> Offsets<'a> {
    fn new(layout: &'a Layout) -> Offsets<'a> {
        Offsets {
            layout,
            index: vec![0; layout.ndim()],
            next: layout.offset,
            remaining: layout.numel(),
        }
    }
}

impl Iterator for Offsets<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = self.next;
        // Advance the multi-index like an odometer.
        let l = self.layout;
        let mut d = l.ndim();
        while d > 0 {
            d -= 1;
            self.index[d] += 1;
            if self.index[d] < l.shape[d] {
                self.next += l.strides[d];
                return Some(current);
            }
            self.next -= (l.shape[d] - 1) * l.strides[d];
            self.index[d] = 0;
        }
        Some(current)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Offsets<'_> {}
