//! Lowering of the front end's [`Affine`] expressions and [`Formula`]s to
//! engine values ([`BasicMap`] rows, integer divisions, existentials, and
//! [`Map`]s for disjunctions).
//!
//! This is the only module of the crate that writes constraint rows: every
//! other part names variables (iterators, parameters) and asks for a relation
//! here. A variable's column is given by a [`Columns`] table built from the
//! target [`Space`].
//!
//! The module is private: the [`Model`](crate::Model) is its only client
//! (its tests check every formula shape against [`Formula::eval`] by brute
//! force). When the engine's named-dimension builder lands, only this module
//! changes.

use std::collections::BTreeMap;

use presburger::{BasicMap, Int, Map, Space};

use crate::affine::{AVar, Affine, Formula};
use crate::error::Error;

/// Which column of a constraint row holds each named variable.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    cols: BTreeMap<String, usize>,
}

impl Columns {
    /// Parameters of `space` only (columns `1..=n_param`).
    pub fn params(space: &Space) -> Columns {
        let mut cols = BTreeMap::new();
        for (k, p) in space.params.iter().enumerate() {
            cols.insert(p.clone(), 1 + k);
        }
        Columns { cols }
    }

    /// Parameters, and the set dimensions of `space` named by its tuple.
    pub fn for_set(space: &Space) -> Columns {
        let mut c = Columns::params(space);
        let off = 1 + space.n_param() + space.n_in();
        for (k, n) in space.range.dim_names().into_iter().enumerate() {
            if !n.is_empty() {
                c.cols.insert(n, off + k);
            }
        }
        c
    }

    /// Parameters, and the first `names.len()` domain dimensions of a
    /// relation space named `names` (the statement iterators of an access or
    /// schedule relation, also when the domain is tagged `[S[i] -> R[]]`).
    pub fn for_domain(space: &Space, names: &[String]) -> Columns {
        let mut c = Columns::params(space);
        let off = 1 + space.n_param();
        for (k, n) in names.iter().enumerate() {
            c.cols.insert(n.clone(), off + k);
        }
        c
    }

    fn col(&self, name: &str) -> Result<usize, Error> {
        self.cols.get(name).copied().ok_or_else(|| {
            Error::Engine(presburger::Error::Invalid(format!(
                "`{name}` is neither a parameter nor an iterator of the space"
            )))
        })
    }
}

/// A sparse row: column to coefficient (column 0 is the constant).
type Sparse = BTreeMap<usize, i64>;

fn overflow() -> Error {
    Error::Engine(presburger::Error::Invalid(
        "a coefficient does not fit in 64 bits".into(),
    ))
}

fn add_to(row: &mut Sparse, col: usize, c: i64) -> Result<(), Error> {
    let e = row.entry(col).or_insert(0);
    *e = e.checked_add(c).ok_or_else(overflow)?;
    Ok(())
}

fn negate(row: &Sparse) -> Result<Sparse, Error> {
    row.iter()
        .map(|(&k, &c)| Ok((k, c.checked_neg().ok_or_else(overflow)?)))
        .collect()
}

/// The row of `a`, adding a division local to `b` for every `floor`.
fn affine_row(b: &mut BasicMap, a: &Affine, cols: &Columns) -> Result<Sparse, Error> {
    let mut row = Sparse::new();
    add_to(&mut row, 0, a.constant)?;
    for (v, &c) in &a.terms {
        let col = match v {
            AVar::Name(n) => cols.col(n)?,
            AVar::Div(num, d) => {
                if *d <= 0 {
                    return Err(Error::Engine(presburger::Error::Invalid(format!(
                        "floor division by {d}"
                    ))));
                }
                let num = affine_row(b, num, cols)?;
                let dense = dense(&num, b.row_len());
                b.add_div(dense, Int::from(*d))
            }
        };
        add_to(&mut row, col, c)?;
    }
    Ok(row)
}

