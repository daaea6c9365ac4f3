//! Calculator tests that need no solver: lexing, parsing, typing, lists,
//! integers, error reporting and recovery, the batch protocol, sessions.

use std::io::Cursor;

use calc::ast::ExprKind;
use calc::lexer::{Lexer, Tok};
use calc::parser::Parser;
use calc::{interactive, run_script, Session};

mod common;
use common::run;

/// The single output line of a one-statement script.
fn one(src: &str) -> String {
    let lines = run(src);
    assert_eq!(lines.len(), 1, "{src:?} printed {lines:?}");
    lines[0].clone()
}

/// Assert that a line is an error at `line:col` mentioning `what`.
fn assert_error(got: &str, stmt: usize, line: usize, col: usize, what: &str) {
    let head = format!("error: statement {stmt}, line {line}, column {col}: ");
    assert!(got.starts_with(&head), "expected {head:?}..., got {got:?}");
    assert!(got.contains(what), "expected {what:?} in {got:?}");
}

#[test]
fn assignments_print_nothing_expressions_and_print_do() {
    assert_eq!(run("a := 1; b := 2;"), Vec::<String>::new());
    assert_eq!(run("a := 1; a; print a; a + 1;"), ["1", "1", "2"]);
}

#[test]
fn integers_and_precedence() {
    assert_eq!(one("1 + 2 * 3;"), "7");
    assert_eq!(one("(1 + 2) * 3;"), "9");
    assert_eq!(one("10 - 3 - 2;"), "5");
    assert_eq!(one("-4 + 1;"), "-3");
    assert_eq!(one("- - 4;"), "4");
    assert_eq!(
        one("123456789012345678901234567890 * 10;"),
        "1234567890123456789012345678900"
    );
}

#[test]
fn integer_comparisons_print_true_false() {
    assert_eq!(
        run("1 = 1; 1 = 2; 1 <= 2; 2 <= 1; 3 >= 3; 1 < 1; 2 > 1;"),
        ["True", "False", "True", "False", "True", "False", "True"]
    );
    assert_eq!(one("1 + 1 = 2;"), "True", "comparisons bind loosest");
    assert_eq!(one("(1 = 1) = (2 = 2);"), "True");
}

#[test]
fn lists_and_indexing() {
    assert_eq!(one("[1, 2, 3];"), "[1, 2, 3]");
    assert_eq!(one("[];"), "[]");
    assert_eq!(
        run("L := [10, [20, 30], \"s\"]; L[0]; L[1][1]; L[2]; L;"),
        ["10", "30", "s", "[10, [20, 30], \"s\"]"]
    );
    assert_eq!(one("[1, 2][1 + 0 * 5];"), "2");
    assert_eq!(one("[1] + [2, 3];"), "[1, 2, 3]");
    assert_eq!(one("is_empty [];"), "True");
}

#[test]
fn typeof_names() {
    assert_eq!(
        run("typeof 1; typeof [1]; typeof \"x\"; typeof (1 = 1); typeof typeof 1; L := [1]; typeof L[0];"),
        ["int", "list", "string", "bool", "string", "int"]
    );
}

#[test]
fn strings() {
    assert_eq!(
        run("print \"hello, world\"; \"a\" + \"b\"; \"a\" = \"a\";"),
        ["hello, world", "ab", "True"]
    );
    assert_eq!(one("\"tab\\there\";"), "tab\there");
}

#[test]
fn comments_and_empty_statements() {
    assert_eq!(
        run("# a comment\n;;  a := 2; # trailing\n a; # done\n"),
        ["2"]
    );
}

#[test]
fn batch_prints_one_line_per_value_statement() {
    let src = "a := 1;\na;\nb;\nc := a + ;\na + 1;\n[a, a];\nx := [1, 2];\nx[5];\nprint x[0];\n";
    let lines = run(src);
    // a; b (error); c := (error); a + 1; [a, a]; x[5] (error); print x[0]
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert_eq!(lines[0], "1");
    assert_error(&lines[1], 3, 3, 1, "unknown identifier `b`");
    assert_error(&lines[2], 4, 4, 10, "expected an operand");
    assert_eq!(lines[3], "2");
    assert_eq!(lines[4], "[1, 1]");
    assert_error(
        &lines[5],
        8,
        8,
        2,
        "index 5 out of range for a list of 2 elements",
    );
    assert_eq!(lines[6], "1");
}

