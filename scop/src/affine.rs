//! Quasi-affine integer expressions and Presburger formulas, printed in isl
//! notation.
//!
//! * [`Affine`]: an integer linear combination of named variables (loop
//!   iterators, parameters) and of floor divisions by positive constants.
//! * [`IntTerm`]: an affine expression possibly wrapped in `min`/`max`
//!   (loop bounds such as `i < min(N, j + 4)`).
//! * [`Formula`]: an and/or tree of constraints (`>= 0`, `= 0`, and
//!   divisibility `e mod m = r`), used for iteration domains.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A variable of an affine expression.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AVar {
    /// A loop iterator or a parameter.
    Name(String),
    /// `floor(num / den)` with `den > 1`.
    Div(Box<Affine>, i64),
}

/// An integer affine expression `sum(coef * var) + constant`.
///
/// ```
/// use scop::affine::Affine;
/// let e = Affine::var("i").add(&Affine::var("N").scale(2)).add(&Affine::constant(-1));
/// assert_eq!(e.to_isl(), "2N + i - 1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Affine {
    /// Non-zero coefficients.
    pub terms: BTreeMap<AVar, i64>,
    /// The constant term.
    pub constant: i64,
}

impl Affine {
    /// The constant `c`.
    pub fn constant(c: i64) -> Affine {
        Affine {
            terms: BTreeMap::new(),
            constant: c,
        }
    }
    /// The variable `name`.
    pub fn var(name: &str) -> Affine {
        let mut terms = BTreeMap::new();
        terms.insert(AVar::Name(name.to_string()), 1);
        Affine { terms, constant: 0 }
    }
    /// `Some(c)` if the expression is the constant `c`.
    pub fn as_const(&self) -> Option<i64> {
        if self.terms.is_empty() {
            Some(self.constant)
        } else {
            None
        }
    }
    /// `self + other`.
    pub fn add(&self, other: &Affine) -> Affine {
        let mut r = self.clone();
        for (v, c) in &other.terms {
            let e = r.terms.entry(v.clone()).or_insert(0);
            *e = e.wrapping_add(*c);
            if *e == 0 {
                r.terms.remove(v);
            }
        }
        r.constant = r.constant.wrapping_add(other.constant);
        r
    }
    /// `self - other`.
    pub fn sub(&self, other: &Affine) -> Affine {
        self.add(&other.scale(-1))
    }
    /// `k * self`.
    pub fn scale(&self, k: i64) -> Affine {
        if k == 0 {
            return Affine::constant(0);
        }
        Affine {
            terms: self
                .terms
                .iter()
                .map(|(v, c)| (v.clone(), c.wrapping_mul(k)))
                .collect(),
            constant: self.constant.wrapping_mul(k),
        }
    }
    /// `floor(self / d)` for `d > 0`.
    pub fn floor_div(&self, d: i64) -> Affine {
        if d == 1 {
            return self.clone();
        }
        if self.terms.values().all(|c| c % d == 0) {
            let mut r = Affine {
                terms: self.terms.iter().map(|(v, c)| (v.clone(), c / d)).collect(),
                constant: self.constant.div_euclid(d),
            };
            if self.constant.rem_euclid(d) == 0 || self.terms.is_empty() {
                return r;
            }
            // floor((d*x + c) / d) = x + floor(c / d)
            r.constant = self.constant.div_euclid(d);
            return r;
        }
        let mut terms = BTreeMap::new();
        terms.insert(AVar::Div(Box::new(self.clone()), d), 1);
        Affine { terms, constant: 0 }
    }
    /// True if the named variable occurs (also inside divisions).
    pub fn mentions(&self, name: &str) -> bool {
        self.terms.keys().any(|v| match v {
            AVar::Name(n) => n == name,
            AVar::Div(a, _) => a.mentions(name),
        })
    }
    /// Coefficient of a named variable (outside divisions).
    pub fn coeff(&self, name: &str) -> i64 {
        self.terms
            .get(&AVar::Name(name.to_string()))
            .copied()
            .unwrap_or(0)
    }
    /// Evaluates with the given variable values (floor semantics for divisions).
    pub fn eval(&self, val: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        let mut s = self.constant;
        for (v, c) in &self.terms {
            let x = match v {
                AVar::Name(n) => val(n)?,
                AVar::Div(a, d) => a.eval(val)?.div_euclid(*d),
            };
            s = s.wrapping_add(c.wrapping_mul(x));
        }
        Some(s)
    }
    /// Prints in isl notation, e.g. `i + 2N - 1` or `-j + floor((i)/2)`.
    pub fn to_isl(&self) -> String {
        let mut s = String::new();
        for (v, &c) in &self.terms {
            let name = match v {
                AVar::Name(n) => n.clone(),
                AVar::Div(a, d) => format!("floor(({})/{})", a.to_isl(), d),
            };
            let is_div = matches!(v, AVar::Div(..));
            let mag = c.unsigned_abs();
            if s.is_empty() {
                if c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if c < 0 { " - " } else { " + " });
            }
            if mag != 1 {
                let _ = write!(s, "{}{}", mag, if is_div { "*" } else { "" });
            }
            s.push_str(&name);
        }
        if s.is_empty() {
            return self.constant.to_string();
        }
        if self.constant != 0 {
            let _ = write!(
                s,
                " {} {}",
                if self.constant < 0 { "-" } else { "+" },
                self.constant.unsigned_abs()
            );
        }
        s
    }
    /// Compact isl form without spaces (used in access subscripts), e.g. `i+j`.
    pub fn to_isl_compact(&self) -> String {
        self.to_isl().replace(' ', "")
    }
}

