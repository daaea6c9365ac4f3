//! Tests of the guess: the three versions of propagation agree, and the
//! hint is kept and re-checked.

use super::exact::guess_point_exact;
use super::reference::guess_point_simple;
use super::small::{guess_point_small, guess_point_small_in, Order, Small};
use super::*;
use crate::hint::Hint;
use crate::map::Map;
use crate::testing::{pool_with, BASE_POOL};
use proptest::prelude::*;

/// Appended to `BASE_POOL`.
const EXTRA: &[&str] = &[
    "j = 2i + n",
    "(i + j) mod 2 = 0",
    "exists (e : i = 3e + 1)",
    "exists (e : 2e <= j <= 2e + 1)",
    "j = floor((i + n) / 3)",
    "-2 <= i - 2j <= 1",
    "n >= i",
    "i >= 5",
    "n >= 3000000000 i",
    "j <= 5000000000000000000 - 4000000000000000000 n",
    "i <= 100000000000000000000",
    "3j = 2i + 4611686018427387904",
    "j >= floor((n + 9000000000000000000) / 7)",
];

/// A verified point `(params, in, out)` of `b`, or `None`.
fn guess_point(b: &BasicMap) -> Option<Vec<Int>> {
    match guess(b, true, false) {
        Guess::Point(p) => p,
        _ => None,
    }
}

/// The three versions agree, `guess` finds the same point, and its
/// `Empty` is right (checked with the exact search).
fn agree(b: &BasicMap) -> Result<(), TestCaseError> {
    // without a hint from earlier calls (the parser's, say), which
    // would answer with its own point
    let mut b = b.clone();
    b.hint = Hint::default();
    let b = &b;
    let exact = guess_point_exact(b);
    prop_assert_eq!(&exact, &guess_point_simple(b));
    match guess_point_small(b, true, false) {
        Small::Point(p) => prop_assert_eq!(&p, &exact),
        Small::NoGuess | Small::Empty => prop_assert_eq!(&exact, &None),
        Small::Overflow => {}
    }
    match guess(b, false, false) {
        Guess::Point(p) => prop_assert!(p.is_none() && exact.is_some()),
        Guess::Empty => prop_assert_eq!(b.sample_by_search().unwrap(), None),
        Guess::Unknown => prop_assert_eq!(&exact, &None),
    }
    // remembered, the point answers again (through the hint), and a
    // stale hint on a copy with one more constraint is never trusted
    let first = guess(b, true, true);
    prop_assert_eq!(&guess(b, true, false), &first);
    if let Guess::Point(Some(p)) = &first {
        let mut c = b.clone();
        let mut row = vec![Int::ZERO; c.row_len()];
        row[1] = Int::ONE; // n >= p[0] + 1
        row[0] = -&(&p[0] + &Int::ONE);
        c.ineqs.push(row);
        let exact_c = c.sample_by_search().unwrap();
        match guess(&c, true, false) {
            Guess::Point(Some(q)) => {
                prop_assert!(exact_c.is_some());
                prop_assert!(q[0] > p[0]);
            }
            Guess::Empty => prop_assert_eq!(exact_c, None),
            _ => {}
        }
    }
    // the gcd test may answer `Empty` before propagation runs
    if guess(b, false, false) != Guess::Empty {
        prop_assert_eq!(guess_point(b), exact.clone());
    }
    Ok(())
}

fn basic(text: &str) -> BasicMap {
    let m: Map = text.parse().unwrap();
    m.basic_maps()[0].clone()
}

