//! Where the shared test data lives: the folder `shared` beside the
//! repository (`../shared` from the workspace root), or the folder named by
//! the environment variable `POLY_SHARED_DIR` (useful in a git worktree that
//! has no `shared` beside it).
//!
//! This is the one place that builds the path; tests that find the folder
//! missing print a note and pass vacuously, as CI on a bare clone expects.

use std::path::{Path, PathBuf};

/// The environment variable that overrides [`shared_dir`].
pub const SHARED_DIR_VAR: &str = "POLY_SHARED_DIR";

/// The workspace root (the folder holding the workspace `Cargo.toml`).
pub fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// The shared folder: `$POLY_SHARED_DIR` when set, else `../shared` from the
/// workspace root. It may not exist; see [`shared_path`].
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(SHARED_DIR_VAR) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => workspace_dir().join("../shared"),
    }
}

/// `rel` inside the shared folder (e.g. `"conformance"`,
/// `"conformance/small.jsonl"`, `"kernels"`), if it exists.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let p = shared_dir().join(rel);
    p.exists().then_some(p)
}

/// The files of `dir` whose names end with `suffix` (e.g. `".c"`,
/// `".model.json"`), sorted; empty when the folder is missing.
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.to_string_lossy().ends_with(suffix))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The C kernels of the shared folder (`kernels/*.c`), sorted; empty when
/// the folder is missing.
pub fn shared_kernel_sources() -> Vec<PathBuf> {
    shared_path("kernels")
        .map(|d| files_with_suffix(&d, ".c"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_holds_the_crates() {
        let w = workspace_dir();
        assert!(w.join("Cargo.toml").is_file(), "{}", w.display());
        assert!(w.join("testkit").join("Cargo.toml").is_file());
        assert!(shared_dir().ends_with("shared") || std::env::var_os(SHARED_DIR_VAR).is_some());
        assert_eq!(shared_path("no/such/entry/in/shared"), None);
    }
}
