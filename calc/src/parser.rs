//! The calculator's parser: statements and expressions by precedence climbing.
//!
//! ```text
//! stmt    := IDENT ':=' expr ';' | 'print' expr ';' | expr ';'
//! expr    := flow | schedule | codegen | binary
//! codegen := 'codegen' binary ['using' binary]
//! flow    := ('last' binary ['any' binary] | 'any' binary) ['kill' binary]
//!            'before' binary 'under' binary
//! binary  := unary (BINOP unary)*          (precedence: see BinOp::precedence)
//! unary   := PREFIXOP unary | '-' unary | postfix
//! postfix := primary ('(' expr ')' | '[' expr ']' | '^-1' | '^+' | '^' INT)*
//! primary := LITERAL | INT | STRING | IDENT | '(' expr ')' | '[' [expr (',' expr)*] ']'
//! ```
//!
//! Prefix operators bind tighter than binary ones, as in iscc
//! (`card S + T` is `(card S) + T`); postfix application, indexing and
//! the powers (`^-1`, `^+`, `^k`) bind tightest (`domain M^-1` is `domain (M^-1)`). Unlike iscc,
//! binary operators have precedence levels (iscc evaluates them left to
//! right); scripts that parenthesize, as the conformance checker's do, mean
//! the same in both.

use crate::ast::{BinOp, Expr, ExprKind, Flow, Stmt, UnOp};
use crate::error::{Error, Result};
use crate::lexer::{Tok, Token};

/// Words that cannot be used as variable names.
const KEYWORDS: &[&str] = &[
    "print",
    "cross",
    "after",
    "last",
    "any",
    "kill",
    "before",
    "under",
    "respecting",
    "minimizing",
    "using",
];

/// iscc's prefix operators the calculator does not have: used before an
/// operand, they give a "not supported" error naming them.
pub const UNSUPPORTED_PREFIX: &[&str] = &[
    "coefficients",
    "solutions",
    "lattice_width",
    "lift",
    "map",
    "poly",
    "lpoly",
    "upoly",
    "parse_file",
    "pow",
    "scan",
    "zip",
    "vertices",
    "dim",
    "read",
    "write",
    "source",
];

/// iscc's named binary operators the calculator does not have.
pub const UNSUPPORTED_BINARY: &[&str] = &["before", "cross_range"];

/// Deepest nesting of expressions accepted (deeper scripts get an error, never a stack overflow).
const MAX_DEPTH: usize = 200;

/// True if `word` is reserved (a prefix operator or one of the keywords).
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word) || UnOp::from_name(word).is_some()
}

/// Parses a token vector statement by statement, recovering after errors.
#[derive(Clone, Debug)]
pub struct Parser {
    toks: Vec<Token>,
    i: usize,
    depth: usize,
}

