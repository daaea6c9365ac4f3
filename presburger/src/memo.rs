//! Results computed from a basic map, kept by the identity of its rows: a
//! later call on the same disjunct (the same row storages, unwritten since)
//! takes the kept result instead of computing it again, as isl records on a
//! basic set what it has found out about it (simplified, without redundant
//! constraints, its divisions known) and does not find it out twice.
//!
//! Sound because [`RowsId::is`] holds only while the storage is unwritten
//! (a write of rows whose identity is kept moves them to a new storage):
//! same storages, same rows. The divisions and the dimension counts, all a
//! computation from a basic map depends on besides its rows, are compared
//! too; the space's names are not (a caller that returns a basic map puts
//! the asking one's space on it).
//!
//! A [`Memo`] is a short list, most recent first, meant to live in a
//! `thread_local!` of the module whose computation it keeps.

use std::cell::RefCell;
use std::thread::LocalKey;

use crate::basic::BasicMap;
use crate::divs::Divs;
use crate::hint::Contents;
use crate::rows::RowsId;
use crate::space::Space;

/// What identifies a basic map's contents: its row storages (unwritten),
/// divisions and dimension counts.
struct Key {
    eqs: RowsId,
    ineqs: RowsId,
    divs: Divs,
    dims: (usize, usize, usize),
}

fn dims(b: &BasicMap) -> (usize, usize, usize) {
    (b.n_param(), b.n_in(), b.n_out())
}

impl Key {
    fn of(b: &BasicMap) -> Key {
        Key {
            eqs: b.eqs.id(),
            ineqs: b.ineqs.id(),
            divs: b.divs.clone(),
            dims: dims(b),
        }
    }

    fn is(&self, b: &BasicMap) -> bool {
        self.eqs.is(&b.eqs)
            && self.ineqs.is(&b.ineqs)
            && self.dims == dims(b)
            && self.divs == b.divs
    }
}

/// The last `keep` results of a computation from a basic map, by the
/// identity of its rows (see the [module documentation](self)).
pub(crate) struct Memo<T> {
    keep: usize,
    kept: Vec<(Key, T)>,
}

impl<T: Clone> Memo<T> {
    /// An empty memo keeping up to `keep` results.
    pub(crate) const fn new(keep: usize) -> Memo<T> {
        Memo {
            keep,
            kept: Vec::new(),
        }
    }

    /// The result kept for `b`'s contents, if any.
    pub(crate) fn get(&self, b: &BasicMap) -> Option<T> {
        self.kept
            .iter()
            .find(|(k, _)| k.is(b))
            .map(|(_, v)| v.clone())
    }

    /// Keep `value` as the result for `b`'s contents (the oldest result
    /// goes when `keep` are kept).
    pub(crate) fn put(&mut self, b: &BasicMap, value: T) {
        if self.keep == 0 {
            return;
        }
        if self.kept.len() >= self.keep {
            self.kept.pop();
        }
        self.kept.insert(0, (Key::of(b), value));
    }
}

/// A kept result made the asking basic map's: the names of its space,
/// which the [`Key`] does not compare, are put back on every basic map in
/// it.
pub(crate) trait InSpace {
    /// `self` with the space of the basic maps in it replaced by `space`.
    fn in_space(self, space: &Space) -> Self;
}

impl InSpace for BasicMap {
    fn in_space(mut self, space: &Space) -> BasicMap {
        self.space = space.clone();
        self
    }
}

impl<T: InSpace> InSpace for Option<T> {
    fn in_space(self, space: &Space) -> Option<T> {
        self.map(|x| x.in_space(space))
    }
}

impl<T: InSpace> InSpace for Vec<T> {
    fn in_space(self, space: &Space) -> Vec<T> {
        self.into_iter().map(|x| x.in_space(space)).collect()
    }
}

