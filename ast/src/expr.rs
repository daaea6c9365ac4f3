//! Expressions of the AST: quasi-affine integer expressions and conditions,
//! printed as C in isl's style.

use std::fmt;

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl CmpOp {
    fn text(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
        }
    }
}

/// An integer expression or a condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer constant.
    Int(i64),
    /// A loop iterator or a parameter.
    Var(String),
    /// `-a`
    Neg(Box<Expr>),
    /// `a + b`
    Add(Box<Expr>, Box<Expr>),
    /// `a - b`
    Sub(Box<Expr>, Box<Expr>),
    /// `k * a` (a constant factor, printed first as isl does)
    Mul(i64, Box<Expr>),
    /// `floord(a, k)`: division rounding towards minus infinity (`k > 0`).
    FloorDiv(Box<Expr>, i64),
    /// `(a) / k`: exact division (`a` is a multiple of `k > 0`).
    ExactDiv(Box<Expr>, i64),
    /// `a % k`: C remainder (`k > 0`), used in divisibility tests.
    Mod(Box<Expr>, i64),
    /// `min(a, b)`
    Min(Box<Expr>, Box<Expr>),
    /// `max(a, b)`
    Max(Box<Expr>, Box<Expr>),
    /// A comparison `a OP b` (value 0 or 1).
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `a && b`
    And(Box<Expr>, Box<Expr>),
    /// `a || b`
    Or(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// A variable.
    pub fn var(name: &str) -> Expr {
        Expr::Var(name.to_string())
    }
    /// `a + b`
    #[allow(clippy::should_implement_trait)]
    pub fn add(a: Expr, b: Expr) -> Expr {
        Expr::Add(Box::new(a), Box::new(b))
    }
    /// `a - b`
    #[allow(clippy::should_implement_trait)]
    pub fn sub(a: Expr, b: Expr) -> Expr {
        Expr::Sub(Box::new(a), Box::new(b))
    }
    /// `k * a`
    pub fn mul(k: i64, a: Expr) -> Expr {
        Expr::Mul(k, Box::new(a))
    }
    /// `floord(a, k)`
    pub fn floord(a: Expr, k: i64) -> Expr {
        Expr::FloorDiv(Box::new(a), k)
    }
    /// `min(a, b)`
    pub fn min(a: Expr, b: Expr) -> Expr {
        Expr::Min(Box::new(a), Box::new(b))
    }
    /// `max(a, b)`
    pub fn max(a: Expr, b: Expr) -> Expr {
        Expr::Max(Box::new(a), Box::new(b))
    }
    /// `a OP b`
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        Expr::Cmp(op, Box::new(a), Box::new(b))
    }
    /// `a && b`
    pub fn and(a: Expr, b: Expr) -> Expr {
        Expr::And(Box::new(a), Box::new(b))
    }
    /// `a || b`
    pub fn or(a: Expr, b: Expr) -> Expr {
        Expr::Or(Box::new(a), Box::new(b))
    }

    /// The expression with the variable `var` replaced by `value` (no
    /// folding).
    ///
    /// ```
    /// use ast::Expr;
    /// let e = Expr::add(Expr::var("c0"), Expr::Int(1));
    /// assert_eq!(e.substitute("c0", &Expr::Int(2)).fold(), Expr::Int(3));
    /// ```
    pub fn substitute(&self, var: &str, value: &Expr) -> Expr {
        let b = |x: &Expr| Box::new(x.substitute(var, value));
        match self {
            Expr::Var(v) if v == var => value.clone(),
            Expr::Int(_) | Expr::Var(_) => self.clone(),
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::Add(x, y) => Expr::Add(b(x), b(y)),
            Expr::Sub(x, y) => Expr::Sub(b(x), b(y)),
            Expr::Mul(k, a) => Expr::Mul(*k, b(a)),
            Expr::FloorDiv(a, k) => Expr::FloorDiv(b(a), *k),
            Expr::ExactDiv(a, k) => Expr::ExactDiv(b(a), *k),
            Expr::Mod(a, k) => Expr::Mod(b(a), *k),
            Expr::Min(x, y) => Expr::Min(b(x), b(y)),
            Expr::Max(x, y) => Expr::Max(b(x), b(y)),
            Expr::Cmp(op, x, y) => Expr::Cmp(*op, b(x), b(y)),
            Expr::And(x, y) => Expr::And(b(x), b(y)),
            Expr::Or(x, y) => Expr::Or(b(x), b(y)),
        }
    }

    /// Constant folding: operations on constants are evaluated, `x + 0`,
    /// `0 + x`, `x - 0`, `min(a, a)` and `max(a, a)` simplified.
    pub fn fold(self) -> Expr {
        let b = |e: Box<Expr>| Box::new(e.fold());
        let e = match self {
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::Add(x, y) => match (x.fold(), y.fold()) {
                (Expr::Int(0), y) => y,
                (x, Expr::Int(0)) => x,
                (x, Expr::Int(k)) if k < 0 => Expr::Sub(Box::new(x), Box::new(Expr::Int(-k))),
                (x, y) => Expr::Add(Box::new(x), Box::new(y)),
            },
            Expr::Sub(x, y) => match (x.fold(), y.fold()) {
                (Expr::Int(0), y) => Expr::Neg(Box::new(y)),
                (x, Expr::Int(0)) => x,
                (x, y) => Expr::Sub(Box::new(x), Box::new(y)),
            },
            Expr::Mul(k, a) => match (k, a.fold()) {
                (1, a) => a,
                (_, Expr::Int(0)) | (0, _) => Expr::Int(0),
                (k, a) => Expr::Mul(k, Box::new(a)),
            },
            Expr::FloorDiv(a, k) => match (a.fold(), k) {
                (a, 1) => a,
                (a, k) => Expr::FloorDiv(Box::new(a), k),
            },
            Expr::ExactDiv(a, k) => match (a.fold(), k) {
                (a, 1) => a,
                (a, k) => Expr::ExactDiv(Box::new(a), k),
            },
            Expr::Mod(a, k) => Expr::Mod(b(a), k),
            Expr::Min(x, y) | Expr::Max(x, y) if x == y => x.fold(),
            Expr::Min(x, y) => Expr::Min(b(x), b(y)),
            Expr::Max(x, y) => Expr::Max(b(x), b(y)),
            Expr::Cmp(op, x, y) => Expr::Cmp(op, b(x), b(y)),
            Expr::And(x, y) => Expr::And(b(x), b(y)),
            Expr::Or(x, y) => Expr::Or(b(x), b(y)),
            e => e,
        };
        let constant = |e: &Expr| matches!(e, Expr::Int(_));
        let all_const = match &e {
            Expr::Neg(a) | Expr::Mul(_, a) | Expr::FloorDiv(a, _) => constant(a),
            Expr::Add(x, y) | Expr::Sub(x, y) | Expr::Min(x, y) | Expr::Max(x, y) => {
                constant(x) && constant(y)
            }
            _ => false,
        };
        if all_const {
            if let Ok(v) = e.eval(&|_| None) {
                if let Ok(v) = i64::try_from(v) {
                    return Expr::Int(v);
                }
            }
        }
        match e {
            Expr::Min(x, y) | Expr::Max(x, y) if x == y => *x,
            e => e,
        }
    }

    /// Evaluate with `lookup` giving the value of each variable; exact
    /// (128-bit, overflow is an error).
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<i128>) -> Result<i128, String> {
        let ov = || "arithmetic overflow".to_string();
        Ok(match self {
            Expr::Int(v) => *v as i128,
            Expr::Var(n) => lookup(n).ok_or_else(|| format!("unknown variable `{n}`"))?,
            Expr::Neg(a) => a.eval(lookup)?.checked_neg().ok_or_else(ov)?,
            Expr::Add(a, b) => a
                .eval(lookup)?
                .checked_add(b.eval(lookup)?)
                .ok_or_else(ov)?,
            Expr::Sub(a, b) => a
                .eval(lookup)?
                .checked_sub(b.eval(lookup)?)
                .ok_or_else(ov)?,
            Expr::Mul(k, a) => a.eval(lookup)?.checked_mul(*k as i128).ok_or_else(ov)?,
            Expr::FloorDiv(a, k) => {
                let k = *k as i128;
                if k <= 0 {
                    return Err("division by a non-positive constant".into());
                }
                a.eval(lookup)?.div_euclid(k)
            }
            Expr::ExactDiv(a, k) => {
                let (v, k) = (a.eval(lookup)?, *k as i128);
                if k <= 0 || v % k != 0 {
                    return Err(format!("inexact division {v} / {k}"));
                }
                v / k
            }
            Expr::Mod(a, k) => {
                let k = *k as i128;
                if k <= 0 {
                    return Err("modulo by a non-positive constant".into());
                }
                a.eval(lookup)? % k
            }
            Expr::Min(a, b) => a.eval(lookup)?.min(b.eval(lookup)?),
            Expr::Max(a, b) => a.eval(lookup)?.max(b.eval(lookup)?),
            Expr::Cmp(op, a, b) => {
                let (x, y) = (a.eval(lookup)?, b.eval(lookup)?);
                let r = match op {
                    CmpOp::Eq => x == y,
                    CmpOp::Le => x <= y,
                    CmpOp::Lt => x < y,
                    CmpOp::Ge => x >= y,
                    CmpOp::Gt => x > y,
                };
                r as i128
            }
            Expr::And(a, b) => (a.eval(lookup)? != 0 && b.eval(lookup)? != 0) as i128,
            Expr::Or(a, b) => (a.eval(lookup)? != 0 || b.eval(lookup)? != 0) as i128,
        })
    }

    /// C precedence level (higher binds tighter).
    fn prec(&self) -> u8 {
        match self {
            Expr::Int(v) if *v < 0 => 12,
            Expr::Int(_) | Expr::Var(_) => 15,
            Expr::FloorDiv(..) | Expr::Min(..) | Expr::Max(..) => 15,
            Expr::Neg(_) => 12,
            Expr::Mul(..) | Expr::ExactDiv(..) | Expr::Mod(..) => 11,
            Expr::Add(..) | Expr::Sub(..) => 10,
            Expr::Cmp(CmpOp::Eq, ..) => 7,
            Expr::Cmp(..) => 8,
            Expr::And(..) => 4,
            Expr::Or(..) => 3,
        }
    }

    fn fmt_prec(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        if self.prec() < min {
            write!(f, "(")?;
            self.fmt_prec(f, 0)?;
            return write!(f, ")");
        }
        match self {
            Expr::Int(v) => write!(f, "{v}"),
            Expr::Var(n) => write!(f, "{n}"),
            Expr::Neg(a) => {
                write!(f, "-")?;
                a.fmt_prec(f, 13)
            }
            Expr::Add(a, b) => {
                a.fmt_prec(f, 10)?;
                write!(f, " + ")?;
                b.fmt_prec(f, 11)
            }
            Expr::Sub(a, b) => {
                a.fmt_prec(f, 10)?;
                write!(f, " - ")?;
                b.fmt_prec(f, 11)
            }
            Expr::Mul(k, a) => {
                write!(f, "{k} * ")?;
                a.fmt_prec(f, 12)
            }
            Expr::FloorDiv(a, k) => {
                write!(f, "floord(")?;
                a.fmt_prec(f, 0)?;
                write!(f, ", {k})")
            }
            Expr::ExactDiv(a, k) => {
                a.fmt_prec(f, 12)?;
                write!(f, " / {k}")
            }
            Expr::Mod(a, k) => {
                a.fmt_prec(f, 12)?;
                write!(f, " % {k}")
            }
            Expr::Min(a, b) | Expr::Max(a, b) => {
                let name = if matches!(self, Expr::Min(..)) {
                    "min"
                } else {
                    "max"
                };
                write!(f, "{name}(")?;
                a.fmt_prec(f, 0)?;
                write!(f, ", ")?;
                b.fmt_prec(f, 0)?;
                write!(f, ")")
            }
            Expr::Cmp(op, a, b) => {
                a.fmt_prec(f, 9)?;
                write!(f, " {} ", op.text())?;
                b.fmt_prec(f, 9)
            }
            Expr::And(a, b) => {
                a.fmt_prec(f, 4)?;
                write!(f, " && ")?;
                b.fmt_prec(f, 5)
            }
            Expr::Or(a, b) => {
                a.fmt_prec(f, 3)?;
                write!(f, " || ")?;
                b.fmt_prec(f, 4)
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0)
    }
}

/// Build the sum `Σ coef·atom + constant` in isl's style: terms in the given
/// order, a negative coefficient printed as a subtraction.
pub fn linear(terms: Vec<(i64, Expr)>, constant: i64) -> Expr {
    let mut acc: Option<Expr> = None;
    for (c, e) in terms.into_iter().filter(|(c, _)| *c != 0) {
        let mag = if c.abs() == 1 {
            e
        } else {
            Expr::mul(c.abs(), e)
        };
        acc = Some(match acc {
            None if c < 0 => match mag {
                Expr::Mul(k, a) => Expr::Mul(-k, a),
                m => Expr::Neg(Box::new(m)),
            },
            None => mag,
            Some(a) if c < 0 => Expr::sub(a, mag),
            Some(a) => Expr::add(a, mag),
        });
    }
    match acc {
        None => Expr::Int(constant),
        Some(a) if constant > 0 => Expr::add(a, Expr::Int(constant)),
        Some(a) if constant < 0 => Expr::sub(a, Expr::Int(-constant)),
        Some(a) => a,
    }
}
