//! The built-in example (`poly` without arguments).

#[test]
fn demo_runs_without_panicking() {
    let mut out = Vec::new();
    poly::demo::run_demo(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("# poly:"));
    assert!(text.contains("poly> lexmin Domain;"));
    // the compiled run prints the interpreter's checksum lines
    let ran = text.split("$ poly run trmv.c").nth(1).unwrap();
    let (compiled, interp) = ran.split_once("$ poly interp trmv.c n=300\n").unwrap();
    let sums = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                l.len() > 2 && !l.starts_with('#') && !l.starts_with("time") && !l.starts_with(' ')
            })
            .take_while(|l| !l.starts_with('$'))
            .map(String::from)
            .collect()
    };
    let c = sums(compiled.split_once('\n').unwrap().1);
    let i: Vec<String> = sums(interp).into_iter().take(c.len()).collect();
    assert!(!c.is_empty());
    assert_eq!(c, i);
}
