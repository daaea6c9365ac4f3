//! Recursive-descent parser: tokens of the C subset → [`crate::ast::Function`].

use crate::ast::*;
use crate::error::{Error, Pos};
use crate::lexer::{tokenize, Tok, Token, PRAGMA_PARALLEL_FOR};

mod expr;

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

    fn block(&mut self) -> Result<Stmt, Error> {
        let pos = self.pos();
        self.expect_punct("{")?;
        let mut items = Vec::new();
        loop {
            if self.at_eof() {
                return Err(Error::syntax(pos, "unbalanced `{`: missing `}`"));
            }
            if self.eat_punct("}") {
                break;
            }
            items.extend(self.block_item()?);
        }
        Ok(Stmt {
            kind: StmtKind::Block(items),
            pos,
        })
    }

    fn block_item(&mut self) -> Result<Vec<Stmt>, Error> {
        self.check_unsupported_keyword()?;
        if self.at_type() || self.is_ident("const") {
            return self.declaration();
        }
        Ok(vec![self.statement()?])
    }

    fn declaration(&mut self) -> Result<Vec<Stmt>, Error> {
        self.skip_qualifiers();
        let ty = self.base_type()?.unwrap_or(BaseTy::Int(IntTy::Int));
        let mut out = Vec::new();
        loop {
            if self.is_punct("*") {
                return Err(Error::unsupported(
                    self.pos(),
                    "*",
                    "pointer variables are not supported",
                ));
            }
            let (name, pos) = self.ident()?;
            if self.is_punct("[") {
                if ty != BaseTy::Double {
                    return Err(Error::unsupported(
                        pos,
                        format!("local array `{name}`"),
                        "only local arrays of `double` are supported",
                    ));
                }
                let mut dims = Vec::new();
                while self.eat_punct("[") {
                    if self.is_punct("]") {
                        return Err(Error::syntax(
                            self.pos(),
                            format!("local array `{name}` needs its extent"),
                        ));
                    }
                    dims.push(self.expr()?);
                    self.expect_punct("]")?;
                }
                if self.is_punct("=") {
                    return Err(Error::unsupported(
                        self.pos(),
                        format!("initializer of `{name}`"),
                        "local arrays cannot be initialized",
                    ));
                }
                out.push(Stmt {
                    kind: StmtKind::ArrayDecl { name, dims },
                    pos,
                });
                if !self.eat_punct(",") {
                    break;
                }
                continue;
            }
            let init = if self.eat_punct("=") {
                Some(self.expr()?)
            } else {
                None
            };
            out.push(Stmt {
                kind: StmtKind::Decl { ty, name, init },
                pos,
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        Ok(out)
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::unsupported(
                self.pos(),
                "deep nesting",
                format!("nesting deeper than {MAX_DEPTH} levels is not supported"),
            ));
        }
        Ok(())
    }

    fn statement(&mut self) -> Result<Stmt, Error> {
        self.enter()?;
        let r = self.statement_inner();
        self.depth -= 1;
        r
    }

    fn statement_inner(&mut self) -> Result<Stmt, Error> {
        self.check_unsupported_keyword()?;
        let pos = self.pos();
        if self.is_punct("{") {
            return self.block();
        }
        if self.eat_punct(";") {
            return Ok(Stmt {
                kind: StmtKind::Empty,
                pos,
            });
        }
        if self.at_type() {
            return Err(Error::syntax(
                pos,
                "a declaration is not allowed here; use braces",
            ));
        }
        if let (Tok::Ident(name), Tok::Punct("(")) = (self.peek().clone(), self.peek_at(1)) {
            if !is_keyword(&name) && !KNOWN_FUNCTIONS.iter().any(|(k, _)| *k == name) {
                // A call of an unknown function as a statement (an error path).
                self.advance();
                self.skip_balanced("(", ")")?;
                self.expect_punct(";")?;
                return Ok(Stmt {
                    kind: StmtKind::Call {
                        name,
                        returns: false,
                    },
                    pos,
                });
            }
        }
        if self.eat_ident("return") {
            if !self.eat_punct(";") {
                return Err(Error::unsupported(
                    self.pos(),
                    "`return` with a value",
                    "the kernel returns void: `return;` only",
                ));
            }
            return Ok(Stmt {
                kind: StmtKind::Call {
                    name: "return".into(),
                    returns: true,
                },
                pos,
            });
        }
        if self.eat_punct(PRAGMA_PARALLEL_FOR) {
            return self.parallel_for(pos);
        }
        if self.eat_ident("for") {
            return self.for_stmt(pos);
        }
        if self.eat_ident("if") {
            self.expect_punct("(")?;
            let cond = self.expr()?;
            self.expect_punct(")")?;
            let then_s = Box::new(self.statement()?);
            let else_s = if self.eat_ident("else") {
                Some(Box::new(self.statement()?))
            } else {
                None
            };
            return Ok(Stmt {
                kind: StmtKind::If {
                    cond,
                    then_s,
                    else_s,
                },
                pos,
            });
        }
        if self.is_punct("++") || self.is_punct("--") {
            return Err(Error::unsupported(
                pos,
                self.describe().trim_matches('`').to_string(),
                "increments are only supported as `for` loop steps",
            ));
        }
        let lhs = self.unary()?;
        let op = match self.peek() {
            Tok::Punct("=") => AssignOp::Set,
            Tok::Punct("+=") => AssignOp::Add,
            Tok::Punct("-=") => AssignOp::Sub,
            Tok::Punct("*=") => AssignOp::Mul,
            Tok::Punct("/=") => AssignOp::Div,
            Tok::Punct(p @ ("++" | "--" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=")) => {
                let p = *p;
                return Err(Error::unsupported(
                    self.pos(),
                    p,
                    "only `=`, `+=`, `-=`, `*=`, `/=` assignments are supported",
                ));
            }
            _ => {
                return Err(Error::unsupported(
                    self.pos(),
                    "expression statement",
                    format!(
                        "expected an assignment operator, found {}; only assignments are supported as statements",
                        self.describe()
                    ),
                ))
            }
        };
        self.advance();
        let rhs = self.expr()?;
        if self.is_punct("=") || self.is_punct(",") {
            return Err(Error::unsupported(
                self.pos(),
                self.describe().trim_matches('`').to_string(),
                "chained assignments and comma expressions are not supported",
            ));
        }
        self.expect_punct(";")?;
        Ok(Stmt {
            kind: StmtKind::Assign { lhs, op, rhs },
            pos,
        })
    }

    fn for_stmt(&mut self, pos: Pos) -> Result<Stmt, Error> {
        self.expect_punct("(")?;
        let ipos = self.pos();
        let wide = match self.peek_at(0) {
            Tok::Ident(s) if s == "long" || s == "unsigned" => match self.base_type()? {
                Some(BaseTy::Int(t)) => Some(t),
                _ => None,
            },
            _ => None,
        };
        if let Some(t) = wide {
            // `for (long i = ...)` is `{ long i; for (i = ...) ... }`: the
            // iterator's type lives in its declaration.
            let (var, _) = match self.peek_at(0) {
                Tok::Ident(v) => (v.clone(), ()),
                _ => {
                    return Err(Error::syntax(
                        self.pos(),
                        format!("expected an identifier, found {}", self.describe()),
                    ))
                }
            };
            let inner = self.for_rest(pos, false)?;
            return Ok(Stmt {
                kind: StmtKind::Block(vec![
                    Stmt {
                        kind: StmtKind::Decl {
                            ty: BaseTy::Int(t),
                            name: var,
                            init: None,
                        },
                        pos: ipos,
                    },
                    inner,
                ]),
                pos,
            });
        }
        let declared = if self.is_ident("int") {
            self.advance();
            true
        } else {
            if self.is_ident("double") {
                return Err(Error::unsupported(
                    self.pos(),
                    "double iterator",
                    "loop iterators must be integers",
                ));
            }
            false
        };
        self.for_rest(pos, declared)
    }

    /// The rest of a `for` header after the iterator's type, and the body.
    fn for_rest(&mut self, pos: Pos, declared: bool) -> Result<Stmt, Error> {
        if self.is_punct(";") {
            return Err(Error::unsupported(
                self.pos(),
                "for (;...)",
                "loops need an iterator initialization",
            ));
        }
        let (var, _) = self.ident()?;
        self.expect_punct("=")?;
        let init = self.expr()?;
        if self.is_punct(",") {
            return Err(Error::unsupported(
                self.pos(),
                ",",
                "only one iterator per loop is supported",
            ));
        }
        self.expect_punct(";")?;
        if self.is_punct(";") {
            return Err(Error::unsupported(
                self.pos(),
                "for (...;;...)",
                "loops need a condition (infinite loops are not static control)",
            ));
        }
        let cond = self.expr()?;
        self.expect_punct(";")?;
        let spos = self.pos();
        let bad_step = || {
            Error::unsupported(
                spos,
                "loop step",
                "the step must be `i++`, `i--`, `i += c` or `i -= c` with a positive integer constant c",
            )
        };
        let step: i64;
        if self.eat_punct("++") || self.eat_punct("--") {
            let inc = matches!(self.toks[self.i - 1].tok, Tok::Punct("++"));
            let (v, _) = self.ident()?;
            if v != var {
                return Err(bad_step());
            }
            step = if inc { 1 } else { -1 };
        } else {
            let (v, _) = self.ident()?;
            if v != var {
                return Err(bad_step());
            }
            if self.eat_punct("++") {
                step = 1;
            } else if self.eat_punct("--") {
                step = -1;
            } else if self.eat_punct("+=") || self.eat_punct("-=") {
                let neg = matches!(self.toks[self.i - 1].tok, Tok::Punct("-="));
                match self.peek().clone() {
                    Tok::Int(c) if c > 0 => {
                        self.advance();
                        step = if neg { -c } else { c };
                    }
                    _ => return Err(bad_step()),
                }
            } else if self.eat_punct("=") {
                let (v2, _) = self.ident()?;
                if v2 != var {
                    return Err(bad_step());
                }
                let neg = if self.eat_punct("+") {
                    false
                } else if self.eat_punct("-") {
                    true
                } else {
                    return Err(bad_step());
                };
                match self.peek().clone() {
                    Tok::Int(c) if c > 0 => {
                        self.advance();
                        step = if neg { -c } else { c };
                    }
                    _ => return Err(bad_step()),
                }
            } else {
                return Err(bad_step());
            }
        }
        self.expect_punct(")")?;
        let body = Box::new(self.statement()?);
        Ok(Stmt {
            kind: StmtKind::For {
                var,
                declared,
                init,
                cond,
                step,
                body,
                parallel: false,
            },
            pos,
        })
    }

    /// `#pragma omp parallel for` (already consumed) then a `for` loop.
    fn parallel_for(&mut self, pos: Pos) -> Result<Stmt, Error> {
        if !self.is_ident("for") {
            return Err(Error::syntax(
                self.pos(),
                format!(
                    "`#pragma omp parallel for` (line {}) must be followed by a `for` loop, found {}",
                    pos.line,
                    self.describe()
                ),
            ));
        }
        let fpos = self.pos();
        self.advance();
        let mut s = self.for_stmt(fpos)?;
        let target = match &mut s.kind {
            // `for (long i ...)`: the loop follows the iterator's declaration
            StmtKind::Block(b) => b.last_mut(),
            _ => Some(&mut s),
        };
        if let Some(Stmt {
            kind: StmtKind::For { parallel, .. },
            ..
        }) = target
        {
            *parallel = true;
        }
        Ok(s)
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
