//! The zone primitives against brute-force enumeration on small boxes.

use delicm::zone::{
    after, before, between, lifetimes, next_write, reaching_definition, reference_lifetimes, shift,
    timepoints_to_zone, zone_to_timepoints,
};
use presburger::{Int, UnionMap};
use testkit::Lcg;

fn u(s: &str) -> UnionMap {
    s.parse().unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// Is the point (domain coordinates, then range coordinates) in the part
/// of `m` whose first tuple is named `name`?
fn has(m: &UnionMap, name: &str, point: &[i64]) -> bool {
    let p: Vec<Int> = point.iter().map(|&x| Int::from(x)).collect();
    m.maps().iter().any(|x| {
        let t = x
            .space()
            .domain
            .clone()
            .unwrap_or_else(|| x.space().range.clone());
        t.name.as_deref() == Some(name) && x.contains_point(&p).unwrap()
    })
}

fn set_text(name: &str, pts: &[Vec<i64>]) -> String {
    let parts: Vec<String> = pts
        .iter()
        .map(|p| {
            format!(
                "{name}[{}]",
                p.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    format!("{{ {} }}", parts.join("; "))
}

/// Random element-time points `A[e, t0, .., t(n-1)]`, e in 0..2, t in 0..hi.
fn random_points(r: &mut Lcg, n_time: usize, hi: i64, count: usize) -> Vec<Vec<i64>> {
    let mut v: Vec<Vec<i64>> = (0..count)
        .map(|_| {
            let mut p = vec![r.range(0, 1)];
            p.extend((0..n_time).map(|_| r.range(0, hi - 1)));
            p
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn box_points(n_time: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n_time {
        out = out
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (lo..=hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

fn with_elem(e: i64, t: &[i64]) -> Vec<i64> {
    let mut p = vec![e];
    p.extend_from_slice(t);
    p
}

#[test]
fn lifetimes_match_enumeration() {
    let mut r = Lcg::new(18);
    for n_time in [1usize, 2] {
        let hi = if n_time == 1 { 7 } else { 3 };
        for _ in 0..12 {
            let reads = random_points(&mut r, n_time, hi, 4);
            let writes = random_points(&mut r, n_time, hi, 4);
            let (occ, unused) = lifetimes(
                &u(&set_text("A", &reads)),
                &u(&set_text("A", &writes)),
                n_time,
            )
            .unwrap();
            for e in 0..2 {
                for z in box_points(n_time, -1, hi + 1) {
                    let next = reads
                        .iter()
                        .chain(&writes)
                        .filter(|p| p[0] == e && p[1..] >= z[..])
                        .map(|p| p[1..].to_vec())
                        .min();
                    let is = |s: &[Vec<i64>], t: &Vec<i64>| {
                        s.iter().any(|p| p[0] == e && p[1..] == t[..])
                    };
                    let want_occ = next.as_ref().is_some_and(|t| is(&reads, t));
                    let want_unused = next
                        .as_ref()
                        .is_some_and(|t| is(&writes, t) && !is(&reads, t));
                    let p = with_elem(e, &z);
                    assert_eq!(
                        has(&occ, "A", &p),
                        want_occ,
                        "occupied {p:?} R={reads:?} W={writes:?}"
                    );
                    assert_eq!(
                        has(&unused, "A", &p),
                        want_unused,
                        "unused {p:?} R={reads:?} W={writes:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn reaching_definitions_match_enumeration() {
    let mut r = Lcg::new(7);
    for n_time in [1usize, 2] {
        let hi = if n_time == 1 { 7 } else { 3 };
        for _ in 0..8 {
            let at = random_points(&mut r, n_time, hi, 5);
            let writes = random_points(&mut r, n_time, hi, 4);
            let (ua, uw) = (u(&set_text("A", &at)), u(&set_text("A", &writes)));
            for inclusive in [false, true] {
                let rd = reaching_definition(&ua, &uw, n_time, inclusive).unwrap();
                let nw = next_write(&ua, &uw, n_time, inclusive).unwrap();
                for p in &at {
                    let before = writes
                        .iter()
                        .filter(|w| {
                            w[0] == p[0] && (w[1..] < p[1..] || (inclusive && w[1..] == p[1..]))
                        })
                        .max();
                    let after = writes
                        .iter()
                        .filter(|w| {
                            w[0] == p[0] && (w[1..] > p[1..] || (inclusive && w[1..] == p[1..]))
                        })
                        .min();
                    for w in &writes {
                        let pt: Vec<i64> = p.iter().chain(w.iter()).copied().collect();
                        assert_eq!(
                            has(&rd, "A", &pt),
                            before == Some(w),
                            "rd {pt:?} incl={inclusive}"
                        );
                        assert_eq!(
                            has(&nw, "A", &pt),
                            after == Some(w),
                            "next {pt:?} incl={inclusive}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn zone_timepoint_conversions_match_enumeration() {
    let mut r = Lcg::new(3);
    for _ in 0..10 {
        let zone: Vec<Vec<i64>> = random_points(&mut r, 1, 8, 5);
        let uz = u(&set_text("A", &zone));
        let inz = |e: i64, k: i64| zone.iter().any(|p| p[0] == e && p[1] == k);
        for (s, en) in [(false, false), (true, false), (false, true), (true, true)] {
            let tp = zone_to_timepoints(&uz, s, en).unwrap();
            for e in 0..2 {
                for t in -2..11 {
                    // timepoint t lies between gap t (before it) and gap t + 1 (after it)
                    let want = match (s, en) {
                        (false, false) => inz(e, t) && inz(e, t + 1),
                        (true, false) => inz(e, t + 1),
                        (false, true) => inz(e, t),
                        (true, true) => inz(e, t) || inz(e, t + 1),
                    };
                    assert_eq!(
                        has(&tp, "A", &[e, t]),
                        want,
                        "{s} {en} A[{e},{t}] zone {zone:?}"
                    );
                }
            }
        }
        let after = timepoints_to_zone(&uz, true).unwrap();
        for e in 0..2 {
            for t in -2..11 {
                assert_eq!(has(&after, "A", &[e, t]), inz(e, t - 1));
            }
        }
    }
}

#[test]
fn shift_moves_the_domain_of_written_values() {
    let w = u("{ Dom[0] -> Val[]; Dom[3] -> [] }");
    let want = u("{ Dom[1] -> Val[]; Dom[4] -> [] }");
    assert!(shift(&w, 1).unwrap().is_equal(&want).unwrap());
    assert!(shift(&shift(&w, 1).unwrap(), -1)
        .unwrap()
        .is_equal(&w)
        .unwrap());
}

#[test]
fn before_after_between_match_enumeration() {
    let sched = u("[n] -> { S[i] -> [i, 1] : 0 <= i < n; T[i] -> [i + 1, 0] : 0 <= i < n }");
    let to = u("[n] -> { S[i] -> [i + 2, 0] : 0 <= i < n; T[i] -> [i + 1, 3] : 0 <= i < n }");
    let time = |name: &str, i: i64| if name == "S" { [i, 1] } else { [i + 1, 0] };
    let time_to = |name: &str, i: i64| if name == "S" { [i + 2, 0] } else { [i + 1, 3] };
    for strict in [false, true] {
        let b = before(&sched, strict).unwrap();
        let a = after(&sched, strict).unwrap();
        let n = 3;
        for name in ["S", "T"] {
            for i in 0..n {
                for x in -1..5 {
                    for y in -1..4 {
                        let t = time(name, i);
                        let p = [n, i, x, y];
                        let lt = [x, y] < t;
                        let gt = [x, y] > t;
                        let eq = [x, y] == t;
                        assert_eq!(
                            has(&b, name, &p),
                            lt || (!strict && eq),
                            "before {name} {p:?} {strict}"
                        );
                        assert_eq!(
                            has(&a, name, &p),
                            gt || (!strict && eq),
                            "after {name} {p:?} {strict}"
                        );
                    }
                }
            }
        }
    }
    for (inf, ine) in [(false, false), (true, false), (false, true), (true, true)] {
        let bw = between(&sched, &to, inf, ine).unwrap();
        for name in ["S", "T"] {
            for i in 0..3 {
                for x in -1..5 {
                    for y in -1..4 {
                        let (f, t) = (time(name, i), time_to(name, i));
                        let v = [x, y];
                        let want = (v > f || (inf && v == f)) && (v < t || (ine && v == t));
                        assert_eq!(
                            has(&bw, name, &[3, i, x, y]),
                            want,
                            "between {name} {i} {v:?}"
                        );
                    }
                }
            }
        }
    }
}

/// The per-access lifetimes equal the per-gap definition on parametric
/// accesses with several time dimensions (loops with reads and overwrites,
/// live-in reads, reads and writes at one timepoint).
#[test]
fn lifetimes_equal_the_definition_on_parametric_accesses() {
    let cases = [
        (
            "[N] -> { A[e, t] : 0 <= e < N and t = 2e + 1; A[e, t] : 0 <= e < N and t = 3N }",
            "[N] -> { A[e, t] : 0 <= e < N and (t = 2e or t = 2e + 3 or t = 2e + 1) }",
            1,
        ),
        (
            "[N, M] -> { B[i, t, s, j, k] : 1 <= i < N and 0 <= t < M and s = 1 and j = i and k = 0 }",
            "[N, M] -> { B[i, t, s, j, k] : 1 <= i < N and 0 <= t < M and s = 0 and j = i and 0 <= k <= 2 }",
            4,
        ),
        (
            "[N] -> { C[i, a, b] : 0 <= i < N and a = i and 1 <= b <= N }",
            "[N] -> { C[i, a, b] : 0 <= i < N and a = i and b = 0; C[i, a, b] : 0 <= i < N and a = i + 1 and b = N }",
            2,
        ),
    ];
    for (r, w, n_time) in cases {
        let (reads, writes) = (u(r), u(w));
        let (occ, unused) = lifetimes(&reads, &writes, n_time).unwrap();
        let (ro, ru) = reference_lifetimes(&reads, &writes, n_time).unwrap();
        assert!(occ.is_equal(&ro).unwrap(), "occupied: {occ} vs {ro}");
        assert!(unused.is_equal(&ru).unwrap(), "unused: {unused} vs {ru}");
        assert!(!occ.is_empty().unwrap() && !unused.is_empty().unwrap());
    }
}
