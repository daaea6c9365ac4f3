//! The relations of `presburger::relation` against brute force on small
//! boxes: every operation's result is enumerated point by point and each
//! point's membership compared with the operation's definition, evaluated
//! directly on the integers.

use std::cmp::Ordering;

use presburger::relation::{
    difference, is_explicit_function, join_on_range, later_at_level, lex_le_from_level,
    negate_range, permute_range, reverse_domain_factor, time_reversal, zero_padding,
    AffineSchedule,
};
use presburger::{Int, Map, Space, Tuple};
use proptest::prelude::*;
use testkit::oracle::{box_points, contains};

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

fn small(p: &[Int]) -> Vec<i64> {
    p.iter()
        .map(|v| v.to_string().parse::<i64>().unwrap())
        .collect()
}

/// `a` compared with `b` lexicographically.
fn lex(a: &[i64], b: &[i64]) -> Ordering {
    a.cmp(b)
}

#[test]
fn later_at_level_is_first_difference_at_l() {
    for n in 1..=3 {
        for l in 0..n {
            let m = later_at_level(n, l).unwrap();
            for p in box_points(2 * n, -1, 1) {
                let v = small(&p);
                let (t, u) = v.split_at(n);
                let want = t[..l] == u[..l] && t[l] > u[l];
                assert_eq!(contains(&m, &p), want, "n {n} l {l} point {v:?}");
            }
        }
        assert!(later_at_level(n, n).is_err());
    }
}

#[test]
fn later_at_levels_partition_the_strict_order() {
    for n in 1..=3 {
        let mut all = Map::empty(later_at_level(n, 0).unwrap().space().clone());
        for l in 0..n {
            all = all.union(&later_at_level(n, l).unwrap()).unwrap();
        }
        let time = Map::universe(Space::set(Vec::new(), Tuple::anonymous(n)));
        let gt = time.lex_order(&time, true, false).unwrap();
        assert!(all.is_equal(&gt).unwrap(), "n {n}: {all} vs {gt}");
    }
}

#[test]
fn lex_le_from_level_is_prefix_equal_then_not_later() {
    for n in 0..=3 {
        for l in 0..=n {
            let m = lex_le_from_level(n, l).unwrap();
            for p in box_points(2 * n, -1, 1) {
                let v = small(&p);
                let (t, u) = v.split_at(n);
                let want = t[..l] == u[..l] && lex(&t[l..], &u[l..]) != Ordering::Greater;
                assert_eq!(contains(&m, &p), want, "n {n} l {l} point {v:?}");
            }
        }
        assert!(lex_le_from_level(n, n + 1).is_err());
    }
}

#[test]
fn zero_padding_appends_zeros() {
    for n in 0..=3 {
        for k in 0..=n {
            let from = Tuple::flat(Some("R".into()), (0..k).map(|i| format!("s{i}")).collect());
            let m = zero_padding(from.into(), n).unwrap();
            assert_eq!(m.space().n_in(), k);
            for p in box_points(k + n, -1, 1) {
                let v = small(&p);
                let (s, t) = v.split_at(k);
                let want = t[..k] == *s && t[k..].iter().all(|&x| x == 0);
                assert_eq!(contains(&m, &p), want, "k {k} n {n} point {v:?}");
            }
        }
        assert!(zero_padding(Tuple::anonymous(n + 1).into(), n).is_err());
    }
}

#[test]
fn time_reversal_negates_every_dimension() {
    for k in 0..=3 {
        let from = Tuple::flat(Some("R".into()), (0..k).map(|i| format!("s{i}")).collect());
        let m = time_reversal(from.into());
        for p in box_points(2 * k, -2, 2) {
            let v = small(&p);
            let (s, t) = v.split_at(k);
            let want = s.iter().zip(t).all(|(a, b)| *b == -a);
            assert_eq!(contains(&m, &p), want, "k {k} point {v:?}");
        }
        let time = Map::universe(Space::set(Vec::new(), Tuple::anonymous(k)));
        let lt = time.lex_order(&time, true, true).unwrap();
        let rev = time_reversal(Tuple::anonymous(k).into());
        let back = rev
            .reverse()
            .unwrap()
            .apply_range(&lt)
            .unwrap()
            .apply_range(&rev)
            .unwrap();
        let gt = time.lex_order(&time, true, false).unwrap();
        assert!(back.is_equal(&gt).unwrap(), "k {k}");
    }
}

