//! Where the shared test data lives: the folder `shared` beside the
//! repository (`../shared` from the workspace root), or the folder named by
//! the environment variable `POLY_SHARED_DIR` (useful in a git worktree that
//! has no `shared` beside it).
//!
//! This is the one place that builds the path. Tests that find the data
//! missing pass vacuously on a developer's machine, but under CI (the
//! environment variable `CI` set to `true` or `1`, as `.ci/run` does) a
//! missing entry is a failure with a message saying what is missing and
//! where it was looked for: a green CI run has really run them.

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

/// True when running under CI: the environment variable `CI` is `true` or `1`.
pub fn under_ci() -> bool {
    matches!(std::env::var("CI").as_deref(), Ok("true" | "1"))
}

/// The failure of a test under CI whose shared data is missing.
fn missing_under_ci(path: &Path) -> String {
    format!(
        "the shared test data {} is missing, and CI is set: tests that need the shared folder \
         fail under CI instead of passing vacuously (put `shared` beside the repository, or \
         set {SHARED_DIR_VAR} to its path)",
        path.display()
    )
}

/// [`shared_path`] for a given folder and CI setting: `Err` (the message)
/// when the entry is missing under CI.
pub fn shared_path_in(dir: &Path, rel: &str, ci: bool) -> Result<Option<PathBuf>, String> {
    let p = dir.join(rel);
    if p.exists() {
        Ok(Some(p))
    } else if ci {
        Err(missing_under_ci(&p))
    } else {
        Ok(None)
    }
}

/// `rel` inside the shared folder (e.g. `"conformance"`,
/// `"conformance/small.jsonl"`, `"kernels"`), if it exists.
///
/// # Panics
/// Under CI ([`under_ci`]) when it does not exist, with a message naming it.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    shared_path_in(&shared_dir(), rel, under_ci()).unwrap_or_else(|m| panic!("{m}"))
}

/// `rel` inside the shared folder if it exists, never failing (for data a
/// test may do without even under CI).
pub fn find_shared_path(rel: &str) -> Option<PathBuf> {
    let p = shared_dir().join(rel);
    p.exists().then_some(p)
}

/// The files of `dir` whose names end with `suffix` (e.g. `".c"`,
/// `".model.json"`), sorted; empty when the folder is missing.
///
/// # Panics
/// Under CI ([`under_ci`]) when the folder is missing.
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    if !dir.exists() && under_ci() {
        panic!("{}", missing_under_ci(dir));
    }
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
        assert_eq!(find_shared_path("no/such/entry/in/shared"), None);
    }

    #[test]
    fn missing_data_fails_under_ci_only() {
        let dir = workspace_dir();
        assert_eq!(shared_path_in(&dir, "no/such/entry", false), Ok(None));
        let e = shared_path_in(&dir, "no/such/entry", true).unwrap_err();
        assert!(
            e.contains("no/such/entry") && e.contains("CI") && e.contains(SHARED_DIR_VAR),
            "{e}"
        );
        assert_eq!(
            shared_path_in(&dir, "testkit", true),
            Ok(Some(dir.join("testkit")))
        );
    }
}
