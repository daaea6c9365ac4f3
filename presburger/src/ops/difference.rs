//! Difference and complement: `A \\ B` splits on the constraints of each
//! disjunct of `B`, whose locals are first made explicit.

use std::cell::RefCell;

use crate::basic::BasicMap;
use crate::budget;
use crate::divs::Layout;
use crate::error::{Error, Result};
use crate::guess::{guess, remember_point, Guess};
use crate::int::Int;
use crate::map::Map;
use crate::memo::{kept_or, Memo};
use crate::syntactic::{contains_by_definitions, syntactically_contains};
use crate::trace::traced;

impl Map {
    /// The difference `self \ other`.
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "{ [i] : 0 <= i <= 10 }".parse().unwrap();
    /// let b: Set = "{ [i] : exists e : i = 2e }".parse().unwrap();
    /// let d = a.subtract(&b).unwrap();
    /// assert!(d.is_equal(&"{ [i] : 0 <= i <= 10 and i % 2 = 1 }".parse().unwrap()).unwrap());
    /// ```
    pub fn subtract(&self, other: &Map) -> Result<Map> {
        traced!("subtract", [self, other], {
            subtract_with(self, other, true)
        })
    }

    /// [`subtract`](Self::subtract) without its shortcuts (a disjunct of
    /// `self` syntactically inside one of `other`, up to a renaming of
    /// `other`'s locals, dropped unsimplified; the disjointness test skipped
    /// when a subtrahend disjunct's rows are all the minuend disjunct's or
    /// the point kept on the minuend disjunct is in it; and without the
    /// prepared disjuncts kept from earlier calls): the test oracle of the
    /// fast path.
    #[doc(hidden)]
    pub fn subtract_reference(&self, other: &Map) -> Result<Map> {
        subtract_with(self, other, false)
    }

