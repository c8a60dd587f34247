//! Ops checked against a plain float64 reference on random shapes, with
//! contiguous, transposed, sliced and broadcast inputs.

use tsh::backend::cpu::binary::BinaryOp;
use tsh::backend::cpu::reduce::ReduceOp;
use tsh::backend::cpu::unary::UnaryOp;
use tsh::tensor::layout::contiguous_strides;
use tsh::tensor::ops::{elementwise as ew, matmul, reduce, view};
use tsh::tensor::{DType, Tensor};

type Binary = fn(f64, f64) -> f64;
type Unary = fn(f64) -> f64;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
    fn float(&mut self) -> f64 {
        self.next() as f64 / (1u64 << 31) as f64 * 4.0 - 2.0
    }
}

/// A tensor of `shape` with values `vals`, laid out in one of four ways.
fn make(rng: &mut Lcg, shape: &[usize], vals: &[f64]) -> Tensor {
    let base = Tensor::from_vec(vals.to_vec(), shape).to_dtype(DType::F32);
    match rng.below(3) {
        0 => base,
        1 if shape.len() >= 2 => {
            // Store transposed, then transpose back: same values, non-contiguous.
            let n = shape.len();
            let mut tshape = shape.to_vec();
            tshape.swap(n - 1, n - 2);
            let stored = view::transpose(&base, -1, -2).unwrap().contiguous();
            assert_eq!(stored.shape(), tshape.as_slice());
            view::transpose(&stored, -1, -2).unwrap()
        }
        _ => {
            // Embed in a tensor twice as wide on the last dim, then slice with step 2.
            let n = shape.len();
            if n == 0 {
                return base;
            }
            let mut wide = shape.to_vec();
            wide[n - 1] *= 2;
            let zeros = Tensor::from_vec(vec![0f32; wide.iter().product()], &wide);
            let strided = view::slice_dim(&zeros, n - 1, None, None, 2).unwrap();
            let offsets: Vec<usize> = strided.layout().offsets().collect();
            tsh::tensor::ops::index::write_at(&zeros, shape, &offsets, &base).unwrap();
            strided
        }
    }
}

fn random_shape(rng: &mut Lcg) -> Vec<usize> {
    let nd = rng.below(4);
    (0..nd).map(|_| 1 + rng.below(4)).collect()
}

fn values(rng: &mut Lcg, shape: &[usize]) -> Vec<f64> {
    (0..shape.iter().product::<usize>())
        .map(|_| (rng.float() as f32) as f64)
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-4 * (1.0 + b.abs()) || (a.is_nan() && b.is_nan())
}

#[test]
fn binary_ops_broadcast_like_the_reference() {
    let mut rng = Lcg(1);
    for _ in 0..300 {
        let out = random_shape(&mut rng);
        // Each operand keeps a random suffix of the dims, some set to 1.
        let pick = |rng: &mut Lcg| -> Vec<usize> {
            let k = rng.below(out.len() as u64 + 1);
            out[out.len() - k..]
                .iter()
                .map(|&d| if rng.below(3) == 0 { 1 } else { d })
                .collect()
        };
        let (sa, sb) = (pick(&mut rng), pick(&mut rng));
        let (va, vb) = (values(&mut rng, &sa), values(&mut rng, &sb));
        let (a, b) = (make(&mut rng, &sa, &va), make(&mut rng, &sb, &vb));
        let ops: [(BinaryOp, Binary); 5] = [
            (BinaryOp::Add, |x, y| x + y),
            (BinaryOp::Sub, |x, y| x - y),
            (BinaryOp::Mul, |x, y| x * y),
            (BinaryOp::Maximum, f64::max),
            (BinaryOp::Div, |x, y| x / y),
        ];
        for (op, f) in ops {
            let got = ew::binary(op, &a, &b).unwrap();
            let shape = got.shape().to_vec();
            let got = got.to_f64_vec();
            let strides = contiguous_strides(&shape);
            for (i, g) in got.iter().enumerate() {
                let idx: Vec<usize> = shape
                    .iter()
                    .zip(&strides)
                    .map(|(&d, &s)| (i / s) % d)
                    .collect();
                let at = |sh: &[usize], v: &[f64]| {
                    let off = shape.len() - sh.len();
                    let st = contiguous_strides(sh);
                    v[sh.iter()
                        .enumerate()
                        .map(|(k, &d)| if d == 1 { 0 } else { idx[off + k] * st[k] })
                        .sum::<usize>()]
                };
                let want = f(at(&sa, &va), at(&sb, &vb)) as f32 as f64;
                assert!(close(*g, want), "{op:?} {sa:?} {sb:?}: {g} vs {want}");
            }
        }
    }
}

