//! Loop nests: `for` loops with hoisted bounds, guards, blocks and
//! statement calls; the innermost loops get strength-reduced pointers,
//! scalar promotion, hoisted invariants and, when legal, a 4-wide AVX2
//! main loop with a scalar remainder.
//!
//! The parts:
//! - this module: AST nodes, `for` loops (bound, iterator location, a
//!   worker's share of a parallel loop), and the choice of how a loop body
//!   is lowered (innermost loop, contraction, transposition, or plainly);
//! - `groups`: the accesses of an innermost loop grouped by pointer
//!   ([`Ref`], [`Group`]), their pointer registers, and the arrays promoted
//!   to registers;
//! - `invariants`: the loop-invariant sub-expressions and literals of the
//!   statement bodies (hoisted into registers);
//! - `inner`: the innermost loop itself (pointers, promotion, hoisting, the
//!   vector main loop or the scalar one).

mod groups;
mod inner;
mod invariants;

use ast::{CmpOp, Node};
use codegen_x86::{Cond, Gpr};

use crate::body::Call;
use crate::emit::{g, imm, q, Operand, Width};
use crate::error::{Error, Result};
use crate::jam::mentions;
use crate::prefetch::Ahead;
use crate::state::{arg, cc, slot, Loc, State};

pub(crate) use groups::{Group, Ref};
pub(crate) use invariants::collect_invariants;

/// The statement calls of a loop body, and whether any sits under an `if`;
/// `None` if the body contains a loop.
pub(crate) fn calls(
    n: &Node,
    under_if: bool,
    out: &mut Vec<(String, Vec<ast::Expr>)>,
) -> Option<bool> {
    match n {
        Node::For { .. } => None,
        Node::Block(v) => {
            let mut any = false;
            for x in v {
                any |= calls(x, under_if, out)?;
            }
            Some(any)
        }
        Node::If { then, els, .. } => {
            calls(then, true, out)?;
            if let Some(e) = els {
                calls(e, true, out)?;
            }
            Some(true)
        }
        Node::User { name, args } => {
            out.push((name.clone(), args.clone()));
            Some(under_if)
        }
    }
}

