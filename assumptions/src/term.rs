//! The run-time check as a value: integer [`Term`]s and boolean [`Cond`]s
//! over the parameters and the arrays' base addresses. One tree serves
//! both uses: printed (`Display`) it is the C expression of `poly
//! assumptions`, evaluated in `__int128` (every parameter and address is
//! cast); evaluated here ([`Cond::eval`]) it is what `poly run` decides
//! with, in 64-bit signed arithmetic with every overflow tracked: an
//! overflow, or a value that is not known, makes the check fail safe
//! (false: the original program runs).
//!
//! ```
//! use assumptions::term::{Cond, Term, Values};
//! // n + 1 >= 0 && !(2 * n == m)
//! let c = Cond::and(vec![
//!     Cond::ge(Term::sum(vec![(false, Term::Param("n".into())), (false, Term::Lit(1))]), Term::Lit(0)),
//!     Cond::not(Cond::eq(Term::scale(2, Term::Param("n".into())), Term::Param("m".into()))),
//! ]);
//! assert_eq!(c.to_string(), "((__int128)n + 1) >= 0 && !(2 * (__int128)n == (__int128)m)");
//! let at = |n: i64, m: i64| Values { params: [("n".into(), n), ("m".into(), m)].into(), ..Default::default() };
//! assert!(c.holds(&at(3, 5)));
//! assert!(!c.holds(&at(3, 6)));
//! assert!(!c.holds(&at(-2, 0)));
//! // 2 * n overflows 64 bits: fail safe
//! assert!(!c.holds(&at(i64::MAX - 1, 0)));
//! ```

use std::collections::BTreeMap;
use std::fmt;

/// An integer expression of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// A literal.
    Lit(i64),
    /// An integer parameter, `(__int128)n` in C.
    Param(String),
    /// The base address of an array parameter in bytes,
    /// `(__int128)(uintptr_t)A` in C.
    Base(String),
    /// A sum of terms, each negated when its flag is set.
    Sum(Vec<(bool, Term)>),
    /// A literal times a term.
    Scale(i64, Box<Term>),
    /// The product of two terms (a cell's offset: row times extent).
    Mul(Box<Term>, Box<Term>),
    /// `floor(t / d)` with `d > 0`.
    FloorDiv(Box<Term>, i64),
    /// `c ? a : b`.
    Select(Box<Cond>, Box<Term>, Box<Term>),
}

/// How a [`Cond::Cmp`] compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `a >= b`
    Ge,
    /// `a <= b`
    Le,
    /// `a == b`
    Eq,
}

/// A boolean expression of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// `1` or `0`.
    Const(bool),
    /// A comparison.
    Cmp(Term, CmpOp, Term),
    /// All hold (evaluated left to right, stopping at the first false).
    And(Vec<Cond>),
    /// One holds (evaluated left to right, stopping at the first true).
    Or(Vec<Cond>),
    /// Negation.
    Not(Box<Cond>),
}

/// The values a check is evaluated at: integer parameters and base
/// addresses (in bytes) of array parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    /// Integer parameters by name.
    pub params: BTreeMap<String, i64>,
    /// Base addresses by array name.
    pub bases: BTreeMap<String, i64>,
}