#[test]
fn outcomes() {
    // propagation: i = 0, j = 1, then n = 2
    let b = basic("[n] -> { [i, j] : 0 <= i < j < n }");
    let p = Some(vec![Int::from(2), Int::from(0), Int::from(1)]);
    assert_eq!(guess_point_small(&b, true, false), Small::Point(p.clone()));
    assert_eq!(guess_point_small(&b, false, false), Small::Point(None));
    // a point propagation misses: i = 0, then j >= 3 and j <= -3
    let b = basic("{ [i, j] : i + j >= 3 and i - j >= 3 }");
    assert_eq!(guess_point_small(&b, true, false), Small::NoGuess);
    assert_eq!(guess(&b, false, false), Guess::Unknown);
    assert!(!b.is_empty().unwrap());
    // an equality the guess cannot meet: 2j = 1 once i = 0
    let b = basic("{ [i, j] : 2j = i + 1 }");
    assert_eq!(guess_point_small(&b, true, false), Small::NoGuess);
    // a parity conflict (gcd test) and a false constant row
    let mut b = basic("{ [i, j] : i >= 0 }");
    b.eqs.push(vec![Int::from(-1), Int::from(2), Int::from(-2)]);
    assert_eq!(guess(&b, true, false), Guess::Empty);
    let mut b = basic("{ [i] : i >= 0 }");
    b.ineqs.push(vec![Int::from(-1), Int::ZERO]);
    assert_eq!(guess_point_small(&b, true, false), Small::Empty);
    // coefficients beyond i64: the exact version answers
    let b = basic("{ [i] : i >= 100000000000000000000 }");
    assert_eq!(guess_point_small(&b, true, false), Small::Overflow);
    let big: Int = "100000000000000000000".parse().unwrap();
    assert_eq!(guess_point(&b), Some(vec![big]));
    // a value beyond i64 from small coefficients
    let b = basic("{ [i, j] : i >= 9223372036854775807 and j >= 2i }");
    assert_eq!(guess_point_small(&b, true, false), Small::Overflow);
    assert_eq!(guess(&b, false, false), Guess::Point(None));
    // more columns than the bit sets hold: the exact version answers
    let dims: Vec<String> = (0..40).map(|k| format!("x{k}")).collect();
    let chain: Vec<String> = dims
        .windows(2)
        .map(|w| format!("{} < {}", w[0], w[1]))
        .collect();
    let b = basic(&format!(
        "{{ [{}] : x0 >= 0 and {} }}",
        dims.join(", "),
        chain.join(" and ")
    ));
    assert_eq!(guess_point_small(&b, true, false), Small::Overflow);
    let p = guess_point(&b).expect("propagation finds 0, 1, ..., 39");
    assert_eq!(p, (0..40).map(Int::from).collect::<Vec<_>>());
}

#[test]
fn hint_is_kept_and_rechecked() {
    let b = basic("[n] -> { [i, j] : 0 <= i < j < n }");
    assert!(b.hint.get().is_none());
    let p = b.sample().unwrap().expect("a point");
    assert!(!b.is_empty().unwrap());
    // the point (locals included) is kept, and answers the next calls
    let h = b.hint.get().expect("a hint");
    assert_eq!(h.len(), b.row_len() - 1);
    assert_eq!(b.sample().unwrap(), Some(p.clone()));
    // a copy constrained so that the hint no longer holds: re-checked, not trusted
    let mut c = b.clone();
    assert!(c.hint.get().is_some());
    let mut row = vec![Int::ZERO; c.row_len()];
    row[2] = Int::ONE; // i >= 5
    row[0] = Int::from(-5);
    c.ineqs.push(row);
    assert!(!satisfies(&c, &h));
    let q = c.sample().unwrap().expect("still non-empty");
    assert!(q[1] >= Int::from(5), "{q:?}");
    // made empty: the stale hint must not answer
    let mut row = vec![Int::ZERO; c.row_len()];
    row[1] = Int::from(-1); // n <= 3
    row[0] = Int::from(3);
    c.ineqs.push(row);
    assert!(c.is_empty().unwrap());
}

/// Propagation with the parameters last finds what column order misses
/// (a parameter fixed by its own lower bound before the dimensions ask
/// more of it), and its point is a point.
#[test]
fn parameters_last() {
    let b = basic("[N, M] -> { [i] : 1 <= i < N and i <= 3 and N >= 1 }");
    assert_eq!(guess_point_small(&b, true, false), Small::NoGuess);
    let p = vec![Int::from(2), Int::ZERO, Int::ONE];
    assert_eq!(
        guess_point_small_in(&b, true, false, Order::ParamsLast),
        Small::Point(Some(p.clone()))
    );
    assert!(b.contains_point(&p).unwrap());
    assert_eq!(
        guess_again(&b, true, false, Order::ParamsLast),
        Guess::Point(Some(p))
    );
    // column order is the rule of `guess_point_small`
    let b = basic("[n] -> { [i, j] : 0 <= i < j < n }");
    assert_eq!(
        guess_point_small_in(&b, true, false, Order::Columns),
        guess_point_small(&b, true, false)
    );
}

