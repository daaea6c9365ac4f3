//! Recursive-descent parser: tokens of the C subset → [`crate::ast::Function`].

use crate::ast::*;
use crate::error::{Error, Pos};
use crate::lexer::{tokenize, Tok, Token};

mod expr;
mod stmt;

/// Parses a source file and returns its kernel function.
///
/// Preprocessor lines are ignored; helper functions named `min`, `max`,
/// `MIN` or `MAX` are skipped (their meaning is built in), and prototypes are
/// skipped. Exactly one other function definition (the kernel) must remain.
///
/// ```
/// let f = scop::parse_kernel("void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 0; }").unwrap();
/// assert_eq!(f.name, "k");
/// assert_eq!(f.params.len(), 2);
/// ```
pub fn parse_kernel(src: &str) -> Result<Function, Error> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        toks,
        i: 0,
        depth: 0,
    };
    let mut kernel: Option<Function> = None;
    while !p.at_eof() {
        if let Some(f) = p.top_level()? {
            if let Some(prev) = &kernel {
                return Err(Error::unsupported(
                    f.pos,
                    format!("function `{}`", f.name),
                    format!(
                        "only one kernel function per file is supported (already found `{}`)",
                        prev.name
                    ),
                ));
            }
            kernel = Some(f);
        }
    }
    kernel.ok_or_else(|| Error::syntax(p.pos(), "no kernel function definition found"))
}

struct Parser {
    toks: Vec<Token>,
    i: usize,
    /// Current nesting depth (statements, unary operators, operator chains).
    depth: usize,
}

/// Maximum nesting depth accepted (keeps recursion bounded on hostile input).
const MAX_DEPTH: usize = 400;

