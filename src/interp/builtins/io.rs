//! Data in and out from the language: save, load, savez, savez_compressed, load_csv.

use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, io_err, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::io::{self, Format};
use crate::row;
use crate::tensor::{DType, Tensor};

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "save",
        "save(obj, f)",
        "Write obj to file f in PyTorch's own format (tensors, state_dicts, dicts and lists of them), or, by extension, a tensor as .npy/.csv or a dict of tensors as .npz/.safetensors. The write is atomic.",
        "save(arange(6.).reshape(2, 3), '/tmp/tsh_example.npy')",
        save
    ),
    row!(
        Function,
        "load",
        "load(f, map_location=None, weights_only=None)",
        "Read a file of torch.save (PyTorch's or tsh's; no code runs), NumPy, safetensors or CSV: .npy → tensor, .npz and .safetensors → dict of tensors, .csv → tensor.",
        "save(eye(2), '/tmp/tsh_example2.npy'); load('/tmp/tsh_example2.npy')",
        load
    ),
    row!(
        Function,
        "savez",
        "savez(f, *tensors, **named)",
        "Write tensors to an .npz archive, as numpy.savez: named ones under their names, the others as arr_0, arr_1, ...",
        "savez('/tmp/tsh_example.npz', x=ones(2), y=zeros(3)); load('/tmp/tsh_example.npz')",
        savez
    ),
    row!(
        Function,
        "savez_compressed",
        "savez_compressed(f, *tensors, **named)",
        "savez, with each array deflated (numpy.savez_compressed).",
        "savez_compressed('/tmp/tsh_example_c.npz', x=zeros(100)); load('/tmp/tsh_example_c.npz')['x'].shape",
        savez_compressed
    ),
    row!(
        Function,
        "load_csv",
        "load_csv(f, skip_header=0, delimiter=',', dtype=float32)",
        "Read a CSV file of numbers as a [rows, columns] tensor.",
        "save(tensor([[1, 2], [3, 4]]), '/tmp/tsh_example.csv'); load_csv('/tmp/tsh_example.csv')",
        load_csv
    ),
];

fn path_arg(a: &mut Args, param: &str) -> Result<String> {
    let p = a.string(param)?;
    if p.is_empty() {
        return Err(io_err("the file name is empty"));
    }
    Ok(p)
}

/// Named tensors from a dict value.
fn named_tensors(v: &Value, what: &str) -> Result<Vec<(String, Tensor)>> {
    match v {
        Value::Dict(d) => d
            .borrow()
            .iter()
            .map(|(k, v)| match (k, v) {
                (Value::Str(k), Value::Tensor(t)) => Ok((k.to_string(), t.clone())),
                (k, Value::Tensor(_)) => Err(type_err(format!(
                    "{what} names its tensors by string keys, not {}",
                    k.a_type_name()
                ))),
                (k, other) => Err(type_err(format!(
                    "{what} holds tensors only, but {} is {}",
                    crate::print::value::plain(k),
                    other.a_type_name()
                ))),
            })
            .collect(),
        other => Err(type_err(format!(
            "{what} stores a dict of tensors, not {}",
            other.a_type_name()
        ))
        .hint("e.g. save(dict(weight=w, bias=b), \"model.safetensors\")")),
    }
}

fn as_dict(entries: Vec<(String, Tensor)>) -> Value {
    Value::dict(
        entries
            .into_iter()
            .map(|(k, t)| (Rc::from(k.as_str()), Value::Tensor(t)))
            .collect(),
    )
}

fn save(_: &mut Interp, mut a: Args) -> Result<Value> {
    let obj = a.value("obj")?;
    let path = path_arg(&mut a, "f")?;
    a.finish()?;
    let Some(format) = io::format_of(&path) else {
        io::write_atomic(&path, &super::torch_file::save(&obj)?)?;
        return Ok(Value::None);
    };
    let bytes = match (format, &obj) {
        (Format::Npy, Value::Tensor(t)) => io::npy::encode(t)?,
        (Format::Csv, Value::Tensor(t)) => io::csv::write(t)?.into_bytes(),
        (Format::Npz, Value::Tensor(t)) => io::npz::write(&[("arr_0".into(), t.clone())], false)?,
        (Format::Npz, v) => io::npz::write(&named_tensors(v, ".npz")?, false)?,
        (Format::Safetensors, v) => io::safetensors::write(&named_tensors(v, ".safetensors")?)?,
        (f, other) => {
            return Err(type_err(format!(
                "a {} file stores one tensor, not a {}",
                f.name(),
                other.type_name()
            ))
            .hint("save a dict of tensors as .npz or .safetensors"));
        }
    };
    io::write_atomic(&path, &bytes)?;
    Ok(Value::None)
}

