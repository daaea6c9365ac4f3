//! Error lines of `poly calc --batch` name the user's variables (issue 21): an
//! unbounded lexicographic optimum names the dimension that has no bound, also
//! when outputs before it are fixed by equalities (the parametric search then
//! works on fewer unknowns, and used to name the first output).

use std::io::Write;
use std::process::{Command, Stdio};

fn batch(script: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(["calc", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("poly runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn unbounded_optima_name_the_unbounded_dimension() {
    let cases = [
        (
            "lexmin { [i] -> [i + 1, k] : k <= i };",
            "k has no lower bound",
        ),
        (
            "lexmin { [i] -> [j, k] : j = i + 1 and k <= i };",
            "k has no lower bound",
        ),
        (
            "lexmin { [i] -> [j, k, l] : j = i and k = i and l <= i };",
            "l has no lower bound",
        ),
        (
            "lexmin [n] -> { [j, k] : j = n + 1 and k <= n };",
            "k has no lower bound",
        ),
        (
            "lexmax [n] -> { [j, k] : j = n + 1 and k >= n };",
            "k has no upper bound",
        ),
        ("lexmax { [i] -> [j] : j >= i };", "j has no upper bound"),
        (
            "lexmin { [i, j] : j <= i and i >= 0 };",
            "j has no lower bound",
        ),
    ];
    let script: String = cases.iter().map(|(s, _)| format!("{s}\n")).collect();
    let lines = batch(&script);
    assert_eq!(lines.len(), cases.len(), "{lines:?}");
    for ((stmt, want), got) in cases.iter().zip(&lines) {
        assert!(
            got.starts_with("error") && got.ends_with(want),
            "{stmt}: {got} (want ... {want})"
        );
    }
}
