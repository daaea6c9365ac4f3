//! The crate's error type.

use std::fmt;

/// Everything that can go wrong in a dataflow computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An operation of the integer-set engine failed (budget, space mismatch, ...).
    Engine(presburger::Error),
    /// The access information is malformed (e.g. an access without a schedule).
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Engine(e) => write!(f, "{e}"),
            Error::Invalid(s) => write!(f, "invalid access information: {s}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Engine(e) => Some(e),
            Error::Invalid(_) => None,
        }
    }
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        Error::Engine(e)
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
