//! Lowering a syntax tree to basic maps: affine expressions become rows over
//! the columns of the basic map being built (floors and `mod` become integer
//! divisions), formulas are brought into disjunctive normal form.

use std::collections::HashMap;

use super::lexer::{perr, Pos};
use super::limits::{MAX_DISJUNCTS, MAX_WORK};
use super::syntax::{
    find_minmax, formula_pos, has_minmax, replace_minmax, CmpOp, Expr, Formula, MulOp,
};
use crate::basic::{BasicMap, Div};
use crate::budget;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::{Space, Tuple};

/// `c · (1, x, l) / den` with `den > 0`; `c` may be shorter than the row (zero padded).
#[derive(Clone, Debug)]
pub(super) struct Lin {
    pub(super) c: Vec<Int>,
    pub(super) den: Int,
}

impl Lin {
    pub(super) fn constant(v: Int) -> Lin {
        Lin {
            c: vec![v],
            den: Int::ONE,
        }
    }
    pub(super) fn unit(col: usize) -> Lin {
        let mut c = vec![Int::ZERO; col + 1];
        c[col] = Int::ONE;
        Lin { c, den: Int::ONE }
    }
    pub(super) fn as_const(&self) -> Option<(Int, Int)> {
        if self.c.iter().skip(1).all(Int::is_zero) {
            Some((
                self.c.first().cloned().unwrap_or(Int::ZERO),
                self.den.clone(),
            ))
        } else {
            None
        }
    }
    pub(super) fn scale(&self, num: &Int, den: &Int) -> Lin {
        // (c/d) * (num/den), den != 0
        let mut c: Vec<Int> = self.c.iter().map(|v| v * num).collect();
        let mut d = &self.den * den;
        if d.is_neg() {
            d = -&d;
            for v in c.iter_mut() {
                *v = -&*v;
            }
        }
        Lin { c, den: d }.reduced()
    }
    pub(super) fn neg(&self) -> Lin {
        Lin {
            c: self.c.iter().map(|v| -v).collect(),
            den: self.den.clone(),
        }
    }
    pub(super) fn add(&self, o: &Lin) -> Lin {
        let l = self.den.lcm(&o.den);
        let fa = l.div_exact(&self.den);
        let fb = l.div_exact(&o.den);
        let n = self.c.len().max(o.c.len());
        let mut c = vec![Int::ZERO; n];
        for (k, v) in self.c.iter().enumerate() {
            c[k] = v * &fa;
        }
        for (k, v) in o.c.iter().enumerate() {
            c[k] = &c[k] + &(v * &fb);
        }
        Lin { c, den: l }.reduced()
    }
    pub(super) fn reduced(mut self) -> Lin {
        if self.den.is_one() {
            return self;
        }
        let mut g = self.den.clone();
        for v in &self.c {
            if g.is_one() {
                break;
            }
            if !v.is_zero() {
                g = g.gcd(v);
            }
        }
        if !g.is_one() && !g.is_zero() {
            for v in self.c.iter_mut() {
                *v = v.div_exact(&g);
            }
            self.den = self.den.div_exact(&g);
        }
        self
    }
    pub(super) fn padded(&self, n: usize) -> Vec<Int> {
        let mut r = self.c.clone();
        r.resize(n, Int::ZERO);
        r
    }
}

#[derive(Clone)]
pub(super) struct State {
    pub(super) b: BasicMap,
    pub(super) locals: Vec<(String, Lin)>,
}

pub(super) struct Builder<'a> {
    pub(super) params: &'a [String],
    pub(super) dims: &'a HashMap<String, usize>,
    pub(super) np: usize,
    pub(super) work: usize,
}

pub(super) fn add_floor(b: &mut BasicMap, e: &Lin) -> Lin {
    if e.den.is_one() {
        return e.clone();
    }
    // the floor of a constant is a constant (as the printer writes it back)
    if let Some((num, den)) = e.as_const() {
        return Lin::constant(num.div_floor(&den));
    }
    let n = b.row_len();
    let num = e.padded(n);
    let off = b.off_div();
    for (k, d) in b.divs().iter().enumerate() {
        if let Some(d) = d {
            if d.den == e.den && d.num[..n] == num[..] {
                return Lin::unit(off + k);
            }
        }
    }
    let col = b.add_div(num, e.den.clone());
    Lin::unit(col)
}

