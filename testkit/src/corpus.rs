//! The conformance corpus: files of one JSON object a line
//! (`../shared/conformance/*.jsonl`). A set case reads
//! `{"id", "op", "args": [..], "expect"}`; other files (the dataflow cases
//! of `flow.jsonl`, whose `args` is an object) are read line by line as
//! [`Json`] with [`read_jsonl`].

use std::fmt;

use crate::json::{Json, JsonError};

/// One case of a set-operation conformance file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Case id.
    pub id: String,
    /// Operation name (see [`crate::ops::OPS`]).
    pub op: String,
    /// Arguments as text (isl notation, or a number as written).
    pub args: Vec<String>,
    /// Expected answer as text (`true`, an isl set, `error`, a count, ...).
    pub expect: String,
}

/// Why a line of a case file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusError {
    /// The line is not JSON.
    Syntax {
        /// Line number, from 1.
        line: usize,
        /// The reader's error.
        error: JsonError,
    },
    /// A case lacks a field.
    Missing {
        /// Line number, from 1.
        line: usize,
        /// The missing field.
        field: &'static str,
    },
    /// `args` is not an array.
    ArgsNotArray {
        /// Line number, from 1.
        line: usize,
    },
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::Syntax { line, error } => write!(f, "line {line}: {error}"),
            CorpusError::Missing { line, field } => write!(f, "line {line}: no `{field}`"),
            CorpusError::ArgsNotArray { line } => write!(f, "line {line}: `args` is not an array"),
        }
    }
}

impl std::error::Error for CorpusError {}

/// Every non-blank line of `text` as JSON, with its line number (from 1).
pub fn read_jsonl(text: &str) -> Result<Vec<(usize, Json)>, CorpusError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            Json::parse(l)
                .map(|j| (n + 1, j))
                .map_err(|error| CorpusError::Syntax { line: n + 1, error })
        })
        .collect()
}

impl Case {
    /// The case of one JSON object read from line `line`.
    pub fn from_json(j: &Json, line: usize) -> Result<Case, CorpusError> {
        let field = |field: &'static str| j.get(field).ok_or(CorpusError::Missing { line, field });
        let args = field("args")?
            .as_array()
            .ok_or(CorpusError::ArgsNotArray { line })?
            .iter()
            .map(Json::to_text)
            .collect();
        Ok(Case {
            id: field("id")?.to_text(),
            op: field("op")?.to_text(),
            args,
            expect: field("expect")?.to_text(),
        })
    }
}

/// The cases of a conformance file (one JSON object a line; blank lines skipped).
pub fn read_cases(text: &str) -> Result<Vec<Case>, CorpusError> {
    read_jsonl(text)?
        .iter()
        .map(|(line, j)| Case::from_json(j, *line))
        .collect()
}

/// The files of the engine trace corpus under `benches/corpus/` (issue 22):
/// the recorded operations and the complement and equality cases derived
/// from their operands (`benches/trace_derive.py`).
pub const TRACE_CORPUS: [&str; 2] = ["trace.jsonl", "derived.jsonl"];

/// Every case of the engine trace corpus ([`TRACE_CORPUS`], in order), read
/// from the workspace. Panics with the file's name if one cannot be read or
/// is not a case file: the corpus is part of the repository.
pub fn trace_corpus() -> Vec<Case> {
    let dir = crate::workspace_dir().join("benches/corpus");
    let mut cases = Vec::new();
    for name in TRACE_CORPUS {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        cases.extend(read_cases(&text).unwrap_or_else(|e| panic!("{path:?}: {e:?}")));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cases_and_reports_the_line() {
        let text = "{\"id\": \"a\", \"op\": \"union\", \"args\": [\"{ [1] }\", \"{ [2] }\"], \"expect\": \"{ [i] : 1 <= i <= 2 }\"}\n\n{\"id\": \"b\", \"op\": \"frobnicate\", \"args\": [\"{ [1] }\", 3], \"expect\": true}\n";
        let cases = read_cases(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].args, ["{ [1] }", "{ [2] }"]);
        assert_eq!(cases[1].args, ["{ [1] }", "3"]);
        assert_eq!(cases[1].expect, "true");
        assert_eq!(
            read_cases("{\"id\": 1}"),
            Err(CorpusError::Missing {
                line: 1,
                field: "args"
            })
        );
        assert_eq!(
            read_cases("\n{\"id\": 1, \"op\": \"x\", \"args\": {}, \"expect\": 1}"),
            Err(CorpusError::ArgsNotArray { line: 2 })
        );
        let e = read_cases("\n\n{").unwrap_err();
        assert!(matches!(e, CorpusError::Syntax { line: 3, .. }), "{e}");
        assert!(e.to_string().starts_with("line 3: JSON syntax error"));
    }
}
