//! Calculator tests that need the engine's solver (emptiness, subset and
//! equality tests, lexmin, coalesce, gist, card, ...) and, for the dataflow
//! operator, the `dataflow` crate. Every operator of the language is used;
//! values are compared exactly, semantically through the calculator's own
//! `=` (so that they do not depend on how the engine chooses to print), and
//! textually where the answer is a boolean, a number or a type name.

use calc::run_script;

/// How long one test's script may run before it counts as failed (an engine
/// that loops must fail the test, not hang the suite).
const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Run `(statement, expected line)` pairs as one batch script and report every mismatch.
fn check(cases: &[(&str, &str)]) {
    let src: String = cases.iter().map(|(s, _)| format!("{s}\n")).collect();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let r = run_script(&src, true, &mut out).map(|_| String::from_utf8(out).unwrap());
        let _ = tx.send(r);
    });
    let text = match rx.recv_timeout(TIME_LIMIT) {
        Ok(r) => r.unwrap(),
        Err(_) => panic!("the script did not finish within {TIME_LIMIT:?}"),
    };
    let got: Vec<&str> = text.lines().collect();
    let printing: Vec<&(&str, &str)> = cases.iter().filter(|(_, e)| !e.is_empty()).collect();
    assert_eq!(
        got.len(),
        printing.len(),
        "one line per value-printing statement:\n{text}"
    );
    let bad: Vec<String> = printing
        .iter()
        .zip(&got)
        .filter(|((_, want), got)| {
            !(*got == want || (want.ends_with('…') && got.starts_with(want.trim_end_matches('…'))))
        })
        .map(|((stmt, want), got)| format!("  {stmt}\n    want {want}\n    got  {got}"))
        .collect();
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// An assignment: prints nothing.
const NONE: &str = "";

#[test]
fn set_operators() {
    check(&[
        ("A := { [i] : 0 <= i < 10 };", NONE),
        ("B := { [i] : 5 <= i < 15 };", NONE),
        ("A + B = { [i] : 0 <= i < 15 };", "True"),
        ("A - B = { [i] : 0 <= i < 5 };", "True"),
        ("A * B = { [i] : 5 <= i < 10 };", "True"),
        ("(A * B) % { [i] : i >= 5 } = { [i] : i <= 9 };", "True"),
        ("(A % B) * B = A * B;", "True"),
        ("{ [i] : 0 <= i < 10 } = { [i] : 0 <= i <= 9 };", "True"),
        ("A = B;", "False"),
        ("A * B <= A;", "True"),
        ("A <= A * B;", "False"),
        ("A >= A * B;", "True"),
        ("A * B < A;", "True"),
        ("A < A;", "False"),
        ("A > A * B;", "True"),
        ("A > A;", "False"),
        ("is_empty (A * { [i] : i > 20 });", "True"),
        ("is_empty A;", "False"),
        ("complement A = { [i] : i < 0 or i >= 10 };", "True"),
        ("complement { [i] } = { [i] : false };", "True"),
        ("lexmin A = { [0] };", "True"),
        ("lexmax A = { [9] };", "True"),
        ("lexmin ([n] -> { [i, j] : n <= i < 10 and j >= i }) = [n] -> { [i = n, j = n] : n < 10 };", "True"),
        ("card A;", "{ 10 }"),
        ("card { [i, j] : 0 <= i < 10 and 0 <= j <= i };", "{ 55 }"),
        ("card (A - A);", "{ 0 }"),
        ("card sample A;", "{ 1 }"),
        ("sample A <= A;", "True"),
        ("is_empty sample (A * { [i] : i > 20 });", "True"),
        ("coalesce ({ [i] : 0 <= i < 5 } + { [i] : 5 <= i < 10 }) = A;", "True"),
        ("coalesce A = A;", "True"),
        ("params ([n] -> { [i] : 0 <= i < n }) = [n] -> { : n > 0 };", "True"),
        ("affine_hull { [i, j] : i = j and 0 <= i < 4 } = { [i, j] : i = j };", "True"),
        ("aff { [i, j] : 0 <= i < 4 and j = 2 } = { [i, j] : j = 2 };", "True"),
        ("convex_hull { [i] : i = 0 or i = 5 } = { [i] : 0 <= i <= 5 };", "True"),
        ("hull { [i] : i = 0 or i = 5 } = { [i] : 0 <= i <= 5 };", "True"),
        ("typeof A;", "set"),
        ("typeof (A - A);", "set"),
    ]);
}

