//! The library's own tests: of private functions, kernels against their
//! references, and the like. They are compiled into the library and run by
//! tests/units.rs, so that `cargo test --release` compiles the crate once.
//! Left to `#[cfg(test)]`, cargo compiled all of it a second time for them,
//! which was half of a clean CI build's time on two cores.
//!
//! A module's tests go in a `crate::unit_tests!` block, and the module's
//! `TESTS` in `all()` below; tests/units.rs fails when a file's block is
//! missing from `all()`, or when a `#[test]` is left in the library (cargo
//! would skip it without a word).

/// One module's tests: its path, the file it is in, and each test's name
/// and body.
pub struct Tests {
    pub module: &'static str,
    pub file: &'static str,
    pub list: &'static [Test],
}

/// A test's name and body.
pub type Test = (&'static str, fn() -> Result<(), String>);

/// What a test returns: nothing (it asserts), or a Result whose error fails it.
pub trait Outcome {
    fn outcome(self) -> Result<(), String>;
}

impl Outcome for () {
    fn outcome(self) -> Result<(), String> {
        Ok(())
    }
}

impl<E: std::fmt::Debug> Outcome for Result<(), E> {
    fn outcome(self) -> Result<(), String> {
        self.map_err(|e| format!("{e:?}"))
    }
}

/// Each test function made public, and the module's `TESTS` listing them.
#[macro_export]
#[doc(hidden)]
macro_rules! unit_tests {
    ($($(#[$meta:meta])* fn $name:ident() $(-> $ret:ty)? $body:block)*) => {
        $($(#[$meta])* pub fn $name() $(-> $ret)? $body)*

        pub const TESTS: $crate::unit_tests::Tests = $crate::unit_tests::Tests {
            module: module_path!(),
            file: file!(),
            list: &[$((stringify!($name), || $crate::unit_tests::Outcome::outcome($name()))),*],
        };
    };
}

/// Every module's tests.
pub fn all() -> Vec<Tests> {
    vec![
        crate::autograd::tests::TESTS,
        crate::backend::cpu::avg_pool::tests::TESTS,
        #[cfg(target_arch = "x86_64")]
        crate::backend::cpu::bf16_amx::tests::TESTS,
        crate::backend::cpu::bf16_gemm::tests::TESTS,
        crate::backend::cpu::cascade::tests::TESTS,
        crate::backend::cpu::conv_direct::tests::TESTS,
        crate::backend::cpu::elementwise::tests::TESTS,
        crate::backend::cpu::half_blocks::tests::TESTS,
        crate::backend::cpu::gemv::tests::TESTS,
        crate::backend::cpu::exp_f64::tests::TESTS,
        crate::tensor::ops::memory_order::tests::TESTS,
        crate::backend::cpu::kernels::tests::TESTS,
        crate::backend::cpu::ln_avx512::tests::TESTS,
        crate::backend::cpu::mathfun::tests::TESTS,
        crate::backend::cpu::matmul::tests::TESTS,
        crate::backend::cpu::random::tests::TESTS,
        crate::backend::cpu::row_copy::tests::TESTS,
        crate::backend::cpu::rows::tests::TESTS,
        crate::backend::cpu::sort::tests::TESTS,
        crate::backend::cpu::split::tests::TESTS,
        crate::backend::cpu::strided::tests::TESTS,
        crate::backend::cpu::window::tests::TESTS,
        crate::interp::bind::tests::TESTS,
        crate::interp::builtins::pyos::tests::TESTS,
        crate::interp::builtins::pyrandom::tests::TESTS,
        crate::interp::builtins::pyspecial::tests::TESTS,
        crate::interp::format::tests::TESTS,
        crate::interp::number::tests::TESTS,
        crate::interp::pyhash::tests::TESTS,
        crate::interp::schema::tests::TESTS,
        crate::io::bytes::tests::TESTS,
        crate::io::csv::tests::TESTS,
        crate::io::npy::tests::TESTS,
        crate::io::npz::tests::TESTS,
        crate::io::ptfile::tests::TESTS,
        crate::io::safetensors::tests::TESTS,
        crate::memory::tests::TESTS,
        crate::print::error::tests::TESTS,
        crate::print::number::tests::TESTS,
        crate::repl::complete::tests::TESTS,
        crate::repl::highlight::tests::TESTS,
        crate::repl::lex::tests::TESTS,
        crate::syntax::indent::tests::TESTS,
        crate::syntax::lines::tests::TESTS,
        crate::teach::device_check::tests::TESTS,
        crate::teach::explain::tests::TESTS,
        crate::teach::lesson::tests::TESTS,
        crate::teach::picture::tests::TESTS,
        crate::teach::progress::tests::TESTS,
        crate::teach::stats::tests::TESTS,
        crate::teach::transcript::tests::TESTS,
        crate::tensor::op::fastmath::tests::TESTS,
        crate::tensor::op::fastmath_derived::tests::TESTS,
        crate::tensor::op::fastmath_erf::tests::TESTS,
        crate::tensor::op::igamma::tests::TESTS,
        crate::tensor::op::math::tests::TESTS,
        crate::tensor::op::program::tests::TESTS,
        crate::tensor::op::special::tests::TESTS,
        crate::tensor::ops::geqrf::tests::TESTS,
        crate::tensor::ops::getrf::tests::TESTS,
        crate::tensor::ops::potrf::tests::TESTS,
        crate::tensor::ops::update::tests::TESTS,
        crate::threads::tests::TESTS,
    ]
}
