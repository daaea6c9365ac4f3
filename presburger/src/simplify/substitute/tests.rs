//! Unit existentials substituted (also into definitions, or forgetting
//! them), duplicate existentials and definitions merged: each answer of
//! [`BasicMap::simplify`] compared with brute-force membership of the rows as
//! given (every local searched in a box), and every definition it keeps
//! checked against the points of its rows.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::space::{Space, Tuple};

/// Dimensions are tried in `-DIM..=DIM`, locals searched in `-LOCAL..=LOCAL`
/// (the sets below bound every local to that box; simplification keeps
/// locals of the input, with their values, so theirs stay in it too).
const DIM: i64 = 4;
const LOCAL: i64 = 6;

fn ints(r: &[i64]) -> Vec<Int> {
    r.iter().map(|&v| Int::from(v)).collect()
}

fn value(r: &[Int], vals: &[i64]) -> Int {
    r.iter()
        .zip(vals)
        .fold(Int::ZERO, |acc, (c, v)| &acc + &(c * &Int::from(*v)))
}

/// Every assignment `(1, point, locals)` of the locals in the box that
/// satisfies the rows of `b`, passed to `visit` until it returns true.
fn search(b: &BasicMap, vals: &mut Vec<i64>, visit: &mut impl FnMut(&[i64]) -> bool) -> bool {
    if vals.len() == b.row_len() {
        let ok = b.eqs().iter().all(|r| value(r, vals).is_zero())
            && b.ineqs().iter().all(|r| !value(r, vals).is_neg());
        return ok && visit(vals);
    }
    for v in -LOCAL..=LOCAL {
        vals.push(v);
        let done = search(b, vals, visit);
        vals.pop();
        if done {
            return true;
        }
    }
    false
}

fn member(b: &BasicMap, point: &[i64]) -> bool {
    let mut vals = vec![1];
    vals.extend_from_slice(point);
    search(b, &mut vals, &mut |_| true)
}

/// Every definition `q = floor(num / den)` of `b` holds at every solution of
/// its rows with the point in the box.
fn definitions_hold(b: &BasicMap, point: &[i64]) -> bool {
    let off = b.off_div();
    let mut vals = vec![1];
    vals.extend_from_slice(point);
    let bad = search(b, &mut vals, &mut |v| {
        b.divs().iter().enumerate().any(|(k, d)| {
            d.as_ref()
                .is_some_and(|d| value(&d.num, v).div_floor(&d.den) != Int::from(v[off + k]))
        })
    });
    !bad
}

/// Simplify `b` and check it against the rows as given on the box.
fn simplified(b: &BasicMap) -> Option<BasicMap> {
    let mut s = b.clone();
    let nonempty = s.simplify();
    let n = b.space().n_vars();
    let mut p = vec![-DIM; n];
    loop {
        let was = member(b, &p);
        assert_eq!(
            nonempty && member(&s, &p),
            was,
            "at {p:?}: {b:?} became {s:?}"
        );
        assert!(definitions_hold(&s, &p), "at {p:?}: {b:?} became {s:?}");
        let Some(k) = (0..n).rev().find(|&k| p[k] < DIM) else {
            break;
        };
        p[k] += 1;
        p[k + 1..].iter_mut().for_each(|v| *v = -DIM);
    }
    nonempty.then_some(s)
}

fn set(n: usize) -> BasicMap {
    BasicMap::universe(Space::set(vec![], Tuple::anonymous(n)))
}

#[test]
fn existential_of_its_own_division_goes() {
    // [i] : exists e: e = 4q, q = floor(e/4), e = i + 1, 0 <= e <= 6
    // (a tile of tiled_mix: `4e5 = e0` with `e5 = floor(e0/4)`)
    let mut b = set(1);
    let e = b.add_existential();
    let mut num = vec![Int::ZERO; b.row_len()];
    num[e] = Int::ONE;
    let q = b.add_div(num, Int::from(4));
    let mut r = vec![Int::ZERO; b.row_len()];
    r[e] = Int::ONE;
    r[q] = Int::from(-4);
    b.add_eq(r);
    b.add_eq(ints(&[1, 1, -1, 0]));
    b.add_ineq(ints(&[0, 0, 1, 0]));
    b.add_ineq(ints(&[6, 0, -1, 0]));
    let s = simplified(&b).expect("not empty");
    // i = 4q - 1: one local is left, q, now an existential
    assert_eq!(s.n_div(), 1, "{s:?}");
}

