//! Round trips, and golden files written by torch (fixtures/make.py).

use super::pickle::{BININT1, TUPLE1};
use super::*;

/// Fixture bytes; the folder is fixed at compile time.
macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/pt/",
            $name
        ))
        .as_slice()
    };
}

fn tensor(dtype: DType, shape: &[usize], data: Vec<u8>) -> TensorData {
    TensorData {
        dtype,
        shape: shape.to_vec(),
        data,
        requires_grad: false,
        parameter: false,
    }
}

fn f32_tensor(shape: &[usize], values: &[f32]) -> TensorData {
    tensor(
        DType::F32,
        shape,
        values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    )
}

fn f32_values(t: &TensorData) -> Vec<f32> {
    assert_eq!(t.dtype, DType::F32);
    t.data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn i64_values(t: &TensorData) -> Vec<i64> {
    assert_eq!(t.dtype, DType::I64);
    t.data
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

fn as_tensor(obj: &PyObj) -> &TensorData {
    match obj {
        PyObj::Tensor(t) => t,
        other => panic!("expected a tensor, got {other:?}"),
    }
}

/// The value under string key `key` of a dict or OrderedDict.
fn get<'a>(obj: &'a PyObj, key: &str) -> &'a PyObj {
    let (PyObj::Dict(items) | PyObj::OrderedDict(items)) = obj else {
        panic!("expected a dict, got {obj:?}");
    };
    let found = items.iter().find(|(k, _)| *k == PyObj::Str(key.into()));
    &found.unwrap_or_else(|| panic!("no key {key}")).1
}

fn s(text: &str) -> PyObj {
    PyObj::Str(text.into())
}

/// A tiny deterministic generator for the fuzz tests.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

