//! Prefetching ahead in short innermost loops over rows far apart: the
//! first and last elements of the row window an innermost loop will touch
//! [`PREFETCH_AHEAD`] iterations of the enclosing loop later. The shifts
//! from the current first value are decided at compile time where they
//! can be (a bound one row on against the same bound, module
//! `affine_fold`), so the address is the group's pointer plus one
//! run-time invariant; a short window's end whose shift is only bounded
//! at compile time is taken at the bound; the others are evaluated and
//! scaled by the addressing mode.

use ast::CmpOp;
use codegen_x86::{Cond, Gpr, Label, Mem, Scale};

use crate::affine_fold::difference_range;
use crate::emit::{g, imm, Operand};
use crate::error::{Error, Result};
use crate::jam::mentions;
use crate::linear::Poly;
use crate::nest::Group;
use crate::state::{temps_needed, State};

/// Iterations of the enclosing loop that [`State::prefetch_ahead`] looks
/// ahead.
const PREFETCH_AHEAD: i64 = 8;

/// Iterations of the innermost loop up to which [`State::prefetch_ahead`]
/// also prefetches the last element of the later window.
const SHORT_WINDOW: i64 = 16;

/// What [`State::prefetch_ahead`] needs of an innermost loop: its
/// iterator, first value and bound as expressions of the enclosing loops.
pub(crate) struct Ahead<'a> {
    pub(crate) it: String,
    pub(crate) init: &'a ast::Expr,
    pub(crate) bound: Option<(CmpOp, &'a ast::Expr)>,
    /// The iterator holds `init` when the prefetches are emitted (not a
    /// loop whose iterations were split among workers).
    pub(crate) at_init: bool,
}

/// How far (in iterations of the innermost loop) a prefetched element lies
/// from the current iterator: known at compile time or in a register.
#[derive(Clone, Copy)]
enum Shift {
    Known(i64),
    Reg(Gpr),
}

