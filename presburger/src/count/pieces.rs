//! Fewer pieces for a piecewise quasi-polynomial (issue 21): a piece whose domain is a
//! single point joins another piece whose quasi-polynomial has the same value there, when
//! the joined domain coalesces into no more disjuncts (`2 * p0 : p0 >= 2; 2 : p0 = 1` is
//! `2 * p0 : p0 >= 1`); a single point that joins nothing gets its value as a constant
//! (`p0^2 : p0 = 1` is `1 : p0 = 1`). Exact: both quasi-polynomials agree on the moved point.

use super::qpoly::{PwQPolynomial, QuasiPolynomial};
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;

type Set = Map;

/// The only point of `d`, if it has exactly one (one disjunct whose equalities fix
/// every variable).
fn single_point(d: &Set) -> Result<Option<Vec<Int>>> {
    let [b] = d.basic_maps() else {
        return Ok(None);
    };
    let mut b = b.clone();
    if !b.simplify() || b.n_div() != 0 || b.eqs().len() != b.space().n_vars() {
        return Ok(None);
    }
    b.sample()
}

impl PwQPolynomial {
    /// Single-point pieces joined to an agreeing piece, or made constant (see the
    /// [module documentation](self)).
    pub(crate) fn join_point_pieces(mut self) -> Result<PwQPolynomial> {
        let mut j = 0;
        while j < self.pieces.len() {
            let Some(p) = single_point(&self.pieces[j].0)? else {
                j += 1;
                continue;
            };
            let v = self.pieces[j].1.eval(&p)?;
            let mut joined = false;
            for i in 0..self.pieces.len() {
                if i == j || self.pieces[i].1.eval(&p)? != v {
                    continue;
                }
                let d = &self.pieces[i].0;
                let u = d.union(&self.pieces[j].0)?.coalesce()?;
                if u.basic_maps().len() <= d.basic_maps().len() {
                    self.pieces[i].0 = u;
                    self.pieces.remove(j);
                    joined = true;
                    break;
                }
            }
            if !joined {
                if self.pieces[j].1.as_constant().is_none() {
                    self.pieces[j].1 = QuasiPolynomial::constant(self.space.clone(), v);
                }
                j += 1;
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::PwQPolynomial;
    use crate::count::card;
    use crate::count::reference::card_by_enumeration;
    use crate::int::Int;
    use crate::map::Map;

    fn joined(text: &str) -> PwQPolynomial {
        let f: PwQPolynomial = text.parse().unwrap();
        let g = f.clone().join_point_pieces().unwrap();
        for n in -3..12 {
            let p = [Int::from(n)];
            assert_eq!(
                g.eval(&p).unwrap(),
                f.eval(&p).unwrap(),
                "{text} at {n}: {g}"
            );
        }
        g
    }

    #[test]
    fn a_point_joins_the_piece_that_agrees_there() {
        let g = joined("[p0] -> { 2 * p0 : p0 >= 2; 2 : p0 = 1 }");
        assert_eq!(g.to_string(), "[p0] -> { 2 * p0 : p0 >= 1 }");
        // no agreeing piece: the point's value becomes a constant
        let g = joined("[p0] -> { 2 * p0 : p0 >= 2; p0^2 + 3 : p0 = 1 }");
        assert_eq!(g.to_string(), "[p0] -> { 2 * p0 : p0 >= 2; 4 : p0 = 1 }");
        // agreeing but not adjacent: joining would not make the domain simpler
        let g = joined("[p0] -> { 2 * p0 : p0 >= 5; 2 : p0 = 1 }");
        assert_eq!(g.pieces().len(), 2, "{g}");
    }

    #[test]
    fn counts_stay_exact() {
        for text in [
            "[p0] -> { [i, j] : 0 <= i < p0 and 0 <= j < 2 and j <= p0 - 1 }",
            "[p0] -> { [i, j] : 0 <= i <= j < p0 and j <= 1 }",
            "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i and j <= 2 }",
            "[n] -> { [i] : 0 <= i < n and (i = 0 or i >= 3) }",
            "[n] -> { [i, j] : 0 <= i <= n and 0 <= j <= 1 and i + j <= 1 }",
        ] {
            let s: Map = text.parse().unwrap();
            let c = card(&s).unwrap();
            for n in -2..10 {
                let p = [Int::from(n)];
                let want = card_by_enumeration(&s, &p).unwrap();
                assert_eq!(c.eval(&p).unwrap(), want.into(), "{text} at {n}: {c}");
            }
        }
    }
}