impl Term {
    /// A sum; a single positive term is itself.
    pub fn sum(mut parts: Vec<(bool, Term)>) -> Term {
        if parts.len() == 1 && !parts[0].0 {
            return parts.pop().map(|p| p.1).unwrap_or(Term::Lit(0));
        }
        Term::Sum(parts)
    }
    /// `k * t`.
    pub fn scale(k: i64, t: Term) -> Term {
        if k == 1 {
            t
        } else {
            Term::Scale(k, Box::new(t))
        }
    }
    /// The value in 64-bit signed arithmetic; `None` on overflow or an
    /// unknown name.
    pub fn eval(&self, v: &Values) -> Option<i64> {
        match self {
            Term::Lit(x) => Some(*x),
            Term::Param(n) => v.params.get(n).copied(),
            Term::Base(n) => v.bases.get(n).copied(),
            Term::Sum(parts) => parts.iter().try_fold(0i64, |acc, (neg, t)| {
                let x = t.eval(v)?;
                if *neg {
                    acc.checked_sub(x)
                } else {
                    acc.checked_add(x)
                }
            }),
            Term::Scale(k, t) => k.checked_mul(t.eval(v)?),
            Term::Mul(a, b) => a.eval(v)?.checked_mul(b.eval(v)?),
            Term::FloorDiv(t, d) => {
                if *d <= 0 {
                    return None;
                }
                t.eval(v)?.checked_div_euclid(*d)
            }
            Term::Select(c, a, b) => {
                if c.eval(v)? {
                    a.eval(v)
                } else {
                    b.eval(v)
                }
            }
        }
    }
    /// Whether the C text needs no parentheses as an operand.
    fn atomic(&self) -> bool {
        match self {
            Term::Lit(x) => *x >= 0,
            Term::Param(_) | Term::Base(_) => true,
            // printed with their own parentheses
            Term::Sum(_) | Term::Mul(..) | Term::FloorDiv(..) | Term::Select(..) => true,
            Term::Scale(..) => false,
        }
    }
    /// Whether a name occurs in the term.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Term::Lit(_) => false,
            Term::Param(n) | Term::Base(n) => n == name,
            Term::Sum(p) => p.iter().any(|(_, t)| t.mentions(name)),
            Term::Scale(_, t) | Term::FloorDiv(t, _) => t.mentions(name),
            Term::Mul(a, b) => a.mentions(name) || b.mentions(name),
            Term::Select(c, a, b) => c.mentions(name) || a.mentions(name) || b.mentions(name),
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Lit(x) if *x == i64::MIN => f.write_str("INT64_MIN"),
            Term::Lit(x) if *x < 0 => write!(f, "({x})"),
            Term::Lit(x) => write!(f, "{x}"),
            Term::Param(n) => write!(f, "(__int128){n}"),
            Term::Base(n) => write!(f, "(__int128)(uintptr_t){n}"),
            Term::Sum(parts) => {
                if parts.is_empty() {
                    return f.write_str("0");
                }
                f.write_str("(")?;
                for (k, (neg, t)) in parts.iter().enumerate() {
                    match (k, neg) {
                        (0, true) => f.write_str("-")?,
                        (0, false) => {}
                        (_, true) => f.write_str(" - ")?,
                        (_, false) => f.write_str(" + ")?,
                    }
                    if *neg && !t.atomic() {
                        write!(f, "({t})")?;
                    } else {
                        write!(f, "{t}")?;
                    }
                }
                f.write_str(")")
            }
            Term::Scale(k, t) => {
                let k = Term::Lit(*k);
                if t.atomic() {
                    write!(f, "{k} * {t}")
                } else {
                    write!(f, "{k} * ({t})")
                }
            }
            Term::Mul(a, b) => write!(f, "({a} * {b})"),
            Term::FloorDiv(x, d) => {
                write!(
                    f,
                    "(({x}) >= 0 ? ({x}) / {d} : -((-({x}) + {d} - 1) / {d}))"
                )
            }
            Term::Select(c, a, b) => write!(f, "(({c}) ? {a} : {b})"),
        }
    }
}

