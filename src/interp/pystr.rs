//! Python's `str` value: shared, immutable text, except that `s += t` may
//! extend it where it lies when nothing else holds it (CPython's trick: without
//! it, building a string in a loop copies the whole string every time).

use std::fmt;
use std::rc::Rc;

/// Text shared by every value that holds it. A `String` under the `Rc`, not a
/// `str`, so that the only holder can grow it with spare capacity.
#[derive(Clone, Default)]
pub struct PyStr(Rc<Text>);

#[derive(Default)]
struct Text {
    text: String,
    /// Whether every character is one byte (kept up to date by
    /// `append_if_unique`): then the length, `s[i]` and slices are byte
    /// arithmetic instead of a walk of the characters, as CPython's are
    /// (its strings keep one fixed width per character).
    ascii: Ascii,
}

/// Whether a text is ASCII; an empty text is.
#[derive(Clone, Copy)]
struct Ascii(bool);

impl Default for Ascii {
    fn default() -> Ascii {
        Ascii(true)
    }
}

thread_local! {
    /// The one-character ASCII strings, made once: `s[i]` and `for c in s`
    /// hand out these instead of making a string per character (CPython
    /// keeps the same table).
    static ONE_CHAR: [PyStr; 128] =
        std::array::from_fn(|b| PyStr::new((b as u8 as char).to_string()));
}

impl PyStr {
    fn new(text: String) -> PyStr {
        let ascii = Ascii(text.is_ascii());
        PyStr(Rc::new(Text { text, ascii }))
    }

    /// The string of one character.
    pub fn of_char(c: char) -> PyStr {
        if c.is_ascii() {
            return ONE_CHAR.with(|t| t[c as usize].clone());
        }
        PyStr::new(c.to_string())
    }

    /// Whether `a` and `b` are the same object (Python's `is`).
    pub fn ptr_eq(a: &PyStr, b: &PyStr) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }

    /// How many values hold this text.
    pub fn holders(&self) -> usize {
        Rc::strong_count(&self.0)
    }

    /// The address that `id()` reports.
    pub fn address(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// `self + tail` in place when nothing else holds the text; false, with
    /// nothing done, when something does (the caller makes a new string).
    pub fn append_if_unique(&mut self, tail: &str) -> bool {
        match Rc::get_mut(&mut self.0) {
            Some(t) => {
                t.text.push_str(tail);
                t.ascii.0 &= tail.is_ascii();
                true
            }
            None => false,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0.text
    }

    /// Python's `len`: the number of characters.
    pub fn char_len(&self) -> usize {
        if self.0.ascii.0 {
            return self.0.text.len();
        }
        self.0.text.chars().count()
    }

    /// Character `j` as a string (None past the end).
    pub fn char_at(&self, j: usize) -> Option<PyStr> {
        if self.0.ascii.0 {
            return self
                .0
                .text
                .as_bytes()
                .get(j)
                .map(|&b| PyStr::of_char(b as char));
        }
        self.0.text.chars().nth(j).map(PyStr::of_char)
    }

    /// The characters at `picks` (a slice's, in range), as a string.
    pub fn pick(&self, picks: &[usize]) -> PyStr {
        let text = &self.0.text;
        if self.0.ascii.0 {
            let bytes = text.as_bytes();
            let picked = picks
                .iter()
                .filter_map(|&i| bytes.get(i).map(|&b| b as char));
            return picked.collect::<String>().into();
        }
        let chars: Vec<char> = text.chars().collect();
        picks
            .iter()
            .filter_map(|&i| chars.get(i))
            .collect::<String>()
            .into()
    }
}

impl PartialEq for PyStr {
    fn eq(&self, other: &PyStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for PyStr {}

impl PartialOrd for PyStr {
    fn partial_cmp(&self, other: &PyStr) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PyStr {
    fn cmp(&self, other: &PyStr) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for PyStr {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl std::ops::Deref for PyStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for PyStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<Rc<str>> for PyStr {
    fn from(s: Rc<str>) -> PyStr {
        PyStr::new(s.to_string())
    }
}

impl From<&Rc<str>> for PyStr {
    fn from(s: &Rc<str>) -> PyStr {
        PyStr::new(s.to_string())
    }
}

impl From<String> for PyStr {
    fn from(s: String) -> PyStr {
        PyStr::new(s)
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> PyStr {
        PyStr::new(s.to_string())
    }
}

impl From<char> for PyStr {
    fn from(c: char) -> PyStr {
        PyStr::of_char(c)
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
