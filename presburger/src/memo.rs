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

#[cfg(test)]
mod tests {
    use super::Memo;
    use crate::basic::BasicMap;
    use crate::int::Int;

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
