//! A case of the trace corpus (`testkit::corpus::trace_corpus`), run and
//! judged as `poly bench` does it: shared by the regression tests.

use testkit::corpus::{trace_corpus, Case};
use testkit::ops::{check_within, Verdict};

/// The case `id` of the trace corpus.
pub fn corpus_case(id: &str) -> Case {
    trace_corpus()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("{id} not in the corpus"))
}

/// Case `id` is answered right: the op within 20M operations, the judge's
/// equality test within its own 20M.
pub fn assert_right(id: &str) {
    let t0 = std::time::Instant::now();
    let verdict = check_within(&corpus_case(id), 20_000_000);
    eprintln!("{id}: {verdict:?} in {:?}", t0.elapsed());
    assert_eq!(verdict, Verdict::Right, "{id}");
}
