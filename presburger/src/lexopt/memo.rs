//! The simplified copies of the last disjuncts whose optimum was taken, by
//! the identity of their rows: a later optimum of the same disjunct (the
//! same storages, unwritten since) starts from the copy instead of
//! simplifying again, as isl marks a basic set it has simplified and does
//! not simplify it twice.
//!
//! Kept in a [`Memo`] (sound for the reasons given there: same unwritten
//! row storages, divisions and dimension counts).

use std::cell::RefCell;
use std::convert::Infallible;

use crate::basic::BasicMap;
use crate::memo::{kept_or, Memo};

thread_local! {
    /// The last 8 disjuncts simplified here, by their rows.
    static KEPT: RefCell<Memo<Option<BasicMap>>> = const { RefCell::new(Memo::new(8)) };
}

/// `b` simplified ([`BasicMap::simplify`]), or `None` if the simplification
/// finds it empty: the kept copy when `b`'s rows are those of a disjunct
/// simplified here before.
pub(crate) fn simplified(b: &BasicMap) -> Option<BasicMap> {
    let computed: Result<_, Infallible> = kept_or(&KEPT, b, || {
        let mut s = b.clone();
        Ok(s.simplify().then_some(s))
    });
    let Ok(s) = computed;
    s
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
