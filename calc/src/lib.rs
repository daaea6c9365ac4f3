//! # calc: an iscc-compatible calculator on the presburger engine
//!
//! This crate is the language of `poly calc` (the command line only parses
//! its arguments and prints): a lexer, a parser, an evaluator and sessions
//! for the calculator of isl's `iscc`, over the `presburger` engine.
//!
//! ## The language
//!
//! A script is a sequence of statements ending with `;`:
//!
//! ```text
//! D := [n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i };   # assignment: prints nothing
//! card (D * [n] -> { S[i, j] : n = 4 });                  # expression: prints its value
//! print lexmin D;                                          # same
//! ```
//!
//! Set and map literals are written in isl notation and read by the engine's
//! parser ([`lexer`] keeps each literal as one token). Prefix operators
//! (`lexmin`, `domain`, `deltas`, `card`, `affine_hull`/`aff`, ...) bind
//! tighter than binary ones; binary operators (`+` union, `-` difference,
//! `*` intersection, `%` gist, `->*` and `->-` on a map's range, `.` and
//! `after` joins, `->` product, `cross`, the tests `=`, `<=`, `<`, `>=`, `>`
//! and the lexicographic orders `<<`, `<<=`, `>>`, `>>=`) have precedence
//! levels; a parameter domain (`[n] -> { : n >= 2 }`) as an operand of `*`
//! or `%` restricts the parameters of the other operand, as in isl; application `M(S)`, indexing `L[k]` and
//! the powers `M^-1` (inverse), `M^k` (integer constant `k >= 1`) and
//! `M^+` (transitive closure, the list `[closure, is_exact]`, see the
//! engine's `Map::transitive_closure`) bind tightest. The dataflow expression
//! `last W before R under Sched` (with `any` and `kill`) and
//! `schedule D respecting V minimizing P` and AST generation
//! `codegen S [using O]` (the C code of the `ast` crate as a string) have
//! their own grammar. See [`parser`] for the grammar, [`ast`] for the
//! operators and [`operators_help`] for the summary `poly calc --help`
//! prints. iscc's operators the calculator does not have (`vertices`,
//! `coefficients`, `==`, ...) are named in a "not supported" error.
//!
//! ## Evaluation
//!
//! Statements run in order in an environment of variables ([`Env`]). Each
//! operator has a typing rule (see [`eval`]): a set operand where a map is
//! needed is a type error naming the operator, never a silent conversion.
//! Operators call the engine directly on typed values; the dataflow
//! expression calls the `dataflow` crate and `schedule` the `scheduler`
//! crate. A statement runs under the session's operation budget, if any
//! ([`Session::set_budget`]), and a panic inside an operation becomes an
//! [`Error::Internal`] for that statement: the run always goes on. A
//! [`Progress`] ([`Session::set_progress`]) shows the statement running now
//! to another thread: the command line names statements that run longer
//! than a second. (Interrupting a statement would need a signal handler,
//! which needs `libc` and unsafe code; Ctrl-C ends the run instead.)
//!
//! In batch mode ([`run_script`] with `batch`), every statement that yields a
//! value prints exactly one line, and a failing statement prints exactly one
//! line `error: statement N, line L, column C: ...`.
//!
//! ## Values
//!
//! A [`Value`] is a union set or a union map (one engine type,
//! `presburger::UnionMap`, with the kind kept in the variant), a boolean
//! (`True`, `False`), an integer, a count (the value of `card`, printed
//! `{ 42 }` as iscc does), a string, or a list (`[a, b]`, indexed `L[0]`).
//! Sets and maps print in isl notation on one line; a parameter domain
//! prints `[n] -> { : n >= 1 }` and a zero-dimensional set `[n] -> { [] :
//! n >= 1 }` (different spaces, as in isl: only the first restricts the
//! parameters of the other operand of `*`).
//!
//! ## Quasi-polynomials
//!
//! `card`, `sum` and literals give piecewise quasi-polynomials in iscc's
//! notation: `[n] -> { [i] -> (i^2 + n) : 0 <= i < n }`, `[n] -> { (1/2 * n) }`
//! (rational coefficients, powers `^k`, `floor(e/d)` of quasi-affine `e`;
//! overlapping pieces add up, as in isl). `F(P)` is the value at the single
//! point of `P`; `sum F` the sum over the domain; `ub F` and `lb F` the list
//! `[bound, is_exact]`, the bound a fold printed `[n] -> { max(n) : n >= 0 }`.
//! Bounds are exact (`is_exact` is always `True`): for quasi-affine
//! functions by parametric integer programming, for any degree without
//! parameters by enumeration; a polynomial of degree two or more with
//! parameters is "not supported" (see `presburger::upper_bound`).
//!
//! ```
//! let mut out = Vec::new();
//! calc::run_script("F := [n] -> { [i] -> (n - i) : 0 <= i < n }; sum F; ub F; F([n] -> { [1] : n = 4 });", true, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text.lines().collect::<Vec<_>>(), [
//!     "[n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }",
//!     "[[n] -> { max(n) : n >= 1 }, True]",
//!     "3",
//! ]);
//! ```
//!
//! ```
//! let mut out = Vec::new();
//! calc::run_script("L := [1, 2, 3]; L[1]; typeof L; L[7];", true, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text.lines().collect::<Vec<_>>()[..2], ["2", "list"]);
//! assert!(text.lines().nth(2).unwrap().starts_with("error: statement 4, line 1, column 34: index 7 out of range"));
//! ```
//!
//! ```
//! let mut out = Vec::new();
//! calc::run_script("S := { [i] : 0 <= i < 10 }; card S; S * { [i] : i >= 8 };", true, &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "{ 10 }\n{ [i] : 8 <= i <= 9 }\n");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
mod count;
mod error;
pub mod eval;
mod help;
pub mod lexer;
pub mod parser;
pub mod value;

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use presburger::UnionMap;

