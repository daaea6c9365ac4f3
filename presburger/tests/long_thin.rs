//! Regression tests from the trace corpus (`benches/corpus/trace.jsonl`):
//! projections of strided sets whose equality test against isl's answer
//! needs integer emptiness of long thin sets (the pip context tests of
//! `make_divs_explicit`). Plain branch and bound did not finish them (the
//! judge ran out of its 20M operations); the search along a reduced basis
//! (`presburger::simplex`, module `gbr`) decides them in a few hundred
//! thousand operations.

mod trace_case;
use trace_case::assert_right;

#[test]
fn trace_project_92() {
    assert_right("trace-project-92");
}

#[test]
fn trace_project_93() {
    assert_right("trace-project-93");
}
