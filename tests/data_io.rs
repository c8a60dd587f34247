//! Data in and out: round trips through save/load for every format and dtype,
//! files written by NumPy itself (shipped fixtures, and fresh ones when python3
//! with numpy is installed), and bad files that must be `io` errors.

use tsh::interp::{Buffer, Interp};

fn run(it: &mut Interp, out: &Buffer, code: &str) -> String {
    out.take();
    if let Err(e) = it.run(code, true) {
        return format!("{e}");
    }
    out.take()
}

fn session() -> (Interp, Buffer) {
    let out = Buffer::default();
    (Interp::new(Box::new(out.clone())), out)
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tsh-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/numpy");

#[test]
fn every_dtype_round_trips_through_npy_npz_and_safetensors() {
    let (mut it, out) = session();
    for dtype in [
        "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
    ] {
        let npy = tmp(&format!("{dtype}.npy"));
        let npz = tmp(&format!("{dtype}.npz"));
        let st = tmp(&format!("{dtype}.safetensors"));
        let code = format!(
            "_ = manual_seed(1)\nt = (randn(3, 4) * 5).to({dtype})[:, 1:]\n\
             save(t, '{npy}')\nsavez('{npz}', t, named=t.T)\n\
             save(dict(w=t, v=t[0]), '{st}')\n\
             a = load('{npy}'); z = load('{npz}'); s = load('{st}')\n\
             print(equal(a, t), a.dtype, equal(z['arr_0'], t), equal(z['named'], t.T), equal(s['w'], t), equal(s['v'], t[0]), z.keys())"
        );
        let got = run(&mut it, &out, &code);
        assert_eq!(
            got,
            format!("True torch.{dtype} True True True True dict_keys(['arr_0', 'named'])\n"),
            "{dtype}"
        );
    }
    // bfloat16 has no NumPy dtype but safetensors keeps it.
    let st = tmp("bf16.safetensors");
    let got = run(
        &mut it,
        &out,
        &format!(
            "w = tensor([1.5, -2.], dtype=bfloat16); save(dict(w=w), '{st}'); load('{st}')['w'].dtype"
        ),
    );
    assert_eq!(got, "torch.bfloat16\n");
    let got = run(
        &mut it,
        &out,
        &format!("save(tensor([1.], dtype=bfloat16), '{}')", tmp("b.npy")),
    );
    assert!(got.starts_with("error[io]: NumPy has no bfloat16"), "{got}");
}

#[test]
fn csv_round_trip_and_skip_header() {
    let (mut it, out) = session();
    let f = tmp("table.csv");
    std::fs::write(&f, "x,y\n1,2.5\n3,-4\n# a comment\n5,6\n").unwrap();
    let got = run(&mut it, &out, &format!("load_csv('{f}', skip_header=1)"));
    assert_eq!(
        got,
        "tensor([[ 1.0000,  2.5000],\n        [ 3.0000, -4.0000],\n        [ 5.0000,  6.0000]])\n[3, 2] float32 cpu\n"
    );
    let g = tmp("ints.csv");
    let got = run(
        &mut it,
        &out,
        &format!("save(tensor([[1, 2], [3, 4]]), '{g}'); load_csv('{g}', dtype=int64).tolist()"),
    );
    assert_eq!(got, "[[1, 2], [3, 4]]\n");
    let got = run(&mut it, &out, &format!("load_csv('{f}')"));
    assert!(
        got.starts_with("error[io]:") && got.contains("line 1, column 1"),
        "{got}"
    );
}

#[test]
fn files_written_by_numpy_load() {
    let (mut it, out) = session();
    let cases = [
        (
            "f32_2x3.npy",
            "tensor([[0.0000, 0.2500, 0.5000],\n        [0.7500, 1.0000, 1.2500]])\n[2, 3] float32 cpu\n",
        ),
        (
            "i64_fortran.npy",
            "tensor([[-5, -4, -3, -2],\n        [-1,  0,  1,  2],\n        [ 3,  4,  5,  6]])\n[3, 4] int64 cpu\n",
        ),
        (
            "f64_big_endian.npy",
            "tensor([ 1.5000e+00, -2.2500e+00, 1.0000e+300], dtype=torch.float64)\n[3] float64 cpu\n",
        ),
        (
            "bool.npy",
            "tensor([[ True, False],\n        [False,  True]])\n[2, 2] bool cpu\n",
        ),
        (
            "u8.npy",
            "tensor([  0,   7, 255], dtype=torch.uint8)\n[3] uint8 cpu\n",
        ),
        (
            "f16_scalar.npy",
            "tensor(3.5000, dtype=torch.float16)\n[] float16 cpu\n",
        ),
        (
            "i8_empty.npy",
            "tensor([], size=(0, 3), dtype=torch.int8)\n[0, 3] int8 cpu\n",
        ),
    ];
    for (file, want) in cases {
        let got = run(&mut it, &out, &format!("load('{FIXTURES}/{file}')"));
        assert_eq!(got, want, "{file}");
    }
    let got = run(
        &mut it,
        &out,
        &format!("d = load('{FIXTURES}/pair.npz'); print(d.keys(), d['x'].dtype, d['y'].tolist())"),
    );
    assert_eq!(
        got,
        "dict_keys(['x', 'y']) torch.int32 [[1.0, 0.0], [0.0, 1.0]]\n"
    );
    let got = run(
        &mut it,
        &out,
        &format!(
            "d = load('{FIXTURES}/compressed.npz'); print(d.keys(), d['big'].sum().item(), d['arr_0'].tolist())"
        ),
    );
    assert_eq!(
        got,
        "dict_keys(['big', 'arr_0']) 499500 [0.0, 0.25, 0.5, 0.75, 1.0]\n"
    );
}

#[test]
fn bad_files_are_io_errors_and_the_session_goes_on() {
    let (mut it, out) = session();
    let good = std::fs::read(format!("{FIXTURES}/f32_2x3.npy")).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated.npy", good[..good.len() - 5].to_vec()),
        ("header_cut.npy", good[..20].to_vec()),
        ("not_numpy.npy", b"hello world, not an array".to_vec()),
        ("empty.npz", vec![]),
        (
            "garbage.safetensors",
            b"\xff\xff\xff\xff\xff\xff\xff\xff{".to_vec(),
        ),
        ("complex.npy", {
            let mut c = good.clone();
            let at = c.windows(3).position(|w| w == b"<f4").unwrap();
            c[at + 1] = b'c';
            c[at + 2] = b'8';
            c
        }),
    ];
    for (name, bytes) in cases {
        let f = tmp(name);
        std::fs::write(&f, bytes).unwrap();
        let got = run(&mut it, &out, &format!("x = 1; x = load('{f}')"));
        assert!(got.starts_with("error[io]:"), "{name}: {got}");
        assert_eq!(
            run(&mut it, &out, "x"),
            "1\n",
            "{name}: the variable was lost"
        );
    }
    let got = run(&mut it, &out, "load('/nonexistent/dir/x.npy')");
    assert!(got.starts_with("error[io]: cannot read"), "{got}");
    let got = run(&mut it, &out, "save(ones(2), '/nonexistent/dir/x.npy')");
    assert!(got.starts_with("error[io]: cannot write"), "{got}");
    // Any other name is PyTorch's own format, as torch.save writes it.
    let path = tmp("x.unknown");
    let got = run(
        &mut it,
        &out,
        &format!("save(ones(2), '{path}'); print(load('{path}'))"),
    );
    assert_eq!(got, "tensor([1., 1.])\n");
    let got = run(&mut it, &out, &format!("save(nn.Linear(2, 1), '{path}')"));
    assert!(got.contains("not a whole Linear module"), "{got}");
}