impl State<'_> {
    /// Prefetches, for each pointer group that moves with the enclosing
    /// loop by a cache line or more per iteration, the group's first and
    /// last elements of this innermost loop [`PREFETCH_AHEAD`] iterations
    /// of the enclosing loop later: short innermost loops over rows far
    /// apart (a band near the diagonal) then overlap their cache misses
    /// instead of waiting for each row in turn. The elements are the
    /// group's addresses with the enclosing iterator advanced and the
    /// innermost loop's first value and bound evaluated there (a band's
    /// window moves along its row as the row changes), not the current
    /// window in a later row. Once per entry of the innermost loop; the
    /// addresses may lie outside the arrays (a prefetch never faults).
    pub(crate) fn prefetch_ahead(&mut self, groups: &[Group], ahead: &Ahead) -> Result<()> {
        let Some((outer, _)) = self.vars.len().checked_sub(2).map(|i| self.vars[i].clone()) else {
            return Ok(());
        };
        let picked: Vec<&Group> = groups
            .iter()
            .filter(|gr| {
                let co = gr.lin.coeff(&outer);
                gr.reg.is_some() && !co.is_zero() && !co.as_const().is_some_and(|c| c.abs() < 8)
            })
            .collect();
        if picked.is_empty() {
            return Ok(());
        }
        let step = self.loop_step(&outer);
        let Some(d) = step
            .checked_mul(PREFETCH_AHEAD)
            .filter(|d| i32::try_from(*d).is_ok())
        else {
            return Ok(());
        };
        let moves = picked.iter().any(|gr| !gr.lin.coeff(&ahead.it).is_zero());
        // the innermost iterator's first and last values `d` enclosing
        // iterations on: the first only when it depends on the enclosing
        // iterator (else the shift is 0)
        let later = ast::Expr::add(ast::Expr::var(&outer), ast::Expr::Int(d));
        let first = mentions(ahead.init, &outer).then(|| ahead.init.substitute(&outer, &later));
        // the last one only for a window that moves with the enclosing
        // loop (a band): a fixed window spans whole rows, or the first
        // element's line covers a short one as well as before
        let last = ahead
            .bound
            .filter(|(_, ub)| first.is_some() || mentions(ub, &outer))
            .map(|(op, ub)| (ub.substitute(&outer, &later), i64::from(op == CmpOp::Lt)));
        // a shift from the current iterator (which holds `init`) known at
        // compile time: a bound one row on against the same bound
        let known = |x: &ast::Expr, less: i64| -> Option<i64> {
            if !ahead.at_init {
                return None;
            }
            match difference_range(x, ahead.init) {
                (Some(lo), Some(hi)) if lo == hi => i64::try_from(lo - i128::from(less))
                    .ok()
                    .filter(|v| i32::try_from(*v).is_ok()),
                _ => None,
            }
        };
        // the later window's length (last minus first), bounded at compile
        // time when the iterator holds `init`: decides whether the last
        // elements are prefetched without a run-time test
        let window = match (&last, ahead.at_init) {
            (Some((x, less)), true) => {
                let from = first.as_ref().unwrap_or(ahead.init);
                let (lo, hi) = difference_range(x, from);
                let less = i128::from(*less);
                (lo.map(|v| v - less), hi.map(|v| v - less))
            }
            _ => (None, None),
        };
        let short = i128::from(SHORT_WINDOW);
        let last = last.filter(|_| window.0.is_none_or(|lo| lo <= short));
        let test_window = window.1.is_none_or(|hi| hi > short);
        // a short later window's last element, when its shift is not
        // exact (`min(M - 1, c + 11)` against `c + 1`), is taken at the
        // shift's upper bound (10): the element itself wherever the bound
        // is not clipped, a line past the row's end where it is (a
        // prefetch never faults), and no run-time evaluation
        let at_most = |x: &ast::Expr, less: i64| -> Option<i64> {
            if !ahead.at_init || test_window {
                return None;
            }
            match difference_range(x, ahead.init) {
                (_, Some(hi)) => i64::try_from(hi - i128::from(less))
                    .ok()
                    .filter(|v| i32::try_from(*v).is_ok()),
                _ => None,
            }
        };
        let first_known = first.as_ref().map(|x| known(x, 0));
        let last_known = last
            .as_ref()
            .map(|(x, less)| known(x, *less).or_else(|| at_most(x, *less)));
        // registers: the shifts not known, one of them held while the other
        // is evaluated, then one temporary per prefetch
        let need = match first_known {
            Some(None) => first.as_ref().map_or(0, temps_needed),
            _ => 0,
        }
        .max(match last_known {
            Some(None) => last.as_ref().map_or(0, |(x, _)| 1 + temps_needed(x)),
            _ => 0,
        })
        .max(3);
        let (mut start, mut end): (Option<Shift>, Option<Shift>) = (None, None);
        if moves && self.free_gprs() >= need {
            let it = self.var(&ahead.it)?;
            if let Some(x) = &first {
                start = Some(match first_known.flatten() {
                    Some(c) => Shift::Known(c),
                    None => {
                        let r = self.ival(x)?;
                        self.e.sub(g(r), it)?;
                        Shift::Reg(r)
                    }
                });
            }
            if let Some((x, less)) = &last {
                end = Some(match last_known.flatten() {
                    Some(c) => Shift::Known(c),
                    None => {
                        let r = self.ival(x)?;
                        if *less != 0 {
                            self.e.sub(g(r), imm(*less))?;
                        }
                        self.e.sub(g(r), it)?;
                        Shift::Reg(r)
                    }
                });
            }
        }
        // the first elements, then the last ones when the later window is
        // short (a long row is streamed by the hardware prefetcher once
        // its start is in)
        let skip = self.e.label();
        for at_end in [false, true] {
            let sh = if at_end {
                let Some(e) = end else { break };
                if test_window {
                    self.window_test(e, start, skip)?;
                }
                Some(e)
            } else {
                start
            };
            for gr in &picked {
                let Some(p) = gr.reg else { continue };
                let Some(outer_bytes) = gr.lin.coeff(&outer).scale(8 * d) else {
                    continue;
                };
                let inner_bytes = gr.lin.coeff(&ahead.it).scale(8);
                let sh = match &inner_bytes {
                    Some(b) if !b.is_zero() => sh,
                    // the group does not move with the innermost loop: one address
                    _ if at_end => continue,
                    _ => None,
                };
                self.prefetch_at(p, &outer_bytes, sh, inner_bytes.as_ref())?;
            }
        }
        self.e.bind(skip)?;
        for sh in start.into_iter().chain(end) {
            if let Shift::Reg(r) = sh {
                self.free(r);
            }
        }
        Ok(())
    }

    /// Jumps to `skip` when the later window (`end - start` iterations)
    /// is longer than [`SHORT_WINDOW`].
    fn window_test(&mut self, end: Shift, start: Option<Shift>, skip: Label) -> Result<()> {
        let t = self.temp()?;
        match end {
            Shift::Known(c) => self.e.mov_imm(t, c),
            Shift::Reg(r) => self.e.mov(g(t), g(r))?,
        }
        match start {
            Some(Shift::Known(c)) => self.e.sub(g(t), imm(c))?,
            Some(Shift::Reg(s)) => self.e.sub(g(t), g(s))?,
            None => {}
        }
        self.e.cmp(g(t), imm(SHORT_WINDOW))?;
        self.free(t);
        self.e.jcc(Cond::G, skip);
        Ok(())
    }

    /// `prefetcht0 [p + outer + sh * inner]`: a known shift folds into
    /// one run-time invariant, a shift in a register is scaled by the
    /// addressing mode when the stride is 1, 2, 4 or 8 bytes.
    fn prefetch_at(
        &mut self,
        p: Gpr,
        outer: &Poly,
        sh: Option<Shift>,
        inner: Option<&Poly>,
    ) -> Result<()> {
        let total = match (sh, inner) {
            (None, _) | (Some(Shift::Known(0)), _) => Some(outer.clone()),
            (Some(Shift::Known(c)), Some(b)) => b.scale(c).and_then(|x| outer.add(&x)),
            _ => None,
        };
        if let Some(total) = total {
            match self.inv(&total)? {
                Operand::Imm(k) => self.e.prefetch(Mem::base(p).disp(k as i32)),
                o => {
                    let t = self.temp()?;
                    self.e.mov(g(t), o)?;
                    self.e.prefetch(Mem::sib(p, t, Scale::X1, 0)?);
                    self.free(t);
                }
            }
            return Ok(());
        }
        let (Some(Shift::Reg(r)), Some(b)) = (sh, inner) else {
            return Err(Error::Internal("a prefetch shift without a stride".into()));
        };
        let scale = match b.as_const() {
            Some(1) => Some(Scale::X1),
            Some(2) => Some(Scale::X2),
            Some(4) => Some(Scale::X4),
            Some(8) => Some(Scale::X8),
            _ => None,
        };
        let t = self.temp()?;
        match scale {
            Some(s) => {
                let o = self.inv(outer)?;
                match o {
                    Operand::Imm(k) => self.e.lea(t, Mem::sib(p, r, s, k as i32)?),
                    o => {
                        self.e.mov(g(t), o)?;
                        self.e.add(g(t), g(p))?;
                    }
                }
                let m = match o {
                    Operand::Imm(_) => Mem::base(t),
                    _ => Mem::sib(t, r, s, 0)?,
                };
                self.e.prefetch(m);
            }
            None => {
                self.e.mov(g(t), g(r))?;
                match self.inv(b)? {
                    Operand::Imm(k) => self.e.imul_imm(t, t, k)?,
                    o => self.e.imul(t, o)?,
                }
                let o = self.inv(outer)?;
                self.e.add(g(t), o)?;
                self.e.add(g(t), g(p))?;
                self.e.prefetch(Mem::base(t));
            }
        }
        self.free(t);
        Ok(())
    }
}
