//! The crate's one error type.

use std::fmt;

/// Everything that can go wrong while reading input, generating or running an AST.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The polyhedral engine refused an operation.
    Engine(presburger::Error),
    /// The operation budget ran out during generation.
    BudgetExceeded,
    /// Malformed input: 1-based line and column and what was expected.
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What was expected.
        message: String,
    },
    /// Input that is well formed but not supported (e.g. an unbounded loop).
    Unsupported(String),
    /// Running an AST failed (unknown variable, overflow, step limit).
    Eval(String),
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        match e {
            presburger::Error::BudgetExceeded => Error::BudgetExceeded,
            e => Error::Engine(e),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Engine(e) => write!(f, "{e}"),
            Error::BudgetExceeded => write!(f, "operation budget exceeded"),
            Error::Parse { line, col, message } => {
                write!(f, "parse error at line {line}, column {col}: {message}")
            }
            Error::Unsupported(s) => write!(f, "unsupported: {s}"),
            Error::Eval(s) => write!(f, "evaluation error: {s}"),
        }
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
