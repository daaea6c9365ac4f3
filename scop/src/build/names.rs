//! Name resolution over the whole kernel, before its model is built.
//!
//! The builder checks the names of the statements it models as it goes, but
//! it drops some statements unseen: a branch holding an error path (a call
//! of an unknown function, an early `return`) is only a restriction of the
//! parameters. The interpreter runs such a branch up to its call, so a name
//! there must resolve too. This walk sees every statement, with C's block
//! scopes: each identifier is declared before its use (a variable's scope
//! begins at its declarator, so `double t = t;` reads the new `t`; a `for`
//! iterator's after its initial value), and used as what it is: an integer
//! or a double scalar, an array with its number of subscripts, a double
//! scalar as the target of an assignment, integer operands of `%`,
//! subscripts and extents, a known function with its number of arguments.

use crate::ast::{self, BaseTy, BinOp, ExprKind, ParamKind, StmtKind, UnOp};
use crate::error::{Error, Pos};
use std::collections::HashMap;

/// What a name denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entity {
    /// An integer parameter, local or iterator.
    Int,
    /// A double parameter or local.
    Double,
    /// An array with its number of subscripts.
    Array(usize),
    /// A pointer parameter: one (possibly linearized) subscript.
    Pointer,
}

/// The C type of an expression's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Int,
    Double,
}

/// The names in scope, innermost block last.
struct Scopes {
    blocks: Vec<HashMap<String, Entity>>,
}

/// Checks that every name the kernel uses resolves, on every path.
pub(super) fn resolve(f: &ast::Function) -> Result<(), Error> {
    let mut sc = Scopes {
        blocks: vec![HashMap::new()],
    };
    // the parameters in order: an extent reads the parameters before it
    for p in &f.params {
        let entity = match &p.kind {
            ParamKind::Int(_) => Entity::Int,
            ParamKind::Double => Entity::Double,
            ParamKind::Pointer { .. } => Entity::Pointer,
            ParamKind::Array(dims) => {
                sc.extents(dims)?;
                Entity::Array(dims.len())
            }
            ParamKind::OpenArray(dims) => {
                sc.extents(dims)?;
                Entity::Array(dims.len() + 1)
            }
        };
        sc.declare(&p.name, entity, p.pos)?;
    }
    sc.block(&f.body)
}

impl Scopes {
    fn lookup(&self, name: &str) -> Option<Entity> {
        self.blocks.iter().rev().find_map(|b| b.get(name).copied())
    }

    fn declare(&mut self, name: &str, entity: Entity, pos: Pos) -> Result<(), Error> {
        if self.lookup(name).is_some() {
            return Err(Error::unsupported(
                pos,
                format!("declaration of `{name}`"),
                "shadowing another variable is not supported",
            ));
        }
        if let Some(b) = self.blocks.last_mut() {
            b.insert(name.to_string(), entity);
        }
        Ok(())
    }

    fn block(&mut self, stmts: &[ast::Stmt]) -> Result<(), Error> {
        self.blocks.push(HashMap::new());
        let r = stmts.iter().try_for_each(|s| self.stmt(s));
        self.blocks.pop();
        r
    }

    fn stmt(&mut self, s: &ast::Stmt) -> Result<(), Error> {
        match &s.kind {
            StmtKind::Empty | StmtKind::Call { .. } => Ok(()),
            StmtKind::Block(b) => self.block(b),
            StmtKind::Decl { ty, name, init } => {
                let entity = match ty {
                    BaseTy::Int(_) => Entity::Int,
                    BaseTy::Double => Entity::Double,
                };
                // the scope begins at the declarator, before the initializer
                self.declare(name, entity, s.pos)?;
                if let Some(e) = init {
                    self.expr(e)?;
                }
                Ok(())
            }
            StmtKind::ArrayDecl { name, dims } => {
                self.extents(dims)?;
                self.declare(name, Entity::Array(dims.len()), s.pos)
            }
            StmtKind::Assign { lhs, rhs, .. } => {
                match &lhs.kind {
                    ExprKind::Var(n) => match self.lookup(n) {
                        Some(Entity::Double) => {}
                        None => return Err(unknown_variable(n, lhs.pos)),
                        Some(Entity::Array(_) | Entity::Pointer) => {
                            return Err(Error::unsupported(
                                lhs.pos,
                                format!("assignment to array `{n}`"),
                                "whole arrays cannot be assigned (pointer assignment)",
                            ))
                        }
                        Some(Entity::Int) => {
                            return Err(Error::unsupported(
                                lhs.pos,
                                format!("assignment to `{n}`"),
                                "integer variables may only be changed by their `for` loop",
                            ))
                        }
                    },
                    ExprKind::Index(..) => {
                        self.expr(lhs)?;
                    }
                    _ => return Err(Error::syntax(lhs.pos, "invalid assignment target")),
                }
                self.expr(rhs).map(|_| ())
            }
            StmtKind::If {
                cond,
                then_s,
                else_s,
            } => {
                self.expr(cond)?;
                self.block(std::slice::from_ref(then_s))?;
                match else_s {
                    Some(e) => self.block(std::slice::from_ref(e)),
                    None => Ok(()),
                }
            }
            StmtKind::For {
                var,
                declared,
                init,
                cond,
                body,
                ..
            } => {
                self.integer(init)?;
                self.blocks.push(HashMap::new());
                let r = (|| {
                    if *declared {
                        self.declare(var, Entity::Int, s.pos)?;
                    } else {
                        match self.lookup(var) {
                            Some(Entity::Int) => {}
                            None => {
                                return Err(Error::semantic(
                                    s.pos,
                                    format!("undeclared loop iterator `{var}`"),
                                ))
                            }
                            Some(_) => {
                                return Err(Error::semantic(
                                    s.pos,
                                    format!("loop iterator `{var}` is not an integer variable"),
                                ))
                            }
                        }
                    }
                    self.expr(cond)?;
                    self.block(std::slice::from_ref(body))
                })();
                self.blocks.pop();
                r
            }
        }
    }

