//! Element types, their names and aliases, and their categories.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    U8,
    I8,
    I16,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
    /// complex64 and complex128: (re, im) pairs of f32 / f64. Their storage is a
    /// real buffer of twice the length (see `tensor::complex`); the backends only
    /// ever see that real buffer.
    C64,
    C128,
}

/// The real dtypes (what the backends store and compute; complex is layered on them).
pub const ALL_DTYPES: [DType; 10] = [
    DType::Bool,
    DType::U8,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::F16,
    DType::BF16,
    DType::F32,
    DType::F64,
];

impl DType {
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    /// A dtype by any of the names PyTorch accepts (`float`, `long`, `half`, ...).
    pub fn from_name(name: &str) -> Option<DType> {
        let d = match name {
            "bool" => DType::Bool,
            "uint8" => DType::U8,
            "int8" => DType::I8,
            "int16" | "short" => DType::I16,
            "int32" | "int" => DType::I32,
            "int64" | "long" => DType::I64,
            "float16" | "half" => DType::F16,
            "bfloat16" => DType::BF16,
            "float32" | "float" => DType::F32,
            "float64" | "double" => DType::F64,
            "complex64" | "cfloat" => DType::C64,
            "complex128" | "cdouble" => DType::C128,
            _ => return None,
        };
        Some(d)
    }

    pub fn size(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// The largest finite value of a float dtype (torch.finfo(dtype).max); None for
    /// integer and bool dtypes.
    pub fn max_finite(self) -> Option<f64> {
        match self {
            DType::F16 => Some(65504.0),
            DType::BF16 => Some(3.389_531_389_251_535_5e38),
            DType::F32 => Some(f32::MAX as f64),
            DType::F64 => Some(f64::MAX),
            _ => None,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }
    pub fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }
    /// The dtype of a complex dtype's parts (float32 for complex64); other dtypes
    /// are their own.
    pub fn real_part(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            d => d,
        }
    }
    /// The complex dtype whose parts are this float dtype (complex64 for float32
    /// and the half types, complex128 for float64).
    pub fn to_complex(self) -> DType {
        match self {
            DType::F64 | DType::C128 => DType::C128,
            _ => DType::C64,
        }
    }
    /// The smallest and largest value of an integer dtype (0 and 1 for bool).
    pub fn int_range(self) -> (i64, i64) {
        match self {
            DType::Bool => (0, 1),
            DType::U8 => (0, u8::MAX as i64),
            DType::I8 => (i8::MIN as i64, i8::MAX as i64),
            DType::I16 => (i16::MIN as i64, i16::MAX as i64),
            DType::I32 => (i32::MIN as i64, i32::MAX as i64),
            _ => (i64::MIN, i64::MAX),
        }
    }

    /// float16 and bfloat16: stored in 16 bits, computed in float32.
    pub fn is_reduced_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16)
    }
    pub fn is_int(self) -> bool {
        matches!(
            self,
            DType::U8 | DType::I8 | DType::I16 | DType::I32 | DType::I64
        )
    }
    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }

    /// 0 for bool, 1 for integers, 2 for floats, 3 for complex: PyTorch's
    /// promotion categories.
    pub fn category(self) -> u8 {
        if self.is_bool() {
            0
        } else if self.is_int() {
            1
        } else if self.is_complex() {
            3
        } else {
            2
        }
    }

    /// The name PyTorch uses in messages such as "result type Float".
    pub fn torch_scalar_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::U8 => "Byte",
            DType::I8 => "Char",
            DType::I16 => "Short",
            DType::I32 => "Int",
            DType::I64 => "Long",
            DType::F16 => "Half",
            DType::BF16 => "BFloat16",
            DType::F32 => "Float",
            DType::F64 => "Double",
            DType::C64 => "ComplexFloat",
            DType::C128 => "ComplexDouble",
        }
    }

    /// The method that converts to this dtype (`.float()`), for hints.
    pub fn conversion(self) -> String {
        match self {
            DType::F32 => ".float()".into(),
            DType::F64 => ".double()".into(),
            DType::F16 => ".half()".into(),
            DType::I64 => ".long()".into(),
            DType::I32 => ".int()".into(),
            DType::Bool => ".bool()".into(),
            DType::U8 => ".byte()".into(),
            d => format!(".to({})", d.name()),
        }
    }
}

impl std::fmt::Display for DType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

thread_local! {
    /// `torch.set_default_dtype`: the dtype of float data and of creation
    /// functions without `dtype=` (one per interpreter thread).
    static DEFAULT_FLOAT: std::cell::Cell<DType> = const { std::cell::Cell::new(DType::F32) };
}

pub fn default_float() -> DType {
    DEFAULT_FLOAT.with(|d| d.get())
}

pub fn set_default_float(d: DType) {
    DEFAULT_FLOAT.with(|c| c.set(d));
}
