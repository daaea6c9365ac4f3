//! The schedule-constraints reader and the tree printer.

use scheduler::{compute_schedule, Error, Options, ScheduleConstraints};

fn err(text: &str) -> (usize, usize, String) {
    match text.parse::<ScheduleConstraints>() {
        Err(Error::Input { line, col, msg }) => (line, col, msg),
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[test]
fn keys_quotes_comments_and_continuation_lines() {
    let sc: ScheduleConstraints = "# a comment\n\
        domain: { S[i] : 0 <= i < 10;\n   T[i] : 0 <= i < 10 }  # trailing\n\
        validity: \"{ S[i] -> T[i] }\"\n\
        context: \"[n] -> { : n >= 0 }\"\n"
        .parse()
        .unwrap();
    assert_eq!(sc.domain.maps().len(), 2);
    assert_eq!(sc.validity.maps().len(), 1);
    assert_eq!(sc.params(), ["n"]);
    assert!(sc.proximity.maps().is_empty());
}

#[test]
fn unknown_key_has_its_position() {
    let (l, c, m) = err("domain: \"{ S[i] }\"\nvalidty: \"{ }\"\n");
    assert_eq!((l, c), (2, 1));
    assert!(m.contains("unknown key `validty`"), "{m}");
}

#[test]
fn bad_isl_text_is_located_in_the_file() {
    let (l, c, m) = err("domain: \"{ S[i] }\"\nvalidity: \"{ S[i] -> T[i] : i >> 0 }\"\n");
    assert_eq!(l, 2);
    assert!(c > 10, "column {c}");
    assert!(m.contains("validity"), "{m}");
    let (l, _, _) = err("domain: \"{ S[i] :\n  i >= 0 and and }\"\n");
    assert_eq!(l, 2);
}

#[test]
fn missing_domain_duplicate_keys_and_stray_text() {
    assert!(err("validity: \"{ }\"\n")
        .2
        .contains("missing key `domain`"));
    assert!(err("domain: \"{ S[] }\"\ndomain: \"{ S[] }\"\n")
        .2
        .contains("duplicate"));
    assert_eq!(err("  { S[] }\n").0, 1);
    assert!(err("domain: \"{ S[] }\n").2.contains("unterminated"));
}

#[test]
fn dependences_outside_the_domain_are_errors() {
    let sc: ScheduleConstraints =
        "domain: \"{ S[i] : 0 <= i < 4 }\"\nvalidity: \"{ S[i] -> U[i] }\"\n"
            .parse()
            .unwrap();
    match compute_schedule(&sc, &Options::default()) {
        Err(Error::Invalid(m)) => assert!(m.contains("U"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_cyclic_validity_relation_is_an_error_not_a_hang() {
    let sc: ScheduleConstraints = "domain: \"{ S[i] : 0 <= i < 4 }\"\nvalidity: \"{ S[i] -> S[j] : 0 <= i, j < 4 and i != j }\"\n"
        .parse()
        .unwrap();
    assert!(compute_schedule(&sc, &Options::default()).is_err());
}

#[test]
fn a_tiny_budget_is_reported() {
    let sc: ScheduleConstraints = "domain: \"[n] -> { S[i, j] : 0 <= i, j < n }\"\nvalidity: \"[n] -> { S[i, j] -> S[i, j + 1] : 0 <= i < n and 0 <= j < n - 1 }\"\n"
        .parse()
        .unwrap();
    let opts = Options {
        budget: Some(10),
        ..Options::default()
    };
    assert_eq!(compute_schedule(&sc, &opts).unwrap_err(), Error::Budget);
}

#[test]
fn the_tree_prints_as_isl_yaml_and_its_union_map() {
    let sc: ScheduleConstraints = "domain: \"[n] -> { A[i] : 0 <= i < n; B[i] : 0 <= i < n }\"\nvalidity: \"[n] -> { A[i] -> B[i] : 0 <= i < n }\"\n"
        .parse()
        .unwrap();
    let s = compute_schedule(&sc, &Options::default()).unwrap();
    let text = s.to_string();
    assert!(text.starts_with("domain: \"[n] -> {"), "{text}");
    assert!(
        text.contains("schedule: \"[n] -> [{ A[i] -> [(i)]; B[i] -> [(i)] }]\""),
        "{text}"
    );
    assert!(
        text.contains("permutable: 1") && text.contains("coincident: [ 1 ]"),
        "{text}"
    );
    assert!(
        text.contains("sequence:\n    - filter: \"[n] -> { A[i] }\""),
        "{text}"
    );
    let um = s.to_union_map().unwrap();
    let expect: presburger::UnionMap =
        "[n] -> { A[i] -> [i, 0] : 0 <= i < n; B[i] -> [i, 1] : 0 <= i < n }"
            .parse()
            .unwrap();
    assert!(um.is_equal(&expect).unwrap(), "{um}");
}