pub use eval::{eval_flow, Env};
pub use help::operators_help;
pub use value::Value;

pub use error::{Error, Pos, Result};

/// Parse a set or map literal in isl notation with the engine's parser,
/// simplified cheaply as isl does on reading (`x = 1 mod 3` is `x = 1`).
pub fn parse_literal(text: &str) -> std::result::Result<UnionMap, presburger::Error> {
    Ok(text.parse::<UnionMap>()?.simplify_parts())
}

/// Work (in [`presburger::budget`] ticks) that printing may spend on writing an answer
/// more simply ([`UnionMap::tidy`]); beyond it the answer is printed as computed.
pub const TIDY_BUDGET: u64 = 20_000_000;

/// Print a union set or map in isl notation (one line), written as simply as
/// [`UnionMap::tidy`] manages within [`TIDY_BUDGET`] (issue 21: answers as simple as isl's).
pub fn show(u: &UnionMap) -> String {
    match presburger::budget::with_budget(TIDY_BUDGET, || u.tidy()) {
        Ok(t) => format!("{t}"),
        Err(_) => format!("{u}"),
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Statements run (including failing ones).
    pub statements: usize,
    /// Values printed.
    pub values: usize,
    /// Statements that failed.
    pub errors: usize,
}

/// A calculator session: variables persist across calls to [`Session::run`].
#[derive(Clone, Debug, Default)]
pub struct Session {
    env: Env,
    batch: bool,
    budget: Option<u64>,
    summary: Summary,
    source_name: Option<String>,
    progress: Option<Progress>,
}

/// The statement a session is running, shared with another thread (the
/// command line's progress report watches it: see [`Session::set_progress`]).
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<Mutex<Option<Running>>>);

/// A statement being run.
#[derive(Clone, Debug)]
pub struct Running {
    /// Its number in the session (from 1).
    pub statement: usize,
    /// The script line it starts on.
    pub line: usize,
    /// When it started.
    pub started: Instant,
    /// The start of its text (up to [`CONTEXT_CHARS`] characters of its first line).
    pub excerpt: String,
}

impl Progress {
    /// A report with nothing running.
    pub fn new() -> Progress {
        Progress::default()
    }
    /// The statement running now, if any.
    pub fn current(&self) -> Option<Running> {
        self.0.lock().map(|g| g.clone()).unwrap_or(None)
    }
    fn set(&self, r: Option<Running>) {
        if let Ok(mut g) = self.0.lock() {
            *g = r;
        }
    }
}

/// The message of a caught panic.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

impl Session {
    /// A new session; `batch` selects the one-line-per-statement protocol
    /// (otherwise errors also show the offending source line).
    pub fn new(batch: bool) -> Session {
        Session {
            env: Env::new(),
            batch,
            budget: None,
            summary: Summary::default(),
            source_name: None,
            progress: None,
        }
    }

