//! Placeholder: see the crate issue.
#![forbid(unsafe_code)]