#[test]
fn unary_ops_match_the_reference() {
    let mut rng = Lcg(2);
    let ops: [(UnaryOp, Unary); 6] = [
        (UnaryOp::Exp, f64::exp),
        (UnaryOp::Tanh, f64::tanh),
        (UnaryOp::Abs, f64::abs),
        (UnaryOp::Sigmoid, |x| 1.0 / (1.0 + (-x).exp())),
        (UnaryOp::Sin, f64::sin),
        (UnaryOp::Erf, |x| {
            // erf by its Taylor series (|x| <= 2 here).
            let mut sum = 0.0;
            let mut term = x;
            for n in 0..60 {
                sum += term / (2 * n + 1) as f64;
                term *= -x * x / (n + 1) as f64;
            }
            sum * 2.0 / std::f64::consts::PI.sqrt()
        }),
    ];
    for _ in 0..100 {
        let s = random_shape(&mut rng);
        let v = values(&mut rng, &s);
        let t = make(&mut rng, &s, &v);
        for (op, f) in ops {
            let got = ew::unary(op, &t).unwrap().to_f64_vec();
            for (g, x) in got.iter().zip(&v) {
                assert!(close(*g, f(*x)), "{op:?}: {g} vs {}", f(*x));
            }
        }
    }
}

#[test]
fn reductions_over_dims_match_the_reference() {
    let mut rng = Lcg(3);
    for _ in 0..200 {
        let s = random_shape(&mut rng);
        if s.is_empty() {
            continue;
        }
        let v = values(&mut rng, &s);
        let t = make(&mut rng, &s, &v);
        let dim = rng.below(s.len() as u64);
        let strides = contiguous_strides(&s);
        let n = s[dim];
        let outer: Vec<usize> = s
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != dim)
            .map(|(_, &d)| d)
            .collect();
        for (op, f) in [
            (
                ReduceOp::Sum,
                (|g: &[f64]| g.iter().sum()) as fn(&[f64]) -> f64,
            ),
            (ReduceOp::Max, |g: &[f64]| {
                g.iter().copied().fold(f64::MIN, f64::max)
            }),
            (ReduceOp::Mean, |g: &[f64]| {
                g.iter().sum::<f64>() / g.len() as f64
            }),
            (ReduceOp::Var(1.0), |g: &[f64]| {
                let m = g.iter().sum::<f64>() / g.len() as f64;
                g.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (g.len() as f64 - 1.0)
            }),
        ] {
            let got = reduce::reduce(&t, op, Some(&[dim as i64]), false).unwrap();
            assert_eq!(got.shape(), outer.as_slice());
            let got = got.to_f64_vec();
            let ostrides = contiguous_strides(&outer);
            for (i, g) in got.iter().enumerate() {
                let oidx: Vec<usize> = outer
                    .iter()
                    .zip(&ostrides)
                    .map(|(&d, &st)| (i / st) % d)
                    .collect();
                let mut full: Vec<usize> = oidx.clone();
                full.insert(dim, 0);
                let base: usize = full.iter().zip(&strides).map(|(a, b)| a * b).sum();
                let group: Vec<f64> = (0..n).map(|j| v[base + j * strides[dim]]).collect();
                let want = f(&group);
                if n == 1 && matches!(op, ReduceOp::Var(_)) {
                    assert!(g.is_nan() || g.is_infinite());
                    continue;
                }
                assert!(close(*g, want), "{op:?} over {dim} of {s:?}: {g} vs {want}");
            }
        }
    }
}

#[test]
fn matmul_matches_the_reference() {
    let mut rng = Lcg(4);
    for _ in 0..100 {
        let (m, k, n) = (1 + rng.below(7), 1 + rng.below(7), 1 + rng.below(7));
        let batch = 1 + rng.below(3);
        let (va, vb) = (values(&mut rng, &[batch, m, k]), values(&mut rng, &[k, n]));
        let a = make(&mut rng, &[batch, m, k], &va);
        let b = make(&mut rng, &[k, n], &vb);
        let got = matmul::matmul(&a, &b).unwrap();
        assert_eq!(got.shape(), &[batch, m, n]);
        let got = got.to_f64_vec();
        for bi in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let want: f64 = (0..k)
                        .map(|p| va[bi * m * k + i * k + p] * vb[p * n + j])
                        .sum();
                    let g = got[bi * m * n + i * n + j];
                    assert!(close(g, want), "matmul {m}x{k}x{n}: {g} vs {want}");
                }
            }
        }
    }
}

#[test]
fn integer_arithmetic_wraps_like_pytorch() {
    let a = Tensor::from_vec(vec![127i8, -128], &[2]);
    let one = Tensor::from_vec(vec![1i8, 1], &[2]);
    assert_eq!(
        ew::binary(BinaryOp::Add, &a, &one).unwrap().to_i64_vec(),
        vec![-128, -127]
    );
    let u = Tensor::from_vec(vec![0u8], &[1]);
    let u1 = Tensor::from_vec(vec![1u8], &[1]);
    assert_eq!(
        ew::binary(BinaryOp::Sub, &u, &u1).unwrap().to_i64_vec(),
        vec![255]
    );
}
