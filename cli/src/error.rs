//! The crate's one error type: the errors of the libraries the commands
//! call, kept typed, and the command line's own (usage, i/o).

use std::fmt;

/// Everything that can go wrong in the `poly` command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A calculator script failed outside any statement (`poly calc`;
    /// a failing statement is reported by the calculator and the run goes on).
    Calc(calc::Error),
    /// The polyhedral engine refused an operation of a command outside a
    /// script (e.g. `poly deps`).
    Set(presburger::Error),
    /// The C front end refused a kernel (`poly scop`, `poly interp`,
    /// `poly deps`); the error carries its source position.
    Front(scop::Error),
    /// The dataflow analysis failed (`poly deps`).
    Dataflow(dataflow::Error),
    /// The liveness analysis gave up (budget) or met a program outside what
    /// it handles (`poly liveness`, `poly check-schedule`).
    Liveness(liveness::Error),
    /// Reading a codegen input or generating its AST failed (`poly codegen`).
    Codegen {
        /// The input file.
        file: String,
        /// What the generator reported (with the position where it has one).
        error: ast::Error,
    },
    /// Reading schedule constraints or computing a schedule failed
    /// (`poly schedule`); the scheduler's error carries the position in the
    /// file where there is one.
    Schedule {
        /// The input file.
        file: String,
        /// What the scheduler reported.
        error: scheduler::Error,
    },
    /// Reading or writing failed.
    Io(String),
    /// The command line is malformed.
    Usage(String),
    /// A command panicked (a bug): the panic's message.
    Internal(String),
    /// A conformance corpus file (`poly bench`) is malformed.
    Corpus {
        /// The file.
        file: String,
        /// What the reader found.
        error: testkit::corpus::CorpusError,
    },
    /// `poly assumptions` failed.
    Assumptions(assumptions::Error),
    /// Compiling or running a kernel failed (`poly run`, `poly compile`).
    Compile(lower::Error),
}

impl Error {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            Error::Calc(e) => e.to_string(),
            Error::Io(m) => format!("i/o error: {m}"),
            Error::Usage(m) => format!("usage: {m}"),
            Error::Internal(m) => format!("internal error: {m}"),
            Error::Corpus { file, error } => format!("{file}: {error}"),
            Error::Assumptions(e) => format!("assumptions: {e}"),
            Error::Set(e) => e.to_string(),
            Error::Front(e) => e.to_string(),
            Error::Dataflow(e) => format!("dataflow: {e}"),
            Error::Schedule { file, error } => format!("{file}: {error}"),
            Error::Liveness(e) => format!("liveness: {e}"),
            Error::Codegen { file, error } => format!("{file}: {error}"),
            Error::Compile(e) => e.to_string(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Set(error) => Some(error),
            Error::Calc(e) => Some(e),
            Error::Front(e) => Some(e),
            Error::Dataflow(e) => Some(e),
            Error::Schedule { error, .. } => Some(error),
            Error::Liveness(e) => Some(e),
            Error::Codegen { error, .. } => Some(error),
            Error::Compile(e) => Some(e),
            Error::Corpus { error, .. } => Some(error),
            Error::Assumptions(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e.to_string())
    }
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        Error::Set(e)
    }
}

impl From<assumptions::Error> for Error {
    fn from(e: assumptions::Error) -> Error {
        Error::Assumptions(e)
    }
}

impl From<lower::Error> for Error {
    fn from(e: lower::Error) -> Error {
        Error::Compile(e)
    }
}

impl From<scop::Error> for Error {
    fn from(e: scop::Error) -> Error {
        Error::Front(e)
    }
}

impl From<dataflow::Error> for Error {
    fn from(e: dataflow::Error) -> Error {
        Error::Dataflow(e)
    }
}

impl From<calc::Error> for Error {
    fn from(e: calc::Error) -> Error {
        match e {
            calc::Error::Io(m) => Error::Io(m),
            e => Error::Calc(e),
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