    fn extents(&self, dims: &[ast::Expr]) -> Result<(), Error> {
        dims.iter().try_for_each(|d| self.integer(d))
    }

    /// An expression whose value must be an integer (a subscript, an
    /// extent, a loop's initial value).
    fn integer(&self, e: &ast::Expr) -> Result<(), Error> {
        match self.expr(e)? {
            Ty::Int => Ok(()),
            Ty::Double => Err(self.double_leaf(e).unwrap_or_else(|| {
                Error::unsupported(e.pos, "double value", "an integer expression was expected")
            })),
        }
    }

    /// The error for the first double operand (a scalar, an element, a
    /// literal) of an expression that must be an integer, as the builder
    /// words it for the statements it models.
    fn double_leaf(&self, e: &ast::Expr) -> Option<Error> {
        const REASON: &str =
            "subscripts, bounds and conditions may only use loop iterators and integer parameters";
        match &e.kind {
            ExprKind::Float(_, s) => Some(Error::unsupported(
                e.pos,
                s.clone(),
                "floating-point values cannot appear in subscripts, bounds or conditions",
            )),
            ExprKind::Var(n) if self.lookup(n) == Some(Entity::Double) => Some(Error::unsupported(
                e.pos,
                format!("data-dependent value `{n}`"),
                REASON,
            )),
            ExprKind::Index(n, _) => Some(Error::unsupported(
                e.pos,
                format!("data-dependent value `{n}[...]`"),
                REASON,
            )),
            ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => self.double_leaf(a),
            ExprKind::Binary(_, a, b) => self.double_leaf(a).or_else(|| self.double_leaf(b)),
            ExprKind::Call(_, args) => args.iter().find_map(|a| self.double_leaf(a)),
            _ => None,
        }
    }

    fn expr(&self, e: &ast::Expr) -> Result<Ty, Error> {
        Ok(match &e.kind {
            ExprKind::Int(_) => Ty::Int,
            ExprKind::Float(..) => Ty::Double,
            ExprKind::Var(n) => {
                match self.lookup(n) {
                    Some(Entity::Int) => Ty::Int,
                    Some(Entity::Double) => Ty::Double,
                    Some(Entity::Array(_) | Entity::Pointer) => return Err(Error::unsupported(
                        e.pos,
                        format!("array `{n}` used as a value"),
                        "arrays must be fully subscripted (pointer arithmetic is not supported)",
                    )),
                    None => return Err(unknown_variable(n, e.pos)),
                }
            }
            ExprKind::Index(n, subs) => {
                match self.lookup(n) {
                    Some(Entity::Array(k)) if k == subs.len() => {}
                    Some(Entity::Pointer) if subs.len() == 1 => {}
                    Some(Entity::Pointer) => {
                        return Err(Error::unsupported(
                            e.pos,
                            format!("`{n}` with {} subscripts", subs.len()),
                            "a pointer parameter takes one (possibly linearized) subscript",
                        ))
                    }
                    Some(Entity::Array(k)) if k > subs.len() => {
                        return Err(Error::unsupported(
                            e.pos,
                            format!("partial subscript of `{n}`"),
                            format!("`{n}` has {k} dimension(s); sub-arrays (pointer arithmetic) are not supported"),
                        ))
                    }
                    Some(Entity::Array(k)) => {
                        return Err(Error::semantic(
                            e.pos,
                            format!("`{n}` has {k} dimension(s) but {} subscripts", subs.len()),
                        ))
                    }
                    Some(_) => {
                        return Err(Error::semantic(e.pos, format!("`{n}` is not an array")))
                    }
                    None => return Err(Error::semantic(e.pos, format!("unknown array `{n}`"))),
                }
                subs.iter().try_for_each(|s| self.integer(s))?;
                Ty::Double
            }
            ExprKind::Unary(UnOp::Not, a) => {
                self.expr(a)?;
                Ty::Int
            }
            ExprKind::Unary(_, a) => self.expr(a)?,
            ExprKind::CastDouble(a) => {
                self.expr(a)?;
                Ty::Double
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.expr(a)?, self.expr(b)?);
                match op {
                    BinOp::Mod if (x, y) != (Ty::Int, Ty::Int) => {
                        return Err(Error::semantic(e.pos, "`%` needs integer operands"))
                    }
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                        if x == Ty::Int && y == Ty::Int {
                            Ty::Int
                        } else {
                            Ty::Double
                        }
                    }
                    _ => Ty::Int,
                }
            }
            ExprKind::Call(name, args) => {
                let mut tys = Vec::with_capacity(args.len());
                for a in args {
                    tys.push(self.expr(a)?);
                }
                match ast::KNOWN_FUNCTIONS.iter().find(|(k, _)| k == name) {
                    None => {
                        return Err(Error::unsupported(
                            e.pos,
                            format!("call to `{name}`"),
                            "unknown function",
                        ))
                    }
                    Some((_, arity)) if *arity != args.len() => {
                        return Err(Error::semantic(
                            e.pos,
                            format!("wrong number of arguments to `{name}`"),
                        ))
                    }
                    Some(_) => {}
                }
                if ast::is_int_minmax(name) && tys.iter().all(|t| *t == Ty::Int) {
                    Ty::Int
                } else {
                    Ty::Double
                }
            }
        })
    }
}

fn unknown_variable(name: &str, pos: Pos) -> Error {
    Error::semantic(pos, format!("unknown variable `{name}`"))
}