#[test]
fn error_lines_do_not_stop_the_run() {
    let lines = run("x;\ny;\n1;\n");
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("error:"));
    assert!(lines[1].starts_with("error:"));
    assert_eq!(lines[2], "1");
}

#[test]
fn summary_counts() {
    let mut out = Vec::new();
    let s = run_script("a := 1; a; b; [a];", true, &mut out).unwrap();
    assert_eq!((s.statements, s.values, s.errors), (4, 2, 1));
}

// ---- the malformed-script corpus: each gives clean `error:` lines with positions ----

#[test]
fn malformed_unknown_identifier() {
    assert_error(&one("  foo;"), 1, 1, 3, "unknown identifier `foo`");
    assert_error(&one("[1, bar];"), 1, 1, 5, "unknown identifier `bar`");
}

#[test]
fn malformed_unbalanced_braces_recover_at_next_statement() {
    let lines = run("A := { [i] : i > 0;\nB := 5;\nB;\n");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_error(&lines[0], 1, 1, 6, "a `}` closing the `{` of this literal");
    assert_eq!(lines[1], "5");

    let lines = run("A := { [i] : i > 0;\n");
    assert_eq!(lines.len(), 1);
    assert_error(&lines[0], 1, 1, 6, "before the end of input");

    let lines = run("1;\n}\nx := 2;\nx;\n");
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "1");
    assert_error(&lines[1], 2, 2, 1, "found `}`");
    assert_eq!(lines[2], "2");
}

#[test]
fn malformed_unbalanced_parentheses_and_brackets() {
    assert_error(&one("((1);"), 1, 1, 5, "expected `)`");
    assert_error(
        &one("(1));"),
        1,
        1,
        4,
        "expected `;` or an operator, found `)`",
    );
    assert_error(&one("[1, 2;"), 1, 1, 6, "expected `,` or `]`");
    assert_error(&one("[1][0;"), 1, 1, 6, "expected `]` closing the index");
}

#[test]
fn malformed_missing_semicolon() {
    // The next statement starts on a new line: only the unterminated one fails.
    let lines = run("a := 1\nb := 2;\nb;\n");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_error(&lines[0], 1, 2, 1, "expected `;` or an operator, found `b`");
    assert_eq!(lines[1], "2");
    // At the end of input.
    assert_error(&one("1 + 1"), 1, 1, 6, "found end of input");
}

#[test]
fn malformed_type_errors() {
    assert_error(
        &one("lexmin [1, 2];"),
        1,
        1,
        1,
        "`lexmin` expects a set or a map, found a list",
    );
    assert_error(
        &one("x := 3;\ndomain x;"),
        2,
        2,
        1,
        "`domain` expects a map, found an int",
    );
    assert_error(
        &one("card \"s\";"),
        1,
        1,
        1,
        "`card` expects a set or a map, found a string",
    );
    assert_error(
        &one("1 + [1];"),
        1,
        1,
        3,
        "`+` cannot combine an int and a list",
    );
    assert_error(
        &one("\"a\" . [2];"),
        1,
        1,
        5,
        "`.` expects two maps, found a string and a list",
    );
    assert_error(
        &one("(1)(2);"),
        1,
        1,
        4,
        "only a map can be applied, found an int",
    );
    assert_error(
        &one("1[0];"),
        1,
        1,
        2,
        "only a list can be indexed, found an int",
    );
    assert_error(
        &one("[1][\"a\"];"),
        1,
        1,
        4,
        "a list index must be an int, found a string",
    );
    assert_error(
        &one("[1]^-1;"),
        1,
        1,
        4,
        "`^-1` expects a map, found a list",
    );
    assert_error(&one("-[1];"), 1, 1, 1, "unary `-` expects an int");
    assert_error(&one("[1] << 2;"), 1, 1, 5, "`<<` expects two sets");
    assert_error(
        &one("is_single_valued 1;"),
        1,
        1,
        1,
        "`is_single_valued` expects a map",
    );
}

#[test]
fn malformed_wrong_index() {
    assert_error(
        &one("[1, 2][2];"),
        1,
        1,
        7,
        "index 2 out of range for a list of 2 elements",
    );
    assert_error(&one("[1, 2][-1];"), 1, 1, 7, "index -1 out of range");
    assert_error(
        &one("[][0];"),
        1,
        1,
        3,
        "out of range for a list of 0 elements",
    );
}