#[test]
fn map_operators() {
    check(&[
        ("M := { [i] -> [i + 1] : 0 <= i < 10 };", NONE),
        ("N := { [i] -> [2i] };", NONE),
        ("S := { [i] : 0 <= i < 3 };", NONE),
        ("M . N = { [i] -> [2i + 2] : 0 <= i < 10 };", "True"),
        ("N . M = { [i] -> [2i + 1] : 0 <= 2i < 10 };", "True"),
        ("M(S) = { [i] : 1 <= i <= 3 };", "True"),
        ("(M)(S) = { [i] : 1 <= i <= 3 };", "True"),
        ("N(M) = M . N;", "True"),
        ("M^-1 = { [i + 1] -> [i] : 0 <= i < 10 };", "True"),
        ("M^-1^-1 = M;", "True"),
        ("S * M = { [i] -> [i + 1] : 0 <= i < 3 };", "True"),
        ("M * S = { [i] -> [i + 1] : 0 <= i < 3 };", "True"),
        ("M * N = { [1] -> [2] };", "True"),
        ("M + N = N + M;", "True"),
        ("M - M = { [i] -> [j] : false };", "True"),
        ("(M % { [i] -> [j] : 0 <= i < 10 }) * { [i] -> [j] : 0 <= i < 10 } = M;", "True"),
        ("S -> { [j] : j = 7 } = { [i] -> [7] : 0 <= i < 3 };", "True"),
        ("S cross S = { [[i] -> [j]] : 0 <= i < 3 and 0 <= j < 3 };", "True"),
        ("M cross N = { [[i] -> [k]] -> [[i + 1] -> [2k]] : 0 <= i < 10 };", "True"),
        ("S << S = { [i] -> [j] : 0 <= i < j < 3 };", "True"),
        ("S <<= S = { [i] -> [j] : 0 <= i <= j < 3 };", "True"),
        ("S >> S = { [i] -> [j] : 0 <= j < i < 3 };", "True"),
        ("S >>= S = { [i] -> [j] : 0 <= j <= i < 3 };", "True"),
        ("{ [i, j] } << { [k, l] } = { [i, j] -> [k, l] : k > i or (k = i and l > j) };", "True"),
        ("domain M = { [i] : 0 <= i < 10 };", "True"),
        ("range M = { [i] : 1 <= i <= 10 };", "True"),
        ("deltas M = { [1] };", "True"),
        ("deltas_map M = { [[i] -> [i + 1]] -> [1] : 0 <= i < 10 };", "True"),
        ("domain_map M = { [[i] -> [i + 1]] -> [i] : 0 <= i < 10 };", "True"),
        ("range_map M = { [[i] -> [i + 1]] -> [i + 1] : 0 <= i < 10 };", "True"),
        ("identity S = { [i] -> [i] : 0 <= i < 3 };", "True"),
        ("wrap M = { [[i] -> [i + 1]] : 0 <= i < 10 };", "True"),
        ("unwrap wrap M = M;", "True"),
        ("lexmin { [i] -> [j] : 0 <= j <= i } = { [i] -> [0] : i >= 0 };", "True"),
        ("lexmax { [i] -> [j] : 0 <= j <= i } = { [i] -> [i] : i >= 0 };", "True"),
        ("coalesce ({ [i] -> [i] : 0 <= i < 5 } + { [i] -> [i] : 5 <= i < 10 }) = identity { [i] : 0 <= i < 10 };", "True"),
        ("sample M <= M;", "True"),
        ("complement M = { [i] -> [j] : j != i + 1 or i < 0 or i >= 10 };", "True"),
        ("is_empty M;", "False"),
        ("is_empty (M - M);", "True"),
        ("is_single_valued M;", "True"),
        ("is_single_valued (M + N);", "False"),
        ("is_injective M;", "True"),
        ("is_injective { [i] -> [0] : 0 <= i < 2 };", "False"),
        ("M <= M + N;", "True"),
        ("M < M;", "False"),
        ("M + N > M;", "True"),
        ("M >= M;", "True"),
        ("params M = { : };", "True"),
        ("affine_hull M = { [i] -> [i + 1] };", "True"),
        ("convex_hull M = M;", "True"),
        ("typeof M;", "map"),
        ("typeof (M - M);", "map"),
        ("typeof M(S);", "set"),
        ("typeof (S -> S);", "map"),
        ("typeof card S;", "card"),
    ]);
}

#[test]
fn named_spaces_and_parameters() {
    check(&[
        ("D := [n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i };", NONE),
        ("W := [n] -> { S[i, j] -> y[i] } * D;", NONE),
        ("Sched := [n] -> { S[i, j] -> [i, j] };", NONE),
        ("Same := W . W^-1;", NONE),
        ("Before := Sched . ((range Sched) << (range Sched)) . Sched^-1;", NONE),
        ("Dep := Same * Before;", NONE),
        ("Dep = [n] -> { S[i, j] -> S[i, j'] : 0 <= j < j' <= i < n };", "True"),
        // isl keeps the relation's space: the distances of S -> S live in S (issue 21)
        ("deltas Dep = [n] -> { S[0, d] : 0 < d < n };", "True"),
        ("lexmax (Dep^-1) = [n] -> { S[i, j] -> S[i, j - 1] : 1 <= j <= i < n };", "True"),
        ("range W = [n] -> { y[i] : 0 <= i < n };", "True"),
        ("L := [D, W, 3];", NONE),
        ("lexmin L[0] = [n] -> { S[0, 0] : n > 0 };", "True"),
        ("typeof L;", "list"),
        ("({ S[i] -> T[i] } + { T[i] -> U[i + 1] }) . ({ T[i] -> V[i] } + { U[i] -> W[i] }) = { S[i] -> V[i]; T[i] -> W[i + 1] };", "True"),
        ("{ S[i] -> T[i] }({ S[i] : 0 <= i < 2; R[j] }) = { T[i] : 0 <= i < 2 };", "True"),
    ]);
}