/// Propagation from the last column finds what both other orders miss in a
/// relation whose range is ordered against its domain (`o2 < p`, with
/// `p` bounded only from below and by a parameter), and its point is a
/// point (`trace-is_empty-106`).
#[test]
fn range_first() {
    let b = basic(
        "[NR, NQ, NP] -> { S1[r, q, p, s] -> S2[r, q, o2 = s] : 0 <= r < NR and 0 <= q < NQ \
         and 0 <= p < NP and 0 <= s < NP and o2 < p }",
    );
    for order in [Order::Columns, Order::ParamsLast] {
        assert_eq!(
            guess_point_small_in(&b, true, false, order),
            Small::NoGuess,
            "{order:?}"
        );
    }
    let Small::Point(Some(p)) = guess_point_small_in(&b, true, false, Order::Reversed) else {
        panic!("no point from the last column");
    };
    assert!(b.contains_point(&p).unwrap(), "{p:?}");
    assert_eq!(p[5], Int::ONE, "p takes the bound o2 = 0 asks: {p:?}");
}

/// In the orders of `guess_again`, a bound is moved to the first value an
/// equality with one other open column can be solved at: `t1 mod 2 = 0`
/// with `5 <= t1` gives `t1 = 6`; column order takes 5 and finds nothing
/// (`trace-is_empty-353`).
#[test]
fn bounds_meet_congruences() {
    for text in [
        "[t1, b] -> { [i0, i1, i2, i3] : (t1) mod 2 = 0 and 0 <= b <= 1 and 5 <= t1 <= 8 }",
        "[t1] -> { [i] : exists (e : t1 = 2e) and 5 <= t1 <= 8 and 0 <= i <= t1 }",
        "{ [i, j] : (i) mod 32 = 0 and (j - i) mod 3 = 0 and 3 <= i <= 40 and j >= i + 1 }",
    ] {
        let b = basic(text);
        assert_eq!(guess_point_small(&b, true, false), Small::NoGuess, "{text}");
        let found = [Order::ParamsLast, Order::Reversed]
            .into_iter()
            .any(|order| match guess_point_small_in(&b, true, false, order) {
                Small::Point(Some(p)) => {
                    assert!(b.contains_point(&p).unwrap(), "{order:?} {p:?} of {text}");
                    true
                }
                _ => false,
            });
        assert!(found, "no point of {text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Propagation in either order is never wrong: its point lies in the
    /// set (checked by an exact membership test), its `Empty` is empty
    /// (exact search), and a second propagation never answers `Empty`.
    #[test]
    fn every_order_is_sound(picks in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 1..7)) {
        let pool = pool_with(EXTRA);
        let cons: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
        let text = format!("[n, m] -> {{ [i, j] : {} and m <= n + i }}", cons.join(" and "));
        let m: Map = text.parse().unwrap();
        for b in m.basic_maps() {
            let mut b = b.clone();
            b.hint = Hint::default();
            for order in [Order::Columns, Order::ParamsLast, Order::Reversed] {
                match guess_point_small_in(&b, true, false, order) {
                    Small::Point(Some(p)) => {
                        prop_assert!(b.contains_point(&p).unwrap(), "{:?} {:?} of {}", order, p, text);
                    }
                    Small::Empty => prop_assert_eq!(b.sample_by_search().unwrap(), None, "{}", text),
                    _ => {}
                }
                match guess_again(&b, true, false, order) {
                    Guess::Point(Some(p)) => prop_assert!(b.contains_point(&p).unwrap(), "{}", text),
                    Guess::Point(None) | Guess::Empty => prop_assert!(false, "{}", text),
                    Guess::Unknown => {}
                }
            }
        }
    }

    #[test]
    fn guess_point_matches_simple(picks in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 0..7)) {
        let pool = pool_with(EXTRA);
        let cons: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
        let text = if cons.is_empty() {
            "[n] -> { [i, j] }".to_string()
        } else {
            format!("[n] -> {{ [i, j] : {} }}", cons.join(" and "))
        };
        let m: Map = text.parse().unwrap();
        for b in m.basic_maps() {
            agree(b)?;
            let mut s = b.clone();
            if s.simplify() {
                agree(&s)?;
                // without `refute` on the simplified rows: the same point
                // as the full guess, and an `Empty` that the search confirms
                s.hint = Hint::default();
                let full = guess(&s, true, false);
                match guess_simplified(&s, true, false) {
                    Guess::Point(p) => prop_assert_eq!(Guess::Point(p), full, "{}", text),
                    Guess::Empty => prop_assert_eq!(s.sample_by_search().unwrap(), None, "{}", text),
                    Guess::Unknown => prop_assert!(!matches!(full, Guess::Point(_)), "{}", text),
                }
            }
        }
    }
}