    /// Report each statement while it runs to `progress` (another thread
    /// may watch it and tell the user about long statements).
    pub fn set_progress(&mut self, progress: Option<Progress>) {
        self.progress = progress;
    }

    /// Name the script (a file name): error lines then read
    /// `error: NAME: statement N, line L, column C: ...`.
    pub fn set_source_name(&mut self, name: Option<String>) {
        self.source_name = name;
    }

    /// Bound the engine's work per statement (see `presburger::budget`): a
    /// statement that needs more fails with an error line instead of running
    /// on. `None` (the default) leaves the work unbounded.
    pub fn set_budget(&mut self, ops: Option<u64>) {
        self.budget = ops;
    }

    /// The variables.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// What the session did so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Run a chunk of script whose first line is line `first_line` of the
    /// whole script. Values go to `out`; error lines go to `err`, or to `out`
    /// when `err` is `None`. Only a failing write is an `Err`.
    pub fn run(
        &mut self,
        src: &str,
        first_line: usize,
        out: &mut dyn Write,
        mut err: Option<&mut dyn Write>,
    ) -> Result<()> {
        let toks = lexer::Lexer::new(src, first_line).tokenize();
        let mut p = parser::Parser::new(toks);
        while let Some(stmt) = p.next_statement() {
            self.summary.statements += 1;
            let n = self.summary.statements;
            let result = match stmt {
                Ok(stmt) => {
                    let pos = stmt.pos();
                    if let Some(p) = &self.progress {
                        p.set(Some(Running {
                            statement: n,
                            line: pos.line,
                            started: Instant::now(),
                            excerpt: excerpt(src, first_line, pos),
                        }));
                    }
                    let env = &mut self.env;
                    let budget = self.budget;
                    let exec = || match budget {
                        Some(ops) => presburger::budget::with_budget(ops, || env.exec(&stmt)),
                        None => env.exec(&stmt),
                    };
                    match catch_unwind(AssertUnwindSafe(exec)) {
                        Ok(r) => r,
                        Err(payload) => Err(Error::Internal {
                            pos,
                            message: panic_message(payload.as_ref()),
                        }),
                    }
                }
                Err(e) => Err(e),
            };
            if let Some(p) = &self.progress {
                p.set(None);
            }
            match result {
                Ok(None) => {}
                Ok(Some(v)) => {
                    self.summary.values += 1;
                    let text = v.to_string();
                    let text = if self.batch {
                        text.replace('\n', " ")
                    } else {
                        text
                    };
                    writeln!(out, "{text}")?;
                }
                Err(e) => {
                    self.summary.errors += 1;
                    let w: &mut dyn Write = match err.as_mut() {
                        Some(w) => &mut **w,
                        None => &mut *out,
                    };
                    match &self.source_name {
                        Some(name) => writeln!(w, "error: {name}: {}", statement_error(n, &e))?,
                        None => writeln!(w, "{}", format_error(n, &e))?,
                    }
                    if !self.batch {
                        if let Some(pos) = e.pos() {
                            write_context(w, src, first_line, pos)?;
                        }
                    }
                }
            }
        }
        out.flush()?;
        Ok(())
    }
}

/// Characters of the source line shown on each side of an error's column.
const CONTEXT_CHARS: usize = 40;

/// Up to [`CONTEXT_CHARS`] characters of the source from `pos` to the end of its line.
fn excerpt(src: &str, first_line: usize, pos: Pos) -> String {
    src.lines()
        .nth(pos.line.saturating_sub(first_line))
        .map(|l| {
            l.chars()
                .skip(pos.col.saturating_sub(1))
                .take(CONTEXT_CHARS)
                .collect::<String>()
        })
        .unwrap_or_default()
}

