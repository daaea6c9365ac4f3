//! Reading piecewise quasi-polynomials in isl's notation:
//! `[n] -> { [i] -> (i^2 + n) : 0 <= i < n; [i] -> floor((i)/2) : i >= n }`,
//! `[n] -> { (1/2 * n) : n >= 0 }`.
//!
//! A piece is an optional tuple and `->`, an expression, and an optional
//! condition after `:`. The expression is a polynomial with rational
//! coefficients in the parameters, the tuple's dimensions and `floor(e)` of
//! quasi-affine expressions `e` (products `*`, powers `^k`, division by an
//! integer `/d`, and `2n` for `2 * n`). Pieces may overlap: as in isl, their
//! values add up where they do. The domains are read by the set parser.

use std::str::FromStr;

use super::qpoly::{PwQPolynomial, QuasiPolynomial};
use super::rat::Rat;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::space::Space;

/// True if `text` (a `{ ... }` literal, perhaps after a parameter list)
/// is a quasi-polynomial rather than a set or map: its first piece has an
/// expression where a set or map has a tuple.
pub fn is_qpolynomial_text(text: &str) -> bool {
    let Ok((_, body, _)) = outer(text) else {
        return false;
    };
    let Some(piece) = split_top(body, ';').into_iter().next() else {
        return false;
    };
    let piece = piece.1.trim_start();
    match tuple_end(piece) {
        Some(end) => {
            let rest = piece[end..].trim_start();
            match rest.strip_prefix("->") {
                Some(r) => tuple_end(r.trim_start()).is_none() && !r.trim().is_empty(),
                None => false,
            }
        }
        None => {
            let first = piece.chars().next();
            !(piece.is_empty() || first == Some(':'))
        }
    }
}

/// Reads a union of piecewise quasi-polynomials (one per space).
pub fn parse_union_qpolynomial(text: &str) -> Result<Vec<PwQPolynomial>> {
    let (params, body, body_at) = outer(text)?;
    let mut out: Vec<PwQPolynomial> = Vec::new();
    for (at, piece) in split_top(body, ';') {
        if piece.trim().is_empty() {
            continue;
        }
        let f = read_piece(text, params, piece, body_at + at)?;
        match out.iter_mut().find(|g| g.space() == f.space()) {
            Some(g) => *g = g.add(&f)?,
            None => out.push(f),
        }
    }
    Ok(out)
}

impl FromStr for PwQPolynomial {
    type Err = Error;
    /// isl notation over one space (see the [module](self)).
    ///
    /// ```
    /// use presburger::{Int, PwQPolynomial};
    /// let f: PwQPolynomial = "[n] -> { [i] -> (i^2 + n) : 0 <= i < n }".parse().unwrap();
    /// assert_eq!(f.to_string(), "[n] -> { [i] -> (n + i^2) : 0 <= i < n }");
    /// assert_eq!(f.eval(&[Int::from(5), Int::from(3)]).unwrap(), Int::from(14).into());
    /// ```
    fn from_str(s: &str) -> Result<PwQPolynomial> {
        let mut fs = parse_union_qpolynomial(s)?;
        match fs.len() {
            1 => Ok(fs.pop().unwrap()),
            0 => Err(err_at(
                s,
                0,
                "a piece `[..] -> expression` inside the braces",
            )),
            _ => Err(err_at(
                s,
                0,
                "pieces over one space (several spaces make a union)",
            )),
        }
    }
}

fn err_at(text: &str, at: usize, expected: &str) -> Error {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Error::Parse {
        line,
        col,
        expected: expected.to_string(),
    }
}