#[test]
fn malformed_keywords_and_symbols() {
    assert_error(
        &one("domain := 1;"),
        1,
        1,
        1,
        "a variable name before `:=`, found keyword `domain`",
    );
    assert_error(&one("lexmin;"), 1, 1, 7, "expected an operand");
    assert_error(&one("1 ^ 2;"), 1, 1, 3, "`^2` expects a map, found an int");
    assert_error(&one("1 $ 2;"), 1, 1, 3, "unexpected character `$`");
    assert_error(&one("\"open;"), 1, 1, 1, "a `\"` closing this string");
    assert_error(&one("print;"), 1, 1, 6, "expected an operand");
    assert_error(&one("kill;"), 1, 1, 1, "found keyword `kill`");
}

/// iscc's operators the calculator does not have are named in the error,
/// never "expected an operator"; a variable with such a name still works.
#[test]
fn unsupported_iscc_operators_are_named() {
    let cases: &[(&str, usize, &str)] = &[
        ("coefficients S;", 1, "coefficients"),
        ("vertices S;", 1, "vertices"),
        ("vertices [n] -> { [i] : 0 <= i <= n };", 1, "vertices"),
        (
            "coefficients [n] -> { [i] : 0 <= i <= n };",
            1,
            "coefficients",
        ),
        ("lattice_width S;", 1, "lattice_width"),
        ("dim S;", 1, "dim"),
        ("pow M;", 1, "pow"),
        ("M before M;", 3, "before"),
        ("M cross_range M;", 3, "cross_range"),
        ("S @ S;", 3, "@"),
        ("S == S;", 3, "=="),
    ];
    for (src, col, op) in cases {
        let lines = run(&format!(
            "S := {{ [i] : 0 <= i < 4 }}; M := {{ [i] -> [i + 1] }};\n{src}"
        ));
        assert_eq!(lines.len(), 1, "{src}: {lines:?}");
        assert_error(&lines[0], 3, 2, *col, &format!("not supported: {op}"));
    }
    // the names stay usable as variables
    assert_eq!(run("dim := 3; dim + 1; pow := [1]; pow[0];"), ["4", "1"]);
    // ub and lb are operators now: of a set, a type error
    let lines = run("ub { [i] : 0 <= i < 4 };");
    assert!(
        lines[0].contains("`ub` expects a piecewise quasipolynomial"),
        "{lines:?}"
    );
    // iscc's short names of domain and range
    assert_eq!(
        run("dom { [i] -> [j] : i = 1 and j = 2 } = ran { [j] -> [i] : i = 1 and j = 2 };"),
        ["True"]
    );
}

