//! The fast paths of the structural operations (`domain`, `range`:
//! projected variables given by a unit equality substituted before
//! simplification; `reverse`, `apply_range`: rows moved in one pass) against
//! the simple versions (`domain_reference`, `range_reference`: transform,
//! then simplify alone) and against brute force on a box.

use presburger::{Int, Map};
use proptest::prelude::*;
use testkit::oracle::contains;

/// Constraints of relations `[n] -> { [i, j] -> [k, l] }`: unit and
/// non-unit equalities between the tuples, existentials, integer divisions.
const POOL: &[&str] = &[
    "k = i + 1",
    "l = j",
    "k = 2i",
    "2l = i + j",
    "k + l = n",
    "i = k - l",
    "j = 3k + 1",
    "l = floor((i + k)/2)",
    "(i + l) mod 3 = 1",
    "exists e : k = 2e + j",
    "exists e : 2e <= l <= 2e + 1 and e >= i",
    "k <= j + n",
    "i + j <= l + 2",
    "k >= 2 - n",
    "l = n",
    "i = 1",
    "exists e : i = 2e + 1",
    "exists e : i = -2e + 2j",
];

/// Every variable bounded, so that brute force over a box decides membership.
const BOX: &str = "-3 <= i <= 3 and -3 <= j <= 3 and -4 <= k <= 4 and -4 <= l <= 4";

/// The relation `[n] -> { head : bounds and picks...; ... }` with one
/// disjunct per list of picks (`constraint(k)` the text of pick `k`), or
/// the empty relation of that space when there is none.
fn union_of<'a>(
    head: &str,
    bounds: &str,
    disjuncts: &[Vec<usize>],
    constraint: impl Fn(usize) -> &'a str,
) -> Map {
    let parts: Vec<String> = disjuncts
        .iter()
        .map(|d| {
            let mut c = vec![bounds.to_string()];
            c.extend(d.iter().map(|&k| constraint(k).to_string()));
            format!("{head} : {}", c.join(" and "))
        })
        .collect();
    let text = if parts.is_empty() {
        format!("[n] -> {{ {head} : 1 = 0 }}")
    } else {
        format!("[n] -> {{ {} }}", parts.join("; "))
    };
    text.parse().unwrap()
}

fn relation(disjuncts: &[Vec<usize>]) -> Map {
    union_of("[i, j] -> [k, l]", BOX, disjuncts, |k| POOL[k])
}

fn disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(0..POOL.len(), 0..5), 0..3)
}

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

/// The points of `m` in the box `ranges` (one range per variable,
/// parameters first), in lexicographic order.
fn points_in<const N: usize>(m: &Map, ranges: [std::ops::RangeInclusive<i64>; N]) -> Vec<[i64; N]> {
    let mut out = Vec::new();
    let mut p: [i64; N] = std::array::from_fn(|d| *ranges[d].start());
    'all: loop {
        if contains(m, &ints(&p)) {
            out.push(p);
        }
        // the next point (the last variable fastest)
        for d in (0..N).rev() {
            if p[d] < *ranges[d].end() {
                p[d] += 1;
                continue 'all;
            }
            p[d] = *ranges[d].start();
        }
        return out;
    }
}

/// True if `after` is `before` with some disjuncts left out, each of them
/// empty (the disjuncts kept in order and plainly equal).
fn dropped_empty(before: &Map, after: &Map) -> bool {
    let mut kept = after.basic_maps().iter().peekable();
    for b in before.basic_maps() {
        match kept.peek() {
            Some(a) if a.plain_is_equal(b) => {
                kept.next();
            }
            _ if b.is_empty().unwrap() => {}
            _ => return false,
        }
    }
    kept.next().is_none()
}

