//! Every error kind is reachable, named, and never a panic.

mod common;

fn check(src: &str, kind: &str) {
    assert_eq!(
        common::error_kind(src),
        Some(match kind {
            "syntax" => "syntax",
            "name" => "name",
            "type" => "type",
            "shape" => "shape",
            "dtype" => "dtype",
            "device" => "device",
            "index" => "index",
            "value" => "value",
            "memory" => "memory",
            "recursion" => "recursion",
            "assert" => "assert",
            _ => "?",
        }),
        "{src}"
    );
}

#[test]
fn each_kind() {
    check("x = (1 +", "syntax");
    check("1 2", "syntax");
    check("undefined_thing", "name");
    check("zeros(2, nope=1)", "type");
    check("'a' + 1", "type");
    check("ones(2, 3) @ ones(2, 3)", "shape");
    check("ones(3) + ones(4)", "shape");
    check("ones(2, 3).view(4)", "shape");
    check("tensor([1, 2]).mean()", "dtype");
    check("tensor([1, 2]) @ tensor([1., 2.])", "dtype");
    check("t = tensor([1, 2]); t += 1.5", "dtype");
    check("ones(2).cuda()", "device");
    check("ones(2).to('cuda:1')", "device");
    check("ones(2, 3)[2]", "index");
    check("ones(2)[0, 0]", "index");
    check("ones(2).sum(3)", "index");
    check("tensor([1]) // 0", "value");
    check("1 / 0", "value");
    check("tensor([[1, 2], [3]])", "value");
    check("ones(2, 2).item()", "value");
    check("zeros(1000000, 1000000, 1000)", "memory");
    check("x = list(range(10**12))", "memory");
    check("x = 'ab' * 10**15", "memory");
    check("ones(1).expand(10**9, 10**9).sum()", "memory");
    check("fn f(n) { return f(n) }\nf(1)", "recursion");
    check("assert 1 == 2, 'no'", "assert");
}

#[test]
fn the_three_classic_mistakes_teach() {
    let shape = common::run("a = ones(2, 3)\nb = ones(2, 3)\na @ b");
    assert!(
        shape.contains("[2, 3] @ [2, 3]") && shape.contains("b.T"),
        "{shape}"
    );
    let dtype = common::run("tensor([1, 2]) @ tensor([1., 2.])");
    assert!(
        dtype.contains("int64") && dtype.contains("float32") && dtype.contains(".float()"),
        "{dtype}"
    );
    let device = common::run("ones(2).to('cuda')");
    assert!(
        device.contains("cuda:0") && device.contains("cpu"),
        "{device}"
    );
}

/// A memory error names the tensor that was asked for: its shape and dtype, not
/// those of an intermediate view or working buffer.
#[test]
fn memory_errors_name_the_requested_tensor() {
    let cases = [
        (
            "tensor([1, 2, 3]).repeat(10**9, 10**9)",
            "cannot allocate a [1000000000, 3000000000] int64 tensor",
        ),
        (
            "ones(2).expand(10**10, 2).contiguous()",
            "cannot allocate a [10000000000, 2] float32 tensor",
        ),
        (
            "zeros(10**6, 10**6, dtype=int8)",
            "cannot allocate a [1000000, 1000000] int8 tensor",
        ),
        (
            "ones(10**5, 1, dtype=float16)[:, [0] * 10**6]",
            "cannot allocate a [100000, 1000000] float16 tensor",
        ),
    ];
    for (src, want) in cases {
        let out = common::run(src);
        assert!(
            out.contains("error[memory]") && out.contains(want),
            "{src}:\n{out}"
        );
    }
}

#[test]
fn errors_inside_the_nn_prelude_name_it_not_the_users_file() {
    let out = common::run(
        "import torch.nn as nn\nm = nn.FractionalMaxPool2d(3, output_size=(20, 12))\nm(torch.randn(1, 1, 8, 8))",
    );
    assert!(out.contains("--> <test>:3:1"), "{out}");
    assert!(out.contains("--> <tsh's torch.nn prelude>:"), "{out}");
    assert!(out.contains(", in forward"), "{out}");
}