/// An affine schedule as data: per time dimension, the constant, the
/// coefficient of the parameter `n` and the instance coefficients.
#[derive(Clone, Debug)]
struct Sched {
    rows: Vec<(i64, i64, Vec<i64>)>,
}

impl Sched {
    fn dims(&self) -> usize {
        self.rows[0].2.len()
    }

    fn text(&self, name: &str) -> String {
        let d = self.dims();
        let vars: Vec<String> = (0..d).map(|k| format!("{name}{k}")).collect();
        let exprs: Vec<String> = self
            .rows
            .iter()
            .map(|(c, a, b)| {
                let mut e = format!("{c} + {a}n");
                for (k, x) in b.iter().enumerate() {
                    e += &format!(" + {x}{}", vars[k]);
                }
                e
            })
            .collect();
        format!(
            "[n] -> {{ {}[{}] -> [{}] }}",
            name.to_uppercase(),
            vars.join(", "),
            exprs.join(", ")
        )
    }

    fn map(&self, name: &str) -> Map {
        self.text(name).parse().unwrap()
    }

    fn time(&self, n: i64, x: &[i64]) -> Vec<i64> {
        self.rows
            .iter()
            .map(|(c, a, b)| c + a * n + b.iter().zip(x).map(|(u, v)| u * v).sum::<i64>())
            .collect()
    }
}

/// Schedules with `nt` time dimensions over `d` coordinates; about half
/// of the rows do not depend on the instance (constant dimensions).
fn sched(nt: usize, d: usize) -> impl Strategy<Value = Sched> {
    let row = (
        -2i64..=2,
        -1i64..=1,
        prop::collection::vec(-1i64..=2, d),
        any::<bool>(),
    )
        .prop_map(|(c, a, b, constant)| {
            if constant {
                (c, a, vec![0; b.len()])
            } else {
                (c, a, b)
            }
        });
    prop::collection::vec(row, nt).prop_map(|rows| Sched { rows })
}

fn pair() -> impl Strategy<Value = (Sched, Sched)> {
    (1usize..=3, 1usize..=2, 1usize..=2).prop_flat_map(|(nt, d, e)| (sched(nt, d), sched(nt, e)))
}

/// The two schedules in the engine, and the space of the relations from
/// the instances of the first to those of the second.
fn engine_pair(s: &Sched, t: &Sched) -> (AffineSchedule, AffineSchedule, Space) {
    let a = AffineSchedule::from_map(&s.map("x")).unwrap();
    let b = AffineSchedule::from_map(&t.map("y")).unwrap();
    let space = Space::map(
        vec!["n".to_string()],
        Tuple::anonymous(s.dims()),
        Tuple::anonymous(t.dims()),
    );
    (a, b, space)
}

/// A point `(n, x, y)` of a relation between two schedules' instances,
/// split and whole.
type PairPoint = (i64, Vec<i64>, Vec<i64>, Vec<Int>);