/// The points `(n, i, j, k, l)` of the relation on the box (n in 0..=2).
fn points(m: &Map) -> Vec<[i64; 5]> {
    points_in(m, [0..=2, -3..=3, -3..=3, -4..=4, -4..=4])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// `domain` and `range` are their simple versions (as sets, and every
    /// disjunct left non-empty by the same simplification), and both agree
    /// with brute force; `reverse` too.
    #[test]
    fn projections_agree(d in disjuncts()) {
        let m = relation(&d);
        // again on the same object: disjuncts found empty the first time
        // (kept on them) are left out at once, the others computed alike
        let dom = m.domain().unwrap();
        prop_assert!(m.domain().unwrap().plain_is_equal(&dom), "domain again of {}", m);
        let ran = m.range().unwrap();
        prop_assert!(m.range().unwrap().plain_is_equal(&ran), "range again of {}", m);
        // the range may find empty a disjunct the domain left (a projection
        // does not test emptiness): the domain asked after it leaves that
        // disjunct out, and only such disjuncts
        let after = m.domain().unwrap();
        prop_assert!(dropped_empty(&dom, &after), "domain after range of {}: {} then {}", m, dom, after);
        prop_assert!(dom.is_equal(&m.domain_reference().unwrap()).unwrap(), "domain of {}", m);
        prop_assert!(ran.is_equal(&m.range_reference().unwrap()).unwrap(), "range of {}", m);
        let rev = m.reverse().unwrap();
        let pts = points(&m);
        for n in 0..=2 {
            for a in -4..=4i64 {
                for b in -4..=4i64 {
                    let in_dom = pts.iter().any(|p| p[0] == n && p[1] == a && p[2] == b);
                    prop_assert_eq!(contains(&dom, &ints(&[n, a, b])), in_dom, "domain of {} at {:?}", m, (n, a, b));
                    let in_ran = pts.iter().any(|p| p[0] == n && p[3] == a && p[4] == b);
                    prop_assert_eq!(contains(&ran, &ints(&[n, a, b])), in_ran, "range of {} at {:?}", m, (n, a, b));
                }
            }
        }
        for p in &pts {
            prop_assert!(contains(&rev, &ints(&[p[0], p[3], p[4], p[1], p[2]])), "reverse of {} at {:?}", m, p);
        }
        prop_assert!(rev.reverse().unwrap().is_equal(&m).unwrap(), "reverse twice of {}", m);
    }

    /// `reverse` only moves the variables: reversed twice, a fresh relation
    /// is the same disjuncts with the same rows (not simplified: a
    /// simplification would bring opposite pairs together as equalities
    /// and drop redundant rows), and each reversed disjunct has the same
    /// number of rows of each kind.
    #[test]
    fn reverse_relabels(d in disjuncts()) {
        let m = relation(&d);
        let rev = m.reverse().unwrap();
        prop_assert!(rev.reverse().unwrap().plain_is_equal(&m), "reverse twice of {}", m);
        prop_assert_eq!(rev.basic_maps().len(), m.basic_maps().len());
        for (r, b) in rev.basic_maps().iter().zip(m.basic_maps()) {
            prop_assert_eq!(r.eqs().len(), b.eqs().len());
            prop_assert_eq!(r.ineqs().len(), b.ineqs().len());
        }
    }
}

/// A disjunct with equalities that contradict (`i` odd and even through
/// two locals, `trace-domain-167`), which `simplify` alone leaves: the
/// domain drops it, and keeps it as empty, so that a second domain, the
/// range and the reverse drop it at once; the answers are those of the
/// simple versions (brute force: `projections_agree` with the pool's
/// parities).
#[test]
fn contradicting_equalities_dropped() {
    let m: Map = "[N] -> { [S1[i] -> A[i + 1]] -> S0[i + 1] : exists (e0, e1, e2, e3 : \
                  i = -2e3 - 2 and i = 3e2 and i = 2e1 - 1 and i = 3e0 and 0 <= i <= N - 2); \
                  [S1[i] -> A[i + 1]] -> S0[i + 1] : exists (e0 : i = 2e0 and 0 <= i <= N) }"
        .parse()
        .unwrap();
    for _ in 0..2 {
        let d = m.domain().unwrap();
        assert_eq!(d.basic_maps().len(), 1, "{d}");
        assert!(d.is_equal(&m.domain_reference().unwrap()).unwrap());
        let r = m.range().unwrap();
        assert_eq!(r.basic_maps().len(), 1, "{r}");
        assert!(r.is_equal(&m.range_reference().unwrap()).unwrap());
        assert_eq!(m.reverse().unwrap().basic_maps().len(), 1);
    }
    // a union of disjuncts in other spaces, all empty: empty answers
    let e: Map = "[N] -> { [S4[i] -> A[i1]] -> S1[o0] : false }"
        .parse()
        .unwrap();
    assert!(e.domain().unwrap().basic_maps().is_empty());
    assert!(e.range().unwrap().basic_maps().is_empty());
    assert_eq!(e.domain().unwrap().space(), &e.space().domain_space());
}

/// Constraints of relations `[n] -> { [k, l] -> [p, q] }` (the second
/// operand of a composition): constants that clash with the first's, unit
/// and non-unit equalities, existentials, divisions.
const RIGHT: &[&str] = &[
    "k = 1",
    "l = -1",
    "k = 2",
    "p = k",
    "q = l + 1",
    "p = 2l",
    "p + q = k",
    "exists f : p = 2f + l",
    "q = floor((k + 1)/2)",
    "(k - p) mod 2 = 0",
    "p <= n",
    "q >= k - 1",
];

