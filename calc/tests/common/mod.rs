//! Helpers shared by the calculator's test files.

use calc::run_script;

/// Run a script in batch mode; the output lines.
pub fn run(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    run_script(src, true, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}