impl State<'_> {
    /// The step of the enclosing loop of iterator `it` (innermost first; 1
    /// if `it` is not a loop being emitted).
    pub(crate) fn loop_step(&self, it: &str) -> i64 {
        self.loop_steps
            .iter()
            .rev()
            .find(|(v, _)| v == it)
            .map_or(1, |(_, s)| *s)
    }

    /// Lowers an AST node.
    pub fn node(&mut self, n: &Node) -> Result<()> {
        match n {
            Node::Block(v) => v.iter().try_for_each(|x| self.node(x)),
            Node::If { cond, then, els } => {
                let f = self.e.label();
                self.cond_false(cond, f)?;
                self.node(then)?;
                match els {
                    None => self.e.bind(f),
                    Some(e) => {
                        let end = self.e.label();
                        self.e.jmp(end);
                        self.e.bind(f)?;
                        self.node(e)?;
                        self.e.bind(end)
                    }
                }
            }
            Node::User { name, args } => {
                let k = self.k;
                let stmt = k
                    .statements
                    .get(name)
                    .ok_or_else(|| Error::Internal(format!("unknown statement {name}")))?;
                if stmt.iterators.len() != args.len() {
                    return Err(Error::Internal(format!(
                        "{name} called with {} arguments",
                        args.len()
                    )));
                }
                if let Some(i) = self.inner.as_mut() {
                    if let Some(n) = i.count.as_mut() {
                        i.cur = *n;
                        *n += 1;
                    }
                }
                self.statement(&Call { stmt, args }, Width::Scalar)
            }
            Node::For {
                iterator,
                init,
                cond,
                inc,
                body,
            } => self.for_loop(n, iterator, init, cond, *inc, body),
        }
    }

    fn loc_op(l: Loc) -> Operand {
        match l {
            Loc::Reg(r) => g(r),
            Loc::Slot(s) => q(slot(s)),
        }
    }

    /// `cmp it, bound` (through a temporary when both are in memory).
    fn cmp_bound(&mut self, it: Loc, b: Operand) -> Result<()> {
        match (it, b) {
            (Loc::Reg(r), b) => self.e.cmp(g(r), b),
            (Loc::Slot(s), Operand::Gpr(r)) => self.e.cmp(q(slot(s)), g(r)),
            (Loc::Slot(s), Operand::Imm(i)) => self.e.cmp(q(slot(s)), imm(i)),
            (Loc::Slot(s), b) => {
                let t = self.temp()?;
                self.e.mov(g(t), q(slot(s)))?;
                self.e.cmp(g(t), b)?;
                self.free(t);
                Ok(())
            }
        }
    }

    /// Lowers `whole`, the loop `for (it = init; cond; it += inc) body`
    /// (given whole for the detectors that look at the nest, and in parts).
    fn for_loop(
        &mut self,
        whole: &Node,
        it: &str,
        init: &ast::Expr,
        cond: &ast::Expr,
        inc: i64,
        body: &Node,
    ) -> Result<()> {
        // registers go to the innermost loops; outer iterators live in the
        // frame unless registers are left for them (module `regs`)
        let innermost = calls(body, false, &mut Vec::new()).is_some();
        let in_regs = !innermost && self.outer_in_registers(whole);
        let chunk = std::mem::take(&mut self.chunk);
        let loc = if innermost || in_regs {
            self.long()?
        } else {
            Loc::Slot(self.new_slot(8)?)
        };
        self.ival_to(init, loc)?;
        self.vars.push((it.to_string(), loc));
        self.loop_steps.push((it.to_string(), inc));
        let bound = match cond {
            ast::Expr::Cmp(op @ (CmpOp::Le | CmpOp::Lt), a, b)
                if matches!(&**a, ast::Expr::Var(v) if v == it) && !mentions(b, it) =>
            {
                Some((*op, &**b))
            }
            _ => None,
        };
        let exit = self.e.label();
        match bound {
            Some((op, ub)) => {
                let (bop, bloc) = match ub {
                    ast::Expr::Int(v) if i32::try_from(*v).is_ok() => (imm(*v), None),
                    ast::Expr::Var(p) if !self.is_iter(p) => (self.var(p)?, None),
                    _ => {
                        // an outer loop's bound in the frame unless it has registers
                        let l = if innermost || in_regs {
                            self.long()?
                        } else {
                            Loc::Slot(self.new_slot(8)?)
                        };
                        self.ival_to(ub, l)?;
                        (Self::loc_op(l), Some(l))
                    }
                };
                self.cmp_bound(loc, bop)?;
                self.e.jcc(cc(op).negate(), exit);
                let (op, bop) = if chunk {
                    let last = self.chunk_range(loc, op, bop, inc)?;
                    self.cmp_bound(loc, last)?;
                    self.e.jcc(Cond::G, exit);
                    (CmpOp::Le, last)
                } else {
                    (op, bop)
                };
                let mut users = Vec::new();
                let innermost = calls(body, false, &mut users);
                let done = match innermost {
                    Some(has_if) if !users.is_empty() => {
                        let ahead = Ahead {
                            it: it.to_string(),
                            init,
                            bound,
                            at_init: !chunk,
                        };
                        self.inner_loop(it, loc, op, bop, inc, body, &users, has_if, &ahead)?
                    }
                    None if inc == 1 => {
                        let k = self.k;
                        match crate::contract::detect(k, whole, &|v| self.is_iter(v)) {
                            Some(con) => self.contraction(&con, loc, op, bop)?,
                            None => {
                                match crate::transpose::detect(k, whole, &|v| self.is_iter(v)) {
                                    Some(plan) => self.transposed(&plan, loc, op, bop)?,
                                    None => false,
                                }
                            }
                        }
                    }
                    _ => false,
                };
                if !done {
                    let top = self.e.label();
                    self.e.bind(top)?;
                    self.node(body)?;
                    self.e.add(Self::loc_op(loc), imm(inc))?;
                    self.cmp_bound(loc, bop)?;
                    self.e.jcc(cc(op), top);
                }
                if let Some(l) = bloc {
                    self.free_loc(l);
                }
            }
            None if chunk => {
                return Err(Error::Unsupported(
                    "a parallel loop without a simple bound".into(),
                ))
            }
            None => {
                let top = self.e.label();
                self.e.bind(top)?;
                self.cond_false(cond, exit)?;
                self.node(body)?;
                self.e.add(Self::loc_op(loc), imm(inc))?;
                self.e.jmp(top);
            }
        }
        self.e.bind(exit)?;
        self.vars.pop();
        self.loop_steps.pop();
        self.free_loc(loc);
        Ok(())
    }

    /// This worker's share of a loop's iterations: the iterator moves to
    /// its first one, and the returned operand (a frame slot) holds its last
    /// value. With `n` iterations, worker `t` of `T` runs iterations
    /// `n*t/T .. n*(t+1)/T`.
    fn chunk_range(&mut self, it: Loc, op: CmpOp, bound: Operand, inc: i64) -> Result<Operand> {
        let (w, nw) = (self.k.scalar_area() + 1, self.k.scalar_area() + 2);
        let span = self.temp()?;
        self.e.mov(g(span), bound)?;
        if op == CmpOp::Lt {
            self.e.sub(g(span), imm(1))?;
        }
        self.e.sub(g(span), Self::loc_op(it))?;
        self.floor_div(span, inc)?;
        self.e.add(g(span), imm(1))?; // n >= 1 (the guard passed)
        let (lo, hi, d) = (self.temp()?, self.temp()?, self.temp()?);
        self.e.mov(g(d), q(arg(nw)))?;
        for (r, extra) in [(lo, 0), (hi, 1)] {
            self.e.mov(g(Gpr::Rax), q(arg(w)))?;
            if extra == 1 {
                self.e.add(g(Gpr::Rax), imm(1))?;
            }
            self.e.imul(Gpr::Rax, g(span))?;
            self.e.cqo();
            self.e.idiv(d);
            self.e.mov(g(r), g(Gpr::Rax))?;
        }
        // last = first + (hi - 1) * inc, then first += lo * inc
        let last = self.new_slot(8)?;
        self.e.sub(g(hi), imm(1))?;
        self.e.imul_imm(hi, hi, inc)?;
        self.e.add(g(hi), Self::loc_op(it))?;
        self.e.mov(q(slot(last)), g(hi))?;
        self.e.imul_imm(lo, lo, inc)?;
        self.e.add(Self::loc_op(it), g(lo))?;
        for r in [span, lo, hi, d] {
            self.free(r);
        }
        Ok(q(slot(last)))
    }
}