/// The result of `compute` for `b`, taken from the thread's `memo` when it
/// keeps one for `b`'s contents (in `b`'s space), else computed and kept
/// (an error is not kept).
pub(crate) fn kept_or<T: Clone + InSpace, E>(
    memo: &'static LocalKey<RefCell<Memo<T>>>,
    b: &BasicMap,
    compute: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    if let Some(kept) = memo.with(|m| m.borrow().get(b)) {
        return Ok(kept.in_space(&b.space));
    }
    let value = compute()?;
    memo.with(|m| m.borrow_mut().put(b, value.clone()));
    Ok(value)
}

impl BasicMap {
    /// What a simplification reads of `self` (see [`Contents`]).
    fn contents(&self) -> Contents<'_> {
        Contents {
            eqs: &self.eqs,
            ineqs: &self.ineqs,
            divs: &self.divs,
            dims: dims(self),
        }
    }

    /// Keep `simplified`, the simplification of a copy of `self`, in
    /// `self`'s hint (map construction does: it simplifies a copy of each
    /// disjunct to leave out those found empty, as isl's parser does, and
    /// isl keeps its simplified disjunct): a later simplification of
    /// `self`'s contents, unchanged, takes it ([`kept_simplified`](Self::kept_simplified)).
    pub(crate) fn keep_simplified(&self, simplified: BasicMap) {
        self.hint.set_simplified(
            self.contents(),
            (simplified.divs, simplified.eqs, simplified.ineqs),
        );
    }

    /// The simplification of `self` kept by
    /// [`keep_simplified`](Self::keep_simplified), in `self`'s space, if
    /// `self`'s contents are those it was computed from.
    pub(crate) fn kept_simplified(&self) -> Option<BasicMap> {
        let k = self.hint.simplified(self.contents())?;
        Some(BasicMap {
            space: self.space.clone(),
            divs: k.divs.clone(),
            eqs: k.simplified_eqs.clone(),
            ineqs: k.simplified_ineqs.clone(),
            hint: Default::default(),
        })
    }
}

/// The simplified copies of the last basic maps simplified through
/// [`simplified`] and [`simplified_nonempty`], by their rows (and the copy
/// map construction keeps on each disjunct it reads, see
/// [`BasicMap::keep_simplified`]): a later call on the same disjunct (the same storages, unwritten since) takes the copy
/// instead of simplifying again, as isl marks a basic set it has simplified
/// and does not simplify it twice. (Lexicographic optima and gist simplify
/// their operands' disjuncts; a compiler asks them again of the same
/// objects.)
mod simplified_copies {
    use super::{kept_or, Memo};
    use crate::basic::BasicMap;
    use crate::error::Result;
    use std::cell::RefCell;
    use std::convert::Infallible;

    thread_local! {
        /// The last 8 basic maps simplified, by their rows.
        static SIMPLIFIED: RefCell<Memo<Option<BasicMap>>> = const { RefCell::new(Memo::new(8)) };
        /// The last 8 basic maps simplified and tested for emptiness.
        static NONEMPTY: RefCell<Memo<Option<BasicMap>>> = const { RefCell::new(Memo::new(8)) };
    }

    /// `b` simplified ([`BasicMap::simplify`]), or `None` if the
    /// simplification finds it empty: the kept copy when `b`'s rows are
    /// those of a basic map simplified here before.
    pub(crate) fn simplified(b: &BasicMap) -> Option<BasicMap> {
        // (the copy map construction kept, see `keep_simplified`)
        if let Some(s) = b.kept_simplified() {
            return Some(s);
        }
        let computed: std::result::Result<_, Infallible> = kept_or(&SIMPLIFIED, b, || {
            let mut s = b.clone();
            Ok(s.simplify().then_some(s))
        });
        let Ok(s) = computed;
        s
    }

    /// [`BasicMap::simplified_nonempty`] (`None` when `b` is empty, an exact
    /// test), the kept copy when `b`'s rows are those of a basic map asked
    /// here before.
    pub(crate) fn simplified_nonempty(b: &BasicMap) -> Result<Option<BasicMap>> {
        kept_or(&NONEMPTY, b, || b.simplified_nonempty())
    }
}

pub(crate) use simplified_copies::{simplified, simplified_nonempty};