impl Parser {
    /// A parser over tokens ending with [`Tok::Eof`].
    pub fn new(toks: Vec<Token>) -> Parser {
        Parser {
            toks,
            i: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> &Token {
        &self.toks[self.i.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, k: usize) -> &Token {
        &self.toks[(self.i + k).min(self.toks.len() - 1)]
    }

    fn advance(&mut self) -> Token {
        let t = self.peek().clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(&self.peek().tok, Tok::Sym(x) if *x == s)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(x) if x == w)
    }

    fn error_here(&self, expected: &str) -> Error {
        let t = self.peek();
        match &t.tok {
            Tok::Error(m) => Error::Parse {
                pos: t.pos,
                expected: m.clone(),
            },
            other => Error::Parse {
                pos: t.pos,
                expected: format!("{expected}, found {}", other.describe()),
            },
        }
    }

    fn expect_sym(&mut self, s: &str, what: &str) -> Result<Token> {
        if self.is_sym(s) {
            Ok(self.advance())
        } else {
            Err(self
                .unsupported_here()
                .unwrap_or_else(|| self.error_here(what)))
        }
    }

    /// A "not supported" error if the current token is an iscc operator
    /// the calculator does not have, where an operator may stand.
    fn unsupported_here(&self) -> Option<Error> {
        let t = self.peek();
        let operator = match &t.tok {
            Tok::Sym(s @ ("==" | "@")) => s.to_string(),
            Tok::Ident(w) if UNSUPPORTED_BINARY.contains(&w.as_str()) => w.clone(),
            _ => return None,
        };
        Some(Error::Unsupported {
            pos: t.pos,
            operator,
        })
    }

    /// True if the token at offset `k` starts an operand a prefix operator
    /// of sets and maps applies to (not `[`: `sum[0]` indexes a variable).
    fn starts_operand(&self, k: usize) -> bool {
        match &self.peek_at(k).tok {
            Tok::Literal(_) | Tok::Int(_) | Tok::Str(_) => true,
            Tok::Ident(w) => BinOp::from_symbol(w).is_none(),
            Tok::Sym(s) => *s == "(",
            _ => false,
        }
    }

    /// The next statement: `None` at the end of input, `Some(Err)` for a
    /// malformed statement (the parser has then skipped past it).
    pub fn next_statement(&mut self) -> Option<Result<Stmt>> {
        while self.is_sym(";") {
            self.advance();
        }
        if self.peek().tok == Tok::Eof {
            return None;
        }
        let start = self.i;
        self.depth = 0;
        let r = self.statement();
        if r.is_err() {
            self.recover(start);
        }
        Some(r)
    }

    /// Skip to just after the next `;`, or stop before a token that starts a
    /// new line when the statement only lacks its `;`.
    fn recover(&mut self, start: usize) {
        if self.i > start {
            let prev_line = self.toks[self.i - 1].end_line;
            let cur = self.peek();
            let missing_semi = !matches!(cur.tok, Tok::Sym(";") | Tok::Error(_));
            if missing_semi && cur.pos.line > prev_line && self.i > start {
                // Resume at the token that starts the next line, unless it is
                // itself in the middle of an expression (an operator).
                if matches!(
                    cur.tok,
                    Tok::Ident(_) | Tok::Literal(_) | Tok::Sym("(" | "[")
                ) {
                    return;
                }
            }
        }
        loop {
            match self.advance().tok {
                Tok::Sym(";") | Tok::Eof => return,
                _ => {}
            }
            if self.starts_statement_on_new_line() {
                return;
            }
        }
    }

    /// True if the current token begins a line and clearly starts a statement
    /// (`X :=` or `print`).
    fn starts_statement_on_new_line(&self) -> bool {
        let prev_line = self.toks[self.i.saturating_sub(1)].end_line;
        let cur = self.peek();
        cur.pos.line > prev_line
            && match &cur.tok {
                Tok::Ident(w) if w == "print" => true,
                Tok::Ident(_) => matches!(self.peek_at(1).tok, Tok::Sym(":=")),
                _ => false,
            }
    }

    fn statement(&mut self) -> Result<Stmt> {
        let first = self.peek().clone();
        let stmt = match &first.tok {
            Tok::Ident(name) if matches!(&self.peek_at(1).tok, Tok::Sym(":=")) => {
                if is_keyword(name) {
                    return Err(Error::Parse {
                        pos: first.pos,
                        expected: format!("a variable name before `:=`, found keyword `{name}`"),
                    });
                }
                self.advance();
                self.advance();
                let expr = self.expr()?;
                Stmt::Assign {
                    name: name.clone(),
                    expr,
                    pos: first.pos,
                }
            }
            Tok::Ident(w) if w == "print" => {
                self.advance();
                let expr = self.expr()?;
                Stmt::Print {
                    expr,
                    pos: first.pos,
                }
            }
            _ => {
                let expr = self.expr()?;
                Stmt::Expr {
                    expr,
                    pos: first.pos,
                }
            }
        };
        self.expect_sym(";", "`;` or an operator")?;
        Ok(stmt)
    }

    /// An expression (a dataflow expression or a binary one).
    pub fn expr(&mut self) -> Result<Expr> {
        if self.is_word("last") || self.is_word("any") {
            return self.flow();
        }
        // `schedule D respecting V minimizing P` (a variable named `schedule`
        // is still an operand when an operator or the end follows it)
        if self.is_word("schedule")
            && matches!(&self.peek_at(1).tok, Tok::Literal(_) | Tok::Ident(_) | Tok::Sym(_) if !self.operand_end(1))
        {
            return self.schedule();
        }
        // `codegen S [using O]` (likewise a variable named `codegen`)
        if self.is_word("codegen")
            && matches!(&self.peek_at(1).tok, Tok::Literal(_) | Tok::Ident(_) | Tok::Sym(_) if !self.operand_end(1))
        {
            let pos = self.advance().pos;
            let schedule = self.binary(1)?;
            let options = if self.is_word("using") {
                self.advance();
                Some(Box::new(self.binary(1)?))
            } else {
                None
            };
            return Ok(Expr {
                kind: ExprKind::Codegen(Box::new(schedule), options),
                pos,
            });
        }
        self.binary(1)
    }

    /// True if the token at offset `k` cannot start an expression.
    fn operand_end(&self, k: usize) -> bool {
        match &self.peek_at(k).tok {
            Tok::Ident(w) => w == "cross" || BinOp::from_symbol(w).is_some(),
            Tok::Sym(s) => *s != "(" && *s != "[" && *s != "-",
            _ => false,
        }
    }

    fn schedule(&mut self) -> Result<Expr> {
        let pos = self.advance().pos;
        let domain = self.binary(1)?;
        if !self.is_word("respecting") {
            return Err(self.error_here("`respecting`"));
        }
        self.advance();
        let validity = self.binary(1)?;
        if !self.is_word("minimizing") {
            return Err(self.error_here("`minimizing`"));
        }
        self.advance();
        let proximity = self.binary(1)?;
        Ok(Expr {
            kind: ExprKind::Schedule(Box::new([domain, validity, proximity])),
            pos,
        })
    }

    fn flow(&mut self) -> Result<Expr> {
        let pos = self.peek().pos;
        let mut must = None;
        let mut may = None;
        let mut kill = None;
        if self.is_word("last") {
            self.advance();
            must = Some(self.binary(1)?);
        }
        if self.is_word("any") {
            self.advance();
            may = Some(self.binary(1)?);
        }
        if self.is_word("kill") {
            self.advance();
            kill = Some(self.binary(1)?);
        }
        if !self.is_word("before") {
            let what = if kill.is_some() {
                "`before`"
            } else if may.is_some() {
                "`kill` or `before`"
            } else {
                "`any`, `kill` or `before`"
            };
            return Err(self.error_here(what));
        }
        self.advance();
        let sink = self.binary(1)?;
        if !self.is_word("under") {
            return Err(self.error_here("`under`"));
        }
        self.advance();
        let schedule = self.binary(1)?;
        Ok(Expr {
            kind: ExprKind::Flow(Box::new(Flow {
                must,
                may,
                kill,
                sink,
                schedule,
            })),
            pos,
        })
    }

    fn binop_here(&self) -> Option<BinOp> {
        match &self.peek().tok {
            Tok::Sym(s) => BinOp::from_symbol(s),
            Tok::Ident(w) if w == "cross" || w == "after" => BinOp::from_symbol(w),
            _ => None,
        }
    }

    fn binary(&mut self, min_prec: u8) -> Result<Expr> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.binop_here() {
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            let pos = self.advance().pos;
            let rhs = self.binary(prec + 1)?;
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
        Ok(lhs)
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::Parse {
                pos: self.peek().pos,
                expected: format!("an expression nested at most {MAX_DEPTH} levels deep"),
            });
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Expr> {
        let t = self.peek().clone();
        if let Tok::Ident(w) = &t.tok {
            if UNSUPPORTED_PREFIX.contains(&w.as_str()) && self.starts_operand(1) {
                return Err(Error::Unsupported {
                    pos: t.pos,
                    operator: w.clone(),
                });
            }
            if let Some(op) = UnOp::from_name(w) {
                self.advance();
                let arg = self.unary()?;
                return Ok(Expr {
                    kind: ExprKind::Unary(op, Box::new(arg)),
                    pos: t.pos,
                });
            }
        }
        if self.is_sym("-") {
            self.advance();
            let arg = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Neg(Box::new(arg)),
                pos: t.pos,
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr> {
        let mut e = self.primary()?;
        loop {
            let t = self.peek().clone();
            match &t.tok {
                Tok::Sym("(") => {
                    self.advance();
                    let arg = self.expr()?;
                    self.expect_sym(")", "`)` closing the argument")?;
                    e = Expr {
                        kind: ExprKind::Apply(Box::new(e), Box::new(arg)),
                        pos: t.pos,
                    };
                }
                Tok::Sym("[") => {
                    self.advance();
                    let idx = self.expr()?;
                    self.expect_sym("]", "`]` closing the index")?;
                    e = Expr {
                        kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                        pos: t.pos,
                    };
                }
                Tok::Sym("^-1") => {
                    self.advance();
                    e = Expr {
                        kind: ExprKind::Inverse(Box::new(e)),
                        pos: t.pos,
                    };
                }
                Tok::Sym("^+") => {
                    self.advance();
                    e = Expr {
                        kind: ExprKind::Closure(Box::new(e)),
                        pos: t.pos,
                    };
                }
                Tok::Sym("^") => {
                    self.advance();
                    let at = self.peek().clone();
                    let k = match &at.tok {
                        Tok::Int(k) => k.parse::<u64>().ok().filter(|&k| k >= 1),
                        _ => None,
                    };
                    let Some(k) = k else {
                        return Err(self.error_here(
                            "an integer exponent k >= 1 after `^` (the powers are `^-1`, `^+` and `^k`)",
                        ));
                    };
                    self.advance();
                    e = Expr {
                        kind: ExprKind::Power(Box::new(e), k),
                        pos: t.pos,
                    };
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        let t = self.peek().clone();
        let kind = match &t.tok {
            Tok::Literal(s) => ExprKind::Literal(s.clone()),
            Tok::Int(s) => ExprKind::Int(s.clone()),
            Tok::Str(s) => ExprKind::Str(s.clone()),
            Tok::Ident(w) if is_keyword(w) => {
                return Err(Error::Parse {
                    pos: t.pos,
                    expected: format!("an operand, found keyword `{w}`"),
                })
            }
            Tok::Ident(w) => ExprKind::Var(w.clone()),
            Tok::Sym("(") => {
                self.advance();
                self.enter()?;
                let e = self.expr();
                self.depth -= 1;
                let e = e?;
                self.expect_sym(")", "`)` or an operator")?;
                return Ok(e);
            }
            Tok::Sym("[") => {
                self.advance();
                let mut items = Vec::new();
                if !self.is_sym("]") {
                    loop {
                        self.enter()?;
                        let e = self.expr();
                        self.depth -= 1;
                        items.push(e?);
                        if self.is_sym(",") {
                            self.advance();
                            continue;
                        }
                        break;
                    }
                }
                self.expect_sym("]", "`,` or `]` in a list")?;
                return Ok(Expr {
                    kind: ExprKind::List(items),
                    pos: t.pos,
                });
            }
            _ => {
                return Err(
                    self.error_here("an operand (a set or map literal, a variable, `(` or `[`)")
                )
            }
        };
        self.advance();
        Ok(Expr { kind, pos: t.pos })
    }
}
