//! Golden data printed by PyTorch itself (tests/fixtures): tensor bodies and
//! type promotion results must match exactly.

mod common;

#[test]
fn printing_matches_pytorch() {
    let data = common::json("printing.json");
    let mut failures = Vec::new();
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
        let got = common::run(&format!(
            "x = {expr}\nprint(x)\nprint(x.dtype)\nprint(x.shape)"
        ));
        let want = format!("{body}\n{dtype}\n[{}]\n", shape.join(", "));
        if got != want {
            failures.push(format!("{expr}\n--- want\n{want}--- got\n{got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} printing cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn promotion_matches_pytorch() {
    let data = common::json("promotion.json");
    let mut failures = Vec::new();
    let cases = data["cases"].as_array().expect("cases");
    assert!(cases.len() >= 280);
    for case in cases {
        let expr = case["tsh"].as_str().expect("tsh");
        let want = case["dtype"].as_str();
        let got = common::run(&format!("print(({expr}).dtype)"));
        match want {
            Some(w) if got.trim() == w => {}
            // A case without a dtype is one PyTorch refuses: tsh must refuse it too.
            None if common::error_kind(&format!("print(({expr}).dtype)")).is_some() => {}
            _ => failures.push(format!("{expr}: want {want:?}, got {}", got.trim())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} promotion cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
