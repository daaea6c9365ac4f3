//! The lexer of isl notation: identifiers (with primes), integer literals of
//! any size, symbols, and `#` comments, each token with its 1-based position.

use crate::error::{Error, Result};
use crate::int::Int;

const KEYWORDS: &[&str] = &[
    "and", "or", "not", "implies", "exists", "floor", "ceil", "mod", "min", "max", "true", "false",
];

/// True if `s` is a keyword of the notation (it cannot name a variable).
pub(super) fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// True if `s` can be printed as a variable name and read back.
pub(crate) fn is_valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    let rest: &str = &s[1..];
    let body = rest.trim_end_matches('\'');
    body.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !is_keyword(s)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pos {
    pub(super) line: usize,
    pub(super) col: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    Num(Int),
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) pos: Pos,
}

pub(super) const SYMBOLS: &[&str] = &[
    "->", "<=", ">=", "==", "!=", "&&", "||", "/\\", "\\/", "[", "]", "{", "}", "(", ")", ",", ";",
    ":", "=", "<", ">", "+", "-", "*", "/", "%", "!",
];

pub(super) fn perr(pos: Pos, expected: impl Into<String>) -> Error {
    Error::Parse {
        line: pos.line,
        col: pos.col,
        expected: expected.into(),
    }
}

pub(super) fn lex(src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut line, mut col) = (1usize, 1usize);
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let pos = Pos { line, col };
        if c == '\n' {
            line += 1;
            col = 1;
            k += 1;
            continue;
        }
        if c.is_whitespace() {
            col += 1;
            k += 1;
            continue;
        }
        if c == '#' {
            while k < chars.len() && chars[k] != '\n' {
                k += 1;
                col += 1;
            }
            continue;
        }
        if c.is_ascii_digit() {
            let start = k;
            while k < chars.len() && chars[k].is_ascii_digit() {
                k += 1;
            }
            let s: String = chars[start..k].iter().collect();
            col += k - start;
            let v = s.parse::<Int>().map_err(|_| perr(pos, "an integer"))?;
            out.push(Token {
                tok: Tok::Num(v),
                pos,
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = k;
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '_') {
                k += 1;
            }
            while k < chars.len() && chars[k] == '\'' {
                k += 1;
            }
            let s: String = chars[start..k].iter().collect();
            col += k - start;
            out.push(Token {
                tok: Tok::Ident(s),
                pos,
            });
            continue;
        }
        let mut found = None;
        for s in SYMBOLS {
            let n = s.chars().count();
            if k + n <= chars.len() && chars[k..k + n].iter().copied().eq(s.chars()) {
                found = Some(*s);
                break;
            }
        }
        match found {
            Some(s) => {
                let n = s.chars().count();
                k += n;
                col += n;
                out.push(Token {
                    tok: Tok::Sym(s),
                    pos,
                });
            }
            None => return Err(perr(pos, format!("a token (unexpected character {c:?})"))),
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        pos: Pos { line, col },
    });
    Ok(out)
}
