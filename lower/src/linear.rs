//! Run-time invariants and linear forms for addressing.
//!
//! A [`Poly`] is an integer polynomial in the kernel's integer parameters
//! (array strides are products of extents, e.g. `NJ*NK`); a [`Lin`] is an
//! expression linear in the loop iterators whose coefficients are
//! [`Poly`]s. The flat offset of an access `A[f(i)]` at a statement call
//! `S(e(c))` is a [`Lin`] whenever the call arguments and subscripts are
//! affine; its coefficient of the innermost iterator is the pointer
//! increment per iteration (strength reduction).

use std::collections::BTreeMap;

use scop::affine::{AVar, Affine};

/// `Σ coef · Π params`, monomials as sorted name lists (the empty list is
/// the constant term).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Poly(pub BTreeMap<Vec<String>, i64>);

impl Poly {
    /// The constant `c`.
    pub fn constant(c: i64) -> Poly {
        let mut m = BTreeMap::new();
        if c != 0 {
            m.insert(Vec::new(), c);
        }
        Poly(m)
    }
    /// The parameter `p`.
    pub fn var(p: &str) -> Poly {
        let mut m = BTreeMap::new();
        m.insert(vec![p.to_string()], 1);
        Poly(m)
    }
    /// `Some(c)` for a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self.0.len() {
            0 => Some(0),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }
    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    /// `self + o` (None on overflow).
    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let mut r = self.0.clone();
        for (m, c) in &o.0 {
            let e = r.entry(m.clone()).or_insert(0);
            *e = e.checked_add(*c)?;
            if *e == 0 {
                r.remove(m);
            }
        }
        Some(Poly(r))
    }
    /// `k · self`.
    pub fn scale(&self, k: i64) -> Option<Poly> {
        if k == 0 {
            return Some(Poly::default());
        }
        let mut r = BTreeMap::new();
        for (m, c) in &self.0 {
            r.insert(m.clone(), c.checked_mul(k)?);
        }
        Some(Poly(r))
    }
    /// `self · o`.
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (m1, c1) in &self.0 {
            for (m2, c2) in &o.0 {
                let mut m = m1.clone();
                m.extend(m2.iter().cloned());
                m.sort();
                let mut t = BTreeMap::new();
                t.insert(m, c1.checked_mul(*c2)?);
                r = r.add(&Poly(t))?;
            }
        }
        Some(r)
    }
    /// The constant term and the rest.
    pub fn split_const(&self) -> (Poly, i64) {
        let mut r = self.clone();
        let c = r.0.remove(&Vec::new()).unwrap_or(0);
        (r, c)
    }
    /// The value at the given parameter values.
    pub fn eval(&self, val: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        let mut s: i64 = 0;
        for (m, c) in &self.0 {
            let mut t = *c;
            for p in m {
                t = t.checked_mul(val(p)?)?;
            }
            s = s.checked_add(t)?;
        }
        Some(s)
    }
    /// C text (`2 * N * M + 1`).
    pub fn to_c(&self) -> String {
        if self.0.is_empty() {
            return "0".into();
        }
        let terms: Vec<String> = self
            .0
            .iter()
            .map(|(m, c)| {
                let mut f: Vec<String> = Vec::new();
                if *c != 1 || m.is_empty() {
                    f.push(format!("{c}"));
                }
                f.extend(m.iter().map(|p| format!("(long){p}")));
                f.join(" * ")
            })
            .collect();
        terms.join(" + ")
    }
}

/// An affine form over loop iterators with [`Poly`] coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lin {
    /// Coefficient per iterator (non-zero entries only).
    pub iters: BTreeMap<String, Poly>,
    /// The iterator-free part.
    pub rest: Poly,
}

impl Lin {
    /// A constant or parameter part only.
    pub fn invariant(p: Poly) -> Lin {
        Lin {
            iters: BTreeMap::new(),
            rest: p,
        }
    }
    /// The iterator `c`.
    pub fn iter(c: &str) -> Lin {
        let mut iters = BTreeMap::new();
        iters.insert(c.to_string(), Poly::constant(1));
        Lin {
            iters,
            rest: Poly::default(),
        }
    }
    /// `self + o`.
    pub fn add(&self, o: &Lin) -> Option<Lin> {
        let mut r = self.clone();
        for (v, p) in &o.iters {
            let s = r.iters.get(v).cloned().unwrap_or_default().add(p)?;
            if s.is_zero() {
                r.iters.remove(v);
            } else {
                r.iters.insert(v.clone(), s);
            }
        }
        r.rest = r.rest.add(&o.rest)?;
        Some(r)
    }
    /// `p · self`.
    pub fn mul(&self, p: &Poly) -> Option<Lin> {
        let mut r = Lin::invariant(self.rest.mul(p)?);
        for (v, c) in &self.iters {
            let s = c.mul(p)?;
            if !s.is_zero() {
                r.iters.insert(v.clone(), s);
            }
        }
        Some(r)
    }
    /// The coefficient of iterator `c` (zero when absent).
    pub fn coeff(&self, c: &str) -> Poly {
        self.iters.get(c).cloned().unwrap_or_default()
    }
}