fn dense(row: &Sparse, len: usize) -> Vec<Int> {
    let mut v = vec![Int::ZERO; len];
    for (&k, &c) in row {
        v[k] = Int::from(c);
    }
    v
}

/// Adds `a >= 0` (`eq`: `a = 0`) to `b`.
fn add_constraint(b: &mut BasicMap, a: &Affine, eq: bool, cols: &Columns) -> Result<(), Error> {
    let row = affine_row(b, a, cols)?;
    let row = dense(&row, b.row_len());
    if eq {
        b.add_eq(row);
    } else {
        b.add_ineq(row);
    }
    Ok(())
}

/// Adds an atom or a conjunction without disjunctions to `b`; returns false
/// (adding nothing more) for a formula containing a disjunction.
fn add_conjunct(b: &mut BasicMap, f: &Formula, cols: &Columns) -> Result<bool, Error> {
    match f {
        Formula::True => {}
        Formula::False => add_constraint(b, &Affine::constant(-1), false, cols)?,
        Formula::Ge(a) => add_constraint(b, a, false, cols)?,
        Formula::Eq(a) => add_constraint(b, a, true, cols)?,
        Formula::Mod(e, m, r) => {
            // exists q : e = m q + r
            let mut row = affine_row(b, e, cols)?;
            let q = b.add_existential();
            add_to(&mut row, q, m.checked_neg().ok_or_else(overflow)?)?;
            add_to(&mut row, 0, r.checked_neg().ok_or_else(overflow)?)?;
            b.add_eq(dense(&row, b.row_len()));
        }
        Formula::ModRange(e, m, lo, hi) => {
            // exists q : lo <= e - m q <= hi
            let mut row = affine_row(b, e, cols)?;
            let q = b.add_existential();
            add_to(&mut row, q, m.checked_neg().ok_or_else(overflow)?)?;
            let mut low = row.clone();
            add_to(&mut low, 0, lo.checked_neg().ok_or_else(overflow)?)?;
            b.add_ineq(dense(&low, b.row_len()));
            let mut high = negate(&row)?;
            add_to(&mut high, 0, *hi)?;
            b.add_ineq(dense(&high, b.row_len()));
        }
        Formula::Range {
            lo,
            var,
            hi,
            strict,
        } => {
            for c in Formula::range_constraints(lo, var, hi, *strict) {
                add_constraint(b, &c, false, cols)?;
            }
        }
        Formula::And(fs) => {
            if fs.iter().any(|g| matches!(g, Formula::Or(_))) {
                return Ok(false);
            }
            for g in fs {
                if !add_conjunct(b, g, cols)? {
                    return Ok(false);
                }
            }
        }
        Formula::Or(_) => return Ok(false),
    }
    Ok(true)
}

/// The points of `space` satisfying `f`, with the variables at the columns
/// `cols` gives. Conjunctions become one basic map; disjunctions a union.
pub fn formula_to_map(f: &Formula, space: &Space, cols: &Columns) -> Result<Map, Error> {
    let mut b = BasicMap::universe(space.clone());
    if add_conjunct(&mut b, f, cols)? {
        return Ok(Map::from_basic(b));
    }
    match f {
        Formula::Or(fs) => {
            let mut out = Map::empty(space.clone());
            for g in fs {
                out = out.union(&formula_to_map(g, space, cols)?)?;
            }
            Ok(out)
        }
        Formula::And(fs) => {
            // the conjunctive part in one basic map, each disjunction intersected
            let mut b = BasicMap::universe(space.clone());
            let mut rest = Vec::new();
            for g in fs {
                let mut trial = b.clone();
                if add_conjunct(&mut trial, g, cols)? {
                    b = trial;
                } else {
                    rest.push(g);
                }
            }
            let mut out = Map::from_basic(b);
            for g in rest {
                out = out.intersect(&formula_to_map(g, space, cols)?)?;
            }
            Ok(out)
        }
        // add_conjunct accepts every other formula
        _ => Ok(Map::from_basic(b)),
    }
}

