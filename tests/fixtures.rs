//! Golden data printed by PyTorch itself (tests/fixtures): tensor bodies and
//! type promotion results must match exactly.

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
        let want = format!("{body}\n{dtype}\n[{}]\n", shape.join(", "));
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
                Some(w) if got.trim() == w => {}
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
