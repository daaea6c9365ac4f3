//! The calculator's lexer.
//!
//! A script is turned into a vector of [`Token`]s up front. Set and map
//! literals in isl notation (`{ ... }`, optionally preceded by a parameter
//! list as in `[n, m] -> { ... }`) become a single [`Tok::Literal`] token
//! holding their text, which the evaluator hands to the engine's parser.
//! Lexical problems (an unbalanced brace, a stray character) become
//! [`Tok::Error`] tokens so that the parser can report them as the error of
//! the statement they occur in and go on with the next statement.

use crate::error::Pos;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// A decimal integer (kept as text; the evaluator converts it).
    Int(String),
    /// A string literal `"..."` (with escapes resolved).
    Str(String),
    /// A set or map literal in isl notation, braces (and parameter list) included.
    Literal(String),
    /// A punctuation or operator symbol such as `:=`, `<<=` or `^-1`.
    Sym(&'static str),
    /// A lexical error; the message says what was expected.
    Error(String),
    /// End of input.
    Eof,
}

impl Tok {
    /// A short description for error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(s) => format!("integer `{s}`"),
            Tok::Str(_) => "a string".to_string(),
            Tok::Literal(_) => "a set or map literal".to_string(),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Error(m) => m.clone(),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

/// A token and where it starts and ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Position of its first character.
    pub pos: Pos,
    /// Line of its last character.
    pub end_line: usize,
}

/// Start of the message of an unterminated literal.
const UNTERMINATED: &str = "a `}` closing the `{` of this literal";

/// Multi-character symbols first, so that the longest match wins.
/// (`==` and `@` are iscc operators the calculator only names in a
/// "not supported" error.)
const SYMBOLS: &[&str] = &[
    "<<=", ">>=", "^-1", "->*", "->-", ":=", "->", "<=", ">=", "<<", ">>", "==", "^+", ";", "(",
    ")", "[", "]", ",", "+", "-", "*", "%", ".", "=", "<", ">", "^", ":", "@",
];

