//! Answers of the engine remembered during one generation, by the exact
//! value of the question: the recursion over the dimensions asks the same
//! questions again (a piece's set inside the context is often the same
//! set at the next level, where the context only gains the equality of a
//! substituted dimension that the set already has, or the bounds of a
//! loop that the set already implies row by row).
//!
//! A question is found again by the whole syntactic value of its set (its
//! space, and per disjunct its divisions, equalities and inequalities, in
//! order), so a remembered answer is the answer the engine gives to that
//! very input. An answer is also remembered as the answer to itself: the
//! recursion asks to coalesce sets that are already the engine's coalesced
//! answers (the projection of a set onto all its dimensions at the last
//! level, a part of a union kept whole), and `coalesce_simplified` leaves
//! its own answers as they are (checked on every such use in debug and
//! unit-test builds). Looking up hashes the rows in place and compares them with
//! the remembered inputs of the same hash (no copy unless the answer is
//! new).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use presburger::{BasicMap, Int, Map};

use crate::rows::project_keep;

use crate::error::Result;

/// A multiply-rotate hasher ("FxHash"): the keys are the generator's own
/// sets, with no adversary, and every hit is checked on the whole value.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_i64(&mut self, w: i64) {
        self.write_u64(w as u64);
    }

    fn write_usize(&mut self, w: usize) {
        self.write_u64(w as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The hash of a set's written value.
fn hash_of(m: &Map) -> u64 {
    let mut h = FxHasher::default();
    m.space().hash(&mut h);
    for b in m.basic_maps() {
        b.divs().hash(&mut h);
        b.eqs().hash(&mut h);
        b.ineqs().hash(&mut h);
    }
    h.finish()
}

/// The hash of a basic set's written value.
fn hash_of_basic(b: &BasicMap) -> u64 {
    let mut h = FxHasher::default();
    b.space().hash(&mut h);
    b.divs().hash(&mut h);
    b.eqs().hash(&mut h);
    b.ineqs().hash(&mut h);
    h.finish()
}

/// Remembered [`Memo::leading_dims`]: a basic set, the number of
/// dimensions kept and the answer.
type Leading = (BasicMap, usize, Option<BasicMap>);

/// A question about a pair of disjuncts whose answer depends on their
/// points alone.
#[derive(PartialEq, Eq)]
enum PairQuestion {
    /// [`Memo::lex_after`] by these dimensions.
    LexAfter(Vec<usize>),
    /// [`Memo::disjoint`].
    Disjoint,
}

/// A remembered answer about a pair: the two disjuncts (as their
/// representatives), the question and the answer.
type PairAnswer = (BasicMap, BasicMap, PairQuestion, bool);

/// Remembered answers of one generation.
#[derive(Default)]
pub(super) struct Memo {
    /// Disjuncts known to have the same points as an earlier disjunct (its
    /// representative), by the hash of the disjunct: the disjuncts of
    /// [`Memo::coalesced_inside`]'s answer computed disjunct by disjunct
    /// (a disjunct inside the context, simplified).
    same_points: RefCell<HashMap<u64, Vec<(BasicMap, BasicMap)>>>,
    /// Answers of [`Memo::lex_after`] and [`Memo::disjoint`], by the hashes
    /// of the representatives.
    pairs: RefCell<HashMap<u64, Vec<PairAnswer>>>,
    /// Inputs and their `coalesce_simplified`, by the hash of the input.
    coalesced: RefCell<HashMap<u64, Vec<(Map, Map)>>>,
    /// Answers of [`Memo::coalesced_inside`]: the set, the context and the
    /// answer, by the hash of the set.
    inside: RefCell<HashMap<u64, Vec<(Map, Map, Map)>>>,
    /// Basic sets and their [`Memo::leading_dims`] (with the number of
    /// dimensions kept), by the hash of the input.
    leading: RefCell<HashMap<u64, Vec<Leading>>>,
}

impl Memo {
    /// `m.coalesce_simplified()`, computed once per written value of `m`.
    pub(super) fn coalesced(&self, m: &Map) -> Result<Map> {
        let h = hash_of(m);
        if let Some(bucket) = self.coalesced.borrow().get(&h) {
            if let Some((_, c)) = bucket.iter().find(|(q, _)| q.plain_is_equal(m)) {
                // (an answer remembered as its own: checked in debug and
                // unit-test builds)
                if cfg!(any(test, debug_assertions)) && m.plain_is_equal(c) {
                    assert!(
                        m.coalesce_simplified()?.plain_is_equal(c),
                        "coalesce_simplified changed its own answer {m}"
                    );
                }
                return Ok(c.clone());
            }
        }
        let c = m.coalesce_simplified()?;
        let mut memo = self.coalesced.borrow_mut();
        memo.entry(h).or_default().push((m.clone(), c.clone()));
        if !c.plain_is_equal(m) {
            let hc = hash_of(&c);
            let bucket = memo.entry(hc).or_default();
            if !bucket.iter().any(|(q, _)| q.plain_is_equal(&c)) {
                bucket.push((c.clone(), c.clone()));
            }
        }
        Ok(c)
    }

    /// Whether `m` is written as an answer remembered as its own (a set
    /// that `coalesce_simplified` leaves as it is).
    pub(super) fn is_own_answer(&self, m: &Map) -> bool {
        let memo = self.coalesced.borrow();
        memo.get(&hash_of(m)).is_some_and(|bucket| {
            bucket
                .iter()
                .any(|(q, c)| q.plain_is_equal(m) && c.plain_is_equal(m))
        })
    }

    /// `(set ∩ ctx).coalesce_simplified()` as a set ([`Self::coalesced_inside_own`]),
    /// from an earlier answer `a` for the same written `set` within a
    /// context `prev` when `ctx ⊆ prev` is shown by linear programming:
    /// then `set ∩ ctx = a ∩ ctx` (as `a = set ∩ prev`), and `a`, an answer
    /// remembered as its own, is the simpler input (the recursion asks this
    /// of a piece's set at each level of a nest, in contexts that only gain
    /// the bounds of the enclosing loops).
    pub(super) fn coalesced_inside(&self, set: &Map, ctx: &Map) -> Result<Map> {
        // (only for several disjuncts: what it saves is the pairs' fusion,
        // tried again; for one, the inclusion test costs more than it saves)
        if set.basic_maps().len() < 2 {
            return self.coalesced_inside_own(set, ctx);
        }
        if let Some(a) = self.earlier_inside(set, ctx)? {
            let out = self.coalesced_inside_own(&a, ctx)?;
            // (the same set, checked in debug and unit-test builds)
            if cfg!(any(test, debug_assertions)) {
                assert!(
                    set.intersect(ctx)?.is_equal(&out)?,
                    "coalesced_inside from an earlier answer changed the set {set}"
                );
            }
            self.note_inside(set, ctx, &out);
            return Ok(out);
        }
        let out = self.coalesced_inside_own(set, ctx)?;
        self.note_inside(set, ctx, &out);
        Ok(out)
    }

    /// An earlier answer of [`Self::coalesced_inside`] for the written
    /// `set` within a context shown to contain `ctx` (the latest first).
    fn earlier_inside(&self, set: &Map, ctx: &Map) -> Result<Option<Map>> {
        let candidates: Vec<(Map, Map)> = match self.inside.borrow().get(&hash_of(set)) {
            None => return Ok(None),
            Some(bucket) => bucket
                .iter()
                .rev()
                .filter(|(q, _, _)| q.plain_is_equal(set))
                .map(|(_, prev, a)| (prev.clone(), a.clone()))
                .collect(),
        };
        for (prev, a) in candidates {
            if a.basic_maps().len() < 2 {
                continue;
            }
            if prev.plain_is_equal(ctx) {
                return Ok(Some(a));
            }
            let shown = {
                let _scope = presburger::budget::enter(INSIDE_EFFORT);
                inside_by_lp(ctx, &prev)
            };
            match shown {
                Ok(true) => return Ok(Some(a)),
                Ok(false) => {}
                Err(presburger::Error::BudgetExceeded)
                    if presburger::budget::remaining() != Some(0) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(None)
    }

    /// Remember `out` as [`Self::coalesced_inside`]`(set, ctx)`.
    fn note_inside(&self, set: &Map, ctx: &Map, out: &Map) {
        let mut memo = self.inside.borrow_mut();
        let bucket = memo.entry(hash_of(set)).or_default();
        if !bucket
            .iter()
            .any(|(q, c, _)| q.plain_is_equal(set) && c.plain_is_equal(ctx))
        {
            bucket.push((set.clone(), ctx.clone(), out.clone()));
        }
    }

    /// `(set ∩ ctx).coalesce_simplified()`, computed disjunct by disjunct
    /// when `set` is an answer remembered as its own (no disjunct inside
    /// another, no pair fused) of several disjuncts and lies inside `ctx`:
    /// then each disjunct `b ∩ ctx` is `b` as a set, so coalescing the
    /// intersection finds no disjunct inside another and no empty one, and
    /// what remains of it is the simplification of each disjunct (the
    /// recursion asks this of a piece's set at the next level, where the
    /// context only gains rows that the set implies; the pairs' fusion,
    /// tried again there, is the most of the cost). The inclusion is tested
    /// within a bounded effort (past it, the whole is coalesced).
    fn coalesced_inside_own(&self, set: &Map, ctx: &Map) -> Result<Map> {
        if set.basic_maps().len() > 1 && self.is_own_answer(set) {
            let inside = {
                let _scope = presburger::budget::enter(INSIDE_EFFORT);
                match inside_by_lp(set, ctx) {
                    Ok(true) => Ok(true),
                    Ok(false) => set.is_subset(ctx),
                    Err(e) => Err(e),
                }
            };
            match inside {
                Ok(true) => {
                    let mut out = Map::empty(set.space().clone());
                    for b in set.basic_maps() {
                        let one = Map::from_basic(b.clone()).intersect(ctx)?;
                        let c = self.coalesced(&one)?;
                        if let [c] = c.basic_maps() {
                            // (`b` inside `ctx`: `c` has the points of `b`)
                            self.note_same_points(c, b);
                        }
                        for c in c.basic_maps() {
                            out.add_basic(c.clone())?;
                        }
                    }
                    // (the engine's answer, checked in debug and unit-test
                    // builds: equal as a set always; written the same but
                    // for a pair the engine's fusion rules fuse in the
                    // intersection and not in `set`, never seen)
                    if cfg!(any(test, debug_assertions)) {
                        let c = set.intersect(ctx)?.coalesce_simplified()?;
                        assert!(c.is_equal(&out)?, "coalesced_inside changed the set {set}");
                        assert!(
                            c.plain_is_equal(&out),
                            "coalesced_inside: the engine writes {c}"
                        );
                    }
                    return Ok(out);
                }
                Ok(false) => {}
                Err(presburger::Error::BudgetExceeded)
                    if presburger::budget::remaining() != Some(0) => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.coalesced(&set.intersect(ctx)?)
    }
}

impl Memo {
    /// The union of `parts` (sets of one space), `coalesce_simplified`:
    /// when one of them is an answer remembered as its own whose disjuncts
    /// have only divisions as locals, and every disjunct of the others lies
    /// in one of its disjuncts, that part itself (the recursion asks this of
    /// the projections of a group's pieces, where one statement's runs
    /// within another's: the engine's coalescing would drop the contained
    /// disjuncts and try again the pairs of the part, which it already
    /// left unfused); else the union coalesced. The inclusions are shown
    /// by linear programming, else by the engine within a bounded effort.
    pub(super) fn coalesced_union(&self, parts: &[&Map]) -> Result<Map> {
        let mut u = parts[0].clone();
        for p in &parts[1..] {
            u = u.union(p)?;
        }
        // (worth trying where the union's coalescing is costly: where some
        // part has existentials, which it would try to define first)
        let existential = parts.iter().any(|p| {
            p.basic_maps()
                .iter()
                .any(|b| b.divs().iter().any(Option::is_none))
        });
        for (k, p) in parts.iter().enumerate().filter(|_| existential) {
            let plain = p
                .basic_maps()
                .iter()
                .all(|b| b.divs().iter().all(Option::is_some));
            if p.basic_maps().is_empty() || !plain || !self.is_own_answer(p) {
                continue;
            }
            let mut covered = true;
            'others: for (j, q) in parts.iter().enumerate() {
                if j == k {
                    continue;
                }
                for b in q.basic_maps() {
                    let one = Map::from_basic(b.clone());
                    let mut inside = false;
                    for d in p.basic_maps() {
                        if contained(&one, &Map::from_basic(d.clone()))? {
                            inside = true;
                            break;
                        }
                    }
                    if !inside {
                        covered = false;
                        break 'others;
                    }
                }
            }
            if covered {
                if cfg!(any(test, debug_assertions)) {
                    let c = u.coalesce_simplified()?;
                    assert!(
                        c.plain_is_equal(p),
                        "coalesced_union: the engine writes {c}, not {p}"
                    );
                }
                return Ok((*p).clone());
            }
        }
        self.coalesced(&u)
    }

    /// The representative of `b`: the earliest disjunct noted with the same
    /// points ([`Self::note_same_points`]), or `b` itself.
    fn representative(&self, b: &BasicMap) -> BasicMap {
        let memo = self.same_points.borrow();
        memo.get(&hash_of_basic(b))
            .and_then(|bucket| bucket.iter().find(|(q, _)| q.plain_is_equal(b)))
            .map_or_else(|| b.clone(), |(_, r)| r.clone())
    }

    /// Note that the disjunct `c` has the same points as `b`.
    fn note_same_points(&self, c: &BasicMap, b: &BasicMap) {
        if c.plain_is_equal(b) {
            return;
        }
        let root = self.representative(b);
        if root.plain_is_equal(c) {
            return;
        }
        let mut memo = self.same_points.borrow_mut();
        let bucket = memo.entry(hash_of_basic(c)).or_default();
        if !bucket.iter().any(|(q, _)| q.plain_is_equal(c)) {
            bucket.push((c.clone(), root));
        }
    }

    /// Whether some point of `x` is lexicographically after a point of `y`
    /// by the dimensions `tests` (for each `k` of `tests` in turn: the
    /// dimensions before `tests[0]` and the earlier ones of `tests` equal,
    /// `x_k > y_k`), by `compute` (the engine's tests) once per pair of
    /// representatives ([`Self::representative`]): disjuncts with the same
    /// points have the same answer. `tests` is not empty and names the
    /// whole question: the dimensions before `tests[0]` are equal in the
    /// question whether the caller makes them so or they are equal
    /// constants of both disjuncts.
    pub(super) fn lex_after(
        &self,
        x: &BasicMap,
        y: &BasicMap,
        tests: &[usize],
        compute: impl FnOnce() -> Result<bool>,
    ) -> Result<bool> {
        let (rx, ry) = (self.representative(x), self.representative(y));
        let h = hash_of_basic(&rx) ^ hash_of_basic(&ry).rotate_left(17);
        let q = PairQuestion::LexAfter(tests.to_vec());
        self.pair_answer(h, rx, ry, q, compute)
    }

    /// Whether the disjuncts `x` and `y` have no common point, by
    /// `compute` (the engine's test) once per unordered pair of
    /// representatives ([`Self::representative`]): the answer depends on
    /// the points alone. The recursion asks it again of a statement's
    /// disjuncts at each level where they are ordered.
    pub(super) fn disjoint(
        &self,
        x: &BasicMap,
        y: &BasicMap,
        compute: impl FnOnce() -> Result<bool>,
    ) -> Result<bool> {
        let (rx, ry) = (self.representative(x), self.representative(y));
        let (hx, hy) = (hash_of_basic(&rx), hash_of_basic(&ry));
        // (symmetric: the pair is keyed in the order of its hashes)
        let (rx, ry, h) = if hx <= hy {
            (rx, ry, hx ^ hy.rotate_left(17))
        } else {
            (ry, rx, hy ^ hx.rotate_left(17))
        };
        self.pair_answer(h, rx, ry, PairQuestion::Disjoint, compute)
    }

    /// The answer to `q` about the representatives `rx`, `ry` (hashed
    /// together as `h`): remembered, else `compute`d and remembered.
    fn pair_answer(
        &self,
        h: u64,
        rx: BasicMap,
        ry: BasicMap,
        q: PairQuestion,
        compute: impl FnOnce() -> Result<bool>,
    ) -> Result<bool> {
        let found = self.pairs.borrow().get(&h).and_then(|bucket| {
            bucket
                .iter()
                .find(|(a, b, t, _)| *t == q && a.plain_is_equal(&rx) && b.plain_is_equal(&ry))
                .map(|e| e.3)
        });
        if let Some(answer) = found {
            // (the engine's answer, checked in debug and unit-test builds)
            if cfg!(any(test, debug_assertions)) {
                assert_eq!(
                    compute()?,
                    answer,
                    "a remembered pair answer changed {rx:?} / {ry:?}"
                );
            }
            return Ok(answer);
        }
        let answer = compute()?;
        self.pairs
            .borrow_mut()
            .entry(h)
            .or_default()
            .push((rx, ry, q, answer));
        Ok(answer)
    }

    /// `project_keep(s, keep, n).coalesce_simplified()`, computed disjunct
    /// by disjunct when `s` is an answer remembered as its own of several
    /// disjuncts whose dimensions from `keep` on are, in every disjunct,
    /// the same affine functions of the parameters and the kept dimensions
    /// (an equality with a unit coefficient: e.g. a statement's coordinates
    /// equal to schedule dimensions). The projection is then one-to-one on
    /// `s`, so the projected disjuncts are, like those of `s`, none inside
    /// another, and coalescing their union finds no containment again.
    pub(super) fn coalesced_projection(&self, s: &Map, keep: usize, n: usize) -> Result<Map> {
        let p = project_keep(s, keep, n)?;
        if s.basic_maps().len() > 1
            && p.basic_maps().len() == s.basic_maps().len()
            && inner_dims_are_functions(s, keep, n)
            && self.is_own_answer(s)
        {
            let mut out = Map::empty(p.space().clone());
            for b in p.basic_maps() {
                for c in self.coalesced(&Map::from_basic(b.clone()))?.basic_maps() {
                    out.add_basic(c.clone())?;
                }
            }
            // (the engine's answer, checked in debug and unit-test builds,
            // as in `coalesced_inside`)
            if cfg!(any(test, debug_assertions)) {
                let c = p.coalesce_simplified()?;
                assert!(
                    c.is_equal(&out)?,
                    "coalesced_projection changed the set {s}"
                );
                assert!(
                    c.plain_is_equal(&out),
                    "coalesced_projection: the engine writes {c}"
                );
            }
            return Ok(out);
        }
        self.coalesced(&p)
    }
}

impl Memo {
    /// `b` projected onto its first `keep` dimensions (of `n`), as a set
    /// of `keep` dimensions, when each dimension from `keep` on is given by
    /// an equality with a unit coefficient on it and none on the other
    /// dimensions from `keep` on nor on the locals (e.g. a statement's
    /// coordinates equal to schedule dimensions): the projection then only
    /// substitutes them, and the result has the points of `b`'s first
    /// `keep` coordinates, no more. `None` otherwise. Computed once per
    /// written value of `b`.
    pub(super) fn leading_dims(
        &self,
        b: &BasicMap,
        keep: usize,
        n: usize,
    ) -> Result<Option<BasicMap>> {
        let h = hash_of_basic(b);
        if let Some(bucket) = self.leading.borrow().get(&h) {
            if let Some((_, _, r)) = bucket
                .iter()
                .find(|(q, k, _)| *k == keep && q.plain_is_equal(b))
            {
                return Ok(r.clone());
            }
        }
        let m = Map::from_basic(b.clone());
        let r = if inner_dims_are_functions(&m, keep, n) {
            match m.project_out(keep, n - keep)?.basic_maps() {
                [one] => Some(one.clone()),
                _ => None,
            }
        } else {
            None
        };
        self.leading
            .borrow_mut()
            .entry(h)
            .or_default()
            .push((b.clone(), keep, r.clone()));
        Ok(r)
    }
}

/// Whether every disjunct of `set` is shown inside `ctx` (one basic set)
/// by linear programming over the disjunct's rational relaxation (its rows
/// and the defining rows of its divisions): each row `r >= 0` of `ctx`
/// (an equality as two) has a rational minimum `> -1` there, so `r >= 0`
/// at every integer point (`r` takes integer values). A division of `ctx`
/// is read as a division of the disjunct with the same definition (on the
/// variables only). `false`: not shown (a row below, or a division the
/// disjunct does not have), and the engine's inclusion test decides. The
/// recursion asks this of a piece at the next level, where the context
/// only gains rows the piece implies: the engine would first look for an
/// integer point of the piece outside the context.
fn inside_by_lp(set: &Map, ctx: &Map) -> presburger::Result<bool> {
    let [c] = ctx.basic_maps() else {
        return Ok(false);
    };
    let base_c = c.off_div();
    for b in set.basic_maps() {
        let base = b.off_div();
        if base != base_c {
            return Ok(false);
        }
        // ctx's divisions as the disjunct's columns
        let mut cols = Vec::with_capacity(c.n_div());
        for d in c.divs() {
            let Some(d) = d else { return Ok(false) };
            if d.num[base_c..].iter().any(|v| !v.is_zero()) {
                return Ok(false);
            }
            let found = b.divs().iter().position(|e| {
                e.as_ref().is_some_and(|e| {
                    e.den == d.den
                        && e.num[..base] == d.num[..base]
                        && e.num[base..].iter().all(Int::is_zero)
                })
            });
            match found {
                Some(j) => cols.push(base + j),
                None => return Ok(false),
            }
        }
        let len = b.row_len();
        let mut t = presburger::simplex::Tableau::new(len - 1);
        let mut div_rows = Vec::new();
        for (k, d) in b.divs().iter().enumerate() {
            if let Some(d) = d {
                let mut d = d.clone();
                d.num.resize(len, Int::ZERO);
                div_rows.extend(d.bounds(base + k));
            }
        }
        for (eq, r) in b.eqs().iter().map(|r| (true, r)).chain(
            b.ineqs()
                .iter()
                .chain(div_rows.iter().map(|r| &r[..]))
                .map(|r| (false, r)),
        ) {
            if eq {
                t.add_eq(r)?;
            } else {
                t.add_ineq(r)?;
            }
            if t.is_empty() {
                break;
            }
        }
        if t.is_empty() {
            // (no rational point: no integer point either)
            continue;
        }
        let in_b = |r: &[Int], negate: bool| -> Vec<Int> {
            let mut out = vec![Int::ZERO; len];
            for (k, v) in r.iter().enumerate() {
                let col = if k < base_c { k } else { cols[k - base_c] };
                out[col] = if negate { -v } else { v.clone() };
            }
            out
        };
        let rows = c
            .eqs()
            .iter()
            .flat_map(|e| [(e, false), (e, true)])
            .chain(c.ineqs().iter().map(|r| (r, false)));
        for (r, negate) in rows {
            match t.minimize(&in_b(r, negate))? {
                presburger::simplex::Opt::Value(num, den) if num > -&den => {}
                _ => return Ok(false),
            }
        }
    }
    Ok(true)
}

/// Whether `a ⊆ b` (`b` of one disjunct) is shown: by linear programming
/// ([`inside_by_lp`]), else by the engine within a bounded effort (past
/// it: not shown).
fn contained(a: &Map, b: &Map) -> Result<bool> {
    let r = {
        let _scope = presburger::budget::enter(INSIDE_EFFORT);
        match inside_by_lp(a, b) {
            Ok(true) => Ok(true),
            Ok(false) => a.is_subset(b),
            Err(e) => Err(e),
        }
    };
    match r {
        Ok(x) => Ok(x),
        Err(presburger::Error::BudgetExceeded) if presburger::budget::remaining() != Some(0) => {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether each dimension `j` in `keep..n` of `s` is given, in every
/// disjunct, by one same equality `x_j = f(params, x_0..x_{keep-1})` (a
/// row with a unit coefficient on `x_j`, none on the other dimensions from
/// `keep` on nor on the locals).
fn inner_dims_are_functions(s: &Map, keep: usize, n: usize) -> bool {
    let first = 1 + s.space().params.len();
    (keep..n).all(|j| {
        let mut f: Option<Vec<Int>> = None;
        s.basic_maps().iter().all(|b| {
            let base = b.off_div();
            let row = b.eqs().iter().find(|r| {
                r[first + j].abs().is_one()
                    && (keep..n).all(|k| k == j || r[first + k].is_zero())
                    && r[base..].iter().all(Int::is_zero)
            });
            let Some(r) = row else { return false };
            let g: Vec<Int> = if r[first + j].is_neg() {
                r[..base].iter().map(|v| -v).collect()
            } else {
                r[..base].to_vec()
            };
            match &f {
                None => {
                    f = Some(g);
                    true
                }
                Some(h) => *h == g,
            }
        })
    })
}

/// Work granted to the inclusion test of [`Memo::coalesced_inside`].
const INSIDE_EFFORT: u64 = 300_000;

#[cfg(test)]
mod tests;
