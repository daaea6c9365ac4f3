//! Finite unions of basic relations over one space.
//!
//! A [`Map`] is a disjunction of [`BasicMap`]s that all live in the same
//! [`Space`]. A set is a map whose space is a set space ([`Set`] is the same
//! type): every operation that makes sense for sets works on it, and the
//! relation-only operations return [`Error::SpaceMismatch`] for a set.
//!
//! ```
//! use presburger::Set;
//! let a: Set = "[n] -> { [i] : 0 <= i < n }".parse().unwrap();
//! let b: Set = "[n] -> { [i] : i >= 5 }".parse().unwrap();
//! let u = a.union(&b).unwrap();
//! assert_eq!(u.basic_maps().len(), 2);
//! ```

use std::borrow::Cow;
use std::sync::Arc;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::space::{merge_params_shared, Space};
use crate::trace::traced;

/// A finite union of [`BasicMap`]s over one space.
///
/// The space, the disjuncts and the coalescing memo are shared behind one
/// reference count: copying a map (as every operation that returns its
/// operand does) is one atomic increment, and a copy is written on its
/// first write (`DerefMut`, copy on write), so the value semantics are
/// those of the fields.
#[derive(Clone)]
pub struct Map(Arc<MapData>);

/// The fields of a [`Map`], reached through `Deref`/`DerefMut` inside the
/// crate (public only because `Deref` is; not exported, and its fields are
/// the crate's).
#[doc(hidden)]
#[derive(Clone)]
pub struct MapData {
    pub(crate) space: Space,
    pub(crate) parts: Vec<BasicMap>,
    /// What coalescing found for these disjuncts (kept by `coalesce`, not
    /// part of the value).
    pub(crate) memo: crate::coalesce::CoalesceMemo,
}

impl std::ops::Deref for Map {
    type Target = MapData;
    #[inline]
    fn deref(&self) -> &MapData {
        &self.0
    }
}

impl std::ops::DerefMut for Map {
    /// The fields to write: copied first if shared.
    #[inline]
    fn deref_mut(&mut self) -> &mut MapData {
        Arc::make_mut(&mut self.0)
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Map")
            .field("space", &self.space)
            .field("parts", &self.parts)
            .field("memo", &self.memo)
            .finish()
    }
}

