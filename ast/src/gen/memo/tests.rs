//! Tests of the memo: every remembered answer against the engine's.

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
            assert!(remembered.plain_is_equal(&direct), "{s}");
        }
    }
    // one entry per input, and one per answer written otherwise
    let n: usize = memo.coalesced.borrow().values().map(Vec::len).sum();
    let rewritten = inputs
        .iter()
        .filter(|s| {
            !map(s)
                .coalesce_simplified()
                .unwrap()
                .plain_is_equal(&map(s))
        })
        .count();
    assert_eq!(n, inputs.len() + rewritten);
    assert!(rewritten > 0);
    // an answer asked again is the engine's answer to it
    for s in inputs {
        let c = map(s).coalesce_simplified().unwrap();
        let again = memo.coalesced(&c).unwrap();
        assert!(
            again.plain_is_equal(&c.coalesce_simplified().unwrap()),
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
        assert!(got.plain_is_equal(&direct), "{got} vs {direct}");
        assert!(got.is_equal(&set.intersect(ctx).unwrap()).unwrap());
    }
    // not an answer of the memo: coalesced whole
    let raw = map("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 3; [i, j] : 4 <= i <= 7 and 0 <= j <= 3 }");
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
        assert!(got.plain_is_equal(&direct), "{keep}: {got} vs {direct}");
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
    assert!(again.plain_is_equal(&got));
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
    let local = map("{ [t0, i0] : exists (e : i0 = t0 + 2e and 0 <= t0 <= 5 and 0 <= i0 <= 1) }");
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
    let even = map("[N] -> { [i, j] : exists (e : i = 2e and 0 <= j < N and j <= i <= j + 3) }");
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

/// Two disjuncts inside the context `N >= 1, i, j >= 0`, coalesced, and
/// `coalesced_inside`'s disjuncts of them: the same points, written
/// otherwise (the context's bounds are dropped).
fn two_disjuncts_and_their_inside(memo: &Memo) -> (Map, Map) {
    let set = memo
        .coalesced(&map(
            "[N] -> { [i, j] : exists (e : i = 2e and 0 <= i < N and 0 <= j <= i); \
            [i, j] : 0 <= i < N and i < j < N }",
        ))
        .unwrap();
    let ctx = map("[N] -> { [i, j] : i >= 0 and j >= 0 and N >= 1 }");
    let inside = memo.coalesced_inside(&set, &ctx).unwrap();
    assert_eq!(inside.basic_maps().len(), 2);
    (set, inside)
}

#[test]
fn lex_answers_shared_by_disjuncts_with_the_same_points() {
    let memo = Memo::default();
    let (set, inside) = two_disjuncts_and_their_inside(&memo);
    for (b, c) in set.basic_maps().iter().zip(inside.basic_maps()) {
        let rb = memo.representative(b);
        let rc = memo.representative(c);
        assert!(rb.plain_is_equal(&rc), "{rb:?} / {rc:?}");
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
    let (set, inside) = two_disjuncts_and_their_inside(&memo);
    let (x, y) = (&set.basic_maps()[0], &set.basic_maps()[1]);
    let (x2, y2) = (&inside.basic_maps()[0], &inside.basic_maps()[1]);
    let z = map("[N] -> { [i, j] : 0 <= i < N and 0 <= j < N }");
    let bz = &z.basic_maps()[0];
    let calls = std::cell::Cell::new(0);
    let ask = |a: &BasicMap, b: &BasicMap| {
        calls.set(calls.get() + 1);
        Ok(Map::from_basic(a.clone())
            .intersect(&Map::from_basic(b.clone()))?
            .is_empty()?)
    };
    assert!(memo.disjoint(x, y, || ask(x, y)).unwrap());
    assert!(!memo.disjoint(x, bz, || ask(x, bz)).unwrap());
    assert_eq!(calls.get(), 2);
    // the same pairs, by the disjuncts with the same points and in the
    // other order: remembered (the check of unit-test builds computes them
    // again, with the same answers)
    assert!(memo.disjoint(y2, x2, || ask(y2, x2)).unwrap());
    assert!(!memo.disjoint(bz, x2, || ask(bz, x2)).unwrap());
    assert_eq!(calls.get(), 4);
    // another pair: computed
    assert!(!memo.disjoint(y, bz, || ask(y, bz)).unwrap());
    assert_eq!(calls.get(), 5);
    let n = (memo.pairs.borrow().values().flatten())
        .filter(|e| e.2 == PairQuestion::Disjoint)
        .count();
    assert_eq!(n, 3);
}

#[test]
fn union_inside_an_answer_is_that_answer() {
    let memo = Memo::default();
    // an answer of two disjuncts with divisions, and sets inside one of
    // its disjuncts (one with an existential), or not
    let p = memo
        .coalesced(&map(
            "[N] -> { [i, j] : i mod 2 = 0 and 0 <= i < N and 0 <= j <= i; \
            [i, j] : 0 <= i < N and i < j < N }",
        ))
        .unwrap();
    assert_eq!(p.basic_maps().len(), 2);
    let inside = map(
        "[N] -> { [i, j] : exists (e : i = 4e and 0 <= i < N and 1 <= j <= i); \
        [i, j] : 0 <= i < N and i + 2 <= j < N }",
    );
    let outside =
        map("[N] -> { [i, j] : 0 <= i < N and j = i + 1; [i, j] : i = 1 and j = 0 and N >= 2 }");
    for (q, contained) in [(&inside, true), (&outside, false)] {
        for parts in [[&p, q], [q, &p]] {
            let got = memo.coalesced_union(&parts).unwrap();
            let u = parts[0].union(parts[1]).unwrap();
            let direct = u.coalesce_simplified().unwrap();
            assert!(got.plain_is_equal(&direct), "{got} vs {direct}");
            assert!(got.is_equal(&u).unwrap());
            assert_eq!(got.plain_is_equal(&p), contained, "{got}");
        }
    }
}

#[test]
fn written_forms_are_told_apart() {
    // the same set written two ways: two questions
    let a = map("{ [i] : 0 <= i <= 10 }");
    let b = map("{ [i] : 0 <= i <= 10 and i <= 12 }");
    assert!(a.is_equal(&b).unwrap());
    assert!(!a.plain_is_equal(&b));
    assert!(a.plain_is_equal(&a.clone()));
    assert_eq!(hash_of(&a), hash_of(&a.clone()));
}

#[test]
fn inside_a_smaller_context_from_an_earlier_answer() {
    let memo = Memo::default();
    // a set written with existentials and redundant rows (not an answer of
    // the memo), asked in a context, then in smaller ones and in one that
    // is not smaller
    let raw = map(
        "[N] -> { [i, j] : exists (e : i = 2e and 0 <= i < N and 0 <= j <= i and N >= 0); \
         [i, j] : 0 <= i < N and i < j < N and N >= 0; [i, j] : i < 0 and j < 0 }",
    );
    let first = map("[N] -> { [i, j] : i >= 0 and N >= 1 }");
    let got = memo.coalesced_inside(&raw, &first).unwrap();
    let direct = raw
        .intersect(&first)
        .unwrap()
        .coalesce_simplified()
        .unwrap();
    assert!(got.plain_is_equal(&direct), "{got} vs {direct}");
    let smaller = [
        "[N] -> { [i, j] : i >= 0 and N >= 1 and j >= 0 }",
        "[N] -> { [i, j] : 1 <= i <= 5 and N >= 3 }",
        "[N] -> { [i, j] : i >= 0 and N >= 1 and j <= i }",
    ];
    for s in smaller {
        let ctx = map(s);
        assert!(memo.earlier_inside(&raw, &ctx).unwrap().is_some(), "{s}");
        let got = memo.coalesced_inside(&raw, &ctx).unwrap();
        let exact = raw.intersect(&ctx).unwrap();
        assert!(got.is_equal(&exact).unwrap(), "{s}: {got}");
        assert!(got.basic_maps().iter().all(|b| !b.is_empty().unwrap()));
    }
    // not inside the first context: no earlier answer applies
    let other = map("[N] -> { [i, j] : i >= -5 }");
    assert!(memo.earlier_inside(&raw, &other).unwrap().is_none());
    let got = memo.coalesced_inside(&raw, &other).unwrap();
    assert!(got.is_equal(&raw.intersect(&other).unwrap()).unwrap());
}
