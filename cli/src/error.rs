//! The crate's one error type.
//!
//! Every error raised while running a script carries the position (1-based
//! line and column, in characters) of the script text it is about; the
//! statement number is added when the error is reported (see
//! [`crate::calc::Session`]).

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

/// Everything that can go wrong in the `poly` command line.
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
    /// A bug caught at run time (a panic inside an operation); the run goes on.
    Internal {
        /// The statement's position.
        pos: Pos,
        /// The panic message.
        message: String,
    },
    /// Reading or writing failed.
    Io(String),
    /// The command line is malformed.
    Usage(String),
    /// A front-end command (`poly scop`, `poly interp`) failed.
    Command(String),
    /// Compiling or running a kernel failed (`poly run`, `poly compile`).
    Compile(lower::Error),
}

impl Error {
    /// The script position the error is about, if any.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            Error::Parse { pos, .. }
            | Error::Type { pos, .. }
            | Error::Eval { pos, .. }
            | Error::Engine { pos, .. }
            | Error::Internal { pos, .. } => Some(*pos),
            Error::Io(_)
            | Error::Usage(_)
            | Error::Command(_)
            | Error::Set(_)
            | Error::Front(_)
            | Error::Dataflow(_)
            | Error::Schedule { .. }
            | Error::Liveness(_)
            | Error::Compile(_)
            | Error::Codegen { .. } => None,
        }
    }

    /// The message without the position.
    pub fn message(&self) -> String {
        match self {
            Error::Parse { expected, .. } => format!("parse error: expected {expected}"),
            Error::Type { message, .. } => format!("type error: {message}"),
            Error::Eval { message, .. } => message.clone(),
            Error::Engine { op, error, .. } => format!("{op}: {error}"),
            Error::Internal { message, .. } => format!("internal error: {message}"),
            Error::Io(m) => format!("i/o error: {m}"),
            Error::Usage(m) => format!("usage: {m}"),
            Error::Command(m) => m.clone(),
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
        match self.pos() {
            Some(p) => write!(f, "line {}, column {}: {}", p.line, p.col, self.message()),
            None => write!(f, "{}", self.message()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Engine { error, .. } | Error::Set(error) => Some(error),
            Error::Front(e) => Some(e),
            Error::Dataflow(e) => Some(e),
            Error::Schedule { error, .. } => Some(error),
            Error::Liveness(e) => Some(e),
            Error::Codegen { error, .. } => Some(error),
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

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
