//! Statements of the C subset: blocks, declarations, assignments, `if`,
//! `for` loops (with their `parallel for` pragma) and the nesting limit.

use super::{is_keyword, Parser, MAX_DEPTH};
use crate::ast::*;
use crate::error::{Error, Pos};
use crate::lexer::{Tok, PRAGMA_PARALLEL_FOR};

impl Parser {
    pub(super) fn block(&mut self) -> Result<Stmt, Error> {
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

    pub(super) fn block_item(&mut self) -> Result<Vec<Stmt>, Error> {
        self.check_unsupported_keyword()?;
        if self.at_type() || self.is_ident("const") {
            return self.declaration();
        }
        Ok(vec![self.statement()?])
    }

    pub(super) fn declaration(&mut self) -> Result<Vec<Stmt>, Error> {
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

    pub(super) fn enter(&mut self) -> Result<(), Error> {
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

    pub(super) fn statement(&mut self) -> Result<Stmt, Error> {
        self.enter()?;
        let r = self.statement_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn statement_inner(&mut self) -> Result<Stmt, Error> {
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

    pub(super) fn for_stmt(&mut self, pos: Pos) -> Result<Stmt, Error> {
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
    pub(super) fn for_rest(&mut self, pos: Pos, declared: bool) -> Result<Stmt, Error> {
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
    pub(super) fn parallel_for(&mut self, pos: Pos) -> Result<Stmt, Error> {
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
