//! The kernels the assumption tests read: the project's kernels, this
//! crate's own, the shared kernels and the shared assumption cases.

use std::path::PathBuf;

pub fn kernels() -> Vec<PathBuf> {
    let w = testkit::workspace_dir();
    let mut files = testkit::files_with_suffix(&w.join("scop/tests/kernels"), ".c");
    files.extend(testkit::files_with_suffix(
        &w.join("assumptions/tests/kernels"),
        ".c",
    ));
    files.extend(testkit::shared_kernel_sources());
    if let Some(d) = testkit::shared_path("assumptions") {
        files.extend(testkit::files_with_suffix(&d, ".c"));
    }
    files
}