/// With python3 and numpy present, files go both ways: NumPy reads what tsh
/// wrote and tsh reads what NumPy writes now.
#[test]
fn numpy_reads_what_tsh_writes() {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!(
            "numpy_reads_what_tsh_writes: python3 with numpy is not installed; the shipped fixtures cover reading"
        );
        return;
    }
    let (mut it, out) = session();
    let npy = tmp("from_tsh.npy");
    let npz = tmp("from_tsh.npz");
    run(
        &mut it,
        &out,
        &format!(
            "save(arange(12).reshape(3, 4).T, '{npy}'); savez_compressed('{npz}', a=tensor([0.5, 1.5], dtype=float16), b=tensor([true, false]))"
        ),
    );
    let script = format!(
        "import numpy as np\na = np.load('{npy}'); print(a.dtype, a.shape, a.tolist())\nz = np.load('{npz}'); print(sorted(z.files), z['a'].dtype, z['a'].tolist(), z['b'].tolist())\nnp.save('{npy}2.npy', np.arange(5, dtype=np.uint8)[::2])"
    );
    let o = std::process::Command::new("python3")
        .args(["-c", &script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        text,
        "int64 (4, 3) [[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]]\n['a', 'b'] float16 [0.5, 1.5] [True, False]\n",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let got = run(&mut it, &out, &format!("load('{npy}2.npy').tolist()"));
    assert_eq!(got, "[0, 2, 4]\n");
}
