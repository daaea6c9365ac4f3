//! The crate's one error type.

use std::fmt;

/// Everything that can go wrong while reading constraints or scheduling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The engine refused an operation (bad isl text inside a value is reported
    /// as [`Error::Input`] with the position in the file instead).
    Engine(presburger::Error),
    /// The operation budget ran out.
    Budget,
    /// A schedule-constraints file that cannot be read: 1-based line, column, message.
    Input {
        /// 1-based line in the file.
        line: usize,
        /// 1-based column in the file.
        col: usize,
        /// What is wrong.
        msg: String,
    },
    /// Constraints that are inconsistent with the domain (wrong spaces, a dependence
    /// outside the domain, a cyclic validity relation).
    Invalid(String),
    /// An intermediate value does not fit the scheduler's machine integers.
    Overflow,
    /// With [`crate::Options::outer_parallel`]: the tree's outermost bands
    /// would not start with a coincident member.
    NoOuterParallel,
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        match e {
            presburger::Error::BudgetExceeded => Error::Budget,
            e => Error::Engine(e),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Engine(e) => write!(f, "engine: {e}"),
            Error::Budget => write!(f, "operation budget exceeded"),
            Error::Input { line, col, msg } => write!(f, "line {line}, column {col}: {msg}"),
            Error::Invalid(s) => write!(f, "invalid schedule constraints: {s}"),
            Error::Overflow => write!(f, "integer overflow in the scheduler"),
            Error::NoOuterParallel => write!(f, "the schedule's outer loops are not parallel"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
