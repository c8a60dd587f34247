//! Golden data printed by PyTorch itself (tests/fixtures): tensor bodies and
//! type promotion results must match exactly.

/// The fixture holds PyTorch's tensor bodies without the dtype suffix; this is
/// how PyTorch's `_add_suffixes` adds it (on the last line, or on its own line
/// indented past `tensor(` when the last line would pass 80 columns).
fn with_dtype_suffix(body: &str, dtype: &str) -> String {
    if matches!(dtype, "float32" | "int64" | "bool") {
        return body.to_string();
    }
    let open = body.strip_suffix(')').expect("a tensor's text ends with )");
    let suffix = format!("dtype=torch.{dtype}");
    let last_line = open.len() - open.rfind('\n').map_or(0, |i| i + 1) + 1;
    if last_line + suffix.len() + 2 > 80 {
        format!("{open},\n       {suffix})")
    } else {
        format!("{open}, {suffix})")
    }
}

mod common;

use tsh::tensor::Device;

#[test]
fn printing_matches_pytorch() {
    let data = common::json("printing.json");
    let mut failures = Vec::new();
    for device in common::devices("printing fixtures") {
        printing_on(device, &data, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} printing cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn printing_on(device: Device, data: &serde_json::Value, failures: &mut Vec<String>) {
    for case in data["cases"].as_array().expect("cases") {
        let expr = case["tsh"].as_str().expect("tsh");
        let body = case["body"].as_str().expect("body");
        let dtype = case["dtype"].as_str().expect("dtype");
        let shape: Vec<String> = case["shape"]
            .as_array()
            .expect("shape")
            .iter()
            .map(|d| d.to_string())
            .collect();
        let got = common::run_on(
            device,
            &format!("x = {expr}\nprint(x)\nprint(x.dtype)\nprint(x.shape)"),
        );
        let want = format!(
            "{}\ntorch.{dtype}\ntorch.Size([{}])\n",
            with_dtype_suffix(body, dtype),
            shape.join(", ")
        );
        if got != want {
            failures.push(format!(
                "{expr} on {device}\n--- want\n{want}--- got\n{got}"
            ));
        }
    }
}

#[test]
fn promotion_matches_pytorch() {
    let data = common::json("promotion.json");
    let mut failures = Vec::new();
    let cases = data["cases"].as_array().expect("cases");
    assert!(cases.len() >= 280);
    for device in common::devices("promotion fixtures") {
        for case in cases {
            let expr = case["tsh"].as_str().expect("tsh");
            let want = case["dtype"].as_str();
            let got = common::run_on(device, &format!("print(({expr}).dtype)"));
            match want {
                Some(w) if got.trim() == format!("torch.{w}") => {}
                // A case without a dtype is one PyTorch refuses: tsh must refuse it too.
                None if got.contains("error[") => {}
                _ => failures.push(format!(
                    "{expr} on {device}: want {want:?}, got {}",
                    got.trim()
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} promotion cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// linspace gives PyTorch's exact numbers (tolist), on every device.
#[test]
fn linspace_matches_pytorch_digit_for_digit() {
    let data = common::json("linspace.json");
    let cases = data["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for device in common::devices("linspace fixtures") {
        for case in cases {
            let (start, end) = (&case["start"], &case["end"]);
            let (steps, dtype) = (&case["steps"], case["dtype"].as_str().expect("dtype"));
            let expr = format!("linspace({start}, {end}, {steps}, dtype={dtype})");
            let got = common::run_on(device, &format!("print({expr}.tolist())"));
            let got: serde_json::Value = match serde_json::from_str(got.trim()) {
                Ok(v) => v,
                Err(_) => {
                    failures.push(format!("{expr} on {device}: {got}"));
                    continue;
                }
            };
            let want = &case["values"];
            let same = got.as_array().map(Vec::len) == want.as_array().map(Vec::len)
                && got
                    .as_array()
                    .into_iter()
                    .flatten()
                    .zip(want.as_array().into_iter().flatten())
                    .all(|(g, w)| g.as_f64() == w.as_f64());
            if !same {
                failures.push(format!("{expr} on {device}:\n  got  {got}\n  want {want}"));
            }
        }
    }
    assert!(cases.len() >= 100);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