#[test]
fn malformed_dataflow() {
    assert_error(&one("last 1 before 2;"), 1, 1, 16, "expected `under`");
    assert_error(
        &one("last 1 under 2;"),
        1,
        1,
        8,
        "expected `any`, `kill` or `before`",
    );
    assert_error(&one("any 1 kill 2 under 3;"), 1, 1, 14, "expected `before`");
    assert_error(
        &one("last 1 before 2 under 3;"),
        1,
        1,
        6,
        "must be a map, found an int",
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let src = format!("{}1{};", "(".repeat(5000), ")".repeat(5000));
    assert_error(&one(&src), 1, 1, 101, "nested at most");
    let src = format!("{}1;", "lexmin ".repeat(5000));
    assert!(one(&src).starts_with("error: statement 1, line 1"));
}

#[test]
fn statement_numbers_and_positions_on_later_lines() {
    let lines = run("a := 1;\n\n   # comment\n  a;  zz;\n");
    assert_eq!(lines[0], "1");
    assert_error(&lines[1], 3, 4, 7, "unknown identifier `zz`");
}

// ---- the grammar ----

fn parse_one(src: &str) -> calc::ast::Stmt {
    let mut p = Parser::new(Lexer::new(src, 1).tokenize());
    let s = p.next_statement().expect("a statement").expect("parses");
    assert!(p.next_statement().is_none());
    s
}

fn expr_of(s: calc::ast::Stmt) -> calc::ast::Expr {
    match s {
        calc::ast::Stmt::Expr { expr, .. }
        | calc::ast::Stmt::Print { expr, .. }
        | calc::ast::Stmt::Assign { expr, .. } => expr,
    }
}

#[test]
fn literals_are_single_tokens() {
    let toks = Lexer::new(
        "A := [n, m] -> { S[i] : i < n; T[j] -> U[j] } + { [i] };",
        1,
    )
    .tokenize();
    let lits: Vec<_> = toks
        .iter()
        .filter_map(|t| match &t.tok {
            Tok::Literal(s) => Some((s.clone(), t.pos.col)),
            _ => None,
        })
        .collect();
    assert_eq!(
        lits,
        [
            ("[n, m] -> { S[i] : i < n; T[j] -> U[j] }".to_string(), 6),
            ("{ [i] }".to_string(), 49)
        ]
    );
    // After an operand, `[` is an index, not a parameter list.
    let toks = Lexer::new("L[n] -> { [i] };", 1).tokenize();
    assert!(matches!(toks[1].tok, Tok::Sym("[")));
    // A list that is not followed by `-> {` stays a list.
    let toks = Lexer::new("[a, b];", 1).tokenize();
    assert!(matches!(toks[0].tok, Tok::Sym("[")));
    // Multi-line literals keep their text.
    let toks = Lexer::new("{ S[i] : i > 0;\n  T[j] };", 1).tokenize();
    assert_eq!(
        toks[0].tok,
        Tok::Literal("{ S[i] : i > 0;\n  T[j] }".into())
    );
    assert!(matches!(toks[1].tok, Tok::Sym(";")));
    assert_eq!(toks[1].pos.line, 2);
}

#[test]
fn dataflow_grammar() {
    let cases = [
        ("last W any M kill K before R under S;", (true, true, true)),
        ("last W any M before R under S;", (true, true, false)),
        ("last W before R under S;", (true, false, false)),
        ("any M before R under S;", (false, true, false)),
        (
            "last (W + W) any ({ }) kill K . K before R * R under S^-1;",
            (true, true, true),
        ),
    ];
    for (src, (must, may, kill)) in cases {
        match expr_of(parse_one(src)).kind {
            ExprKind::Flow(f) => {
                assert_eq!(
                    (f.must.is_some(), f.may.is_some(), f.kill.is_some()),
                    (must, may, kill),
                    "{src}"
                )
            }
            other => panic!("{src}: not a flow: {other:?}"),
        }
    }
    // D := last ... ; D[0] parses as an assignment and an indexing.
    assert!(matches!(
        parse_one("D := last W before R under S;"),
        calc::ast::Stmt::Assign { .. }
    ));
    assert!(matches!(
        expr_of(parse_one("D[0];")).kind,
        ExprKind::Index(..)
    ));
}

#[test]
fn operator_precedence_and_associativity() {
    use calc::ast::BinOp;
    fn top(src: &str) -> BinOp {
        match expr_of(parse_one(src)).kind {
            ExprKind::Binary(op, ..) => op,
            other => panic!("{src}: {other:?}"),
        }
    }
    assert_eq!(top("A + B * C;"), BinOp::Union);
    assert_eq!(top("A * B + C;"), BinOp::Union);
    assert_eq!(top("A . B * C;"), BinOp::Inter);
    assert_eq!(top("A - B . C;"), BinOp::Diff);
    assert_eq!(top("A + B = C;"), BinOp::Eq);
    assert_eq!(top("A << B + C;"), BinOp::LexLt);
    assert_eq!(top("A -> B * C;"), BinOp::Inter);
    assert_eq!(top("A cross B . C;"), BinOp::Cross);
    assert_eq!(top("A % B;"), BinOp::Gist);
    // Prefix operators bind tighter than binary ones, postfix ones tighter still.
    match expr_of(parse_one("domain M^-1 . N;")).kind {
        ExprKind::Binary(BinOp::Join, l, _) => match l.kind {
            ExprKind::Unary(_, x) => assert!(matches!(x.kind, ExprKind::Inverse(_))),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    // `({1})({0})` is an application; `A(B)[0]` indexes the result.
    assert!(matches!(
        expr_of(parse_one("(M)(S);")).kind,
        ExprKind::Apply(..)
    ));
    assert!(matches!(
        expr_of(parse_one("M(S)[0];")).kind,
        ExprKind::Index(..)
    ));
    // Left associativity.
    match expr_of(parse_one("A - B - C;")).kind {
        ExprKind::Binary(BinOp::Diff, l, r) => {
            assert!(matches!(l.kind, ExprKind::Binary(BinOp::Diff, ..)));
            assert!(matches!(r.kind, ExprKind::Var(_)));
        }
        other => panic!("{other:?}"),
    }
    // Every prefix operator and its alias parses.
    for op in [
        "lexmin",
        "lexmax",
        "domain",
        "range",
        "deltas",
        "deltas_map",
        "domain_map",
        "range_map",
        "identity",
        "coalesce",
        "sample",
        "card",
        "params",
        "wrap",
        "unwrap",
        "affine_hull",
        "aff",
        "convex_hull",
        "hull",
        "typeof",
        "is_empty",
        "complement",
        "is_single_valued",
        "is_injective",
    ] {
        assert!(
            matches!(
                expr_of(parse_one(&format!("{op} X;"))).kind,
                ExprKind::Unary(..)
            ),
            "{op}"
        );
    }
}

// ---- sessions ----

#[test]
fn session_keeps_variables_between_chunks() {
    let mut s = Session::new(true);
    let mut out = Vec::new();
    s.run("a := 41;", 1, &mut out, None).unwrap();
    s.run("a + 1; zz;", 2, &mut out, None).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines[0], "42");
    assert_error(lines[1], 3, 2, 8, "unknown identifier");
}

#[test]
fn errors_can_go_to_a_separate_writer_with_context() {
    let mut s = Session::new(false);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    s.run("1;\n  nope + 1;\n", 1, &mut out, Some(&mut err))
        .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "1\n");
    let err = String::from_utf8(err).unwrap();
    assert!(
        err.starts_with("error: statement 2, line 2, column 3: unknown identifier `nope`\n"),
        "{err}"
    );
    assert!(err.contains("  2 |   nope + 1;\n"), "{err}");
    assert!(err.contains("    |   ^\n"), "{err}");
}

/// On a long line the context is an excerpt around the column, with the
/// caret under it; a named script's error lines name it.
#[test]
fn errors_show_an_excerpt_of_a_long_line_and_name_the_file() {
    let mut s = Session::new(false);
    s.set_source_name(Some("long.iscc".into()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let line = format!("X := [{}1]; nope;", "1, ".repeat(30_000));
    s.run(&line, 1, &mut out, Some(&mut err)).unwrap();
    let err = String::from_utf8(err).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].starts_with(
            "error: long.iscc: statement 2, line 1, column 90011: unknown identifier `nope`"
        ),
        "{}",
        lines[0]
    );
    assert!(lines[1].len() < 100, "{}", lines[1]);
    assert_eq!(
        lines[1],
        format!("  1 | ...{}1]; nope;", &"1, ".repeat(30_000)[90_000 - 36..])
    );
    // the caret is under `nope`
    let caret = lines[2].find('^').unwrap();
    assert_eq!(&lines[1][caret..caret + 4], "nope");
}

/// An error message quoting a huge value is shortened in the middle.
#[test]
fn huge_error_messages_are_shortened() {
    let name = "x".repeat(100_000);
    let lines = run(&format!("{name} + 1;"));
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("error: statement 1, line 1, column 1: unknown identifier `xxx"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("characters left out"), "{}", lines[0]);
    assert!(lines[0].len() < 600, "{} characters", lines[0].len());
}

#[test]
fn interactive_runs_each_complete_statement() {
    let input = "a := 2;\na\n + 1;\nb := [a,\n a]; b[1];\nzz;\nc := { [i] :\n";
    let mut out = Vec::new();
    let s = interactive(&mut Cursor::new(input), &mut out, false).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines[0], "3");
    assert_eq!(lines[1], "2");
    assert_error(lines[2], 5, 6, 1, "unknown identifier `zz`");
    // The unterminated literal at the end of input is reported with its position.
    assert!(
        text.contains("error: statement 6, line 7, column 6:"),
        "{text}"
    );
    assert_eq!(s.errors, 2);
}