#[test]
fn conformance_statement_shapes() {
    // Exactly the shapes check.py sends (see ../shared/conformance/check.py, statements()).
    check(&[
        ("is_empty ({ [i] : 0 <= i < 0 });", "True"),
        (
            "lexmin ({ [i, j] : 0 <= i < 3 and 2 <= j < 4 }) = { [0, 2] };",
            "True",
        ),
        (
            "({ [i] -> [i, i] })({ [i] : 0 <= i < 2 }) = { [i, i] : 0 <= i < 2 };",
            "True",
        ),
        (
            "({ [i] -> [i + 1] }) . ({ [i] -> [2i] }) = { [i] -> [2i + 2] };",
            "True",
        ),
        ("({ [i] : i >= 0 }) <= ({ [i] : i >= -1 });", "True"),
        ("({ [i] : i >= 0 }) = ({ [i] : i >= -1 });", "False"),
        ("card ({ [i] : 0 <= i < 42 });", "{ 42 }"),
        (
            "({ [i] -> [j] : j >= i })^-1 = { [j] -> [i] : j >= i };",
            "True",
        ),
        ("lexmin ({ [i] : i <= 0 });", "error…"),
    ]);
}

#[test]
fn dataflow() {
    // A write S[i] -> a[i] read by T[i] -> a[i] executed after it; T[0] reads
    // an element nobody wrote.
    check(&[
        ("W := { S[i] -> a[i] : 1 <= i < 10 };", NONE),
        ("R := { T[i] -> a[i] : 0 <= i < 10 };", NONE),
        ("Sch := { S[i] -> [i, 0]; T[i] -> [i, 1] };", NONE),
        ("D := last W any { } before R under Sch;", NONE),
        ("D[0] = { S[i] -> T[i] : 1 <= i < 10 };", "True"),
        ("D[1] = { S[i] -> T[i] : 1 <= i < 10 };", "True"),
        ("D[2] = { T[0] -> a[0] };", "True"),
        ("D[3] = { T[0] -> a[0] };", "True"),
        ("K := { S2[i] -> a[i] : 1 <= i < 10 };", NONE),
        (
            "Sch3 := { S[i] -> [i, 0, 0]; S2[i] -> [i, 0, 1]; T[i] -> [i, 1, 0] };",
            NONE,
        ),
        ("E := last W any { } kill K before R under Sch3;", NONE),
        ("is_empty E[0];", "True"),
        ("F := last W before R under Sch;", NONE),
        ("F[0] = D[0];", "True"),
        ("G := any W before R under Sch;", NONE),
        ("G[0] = D[1];", "True"),
    ]);
}

#[test]
fn card_of_a_huge_set() {
    check(&[
        (
            "card { [i] : 0 <= i < 100000000000000000000 };",
            "{ 100000000000000000000 }",
        ),
        (
            "card { [i, j] : 0 <= i < 100000000000 and 0 <= j < 100000000000 };",
            "{ 10000000000000000000000 }",
        ),
    ]);
}

/// Run a script (in batch mode: one line per statement); the output text.
fn script_output(src: &str, batch: bool) -> String {
    let mut out = Vec::new();
    run_script(src, batch, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn codegen_prints_the_loops() {
    // iscc's `codegen S;` and `codegen S using O;`
    let out = script_output(
        "S := [n] -> { A[i] -> [i] : 0 <= i < n };\ncodegen S;\n\
         codegen { A[i, j] -> [i, j] : 0 <= i, j < 3 } using { [i, j] -> unroll[1] };\n",
        false,
    );
    assert_eq!(
        out,
        "for (int c0 = 0; c0 <= n - 1; c0 += 1)\n  A(c0);\n\
         for (int c0 = 0; c0 <= 2; c0 += 1) {\n  A(c0, 0);\n  A(c0, 1);\n  A(c0, 2);\n}\n"
    );
    // a literal with parameters right after the word, as iscc users type it
    let out = script_output("codegen [n] -> { A[i] -> [i] : 0 <= i < n };\n", false);
    assert_eq!(out, "for (int c0 = 0; c0 <= n - 1; c0 += 1)\n  A(c0);\n");
    // errors: a set is not a schedule; an unknown option is named
    let out = script_output("codegen { A[i] : 0 <= i < 3 };\ncodegen { A[i] -> [i] : 0 <= i < 3 } using { [i] -> fuse[0] };\n", true);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("error: statement 1, line 1, column 9:"),
        "{out}"
    );
    assert!(lines[0].contains("must be a map"), "{out}");
    assert!(
        lines.iter().any(
            |l| l.starts_with("error: statement 2, line 2, column 53:") && l.contains("`fuse`")
        ),
        "{out}"
    );
}
