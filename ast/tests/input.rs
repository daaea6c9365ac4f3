//! Reading `.in` inputs: isl's bracket divisions, comments, errors with positions.

use ast::{generate, parse_map_input, run, Error};

#[test]
fn bracket_divisions_and_comments() {
    let text = "# a comment\n[n] -> { A[i] -> [[i/2], i] : exists (e0 = [(i)/2]: 2e0 = i and 0 <= i <= n) }\n[n] -> { : n >= 0 }\n{ [a, b] -> separate[x] }\n";
    let input = parse_map_input(text).unwrap();
    assert!(input.options.is_some());
    let code = generate(&input.schedule, &input.context).unwrap();
    let t = run(&code, &[("n".into(), 5)], 1000).unwrap();
    let args: Vec<i64> = t.iter().map(|(_, a)| a[0]).collect();
    assert_eq!(args, vec![0, 2, 4]);
}

#[test]
fn errors_carry_positions() {
    match parse_map_input("{ A[i] -> [i] }\n{ : }\n{ }\n{ }\n") {
        Err(Error::Parse { line: 4, .. }) => {}
        r => panic!("{r:?}"),
    }
    match parse_map_input("{ A[i] -> [i] }\n{ : n >= }\n") {
        Err(Error::Parse { line: 2, .. }) => {}
        r => panic!("{r:?}"),
    }
    assert!(parse_map_input("{ A[i] -> [i] }").is_err());
    assert!(parse_map_input("{ A[i] -> [i] }}\n{ : }").is_err());
}

#[test]
fn unbounded_loops_are_errors_and_budget_is_respected() {
    let s = "{ A[i] -> [i] : i >= 0 }".parse().unwrap();
    let c = "{ : }".parse().unwrap();
    assert!(matches!(generate(&s, &c), Err(Error::Unsupported(_))));
    let s = "[n] -> { A[i, j] -> [i, j] : 0 <= i, j <= n }"
        .parse()
        .unwrap();
    let c = "[n] -> { : }".parse().unwrap();
    assert!(matches!(
        ast::generate_with_budget(&s, &c, 10),
        Err(Error::BudgetExceeded)
    ));
}
