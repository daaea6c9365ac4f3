//! The simplified copies of the last disjuncts whose optimum was taken, by
//! the identity of their rows: a later optimum of the same disjunct (the
//! same storages, unwritten since) starts from the copy instead of
//! simplifying again, as isl marks a basic set it has simplified and does
//! not simplify it twice.
//!
//! Sound because [`RowsId::is`] holds only while the storage is unwritten
//! (a write of rows whose identity is kept moves them to a new storage):
//! same storages, same rows; the divisions and the dimension counts (all
//! the simplification depends on besides the rows) are compared too.

use std::cell::RefCell;

use crate::basic::BasicMap;
use crate::rows::RowsId;

/// How many disjuncts each thread remembers.
const KEEP: usize = 8;

struct Kept {
    eqs: RowsId,
    ineqs: RowsId,
    divs: crate::divs::Divs,
    dims: (usize, usize, usize),
    /// `None`: the simplification found the disjunct empty.
    simplified: Option<BasicMap>,
}

thread_local! {
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

fn dims(b: &BasicMap) -> (usize, usize, usize) {
    (b.n_param(), b.n_in(), b.n_out())
}

/// `b` simplified ([`BasicMap::simplify`]), or `None` if the simplification
/// finds it empty: the kept copy when `b`'s rows are those of a disjunct
/// simplified here before.
pub(crate) fn simplified(b: &BasicMap) -> Option<BasicMap> {
    let found = KEPT.with(|k| {
        let k = k.borrow();
        k.iter()
            .position(|e| {
                e.eqs.is(&b.eqs) && e.ineqs.is(&b.ineqs) && e.dims == dims(b) && e.divs == b.divs
            })
            .map(|i| {
                k[i].simplified.as_ref().map(|s| {
                    let mut s = s.clone();
                    s.space = b.space.clone();
                    s
                })
            })
    });
    if let Some(s) = found {
        return s;
    }
    let mut s = b.clone();
    let simplified = s.simplify().then_some(s);
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.len() >= KEEP {
            k.pop();
        }
        k.insert(
            0,
            Kept {
                eqs: b.eqs.id(),
                ineqs: b.ineqs.id(),
                divs: b.divs.clone(),
                dims: dims(b),
                simplified: simplified.clone(),
            },
        );
    });
    simplified
}

#[cfg(test)]
mod tests {
    use super::simplified;
    use crate::basic::BasicMap;
    use crate::int::Int;

    fn plain(b: &BasicMap) -> Option<BasicMap> {
        let mut s = b.clone();
        s.simplify().then_some(s)
    }

    fn same(a: &Option<BasicMap>, b: &Option<BasicMap>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a.plain_is_equal(b) && a.space == b.space,
            (None, None) => true,
            _ => false,
        }
    }

    /// The kept copy is the simplification of the rows as they are now:
    /// again after each in-place write of the original (and of a copy
    /// sharing its rows), for a basic map that simplifies to something
    /// else and one found empty.
    #[test]
    fn kept_copy_follows_the_rows() {
        let mut b: BasicMap =
            "{ [a, b, c] : 0 <= a <= 5 and a <= b <= a and c = a + b and c >= 1 }"
                .parse()
                .unwrap();
        for step in 0..6 {
            let want = plain(&b);
            assert!(same(&simplified(&b), &want), "step {step}");
            assert!(same(&simplified(&b), &want), "step {step}, kept");
            let copy = b.clone();
            assert!(same(&simplified(&copy), &want), "step {step}, copy");
            // a write: one more row, the bound on a tightened (empty at the end)
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1] = Int::from(-1);
            row[0] = Int::from(4 - step);
            b.add_ineq(row);
            // the copy is unchanged and still answered from its rows
            assert!(same(&simplified(&copy), &want), "step {step}, old copy");
        }
        assert!(simplified(&b).is_none());
    }
}