#[test]
fn interactive_prompt() {
    let mut out = Vec::new();
    interactive(&mut Cursor::new("1;\n[1,\n2];\n"), &mut out, true).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "poly> 1\npoly>  ...> [1, 2]\npoly> \n"
    );
}

// ---- literals (the engine's notation, no solver needed) ----

/// The engine's own rendering of a literal after a structural operation.
fn engine_text(
    lit: &str,
    f: impl Fn(&presburger::UnionMap) -> presburger::Result<presburger::UnionMap>,
) -> String {
    let u: presburger::UnionMap = lit.parse().unwrap();
    calc::show(&f(&u).unwrap())
}

#[test]
fn literal_types() {
    assert_eq!(
        run("typeof { [i] }; typeof { [i] -> [j] }; typeof [n] -> { S[i] : i < n }; typeof { }; typeof [n] -> { : n > 0 };"),
        ["set", "map", "set", "set", "set"]
    );
    assert_eq!(
        run("M := { [i] -> [j] }; S := { [i] }; typeof domain M; typeof M(S); typeof (S -> S); typeof identity S; typeof wrap M; typeof unwrap wrap M; typeof (S << S); typeof [S, M];"),
        ["set", "set", "map", "map", "set", "map", "map", "list"]
    );
}

#[test]
fn structural_operators_print_the_engines_values() {
    let m = "{ A[i] -> B[i + 1] : 0 <= i < 10 }";
    assert_eq!(one(&format!("({m})^-1;")), engine_text(m, |u| u.reverse()));
    assert_eq!(one(&format!("domain {m};")), engine_text(m, |u| u.domain()));
    assert_eq!(one(&format!("range {m};")), engine_text(m, |u| u.range()));
    assert_eq!(one(&format!("wrap {m};")), engine_text(m, |u| u.wrap()));
    assert_eq!(
        one(&format!("domain_map {m};")),
        engine_text(m, |u| u.domain_map())
    );
    assert_eq!(
        one(&format!("range_map {m};")),
        engine_text(m, |u| u.range_map())
    );
    let s = "[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }";
    assert_eq!(
        one(&format!("identity {s};")),
        engine_text(s, |u| u.identity())
    );
    assert_eq!(one(&format!("{s};")), engine_text(s, |u| Ok(u.clone())));
    // An assignment keeps the value; a variable prints it again.
    assert_eq!(
        run(&format!("X := {s}; X; print X;")),
        [
            engine_text(s, |u| Ok(u.clone())),
            engine_text(s, |u| Ok(u.clone()))
        ]
    );
    // Lists of sets print their elements.
    assert_eq!(
        one(&format!("[{s}, 1];")),
        format!("[{}, 1]", engine_text(s, |u| Ok(u.clone())))
    );
}