fn load(_: &mut Interp, mut a: Args) -> Result<Value> {
    let path = path_arg(&mut a, "f")?;
    let device = match a.take("map_location") {
        None | Some((Value::None, _)) => None,
        Some((v, s)) => Some(crate::interp::convert::to_device(&v).map_err(|e| e.at(s))?),
    };
    // weights_only=False would let PyTorch run code from the file; tsh never does.
    let _ = a.take("weights_only");
    let _ = a.take("mmap");
    a.finish()?;
    let bytes = io::read(&path)?;
    if io::pt::is_torch_zip(&bytes) {
        return super::torch_file::load(&bytes, device).map_err(|e| {
            let mut out = io_err(format!("{path}: {}", e.message));
            out.hint = e.hint;
            out
        });
    }
    let format = io::format_of(&path)
        .or_else(|| io::sniff(&bytes))
        .ok_or_else(|| {
            io_err(format!(
                "{path}: not a .npy, .npz, .safetensors or .csv file"
            ))
        })?;
    let in_file = |e: crate::error::Error| {
        let mut out = io_err(format!("{path}: {}", e.message));
        out.hint = e.hint;
        out
    };
    Ok(match format {
        Format::Npy => Value::Tensor(io::npy::decode(&bytes).map_err(in_file)?),
        Format::Npz => as_dict(io::npz::read(&bytes).map_err(in_file)?),
        Format::Safetensors => as_dict(io::safetensors::read(&bytes).map_err(in_file)?),
        Format::Csv => Value::Tensor(io::csv::read(&bytes, 0, b',', DType::F32).map_err(in_file)?),
    })
}

fn savez_with(mut a: Args, compressed: bool) -> Result<Value> {
    let path = path_arg(&mut a, "f")?;
    let mut entries = vec![];
    for (i, (v, s)) in a.rest().into_iter().enumerate() {
        match v {
            Value::Tensor(t) => entries.push((format!("arr_{i}"), t)),
            other => {
                return Err(
                    type_err(format!("savez stores tensors, not {}", other.a_type_name())).at(s),
                );
            }
        }
    }
    for (k, v, s) in std::mem::take(&mut a.keywords) {
        match v {
            Value::Tensor(t) => entries.push((k, t)),
            other => {
                return Err(type_err(format!(
                    "savez stores tensors, but {k} is {}",
                    other.a_type_name()
                ))
                .at(s));
            }
        }
    }
    a.finish()?;
    io::write_atomic(&path, &io::npz::write(&entries, compressed)?)?;
    Ok(Value::None)
}

fn savez(_: &mut Interp, a: Args) -> Result<Value> {
    savez_with(a, false)
}

fn savez_compressed(_: &mut Interp, a: Args) -> Result<Value> {
    savez_with(a, true)
}

fn load_csv(_: &mut Interp, mut a: Args) -> Result<Value> {
    let path = path_arg(&mut a, "f")?;
    let skip = a.int_or("skip_header", 0)?.max(0) as usize;
    let delimiter = match a.take("delimiter") {
        None => b',',
        Some((Value::Str(s), _)) if s.len() == 1 => s.as_bytes()[0],
        Some((v, s)) => {
            return Err(type_err(format!(
                "delimiter is one character, like ',' or '\\t', not {}",
                crate::print::value::repr_with(&v, &Default::default())
            ))
            .at(s));
        }
    };
    let dtype = a.dtype_kw()?.unwrap_or(DType::F32);
    a.finish()?;
    let bytes = io::read(&path)?;
    io::csv::read(&bytes, skip, delimiter, dtype)
        .map(Value::Tensor)
        .map_err(|e| {
            let mut out = io_err(format!("{path}: {}", e.message));
            out.hint = e.hint;
            out
        })
}