/// The relation `{ x -> [f_0(x), ..., f_{k-1}(x)] }` of a relation `space`
/// whose range has `exprs.len()` dimensions: one equality per range
/// dimension (`out_d = f_d(x)`); the variables of `exprs` are looked up in
/// `cols`.
pub fn affine_graph(exprs: &[Affine], space: &Space, cols: &Columns) -> Result<BasicMap, Error> {
    let mut b = BasicMap::universe(space.clone());
    let off_out = b.off_out();
    if space.n_out() != exprs.len() {
        return Err(Error::Engine(presburger::Error::SpaceMismatch(format!(
            "{} expressions for a range of {} dimensions",
            exprs.len(),
            space.n_out()
        ))));
    }
    for (d, e) in exprs.iter().enumerate() {
        let mut row = negate(&affine_row(&mut b, e, cols)?)?;
        add_to(&mut row, off_out + d, 1)?;
        b.add_eq(dense(&row, b.row_len()));
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use presburger::{Set, Tuple};

    fn set_space(params: &[&str], name: &str, dims: &[&str]) -> Space {
        Space::set(
            params.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            Tuple::named(name, dims),
        )
    }

    /// Lowering agrees with the formula's own evaluation on a small box.
    /// Returns the number of points of the box in the formula.
    fn check(f: &Formula) -> usize {
        let mut inside = 0;
        let space = set_space(&["N"], "S", &["i", "j"]);
        let cols = Columns::for_set(&space);
        let m = formula_to_map(f, &space, &cols).unwrap();
        for n in 0..5i64 {
            for i in -3..8i64 {
                for j in -3..8i64 {
                    let val = |x: &str| match x {
                        "N" => Some(n),
                        "i" => Some(i),
                        "j" => Some(j),
                        _ => None,
                    };
                    let want = f.eval(&val).unwrap();
                    inside += usize::from(want);
                    let pt = [Int::from(n), Int::from(i), Int::from(j)];
                    assert_eq!(
                        m.contains_point(&pt).unwrap(),
                        want,
                        "{f:?} at N={n} i={i} j={j}"
                    );
                }
            }
        }
        inside
    }

    #[test]
    fn formulas_lower_exactly() {
        let i = Affine::var("i");
        let j = Affine::var("j");
        let n = Affine::var("N");
        let c = Affine::constant;
        check(&Formula::Range {
            lo: c(0),
            var: "i".into(),
            hi: n.clone(),
            strict: true,
        });
        check(&Formula::and(vec![
            Formula::ge(&j, &i.floor_div(2)),
            Formula::Mod(i.add(&j), 3, 1),
            Formula::ge(&n, &j),
        ]));
        check(&Formula::or(vec![
            Formula::Eq(i.sub(&j)),
            Formula::ge(&i.add(&n.floor_div(2)).floor_div(3), &j),
        ]));
        check(&Formula::and(vec![
            Formula::ge(&i, &c(0)),
            Formula::or(vec![Formula::Mod(i.clone(), 2, 0), Formula::ge(&j, &n)]),
            Formula::or(vec![Formula::ge(&c(2), &j), Formula::Eq(j.sub(&c(5)))]),
        ]));
        // a large modulus is negated by two residue ranges, not 8218 classes
        let not_one = Formula::Mod(i.add(&j), 8219, 1).negate();
        assert!(
            matches!(&not_one, Formula::Or(alts) if alts.len() == 2),
            "{not_one:?}"
        );
        check(&not_one);
        check(&Formula::ModRange(i.sub(&j), 19, 3, 17).negate());
        check(&Formula::and(vec![
            Formula::ModRange(i.add(&n), 7, 2, 4),
            Formula::Mod(j.clone(), 40, 0).negate(),
        ]));
        assert_eq!(check(&Formula::True), 5 * 11 * 11);
        assert_eq!(check(&Formula::False), 0);
        check(&Formula::and(vec![Formula::False, Formula::ge(&i, &j)]));
    }

    use testkit::Lcg;

    fn random_affine(g: &mut Lcg, depth: usize) -> Affine {
        let mut a = Affine::constant(g.range(-3, 3));
        for v in ["i", "j", "N"] {
            a = a.add(&Affine::var(v).scale(g.range(-3, 3)));
        }
        if depth > 0 && g.below(3) == 0 {
            let d = 2 + g.below(3) as i64;
            a = a.add(
                &random_affine(g, depth - 1)
                    .floor_div(d)
                    .scale(g.range(-3, 3)),
            );
        }
        a
    }

    fn random_formula(g: &mut Lcg, depth: usize) -> Formula {
        let k = if depth == 0 { g.below(4) } else { g.below(7) };
        match k {
            0 => Formula::Ge(random_affine(g, 1)),
            1 => Formula::Eq(random_affine(g, 1)),
            2 => {
                // sometimes past the enumeration limit: negated by residue ranges
                let m = if g.below(4) == 0 {
                    17 + g.below(8) as i64
                } else {
                    2 + g.below(3) as i64
                };
                Formula::Mod(random_affine(g, 1), m, g.below(m as u64) as i64)
            }
            3 => Formula::Range {
                lo: random_affine(g, 1),
                var: ["i", "j"][g.below(2) as usize].to_string(),
                hi: random_affine(g, 1),
                strict: g.below(2) == 0,
            },
            4 | 5 => {
                let n = 1 + g.below(3) as usize;
                let fs = (0..n).map(|_| random_formula(g, depth - 1)).collect();
                if k == 4 {
                    Formula::And(fs)
                } else {
                    Formula::Or(fs)
                }
            }
            _ => random_formula(g, depth - 1).negate(),
        }
    }

    /// Random formulas with divisions, modulos, conjunctions, disjunctions
    /// and negations lower to relations with exactly the formula's points
    /// (brute force on a box).
    #[test]
    fn random_formulas_lower_exactly() {
        let mut g = Lcg(2024);
        let mut mixed = 0;
        for _ in 0..150 {
            let f = random_formula(&mut g, 2);
            let inside = check(&f);
            mixed += usize::from(inside > 0 && inside < 5 * 11 * 11);
        }
        // most formulas cut the box (neither empty nor everything)
        assert!(mixed >= 75, "only {mixed} formulas cut the box");
    }

    #[test]
    fn bad_divisions_are_errors() {
        let space = set_space(&[], "S", &["i"]);
        let cols = Columns::for_set(&space);
        let mut terms = BTreeMap::new();
        terms.insert(AVar::Div(Box::new(Affine::var("i")), 0), 1);
        let f = Formula::Ge(Affine { terms, constant: 0 });
        assert!(formula_to_map(&f, &space, &cols).is_err());
        let big = Formula::Mod(Affine::var("i"), i64::MIN, 0);
        assert!(formula_to_map(&big, &space, &cols).is_err());
    }

    #[test]
    fn graphs_and_unknown_names() {
        let space = Space::map(
            vec!["N".to_string()],
            Tuple::named("S", &["i"]),
            Tuple::flat(Some("A".into()), vec![String::new(); 2]),
        );
        let cols = Columns::for_domain(&space, &["i".to_string()]);
        let g = affine_graph(
            &[
                Affine::var("i").floor_div(2),
                Affine::var("N").sub(&Affine::var("i")),
            ],
            &space,
            &cols,
        )
        .unwrap();
        let want: presburger::Map = "[N] -> { S[i] -> A[floor(i/2), N - i] }".parse().unwrap();
        assert!(Map::from_basic(g).is_equal(&want).unwrap());
        let bad = affine_graph(&[Affine::var("k")], &space, &cols);
        assert!(bad.is_err());
        let s: Set = "{ S[i, j] }".parse().unwrap();
        assert!(s.is_set());
    }
}
