//! Python's hashing for the values a dict or set holds: equal values (as `==`
//! sees them: `1 == 1.0 == True`, a shape equals its tuple) hash alike, so a
//! lookup is one probe of a hash table, not a scan of every key.

use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::ops::values_equal;
use super::value::{FxHasher, Value};

/// The tables' hasher: FxHash, as for variables (keys are the program's own).
pub type Fx = BuildHasherDefault<FxHasher>;

/// A dict key or set member: hashed by `hash_value`, compared by `==`.
#[derive(Clone)]
pub struct Key(pub Value);

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_value(&self.0, h, 0);
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        values_equal(&self.0, &other.0)
    }
}

impl Eq for Key {}

/// A value to look up, borrowed (no clone into a `Key`).
pub struct Probe<'a>(pub &'a Value);

impl Hash for Probe<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_value(self.0, h, 0);
    }
}

impl indexmap::Equivalent<Key> for Probe<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        values_equal(self.0, &key.0)
    }
}

/// A string to look up (`d["lr"]` from Rust), hashed as its `Value::Str`.
pub struct StrProbe<'a>(pub &'a str);

impl Hash for StrProbe<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_str(self.0, h);
    }
}

impl indexmap::Equivalent<Key> for StrProbe<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        matches!(&key.0, Value::Str(s) if **s == *self.0)
    }
}

/// How deep into nested tuples the hash looks, and how many items of each:
/// enough to spread `(i, j)` keys; equal values still hash alike, since the
/// cut-off depends on their (equal) structure only.
const DEPTH: usize = 4;
const ITEMS: usize = 8;

fn hash_value<H: Hasher>(v: &Value, h: &mut H, depth: usize) {
    match v {
        Value::Int(i) => hash_int(*i, h),
        Value::Bool(b) => hash_int(*b as i64, h),
        Value::Float(f) => hash_float(*f, h),
        // A complex with no imaginary part equals its real part.
        Value::Complex(re, im) if *im == 0.0 => hash_float(*re, h),
        Value::Complex(re, im) => {
            h.write_u8(5);
            h.write_u64(re.to_bits());
            h.write_u64(im.to_bits());
        }
        Value::Str(s) => hash_str(s, h),
        Value::None => h.write_u8(3),
        Value::Tuple(_) | Value::List(_) | Value::Shape(_) | Value::Named(_) | Value::Range(..) => {
            // One kind for all sequences: `==` lets a shape equal a tuple.
            h.write_u8(4);
            let n = v.sequence_len();
            h.write_usize(n);
            if depth < DEPTH {
                for j in 0..n.min(ITEMS) {
                    if let Some(item) = v.sequence_item(j) {
                        hash_value(&item, h, depth + 1);
                    }
                }
            }
        }
        // The rest (classes, dtypes, devices) are few and rare as keys: one
        // bucket, where `==` tells them apart.
        _ => h.write_u8(6),
    }
}

fn hash_int<H: Hasher>(i: i64, h: &mut H) {
    h.write_u8(1);
    h.write_u64(i as u64);
}

/// A float with an integral value (in i64's range) as that int: what `==`
/// makes it equal to (`1.0 == 1`).
pub fn exact_int(f: f64) -> Option<i64> {
    (f.fract() == 0.0 && f.abs() < 9.2e18).then_some(f as i64)
}

/// A float with an integral value hashes as that int (`d[1.0]` finds `d[1]`).
fn hash_float<H: Hasher>(f: f64, h: &mut H) {
    if let Some(i) = exact_int(f) {
        return hash_int(i, h);
    }
    h.write_u8(2);
    h.write_u64(f.to_bits());
}

fn hash_str<H: Hasher>(s: &str, h: &mut H) {
    h.write_u8(0);
    h.write(s.as_bytes());
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash_of(v: &Value) -> u64 {
        Fx::default().hash_one(Key(v.clone()))
    }

    crate::unit_tests! {
        fn equal_numbers_hash_alike() {
            let one = hash_of(&Value::Int(1));
            assert_eq!(one, hash_of(&Value::Float(1.0)));
            assert_eq!(one, hash_of(&Value::Bool(true)));
            assert_eq!(one, hash_of(&Value::Complex(1.0, 0.0)));
            assert_eq!(hash_of(&Value::Int(0)), hash_of(&Value::Float(-0.0)));
            assert_ne!(one, hash_of(&Value::Int(2)));
            assert_ne!(hash_of(&Value::Float(0.5)), hash_of(&Value::Float(1.5)));
        }

        fn a_shape_hashes_as_its_tuple() {
            let tuple = Value::tuple(vec![Value::Int(2), Value::Int(3)]);
            let shape = Value::Shape(std::rc::Rc::new(vec![2, 3]));
            assert_eq!(hash_of(&tuple), hash_of(&shape));
            assert_ne!(hash_of(&tuple), hash_of(&Value::tuple(vec![Value::Int(3), Value::Int(2)])));
        }

        fn probes_hash_as_their_keys() {
            let s = Value::Str("lr".into());
            assert_eq!(hash_of(&s), Fx::default().hash_one(StrProbe("lr")));
            assert_eq!(hash_of(&s), Fx::default().hash_one(Probe(&s)));
        }
    }
}
