//! The crate's error type.

use std::fmt;

/// What can go wrong in DeLICM.
#[derive(Debug, Clone)]
pub enum Error {
    /// An engine error (parse error with position, space mismatch, ...).
    Engine(presburger::Error),
    /// The operation budget ran out; nothing was changed.
    BudgetExceeded,
    /// The front end refused the kernel (position inside).
    Front(scop::Error),
    /// The dataflow analysis failed.
    Dataflow(dataflow::Error),
    /// Input that does not fit the protocol (what and where).
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Engine(e) => write!(f, "{e}"),
            Error::BudgetExceeded => write!(f, "operation budget exhausted"),
            Error::Front(e) => write!(f, "{e}"),
            Error::Dataflow(e) => write!(f, "{e}"),
            Error::Invalid(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        match e {
            presburger::Error::BudgetExceeded => Error::BudgetExceeded,
            e => Error::Engine(e),
        }
    }
}

impl From<scop::Error> for Error {
    fn from(e: scop::Error) -> Error {
        match e {
            scop::Error::Engine(presburger::Error::BudgetExceeded) => Error::BudgetExceeded,
            e => Error::Front(e),
        }
    }
}

impl From<dataflow::Error> for Error {
    fn from(e: dataflow::Error) -> Error {
        match e {
            dataflow::Error::Engine(presburger::Error::BudgetExceeded) => Error::BudgetExceeded,
            e => Error::Dataflow(e),
        }
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