#[test]
fn existential_in_a_later_definition_is_substituted() {
    // [i] : exists e: e = i + 2, q = floor(e / 3), 3q = e
    let mut b = set(1);
    let e = b.add_existential();
    let mut num = vec![Int::ZERO; b.row_len()];
    num[e] = Int::ONE;
    b.add_div(num, Int::from(3));
    b.add_eq(ints(&[2, 1, -1, 0]));
    b.add_eq(ints(&[0, 0, 1, -3]));
    let s = simplified(&b).expect("not empty");
    assert_eq!(s.n_div(), 1, "{s:?}");
}

#[test]
fn equal_definitions_merge_with_one_equality() {
    // [i] : q = floor(i/2), q' = floor(i/2), 0 <= i <= 7 (nothing else
    // mentions them): before, the single equality `q - q' = 0` was left
    let mut b = set(1);
    b.add_ineq(ints(&[0, 1]));
    b.add_ineq(ints(&[7, -1]));
    let q = b.add_div(ints(&[0, 1]), Int::from(2));
    b.add_div(ints(&[0, 1, 0]), Int::from(2));
    let mut r = vec![Int::ZERO; b.row_len()];
    r[q] = Int::ONE;
    r[0] = Int::from(-1);
    b.add_ineq(r); // q >= 1
    let s = simplified(&b).expect("not empty");
    assert!(s.n_div() <= 1, "{s:?}");
}

#[test]
fn repeated_existentials_merge() {
    // [i, j] : exists a, b: i <= 3a <= i + 1 and i <= 3b <= i + 1 and j = 0
    let mut b = set(2);
    b.add_existential();
    b.add_existential();
    b.add_ineq(ints(&[0, -1, 0, 3, 0]));
    b.add_ineq(ints(&[1, 1, 0, -3, 0]));
    b.add_ineq(ints(&[0, -1, 0, 0, 3]));
    b.add_ineq(ints(&[1, 1, 0, 0, -3]));
    b.add_eq(ints(&[0, 0, 1, 0, 0]));
    let s = simplified(&b).expect("not empty");
    assert_eq!(s.n_div(), 1, "{s:?}");
}

#[test]
fn existentials_sharing_a_row_are_kept() {
    // [i] : exists a, b: 0 <= a - b <= 1 and i <= 3a and i <= 3b: not repeats
    let mut b = set(1);
    b.add_existential();
    b.add_existential();
    b.add_ineq(ints(&[0, 0, 1, -1]));
    b.add_ineq(ints(&[1, 0, -1, 1]));
    b.add_ineq(ints(&[0, -1, 3, 0]));
    b.add_ineq(ints(&[0, -1, 0, 3]));
    b.add_ineq(ints(&[2, -1, 0, 0]));
    b.add_ineq(ints(&[3, 1, 0, 0]));
    b.add_ineq(ints(&[4, 0, -1, 0]));
    b.add_ineq(ints(&[4, 0, 0, -1]));
    simplified(&b);
}

/// A small deterministic generator (a linear congruential one).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    fn coef(&mut self, m: i64) -> i64 {
        self.below((2 * m + 1) as u64) as i64 - m
    }
}

/// A random set of two dimensions with up to three locals, some defined, each
/// bounded to `[-6, 6]`, an equality with a unit coefficient on a local, and
/// sometimes a repeated existential.
fn random_set(rng: &mut Rng) -> BasicMap {
    let mut b = set(2);
    let n_local = 1 + rng.below(3) as usize;
    for _ in 0..n_local {
        if rng.below(2) == 0 {
            b.add_existential();
        } else {
            let mut num: Vec<Int> = (0..b.row_len()).map(|_| Int::from(rng.coef(2))).collect();
            num[0] = Int::from(rng.coef(3));
            b.add_div(num, Int::from(2 + rng.below(3) as i64));
        }
    }
    let off = b.off_div();
    let n = b.row_len();
    for k in 0..n_local {
        let mut lo = vec![Int::ZERO; n];
        lo[off + k] = Int::ONE;
        lo[0] = Int::from(6);
        let mut hi = vec![Int::ZERO; n];
        hi[off + k] = Int::from(-1);
        hi[0] = Int::from(6);
        b.add_ineq(lo);
        b.add_ineq(hi);
    }
    for _ in 0..1 + rng.below(2) {
        let mut r: Vec<Int> = (0..n).map(|_| Int::from(rng.coef(2))).collect();
        let k = rng.below(n_local as u64) as usize;
        r[off + k] = Int::from(if rng.below(2) == 0 { 1 } else { -1 });
        b.add_eq(r);
    }
    for _ in 0..rng.below(3) {
        let mut r: Vec<Int> = (0..n).map(|_| Int::from(rng.coef(2))).collect();
        r[0] = Int::from(rng.coef(4) + 2);
        b.add_ineq(r);
    }
    if rng.below(3) == 0 {
        // a repeat of the first existential (rows copied onto a new column)
        if let Some(a) = (0..n_local).find(|&k| b.divs()[k].is_none()) {
            let ca = off + a;
            let cb = b.add_existential();
            let copy = |rows: &crate::Rows| -> Vec<Vec<Int>> {
                rows.iter()
                    .filter(|r| !r[ca].is_zero())
                    .map(|r| {
                        let mut s = r.to_vec();
                        s.swap(ca, cb);
                        s
                    })
                    .collect()
            };
            let (eqs, ineqs) = (copy(b.eqs()), copy(b.ineqs()));
            eqs.into_iter().for_each(|r| b.add_eq(r));
            ineqs.into_iter().for_each(|r| b.add_ineq(r));
        }
    }
    b
}

