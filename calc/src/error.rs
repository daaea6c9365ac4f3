//! The crate's one error type.
//!
//! Every error raised while running a script carries the position (1-based
//! line and column, in characters) of the script text it is about; the
//! statement number is added when the error is reported (see
//! [`crate::Session`]).

use std::fmt;

/// A position in a script: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub col: usize,
}

impl Pos {
    /// A position from a line and a column.
    pub fn new(line: usize, col: usize) -> Pos {
        Pos { line, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Everything that can go wrong while running a calculator script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The script text is malformed: what was expected at a position.
    Parse {
        /// Where.
        pos: Pos,
        /// What was expected (and what was found).
        expected: String,
    },
    /// An operator was applied to values of the wrong type.
    Type {
        /// The operator's position.
        pos: Pos,
        /// What was expected and what was found.
        message: String,
    },
    /// A well-typed operation failed at run time (unknown variable, index out of range, ...).
    Eval {
        /// Where.
        pos: Pos,
        /// Why.
        message: String,
    },
    /// The polyhedral engine refused an operation of a script.
    Engine {
        /// The operator's position.
        pos: Pos,
        /// The operation (e.g. `lexmin`).
        op: String,
        /// The engine's error, as the engine reported it.
        error: presburger::Error,
    },
    /// An iscc operator the calculator does not have (`ub`, `vertices`, `==`, ...).
    Unsupported {
        /// Where the operator is.
        pos: Pos,
        /// The operator as written.
        operator: String,
    },
    /// A bug caught at run time (a panic inside an operation); the run goes on.
    Internal {
        /// The statement's position.
        pos: Pos,
        /// The panic message.
        message: String,
    },
    /// Writing the output failed.
    Io(String),
}

impl Error {
    /// The script position the error is about, if any.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            Error::Parse { pos, .. }
            | Error::Type { pos, .. }
            | Error::Eval { pos, .. }
            | Error::Engine { pos, .. }
            | Error::Unsupported { pos, .. }
            | Error::Internal { pos, .. } => Some(*pos),
            Error::Io(_) => None,
        }
    }

    /// The message without the position.
    pub fn message(&self) -> String {
        match self {
            Error::Parse { expected, .. } => format!("parse error: expected {expected}"),
            Error::Type { message, .. } => format!("type error: {message}"),
            Error::Eval { message, .. } => message.clone(),
            Error::Engine { op, error, .. } => format!("{op}: {error}"),
            Error::Unsupported { operator, .. } => format!(
                "not supported: {operator} (an iscc operator this calculator does not have; see `poly calc --help`)"
            ),
            Error::Internal { message, .. } => format!("internal error: {message}"),
            Error::Io(m) => format!("i/o error: {m}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos() {
            Some(p) => write!(f, "line {}, column {}: {}", p.line, p.col, self.message()),
            None => write!(f, "{}", self.message()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Engine { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e.to_string())
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