impl<'a> Builder<'a> {
    /// Charge one unit of construction work: to the operation budget (one
    /// budget governs parsing and the operations), and to the parser's own
    /// limit, which holds when no budget is set.
    pub(super) fn tick(&mut self, pos: Pos) -> Result<()> {
        budget::tick(1)?;
        self.work += 1;
        if self.work > MAX_WORK {
            return Err(perr(
                pos,
                "a smaller formula (construction work limit exceeded)",
            ));
        }
        Ok(())
    }

    pub(super) fn lookup(&self, st: &State, name: &str, pos: Pos) -> Result<Lin> {
        if let Some((_, l)) = st.locals.iter().rev().find(|(n, _)| n == name) {
            return Ok(l.clone());
        }
        if let Some(&k) = self.dims.get(name) {
            return Ok(Lin::unit(1 + self.np + k));
        }
        if let Some(k) = self.params.iter().position(|p| p == name) {
            return Ok(Lin::unit(1 + k));
        }
        Err(perr(
            pos,
            format!("a declared parameter or variable (unknown identifier '{name}')"),
        ))
    }

    pub(super) fn eval(&mut self, st: &mut State, e: &Expr) -> Result<Lin> {
        Ok(match e {
            Expr::Num(v) => Lin::constant(v.clone()),
            Expr::Var(n, p) => self.lookup(st, n, *p)?,
            Expr::Dim(k) => Lin::unit(1 + self.np + k),
            Expr::Sum(items) => {
                let mut acc = Lin::constant(Int::ZERO);
                for (neg, x) in items {
                    let v = self.eval(st, x)?;
                    acc = acc.add(&if *neg { v.neg() } else { v });
                }
                acc
            }
            Expr::Neg(x) => self.eval(st, x)?.neg(),
            Expr::Term(first, rest) => {
                let mut acc = self.eval(st, first)?;
                for (op, x, p) in rest {
                    let v = self.eval(st, x)?;
                    acc = match op {
                        MulOp::Mul => {
                            if let Some((n, d)) = v.as_const() {
                                acc.scale(&n, &d)
                            } else if let Some((n, d)) = acc.as_const() {
                                v.scale(&n, &d)
                            } else {
                                return Err(perr(*p, "an affine expression (product of two non-constant expressions)"));
                            }
                        }
                        MulOp::Div => match v.as_const() {
                            Some((n, d)) if !n.is_zero() => acc.scale(&d, &n),
                            Some(_) => {
                                return Err(perr(*p, "a non-zero divisor (division by zero)"))
                            }
                            None => return Err(perr(*p, "a constant divisor")),
                        },
                        MulOp::Mod => match v.as_const() {
                            Some((n, d)) if d.is_one() && n.is_pos() => {
                                let q = add_floor(&mut st.b, &acc.scale(&Int::ONE, &n));
                                acc.add(&q.scale(&-&n, &Int::ONE))
                            }
                            _ => return Err(perr(*p, "a positive integer constant modulus")),
                        },
                    };
                }
                acc
            }
            Expr::Floor(x) => {
                let v = self.eval(st, x)?;
                add_floor(&mut st.b, &v)
            }
            Expr::Ceil(x) => {
                let v = self.eval(st, x)?;
                add_floor(&mut st.b, &v.neg()).neg()
            }
            Expr::MinMax(..) => {
                // expanded before evaluation; reaching here is an internal inconsistency
                return Err(Error::Invalid("min/max outside a constraint".into()));
            }
        })
    }

    pub(super) fn check_states(&self, n: usize, pos: Pos) -> Result<()> {
        if n > MAX_DISJUNCTS {
            return Err(perr(pos, format!("a smaller formula (more than {MAX_DISJUNCTS} disjuncts in disjunctive normal form)")));
        }
        Ok(())
    }

