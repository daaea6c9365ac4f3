//! The lexicographic orders (`<<`, `<<=`, `>>`, `>>=`, of sets and of maps)
//! charge the operation budget by the size of what they build: a chain
//! `A := A >> A`, which squares the disjuncts of `A` at every step, ends
//! with the budget error before its result grows (it used to charge one
//! tick per pair of disjuncts, and the fifth step ran for minutes and
//! gigabytes under `poly calc`'s default budget), and the answers of
//! ordinary inputs are those of the definitions.

use presburger::{budget, UnionMap};

/// The chain: a box, then `steps` times `A := A >> A`.
fn chain(steps: usize) -> String {
    let mut s = String::from("A := { [i, j] : 1 <= i, j <= 3 };\n");
    for _ in 0..steps {
        s.push_str("A := A >> A;\n");
    }
    s
}

/// Runs `src` as a batch script with `ops` ticks per statement; the output lines.
fn run_with_budget(src: &str, ops: u64) -> Vec<String> {
    let mut s = calc::Session::new(true);
    s.set_budget(Some(ops));
    let mut out = Vec::new();
    s.run(src, 1, &mut out, None).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The chain's steps 1 to 3 (8 and 128 disjuncts) pass under a budget of
/// a million ticks; step 4 would build 2 × 128² pairs of disjuncts of tens
/// of rows each: it ends with the budget error (one tick per pair charged
/// 32,768 and let it build them; then step 5, 2 × 32,768² pairs, ran until
/// the budget's million pairs), and so does every later step.
#[test]
fn a_chain_of_lexicographic_orders_ends_with_the_budget_error() {
    let lines = run_with_budget(&chain(6), 1_000_000);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    for (e, statement) in errors.iter().zip(5..) {
        assert!(
            e.contains(&format!("statement {statement}")) && e.contains("budget"),
            "{e}"
        );
    }
}

/// The charge covers what is built: a lexicographic order of maps spends
/// at least the rows times the row length of the disjuncts it returns.
#[test]
fn the_charge_covers_the_disjuncts_built() {
    let a: UnionMap = "{ [i, j] -> [k, l] : 0 <= i, j <= 3 and k = i + j and 0 <= l <= i; \
                       [i, j] -> [k, l] : 0 <= i <= j <= 5 and k = 2i and l = j }"
        .parse()
        .unwrap();
    for (strict, less) in [(true, true), (false, true), (true, false), (false, false)] {
        let guard = budget::enter(u64::MAX / 2);
        let r = a.lex_order_maps(&a, strict, less).unwrap();
        let spent = guard.spent();
        drop(guard);
        let built: u64 = r
            .maps()
            .iter()
            .flat_map(|m| m.basic_maps())
            .map(|b| ((b.eqs().len() + b.ineqs().len()) * b.row_len()) as u64)
            .sum();
        assert!(built > 0);
        assert!(spent >= built, "spent {spent} < built {built}");
    }
}

/// Ordinary answers: the orders of maps against their definition through
/// the order of the ranges, and of multi-disjunct sets against the
/// comparisons written out, checked by the calculator's `=`.
#[test]
fn lexicographic_orders_keep_their_answers() {
    let src = "S := { [i, j] : 0 <= i, j <= 2 and (i = 0 or j = 1) };
M := { [a] -> [i, j] : 0 <= a <= 3 and i = a % 2 and 0 <= j <= a; [a] -> [i, j] : a = 5 and i = j };
(S << S) = { [i, j] -> [k, l] : k > i or (k = i and l > j) } * (S -> S);
(S <<= S) = { [i, j] -> [k, l] : k > i or (k = i and l >= j) } * (S -> S);
(S >> S) = { [i, j] -> [k, l] : k < i or (k = i and l < j) } * (S -> S);
(S >>= S) = { [i, j] -> [k, l] : k < i or (k = i and l <= j) } * (S -> S);
(M << M) = M . ((range M) << (range M)) . M^-1;
(M <<= M) = M . ((range M) <<= (range M)) . M^-1;
(M >> M) = M . ((range M) >> (range M)) . M^-1;
(M >>= M) = M . ((range M) >>= (range M)) . M^-1;
";
    let lines = run_with_budget(src, 10_000_000);
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert!(lines.iter().all(|l| l == "True"), "{lines:?}");
}