#[cfg(test)]
mod tests {
    use super::Memo;
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
    /// else and one found empty; the same for the copy tested non-empty.
    #[test]
    fn kept_copy_follows_the_rows() {
        let mut b: BasicMap =
            "{ [a, b, c] : 0 <= a <= 5 and a <= b <= a and c = a + b and c >= 1 }"
                .parse()
                .unwrap();
        for step in 0..6 {
            let want = plain(&b);
            let nonempty = b.simplified_nonempty().unwrap();
            for x in [&b, &b.clone()] {
                assert!(same(&super::simplified(x), &want), "step {step}");
                assert!(same(&super::simplified(x), &want), "step {step}, kept");
                assert!(
                    same(&super::simplified_nonempty(x).unwrap(), &nonempty),
                    "step {step}"
                );
                assert!(
                    same(&super::simplified_nonempty(x).unwrap(), &nonempty),
                    "step {step}, kept"
                );
            }
            let copy = b.clone();
            // a write: one more row, the bound on a tightened (empty at the end)
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1] = Int::from(-1);
            row[0] = Int::from(4 - step);
            b.add_ineq(row);
            // the copy is unchanged and still answered from its rows
            assert!(
                same(&super::simplified(&copy), &want),
                "step {step}, old copy"
            );
            assert!(
                same(&super::simplified_nonempty(&copy).unwrap(), &nonempty),
                "step {step}, old copy"
            );
        }
        assert!(super::simplified(&b).is_none());
        assert!(super::simplified_nonempty(&b).unwrap().is_none());
    }

    /// Map construction keeps on each disjunct it reads its simplified
    /// copy, which is the simplification of the disjunct's contents and is
    /// taken while they are unchanged: not by a copy of the basic map
    /// (copies are made all the time), not after a write of its rows.
    #[test]
    fn construction_keeps_the_simplified_copy() {
        let mut m: crate::Map =
            "{ [i, j] : exists (e : i = 2e and 0 <= e <= 3) and j = i + 1 and j >= 2 }"
                .parse()
                .unwrap();
        let b = &m.parts[0];
        let kept = b.kept_simplified().expect("kept by construction");
        assert!(same(&Some(kept.clone()), &plain(b)));
        assert!(same(&super::simplified(b), &plain(b)));
        // (the simplification changed the rows: the kept copy is not the input)
        assert!(!kept.plain_is_equal(b));
        assert!(b.clone().kept_simplified().is_none());
        let b = &mut m.parts[0];
        let mut row = vec![Int::ZERO; b.row_len()];
        row[1] = Int::from(-1);
        row[0] = Int::from(2);
        b.add_ineq(row);
        assert!(b.kept_simplified().is_none());
        assert!(same(&super::simplified(b), &plain(b)));
    }

    /// A kept result is found for the same storages (also through a copy
    /// sharing them) and not after a write, nor for equal rows in other
    /// storages; the oldest result goes first.
    #[test]
    fn results_follow_the_row_storages() {
        let mut b: BasicMap = "{ [a, b] : 0 <= a <= 5 and a <= b }".parse().unwrap();
        let mut m: Memo<usize> = Memo::new(2);
        assert_eq!(m.get(&b), None);
        m.put(&b, 1);
        assert_eq!(m.get(&b), Some(1));
        let copy = b.clone();
        assert_eq!(m.get(&copy), Some(1));
        let same_text: BasicMap = "{ [a, b] : 0 <= a <= 5 and a <= b }".parse().unwrap();
        assert_eq!(m.get(&same_text), None);
        let mut row = vec![Int::ZERO; b.row_len()];
        row[1] = Int::from(-1);
        row[0] = Int::from(4);
        b.add_ineq(row);
        assert_eq!(m.get(&b), None);
        assert_eq!(m.get(&copy), Some(1));
        m.put(&b, 2);
        m.put(&same_text, 3);
        assert_eq!(m.get(&copy), None, "the oldest goes");
        assert_eq!((m.get(&b), m.get(&same_text)), (Some(2), Some(3)));
    }
}