crate::unit_tests! {
    fn round_trip_nested_and_every_dtype() {
        let mut param = f32_tensor(&[2, 2], &[1.0, -2.0, 3.5, 0.0]);
        param.parameter = true;
        param.requires_grad = true;
        let mut grad_leaf = f32_tensor(&[1], &[9.0]);
        grad_leaf.requires_grad = true;
        let dtypes = [
            (DType::F32, 4),
            (DType::F64, 8),
            (DType::F16, 2),
            (DType::BF16, 2),
            (DType::I64, 8),
            (DType::I32, 4),
            (DType::I16, 2),
            (DType::I8, 1),
            (DType::U8, 1),
            (DType::Bool, 1),
        ];
        let per_dtype = dtypes
            .iter()
            .map(|&(d, size)| {
                let data = (0..6 * size)
                    .map(|i| {
                        if d == DType::Bool {
                            (i % 2) as u8
                        } else {
                            i as u8
                        }
                    })
                    .collect();
                (
                    s(&format!("{d:?}")),
                    PyObj::Tensor(tensor(d, &[2, 3], data)),
                )
            })
            .collect();
        let long_list: Vec<PyObj> = (0..2500).map(PyObj::Int).collect();
        let obj = PyObj::Dict(vec![
            (
                s("model"),
                PyObj::OrderedDict(vec![
                    (s("w"), PyObj::Tensor(param)),
                    (s("g"), PyObj::Tensor(grad_leaf)),
                ]),
            ),
            (s("dtypes"), PyObj::Dict(per_dtype)),
            (
                s("scalar"),
                PyObj::Tensor(tensor(DType::F64, &[], 2.5f64.to_le_bytes().to_vec())),
            ),
            (
                s("empty"),
                PyObj::Tensor(tensor(DType::F32, &[0, 3], Vec::new())),
            ),
            (
                s("5d"),
                PyObj::Tensor(tensor(DType::U8, &[1, 2, 1, 2, 2], (0..8).collect())),
            ),
            (
                s("ints"),
                PyObj::List(
                    [
                        0,
                        255,
                        256,
                        65535,
                        65536,
                        -1,
                        -129,
                        i32::MIN as i64,
                        1 << 40,
                        -(1 << 40),
                        i64::MAX,
                        i64::MIN,
                    ]
                    .into_iter()
                    .map(PyObj::Int)
                    .collect(),
                ),
            ),
            (
                s("floats"),
                PyObj::Tuple(vec![
                    PyObj::Float(0.1),
                    PyObj::Float(-1e300),
                    PyObj::Float(f64::INFINITY),
                ]),
            ),
            (
                s("misc"),
                PyObj::Tuple(vec![
                    PyObj::None,
                    PyObj::Bool(true),
                    PyObj::Bool(false),
                    s("ünï€ode"),
                    s(""),
                ]),
            ),
            (
                s("big tuple"),
                PyObj::Tuple((0..5).map(PyObj::Int).collect()),
            ),
            (
                s("empties"),
                PyObj::List(vec![
                    PyObj::List(vec![]),
                    PyObj::Dict(vec![]),
                    PyObj::OrderedDict(vec![]),
                    PyObj::Tuple(vec![]),
                ]),
            ),
            (PyObj::Int(3), s("int key")),
            (PyObj::Tuple(vec![PyObj::Int(1), s("a")]), s("tuple key")),
            (s("long"), PyObj::List(long_list)),
        ]);
        let bytes = write(&obj).expect("write");
        assert!(is_torch_zip(&bytes));
        assert_eq!(read(&bytes).expect("read"), obj);
    }

    fn written_archive_layout() {
        let obj = PyObj::List(vec![
            PyObj::Tensor(f32_tensor(&[3], &[1.0, 2.0, 3.0])),
            PyObj::Tensor(f32_tensor(&[1], &[4.0])),
        ]);
        let bytes = write(&obj).expect("write");
        let mut zip = ZipArchive::new(Cursor::new(bytes.as_slice())).expect("zip");
        let names: Vec<String> = zip
            .file_names()
            .map(|n| n.expect("name").to_string())
            .collect();
        let expected = [
            "data.pkl",
            ".storage_alignment",
            "byteorder",
            "data/0",
            "data/1",
            "version",
            ".data/serialization_id",
        ];
        assert_eq!(names, expected.map(|n| format!("archive/{n}")));
        for i in 0..zip.len() {
            let file = zip.by_index(i).expect("entry");
            assert_eq!(file.compression(), CompressionMethod::Stored);
            assert_eq!(
                file.data_start().expect("data start") % 64,
                0,
                "entry {i} not aligned"
            );
        }
        let mut budget = u64::MAX;
        assert_eq!(
            read_record(&mut zip, "archive/version", &mut budget).expect("version"),
            b"3\n"
        );
    }

    fn writer_rejects_wrong_data_length() {
        let bad = PyObj::Tensor(tensor(DType::F32, &[2], vec![0; 7]));
        assert!(write(&bad).unwrap_err().contains("needs 8 bytes"));
    }

    fn golden_state_dict() {
        let sd = read(fixture!("state_dict.pt")).expect("read");
        let PyObj::OrderedDict(items) = &sd else {
            panic!("expected OrderedDict, got {sd:?}")
        };
        let keys: Vec<&PyObj> = items.iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [&s("0.weight"), &s("0.bias"), &s("2.weight"), &s("2.bias")]
        );
        let expect: [(&str, &[usize], &[f64]); 4] = [
            (
                "0.weight",
                &[3, 2],
                &[
                    -0.005293981172144413,
                    0.37932288646698,
                    -0.5819807648658752,
                    -0.5203874707221985,
                    -0.27234524488449097,
                    0.1896158903837204,
                ],
            ),
            (
                "0.bias",
                &[3],
                &[
                    -0.014010033570230007,
                    0.5606575012207031,
                    -0.06275151669979095,
                ],
            ),
            (
                "2.weight",
                &[1, 3],
                &[
                    0.1527741253376007,
                    -0.1744827926158905,
                    -0.11348707973957062,
                ],
            ),
            ("2.bias", &[1], &[-0.55157071352005]),
        ];
        for (key, shape, values) in expect {
            let t = as_tensor(get(&sd, key));
            assert_eq!(t.shape, shape, "{key}");
            let want: Vec<f32> = values.iter().map(|&v| v as f32).collect();
            assert_eq!(f32_values(t), want, "{key}");
            assert!(!t.requires_grad && !t.parameter);
        }
    }

    fn golden_views_share_one_storage() {
        let obj = read(fixture!("views.pt")).expect("read");
        let base: Vec<f32> = (0..12).map(|i| i as f32).collect();
        assert_eq!(f32_values(as_tensor(get(&obj, "base"))), base);
        let t = as_tensor(get(&obj, "t"));
        assert_eq!(t.shape, [4, 3]);
        assert_eq!(
            f32_values(t),
            [0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.]
        );
        let slice = as_tensor(get(&obj, "slice"));
        assert_eq!(
            (slice.shape.as_slice(), f32_values(slice)),
            ([2].as_slice(), vec![5., 6.])
        );
        let col = as_tensor(get(&obj, "col"));
        assert_eq!(
            (col.shape.as_slice(), f32_values(col)),
            ([3].as_slice(), vec![2., 6., 10.])
        );
    }

    fn golden_int64_bool_bf16() {
        let t = read(fixture!("int64.pt")).expect("read");
        let t = as_tensor(&t);
        assert_eq!(t.shape, [2, 3]);
        assert_eq!(i64_values(t), [1, -2, 3, 1 << 40, -(1 << 40), 0]);

        let b = read(fixture!("bool.pt")).expect("read");
        assert_eq!(*as_tensor(&b), tensor(DType::Bool, &[4], vec![1, 0, 1, 1]));

        let h = read(fixture!("bf16.pt")).expect("read");
        let h = as_tensor(&h);
        assert_eq!(h.dtype, DType::BF16);
        let values: Vec<f32> = h
            .data
            .chunks_exact(2)
            .map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect();
        assert_eq!(values, [1.5, -2.0, 3.140625, 0.0]);
    }

    fn golden_list_of_tensors_and_numbers() {
        let obj = read(fixture!("list.pt")).expect("read");
        let PyObj::List(items) = &obj else {
            panic!("expected a list, got {obj:?}")
        };
        assert_eq!(items.len(), 9);
        assert_eq!(items[0], PyObj::Tensor(f32_tensor(&[2], &[1.0, 2.0])));
        assert_eq!(items[1..3], [PyObj::Int(7), PyObj::Float(2.5)]);
        assert_eq!(
            items[3],
            PyObj::Tensor(tensor(DType::I32, &[], 3i32.to_le_bytes().to_vec()))
        );
        assert_eq!(items[4..7], [s("hi"), PyObj::None, PyObj::Bool(true)]);
        let ints = [1, -1000, 70000, 1 << 40].map(PyObj::Int).to_vec();
        assert_eq!(items[7], PyObj::Tuple(ints));
        let p = as_tensor(get(&items[8], "p"));
        assert!(p.parameter && p.requires_grad);
        assert_eq!(f32_values(p), [0.5, -0.5]);
    }

    fn golden_other_dtypes() {
        let obj = read(fixture!("dtypes.pt")).expect("read");
        let bytes = |key: &str, dtype: DType| {
            let t = as_tensor(get(&obj, key));
            assert_eq!(
                (t.dtype, t.shape.as_slice()),
                (dtype, [2].as_slice()),
                "{key}"
            );
            t.data.clone()
        };
        let f64s: Vec<u8> = [1.25f64, -2.5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(bytes("f64", DType::F64), f64s);
        let f16s: Vec<u8> = [0.5f32, -3.0]
            .iter()
            .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
            .collect();
        assert_eq!(bytes("f16", DType::F16), f16s);
        let i32s: Vec<u8> = [-7i32, 70000]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(bytes("i32", DType::I32), i32s);
        let i16s: Vec<u8> = [-300i16, 300]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(bytes("i16", DType::I16), i16s);
        assert_eq!(bytes("i8", DType::I8), [(-5i8) as u8, 5]);
        assert_eq!(bytes("u8", DType::U8), [0, 255]);
    }

    fn golden_shared_references() {
        let obj = read(fixture!("shared.pt")).expect("read");
        let list = PyObj::List(vec![PyObj::Int(1), PyObj::Int(2)]);
        assert_eq!((get(&obj, "a"), get(&obj, "b")), (&list, &list));
        let t = PyObj::Tensor(f32_tensor(&[2], &[4.0, 5.0]));
        assert_eq!((get(&obj, "t1"), get(&obj, "t2")), (&t, &t));
    }

    fn refuses_globals_outside_the_allow_list() {
        let err = read(fixture!("module.pt")).unwrap_err();
        assert!(
            err.contains("Unsupported global: GLOBAL __main__.Net"),
            "{err}"
        );
    }

    fn names_unsupported_formats() {
        let legacy = b"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.\x80\x02M\xe9\x03.";
        assert!(read(legacy).unwrap_err().contains("legacy"));
        assert!(!is_torch_zip(legacy));
        assert!(
            read(b"\x80\x02}q\x00.")
                .unwrap_err()
                .contains("bare pickle")
        );
        assert!(read(b"hello").unwrap_err().contains("not a zip"));

        // A TorchScript archive: data.pkl next to code/ and constants.pkl.
        let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
        for name in ["m/data.pkl", "m/code/__torch__.py", "m/constants.pkl"] {
            zip.start_file(name, SimpleFileOptions::default())
                .expect("start");
            zip.write_all(b"\x80\x02N.").expect("write");
        }
        let ts = zip.finish().expect("finish").into_inner();
        assert!(is_torch_zip(&ts));
        assert!(read(&ts).unwrap_err().contains("TorchScript"));

        let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
        zip.start_file("other.txt", SimpleFileOptions::default())
            .expect("start");
        let plain = zip.finish().expect("finish").into_inner();
        assert!(!is_torch_zip(&plain));
        assert!(read(&plain).unwrap_err().contains("without data.pkl"));
    }

    fn names_unknown_opcodes() {
        let storages = HashMap::new();
        let err = unpickle::load(b"\x80\x02\x81.", &storages, false, 1 << 20).unwrap_err();
        assert!(err.contains("NEWOBJ"), "{err}");
        let err = unpickle::load(b"\x80\x02\xff.", &storages, false, 1 << 20).unwrap_err();
        assert!(err.contains("0xff"), "{err}");
    }

    fn deep_nesting_is_an_error_not_a_crash() {
        let storages = HashMap::new();
        // 100k nested lists: `[` then `]a` repeated, each appended into the next.
        let mut pkl = vec![0x80, 2];
        pkl.extend(std::iter::repeat_n(b']', 100_000));
        pkl.extend(std::iter::repeat_n(b'a', 99_999));
        pkl.push(b'.');
        assert!(
            unpickle::load(&pkl, &storages, false, 1 << 30)
                .unwrap_err()
                .contains("deeply")
        );
        // A list appended into itself.
        let err = unpickle::load(b"\x80\x02]q\x00h\x00a.", &storages, false, 1 << 20).unwrap_err();
        assert!(err.contains("recursive"), "{err}");

        let mut deep = PyObj::None;
        for _ in 0..1000 {
            deep = PyObj::List(vec![deep]);
        }
        assert!(write(&deep).unwrap_err().contains("deeply"));
    }

    fn reads_big_endian_storages() {
        let values = [1.5f32, -2.0, 3.25];
        let obj = PyObj::Tensor(f32_tensor(&[3], &values));
        let (pkl, _) = pickle::dump(&obj).expect("dump");
        let be: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        let storages = HashMap::from([("0".to_string(), Rc::new(be))]);
        assert_eq!(
            unpickle::load(&pkl, &storages, true, 1 << 20).expect("load"),
            obj
        );
    }

    fn rejects_views_outside_their_storage() {
        let obj = PyObj::Tensor(f32_tensor(&[3], &[1.0, 2.0, 3.0]));
        let (pkl, storages) = pickle::dump(&obj).expect("dump");
        let short = HashMap::from([("0".to_string(), Rc::new(storages[0][..8].to_vec()))]);
        let err = unpickle::load(&pkl, &short, false, 1 << 20).unwrap_err();
        assert!(err.contains("shorter"), "{err}");
        // Shape (3,) with stride 2 over the 3-element storage reaches element 4.
        let strided = pkl
            .windows(3)
            .position(|w| w == [BININT1, 1, TUPLE1])
            .expect("stride tuple");
        let mut bad = pkl.clone();
        bad[strided + 1] = 2;
        let full = HashMap::from([("0".to_string(), Rc::new(storages[0].to_vec()))]);
        let err = unpickle::load(&bad, &full, false, 1 << 20).unwrap_err();
        assert!(err.contains("past the end"), "{err}");
        // A huge shape is refused before anything is allocated.
        let sized = pkl
            .windows(3)
            .position(|w| w == [BININT1, 3, TUPLE1])
            .expect("size tuple");
        let mut huge = pkl[..sized].to_vec();
        huge.extend([pickle::BININT, 0xff, 0xff, 0xff, 0x7f]);
        huge.extend(&pkl[sized + 2..]);
        let err = unpickle::load(&huge, &full, false, 1 << 20).unwrap_err();
        assert!(err.contains("too much data"), "{err}");
    }

    fn fuzz_truncated_and_random_files() {
        let written = write(&PyObj::List(vec![
            PyObj::Tensor(f32_tensor(&[2], &[1.0, 2.0])),
            PyObj::Int(3),
        ]))
        .expect("write");
        let files = [
            fixture!("state_dict.pt"),
            fixture!("views.pt"),
            fixture!("list.pt"),
            written.as_slice(),
        ];
        for file in files {
            for len in (0..file.len()).step_by(7) {
                assert!(read(&file[..len]).is_err());
            }
        }
        let mut state = 1;
        for _ in 0..300 {
            let len = (lcg(&mut state) % 3000) as usize;
            let mut bytes: Vec<u8> = (0..len).map(|_| lcg(&mut state) as u8).collect();
            if lcg(&mut state).is_multiple_of(2) {
                bytes.splice(0..0, *b"PK\x03\x04");
            }
            assert!(read(&bytes).is_err());
        }
    }

    fn fuzz_mutated_pickles() {
        // Pickles mutated in place go straight to the unpickler (the zip CRC
        // would reject them otherwise); any result is fine, a panic is not.
        let mut state = 7;
        for file in [
            fixture!("state_dict.pt"),
            fixture!("views.pt"),
            fixture!("list.pt"),
            fixture!("shared.pt"),
        ] {
            let mut zip = ZipArchive::new(Cursor::new(file)).expect("zip");
            let mut budget = u64::MAX;
            let pkl = read_record(&mut zip, "archive/data.pkl", &mut budget).expect("pkl");
            let storages = read_storages(&mut zip, "archive", &mut budget).expect("storages");
            for _ in 0..2000 {
                let mut bytes = pkl.clone();
                for _ in 0..1 + lcg(&mut state) % 4 {
                    let at = (lcg(&mut state) as usize) % bytes.len();
                    bytes[at] = lcg(&mut state) as u8;
                }
                let cut = (lcg(&mut state) as usize) % (bytes.len() + 1);
                let _ = unpickle::load(&bytes, &storages, false, 1 << 24);
                let _ = unpickle::load(&bytes[..cut], &storages, false, 1 << 24);
            }
        }
    }
}