    /// Whether `self \ other` is empty, deciding as soon as one piece of the
    /// difference is left over (the pieces of [`subtract`](Self::subtract),
    /// made depth first); the simple version, `subtract` and then
    /// `is_empty`, is its test oracle.
    #[doc(hidden)]
    pub fn difference_is_empty(&self, other: &Map) -> Result<bool> {
        traced!("difference_is_empty", [self, other], {
            let (a, b) = self.aligned_ref(other, "subtract")?;
            let mut bxs = Vec::with_capacity(b.parts.len());
            for p in &a.parts {
                if let Some(p) = prepared_minuend(p)? {
                    if !difference_is_empty(p, 0, &b.parts, &mut bxs)? {
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        })
    }

    /// The complement within the space.
    pub fn complement(&self) -> Result<Map> {
        traced!("complement", [self], {
            Map::universe(self.space.clone()).subtract(self)
        })
    }
}

/// `a \ b`, with the shortcuts of [`subtract_basic_each`] when `fast`.
fn subtract_with(a: &Map, b: &Map, fast: bool) -> Result<Map> {
    let (a, b) = a.aligned_ref(b, "subtract")?;
    if fast && b.parts.is_empty() {
        // `a \ ∅ = a`, its disjuncts as they are (a subtrahend without
        // disjuncts, `{ S[i] -> A[j] : false }`, is a third of the traced
        // subtractions); the oracle prepares them
        return Ok(Map::clone(&a));
    }
    let mut cur: Vec<BasicMap> = Vec::new();
    for p in &a.parts {
        // a disjunct whose rows imply, one by one, every row of a disjunct
        // of `b` (up to a renaming of `b`'s locals) is inside it: nothing of
        // it is left (not even simplified)
        if fast
            && b.parts.iter().any(|q| {
                syntactically_contains(q, p) || super::local_map::contains_by_local_map(q, p)
            })
        {
            continue;
        }
        cur.extend(if fast {
            prepared_minuend(p)?
        } else {
            prepared_minuend_computed(p)?
        });
    }
    for bpart in &b.parts {
        if cur.is_empty() {
            break;
        }
        let explicit = if fast {
            explicit_subtrahend(bpart)?
        } else {
            bpart.make_divs_explicit()?
        };
        for bx in explicit {
            let mut next = Vec::new();
            for p in cur {
                subtract_basic_each(p, &bx, fast, &mut |piece| {
                    next.push(piece);
                    Ok(false)
                })?;
            }
            cur = next;
        }
    }
    Ok(Map::new(a.space.clone(), cur))
}

/// A disjunct of the minuend simplified, `None` if empty.
///
/// As [`BasicMap::simplified_nonempty`] (simplify, exact emptiness test,
/// relations between locals by linear programming), except that a point
/// found by the exact search is kept on the simplified disjunct and on `p`
/// (their hints): a later call on `p` then tests emptiness with one check
/// instead of a search, and [`subtract_basic_each`] proves with it that
/// the disjunct meets a subtrahend (skipping the disjointness test).
///
/// Kept by the identity of `p`'s rows ([`crate::memo`]): a later
/// difference from the same disjunct starts from the kept result.
fn prepared_minuend(p: &BasicMap) -> Result<Option<BasicMap>> {
    kept_or(&PREPARED, p, || prepared_minuend_computed(p))
}

/// The disjuncts of `b` with every local explicit
/// ([`BasicMap::make_divs_explicit`]), kept by the identity of `b`'s rows
/// as [`prepared_minuend`] is.
///
/// A disjunct whose equalities have no integer solution (with the locals
/// as free integers: a parity or divisibility contradiction, which the
/// simplification of a subtrahend need not find, e.g. `i = 2e0` and
/// `i = 2e1 + 1`) is empty and left out: it removes nothing.
fn explicit_subtrahend(b: &BasicMap) -> Result<Vec<BasicMap>> {
    kept_or(&EXPLICIT, b, || {
        let mut v = b.make_divs_explicit()?;
        v.retain(|x| !equalities_unsolvable(x));
        Ok(v)
    })
}

/// True if the equalities of `b` have no integer solution (every
/// variable and local a free integer): then `b` is empty. Only tried when
/// an equality has a local (without, the simplification's gcd test of
/// each equality and Gaussian elimination over the variables decide it).
pub(crate) fn equalities_unsolvable(b: &BasicMap) -> bool {
    let off = b.off_div();
    if b.eqs.is_empty() || !b.eqs.iter().any(|e| e[off..].iter().any(|v| !v.is_zero())) {
        return false;
    }
    crate::simplex::solve_equalities(b.row_len() - 1, &b.eqs).is_none()
}

thread_local! {
    /// The last minuend disjuncts prepared (see [`prepared_minuend`]).
    static PREPARED: RefCell<Memo<Option<BasicMap>>> = const { RefCell::new(Memo::new(8)) };
    /// The last subtrahend disjuncts made explicit.
    static EXPLICIT: RefCell<Memo<Vec<BasicMap>>> = const { RefCell::new(Memo::new(8)) };
}

/// [`prepared_minuend`], computed.
fn prepared_minuend_computed(p: &BasicMap) -> Result<Option<BasicMap>> {
    let mut b = p.clone();
    if !b.simplify() {
        return Ok(None);
    }
    match guess(&b, false, true) {
        Guess::Point(_) => {}
        Guess::Empty => return Ok(None),
        Guess::Unknown => match b.search_simplified()? {
            None => return Ok(None),
            Some(x) => {
                remember_point(&b, &x);
            }
        },
    }
    if let Some(x) = b.hint.get() {
        p.hint.set(x);
    }
    if b.local_relations_by_lp()? {
        b.simplify();
    }
    // cheap definitions for the minuend's existentials let the subtrahend's
    // equal divisions be recognised as the same
    if b.divs.iter().any(Option::is_none) {
        b.detect_divs();
        b.simplify();
    }
    Ok(Some(b))
}

/// Whether `p \ (b_0 ∪ b_1 ∪ ...)` is empty, `p` non-empty and simplified,
/// every local of each `b_k` defined (the explicit forms of `B`'s disjuncts,
/// made when first needed and kept in `bxs`).
///
/// Depth first: each piece of `p \ b_k` is taken on to `b_{k+1}` at once,
/// and the first piece left after the last `b` (pieces are non-empty by
/// construction) answers "not empty" without making the others. The pieces
/// are those of [`Map::subtract`], so the answer is the same as testing its
/// result for emptiness (the test oracle).
pub(crate) fn difference_is_empty(
    p: BasicMap,
    k: usize,
    b: &[BasicMap],
    bxs: &mut Vec<Option<Vec<BasicMap>>>,
) -> Result<bool> {
    // the k-th explicit disjunct of B, counting over all of B's disjuncts
    let mut idx = k;
    let mut part = 0;
    loop {
        if part == b.len() {
            return Ok(false); // p is left over: not empty
        }
        if bxs.len() <= part {
            bxs.push(None);
        }
        if bxs[part].is_none() {
            bxs[part] = Some(explicit_subtrahend(&b[part])?);
        }
        let n = bxs[part].as_ref().map_or(0, Vec::len);
        if idx < n {
            break;
        }
        idx -= n;
        part += 1;
    }
    let bx = bxs[part].as_ref().expect("made above")[idx].clone();
    let mut empty = true;
    subtract_basic_each(p, &bx, true, &mut |piece| {
        if !difference_is_empty(piece, k + 1, b, bxs)? {
            empty = false;
            return Ok(true);
        }
        Ok(false)
    })?;
    Ok(empty)
}

/// The pieces of `p \ b` (`p` split on the negations of `b`'s rows, every
/// local of `b` defined), handed to `each` as they are made; `each` returns
/// `true` to stop.
///
/// With `fast`, two exact shortcuts replace the disjointness test (an
/// integer emptiness test of `p ∩ b`, paid in full when they overlap, as
/// a point must be found):
/// - every row of `b` is among `base`'s rows (`p` with `b`'s locals and
///   their defining bounds): `p ⊆ b`, no piece;
/// - the point kept on `p` (its hint, checked against `p`'s rows) is in
///   `b` (evaluated through `b`'s division definitions): `p` and `b`
///   overlap, so the test would say "not disjoint".
///
/// The pieces are those of the plain path.
fn subtract_basic_each(
    p: BasicMap,
    b: &BasicMap,
    fast: bool,
    each: &mut dyn FnMut(BasicMap) -> Result<bool>,
) -> Result<()> {
    // base = p ∩ (b's locals with their defining constraints). With `fast`,
    // a local of `b` whose definition is one of `p`'s (after the renaming
    // of `b`'s earlier locals) is that local of `p` (see `divs::Layout`);
    // the others come after `p`'s locals, in order.
    // (`p` and `b` have the same parameters, aligned by the callers)
    let off = b.off_div();
    if b.divs.iter().any(Option::is_none) {
        return Err(Error::Invalid("subtract: unexpected existential".into()));
    }
    let layout = Layout::new(&p, b, fast);
    // a row of `b` in base's layout, negated if `negate`
    let lift = |r: &[Int], negate: bool| -> Vec<Int> {
        let mut out = layout.lift(r);
        if negate {
            out.iter_mut().for_each(|v| *v = -&*v);
        }
        out
    };
    let widened = |rows: &crate::Rows| {
        let mut out = crate::Rows::with_capacity(rows.len(), layout.len());
        let mut w = out.writer();
        for r in rows {
            layout.widen_onto(r, &mut w);
        }
        out
    };
    // (without new locals, `p` itself: its rows shared, not copied)
    let mut base = if layout.fresh == 0 {
        p.clone()
    } else {
        BasicMap {
            space: p.space.clone(),
            divs: layout.divs(&p, b).into(),
            eqs: widened(&p.eqs),
            ineqs: widened(&p.ineqs),
            hint: Default::default(),
        }
    };
    for (k, d) in b.divs.iter().enumerate() {
        // (every local of `b` has a definition: checked above)
        if let Some(d) = d {
            for r in d.bounds(off + k) {
                let r = lift(&r, false);
                if !base.ineqs.contains(&r) {
                    base.ineqs.push(r);
                }
            }
        }
    }
    let mut cons: Vec<Vec<Int>> = Vec::with_capacity(2 * b.eqs.len() + b.ineqs.len());
    for e in &b.eqs {
        let pos = lift(e, false);
        let neg = lift(e, true);
        // (an equality of base, either way: both halves hold on base)
        if fast
            && base
                .eqs
                .iter()
                .any(|f| f[..] == pos[..] || f[..] == neg[..])
        {
            continue;
        }
        cons.push(pos);
        cons.push(neg);
    }
    for r in &b.ineqs {
        cons.push(lift(r, false));
    }
    // the rows already in base (the definitional ones) are not negated
    // (nor needed below: base has them)
    cons.retain(|c| !base.ineqs.contains(c));
    if fast && cons.is_empty() {
        return Ok(()); // p ⊆ b
    }
    let overlap = fast && kept_point_in(&p, b);
    // disjoint: nothing to remove (and no splitting of p)
    if !overlap {
        let mut both = base.clone();
        both.ineqs.extend(cons.iter());
        if both.into_is_empty()? {
            each(p)?;
            return Ok(());
        }
    }
    let mut acc = base;
    // the rational relaxation of acc, extended row by row (one tableau, not
    // one per step), made when a row first needs it
    let mut acc_tab: Option<crate::simplex::Tableau> = None;
    // (with `fast`, the keys of acc's rows for `implied_by_sum`)
    let mut keys = if fast { SignedKeys::of(&acc) } else { None };
    for c in cons {
        budget::tick(1)?;
        // c implied by one row of acc or the sum of two: no point of acc
        // has c <= -1 (what the LP below would find, without a tableau)
        if keys.as_ref().is_some_and(|k| k.implied_by_sum(&acc, &c)) {
            continue;
        }
        let tab = match &mut acc_tab {
            Some(t) => t,
            None => acc_tab.insert(acc.rational_tableau()?),
        };
        // c takes integer values at integer points: if its rational minimum
        // over acc is above -1, no point of acc has c <= -1 (one LP on the
        // shared tableau instead of an emptiness test of a new piece)
        if let crate::simplex::Opt::Value(num, den) = tab.minimize(&c)? {
            if num > -&den {
                continue;
            }
        }
        let mut neg: Vec<Int> = c.iter().map(|v| -v).collect();
        neg[0] = &neg[0] - &Int::ONE;
        let mut piece = acc.clone();
        piece.ineqs.push(neg);
        if let Some(pc) = piece.into_simplified_nonempty()? {
            if each(pc)? {
                return Ok(());
            }
        }
        tab.add_ineq(&c)?;
        if let Some(k) = &mut keys {
            k.push(&c, acc.ineqs.len());
        }
        acc.ineqs.push(c);
        if tab.is_empty() {
            break;
        }
    }
    Ok(())
}

/// The keys ([`int_key`](crate::opposite_key::int_key)) of the coefficients
/// of a basic map's inequalities and of its equalities taken both ways, as
/// `(key, row, negated)` with `row` indexing `ineqs` or (`eq`) `eqs`.
struct SignedKeys {
    rows: Vec<(u64, usize, bool, bool)>,
}

impl SignedKeys {
    /// `None` if a coefficient is beyond `i64` (then the LP decides).
    fn of(b: &BasicMap) -> Option<SignedKeys> {
        let mut k = SignedKeys {
            rows: Vec::with_capacity(2 * b.eqs.len() + b.ineqs.len()),
        };
        for (i, e) in b.eqs.iter().enumerate() {
            let h = crate::opposite_key::int_key(&e[1..])?;
            k.rows.push((h, i, true, false));
            k.rows.push((h.wrapping_neg(), i, true, true));
        }
        for (i, r) in b.ineqs.iter().enumerate() {
            if !k.push(r, i) {
                return None;
            }
        }
        Some(k)
    }

    /// Add inequality `i`, `r`; `false` if it has no key.
    fn push(&mut self, r: &[Int], i: usize) -> bool {
        match crate::opposite_key::int_key(&r[1..]) {
            Some(h) => {
                self.rows.push((h, i, false, false));
                true
            }
            None => false,
        }
    }

    /// Whether `c >= 0` follows from one row of `b` (an inequality, or an
    /// equality either way) or from the sum of two: same coefficients,
    /// a constant at most `c`'s. Exact: such a row (sum) is non-negative
    /// on `b` and differs from `c` by a non-negative constant. `false`
    /// means "not shown". The keys only select candidates, checked in full.
    fn implied_by_sum(&self, b: &BasicMap, c: &[Int]) -> bool {
        let Some(h) = crate::opposite_key::int_key(&c[1..]) else {
            return false;
        };
        let row = |&(_, i, eq, neg): &(u64, usize, bool, bool)| -> (&[Int], bool) {
            (if eq { &b.eqs[i][..] } else { &b.ineqs[i][..] }, neg)
        };
        let val = |r: &[Int], neg: bool, j: usize| if neg { -&r[j] } else { r[j].clone() };
        for (x, a) in self.rows.iter().enumerate() {
            if a.0 == h {
                let (r, n) = row(a);
                if (1..c.len()).all(|j| val(r, n, j) == c[j]) && val(r, n, 0) <= c[0] {
                    return true;
                }
            }
            let want = h.wrapping_sub(a.0);
            for bk in &self.rows[x + 1..] {
                if bk.0 != want {
                    continue;
                }
                let ((r, n), (s, m)) = (row(a), row(bk));
                if (1..c.len()).all(|j| &val(r, n, j) + &val(s, m, j) == c[j])
                    && &val(r, n, 0) + &val(s, m, 0) <= c[0]
                {
                    return true;
                }
            }
        }
        false
    }
}

/// True if the point kept on `p` (its hint) satisfies `p`'s rows and its
/// `(params, in, out)` part is in `b` by evaluation through `b`'s division
/// definitions: a proof that `p ∩ b` is not empty.
fn kept_point_in(p: &BasicMap, b: &BasicMap) -> bool {
    if !crate::guess::kept_point_holds(p) {
        return false;
    }
    let Some(x) = p.hint.get() else {
        return false;
    };
    let nv = p.space.n_vars();
    if x.len() < nv {
        return false;
    }
    let x: Vec<Int> = x[..nv].iter().map(|&v| Int::from(v)).collect();
    contains_by_definitions(b, &x) == Some(true)
}

#[cfg(test)]
#[path = "difference_tests.rs"]
mod tests;