const UNSUPPORTED_KEYWORDS: &[(&str, &str)] = &[
    ("while", "only `for` loops with affine bounds are supported"),
    ("do", "only `for` loops with affine bounds are supported"),
    ("switch", "only `if` with affine conditions is supported"),
    ("goto", "unstructured control flow is not static control"),
    ("break", "loop exits are not static control"),
    ("continue", "loop exits are not static control"),
    (
        "float",
        "only `int`, `long`, `unsigned` and `double` are supported",
    ),
    (
        "short",
        "only `int`, `long`, `unsigned` and `double` are supported",
    ),
    (
        "char",
        "only `int`, `long`, `unsigned` and `double` are supported",
    ),
    (
        "signed",
        "only `int`, `long`, `unsigned` and `double` are supported",
    ),
    ("struct", "only `int` and `double` are supported"),
    ("union", "only `int` and `double` are supported"),
    ("enum", "only `int` and `double` are supported"),
    ("typedef", "type definitions are not supported"),
    ("sizeof", "`sizeof` is not supported"),
];

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        let j = (self.i + k).min(self.toks.len() - 1);
        &self.toks[j].tok
    }
    fn pos(&self) -> Pos {
        self.toks[self.i].pos
    }
    fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }
    fn advance(&mut self) -> Token {
        let t = self.toks[self.i].clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(q) if q == s)
    }
    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.advance();
            true
        } else {
            false
        }
    }
    fn eat_ident(&mut self, s: &str) -> bool {
        if self.is_ident(s) {
            self.advance();
            true
        } else {
            false
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(v) => format!("`{v}`"),
            Tok::Float(_, s) => format!("`{s}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Str(s) => s.clone(),
            Tok::Eof => "end of file".to_string(),
        }
    }
    fn expect_punct(&mut self, p: &str) -> Result<(), Error> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(Error::syntax(
                self.pos(),
                format!("expected `{p}`, found {}", self.describe()),
            ))
        }
    }
    fn check_unsupported_keyword(&self) -> Result<(), Error> {
        if let Tok::Ident(s) = self.peek() {
            for (kw, why) in UNSUPPORTED_KEYWORDS {
                if s == kw {
                    return Err(Error::unsupported(self.pos(), *kw, *why));
                }
            }
        }
        Ok(())
    }
    fn ident(&mut self) -> Result<(String, Pos), Error> {
        self.check_unsupported_keyword()?;
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                self.advance();
                Ok((s, pos))
            }
            _ => Err(Error::syntax(
                pos,
                format!("expected an identifier, found {}", self.describe()),
            )),
        }
    }

    /// Skips qualifiers that do not change the meaning for us.
    fn skip_qualifiers(&mut self) {
        while self.is_ident("static")
            || self.is_ident("inline")
            || self.is_ident("const")
            || self.is_ident("extern")
            || self.is_ident("restrict")
            || self.is_ident("__restrict")
            || self.is_ident("__restrict__")
        {
            self.advance();
        }
    }

    /// True at the start of a type name.
    fn at_type(&self) -> bool {
        self.is_ident("int")
            || self.is_ident("double")
            || self.is_ident("long")
            || self.is_ident("unsigned")
    }

    fn base_type(&mut self) -> Result<Option<BaseTy>, Error> {
        self.check_unsupported_keyword()?;
        let unsigned = self.eat_ident("unsigned");
        let mut longs = 0;
        while self.eat_ident("long") {
            longs += 1;
        }
        if longs > 2 {
            return Err(Error::syntax(self.pos(), "`long long long` is too long"));
        }
        let int = self.eat_ident("int");
        if unsigned || longs > 0 || int {
            self.check_unsupported_keyword()?;
            if self.is_ident("double") {
                return Err(Error::syntax(
                    self.pos(),
                    "an integer type cannot be followed by `double`",
                ));
            }
            return Ok(Some(BaseTy::Int(match (unsigned, longs > 0) {
                (false, false) => IntTy::Int,
                (true, false) => IntTy::UInt,
                (false, true) => IntTy::Long,
                (true, true) => IntTy::ULong,
            })));
        }
        if self.eat_ident("double") {
            Ok(Some(BaseTy::Double))
        } else {
            Ok(None)
        }
    }

    fn top_level(&mut self) -> Result<Option<Function>, Error> {
        if self.eat_punct(";") {
            return Ok(None);
        }
        self.skip_qualifiers();
        let tpos = self.pos();
        let is_void = self.eat_ident("void");
        if !is_void && self.base_type()?.is_none() {
            return Err(Error::syntax(
                tpos,
                format!("expected a function definition, found {}", self.describe()),
            ));
        }
        if self.is_punct("*") {
            return Err(Error::unsupported(
                self.pos(),
                "*",
                "pointer types are not supported",
            ));
        }
        let (name, npos) = self.ident()?;
        if !self.is_punct("(") {
            return Err(Error::unsupported(
                npos,
                format!("global variable `{name}`"),
                "global variables are not supported; pass data as parameters",
            ));
        }
        if is_int_minmax(&name) {
            // A helper such as `static inline int min(int a, int b) {...}`.
            self.skip_balanced("(", ")")?;
            if !self.eat_punct(";") {
                self.skip_balanced("{", "}")?;
            }
            return Ok(None);
        }
        if !is_void {
            return Err(Error::unsupported(
                tpos,
                format!("function `{name}`"),
                "the kernel must return `void`",
            ));
        }
        self.expect_punct("(")?;
        let mut params = Vec::new();
        if self.is_ident("void") && matches!(self.peek_at(1), Tok::Punct(")")) {
            self.advance();
        }
        if !self.is_punct(")") {
            loop {
                params.push(self.param()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        if self.eat_punct(";") {
            return Ok(None); // prototype
        }
        let bpos = self.pos();
        if !self.is_punct("{") {
            return Err(Error::syntax(
                bpos,
                format!("expected `{{`, found {}", self.describe()),
            ));
        }
        let mut body = match self.block()? {
            Stmt {
                kind: StmtKind::Block(b),
                ..
            } => b,
            _ => Vec::new(),
        };
        // a `return;` that ends the body returns nothing early
        if matches!(
            body.last(),
            Some(Stmt {
                kind: StmtKind::Call { returns: true, .. },
                ..
            })
        ) {
            body.pop();
        }
        Ok(Some(Function {
            name,
            params,
            body,
            pos: npos,
        }))
    }

    fn skip_balanced(&mut self, open: &str, close: &str) -> Result<(), Error> {
        let start = self.pos();
        self.expect_punct(open)?;
        let mut depth = 1usize;
        while depth > 0 {
            if self.at_eof() {
                return Err(Error::syntax(start, format!("unbalanced `{open}`")));
            }
            if self.is_punct(open) {
                depth += 1;
            } else if self.is_punct(close) {
                depth -= 1;
            }
            self.advance();
        }
        Ok(())
    }

    fn param(&mut self) -> Result<Param, Error> {
        self.skip_qualifiers();
        let tpos = self.pos();
        let ty = match self.base_type()? {
            Some(t) => t,
            None => {
                return Err(Error::syntax(
                    tpos,
                    format!("expected a parameter type, found {}", self.describe()),
                ))
            }
        };
        self.skip_qualifiers();
        if self.is_punct("*") {
            let spos = self.pos();
            self.advance();
            let mut restrict = false;
            while self.is_ident("restrict")
                || self.is_ident("__restrict")
                || self.is_ident("__restrict__")
                || self.is_ident("const")
            {
                restrict |= !self.is_ident("const");
                self.advance();
            }
            if self.is_punct("*") || ty != BaseTy::Double {
                return Err(Error::unsupported(
                    spos,
                    "*",
                    "only `double *` (optionally `restrict`) pointer parameters are supported",
                ));
            }
            let (name, pos) = self.ident()?;
            if self.is_punct("[") {
                return Err(Error::unsupported(
                    self.pos(),
                    "[",
                    "arrays of pointers are not supported",
                ));
            }
            return Ok(Param {
                name,
                kind: ParamKind::Pointer { restrict },
                pos,
            });
        }
        let (name, pos) = self.ident()?;
        let mut dims = Vec::new();
        let mut open = false;
        while self.eat_punct("[") {
            self.skip_qualifiers();
            if self.is_punct("]") {
                if !dims.is_empty() || open {
                    return Err(Error::unsupported(
                        self.pos(),
                        "[]",
                        "only the outermost extent of an array parameter may be left out",
                    ));
                }
                self.advance();
                open = true;
                continue;
            }
            dims.push(self.expr()?);
            self.expect_punct("]")?;
        }
        let kind = match (ty, dims.is_empty() && !open) {
            (BaseTy::Int(t), true) => ParamKind::Int(t),
            (BaseTy::Double, true) => ParamKind::Double,
            (BaseTy::Double, false) if open => ParamKind::OpenArray(dims),
            (BaseTy::Double, false) => ParamKind::Array(dims),
            (BaseTy::Int(_), false) => {
                return Err(Error::unsupported(
                    pos,
                    format!("int {name}[]"),
                    "only arrays of `double` are supported",
                ))
            }
        };
        Ok(Param { name, kind, pos })
    }
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "int"
            | "double"
            | "void"
            | "for"
            | "if"
            | "else"
            | "static"
            | "inline"
            | "const"
            | "extern"
            | "restrict"
            | "long"
            | "unsigned"
            | "return"
    ) || UNSUPPORTED_KEYWORDS.iter().any(|(k, _)| *k == s)
}