    pub(super) fn process(
        &mut self,
        f: &Formula,
        pos_pol: bool,
        states: Vec<State>,
    ) -> Result<Vec<State>> {
        if states.is_empty() {
            return Ok(states);
        }
        match f {
            Formula::Bool(v) => Ok(if *v == pos_pol { states } else { Vec::new() }),
            Formula::Not(g) => self.process(g, !pos_pol, states),
            Formula::And(items) | Formula::Or(items) => {
                let conj = matches!(f, Formula::And(_)) == pos_pol;
                if conj {
                    let mut st = states;
                    for g in items {
                        st = self.process(g, pos_pol, st)?;
                        if st.is_empty() {
                            break;
                        }
                    }
                    Ok(st)
                } else if pos_pol || !items.iter().all(|g| matches!(g, Formula::Cmp(..))) {
                    // a disjunction as written (or the negation of a
                    // conjunction of compound formulas): its disjuncts as they are
                    let mut out = Vec::new();
                    for g in items {
                        let r = self.process(g, pos_pol, states.clone())?;
                        out.extend(r);
                        self.check_states(out.len(), formula_pos(g))?;
                    }
                    Ok(out)
                } else {
                    // `not (c1 and c2 and ...)` of comparisons as disjoint
                    // pieces, as a complement is: `not c1`, `c1 and not c2`,
                    // ... (a repeated or implied comparison then gives an
                    // empty piece rather than a second copy of a disjunct)
                    let mut out = Vec::new();
                    let mut prefix = states;
                    for (k, g) in items.iter().enumerate() {
                        let r = self.process(g, false, prefix.clone())?;
                        out.extend(r);
                        self.check_states(out.len(), formula_pos(g))?;
                        if k + 1 < items.len() {
                            prefix = self.process(g, true, prefix)?;
                            self.check_states(prefix.len(), formula_pos(g))?;
                            if prefix.is_empty() {
                                break;
                            }
                        }
                    }
                    Ok(out)
                }
            }
            Formula::Implies(a, b) => {
                if pos_pol {
                    let mut out = self.process(a, false, states.clone())?;
                    out.extend(self.process(b, true, states)?);
                    self.check_states(out.len(), formula_pos(b))?;
                    Ok(out)
                } else {
                    let st = self.process(a, true, states)?;
                    self.process(b, false, st)
                }
            }
            Formula::Cmp(a, op, b, p) => {
                let mut out = Vec::new();
                for s in states {
                    out.extend(self.atom(a, *op, b, *p, pos_pol, s)?);
                    self.check_states(out.len(), *p)?;
                }
                Ok(out)
            }
            Formula::Exists(vars, body) => {
                if pos_pol {
                    let mut st = states;
                    for (name, def, p) in vars {
                        let mut next = Vec::new();
                        for mut s in st {
                            self.tick(*p)?;
                            match def {
                                None => {
                                    let col = s.b.add_existential();
                                    s.locals.push((name.clone(), Lin::unit(col)));
                                    next.push(s);
                                }
                                Some(d) if !has_minmax(d) => {
                                    let v = self.eval(&mut s, d)?;
                                    if v.den.is_one() {
                                        s.locals.push((name.clone(), v));
                                    } else {
                                        let col = s.b.add_existential();
                                        let mut row = v.padded(s.b.row_len());
                                        row[col] = -&v.den;
                                        s.b.add_eq(row);
                                        s.locals.push((name.clone(), Lin::unit(col)));
                                    }
                                    next.push(s);
                                }
                                Some(d) => {
                                    let col = s.b.add_existential();
                                    s.locals.push((name.clone(), Lin::unit(col)));
                                    let eq = Formula::Cmp(
                                        Expr::Var(name.clone(), *p),
                                        CmpOp::Eq,
                                        d.clone(),
                                        *p,
                                    );
                                    next.extend(self.process(&eq, true, vec![s])?);
                                }
                            }
                        }
                        st = next;
                    }
                    let mut st = self.process(body, true, st)?;
                    for s in st.iter_mut() {
                        let n = s.locals.len().saturating_sub(vars.len());
                        s.locals.truncate(n);
                    }
                    Ok(st)
                } else {
                    let mut out = Vec::new();
                    for s in states {
                        out.extend(self.negated_exists(f, s)?);
                        self.check_states(out.len(), formula_pos(f))?;
                    }
                    Ok(out)
                }
            }
        }
    }

    /// `s and not f` for `f` an `exists` formula: build `f` in a space where
    /// the current locals are dimensions, complement it, and embed the result.
    pub(super) fn negated_exists(&mut self, f: &Formula, s: State) -> Result<Vec<State>> {
        let sp = s.b.space();
        let nd = sp.n_in() + sp.n_out() + s.b.n_div();
        let ext = Space::set(sp.params.clone(), Tuple::anonymous(nd));
        let sub = State {
            b: BasicMap::universe(ext.clone()),
            locals: s.locals.clone(),
        };
        let built = self.process(f, true, vec![sub])?;
        let mut m = Map::empty(ext);
        for t in built {
            m.add_basic(t.b)?;
        }
        let c = m.complement()?;
        let mut out = Vec::new();
        for cb in c.basic_maps() {
            let mut b = s.b.clone();
            let base = b.n_div();
            for _ in 0..cb.n_div() {
                b.add_existential();
            }
            for (k, d) in cb.divs().iter().enumerate() {
                if let Some(d) = d {
                    b.divs[base + k] = Some(Div {
                        num: d.num.clone(),
                        den: d.den.clone(),
                    });
                }
            }
            for r in cb.eqs() {
                b.add_eq(r.to_vec());
            }
            for r in cb.ineqs() {
                b.add_ineq(r.to_vec());
            }
            out.push(State {
                b,
                locals: s.locals.clone(),
            });
        }
        Ok(out)
    }