/// An affine expression possibly combined with `min`/`max`.
#[derive(Debug, Clone, PartialEq)]
pub enum IntTerm {
    /// A plain quasi-affine expression.
    Aff(Affine),
    /// Minimum of the terms.
    Min(Vec<IntTerm>),
    /// Maximum of the terms.
    Max(Vec<IntTerm>),
}

impl IntTerm {
    /// `self + other`, distributing over `min`/`max`.
    pub fn add(&self, other: &IntTerm) -> IntTerm {
        match (self, other) {
            (IntTerm::Aff(a), IntTerm::Aff(b)) => IntTerm::Aff(a.add(b)),
            (IntTerm::Min(xs), _) => IntTerm::Min(xs.iter().map(|x| x.add(other)).collect()),
            (IntTerm::Max(xs), _) => IntTerm::Max(xs.iter().map(|x| x.add(other)).collect()),
            (_, _) => other.add(self),
        }
    }
    /// `-self`.
    pub fn neg(&self) -> IntTerm {
        self.scale(-1)
    }
    /// `self - other`.
    pub fn sub(&self, other: &IntTerm) -> IntTerm {
        self.add(&other.neg())
    }
    /// `k * self`.
    pub fn scale(&self, k: i64) -> IntTerm {
        match self {
            IntTerm::Aff(a) => IntTerm::Aff(a.scale(k)),
            IntTerm::Min(xs) | IntTerm::Max(xs) => {
                let ys = xs.iter().map(|x| x.scale(k)).collect();
                let is_min = matches!(self, IntTerm::Min(_));
                if (k >= 0) == is_min {
                    IntTerm::Min(ys)
                } else {
                    IntTerm::Max(ys)
                }
            }
        }
    }
    /// `floor(self / d)` for `d > 0` (monotone, so it distributes).
    pub fn floor_div(&self, d: i64) -> IntTerm {
        match self {
            IntTerm::Aff(a) => IntTerm::Aff(a.floor_div(d)),
            IntTerm::Min(xs) => IntTerm::Min(xs.iter().map(|x| x.floor_div(d)).collect()),
            IntTerm::Max(xs) => IntTerm::Max(xs.iter().map(|x| x.floor_div(d)).collect()),
        }
    }
    /// The affine expression if there is no `min`/`max`.
    pub fn as_affine(&self) -> Option<&Affine> {
        match self {
            IntTerm::Aff(a) => Some(a),
            _ => None,
        }
    }
    /// True if the named variable occurs anywhere.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            IntTerm::Aff(a) => a.mentions(name),
            IntTerm::Min(xs) | IntTerm::Max(xs) => xs.iter().any(|x| x.mentions(name)),
        }
    }
}

/// A Presburger formula over iterators and parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Formula {
    /// Always true.
    True,
    /// Always false.
    False,
    /// `e >= 0`
    Ge(Affine),
    /// `e = 0`
    Eq(Affine),
    /// `e mod m = r` (floor semantics, `0 <= r < m`), printed as an
    /// existential: `exists (e0 : e = m*e0 + r)`.
    Mod(Affine, i64, i64),
    /// `lo <= e mod m <= hi` (floor semantics, `0 <= lo < hi < m`), printed as
    /// an existential: `exists (e0 : m*e0 + lo <= e <= m*e0 + hi)`. The negation
    /// of a divisibility condition by a large modulus (`i % 8219 != 1`) is two
    /// such ranges rather than thousands of residue classes.
    ModRange(Affine, i64, i64, i64),
    /// `lo <= var < hi` (or `<= hi` when `strict` is false).
    Range {
        /// Lower bound.
        lo: Affine,
        /// The variable.
        var: String,
        /// Upper bound.
        hi: Affine,
        /// Whether the upper bound is exclusive.
        strict: bool,
    },
    /// Conjunction.
    And(Vec<Formula>),
    /// Disjunction.
    Or(Vec<Formula>),
}

