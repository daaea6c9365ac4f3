//! Tokenizer for the C subset.
//!
//! Comments are skipped, and so are preprocessor lines (`#include`,
//! `#define min(a,b) ...`): the front end knows `min`/`max` natively. The one
//! exception is `#pragma omp parallel for`, which becomes the punctuator
//! [`PRAGMA_PARALLEL_FOR`]; any other `#pragma omp` line is an error at its
//! position (other pragmas are skipped).

use crate::error::{Error, Pos};

/// A token kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// An integer literal.
    Int(i64),
    /// A floating-point literal (the value and its spelling).
    Float(f64, String),
    /// A punctuator such as `+=` or `[`.
    Punct(&'static str),
    /// A string or character literal (its spelling with the quotes; only
    /// arguments of calls on error paths use them).
    Str(String),
    /// End of input.
    Eof,
}

/// A token with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// The kind.
    pub tok: Tok,
    /// Where it starts.
    pub pos: Pos,
}

/// The token of a `#pragma omp parallel for` line.
pub const PRAGMA_PARALLEL_FOR: &str = "#pragma omp parallel for";

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<=",
    ">=", "==", "!=", "&&", "||", "<<", ">>", "+", "-", "*", "/", "%", "<", ">", "=", "!", "(",
    ")", "[", "]", "{", "}", ",", ";", "?", ":", "&", "|", "^", "~", ".",
];

/// Splits `src` into tokens (the last one is [`Tok::Eof`]).
pub fn tokenize(src: &str) -> Result<Vec<Token>, Error> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let mut at_line_start = true;
    macro_rules! bump {
        () => {{
            if chars[i] == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            at_line_start = true;
            bump!();
            continue;
        }
        if c.is_whitespace() {
            bump!();
            continue;
        }
        let pos = Pos { line, col };
        if c == '#' && at_line_start {
            // Preprocessor line, with backslash continuations.
            let start = i;
            while i < chars.len() && chars[i] != '\n' {
                if chars[i] == '\\' && i + 1 < chars.len() && chars[i + 1] == '\n' {
                    bump!();
                }
                bump!();
            }
            let line_text: String = chars[start..i].iter().collect();
            if let Some(t) = pragma_token(&line_text, pos)? {
                toks.push(Token { tok: t, pos });
            }
            continue;
        }
        at_line_start = false;
        if c == '/' && i + 1 < chars.len() && chars[i + 1] == '/' {
            while i < chars.len() && chars[i] != '\n' {
                bump!();
            }
            continue;
        }
        if c == '/' && i + 1 < chars.len() && chars[i + 1] == '*' {
            bump!();
            bump!();
            loop {
                if i >= chars.len() {
                    return Err(Error::syntax(pos, "unterminated comment"));
                }
                if chars[i] == '*' && i + 1 < chars.len() && chars[i + 1] == '/' {
                    bump!();
                    bump!();
                    break;
                }
                bump!();
            }
            continue;
        }
        if c == '"' || c == '\'' {
            let start = i;
            bump!();
            loop {
                if i >= chars.len() || chars[i] == '\n' {
                    return Err(Error::syntax(
                        pos,
                        "unterminated string or character literal",
                    ));
                }
                if chars[i] == '\\' && i + 1 < chars.len() {
                    bump!();
                } else if chars[i] == c {
                    bump!();
                    break;
                }
                bump!();
            }
            toks.push(Token {
                tok: Tok::Str(chars[start..i].iter().collect()),
                pos,
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                bump!();
            }
            toks.push(Token {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                pos,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && i + 1 < chars.len() && chars[i + 1].is_ascii_digit())
        {
            let start = i;
            let mut is_float = false;
            while i < chars.len() && chars[i].is_ascii_digit() {
                bump!();
            }
            if i < chars.len() && chars[i] == '.' {
                is_float = true;
                bump!();
                while i < chars.len() && chars[i].is_ascii_digit() {
                    bump!();
                }
            }
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                let save = (i, line, col);
                bump!();
                if i < chars.len() && (chars[i] == '+' || chars[i] == '-') {
                    bump!();
                }
                if i < chars.len() && chars[i].is_ascii_digit() {
                    is_float = true;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        bump!();
                    }
                } else {
                    (i, line, col) = save;
                }
            }
            let text: String = chars[start..i].iter().collect();
            if i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                return Err(Error::unsupported(
                    pos,
                    format!("{text}{}", chars[i]),
                    "number literal suffixes and non-decimal literals are not supported",
                ));
            }
            if is_float {
                let v: f64 = text
                    .parse()
                    .map_err(|_| Error::syntax(pos, format!("bad number `{text}`")))?;
                toks.push(Token {
                    tok: Tok::Float(v, text),
                    pos,
                });
            } else {
                if text.len() > 1 && text.starts_with('0') {
                    return Err(Error::unsupported(
                        pos,
                        text,
                        "octal literals are not supported",
                    ));
                }
                let v: i64 = text.parse().map_err(|_| {
                    Error::unsupported(pos, text.clone(), "integer literal too large")
                })?;
                toks.push(Token {
                    tok: Tok::Int(v),
                    pos,
                });
            }
            continue;
        }
        // (the first in `PUNCTS` order whose characters follow, compared in
        // place: no copy of each candidate per token)
        let matched = PUNCTS
            .iter()
            .find(|p| {
                p.chars()
                    .enumerate()
                    .all(|(k, ch)| chars.get(i + k) == Some(&ch))
            })
            .copied();
        match matched {
            Some(p) => {
                for _ in 0..p.chars().count() {
                    bump!();
                }
                toks.push(Token {
                    tok: Tok::Punct(p),
                    pos,
                });
            }
            None => {
                let what = if c == '"' || c == '\'' {
                    "string and character literals are not supported".to_string()
                } else {
                    format!("unexpected character `{}`", c.escape_default())
                };
                return Err(Error::syntax(pos, what));
            }
        }
    }
    toks.push(Token {
        tok: Tok::Eof,
        pos: Pos { line, col },
    });
    Ok(toks)
}

/// `Some` for `#pragma omp parallel for`, an error for any other
/// `#pragma omp` line, `None` for every other preprocessor line.
fn pragma_token(line: &str, pos: Pos) -> Result<Option<Tok>, Error> {
    let text = line.replace("\\\n", " ");
    let words: Vec<&str> = text[1..].split_whitespace().collect();
    if words.first() != Some(&"pragma") || words.get(1) != Some(&"omp") {
        return Ok(None);
    }
    if words[2..] == ["parallel", "for"] {
        return Ok(Some(Tok::Punct(PRAGMA_PARALLEL_FOR)));
    }
    Err(Error::unsupported(
        pos,
        text.trim().to_string(),
        "the only OpenMP directive supported is `#pragma omp parallel for` (without clauses)",
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_of_a_compound_assignment() {
        let toks = super::tokenize("x += 1.5; // c").unwrap();
        assert_eq!(toks.len(), 5);
    }

    #[test]
    fn pragmas() {
        let toks = super::tokenize("#include <x.h>\n  #pragma omp parallel for\nfor").unwrap();
        assert_eq!(toks[0].tok, super::Tok::Punct(super::PRAGMA_PARALLEL_FOR));
        assert_eq!((toks[0].pos.line, toks[0].pos.col), (2, 3));
        let e = super::tokenize("\n#pragma omp parallel for simd\n").unwrap_err();
        assert!(e.to_string().contains("2:1"), "{e}");
        assert_eq!(super::tokenize("#pragma once\nx").unwrap().len(), 2);
    }
}
