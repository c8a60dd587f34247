//! CSV of numbers: rows of a 2-d tensor, one per line.

use crate::error::{Result, io_err};
use crate::tensor::Tensor;
use crate::tensor::dtype::DType;

/// Parse numbers into a `[rows, cols]` tensor of `dtype`, after skipping
/// `skip_header` lines. Every row must have as many fields as the first.
pub fn read(bytes: &[u8], skip_header: usize, delimiter: u8, dtype: DType) -> Result<Tensor> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(bytes);
    let mut values: Vec<f64> = vec![];
    let mut cols = None;
    let mut rows = 0;
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| io_err(format!("bad CSV: {e}")))?;
        if i < skip_header {
            continue;
        }
        let line = record.position().map(|p| p.line()).unwrap_or(i as u64 + 1);
        if record.iter().all(|f| f.is_empty()) {
            continue;
        }
        let n = *cols.get_or_insert(record.len());
        if record.len() != n {
            return Err(io_err(format!(
                "bad CSV: line {line} has {} fields, the first row has {n}",
                record.len()
            )));
        }
        for (c, field) in record.iter().enumerate() {
            let v = parse_number(field).ok_or_else(|| {
                io_err(format!(
                    "bad CSV: line {line}, column {}: {field:?} is not a number",
                    c + 1
                ))
                .hint("skip header lines with load_csv(path, skip_header=1)")
            })?;
            values.push(v);
        }
        rows += 1;
    }
    let cols = cols.unwrap_or(0);
    crate::tensor::core::check_alloc(&[rows, cols], dtype)?;
    Tensor::from_vec(values, &[rows, cols]).to_dtype(dtype)
}

fn parse_number(s: &str) -> Option<f64> {
    match s.to_ascii_lowercase().as_str() {
        "nan" => Some(f64::NAN),
        "inf" | "+inf" | "infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        "true" => Some(1.0),
        "false" => Some(0.0),
        t => t.parse::<f64>().ok(),
    }
}

/// A 0-, 1- or 2-d tensor as CSV text (a 1-d tensor is one column).
pub fn write(t: &Tensor) -> Result<String> {
    let (rows, cols) = match t.shape() {
        [] => (1, 1),
        [n] => (*n, 1),
        [r, c] => (*r, *c),
        s => {
            return Err(io_err(format!(
                "CSV holds a table; a {}-d tensor needs a reshape to 2-d first",
                s.len()
            ))
            .hint("t.reshape(t.shape[0], -1)"));
        }
    };
    let float = t.dtype().is_float();
    let (v, ints) = if float {
        (t.to_host_f64()?, vec![])
    } else {
        (vec![], t.to_host_i64()?)
    };
    let mut out = String::with_capacity(rows * cols * 8);
    for r in 0..rows {
        let line: Vec<String> = (0..cols)
            .map(|c| {
                if float {
                    crate::print::number::py_float_repr(v[r * cols + c])
                } else {
                    ints[r * cols + c].to_string()
                }
            })
            .collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    Ok(out)
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn reads_numbers_and_reports_bad_fields() {
            let t = read(b"a,b\n1, 2.5\n3,-4e1\n", 1, b',', DType::F32).unwrap();
            assert_eq!(t.shape(), &[2, 2]);
            assert_eq!(t.to_host_f64().unwrap(), vec![1.0, 2.5, 3.0, -40.0]);
            let e = read(b"1,2\n3,x\n", 0, b',', DType::F32).unwrap_err();
            assert!(e.message.contains("line 2, column 2"), "{e}");
            let e = read(b"1,2\n3\n", 0, b',', DType::F32).unwrap_err();
            assert!(e.message.contains("1 fields"), "{e}");
            let round = write(&t).unwrap();
            assert_eq!(round, "1.0,2.5\n3.0,-40.0\n");
        }
    }
}