impl Cond {
    /// `a >= b`.
    pub fn ge(a: Term, b: Term) -> Cond {
        Cond::Cmp(a, CmpOp::Ge, b)
    }
    /// `a <= b`.
    pub fn le(a: Term, b: Term) -> Cond {
        Cond::Cmp(a, CmpOp::Le, b)
    }
    /// `a == b`.
    pub fn eq(a: Term, b: Term) -> Cond {
        Cond::Cmp(a, CmpOp::Eq, b)
    }
    /// The conjunction, without `1`s; `0` when a part is `0`.
    pub fn and(parts: Vec<Cond>) -> Cond {
        Cond::join(parts, true)
    }
    /// The disjunction, without `0`s; `1` when a part is `1`.
    pub fn or(parts: Vec<Cond>) -> Cond {
        Cond::join(parts, false)
    }
    /// `and` (`unit` true) or `or` (`unit` false): drops the unit, stops
    /// at its negation, flattens nested parts of the same kind.
    fn join(parts: Vec<Cond>, unit: bool) -> Cond {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Cond::Const(b) if b == unit => {}
                Cond::Const(_) => return Cond::Const(!unit),
                Cond::And(q) if unit => out.extend(q),
                Cond::Or(q) if !unit => out.extend(q),
                p => out.push(p),
            }
        }
        match (out.len(), unit) {
            (0, _) => Cond::Const(unit),
            (1, _) => out.pop().unwrap_or(Cond::Const(unit)),
            (_, true) => Cond::And(out),
            (_, false) => Cond::Or(out),
        }
    }
    /// The negation (constants folded).
    #[allow(clippy::should_implement_trait)]
    pub fn not(c: Cond) -> Cond {
        match c {
            Cond::Const(b) => Cond::Const(!b),
            Cond::Not(c) => *c,
            c => Cond::Not(Box::new(c)),
        }
    }
    /// The value; `None` when an evaluated term overflows 64 bits or
    /// names an unknown value (`&&` and `||` stop as in C, so a part
    /// that is not reached does not matter).
    pub fn eval(&self, v: &Values) -> Option<bool> {
        match self {
            Cond::Const(b) => Some(*b),
            Cond::Cmp(a, op, b) => {
                let (a, b) = (a.eval(v)?, b.eval(v)?);
                Some(match op {
                    CmpOp::Ge => a >= b,
                    CmpOp::Le => a <= b,
                    CmpOp::Eq => a == b,
                })
            }
            Cond::And(parts) => {
                for p in parts {
                    if !p.eval(v)? {
                        return Some(false);
                    }
                }
                Some(true)
            }
            Cond::Or(parts) => {
                for p in parts {
                    if p.eval(v)? {
                        return Some(true);
                    }
                }
                Some(false)
            }
            Cond::Not(c) => Some(!c.eval(v)?),
        }
    }
    /// True when the check holds at `v`; false when it does not or its
    /// evaluation overflows (fail safe).
    pub fn holds(&self, v: &Values) -> bool {
        self.eval(v) == Some(true)
    }
    /// Whether a name occurs in the condition.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Cond::Const(_) => false,
            Cond::Cmp(a, _, b) => a.mentions(name) || b.mentions(name),
            Cond::And(p) | Cond::Or(p) => p.iter().any(|c| c.mentions(name)),
            Cond::Not(c) => c.mentions(name),
        }
    }
    /// Part of a conjunction or disjunction: comparisons and constants
    /// print bare, the rest in parentheses.
    fn operand(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Const(_) | Cond::Cmp(..) | Cond::Not(_) => write!(f, "{self}"),
            _ => write!(f, "({self})"),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Const(b) => f.write_str(if *b { "1" } else { "0" }),
            Cond::Cmp(a, op, b) => {
                let op = match op {
                    CmpOp::Ge => ">=",
                    CmpOp::Le => "<=",
                    CmpOp::Eq => "==",
                };
                write!(f, "{a} {op} {b}")
            }
            Cond::And(parts) | Cond::Or(parts) => {
                let sep = if matches!(self, Cond::And(_)) {
                    " && "
                } else {
                    " || "
                };
                for (k, p) in parts.iter().enumerate() {
                    if k > 0 {
                        f.write_str(sep)?;
                    }
                    p.operand(f)?;
                }
                Ok(())
            }
            Cond::Not(c) => write!(f, "!({c})"),
        }
    }
}