/// The points `(n, x, y)` of the box the pair tests enumerate.
fn pair_points(d: usize, e: usize) -> Vec<PairPoint> {
    box_points(1 + d + e, -2, 2)
        .into_iter()
        .filter(|p| small(&p[..1])[0].abs() <= 1)
        .map(|p| {
            let v = small(&p);
            (v[0], v[1..1 + d].to_vec(), v[1 + d..].to_vec(), p)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn affine_schedule_reads_the_rows(s in sched(3, 2)) {
        let a = AffineSchedule::from_map(&s.map("s")).unwrap();
        prop_assert_eq!(a.n_time(), 3);
        prop_assert_eq!(a.n_in(), 2);
        prop_assert_eq!(a.n_param(), 1);
        // Injective: no two instances of a box share a time.
        let pts = box_points(2, -2, 2);
        let mut collide = false;
        for n in -1..=1 {
            for (i, p) in pts.iter().enumerate() {
                for q in &pts[i + 1..] {
                    collide |= s.time(n, &small(p)) == s.time(n, &small(q));
                }
            }
        }
        prop_assert_eq!(a.is_injective(), !collide);
    }

    #[test]
    fn unit_coordinates_order_the_times(s in sched(3, 2)) {
        let a = AffineSchedule::from_map(&s.map("s")).unwrap();
        if let Some(u) = a.unit_coordinates() {
            // The coordinates in the order of their first appearance.
            let mut order: Vec<usize> = Vec::new();
            for d in u.iter().flatten() {
                if !order.contains(d) {
                    order.push(*d);
                }
            }
            prop_assert_eq!(order.len(), 2);
            let pts = box_points(2, -2, 2);
            for n in -1..=1 {
                for p in &pts {
                    for q in &pts {
                        let (x, y) = (small(p), small(q));
                        let key = |v: &[i64]| order.iter().map(|&d| v[d]).collect::<Vec<_>>();
                        prop_assert_eq!(lex(&s.time(n, &x), &s.time(n, &y)), lex(&key(&x), &key(&y)));
                    }
                }
            }
        }
    }

    #[test]
    fn signed_unit_coordinates_order_the_times(s in sched(3, 2)) {
        let a = AffineSchedule::from_map(&s.map("s")).unwrap();
        let signed = a.signed_unit_coordinates();
        // the unsigned form is the signed one without -1
        let plain = signed.as_ref().and_then(|u| {
            u.iter()
                .all(|c| c.is_none_or(|(_, down)| !down))
                .then(|| u.iter().map(|c| c.map(|(d, _)| d)).collect::<Vec<_>>())
        });
        prop_assert_eq!(&plain, &a.unit_coordinates());
        if let Some(u) = signed {
            // the coordinates, negated where they first appear with -1, in
            // the order of their first appearance
            let mut order: Vec<(usize, bool)> = Vec::new();
            for &(d, down) in u.iter().flatten() {
                if !order.iter().any(|(e, _)| *e == d) {
                    order.push((d, down));
                }
            }
            prop_assert_eq!(order.len(), 2);
            let pts = box_points(2, -2, 2);
            for n in -1..=1 {
                for p in &pts {
                    for q in &pts {
                        let (x, y) = (small(p), small(q));
                        let key = |v: &[i64]| {
                            order
                                .iter()
                                .map(|&(d, down)| if down { -v[d] } else { v[d] })
                                .collect::<Vec<_>>()
                        };
                        prop_assert_eq!(lex(&s.time(n, &x), &s.time(n, &y)), lex(&key(&x), &key(&y)));
                    }
                }
            }
        }
    }

    #[test]
    fn constant_comparisons_hold_everywhere((s, t) in pair()) {
        let a = AffineSchedule::from_map(&s.map("x")).unwrap();
        let b = AffineSchedule::from_map(&t.map("y")).unwrap();
        let nt = a.n_time();
        for (n, x, y, _) in pair_points(s.dims(), t.dims()) {
            let (tx, ty) = (s.time(n, &x), t.time(n, &y));
            for k in 0..nt {
                if let Some(d) = a.constant_difference(&b, k) {
                    prop_assert_eq!(d, Int::from(tx[k] - ty[k]));
                }
            }
            for l in 0..nt {
                let before = tx[..l] == ty[..l] && tx[l] < ty[l];
                if before {
                    prop_assert!(a.may_precede_at(&b, l), "level {}", l);
                }
                if let Some(o) = a.compare_from(&b, l) {
                    prop_assert_eq!(lex(&tx[l..], &ty[l..]), o);
                }
            }
        }
    }

    #[test]
    fn restrict_later_at_matches_the_times((s, t) in pair()) {
        let (a, b, space) = engine_pair(&s, &t);
        let (d, e) = (s.dims(), t.dims());
        let all = Map::universe(space);
        for l in 0..a.n_time() {
            let m = a.restrict_later_at(&b, &all, l).unwrap();
            for (n, x, y, p) in pair_points(d, e) {
                let (tx, ty) = (s.time(n, &x), t.time(n, &y));
                let want = tx[..l] == ty[..l] && tx[l] > ty[l];
                prop_assert_eq!(contains(&m, &p), want, "level {} point {:?}", l, small(&p));
            }
        }
    }

    #[test]
    fn lex_le_from_matches_the_times((s, t) in pair(), strict in any::<bool>()) {
        let (a, b, space) = engine_pair(&s, &t);
        let (d, e) = (s.dims(), t.dims());
        for l in 0..=a.n_time() {
            let m = a.lex_le_from(&b, space.clone(), l, strict).unwrap();
            for (n, x, y, p) in pair_points(d, e) {
                let o = lex(&s.time(n, &x)[l..], &t.time(n, &y)[l..]);
                let want = o == Ordering::Less || (!strict && o == Ordering::Equal);
                prop_assert_eq!(contains(&m, &p), want, "level {} point {:?}", l, small(&p));
            }
        }
        prop_assert!(a.lex_le_from(&b, space, a.n_time() + 1, strict).is_err());
    }
}

#[test]
fn restrict_later_at_reads_a_wrapped_domain() {
    // The sink instance is the domain factor of a wrapped access.
    let s: Map = "[n] -> { S[i] -> [i, 1] }".parse().unwrap();
    let t: Map = "[n] -> { T[j] -> [j + n, 0] }".parse().unwrap();
    let (a, b) = (
        AffineSchedule::from_map(&s).unwrap(),
        AffineSchedule::from_map(&t).unwrap(),
    );
    let m: Map = "[n] -> { [S[i] -> A[x]] -> T[j] : x = i }".parse().unwrap();
    for l in 0..2 {
        let r = a.restrict_later_at(&b, &m, l).unwrap();
        for p in box_points(4, -2, 2) {
            let v = small(&p);
            let (n, i, x, j) = (v[0], v[1], v[2], v[3]);
            let (ts, tt) = ([i, 1], [j + n, 0]);
            let want = x == i && ts[..l] == tt[..l] && ts[l] > tt[l];
            assert_eq!(contains(&r, &p), want, "level {l} point {v:?}");
        }
    }
    // A schedule that does not fit the relation is an error.
    let wide: Map = "[n] -> { [S[i] -> A[x]] -> T[j, k] }".parse().unwrap();
    assert!(b.restrict_later_at(&a, &wide, 0).is_ok());
    let other: Map = "{ U[a, b, c] -> [a, b] }".parse().unwrap();
    let c = AffineSchedule::from_map(&other).unwrap();
    assert!(c.restrict_later_at(&b, &m, 0).is_err());
    assert!(a.restrict_later_at(&b, &m, 2).is_err());
}

#[test]
fn affine_schedule_rejects_other_relations() {
    for text in [
        "{ S[i] -> [t] : t >= i }",
        "{ S[i] -> [t] : 2t = i }",
        "{ S[i] -> [i]; S[i] -> [i + 1] }",
        "{ S[i] -> [t] : exists (e : t = 2e + i) }",
        "{ [i] }",
    ] {
        let m: Map = text.parse().unwrap();
        assert!(AffineSchedule::from_map(&m).is_none(), "{text}");
    }
    let m: Map = "{ S[i] -> [t, u] : t = -i and -u = 3 }".parse().unwrap();
    let a = AffineSchedule::from_map(&m).unwrap();
    assert_eq!(a.unit_coordinates(), None);
    assert!(a.is_injective());
}

const RELATIONS: &[&str] = &[
    "{ [i] -> [a, b] : a = i and b = 2i }",
    "{ [i] -> [a, b] : 0 <= a <= i and b = a - 1 }",
    "{ [i] -> [a, b] : a + b = i and exists (e : a = 2e) }",
    "{ [i] -> [a, b] : a = floor(i / 2) and b >= 0 and b <= 1; [i] -> [a, b] : a = b }",
    "{ [i] -> [a, b, c] : a = i and b = c + 1 }",
];

#[test]
fn permute_range_reorders_the_coordinates() {
    for text in RELATIONS {
        let m: Map = text.parse().unwrap();
        let no = m.space().n_out();
        let perms: Vec<Vec<usize>> = if no == 2 {
            vec![vec![0, 1], vec![1, 0]]
        } else {
            vec![vec![2, 0, 1], vec![1, 2, 0], vec![0, 2, 1]]
        };
        for perm in perms {
            let p = permute_range(&m, &perm).unwrap();
            for pt in box_points(1 + no, -2, 2) {
                let v = small(&pt);
                // p has (i, y') with y'[j] = y[perm[j]]
                let mut y = vec![0; no];
                for (j, &d) in perm.iter().enumerate() {
                    y[d] = v[1 + j];
                }
                let mut orig = vec![v[0]];
                orig.extend(y);
                assert_eq!(
                    contains(&p, &pt),
                    contains(&m, &ints(&orig)),
                    "{text} {perm:?} {v:?}"
                );
            }
        }
        assert!(permute_range(&m, &vec![0; no]).is_err());
        assert!(permute_range(&m, &[0]).is_err());
    }
}

#[test]
fn negate_range_negates_the_chosen_coordinates() {
    for text in RELATIONS {
        let m: Map = text.parse().unwrap();
        let no = m.space().n_out();
        for mask in 0..1u32 << no {
            let negate: Vec<bool> = (0..no).map(|d| mask >> d & 1 == 1).collect();
            let n = negate_range(&m, &negate).unwrap();
            for pt in box_points(1 + no, -3, 3) {
                let v = small(&pt);
                // n has (i, y') with y'[d] = -y[d] where negated
                let mut orig = vec![v[0]];
                orig.extend((0..no).map(|d| if negate[d] { -v[1 + d] } else { v[1 + d] }));
                assert_eq!(
                    contains(&n, &pt),
                    contains(&m, &ints(&orig)),
                    "{text} {negate:?} {v:?}"
                );
            }
        }
        assert!(negate_range(&m, &[true]).is_err());
    }
}

#[test]
fn reverse_domain_factor_projects_the_wrapped_range() {
    for text in [
        "{ [S[i] -> A[a]] -> T[j] : a = i + 1 and j = a and 0 <= i <= 1 }",
        "{ [S[i] -> A[a, b]] -> T[j] : a = i and 0 <= b <= 1 and j = a + b }",
        "{ [S[i] -> A[a]] -> T[j] : a = floor(i / 2) and j >= a and j <= a + 1 }",
        "{ [S[i, k] -> A[a]] -> T[j] : a = i + k and j = a and -1 <= k <= 1 }",
    ] {
        let m: Map = text.parse().unwrap();
        let inner = m.space().domain_space().unwrap().unwrap();
        let (nd, na, nx) = (inner.n_in(), inner.n_out(), m.space().n_out());
        let r = reverse_domain_factor(&m).unwrap();
        assert_eq!(r.space().n_in(), nx);
        assert_eq!(r.space().n_out(), nd);
        for pt in box_points(nx + nd, -2, 2) {
            let v = small(&pt);
            let (x, i) = v.split_at(nx);
            let want = box_points(na, -3, 3).iter().any(|a| {
                let mut q = i.to_vec();
                q.extend(small(a));
                q.extend(x);
                contains(&m, &ints(&q))
            });
            assert_eq!(contains(&r, &pt), want, "{text} {v:?}");
        }
    }
    let plain: Map = "{ S[i] -> T[j] }".parse().unwrap();
    assert!(reverse_domain_factor(&plain).is_err());
}

#[test]
fn join_on_range_pairs_instances_of_one_element() {
    let cases = [
        (
            "{ S[i] -> A[a] : a = i + 1 and 0 <= i <= 2 }",
            "{ T[j] -> A[a] : a = j and 0 <= j <= 3 }",
        ),
        (
            "[n] -> { S[i] -> A[a, b] : a = i and b = n }",
            "[n] -> { T[j, k] -> A[a, b] : a = j and b = k - 1; T[j, k] -> A[a, b] : a = -j and b = k }",
        ),
        // locals: the composition path
        (
            "{ S[i] -> A[a] : a = floor(i / 2) }",
            "{ T[j] -> A[a] : a = j - 1 }",
        ),
        // different parameters: the composition path
        (
            "[n] -> { S[i] -> A[a] : a = i + n }",
            "{ T[j] -> A[a] : a = 2j }",
        ),
    ];
    for (a, b) in cases {
        let (a, b): (Map, Map) = (a.parse().unwrap(), b.parse().unwrap());
        let j = join_on_range(&a, &b).unwrap();
        let np = j.space().n_param();
        let (nx, ny, nz) = (a.space().n_in(), a.space().n_out(), b.space().n_in());
        for pt in box_points(np + nx + ny + nz, -2, 2) {
            let v = small(&pt);
            let (params, rest) = v.split_at(np);
            let (x, rest) = rest.split_at(nx);
            let (y, z) = rest.split_at(ny);
            // the values of the parameters of `m` among those of `j`
            let values = |m: &Map| -> Vec<i64> {
                let at = |p: &String| j.space().params.iter().position(|q| q == p).unwrap();
                m.space().params.iter().map(|p| params[at(p)]).collect()
            };
            let (pa, pb) = (values(&a), values(&b));
            let in_a = contains(&a, &ints(&[pa, x.to_vec(), y.to_vec()].concat()));
            let in_b = contains(&b, &ints(&[pb, z.to_vec(), y.to_vec()].concat()));
            assert_eq!(contains(&j, &pt), in_a && in_b, "{a} {b} {v:?}");
        }
    }
    let (a, c): (Map, Map) = (
        "{ S[i] -> A[i] }".parse().unwrap(),
        "{ T[j] -> B[j] }".parse().unwrap(),
    );
    assert!(join_on_range(&a, &c).is_err());
}

#[test]
fn explicit_functions_are_single_valued() {
    for text in RELATIONS.iter().chain(&[
        "{ [i] -> [a] : a = 2i + 1 }",
        "{ [i] -> [a, b] : a + b = i and a - b = 0 }",
        "{ [i, j] -> [a] : 2a = i + j }",
        "{ [i] -> [a] : 0 <= a <= 1 }",
    ]) {
        let m: Map = text.parse().unwrap();
        let (ni, no) = (m.space().n_in(), m.space().n_out());
        if is_explicit_function(&m) {
            for x in box_points(ni, -2, 2) {
                let images = box_points(no, -6, 6)
                    .into_iter()
                    .filter(|y| contains(&m, &[x.clone(), y.clone()].concat()))
                    .count();
                assert!(images <= 1, "{text} at {x:?}");
            }
        }
    }
    let yes: Map = "{ [i] -> [a, b] : a = i and b = 2i }".parse().unwrap();
    assert!(is_explicit_function(&yes));
    let no: Map = "{ [i] -> [a] : 0 <= a <= 1 }".parse().unwrap();
    assert!(!is_explicit_function(&no));
}

#[test]
fn difference_is_the_set_difference() {
    let cases = [
        ("{ [i] : 0 <= i <= 5 }", "{ [i] : 2 <= i <= 3 }"),
        // a disjunct syntactically inside one of b
        (
            "{ [i] : 0 <= i <= 5 and i <= 3; [i] : i = 7 }",
            "{ [i] : 0 <= i <= 5 }",
        ),
        (
            "{ [i, j] : 0 <= i <= j <= 3 }",
            "{ [i, j] : i = j; [i, j] : j >= 3 }",
        ),
        (
            "{ [i] : exists (e : i = 2e) and -4 <= i <= 4 }",
            "{ [i] : i >= 1 }",
        ),
        ("{ [i] : 0 <= i <= 3 }", "{ [i] : 0 <= i <= 3 }"),
    ];
    for (a, b) in cases {
        let (a, b): (Map, Map) = (a.parse().unwrap(), b.parse().unwrap());
        let d = difference(&a, &b).unwrap();
        let n = a.space().n_out();
        for pt in box_points(n, -8, 8) {
            assert_eq!(
                contains(&d, &pt),
                contains(&a, &pt) && !contains(&b, &pt),
                "{a} \\ {b} at {pt:?}"
            );
        }
        assert!(d.is_equal(&a.subtract(&b).unwrap()).unwrap());
    }
}
