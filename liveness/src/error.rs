//! The crate's error type.

use std::fmt;

/// Everything that can go wrong in a liveness computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An operation of the integer-set engine failed (other than the budget).
    Engine(presburger::Error),
    /// The operation budget ran out: the analysis gave up instead of hanging.
    Budget,
    /// The front end rejected the kernel (with its position).
    Front(scop::Error),
    /// The dataflow analysis failed.
    Dataflow(dataflow::Error),
    /// The program is outside what the analysis handles (statements with
    /// schedules of different dimensions; the reference oracle on
    /// may-writes and kills).
    Unsupported(String),
    /// Bad arguments (parameter values, orders of the wrong shape).
    Usage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Engine(e) => write!(f, "{e}"),
            Error::Budget => write!(f, "liveness: operation budget exceeded"),
            Error::Front(e) => write!(f, "{e}"),
            Error::Dataflow(e) => write!(f, "{e}"),
            Error::Unsupported(s) => write!(f, "liveness: unsupported: {s}"),
            Error::Usage(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        match e {
            presburger::Error::BudgetExceeded => Error::Budget,
            e => Error::Engine(e),
        }
    }
}

impl From<scop::Error> for Error {
    fn from(e: scop::Error) -> Error {
        match e {
            scop::Error::Engine(presburger::Error::BudgetExceeded) => Error::Budget,
            e => Error::Front(e),
        }
    }
}

impl From<dataflow::Error> for Error {
    fn from(e: dataflow::Error) -> Error {
        match e {
            dataflow::Error::Engine(presburger::Error::BudgetExceeded) => Error::Budget,
            e => Error::Dataflow(e),
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
