//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared kernels directory (`kernels` in the shared folder, which
/// `testkit` locates; it may not exist).
pub fn shared_dir() -> PathBuf {
    testkit::shared_dir().join("kernels")
}

/// This crate's own kernels.
pub fn own_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

/// `*.c` files of a directory, sorted.
pub fn c_files(dir: &std::path::Path) -> Vec<PathBuf> {
    testkit::files_with_suffix(dir, ".c")
}

/// All kernels: shared ones (if present) and ours.
pub fn all_kernels() -> Vec<PathBuf> {
    let mut v = c_files(&shared_dir());
    v.extend(c_files(&own_dir()));
    v
}

/// Small parameter values for a kernel: time-step parameters get 3, the
/// others 7, 9, 11, ... in signature order.
pub fn param_values(src: &str) -> Vec<(String, i64)> {
    let f = scop::parse_kernel(src).expect("kernel parses");
    let mut out = Vec::new();
    let mut k = 0;
    for p in &f.params {
        if let scop::ast::ParamKind::Int(_) = p.kind {
            let v = if p.name.starts_with('T') {
                3
            } else {
                7 + 2 * (k % 4)
            };
            k += 1;
            out.push((p.name.clone(), v));
        }
    }
    out
}

/// Extracts the string value of `"key": "..."` from simple JSON.
pub fn json_str(text: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\": \"");
    let start = text.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return Some(out),
            c => out.push(c),
        }
    }
    None
}