    pub(super) fn atom(
        &mut self,
        a: &Expr,
        op: CmpOp,
        b: &Expr,
        p: Pos,
        pol: bool,
        mut s: State,
    ) -> Result<Vec<State>> {
        self.tick(p)?;
        // expand the first min/max, if any
        let mut found = None;
        find_minmax(a, &mut found);
        if found.is_none() {
            find_minmax(b, &mut found);
        }
        if let Some((is_min, args)) = found {
            let mut out = Vec::new();
            for j in 0..args.len() {
                let mut conds = Vec::new();
                for l in 0..args.len() {
                    if l == j {
                        continue;
                    }
                    let cop = match (is_min, l < j) {
                        (true, true) => CmpOp::Lt,
                        (true, false) => CmpOp::Le,
                        (false, true) => CmpOp::Gt,
                        (false, false) => CmpOp::Ge,
                    };
                    conds.push(Formula::Cmp(args[j].clone(), cop, args[l].clone(), p));
                }
                let mut done = false;
                let a2 = replace_minmax(a, &args[j], &mut done);
                let b2 = replace_minmax(b, &args[j], &mut done);
                let st = self.process(&Formula::And(conds), true, vec![s.clone()])?;
                let mut st2 = Vec::new();
                for t in st {
                    st2.extend(self.atom(&a2, op, &b2, p, pol, t)?);
                    self.check_states(st2.len(), p)?;
                }
                out.extend(st2);
                self.check_states(out.len(), p)?;
            }
            return Ok(out);
        }
        let va = self.eval(&mut s, a)?;
        let vb = self.eval(&mut s, b)?;
        let d = va.add(&vb.neg());
        let n = s.b.row_len();
        let r = d.padded(n);
        let neg_r = |r: &[Int]| -> Vec<Int> { r.iter().map(|v| -v).collect() };
        let minus_one = |mut r: Vec<Int>| -> Vec<Int> {
            r[0] = &r[0] - &Int::ONE;
            r
        };
        // normalize to: Ge(row) (row >= 0), Eq(row), Ne(row)
        enum A {
            Ge(Vec<Int>),
            Eq(Vec<Int>),
            Ne(Vec<Int>),
        }
        let at = match op {
            CmpOp::Ge => A::Ge(r),
            CmpOp::Gt => A::Ge(minus_one(r)),
            CmpOp::Le => A::Ge(neg_r(&r)),
            CmpOp::Lt => A::Ge(minus_one(neg_r(&r))),
            CmpOp::Eq => A::Eq(r),
            CmpOp::Ne => A::Ne(r),
        };
        let at = if pol {
            at
        } else {
            match at {
                A::Ge(r) => A::Ge(minus_one(neg_r(&r))),
                A::Eq(r) => A::Ne(r),
                A::Ne(r) => A::Eq(r),
            }
        };
        let mut out = Vec::new();
        match at {
            A::Ge(r) => {
                if !trivially_false(&r, false) {
                    s.b.add_ineq(r);
                    out.push(s);
                }
            }
            A::Eq(r) => {
                if !trivially_false(&r, true) {
                    s.b.add_eq(r);
                    out.push(s);
                }
            }
            A::Ne(r) => {
                let up = minus_one(r.clone());
                let down = minus_one(neg_r(&r));
                if !trivially_false(&up, false) {
                    let mut t = s.clone();
                    t.b.add_ineq(up);
                    out.push(t);
                }
                if !trivially_false(&down, false) {
                    s.b.add_ineq(down);
                    out.push(s);
                }
            }
        }
        Ok(out)
    }
}

pub(super) fn trivially_false(r: &[Int], eq: bool) -> bool {
    if r[1..].iter().any(|v| !v.is_zero()) {
        return false;
    }
    if eq {
        !r[0].is_zero()
    } else {
        r[0].is_neg()
    }
}