/// `e` as a [`Lin`] when it is affine: `Var`s in `iterators` are loop
/// iterators, other `Var`s parameters.
pub fn lin_of_ast(e: &ast::Expr, iterators: &dyn Fn(&str) -> bool) -> Option<Lin> {
    Some(match e {
        ast::Expr::Int(v) => Lin::invariant(Poly::constant(*v)),
        ast::Expr::Var(n) if iterators(n) => Lin::iter(n),
        ast::Expr::Var(n) => Lin::invariant(Poly::var(n)),
        ast::Expr::Neg(a) => lin_of_ast(a, iterators)?.mul(&Poly::constant(-1))?,
        ast::Expr::Add(a, b) => lin_of_ast(a, iterators)?.add(&lin_of_ast(b, iterators)?)?,
        ast::Expr::Sub(a, b) => {
            lin_of_ast(a, iterators)?.add(&lin_of_ast(b, iterators)?.mul(&Poly::constant(-1))?)?
        }
        ast::Expr::Mul(k, a) => lin_of_ast(a, iterators)?.mul(&Poly::constant(*k))?,
        _ => return None,
    })
}

/// A subscript (affine in the statement's iterators and the parameters) at a
/// call whose arguments are the [`Lin`]s `args` (one per statement
/// iterator, in order); `None` with floor divisions.
pub fn lin_of_subscript(a: &Affine, stmt_iters: &[String], args: &[Lin]) -> Option<Lin> {
    let mut r = Lin::invariant(Poly::constant(a.constant));
    for (v, c) in &a.terms {
        let AVar::Name(n) = v else { return None };
        let t = match stmt_iters.iter().position(|s| s == n) {
            Some(k) => args.get(k)?.clone(),
            None => Lin::invariant(Poly::var(n)),
        };
        r = r.add(&t.mul(&Poly::constant(*c))?)?;
    }
    Some(r)
}

/// An extent as a [`Poly`] (affine in the parameters, no divisions).
pub fn poly_of_extent(a: &Affine) -> Option<Poly> {
    let mut r = Poly::constant(a.constant);
    for (v, c) in &a.terms {
        let AVar::Name(n) = v else { return None };
        r = r.add(&Poly::var(n).scale(*c)?)?;
    }
    Some(r)
}

/// Row-major strides (in elements) of an array with the given extents.
pub fn strides(sizes: &[Affine]) -> Option<Vec<Poly>> {
    let mut out = vec![Poly::constant(1); sizes.len()];
    for d in (0..sizes.len().saturating_sub(1)).rev() {
        out[d] = out[d + 1].mul(&poly_of_extent(&sizes[d + 1])?)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_are_products_of_later_extents() {
        let s = strides(&[
            Affine::var("N"),
            Affine::var("M"),
            Affine::var("K").add(&Affine::constant(1)),
        ])
        .unwrap();
        let at = |p: &Poly| {
            p.eval(&|n| {
                Some(match n {
                    "N" => 2,
                    "M" => 3,
                    "K" => 4,
                    _ => 0,
                })
            })
            .unwrap()
        };
        assert_eq!(s.iter().map(at).collect::<Vec<_>>(), [15, 5, 1]);
    }

    #[test]
    fn linear_forms_combine() {
        let it = |n: &str| n.starts_with('c');
        let e = ast::Expr::sub(
            ast::Expr::add(ast::Expr::var("c0"), ast::Expr::mul(2, ast::Expr::var("N"))),
            ast::Expr::Int(1),
        );
        let l = lin_of_ast(&e, &it).unwrap();
        assert_eq!(l.coeff("c0"), Poly::constant(1));
        assert_eq!(
            l.rest,
            Poly::var("N")
                .scale(2)
                .unwrap()
                .add(&Poly::constant(-1))
                .unwrap()
        );
        assert!(lin_of_ast(&ast::Expr::floord(ast::Expr::var("c0"), 2), &it).is_none());
    }
}