#[test]
fn literal_errors_point_into_the_script() {
    // The engine's parse error position is translated to the script's line and column.
    let got = one("x := 1;\n  A := { [i] : i >< 0 };");
    assert!(
        got.starts_with("error: statement 2, line 2, column "),
        "{got}"
    );
    assert!(got.contains("parse error"), "{got}");
    let col: usize = got["error: statement 2, line 2, column ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (15..=19).contains(&col),
        "column {col} should point inside the literal: {got}"
    );
    // Unknown variables inside isl notation are the engine's business, reported the same way.
    assert!(one("{ [i] : i < ; };").starts_with("error: statement 1, line 1, column "));
    // A multi-line literal: the error is on its second line.
    let got = one("{ [i] :\n  i >< 0 };");
    assert!(
        got.starts_with("error: statement 1, line 2, column "),
        "{got}"
    );
}

#[test]
fn literal_type_errors() {
    assert_error(
        &one("domain { [i] };"),
        1,
        1,
        1,
        "`domain` expects a map, found a set",
    );
    assert_error(
        &one("range { [i] };"),
        1,
        1,
        1,
        "`range` expects a map, found a set",
    );
    assert_error(
        &one("deltas { [i] : i > 0 };"),
        1,
        1,
        1,
        "`deltas` expects a map, found a set",
    );
    assert_error(
        &one("identity { [i] -> [j] };"),
        1,
        1,
        1,
        "`identity` expects a set, found a map",
    );
    assert_error(
        &one("unwrap { [i] -> [j] };"),
        1,
        1,
        1,
        "`unwrap` expects a set, found a map",
    );
    assert_error(
        &one("sum { [i] };"),
        1,
        1,
        1,
        "`sum` expects a piecewise quasipolynomial, found a set",
    );
    assert_error(
        &one("is_injective { [i] };"),
        1,
        1,
        1,
        "`is_injective` expects a map, found a set",
    );
    assert_error(
        &one("{ [i] }^-1;"),
        1,
        1,
        8,
        "`^-1` expects a map, found a set",
    );
    assert_error(
        &one("{ [i] } + { [i] -> [j] };"),
        1,
        1,
        9,
        "`+` cannot combine a set and a map",
    );
    assert_error(
        &one("{ [i] } = { [i] -> [j] };"),
        1,
        1,
        9,
        "`=` cannot combine a set and a map",
    );
    assert_error(
        &one("{ [i] } . { [i] };"),
        1,
        1,
        9,
        "`.` expects two maps, found a set and a set",
    );
    assert_error(
        &one("{ [i] -> [j] } -> { [i] };"),
        1,
        1,
        16,
        "`->` expects two sets, found a map and a set",
    );
    assert_error(
        &one("{ [i] -> [j] } << { [i] };"),
        1,
        1,
        16,
        "`<<` expects two sets",
    );
    assert_error(
        &one("f := card [n] -> { [i] : 0 <= i < n };\nf({ [n] -> [10] });"),
        2,
        2,
        2,
        "a quasi-polynomial is evaluated at a set of points (e.g. `f([n] -> { : n = 10 })`), not at a map",
    );
    assert_error(
        &one("{ [i] }({ [i] });"),
        1,
        1,
        8,
        "only a map can be applied, found a set",
    );
    assert_error(
        &one("{ [i] -> [j] }(1);"),
        1,
        1,
        15,
        "a map can be applied to a set or a map, not to an int",
    );
    assert_error(
        &one("{ [i] }[0];"),
        1,
        1,
        8,
        "only a list can be indexed, found a set",
    );
    assert_error(
        &one("{ [i] } + 1;"),
        1,
        1,
        9,
        "`+` cannot combine a set and an int",
    );
    assert_error(
        &one("last { [i] } before { [i] -> [j] } under { [i] -> [j] };"),
        1,
        1,
        6,
        "must be a map, found a set",
    );
}

