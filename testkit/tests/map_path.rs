//! The `Map` methods that the timing harness times on arguments of one
//! space ([`testkit::ops::map_runner`], chosen by `timed_runners`) give
//! right answers on the whole trace corpus (`benches/corpus/trace.jsonl`,
//! and its derived complement and equality cases, `derived.jsonl`):
//! the union path is judged by the conformance tests and `check.py`, this
//! judges the path whose speed `benches/README.md` quotes.

use testkit::corpus::trace_corpus;
use testkit::ops::{judge, map_runner, prepare, timed_runners, Verdict};

#[test]
fn map_path_answers_the_trace_corpus() {
    let cases = trace_corpus();
    let (mut on_maps, mut wrong) = (0, Vec::new());
    for case in &cases {
        let p = prepare(case).expect("corpus inputs parse");
        let Some(f) = map_runner(&case.op).filter(|_| p.maps.is_some()) else {
            continue;
        };
        let answer = presburger::budget::with_budget(20_000_000, || f(&p));
        if answer.is_err() {
            // (not timed on maps: `timed_runners` falls back to unions)
            continue;
        }
        on_maps += 1;
        match judge(&p, &answer) {
            Verdict::Right | Verdict::OutOfBudget => {}
            v => wrong.push(format!("{} ({}): {v:?}", case.id, case.op)),
        }
    }
    eprintln!("{on_maps} of {} cases answered on maps", cases.len());
    assert!(wrong.is_empty(), "wrong answers on maps: {wrong:#?}");
    // most of the corpus is of one space (as the isl side finds it)
    assert!(on_maps * 2 > cases.len(), "only {on_maps} cases on maps");
}

/// `timed_runners` takes the `Map` methods for arguments of one space and
/// the union ones otherwise (a union of two spaces, the empty union).
#[test]
fn timed_runners_choose_as_isl_does() {
    let case = |op: &str, args: &[&str]| testkit::corpus::Case {
        id: "t".into(),
        op: op.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        expect: String::new(),
    };
    let on_maps = |c| {
        let p = prepare(&c).unwrap();
        timed_runners(&p).unwrap().on_maps
    };
    assert!(on_maps(case(
        "union",
        &["{ A[i] : i >= 0 }", "{ A[i] : i < 5 }"]
    )));
    // different spaces: isl_map_union refuses, the unions answer
    assert!(!on_maps(case(
        "union",
        &["{ A[i] : i >= 0 }", "{ B[i] : i < 5 }"]
    )));
    // two spaces in one argument
    assert!(!on_maps(case(
        "coalesce",
        &["{ A[i] : i >= 0; B[i] : i < 5 }"]
    )));
}
