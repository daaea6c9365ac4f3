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

/// Whether two sets are written the same way.
pub(super) fn same_written(a: &Map, b: &Map) -> bool {
    a.space() == b.space()
        && a.basic_maps().len() == b.basic_maps().len()
        && a.basic_maps()
            .iter()
            .zip(b.basic_maps())
            .all(|(x, y)| same_disjunct(x, y))
}

fn same_disjunct(x: &BasicMap, y: &BasicMap) -> bool {
    x.divs() == y.divs() && x.eqs() == y.eqs() && x.ineqs() == y.ineqs()
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

/// Remembered [`Memo::lex_after`]: the two disjuncts (as their
/// representatives), the dimensions tested and the answer.
type LexAnswer = (BasicMap, BasicMap, Vec<usize>, bool);

/// Remembered [`Memo::disjoint`]: the two disjuncts (as their
/// representatives) and the answer.
type PairAnswer = (BasicMap, BasicMap, bool);

/// Remembered answers of one generation.
#[derive(Default)]
pub(super) struct Memo {
    /// Disjuncts known to have the same points as an earlier disjunct (its
    /// representative), by the hash of the disjunct: the disjuncts of
    /// [`Memo::coalesced_inside`]'s answer computed disjunct by disjunct
    /// (a disjunct inside the context, simplified).
    same_points: RefCell<HashMap<u64, Vec<(BasicMap, BasicMap)>>>,
    /// Answers of [`Memo::lex_after`], by the hashes of the representatives.
    lex: RefCell<HashMap<u64, Vec<LexAnswer>>>,
    /// Answers of [`Memo::disjoint`], by the hashes of the representatives.
    disjoint: RefCell<HashMap<u64, Vec<PairAnswer>>>,
    /// Inputs and their `coalesce_simplified`, by the hash of the input.
    coalesced: RefCell<HashMap<u64, Vec<(Map, Map)>>>,
    /// Basic sets and their [`Memo::leading_dims`] (with the number of
    /// dimensions kept), by the hash of the input.
    leading: RefCell<HashMap<u64, Vec<Leading>>>,
}

impl Memo {
    /// `m.coalesce_simplified()`, computed once per written value of `m`.
    pub(super) fn coalesced(&self, m: &Map) -> Result<Map> {
        let h = hash_of(m);
        if let Some(bucket) = self.coalesced.borrow().get(&h) {
            if let Some((_, c)) = bucket.iter().find(|(q, _)| same_written(q, m)) {
                // (an answer remembered as its own: checked in debug and
                // unit-test builds)
                if cfg!(any(test, debug_assertions)) && same_written(m, c) {
                    assert!(
                        same_written(&m.coalesce_simplified()?, c),
                        "coalesce_simplified changed its own answer {m}"
                    );
                }
                return Ok(c.clone());
            }
        }
        let c = m.coalesce_simplified()?;
        let mut memo = self.coalesced.borrow_mut();
        memo.entry(h).or_default().push((m.clone(), c.clone()));
        if !same_written(&c, m) {
            let hc = hash_of(&c);
            let bucket = memo.entry(hc).or_default();
            if !bucket.iter().any(|(q, _)| same_written(q, &c)) {
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
                .any(|(q, c)| same_written(q, m) && same_written(c, m))
        })
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
    pub(super) fn coalesced_inside(&self, set: &Map, ctx: &Map) -> Result<Map> {
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
                            same_written(&c, &out),
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
        let out = self.coalesced(&set.intersect(ctx)?)?;
        if let ([b], [c]) = (set.basic_maps(), out.basic_maps()) {
            // one disjunct inside the context: the answer has its points
            // (noted for the order tests, which the recursion asks again)
            let inside = {
                let _scope = presburger::budget::enter(INSIDE_EFFORT);
                inside_by_lp(set, ctx)
            };
            match inside {
                Ok(true) => self.note_same_points(c, b),
                Ok(false) => {}
                Err(presburger::Error::BudgetExceeded)
                    if presburger::budget::remaining() != Some(0) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(out)
    }
}

impl Memo {
    /// The representative of `b`: the earliest disjunct noted with the same
    /// points ([`Self::note_same_points`]), or `b` itself.
    fn representative(&self, b: &BasicMap) -> BasicMap {
        let memo = self.same_points.borrow();
        memo.get(&hash_of_basic(b))
            .and_then(|bucket| {
                bucket
                    .iter()
                    .find(|(q, _)| q.space() == b.space() && same_disjunct(q, b))
            })
            .map_or_else(|| b.clone(), |(_, r)| r.clone())
    }

    /// Note that the disjunct `c` has the same points as `b`.
    fn note_same_points(&self, c: &BasicMap, b: &BasicMap) {
        if c.space() == b.space() && same_disjunct(c, b) {
            return;
        }
        let root = self.representative(b);
        if root.space() == c.space() && same_disjunct(&root, c) {
            return;
        }
        let mut memo = self.same_points.borrow_mut();
        let bucket = memo.entry(hash_of_basic(c)).or_default();
        if !bucket
            .iter()
            .any(|(q, _)| q.space() == c.space() && same_disjunct(q, c))
        {
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
        let found = self.lex.borrow().get(&h).and_then(|bucket| {
            bucket
                .iter()
                .find(|(a, b, t, _)| {
                    t == tests
                        && a.space() == rx.space()
                        && b.space() == ry.space()
                        && same_disjunct(a, &rx)
                        && same_disjunct(b, &ry)
                })
                .map(|e| e.3)
        });
        if let Some(after) = found {
            // (the engine's answer, checked in debug and unit-test builds)
            if cfg!(any(test, debug_assertions)) {
                assert_eq!(compute()?, after, "lex_after changed the answer {x} / {y}");
            }
            return Ok(after);
        }
        let after = compute()?;
        self.lex
            .borrow_mut()
            .entry(h)
            .or_default()
            .push((rx, ry, tests.to_vec(), after));
        Ok(after)
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
        let found = self.disjoint.borrow().get(&h).and_then(|bucket| {
            bucket
                .iter()
                .find(|(a, b, _)| {
                    a.space() == rx.space()
                        && b.space() == ry.space()
                        && same_disjunct(a, &rx)
                        && same_disjunct(b, &ry)
                })
                .map(|e| e.2)
        });
        if let Some(d) = found {
            // (the engine's answer, checked in debug and unit-test builds)
            if cfg!(any(test, debug_assertions)) {
                assert_eq!(compute()?, d, "disjoint changed the answer {x:?} / {y:?}");
            }
            return Ok(d);
        }
        let d = compute()?;
        self.disjoint
            .borrow_mut()
            .entry(h)
            .or_default()
            .push((rx, ry, d));
        Ok(d)
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
                    same_written(&c, &out),
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
                .find(|(q, k, _)| *k == keep && q.space() == b.space() && same_disjunct(q, b))
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
        for (eq, r) in b
            .eqs()
            .iter()
            .map(|r| (true, r))
            .chain(b.ineqs().iter().chain(&div_rows).map(|r| (false, r)))
        {
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
mod tests {
    use super::*;

    fn map(s: &str) -> Map {
        s.parse().unwrap()
    }

    #[test]
    fn remembered_answer_is_the_engines() {
        let memo = Memo::default();
        let inputs = [
            "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i; [i, j] : 0 <= i < N and i < j < N }",
            "[N] -> { [i, j] : exists (e : i = 2e and 0 <= i < N and 0 <= j < 4); [i, j] : 0 <= i < N and 2 <= j < 4 }",
            "{ [i] : 0 <= i <= 10; [i] : 5 <= i <= 20 }",
        ];
        for _ in 0..2 {
            for s in inputs {
                let m = map(s);
                let direct = m.coalesce_simplified().unwrap();
                let remembered = memo.coalesced(&m).unwrap();
                assert!(same_written(&remembered, &direct), "{s}");
            }
        }
        // one entry per input, and one per answer written otherwise
        let n: usize = memo.coalesced.borrow().values().map(Vec::len).sum();
        let rewritten = inputs
            .iter()
            .filter(|s| !same_written(&map(s).coalesce_simplified().unwrap(), &map(s)))
            .count();
        assert_eq!(n, inputs.len() + rewritten);
        assert!(rewritten > 0);
        // an answer asked again is the engine's answer to it
        for s in inputs {
            let c = map(s).coalesce_simplified().unwrap();
            let again = memo.coalesced(&c).unwrap();
            assert!(
                same_written(&again, &c.coalesce_simplified().unwrap()),
                "{s}"
            );
        }
        let m: usize = memo.coalesced.borrow().values().map(Vec::len).sum();
        assert_eq!(m, n);
    }

    #[test]
    fn answers_asked_again_in_a_generation() {
        // tiled loops with strides and a disjunctive guard: the recursion
        // asks to coalesce some of its own answers (each such use is
        // checked against the engine in this build)
        let schedule = "[N, M] -> { S0[ii, i, j] -> [0, ii, i, j, 0] : (i) mod 2 = 0 and \
            (j) mod 2 = 0 and (ii) mod 4 = 0 and ii <= i <= ii + 3 and 0 <= i < N and \
            0 <= j < M and i - 3 <= j <= i + 3; S0[ii, i, j] -> [0, ii, i, j, 0] : \
            (i - j + 1) mod 2 = 0 and (ii) mod 4 = 0 and ii <= i <= ii + 3 and 0 <= i < N \
            and i < j < M and j <= i + 3; S1[ii, i, j] -> [0, ii, i, j, 1] : (ii) mod 4 = 0 \
            and (j) mod 2 = 0 and (i - 1) mod 2 = 0 and ii <= i < N and 0 <= j < M and \
            i - 3 <= j <= i and ii >= 0 and i <= ii + 3; S3[i] -> [2, i, 0, 0, 0] : \
            0 <= i < N and i <= 3; S3[i] -> [2, i, 0, 0, 0] : 0 <= i < N and i >= N - 2 }"
            .parse()
            .unwrap();
        let context = "[N, M] -> { : N >= 0 and M >= 0 }".parse().unwrap();
        let code = crate::generate(&schedule, &context).unwrap();
        assert!(code.to_c().contains("S1(c1, c2, c3)"), "{}", code.to_c());
    }

    #[test]
    fn inside_the_context_disjunct_by_disjunct() {
        let memo = Memo::default();
        // two disjuncts that do not fuse (a parity on one of them)
        let set = memo
            .coalesced(&map(
                "[N] -> { [i, j] : exists (e : i = 2e and 0 <= i < N and \
                0 <= j <= i); [i, j] : 0 <= i < N and i < j < N }",
            ))
            .unwrap();
        assert_eq!(set.basic_maps().len(), 2);
        assert!(memo.is_own_answer(&set));
        // a context the set lies inside (rows it implies), and one it does not
        let inside = map("[N] -> { [i, j] : i >= 0 and j >= 0 and N >= 1 }");
        let outside = map("[N] -> { [i, j] : i >= 1 }");
        for ctx in [&inside, &outside] {
            let direct = set.intersect(ctx).unwrap().coalesce_simplified().unwrap();
            let got = memo.coalesced_inside(&set, ctx).unwrap();
            assert!(same_written(&got, &direct), "{got} vs {direct}");
            assert!(got.is_equal(&set.intersect(ctx).unwrap()).unwrap());
        }
        // not an answer of the memo: coalesced whole
        let raw =
            map("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 3; [i, j] : 4 <= i <= 7 and 0 <= j <= 3 }");
        assert!(!memo.is_own_answer(&raw));
        let got = memo
            .coalesced_inside(&raw, &map("{ [i, j] : i >= 0 }"))
            .unwrap();
        assert_eq!(got.basic_maps().len(), 1);
    }

    #[test]
    fn projection_of_functions_disjunct_by_disjunct() {
        let memo = Memo::default();
        // [t0, t1, i0, i1]: the coordinates equal to the times
        let set = memo
            .coalesced(&map("[N] -> { [t0, t1, i0, i1] : i0 = t0 and i1 = t1 and \
                exists (e : t0 = 2e and 0 <= t0 < N and 0 <= t1 <= t0); [t0, t1, i0, i1] : \
                i0 = t0 and i1 = t1 and 0 <= t0 < N and t0 < t1 < N }"))
            .unwrap();
        assert_eq!(set.basic_maps().len(), 2);
        assert!(inner_dims_are_functions(&set, 2, 4));
        assert!(!inner_dims_are_functions(&set, 1, 4));
        for keep in [1, 2, 3] {
            let direct = project_keep(&set, keep, 4)
                .unwrap()
                .coalesce_simplified()
                .unwrap();
            let got = memo.coalesced_projection(&set, keep, 4).unwrap();
            assert!(same_written(&got, &direct), "{keep}: {got} vs {direct}");
        }
    }

    #[test]
    fn leading_dims_of_substituted_coordinates() {
        let memo = Memo::default();
        // [t0, t1, i0, i1]: the coordinates are the times (one of them
        // negated), with a parity on a time
        let set = map("[N] -> { [t0, t1, i0, i1] : i0 = t0 and i1 = -t1 and \
            exists (e : t0 = 2e and 0 <= t0 < N and 0 <= t1 <= t0) }");
        let b = &set.basic_maps()[0];
        let got = memo.leading_dims(b, 2, 4).unwrap().expect("substitutions");
        assert_eq!(got.space().n_out(), 2);
        let expected: Map = "[N] -> { [t0, t1] : exists (e : t0 = 2e and 0 <= t0 < N and \
            0 <= t1 <= t0) }"
            .parse()
            .unwrap();
        assert!(Map::from_basic(got.clone()).is_equal(&expected).unwrap());
        // asked again: the remembered answer
        let again = memo.leading_dims(b, 2, 4).unwrap().unwrap();
        assert!(same_disjunct(&again, &got));
        // a coordinate that is not a unit substitution of the others
        let not = map(
            "[N] -> { [t0, t1, i0, i1] : t0 = 2i0 and i1 = t1 and 0 <= t0 < N and \
            0 <= t1 <= t0 }",
        );
        assert!(memo
            .leading_dims(&not.basic_maps()[0], 2, 4)
            .unwrap()
            .is_none());
        // nor a coordinate tied to a local
        let local =
            map("{ [t0, i0] : exists (e : i0 = t0 + 2e and 0 <= t0 <= 5 and 0 <= i0 <= 1) }");
        assert!(memo
            .leading_dims(&local.basic_maps()[0], 1, 2)
            .unwrap()
            .is_none());
    }

    #[test]
    fn inside_shown_by_linear_programming() {
        // a parity piece and a context with the same division, rows the
        // piece implies only in combination (i <= N + 2 from i <= j + 3 and
        // j < N) and one it does not
        let set = map(
            "[N] -> { [i, j] : exists (e : i = 2e and 0 <= j < N and j <= i <= j + 3); \
            [i, j] : 0 <= i < N and i < j < N }",
        );
        let ctx = |s: &str| -> Map { s.parse().unwrap() };
        let inside = ctx("[N] -> { [i, j] : i >= 0 and i <= N + 2 and N >= 1 }");
        let outside = ctx("[N] -> { [i, j] : i >= 1 }");
        for (c, want) in [(&inside, true), (&outside, false)] {
            assert_eq!(set.is_subset(c).unwrap(), want);
            assert_eq!(inside_by_lp(&set, c).unwrap(), want, "{c}");
        }
        // only the parity piece, with a context that has its division
        let even =
            map("[N] -> { [i, j] : exists (e : i = 2e and 0 <= j < N and j <= i <= j + 3) }");
        let parity = ctx("[N] -> { [i, j] : i mod 2 = 0 and j >= 0 }");
        assert!(even.is_subset(&parity).unwrap());
        let shown = inside_by_lp(&even, &parity).unwrap();
        // (shown only when the engine wrote the piece's local as the same
        // division; never claimed wrongly)
        assert!(!shown || even.is_subset(&parity).unwrap());
        // a division the piece does not have: not shown
        let thirds = ctx("[N] -> { [i, j] : i mod 3 = 0 }");
        assert!(!inside_by_lp(&even, &thirds).unwrap());
        assert!(!even.is_subset(&thirds).unwrap());
    }

    #[test]
    fn lex_answers_shared_by_disjuncts_with_the_same_points() {
        let memo = Memo::default();
        // a disjunct inside the context: coalesced_inside's disjunct of it
        // has its points, written otherwise
        let set = memo
            .coalesced(&map(
                "[N] -> { [i, j] : exists (e : i = 2e and 0 <= i < N and 0 <= j <= i); \
                [i, j] : 0 <= i < N and i < j < N }",
            ))
            .unwrap();
        let ctx = map("[N] -> { [i, j] : i >= 0 and j >= 0 and N >= 1 }");
        let inside = memo.coalesced_inside(&set, &ctx).unwrap();
        assert_eq!(inside.basic_maps().len(), 2);
        for (b, c) in set.basic_maps().iter().zip(inside.basic_maps()) {
            let rb = memo.representative(b);
            let rc = memo.representative(c);
            assert!(same_disjunct(&rb, &rc), "{rb:?} / {rc:?}");
            assert!(Map::from_basic(b.clone())
                .is_equal(&Map::from_basic(c.clone()))
                .unwrap());
        }
        // an answer is computed once per pair of representatives and tests
        let (x, y) = (&set.basic_maps()[0], &set.basic_maps()[1]);
        let (x2, y2) = (&inside.basic_maps()[0], &inside.basic_maps()[1]);
        let calls = std::cell::Cell::new(0);
        let answer = |v: bool| {
            let calls = &calls;
            move || {
                calls.set(calls.get() + 1);
                Ok(v)
            }
        };
        assert!(memo.lex_after(x, y, &[0, 1], answer(true)).unwrap());
        // (the check of unit-test builds computes it again: same answer)
        assert!(memo.lex_after(x2, y2, &[0, 1], answer(true)).unwrap());
        assert_eq!(calls.get(), 2);
        // other tests, or the pair the other way: other questions
        assert!(!memo.lex_after(x2, y2, &[1], answer(false)).unwrap());
        assert!(!memo.lex_after(y2, x2, &[0, 1], answer(false)).unwrap());
        assert_eq!(calls.get(), 4);
    }

    #[test]
    fn disjoint_answers_shared_by_disjuncts_with_the_same_points() {
        let memo = Memo::default();
        // single disjuncts inside the context: coalesced_inside's answer
        // has their points, written otherwise (the context's rows added)
        let ctx = map("[N] -> { [i, j] : i >= 0 and j >= 0 and N >= 1 }");
        let x = map("[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }");
        let y = map("[N] -> { [i, j] : 0 <= i < N and i < j < N }");
        let z = map("[N] -> { [i, j] : 0 <= i < N and 0 <= j < N }");
        let mut inside = Vec::new();
        for s in [&x, &y, &z] {
            let c = memo.coalesced_inside(s, &ctx).unwrap();
            let (b, c1) = (&s.basic_maps()[0], &c.basic_maps()[0]);
            assert!(same_disjunct(
                &memo.representative(c1),
                &memo.representative(b)
            ));
            inside.push(c1.clone());
        }
        // not inside the context: not noted
        let w = map("[N] -> { [i, j] : -5 <= i < N and 0 <= j < N }");
        let cw = memo.coalesced_inside(&w, &ctx).unwrap();
        assert!(!Map::from_basic(cw.basic_maps()[0].clone())
            .is_equal(&w)
            .unwrap());
        assert!(!same_disjunct(
            &memo.representative(&cw.basic_maps()[0]),
            &w.basic_maps()[0]
        ));
        let calls = std::cell::Cell::new(0);
        let ask = |a: &Map, b: &Map| {
            calls.set(calls.get() + 1);
            Ok(a.intersect(b)?.is_empty()?)
        };
        let (bx, by, bz) = (&x.basic_maps()[0], &y.basic_maps()[0], &z.basic_maps()[0]);
        assert!(memo.disjoint(bx, by, || ask(&x, &y)).unwrap());
        assert!(!memo.disjoint(bx, bz, || ask(&x, &z)).unwrap());
        assert_eq!(calls.get(), 2);
        // the same pairs, by other disjuncts with the same points and in the
        // other order: remembered (the check of unit-test builds computes
        // them again, with the same answers)
        assert!(memo
            .disjoint(&inside[1], &inside[0], || ask(&y, &x))
            .unwrap());
        assert!(!memo.disjoint(&inside[2], bx, || ask(&z, &x)).unwrap());
        assert_eq!(calls.get(), 4);
        // another pair: computed
        assert!(!memo.disjoint(by, bz, || ask(&y, &z)).unwrap());
        assert_eq!(calls.get(), 5);
        let n: usize = memo.disjoint.borrow().values().map(Vec::len).sum();
        assert_eq!(n, 3);
    }

    #[test]
    fn written_forms_are_told_apart() {
        // the same set written two ways: two questions
        let a = map("{ [i] : 0 <= i <= 10 }");
        let b = map("{ [i] : 0 <= i <= 10 and i <= 12 }");
        assert!(a.is_equal(&b).unwrap());
        assert!(!same_written(&a, &b));
        assert!(same_written(&a, &a.clone()));
        assert_eq!(hash_of(&a), hash_of(&a.clone()));
    }
}