#[test]
fn random_sets_keep_their_points_and_definitions() {
    let mut rng = Rng(13);
    let (mut cases, mut fewer) = (0, 0);
    for _ in 0..120 {
        let b = random_set(&mut rng);
        if let Some(s) = simplified(&b) {
            cases += 1;
            fewer += usize::from(s.n_div() < b.n_div());
        }
    }
    // the generator is built so that most sets lose a local
    assert!(cases >= 20 && 2 * fewer >= cases, "{fewer} of {cases}");
}

/// The batched substitution (columns removed at the end) leaves exactly the
/// rows, definitions and locals of the one-by-one version, on random sets
/// (before and after a first round of simplification, which puts the
/// equalities in echelon form).
#[test]
fn batched_substitution_is_the_one_by_one() {
    let mut rng = Rng(29);
    let mut changed = 0;
    for round in 0..600 {
        let mut b = random_set(&mut rng);
        if round % 2 == 1 {
            let _ = b.gauss();
        }
        let (mut fast, mut slow) = (b.clone(), b.clone());
        let got = fast.substitute_unit_existentials();
        let want = slow.substitute_unit_existentials_one_by_one();
        assert_eq!(got, want, "{b:?}");
        assert_eq!(fast.divs(), slow.divs(), "{b:?}");
        assert_eq!(fast.eqs(), slow.eqs(), "{b:?}");
        assert_eq!(fast.ineqs(), slow.ineqs(), "{b:?}");
        changed += usize::from(got);
    }
    assert!(changed > 300, "{changed}");
}

/// The comparison of repeated existentials in place (sorted references)
/// answers as the one by sorted copies with the columns swapped, on every
/// pair of locals of random sets (some with a repeated existential, some
/// with the repeat's rows in another order or one coefficient changed).
#[test]
fn repeats_in_place_is_by_copies() {
    let mut rng = Rng(41);
    let (mut pairs, mut same) = (0, 0);
    for round in 0..600 {
        let mut b = random_set(&mut rng);
        if round % 3 == 1 {
            let mut rows = b.ineqs().to_vec();
            rows.reverse();
            b.ineqs = rows.into();
        }
        if round % 5 == 2 && !b.ineqs().is_empty() {
            // one coefficient of one row changed: usually no longer a repeat
            let (i, c) = (
                rng.below(b.ineqs().len() as u64) as usize,
                1 + rng.below(b.row_len() as u64 - 1) as usize,
            );
            b.ineqs[i][c] = &b.ineqs[i][c] + &Int::ONE;
        }
        let off = b.off_div();
        for a in 0..b.n_div() {
            for k in a + 1..b.n_div() {
                let got = b.repeats(off + a, off + k);
                assert_eq!(got, b.repeats_by_copies(off + a, off + k), "{b:?} {a} {k}");
                // the lists on the stack as in vectors
                for rows in [&b.eqs, &b.ineqs] {
                    assert_eq!(
                        super::same_up_to_exchange(rows, off + a, off + k),
                        super::same_up_to_exchange_on_heap(rows, off + a, off + k),
                        "{b:?} {a} {k}"
                    );
                }
                pairs += 1;
                same += usize::from(got);
            }
        }
    }
    assert!(pairs > 300 && same > 30, "{same} of {pairs}");
}

/// More rows per column than the stack lists hold: the comparison goes to
/// the vectors and still answers (a repeat, then one constant changed).
#[test]
fn many_rows_up_to_exchange() {
    // columns: constant, x, a, b
    let mut rows = Vec::new();
    for v in 0..10i64 {
        rows.push(ints(&[v, 1, 1 + v, 0]));
        rows.push(ints(&[v, 1, 0, 1 + v]));
    }
    assert!(super::same_up_to_exchange(
        &crate::Rows::from(&rows[..]),
        2,
        3
    ));
    rows.last_mut().unwrap()[0] = Int::from(99);
    assert!(!super::same_up_to_exchange(
        &crate::Rows::from(&rows[..]),
        2,
        3
    ));
}
