//! The crate's one error type.

use std::fmt;

/// Everything that can go wrong in the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that is not isl notation: 1-based line and column, and what was expected there.
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        col: usize,
        /// What the parser expected (or why the input is refused).
        expected: String,
    },
    /// The operands live in incompatible spaces.
    SpaceMismatch(String),
    /// An optimum does not exist because the problem is unbounded in the given direction.
    Unbounded(String),
    /// The operation budget ran out (see [`crate::budget`]).
    BudgetExceeded,
    /// The operation is not defined for these arguments (e.g. counting an unbounded set).
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse {
                line,
                col,
                expected,
            } => write!(
                f,
                "parse error at line {line}, column {col}: expected {expected}"
            ),
            Error::SpaceMismatch(s) => write!(f, "space mismatch: {s}"),
            Error::Unbounded(s) => write!(f, "unbounded optimum: {s}"),
            Error::BudgetExceeded => write!(f, "operation budget exceeded"),
            Error::Invalid(s) => write!(f, "invalid operation: {s}"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