/// A point the exact search finds (propagation finds none here) is kept
/// on the basic map, its existentials completed, so the next call is a
/// check; a copy made empty does not trust it.
#[test]
fn searched_point_is_kept() {
    let b = basic(
        "[N] -> { [i0, i1, i5] : exists (e0, e1 : i1 = 3e0 + 1 and 0 <= i1 < N \
         and 2e1 <= N <= 2e1 + 1 and 0 <= i5 < e1 and i0 = 2) }",
    );
    assert_eq!(guess(&b, false, false), Guess::Unknown);
    assert!(!b.is_empty().unwrap());
    let h = b.hint.get().expect("the searched point is kept");
    assert!(satisfies(&b, &h));
    assert!(matches!(guess(&b, false, false), Guess::Point(_)));
    let mut c = b.clone();
    let mut row = vec![Int::ZERO; c.row_len()];
    row[1] = Int::from(-1); // N <= 1
    row[0] = Int::from(1);
    c.ineqs.push(row);
    assert!(c.is_empty().unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Emptiness and samples asked twice (the second time answered by the
    /// point kept from the first, when there is one) agree with the first
    /// answer, and every kept point satisfies the constraints.
    #[test]
    fn kept_points_answer_alike(picks in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 1..7)) {
        let pool = pool_with(EXTRA);
        let cons: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
        let m: Map = format!("[n] -> {{ [i, j] : {} }}", cons.join(" and ")).parse().unwrap();
        for b in m.basic_maps() {
            let mut fresh = b.clone();
            fresh.hint = Hint::default();
            let first = fresh.is_empty().unwrap();
            if let Some(h) = fresh.hint.get() {
                prop_assert!(satisfies(&fresh, &h));
            }
            prop_assert_eq!(fresh.is_empty().unwrap(), first);
            // a copy without its last inequality keeps the hint, which must
            // not answer for it (an emptiness proof is of the rows it copied)
            let mut fewer = fresh.clone();
            if fewer.ineqs.pop().is_some() {
                let mut oracle = fewer.clone();
                oracle.hint = Hint::default();
                prop_assert_eq!(fewer.is_empty().unwrap(), oracle.is_empty().unwrap());
            }
            // optima asked twice (the second time answered by what the first
            // kept) agree with those of a copy without kept findings
            let fm = Map::from_basic(fresh.clone());
            let mut plain = fresh.clone();
            plain.hint = Hint::default();
            let want = Map::from_basic(plain).lexmin();
            for _ in 0..2 {
                match (fm.lexmin(), &want) {
                    (Ok(got), Ok(want)) => {
                        prop_assert!(got.is_equal(want).unwrap(), "{} vs {}", got, want)
                    }
                    (got, want) => prop_assert!(got.is_err() && want.is_err(), "{:?} vs {:?}", got, want),
                }
            }
            let p = fresh.sample().unwrap();
            prop_assert_eq!(p.is_none(), first);
            if let Some(p) = p {
                let mut q = b.clone();
                for (k, v) in p.iter().enumerate() {
                    let mut row = vec![Int::ZERO; q.row_len()];
                    row[1 + k] = Int::ONE;
                    row[0] = -v;
                    q.eqs.push(row);
                }
                prop_assert!(!q.is_empty().unwrap(), "{:?} not in {:?}", p, b);
            }
        }
    }
}

/// An empty basic map found empty by the search keeps the proof (its rows):
/// asked again it answers by comparing rows; with a row changed in place
/// the proof no longer applies.
#[test]
fn emptiness_proof_is_kept_for_its_rows() {
    // trace-is_empty-72: rationally non-empty, without an integer point
    let b = basic(
        "[N, M] -> { [i0, i1, i2, i3, 1, i1, i2, i3, i8, i9, i10, i11, 0, i9, i10, i11] : exists (e0, e1, e2, e3, e4 : i11 = i10 + 2e4 - 3 and i9 = 4e3 and i3 = 2e2 and i2 = 2e1 + 1 and i1 = 4e0 and i8 = 0 and i0 = 0 and i8 = i0 and i9 = i1 and i1 >= 0 and i1 <= i2 < N and 0 <= i3 < M and i3 <= i2 and i2 <= 3 and i9 <= i10 <= i9 + 3 and 4 <= i10 < N and i10 < i11 < M and i11 <= i10 + 3 and i10 < i2) }",
    );
    assert_eq!(guess(&b, false, false), Guess::Unknown);
    assert!(!b.known_empty());
    assert!(b.is_empty().unwrap());
    assert!(b.known_empty());
    let mut c = b.clone();
    assert!(c.known_empty(), "a copy shares the proof");
    let last = c.ineqs.len() - 1;
    c.ineqs[last][0] = &c.ineqs[last][0] + &Int::from(100);
    assert!(!c.known_empty(), "changed rows: not trusted");
}