#[test]
fn the_empty_literal_is_a_set_and_a_map() {
    // `{ }` has no parts: it may stand for an empty set or an empty map.
    assert_eq!(one("typeof ({ } + { [i] -> [j] });"), "map");
    assert_eq!(one("typeof ({ } + { [i] });"), "set");
    assert_eq!(one("typeof { }^-1;"), "map");
    assert_eq!(one("typeof ({ [i] -> [j] } . { });"), "map");
}

#[test]
fn product_cross_and_lex_order_are_structural() {
    let a = "{ A[i] : 0 <= i < 3 }";
    let b = "{ B[j] : 0 <= j < 2 }";
    let ua: presburger::UnionMap = a.parse().unwrap();
    let ub: presburger::UnionMap = b.parse().unwrap();
    let show = calc::show;
    assert_eq!(
        one(&format!("{a} -> {b};")),
        show(&ua.product_sets(&ub).unwrap())
    );
    assert_eq!(
        one(&format!("{a} cross {b};")),
        show(&ua.cross(&ub).unwrap())
    );
    assert_eq!(
        one(&format!("{a} << {b};")),
        show(&ua.lex_order(&ub, true, true).unwrap())
    );
    assert_eq!(
        one(&format!("{a} <<= {b};")),
        show(&ua.lex_order(&ub, false, true).unwrap())
    );
    assert_eq!(
        one(&format!("{a} >> {b};")),
        show(&ua.lex_order(&ub, true, false).unwrap())
    );
    assert_eq!(
        one(&format!("{a} >>= {b};")),
        show(&ua.lex_order(&ub, false, false).unwrap())
    );
    let m = "{ A[i] -> B[i] }";
    let n = "{ B[i] -> C[2i] }";
    let um: presburger::UnionMap = m.parse().unwrap();
    let un: presburger::UnionMap = n.parse().unwrap();
    assert_eq!(
        one(&format!("{m} . {n};")),
        show(&um.apply_range(&un).unwrap())
    );
    assert_eq!(
        one(&format!("({n})({m});")),
        show(&um.apply_range(&un).unwrap())
    );
    assert_eq!(one(&format!("({m})({a});")), show(&ua.apply(&um).unwrap()));
    assert_eq!(
        one(&format!("{a} * {m};")),
        show(&um.intersect_domain(&ua).unwrap())
    );
    assert_eq!(
        one(&format!("{m} * {a};")),
        show(&um.intersect_domain(&ua).unwrap())
    );
    assert_eq!(one(&format!("{a} + {b};")), show(&ua.union(&ub).unwrap()));
}

/// The calculator of the `calc` fuzz target: a batch run, and how many
/// values and errors it printed.
fn fuzz_calculator(script: &str, out: &mut Vec<u8>) -> usize {
    let summary = run_script(script, true, out).expect("writing to a vector cannot fail");
    summary.values + summary.errors
}

/// Replays the stored corpus of the `calc` fuzz target (`fuzz/corpus/calc`)
/// through its body (`testkit::fuzz::calc`), so regressions found by fuzzing
/// the calculator are caught by a plain `cargo test`.
#[test]
fn calc_fuzz_corpus() {
    testkit::fuzz::replay("calc", |d| testkit::fuzz::calc(d, fuzz_calculator));
}

