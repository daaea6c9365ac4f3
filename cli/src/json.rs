//! The JSON reader of the conformance case files and kernel models: the
//! one copy lives in [`testkit::json`] (test tooling that `poly bench`
//! shares; see testkit's crate doc), re-exported here.

pub use testkit::json::{Json, JsonError};