/// Constants for the first operand too.
const LEFT_EXTRA: &[&str] = &["k = 1", "l = 2", "k = 2", "l = -1"];

fn relation_right(disjuncts: &[Vec<usize>]) -> Map {
    union_of(
        "[k, l] -> [p, q]",
        "-4 <= k <= 4 and -4 <= l <= 4 and -3 <= p <= 3 and -3 <= q <= 3",
        disjuncts,
        |k| RIGHT[k],
    )
}

fn left_disjuncts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(
        prop::collection::vec(0..POOL.len() + LEFT_EXTRA.len(), 0..4),
        0..3,
    )
}

fn relation_left(disjuncts: &[Vec<usize>]) -> Map {
    union_of("[i, j] -> [k, l]", BOX, disjuncts, |k| {
        if k < POOL.len() {
            POOL[k]
        } else {
            LEFT_EXTRA[k - POOL.len()]
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// `apply_range` (pairs with clashing constants left out, the middle
    /// that the first operand's equalities give substituted as the rows are
    /// built) is its simple version and agrees with brute force.
    #[test]
    fn composition_agrees(l in left_disjuncts(), r in prop::collection::vec(prop::collection::vec(0..RIGHT.len(), 0..4), 0..3)) {
        let a = relation_left(&l);
        let b = relation_right(&r);
        let c = a.apply_range(&b).unwrap();
        prop_assert!(c.is_equal(&a.apply_range_reference(&b).unwrap()).unwrap(), "{} then {}", a, b);
        // `apply` (a set through a relation) takes the same join: the
        // domain of a relation through it is its range
        let through = a.domain_reference().unwrap().apply(&a).unwrap();
        prop_assert!(through.is_equal(&a.range_reference().unwrap()).unwrap(), "{}", a);
        let through = c.domain_reference().unwrap().apply(&c).unwrap();
        prop_assert!(through.is_equal(&c.range_reference().unwrap()).unwrap(), "{} then {}", a, b);
        let pa = points(&a);
        for n in 0..=2i64 {
            let pb: Vec<[i64; 4]> = points_in(&b, [n..=n, -4..=4, -4..=4, -3..=3, -3..=3])
                .into_iter()
                .map(|[_, k, l, p, q]| [k, l, p, q])
                .collect();
            for i in -3..=3i64 {
                for j in -3..=3i64 {
                    for p in -3..=3i64 {
                        for q in -3..=3i64 {
                            let want = pa.iter().any(|x| x[0] == n && x[1] == i && x[2] == j
                                && pb.iter().any(|y| y[0] == x[3] && y[1] == x[4] && y[2] == p && y[3] == q));
                            prop_assert_eq!(contains(&c, &ints(&[n, i, j, p, q])), want, "{} then {} at {:?}", a, b, (n, i, j, p, q));
                        }
                    }
                }
            }
        }
    }
}

/// Projections of three dimensions, where the dimensions substituted away
/// are not one block (the first and the last), against the simple version.
#[test]
fn projections_of_three() {
    for text in [
        "[n] -> { [i] -> [a, b, c] : a = i + 1 and c = 2 - i and 0 <= b <= 2a and b <= n }",
        "[n] -> { [i] -> [a, b, c] : a = i and 2b = i and c = n and i <= 5 }",
        "[n] -> { [i] -> [a, b, c] : c = i and exists e : a = 3e and 0 <= a - b <= n and b >= c }",
        "[n] -> { [a, b, c] -> [i] : a = i + 1 and c = 2 - i and 0 <= b <= 2a and b <= n }",
        "[n] -> { [a, b, c] -> [i] : b = floor((a + c)/2) and a = i and c = -i }",
    ] {
        let m: Map = text.parse().unwrap();
        let agree = |fast: Map, simple: Map, what: &str| {
            assert!(fast.is_equal(&simple).unwrap(), "{what} of {text}");
        };
        agree(m.domain().unwrap(), m.domain_reference().unwrap(), "domain");
        agree(m.range().unwrap(), m.range_reference().unwrap(), "range");
        let r = m.reverse().unwrap();
        agree(
            r.apply_range(&m).unwrap(),
            r.apply_range_reference(&m).unwrap(),
            "reverse then",
        );
        agree(
            m.apply_range(&r).unwrap(),
            m.apply_range_reference(&r).unwrap(),
            "then reverse",
        );
    }
}