/// `poly calc --help` lists every operator of the language.
#[test]
fn the_help_lists_every_operator() {
    use calc::ast::{BinOp, UnOp};
    let help = calc::operators_help();
    for op in UnOp::ALL {
        assert!(
            help.contains(op.name()),
            "{} missing from the help",
            op.name()
        );
    }
    for op in BinOp::ALL {
        assert!(
            help.contains(op.symbol()),
            "{} missing from the help",
            op.symbol()
        );
    }
    for op in calc::parser::UNSUPPORTED_PREFIX {
        assert!(help.contains(op), "{op} missing from the help");
    }
}

/// Literals are simplified on reading, as isl does: a division of a
/// constant is folded, an implied bound dropped, a residue printed as isl's
/// `mod`.
#[test]
fn literals_are_simplified_on_reading() {
    assert_eq!(
        run("{ [x] : x = 1 mod 3 }; { [i] : 0 <= i <= 5 and i <= 3 }; { [i] : i mod 3 = 1 };"),
        [
            "{ [x = 1] }",
            "{ [i] : 0 <= i <= 3 }",
            "{ [i] : (i - 1) mod 3 = 0 }"
        ]
    );
}

/// `M^+` is the list `[closure, is_exact]` of the engine's transitive
/// closure, `M^k` the exact power; both bind as tightly as `^-1`.
#[test]
fn closure_and_powers() {
    let m = "[n] -> { [i] -> [i + 1] : 0 <= i < n }";
    let (c, exact) = m
        .parse::<presburger::UnionMap>()
        .unwrap()
        .transitive_closure()
        .unwrap();
    assert!(exact);
    assert_eq!(
        one(&format!("({m})^+;")),
        format!("[{}, True]", calc::show(&c))
    );
    assert_eq!(
        one(&format!(
            "({m})^+[0] = [n] -> {{ [i] -> [j] : 0 <= i < j <= n }};"
        )),
        "True"
    );
    assert_eq!(
        one(&format!(
            "({m})^3 = [n] -> {{ [i] -> [i + 3] : 0 <= i <= n - 3 }};"
        )),
        "True"
    );
    assert_eq!(
        one(&format!(
            "domain ({m})^2 = [n] -> {{ [i] : 0 <= i <= n - 2 }};"
        )),
        "True"
    );
    assert_eq!(one(&format!("({m})^1 = {m};")), "True");
    assert_error(
        &one("{ [i] -> [i] }^0;"),
        1,
        1,
        16,
        "an integer exponent k >= 1",
    );
    assert_error(
        &one("{ [i] }^+;"),
        1,
        1,
        8,
        "`^+` expects a map, found a set",
    );
    assert_error(
        &one("{ [i] }^2;"),
        1,
        1,
        8,
        "`^2` expects a map, found a set",
    );
}

/// Unbounded optima name the user's dimension (or its kind and position
/// when it has no name), never an internal index.
#[test]
fn unbounded_optima_name_the_dimension() {
    let cases = [
        (
            "lexmax { [i, j] : 0 <= i <= j };",
            "lexmax: unbounded optimum: i has no upper bound",
        ),
        (
            "lexmin [n] -> { [i] : i <= n };",
            "lexmin: unbounded optimum: i has no lower bound",
        ),
        (
            "lexmax [n] -> { S[i] -> T[j] : j >= i };",
            "lexmax: unbounded optimum: j has no upper bound",
        ),
    ];
    for (src, want) in cases {
        let got = one(src);
        assert!(got.ends_with(want), "{src}: {got}");
    }
}

/// A session with a [`calc::Progress`] shows the statement it is running
/// (number, line, the start of its text) to another thread, and nothing
/// once it is done.
#[test]
fn progress_names_the_running_statement() {
    let progress = calc::Progress::new();
    let mut s = calc::Session::new(false);
    s.set_progress(Some(progress.clone()));
    let worker = std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut err = Vec::new();
        s.run(
            // counted by enumeration: the equality's coefficients have no
            // unit one and its period (7919) is too large for residue classes
            "a := 1;\ncard { [i, j, k] : 0 <= i, j <= 800 and k >= 0 and 4999i + 5003j = 7919k };",
            1,
            &mut out,
            Some(&mut err),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    });
    let mut seen = None;
    while !worker.is_finished() {
        if let Some(r) = progress.current() {
            if r.statement == 2 {
                seen = Some(r);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let out = worker.join().unwrap();
    assert_eq!(out.trim(), "{ 82 }");
    let r = seen.expect("the long statement was visible while it ran");
    assert_eq!(r.line, 2);
    assert!(r.excerpt.starts_with("card { [i, j, k]"), "{}", r.excerpt);
    assert!(progress.current().is_none());
}
