//! Python's `str` value: shared, immutable text, except that `s += t` may
//! extend it where it lies when nothing else holds it (CPython's trick: without
//! it, building a string in a loop copies the whole string every time).

use std::fmt;
use std::rc::Rc;

/// Text shared by every value that holds it. A `String` under the `Rc`, not a
/// `str`, so that the only holder can grow it with spare capacity.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyStr(Rc<String>);

impl PyStr {
    /// Whether `a` and `b` are the same object (Python's `is`).
    pub fn ptr_eq(a: &PyStr, b: &PyStr) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }

    /// `self + tail` in place when nothing else holds the text; false, with
    /// nothing done, when something does (the caller makes a new string).
    pub fn append_if_unique(&mut self, tail: &str) -> bool {
        match Rc::get_mut(&mut self.0) {
            Some(text) => {
                text.push_str(tail);
                true
            }
            None => false,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for PyStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for PyStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for PyStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<String> for PyStr {
    fn from(s: String) -> PyStr {
        PyStr(Rc::new(s))
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> PyStr {
        PyStr(Rc::new(s.to_string()))
    }
}

impl From<&String> for PyStr {
    fn from(s: &String) -> PyStr {
        PyStr(Rc::new(s.clone()))
    }
}

impl From<Rc<str>> for PyStr {
    fn from(s: Rc<str>) -> PyStr {
        PyStr(Rc::new(s.to_string()))
    }
}

impl From<&Rc<str>> for PyStr {
    fn from(s: &Rc<str>) -> PyStr {
        PyStr(Rc::new(s.to_string()))
    }
}

impl From<char> for PyStr {
    fn from(c: char) -> PyStr {
        PyStr(Rc::new(c.to_string()))
    }
}

impl From<&PyStr> for Rc<str> {
    fn from(s: &PyStr) -> Rc<str> {
        Rc::from(s.as_str())
    }
}

impl From<PyStr> for Rc<str> {
    fn from(s: PyStr) -> Rc<str> {
        Rc::from(s.as_str())
    }
}

impl PartialEq<str> for PyStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for PyStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
