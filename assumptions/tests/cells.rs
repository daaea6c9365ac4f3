//! The accessed cells of the alias checks, one image per group of
//! statements with the same access ([`assumptions::cells`]), against one
//! image per statement ([`scop::assume::accessed_cells`]): the same sets,
//! and alias checks that agree on a grid of parameter values and base
//! addresses.

use assumptions::cexpr::Params;
use assumptions::Values;

mod common;
use common::kernels;

#[test]
fn grouped_cells_are_the_per_statement_cells() {
    let (mut arrays, mut fewer) = (0, 0);
    for f in kernels() {
        let src = std::fs::read_to_string(&f).unwrap();
        let Ok(scop) = scop::build_scop(&src) else {
            continue;
        };
        for ap in &scop.optimistic.array_params {
            let want = scop::assume::accessed_cells(&scop, &ap.name).unwrap();
            let got = assumptions::cells::accessed_cells(&scop, &ap.name).unwrap();
            match (want, got) {
                (None, None) => {}
                (Some((w, ww)), Some((g, gw))) => {
                    assert_eq!(ww, gw, "{}: {}", f.display(), ap.name);
                    assert!(
                        g.is_equal(&w).unwrap(),
                        "{}: {}: {g} vs {w}",
                        f.display(),
                        ap.name
                    );
                    arrays += 1;
                    if g.basic_maps().len() < w.basic_maps().len() {
                        fewer += 1;
                    }
                }
                (w, g) => panic!("{}: {}: {w:?} vs {g:?}", f.display(), ap.name),
            }
        }
    }
    assert!(arrays > 20, "{arrays} arrays compared");
    // tiled_mix's `A[i][j]` in both branches of an `if` at least
    assert!(fewer >= 1, "no group's domains merged");
}

#[test]
fn alias_checks_agree_with_the_reference_on_a_grid() {
    let mut rng = testkit::Lcg(20);
    let mut compared = 0;
    let mut outcomes = [0usize; 3];
    for f in kernels() {
        let src = std::fs::read_to_string(&f).unwrap();
        let Ok(scop) = scop::build_scop(&src) else {
            continue;
        };
        let params = Params {
            types: scop.optimistic.param_types.clone(),
        };
        let (Ok(want), Ok(got)) = (
            assumptions::reference::alias_pairs(&scop, &params),
            assumptions::alias::alias_pairs(&scop, &params),
        ) else {
            continue;
        };
        let (Some(want), Some(got)) = (want, got) else {
            continue;
        };
        assert_eq!(want.len(), got.len(), "{}", f.display());
        let names: Vec<String> = scop
            .optimistic
            .array_params
            .iter()
            .map(|a| a.name.clone())
            .collect();
        for _ in 0..300 {
            let values = Values {
                params: scop
                    .params
                    .iter()
                    .map(|p| (p.clone(), rng.range(-3, 10)))
                    .collect(),
                // bases 8-aligned or not, near each other or apart
                bases: names
                    .iter()
                    .map(|n| {
                        (
                            n.clone(),
                            (1 << 20) + (rng.below(4) + rng.below(400) * 4) as i64,
                        )
                    })
                    .collect(),
            };
            for (w, g) in want.iter().zip(&got) {
                assert_eq!((&w.a, &w.b), (&g.a, &g.b));
                let (x, y) = (w.check.eval(&values), g.check.eval(&values));
                assert_eq!(x, y, "{}: {} {}: {values:?}", f.display(), w.a, w.b);
                outcomes[match x {
                    Some(true) => 0,
                    Some(false) => 1,
                    None => 2,
                }] += 1;
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared} evaluations");
    // both answers occur often
    assert!(
        outcomes[0] > compared / 20 && outcomes[1] > compared / 20,
        "{outcomes:?}"
    );
    eprintln!("{compared} evaluations, true/false/none {outcomes:?}");
}