/// Moduli up to this bound are negated by listing the other residue classes
/// (`e mod 3 != 1` is `e mod 3 = 0 or e mod 3 = 2`), which [`Formula::and`]
/// can intersect; larger ones by residue ranges ([`Formula::ModRange`]).
pub const MOD_ENUMERATION_LIMIT: i64 = 16;

/// `e mod m` outside `[lo, hi]` (`0 <= lo <= hi < m`): at most two residue ranges.
fn residues_outside(e: &Affine, m: i64, lo: i64, hi: i64) -> Formula {
    let range = |a: i64, b: i64| {
        if a == b {
            Formula::Mod(e.clone(), m, a)
        } else {
            Formula::ModRange(e.clone(), m, a, b)
        }
    };
    let mut alts = Vec::new();
    if lo > 0 {
        alts.push(range(0, lo - 1));
    }
    if hi < m - 1 {
        alts.push(range(hi + 1, m - 1));
    }
    Formula::or(alts)
}

impl Formula {
    /// `a >= b`
    pub fn ge(a: &Affine, b: &Affine) -> Formula {
        Formula::Ge(a.sub(b))
    }

    /// The two constraints of `lo <= var < hi` (`<= hi` unless `strict`),
    /// each meaning `c >= 0`: `var - lo` and `hi - var` (minus one if strict).
    ///
    /// ```
    /// use scop::affine::{Affine, Formula};
    /// let [l, u] = Formula::range_constraints(&Affine::constant(0), "i", &Affine::var("N"), true);
    /// assert_eq!((l.to_isl(), u.to_isl()), ("i".to_string(), "N - i - 1".to_string()));
    /// ```
    pub fn range_constraints(lo: &Affine, var: &str, hi: &Affine, strict: bool) -> [Affine; 2] {
        let v = Affine::var(var);
        let upper = hi
            .sub(&v)
            .add(&Affine::constant(if strict { -1 } else { 0 }));
        [v.sub(lo), upper]
    }

    /// Conjunction, flattened, with `True` dropped.
    pub fn and(fs: Vec<Formula>) -> Formula {
        let mut out = Vec::new();
        for f in fs {
            match f {
                Formula::True => {}
                Formula::False => return Formula::False,
                Formula::And(gs) => out.extend(gs),
                g => out.push(g),
            }
        }
        // Intersect divisibility conditions on the same expression:
        // `(e mod 3 = 0 or e mod 3 = 1) and (e mod 3 = 1 or e mod 3 = 2)`
        // becomes `e mod 3 = 1`.
        fn mod_set(f: &Formula) -> Option<(Affine, i64, Vec<i64>)> {
            match f {
                Formula::Mod(e, m, r) => Some((e.clone(), *m, vec![*r])),
                Formula::Or(gs) => {
                    let mut acc: Option<(Affine, i64, Vec<i64>)> = None;
                    for g in gs {
                        let Formula::Mod(e, m, r) = g else {
                            return None;
                        };
                        match &mut acc {
                            None => acc = Some((e.clone(), *m, vec![*r])),
                            Some((e2, m2, rs)) if e2 == e && m2 == m => rs.push(*r),
                            _ => return None,
                        }
                    }
                    acc
                }
                _ => None,
            }
        }
        let mut k = 0;
        while k < out.len() {
            if let Some((e, m, mut rs)) = mod_set(&out[k]) {
                let mut j = k + 1;
                let mut merged = false;
                while j < out.len() {
                    match mod_set(&out[j]) {
                        Some((e2, m2, rs2)) if e2 == e && m2 == m => {
                            rs.retain(|r| rs2.contains(r));
                            out.remove(j);
                            merged = true;
                        }
                        _ => j += 1,
                    }
                }
                if merged {
                    rs.sort_unstable();
                    rs.dedup();
                    if rs.is_empty() {
                        return Formula::False;
                    }
                    out[k] = Formula::or(
                        rs.into_iter()
                            .map(|r| Formula::Mod(e.clone(), m, r))
                            .collect(),
                    );
                }
            }
            k += 1;
        }
        // `a >= 0 and -a >= 0` is `a = 0`.
        let mut k = 0;
        while k < out.len() {
            if let Formula::Ge(a) = &out[k] {
                let neg = Formula::Ge(a.scale(-1));
                if let Some(j) = out.iter().position(|g| *g == neg) {
                    out[k] = Formula::Eq(a.clone());
                    out.remove(j);
                }
            }
            k += 1;
        }
        match out.len() {
            0 => Formula::True,
            1 => out.pop().unwrap_or(Formula::True),
            _ => Formula::And(out),
        }
    }

