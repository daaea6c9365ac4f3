//! `analyze`'s feasibility and assumed context against the general
//! formulation (the runs outside the invalid context by a difference, the
//! assumed context gisted with them), which `analyze` skips when no
//! assumption is effective (then an inclusion test decides feasibility).

use scop::assume::Sign;

mod common;
use common::kernels;

#[test]
fn feasibility_and_assumed_context_agree_with_the_difference() {
    let (mut without, mut with) = (0, 0);
    for f in kernels() {
        let src = std::fs::read_to_string(&f).unwrap();
        let Ok(scop) = scop::build_scop(&src) else {
            continue;
        };
        let Ok(a) = assumptions::analyze(&scop, &assumptions::Limits::default()) else {
            continue;
        };
        let name = f.display();
        // the general formulation
        let c = scop::assume::combine(&scop).unwrap();
        let runs = scop::assume::domain_params(&scop)
            .unwrap()
            .intersect(&c.context)
            .unwrap();
        let invalid = c.invalid.intersect(&c.context).unwrap().coalesce().unwrap();
        let valid_runs = runs.subtract(&invalid).unwrap();
        let feasible = runs.is_empty().unwrap()
            || !valid_runs
                .intersect(&c.assumed)
                .unwrap()
                .is_empty()
                .unwrap();
        assert_eq!(a.feasible, feasible, "{name}: feasible");
        let within = if valid_runs.is_empty().unwrap() {
            c.context.clone()
        } else {
            valid_runs.coalesce().unwrap()
        };
        let assumed = c.assumed.gist(&within).unwrap().coalesce().unwrap();
        assert_eq!(
            a.assumed.to_string(),
            assumed.to_string(),
            "{name}: assumed"
        );
        if a.kinds.keys().any(|k| k.sign() == Sign::Assumption) {
            with += 1;
        } else {
            without += 1;
            // no effective assumption: nothing was subtracted
            let universe = presburger::Set::universe(c.context.space().clone());
            assert!(c.assumed.is_equal(&universe).unwrap(), "{name}");
        }
    }
    // both paths are taken
    assert!(with >= 3 && without >= 3, "{with} with, {without} without");
}