/// The parameter list's text (with its brackets, or empty), the body
/// between the braces and the body's offset.
fn outer(text: &str) -> Result<(&str, &str, usize)> {
    let open = text.find('{').ok_or_else(|| err_at(text, 0, "'{'"))?;
    let head = text[..open].trim();
    let params = match head.strip_suffix("->") {
        Some(p) => p.trim(),
        None if head.is_empty() => "",
        None => return Err(err_at(text, 0, "a parameter list `[n] ->` or '{'")),
    };
    let close = text.rfind('}').filter(|&c| c > open);
    let Some(close) = close else {
        return Err(err_at(text, text.len(), "'}'"));
    };
    if !text[close + 1..].trim().is_empty() {
        return Err(err_at(text, close + 1, "the end of the text after '}'"));
    }
    Ok((params, &text[open + 1..close], open + 1))
}

/// `s` split at `sep` outside brackets and parentheses, with offsets.
fn split_top(s: &str, sep: char) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (k, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push((start, &s[start..k]));
                start = k + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push((start, &s[start..]));
    out
}

/// The end of a tuple `name[...]` or `[...]` at the start of `s`.
fn tuple_end(s: &str) -> Option<usize> {
    let name_len = s
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '\''))
        .map_or(s.len(), |(k, _)| k);
    if name_len > 0 && s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    if !s[name_len..].starts_with('[') {
        return None;
    }
    let mut depth = 0;
    for (k, c) in s[name_len..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(name_len + k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn read_piece(text: &str, params: &str, piece: &str, at: usize) -> Result<PwQPolynomial> {
    let lead = piece.len() - piece.trim_start().len();
    let p = piece.trim_start();
    let (tuple, rest, rest_at) = match tuple_end(p) {
        Some(end) => {
            let r = p[end..].trim_start();
            let Some(r2) = r.strip_prefix("->") else {
                return Err(err_at(text, at + lead + end, "'->' and an expression"));
            };
            let off = at + lead + (p.len() - r2.len());
            (&p[..end], r2, off)
        }
        None => ("", p, at + lead),
    };
    let parts = split_top(rest, ':');
    let (expr, cond) = match parts.as_slice() {
        [(_, e)] => (*e, None),
        [(_, e), (_, c)] => (*e, Some(*c)),
        _ => return Err(err_at(text, rest_at, "one ':' before the condition")),
    };
    let prefix = if params.is_empty() {
        String::new()
    } else {
        format!("{params} -> ")
    };
    let dom_text = match cond {
        Some(c) if tuple.is_empty() => format!("{prefix}{{ : {c} }}"),
        Some(c) => format!("{prefix}{{ {tuple} : {c} }}"),
        None if tuple.is_empty() => format!("{prefix}{{ : }}"),
        None => format!("{prefix}{{ {tuple} }}"),
    };
    let domain: Set = Map::from_str(&dom_text).map_err(|e| match e {
        Error::Parse { expected, .. } => err_at(text, at + lead, &format!("a domain: {expected}")),
        e => e,
    })?;
    if !domain.space().is_set() {
        return Err(err_at(text, at + lead, "a set tuple before '->'"));
    }
    let space = domain.space().clone();
    let mut names: Vec<String> = space.params.to_vec();
    names.extend(space.range.dim_names());
    let mut r = ExprReader {
        text,
        src: expr,
        at: rest_at,
        k: 0,
        names: &names,
        space: &space,
    };
    let q = r.sum()?;
    r.skip_ws();
    if r.k < r.src.len() {
        return Err(r.err("an operator or the end of the expression"));
    }
    PwQPolynomial::from_piece(domain, q)
}

/// Recursive descent over one expression.
struct ExprReader<'a> {
    text: &'a str,
    src: &'a str,
    at: usize,
    k: usize,
    names: &'a [String],
    space: &'a Space,
}

impl ExprReader<'_> {
    fn err(&self, expected: &str) -> Error {
        err_at(self.text, self.at + self.k, expected)
    }

    fn skip_ws(&mut self) {
        while self.src[self.k..].starts_with(char::is_whitespace) {
            self.k += self.src[self.k..].chars().next().map_or(1, char::len_utf8);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.src[self.k..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.k += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn integer(&mut self) -> Option<Int> {
        self.skip_ws();
        let n = self.src[self.k..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.src.len() - self.k);
        if n == 0 {
            return None;
        }
        let v = self.src[self.k..self.k + n].parse().ok()?;
        self.k += n;
        Some(v)
    }

    fn word(&mut self) -> Option<&str> {
        self.skip_ws();
        let s = &self.src[self.k..];
        if !s.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            return None;
        }
        let n = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
            .unwrap_or(s.len());
        self.k += n;
        Some(&s[..n])
    }

    fn constant(&self, c: Rat) -> QuasiPolynomial {
        QuasiPolynomial::constant(self.space.clone(), c)
    }

    fn sum(&mut self) -> Result<QuasiPolynomial> {
        let mut acc = self.product()?;
        loop {
            if self.eat('+') {
                acc = acc.add(&self.product()?)?;
            } else if self.peek() == Some('-') {
                self.k += 1;
                acc = acc.add(&self.product()?.scale(&Rat::from(-1)))?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn product(&mut self) -> Result<QuasiPolynomial> {
        let mut acc = self.signed()?;
        loop {
            if self.eat('*') {
                acc = acc.mul(&self.signed()?)?;
            } else if self.eat('/') {
                let d = self
                    .integer()
                    .ok_or_else(|| self.err("an integer divisor"))?;
                let inv = Rat::new(Int::ONE, d).ok_or_else(|| self.err("a non-zero divisor"))?;
                acc = acc.scale(&inv);
            } else if matches!(self.peek(), Some(c) if c.is_alphabetic() || c == '_' || c == '(') {
                // `2n`, `2 floor(..)`, `(..)(..)`: juxtaposition multiplies
                acc = acc.mul(&self.power()?)?;
            } else {
                return Ok(acc);
            }
        }
    }

    /// A power, negated by each leading `-` (`-i^2` is `-(i^2)`).
    fn signed(&mut self) -> Result<QuasiPolynomial> {
        if self.eat('-') {
            Ok(self.signed()?.scale(&Rat::from(-1)))
        } else {
            self.power()
        }
    }

    fn power(&mut self) -> Result<QuasiPolynomial> {
        let base = self.atom()?;
        if !self.eat('^') {
            return Ok(base);
        }
        let e = self
            .integer()
            .ok_or_else(|| self.err("a non-negative integer exponent"))?;
        let e: u32 = e
            .to_string()
            .parse()
            .ok()
            .filter(|&e| e <= 64)
            .ok_or_else(|| self.err("an exponent of at most 64"))?;
        let mut acc = self.constant(Rat::one());
        for _ in 0..e {
            acc = acc.mul(&base)?;
        }
        Ok(acc)
    }

    fn atom(&mut self) -> Result<QuasiPolynomial> {
        if self.eat('(') {
            let q = self.sum()?;
            if !self.eat(')') {
                return Err(self.err("')'"));
            }
            return Ok(q);
        }
        if let Some(n) = self.integer() {
            return Ok(self.constant(Rat::from(n)));
        }
        let start = self.k;
        let Some(w) = self.word().map(str::to_string) else {
            return Err(self.err("a number, a variable, floor(..) or '('"));
        };
        if w == "floor" {
            if !self.eat('(') {
                return Err(self.err("'(' after floor"));
            }
            let q = self.sum()?;
            if !self.eat(')') {
                return Err(self.err("')'"));
            }
            return q.floor().map_err(|_| {
                err_at(
                    self.text,
                    self.at + start,
                    "floor of a quasi-affine expression (degree at most one)",
                )
            });
        }
        // the last of equal names wins: a dimension shadows a parameter
        match self.names.iter().rposition(|n| *n == w) {
            Some(k) => {
                let mut row = vec![Int::ZERO; 1 + self.names.len()];
                row[1 + k] = Int::ONE;
                QuasiPolynomial::affine(self.space.clone(), &row)
            }
            None => {
                self.k = start;
                Err(self.err(&format!("a parameter or dimension name (`{w}` is neither)")))
            }
        }
    }
}