    /// Disjunction, flattened, with `False` dropped.
    pub fn or(fs: Vec<Formula>) -> Formula {
        let mut out = Vec::new();
        for f in fs {
            match f {
                Formula::False => {}
                Formula::True => return Formula::True,
                Formula::Or(gs) => out.extend(gs),
                g => out.push(g),
            }
        }
        match out.len() {
            0 => Formula::False,
            1 => out.pop().unwrap_or(Formula::False),
            _ => Formula::Or(out),
        }
    }

    /// Logical negation (pushed down to the atoms).
    pub fn negate(&self) -> Formula {
        match self {
            Formula::True => Formula::False,
            Formula::False => Formula::True,
            Formula::Ge(a) => Formula::Ge(a.scale(-1).add(&Affine::constant(-1))),
            Formula::Eq(a) => Formula::or(vec![
                Formula::Ge(a.add(&Affine::constant(-1))),
                Formula::Ge(a.scale(-1).add(&Affine::constant(-1))),
            ]),
            Formula::Mod(e, m, r) if *m <= MOD_ENUMERATION_LIMIT => Formula::or(
                (0..*m)
                    .filter(|x| x != r)
                    .map(|x| Formula::Mod(e.clone(), *m, x))
                    .collect(),
            ),
            Formula::Mod(e, m, r) => residues_outside(e, *m, *r, *r),
            Formula::ModRange(e, m, lo, hi) => residues_outside(e, *m, *lo, *hi),
            Formula::Range {
                lo,
                var,
                hi,
                strict,
            } => Formula::or(
                Formula::range_constraints(lo, var, hi, *strict)
                    .into_iter()
                    .map(|c| Formula::Ge(c).negate())
                    .collect(),
            ),
            Formula::And(fs) => Formula::or(fs.iter().map(|f| f.negate()).collect()),
            Formula::Or(fs) => Formula::and(fs.iter().map(|f| f.negate()).collect()),
        }
    }

    /// Evaluates with the given variable values.
    pub fn eval(&self, val: &dyn Fn(&str) -> Option<i64>) -> Option<bool> {
        Some(match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Ge(a) => a.eval(val)? >= 0,
            Formula::Eq(a) => a.eval(val)? == 0,
            Formula::Mod(e, m, r) => e.eval(val)?.rem_euclid(*m) == *r,
            Formula::ModRange(e, m, lo, hi) => (*lo..=*hi).contains(&e.eval(val)?.rem_euclid(*m)),
            Formula::Range {
                lo,
                var,
                hi,
                strict,
            } => {
                let x = val(var)?;
                let (l, h) = (lo.eval(val)?, hi.eval(val)?);
                l <= x && if *strict { x < h } else { x <= h }
            }
            Formula::And(fs) => {
                for f in fs {
                    if !f.eval(val)? {
                        return Some(false);
                    }
                }
                true
            }
            Formula::Or(fs) => {
                for f in fs {
                    if f.eval(val)? {
                        return Some(true);
                    }
                }
                false
            }
        })
    }

    /// All named variables mentioned.
    pub fn names(&self, out: &mut BTreeSet<String>) {
        fn aff(a: &Affine, out: &mut BTreeSet<String>) {
            for v in a.terms.keys() {
                match v {
                    AVar::Name(n) => {
                        out.insert(n.clone());
                    }
                    AVar::Div(b, _) => aff(b, out),
                }
            }
        }
        match self {
            Formula::True | Formula::False => {}
            Formula::Ge(a)
            | Formula::Eq(a)
            | Formula::Mod(a, _, _)
            | Formula::ModRange(a, _, _, _) => aff(a, out),
            Formula::Range { lo, var, hi, .. } => {
                aff(lo, out);
                aff(hi, out);
                out.insert(var.clone());
            }
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| f.names(out)),
        }
    }
}