/// Show the source line of an error (an excerpt of [`CONTEXT_CHARS`]
/// characters on each side of the column when the line is longer) and a
/// caret under its column.
fn write_context(w: &mut dyn Write, src: &str, first_line: usize, pos: Pos) -> Result<()> {
    if pos.line < first_line {
        return Ok(());
    }
    if let Some(line) = src.lines().nth(pos.line - first_line) {
        let chars: Vec<char> = line.chars().collect();
        let col = pos.col.saturating_sub(1).min(chars.len());
        let start = col.saturating_sub(CONTEXT_CHARS);
        let end = (col + CONTEXT_CHARS).min(chars.len());
        let head = if start > 0 { "..." } else { "" };
        let tail = if end < chars.len() { "..." } else { "" };
        let shown: String = chars[start..end].iter().collect();
        let margin = format!("{}", pos.line);
        writeln!(w, "  {margin} | {head}{shown}{tail}")?;
        let pad: String = std::iter::repeat_n(' ', head.len())
            .chain(
                chars[start..col]
                    .iter()
                    .map(|&c| if c == '\t' { '\t' } else { ' ' }),
            )
            .collect();
        writeln!(w, "  {} | {pad}^", " ".repeat(margin.len()))?;
    }
    Ok(())
}

/// Run a whole script, writing values and error lines to `out`.
pub fn run_script(src: &str, batch: bool, out: &mut dyn Write) -> Result<Summary> {
    let mut s = Session::new(batch);
    s.run(src, 1, out, None)?;
    Ok(s.summary)
}

/// Run statements as lines arrive on `input` (an interactive prompt): a
/// statement runs as soon as its `;` is read. `prompt` is written before
/// each line (`poly> `, or `  ...> ` inside a statement).
pub fn interactive(input: &mut dyn BufRead, out: &mut dyn Write, prompt: bool) -> Result<Summary> {
    interactive_session(&mut Session::new(false), input, out, prompt)
}

/// [`interactive`] with a given session (e.g. one with a budget or a
/// [`Progress`] report).
pub fn interactive_session(
    s: &mut Session,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    prompt: bool,
) -> Result<Summary> {
    let mut pending = String::new();
    let mut pending_line = 1;
    let mut line_no = 0;
    loop {
        if prompt {
            write!(
                out,
                "{}",
                if pending.trim().is_empty() {
                    "poly> "
                } else {
                    " ...> "
                }
            )?;
            out.flush()?;
        }
        let mut line = String::new();
        let n = input.read_line(&mut line)?;
        if n == 0 {
            if !pending.trim().is_empty() {
                s.run(&pending, pending_line, out, None)?;
            }
            if prompt {
                writeln!(out)?;
            }
            return Ok(s.summary.clone());
        }
        line_no += 1;
        if pending.trim().is_empty() {
            pending.clear();
            pending_line = line_no;
        }
        pending.push_str(&line);
        if lexer::is_incomplete(&pending) {
            continue;
        }
        // Run everything up to the last `;` outside literals and strings.
        let toks = lexer::Lexer::new(&pending, 1).tokenize();
        let last_semi = toks
            .iter()
            .rev()
            .find(|t| t.tok == lexer::Tok::Sym(";"))
            .map(|t| t.pos);
        if let Some(p) = last_semi {
            let cut = byte_offset(&pending, p) + 1;
            let rest = pending[cut..].to_string();
            let head = pending[..cut].to_string();
            s.run(&head, pending_line, out, None)?;
            let consumed_lines = head.matches('\n').count();
            pending = rest;
            pending_line += consumed_lines;
        }
    }
}

/// Byte offset of a (line, column) position in `src` (positions numbered from line 1).
fn byte_offset(src: &str, pos: Pos) -> usize {
    let mut line = 1;
    let mut col = 1;
    for (k, c) in src.char_indices() {
        if line == pos.line && col == pos.col {
            return k;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    src.len()
}

/// Longest error message printed whole; a longer one (an engine error
/// quoting a huge set) keeps its start and end.
const MAX_MESSAGE_CHARS: usize = 400;

/// An error is reported as `error: statement N, <error>`.
pub fn format_error(statement: usize, e: &Error) -> String {
    format!("error: {}", statement_error(statement, e))
}

/// `statement N, <error>`, with an over-long message shortened in the middle.
fn statement_error(statement: usize, e: &Error) -> String {
    let text = e.to_string();
    let n = text.chars().count();
    let text = if n > MAX_MESSAGE_CHARS {
        let head: String = text.chars().take(MAX_MESSAGE_CHARS * 2 / 3).collect();
        let tail: String = text.chars().skip(n - MAX_MESSAGE_CHARS / 4).collect();
        let cut = n - head.chars().count() - tail.chars().count();
        format!("{head} ... ({cut} characters left out) ... {tail}")
    } else {
        text
    };
    format!("statement {statement}, {text}")
}
