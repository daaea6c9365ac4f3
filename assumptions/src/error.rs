//! The crate's one error type.

use std::fmt;

/// What can go wrong when computing a kernel's assumptions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The front end refused the kernel.
    Front(scop::Error),
    /// The engine refused an operation (or ran out of budget).
    Engine(presburger::Error),
    /// A condition of the kernel cannot be expressed as an affine
    /// assumption (the model would be wrong without it).
    Unmodelled {
        /// Where.
        pos: scop::Pos,
        /// Why.
        reason: String,
    },
    /// The simplified assumptions exceed a cap: the model is dropped
    /// rather than checked by a huge expression.
    TooComplex {
        /// What exceeded the cap.
        what: String,
        /// Its size.
        size: usize,
        /// The cap.
        cap: usize,
    },
    /// The check could overflow even in 128-bit arithmetic.
    CheckOverflow(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Front(e) => write!(f, "{e}"),
            Error::Engine(e) => write!(f, "engine: {e}"),
            Error::Unmodelled { pos, reason } => {
                write!(
                    f,
                    "{}:{}: cannot model optimistically: {reason}",
                    pos.line, pos.col
                )
            }
            Error::TooComplex { what, size, cap } => {
                write!(f, "assumptions too complex: {what} is {size}, the cap is {cap}; the model is dropped")
            }
            Error::CheckOverflow(m) => write!(f, "run-time check: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<scop::Error> for Error {
    fn from(e: scop::Error) -> Self {
        Error::Front(e)
    }
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Self {
        Error::Engine(e)
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