/// Splits a script into tokens.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    chars: Vec<char>,
    src: &'a str,
    i: usize,
    line: usize,
    col: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`, whose first line is numbered `first_line`.
    pub fn new(src: &'a str, first_line: usize) -> Lexer<'a> {
        Lexer {
            chars: src.chars().collect(),
            src,
            i: 0,
            line: first_line,
            col: 1,
        }
    }

    /// The source text being lexed.
    pub fn source(&self) -> &'a str {
        self.src
    }

    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.i).copied()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn pos(&self) -> Pos {
        Pos::new(self.line, self.col)
    }

    fn skip_blank(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '#' {
                while let Some(c) = self.peek(0) {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// Index just after the blanks and comments starting at `k`.
    fn skip_blank_at(&self, mut k: usize) -> usize {
        while let Some(&c) = self.chars.get(k) {
            if c == '#' {
                while k < self.chars.len() && self.chars[k] != '\n' {
                    k += 1;
                }
            } else if c.is_whitespace() {
                k += 1;
            } else {
                break;
            }
        }
        k
    }

    /// If a parameter list `[a, b] -> {` starts here, the index of its `{`.
    fn param_list_literal(&self) -> Option<usize> {
        let mut k = self.i + 1;
        loop {
            k = self.skip_blank_at(k);
            match self.chars.get(k) {
                Some(']') => {
                    k += 1;
                    break;
                }
                Some(c) if c.is_alphanumeric() || *c == '_' || *c == '\'' || *c == ',' => k += 1,
                _ => return None,
            }
        }
        k = self.skip_blank_at(k);
        if self.chars.get(k) != Some(&'-') || self.chars.get(k + 1) != Some(&'>') {
            return None;
        }
        k = self.skip_blank_at(k + 2);
        (self.chars.get(k) == Some(&'{')).then_some(k)
    }

    /// Lex a literal whose `{` is at `brace`; the current position is its first character.
    ///
    /// isl notation has exactly one pair of braces and never contains `:=`,
    /// so a second `{` or a `:=` before the closing `}` means the brace is
    /// unbalanced (and a stray `}` further down cannot swallow statements).
    fn literal(&mut self, brace: usize) -> Tok {
        let start = self.i;
        let mut k = brace + 1;
        let stop = loop {
            match self.chars.get(k) {
                None => break None,
                Some('}') => {
                    while self.i <= k {
                        self.bump();
                    }
                    return Tok::Literal(self.chars[start..=k].iter().collect());
                }
                Some('{') => break Some(k),
                Some(':') if self.chars.get(k + 1) == Some(&'=') => break Some(k),
                _ => k += 1,
            }
        };
        // Unbalanced: swallow the rest of this statement so that the next ones survive.
        let end = match stop {
            // Up to the last `;` before the next statement (or the start of its line).
            Some(stop) => {
                let line_start = self.chars[..stop]
                    .iter()
                    .rposition(|&c| c == '\n')
                    .map_or(brace + 1, |p| p + 1);
                self.chars[brace..stop]
                    .iter()
                    .rposition(|&c| c == ';')
                    .map_or(line_start.max(brace + 1), |p| brace + p)
            }
            // Up to the first `;` that ends a line, or the end of input.
            None => {
                let mut end = self.chars.len();
                for k in brace..self.chars.len() {
                    if self.chars[k] == ';' {
                        let rest = self.skip_blank_at(k + 1);
                        if rest >= self.chars.len() || self.chars[k + 1..rest].contains(&'\n') {
                            end = k;
                            break;
                        }
                    }
                }
                end
            }
        };
        while self.i < end {
            self.bump();
        }
        if stop.is_none() {
            Tok::Error(format!("{UNTERMINATED} before the end of input"))
        } else {
            Tok::Error(format!("{UNTERMINATED} (unbalanced braces)"))
        }
    }

    fn string(&mut self) -> Tok {
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Tok::Error("a `\"` closing this string".to_string()),
                Some('"') => return Tok::Str(s),
                Some('\\') => match self.bump() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(c) => s.push(c),
                    None => return Tok::Error("a `\"` closing this string".to_string()),
                },
                Some(c) => s.push(c),
            }
        }
    }

    /// The next token; `after_operand` tells whether the previous token ends an
    /// operand (then `[` is an index, never a parameter list).
    fn next_token(&mut self, after_operand: bool) -> Token {
        self.skip_blank();
        let pos = self.pos();
        let tok = match self.peek(0) {
            None => Tok::Eof,
            Some('{') => self.literal(self.i),
            Some('[') if !after_operand && self.param_list_literal().is_some() => {
                let brace = self.param_list_literal().unwrap_or(self.i);
                self.literal(brace)
            }
            Some('"') => self.string(),
            Some(c) if c.is_ascii_digit() => {
                let mut s = String::new();
                while let Some(c) = self.peek(0).filter(char::is_ascii_digit) {
                    s.push(c);
                    self.bump();
                }
                Tok::Int(s)
            }
            Some(c) if c.is_alphabetic() || c == '_' => {
                let mut s = String::new();
                while let Some(c) = self
                    .peek(0)
                    .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '\'')
                {
                    s.push(c);
                    self.bump();
                }
                Tok::Ident(s)
            }
            Some('}') => {
                self.bump();
                Tok::Error("an operand or an operator, found `}` (unbalanced braces)".to_string())
            }
            Some(c) => {
                let sym = SYMBOLS.iter().find(|s| {
                    s.chars()
                        .enumerate()
                        .all(|(k, sc)| self.peek(k) == Some(sc))
                });
                match sym {
                    Some(s) => {
                        for _ in 0..s.chars().count() {
                            self.bump();
                        }
                        Tok::Sym(s)
                    }
                    None => {
                        self.bump();
                        Tok::Error(format!(
                            "an operand or an operator, found unexpected character `{c}`"
                        ))
                    }
                }
            }
        };
        Token {
            tok,
            pos,
            end_line: self.line,
        }
    }

    /// All tokens, ending with [`Tok::Eof`].
    pub fn tokenize(mut self) -> Vec<Token> {
        let mut out: Vec<Token> = Vec::new();
        loop {
            let after_operand = matches!(
                out.last().map(|t| &t.tok),
                Some(
                    Tok::Ident(_)
                        | Tok::Int(_)
                        | Tok::Str(_)
                        | Tok::Literal(_)
                        | Tok::Sym(")" | "]" | "^-1")
                )
            ) && !matches!(out.last().map(|t| &t.tok), Some(Tok::Ident(s))
                // a keyword, or a word that may start a statement's operator
                // (`codegen [n] -> { ... }`), is followed by an operand
                if crate::parser::is_keyword(s)
                    || s == "codegen"
                    || s == "schedule"
                    || crate::parser::UNSUPPORTED_PREFIX.contains(&s.as_str()));
            let t = self.next_token(after_operand);
            let eof = t.tok == Tok::Eof;
            out.push(t);
            if eof {
                return out;
            }
        }
    }
}

/// True if `src` ends inside an unterminated literal or string (an interactive
/// prompt then waits for more lines).
pub fn is_incomplete(src: &str) -> bool {
    Lexer::new(src, 1).tokenize().iter().any(|t| {
        matches!(&t.tok, Tok::Error(m) if m.ends_with("before the end of input") || m.starts_with("a `\"` closing"))
    })
}
