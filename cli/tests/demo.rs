//! The built-in example (`poly` without arguments).

#[test]
fn demo_runs_without_panicking() {
    let mut out = Vec::new();
    poly::demo::run_demo(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("# poly:"));
    assert!(text.contains("poly> lexmin Domain;"));
}