/// True if two shared parameter lists are equal: the same list when they
/// are one allocation (most operands share their parameters), else compared
/// name by name. (`Arc<[String]>`'s own `==` always compares the names: the
/// standard library's pointer shortcut is only for sized contents.)
#[inline]
pub(crate) fn same_params(a: &Arc<[String]>, b: &Arc<[String]>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// A set is a [`Map`] with a set space.
pub type Set = Map;
/// A basic set is a [`BasicMap`] with a set space.
pub type BasicSet = BasicMap;

impl Map {
    /// The map of these disjuncts (all of `space`), with nothing memoised.
    #[inline]
    pub(crate) fn new(space: Space, parts: Vec<BasicMap>) -> Map {
        Map(Arc::new(MapData {
            space,
            parts,
            memo: Default::default(),
        }))
    }

    /// The disjuncts, owned (copied only if the map is shared).
    pub(crate) fn into_parts(self) -> Vec<BasicMap> {
        self.into_space_parts().1
    }

    /// The space and the disjuncts, owned (copied only if the map is
    /// shared).
    pub(crate) fn into_space_parts(self) -> (Space, Vec<BasicMap>) {
        match Arc::try_unwrap(self.0) {
            Ok(d) => (d.space, d.parts),
            Err(shared) => (shared.space.clone(), shared.parts.clone()),
        }
    }

    /// The empty map of a space.
    pub fn empty(space: Space) -> Map {
        Map::new(space, Vec::new())
    }

    /// All points of a space.
    pub fn universe(space: Space) -> Map {
        Map::new(space.clone(), vec![BasicMap::universe(space)])
    }

    /// A map with one disjunct.
    pub fn from_basic(b: BasicMap) -> Map {
        Map::new(b.space.clone(), vec![b])
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// True if this is a set (its space has no domain tuple).
    pub fn is_set(&self) -> bool {
        self.space.is_set()
    }

    /// Whether the two are written alike: the same space and the same
    /// disjuncts in the same order, each [`BasicMap::plain_is_equal`].
    pub fn plain_is_equal(&self, other: &Map) -> bool {
        self.space == other.space
            && self.parts.len() == other.parts.len()
            && self
                .parts
                .iter()
                .zip(other.basic_maps())
                .all(|(x, y)| x.plain_is_equal(y))
    }

    /// The disjuncts.
    pub fn basic_maps(&self) -> &[BasicMap] {
        &self.parts
    }

    /// Add a disjunct (its parameters are aligned to the map's).
    pub fn add_basic(&mut self, b: BasicMap) -> Result<()> {
        if !b.space.tuples_match(&self.space) {
            return Err(Error::SpaceMismatch(
                "cannot add a disjunct of another space".to_string(),
            ));
        }
        let mut b = b;
        if !same_params(&b.space.params, &self.space.params) {
            let params = merge_params_shared(&self.space.params, &b.space.params);
            self.align_params_shared(&params);
            b.align_params_shared(&params);
        }
        if !b.is_obviously_empty() {
            self.parts.push(b);
        }
        Ok(())
    }

    /// The map of `space` with these disjuncts, leaving out those that
    /// [`simplify`](BasicMap::simplify) finds empty (an equality against an
    /// order constraint, say, or two opposite rows that leave no room), as
    /// isl's parser leaves out what its simplification finds empty. The
    /// other disjuncts are added as by [`add_basic`](Self::add_basic), their
    /// rows as given (the simplification runs on a copy, which is kept on
    /// the disjunct for its later emptiness tests, samples and optima while
    /// its rows are unchanged, as isl keeps its simplified disjunct); a disjunct whose
    /// rows the cheap normalisation of [`coalesce`](Self::coalesce) would
    /// leave as they are is marked so (coalescing it later costs a test of
    /// the mark), and of a map of one disjunct that the normalisation
    /// changes, the normalised rows are kept on the map as `coalesce` keeps
    /// them (coalescing it later takes them).
    pub fn from_disjuncts(space: Space, disjuncts: Vec<BasicMap>) -> Result<Map> {
        let mut m = Map::empty(space);
        for b in disjuncts {
            // `refute` first (cheaper, and no copy of the rows); what it
            // does not prove empty (or leaves undecided: big coefficients),
            // the simplification of a copy decides
            let empty = crate::refute::refute_checked(&b) == Some(true) || {
                let mut s = b.clone();
                if s.simplify() {
                    // kept for a later simplification of these rows (as
                    // isl's parser keeps its simplified disjunct)
                    b.keep_simplified(s);
                    false
                } else {
                    true
                }
            };
            if !empty {
                m.add_basic(b)?;
            }
        }
        // what coalescing would find out cheaply (the normalisation of its
        // disjuncts) is found here, as isl's parser normalises what it
        // reads: kept as a mark on rows it leaves as they are, or for a map
        // of one disjunct as the normalised rows kept on the map; the rows
        // stay as written
        crate::coalesce::note_normal(&m);
        Ok(m)
    }

    /// Reorder and extend the parameters to `params` (a superset of the current ones).
    pub fn align_params(&mut self, params: &[String]) {
        if *self.space.params != *params {
            self.align_params_shared(&params.into());
        }
    }

    /// [`align_params`](Self::align_params) to a shared list (no copy of the names).
    pub(crate) fn align_params_shared(&mut self, params: &Arc<[String]>) {
        if same_params(&self.space.params, params) {
            return;
        }
        for b in &mut self.parts {
            b.align_params_shared(params);
        }
        self.space.params = params.clone();
    }

    /// Make both operands' parameters agree and check that their tuples match.
    pub(crate) fn aligned(&self, other: &Map, what: &str) -> Result<(Map, Map)> {
        if !self.space.tuples_match(&other.space) {
            return Err(Error::SpaceMismatch(format!(
                "{what}: operands live in different spaces"
            )));
        }
        let mut a = self.clone();
        let mut b = other.clone();
        if !same_params(&a.space.params, &b.space.params) {
            let params = merge_params_shared(&a.space.params, &b.space.params);
            a.align_params_shared(&params);
            b.align_params_shared(&params);
        }
        Ok((a, b))
    }

    /// [`aligned`](Self::aligned) without copying operands whose parameters
    /// already agree (for operations that only read them).
    pub(crate) fn aligned_ref<'a>(
        &'a self,
        other: &'a Map,
        what: &str,
    ) -> Result<(Cow<'a, Map>, Cow<'a, Map>)> {
        if same_params(&self.space.params, &other.space.params) {
            if !self.space.tuples_match(&other.space) {
                return Err(Error::SpaceMismatch(format!(
                    "{what}: operands live in different spaces"
                )));
            }
            return Ok((Cow::Borrowed(self), Cow::Borrowed(other)));
        }
        let (a, b) = self.aligned(other, what)?;
        Ok((Cow::Owned(a), Cow::Owned(b)))
    }

    /// The union of two maps of the same space.
    pub fn union(&self, other: &Map) -> Result<Map> {
        traced!("union", [self, other], {
            // (the operands borrowed when their parameters agree: each
            // disjunct is copied once, into a list of the final length)
            let (a, b) = self.aligned_ref(other, "union")?;
            // a union with a map of no disjuncts is the other operand,
            // shared (a copy is one atomic increment)
            if b.parts.is_empty() {
                return Ok(Map::clone(&a));
            }
            if a.parts.is_empty() {
                return Ok(Map::clone(&b));
            }
            let mut parts = Vec::with_capacity(a.parts.len() + b.parts.len());
            parts.extend(a.parts.iter().cloned());
            parts.extend(b.parts.iter().cloned());
            Ok(Map::new(a.space.clone(), parts))
        })
    }

    /// The intersection of two maps of the same space (pairwise intersection of disjuncts).
    pub fn intersect(&self, other: &Map) -> Result<Map> {
        traced!("intersect", [self, other], {
            let (a, b) = self.aligned_ref(other, "intersect")?;
            // (the disjuncts collected before the map is built: a push
            // through the map's `DerefMut` checks its sharing every time)
            let mut parts = Vec::new();
            for x in &a.parts {
                for y in &b.parts {
                    // a product of unions: charge each pair, so that the
                    // operation budget bounds the time of a large product
                    crate::budget::tick(1)?;
                    // (a third of the traced intersections are empty, most
                    // by two opposite rows: found before the rows are joined)
                    if disjoint_by_opposite_rows(x, y) {
                        continue;
                    }
                    let mut z = x.intersect(y)?;
                    if z.simplify() {
                        parts.push(z);
                    }
                }
            }
            Ok(Map::new(a.space.clone(), parts))
        })
    }

    /// Simplify every disjunct (cheaply: no linear programming) and drop the
    /// ones found empty.
    pub fn simplify_parts(mut self) -> Map {
        self.parts.retain_mut(|b| b.simplify());
        self
    }
}

impl BasicMap {
    /// Reorder and extend the parameters to `params` (a superset of the current ones).
    pub fn align_params(&mut self, params: &[String]) {
        if *self.space.params != *params {
            self.align_params_shared(&params.into());
        }
    }

    /// [`align_params`](Self::align_params) to a shared list (no copy of the names).
    pub(crate) fn align_params_shared(&mut self, params: &Arc<[String]>) {
        if same_params(&self.space.params, params) {
            return;
        }
        let old_np = self.n_param();
        let new_len = self.row_len() - old_np + params.len();
        let mut map = Vec::with_capacity(self.row_len());
        map.push(0);
        for p in self.space.params.iter() {
            map.push(
                1 + params
                    .iter()
                    .position(|q| q == p)
                    .expect("params must be a superset"),
            );
        }
        for k in 1 + old_np..self.row_len() {
            map.push(k - old_np + params.len());
        }
        self.remap_cols(&map, new_len);
        self.space.params = params.clone();
    }

    /// The intersection of two basic maps of the same space (locals are concatenated).
    pub fn intersect(&self, other: &BasicMap) -> Result<BasicMap> {
        traced!("intersect", [self, other], {
            if !self.space.tuples_match(&other.space) {
                return Err(Error::SpaceMismatch(
                    "intersect: operands live in different spaces".into(),
                ));
            }
            if !same_params(&self.space.params, &other.space.params) {
                let params = merge_params_shared(&self.space.params, &other.space.params);
                let mut a = self.clone();
                let mut b = other.clone();
                a.align_params_shared(&params);
                b.align_params_shared(&params);
                return Ok(crate::divs::conjoin_sharing(&a, &b));
            }
            // one side's constraints all among the other's: the other is the
            // intersection (a copy shares its rows, nothing is built)
            if constraints_among(other, self) {
                return Ok(self.clone());
            }
            if constraints_among(self, other) {
                return Ok(other.clone());
            }
            Ok(crate::divs::conjoin_sharing(self, other))
        })
    }
}

/// True if a constraint of `x` and one of `y` (of the same space and
/// parameters, neither with locals, so that their columns mean the same)
/// bound one form from opposite sides with nothing between: `c + a·v >= 0`
/// and `d - a·v >= 0` with `c + d < 0` (an equality is both of its sides).
/// Then `x ∩ y` is empty, found without building it. Candidate pairs are
/// those whose [keys](crate::opposite_key) cancel; rows with a coefficient
/// beyond `i64` are left out (the answer is then only less often true).
pub(crate) fn disjoint_by_opposite_rows(x: &BasicMap, y: &BasicMap) -> bool {
    use crate::opposite_key::int_key;
    if x.n_div() > 0 || y.n_div() > 0 || x.row_len() != y.row_len() {
        return false;
    }
    let sides = |b: &BasicMap| -> Vec<(u64, usize, bool)> {
        // (key, row, negated): an inequality as it is, an equality both ways
        // (rows numbered equalities first)
        let mut v = Vec::with_capacity(2 * b.eqs.len() + b.ineqs.len());
        for (k, r) in b.eqs.iter().chain(b.ineqs.iter()).enumerate() {
            if let Some(h) = int_key(&r[1..]) {
                v.push((h, k, false));
                if k < b.eqs.len() {
                    v.push((h.wrapping_neg(), k, true));
                }
            }
        }
        v
    };
    if y.eqs.is_empty() && y.ineqs.is_empty() || x.eqs.is_empty() && x.ineqs.is_empty() {
        return false;
    }
    let mut ys = sides(y);
    ys.sort_unstable();
    fn row(b: &BasicMap, k: usize) -> &[Int] {
        if k < b.eqs.len() {
            &b.eqs[k]
        } else {
            &b.ineqs[k - b.eqs.len()]
        }
    }
    sides(x).into_iter().any(|(h, i, neg_i)| {
        let want = h.wrapping_neg();
        let start = ys.partition_point(|&(g, _, _)| g < want);
        ys[start..]
            .iter()
            .take_while(|&&(g, _, _)| g == want)
            .any(|&(_, j, neg_j)| {
                let (r, s) = (row(x, i), row(y, j));
                // the sides r' = ±r and s' = ±s: opposite iff r'[1..] = -s'[1..]
                let same_sign = neg_i == neg_j;
                let opposite =
                    r[1..].iter().zip(&s[1..]).all(
                        |(p, q)| {
                            if same_sign {
                                *p == -q
                            } else {
                                p == q
                            }
                        },
                    );
                if !opposite {
                    return false;
                }
                let c = if neg_i { -&r[0] } else { r[0].clone() };
                let d = if neg_j { -&s[0] } else { s[0].clone() };
                (&c + &d).is_neg()
            })
    })
}

/// True if `small` has no locals and each of its constraints is one of
/// `big`'s (of the same space and parameters), with zeros for `big`'s
/// locals: an equality is an equality of `big` or its negation, an
/// inequality an inequality of `big` or one side of an equality of `big`.
/// Then `big`'s set is a subset of `small`'s, and their intersection is
/// `big` (the oracle of the tests: `conjoin`).
pub(crate) fn constraints_among(small: &BasicMap, big: &BasicMap) -> bool {
    if small.n_div() > 0
        || small.eqs.len() > big.eqs.len()
        || small.ineqs.len() > big.ineqs.len() + 2 * big.eqs.len()
    {
        return false;
    }
    let n = small.row_len();
    let here = |s: &[Int]| s[n..].iter().all(Int::is_zero);
    let negation = |s: &[Int], r: &[Int]| s.iter().zip(r).all(|(a, b)| is_negation(a, b));
    // (a row is compared whole only when its entry at the first non-zero
    // column of `r` matches, or is the negation: most rows differ there)
    let key = |r: &[Int]| (1..n).find(|&c| !r[c].is_zero()).unwrap_or(0);
    let side_of_eq = |r: &[Int], p: usize| {
        big.eqs.iter().any(|s| {
            (s[p] == r[p] && s[..n] == *r || is_negation(&s[p], &r[p]) && negation(&s[..n], r))
                && here(s)
        })
    };
    small.eqs.iter().all(|r| side_of_eq(r, key(r)))
        && small.ineqs.iter().all(|r| {
            let p = key(r);
            big.ineqs
                .iter()
                .any(|s| s[p] == r[p] && s[..n] == r[..] && here(s))
                || side_of_eq(r, p)
        })
}

/// True if `a = -b` (no value built on the fast path).
#[inline]
fn is_negation(a: &Int, b: &Int) -> bool {
    match (a, b) {
        (Int::Small(a), Int::Small(b)) => b.checked_neg() == Some(*a),
        _ => *a == -b,
    }
}

#[cfg(test)]
mod tests {
    use super::{disjoint_by_opposite_rows, Map};
    use crate::int::Int;
    use proptest::prelude::*;

    /// Constraints over `[n] -> { [i, j] }`, opposite pairs among them.
    const POOL: &[&str] = &[
        "i >= 0",
        "i <= -1",
        "i <= 3",
        "i >= 4",
        "i + j >= 2",
        "i + j <= 1",
        "i + j <= 5",
        "i = 2",
        "i = j",
        "j - i >= 1",
        "2i - j <= n",
        "j - 2i >= 3 - n",
        "j >= n",
        "j <= n - 1",
        "j = n + 1",
    ];

    fn map(rows: &[usize]) -> Map {
        let c: Vec<&str> = rows.iter().map(|&k| POOL[k]).collect();
        let body = if c.is_empty() {
            String::new()
        } else {
            format!(" : {}", c.join(" and "))
        };
        format!("[n] -> {{ [i, j]{body} }}").parse().unwrap()
    }

    proptest! {
        /// The shortcut claims disjointness only for disjoint pairs (every
        /// point of a box checked), and the intersection built with it has
        /// the points of both.
        #[test]
        fn opposite_rows_are_disjoint(
            xs in prop::collection::vec(0..POOL.len(), 0..4),
            ys in prop::collection::vec(0..POOL.len(), 0..4),
        ) {
            let (x, y) = (map(&xs), map(&ys));
            let both = x.intersect(&y).unwrap();
            let claimed = match (x.basic_maps(), y.basic_maps()) {
                ([a], [b]) => disjoint_by_opposite_rows(a, b),
                _ => false,
            };
            for n in -3..=3i64 {
                for i in -6..=6i64 {
                    for j in -6..=6i64 {
                        let p = [Int::from(n), Int::from(i), Int::from(j)];
                        let inx = x.contains_point(&p).unwrap();
                        let iny = y.contains_point(&p).unwrap();
                        prop_assert!(!(claimed && inx && iny), "{} and {} meet at {:?}", x, y, p);
                        prop_assert_eq!(both.contains_point(&p).unwrap(), inx && iny);
                    }
                }
            }
        }
    }

    /// Opposite rows with a gap are found, also one side of an equality; a
    /// pair that touches is not disjoint.
    #[test]
    fn finds_the_opposite_pairs() {
        let one = |t: &str| map(&[]).intersect(&t.parse().unwrap()).unwrap();
        let pair = |a: &str, b: &str| {
            let (x, y) = (one(a), one(b));
            disjoint_by_opposite_rows(&x.basic_maps()[0], &y.basic_maps()[0])
        };
        assert!(pair(
            "[n] -> { [i, j] : i >= 4 }",
            "[n] -> { [i, j] : i <= 3 }"
        ));
        assert!(pair(
            "[n] -> { [i, j] : i = 2 }",
            "[n] -> { [i, j] : i >= 3 and j >= 0 }"
        ));
        assert!(pair(
            "[n] -> { [i, j] : 2i - j <= n - 1 }",
            "[n] -> { [i, j] : 2i - j >= n }"
        ));
        assert!(!pair(
            "[n] -> { [i, j] : i >= 3 }",
            "[n] -> { [i, j] : i <= 3 }"
        ));
        assert!(!pair(
            "[n] -> { [i, j] : i >= 3 }",
            "[n] -> { [i, j] : j <= 0 }"
        ));
    }
}
