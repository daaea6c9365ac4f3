//! Expressions of the C subset: precedence climbing over the binary
//! operators, unary operators, postfix subscripts and calls, primaries.

use super::Parser;
use crate::ast::*;
use crate::error::Error;
use crate::lexer::Tok;

impl Parser {
    /// Full expression (no assignments, no comma, no `?:`).
    pub(super) fn expr(&mut self) -> Result<Expr, Error> {
        let e = self.binary(0)?;
        if self.is_punct("?") {
            return Err(Error::unsupported(
                self.pos(),
                "?:",
                "the conditional operator is not supported; use `min`/`max`, `fmin`/`fmax` or `if`",
            ));
        }
        Ok(e)
    }

    fn binop_info(&self) -> Option<(BinOp, u8)> {
        let op = match self.peek() {
            Tok::Punct(p) => *p,
            _ => return None,
        };
        Some(match op {
            "||" => (BinOp::Or, 1),
            "&&" => (BinOp::And, 2),
            "==" => (BinOp::Eq, 3),
            "!=" => (BinOp::Ne, 3),
            "<" => (BinOp::Lt, 4),
            "<=" => (BinOp::Le, 4),
            ">" => (BinOp::Gt, 4),
            ">=" => (BinOp::Ge, 4),
            "+" => (BinOp::Add, 5),
            "-" => (BinOp::Sub, 5),
            "*" => (BinOp::Mul, 6),
            "/" => (BinOp::Div, 6),
            "%" => (BinOp::Mod, 6),
            _ => return None,
        })
    }

    fn binary(&mut self, min_prec: u8) -> Result<Expr, Error> {
        let start = self.depth;
        let r = self.binary_inner(min_prec);
        self.depth = start;
        r
    }

    fn binary_inner(&mut self, min_prec: u8) -> Result<Expr, Error> {
        let mut lhs = self.unary()?;
        loop {
            if let Tok::Punct(p @ ("&" | "|" | "^" | "<<" | ">>")) = self.peek() {
                let p = *p;
                return Err(Error::unsupported(
                    self.pos(),
                    p,
                    "bitwise operators are not supported",
                ));
            }
            let Some((op, prec)) = self.binop_info() else {
                break;
            };
            if prec < min_prec {
                break;
            }
            self.advance();
            self.enter()?;
            let rhs = self.binary(prec + 1)?;
            let pos = lhs.pos;
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
        Ok(lhs)
    }

    pub(super) fn unary(&mut self) -> Result<Expr, Error> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Expr, Error> {
        let pos = self.pos();
        let op = match self.peek() {
            Tok::Punct("-") => Some(UnOp::Neg),
            Tok::Punct("+") => Some(UnOp::Plus),
            Tok::Punct("!") => Some(UnOp::Not),
            Tok::Punct("*") => {
                return Err(Error::unsupported(
                    pos,
                    "*",
                    "pointer dereference is not supported (pointer arithmetic is not affine array access)",
                ))
            }
            Tok::Punct("&") => {
                return Err(Error::unsupported(
                    pos,
                    "&",
                    "taking addresses (pointer arithmetic) is not supported",
                ))
            }
            Tok::Punct(p @ ("++" | "--")) => {
                let p = *p;
                return Err(Error::unsupported(
                    pos,
                    p,
                    "increments are only supported as `for` loop steps",
                ));
            }
            Tok::Punct("~") => {
                return Err(Error::unsupported(
                    pos,
                    "~",
                    "bitwise operators are not supported",
                ))
            }
            _ => None,
        };
        if let Some(op) = op {
            self.advance();
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                pos,
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, Error> {
        let e = self.primary()?;
        match self.peek() {
            Tok::Punct(p @ ("++" | "--")) => {
                let p = *p;
                Err(Error::unsupported(
                    self.pos(),
                    p,
                    "increments are only supported as `for` loop steps",
                ))
            }
            Tok::Punct(p @ ("->" | ".")) => {
                let p = *p;
                Err(Error::unsupported(
                    self.pos(),
                    p,
                    "structures and pointers are not supported",
                ))
            }
            _ => Ok(e),
        }
    }

    fn primary(&mut self) -> Result<Expr, Error> {
        self.check_unsupported_keyword()?;
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Int(v) => {
                self.advance();
                Ok(Expr {
                    kind: ExprKind::Int(v),
                    pos,
                })
            }
            Tok::Float(v, s) => {
                self.advance();
                Ok(Expr {
                    kind: ExprKind::Float(v, s),
                    pos,
                })
            }
            Tok::Punct("(") => {
                self.advance();
                if self.is_ident("double") && matches!(self.peek_at(1), Tok::Punct(")")) {
                    self.advance();
                    self.advance();
                    let e = self.unary()?;
                    return Ok(Expr {
                        kind: ExprKind::CastDouble(Box::new(e)),
                        pos,
                    });
                }
                if self.is_ident("int") || self.is_ident("float") {
                    return Err(Error::unsupported(
                        self.pos(),
                        "cast",
                        "only `(double)` casts are supported",
                    ));
                }
                let e = self.expr()?;
                self.expect_punct(")")?;
                Ok(e)
            }
            Tok::Ident(name) => {
                let (name, _) = self.ident().map_err(|_| {
                    Error::syntax(pos, format!("unexpected keyword `{name}` in expression"))
                })?;
                if self.eat_punct("(") {
                    let mut args = Vec::new();
                    if !self.is_punct(")") {
                        loop {
                            args.push(self.expr()?);
                            if !self.eat_punct(",") {
                                break;
                            }
                        }
                    }
                    self.expect_punct(")")?;
                    match KNOWN_FUNCTIONS.iter().find(|(n, _)| *n == name) {
                        None => {
                            return Err(Error::unsupported(
                                pos,
                                format!("call to `{name}`"),
                                "only sqrt, exp, fabs, fmin, fmax, pow, min and max may be called",
                            ))
                        }
                        Some((_, arity)) if *arity != args.len() => {
                            return Err(Error::semantic(
                                pos,
                                format!("`{name}` takes {arity} argument(s), got {}", args.len()),
                            ))
                        }
                        _ => {}
                    }
                    return Ok(Expr {
                        kind: ExprKind::Call(name, args),
                        pos,
                    });
                }
                let mut subs = Vec::new();
                while self.eat_punct("[") {
                    subs.push(self.expr()?);
                    self.expect_punct("]")?;
                }
                Ok(Expr {
                    kind: if subs.is_empty() {
                        ExprKind::Var(name)
                    } else {
                        ExprKind::Index(name, subs)
                    },
                    pos,
                })
            }
            Tok::Str(s) => Err(Error::unsupported(
                pos,
                format!("string literal {s}"),
                "strings are only allowed as arguments of calls on error paths",
            )),
            _ => Err(Error::syntax(
                pos,
                format!("expected an expression, found {}", self.describe()),
            )),
        }
    }
}
