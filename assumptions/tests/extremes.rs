//! The one-point extremes of the alias checks ([`assumptions::extremes`]
//! for unions of boxes, [`assumptions::guessed`] for a verified guess)
//! against the engine's parametric lexmin and lexmax (the slow path) at
//! parameter values where the cells are non-empty: on the accessed cells
//! of every array of every kernel, and on random small sets.

use assumptions::extremes::box_extreme;
use assumptions::guessed::guessed_extreme;
use presburger::{Int, MultiAff, Set};

mod common;
use common::kernels;

/// Parameter values: every point of `-3..=6` per parameter when there are
/// at most two, else 300 random ones.
fn samples(np: usize, rng: &mut testkit::Lcg) -> Vec<Vec<Int>> {
    if np <= 2 {
        let side = 10i64;
        (0..side.pow(np as u32))
            .map(|k| {
                (0..np)
                    .map(|q| Int::from((k / side.pow(q as u32)) % side - 3))
                    .collect()
            })
            .collect()
    } else {
        (0..300)
            .map(|_| (0..np).map(|_| Int::from(rng.range(-3, 9))).collect())
            .collect()
    }
}

/// Checks `fast` against the engine's extreme at the sample points where
/// `cells` is non-empty; returns how many there were.
fn check(cells: &Set, fast: &MultiAff, max: bool, what: &str, rng: &mut testkit::Lcg) -> usize {
    let want = if max {
        cells.lexmax_pw_multi_aff().unwrap()
    } else {
        cells.lexmin_pw_multi_aff().unwrap()
    };
    let mut seen = 0;
    for p in samples(cells.space().n_param(), rng) {
        let piece = want
            .pieces()
            .iter()
            .find(|(dom, _)| dom.contains_point(&p).unwrap());
        if let Some((_, ma)) = piece {
            seen += 1;
            assert_eq!(
                fast.eval(&p).unwrap(),
                ma.eval(&p).unwrap(),
                "{what}: {cells} (max {max}) at {p:?}: {fast} against {want}"
            );
        }
    }
    seen
}

#[test]
fn kernel_cells_extremes_are_the_parametric_ones() {
    let mut rng = testkit::Lcg::new(23);
    let (mut boxes, mut guesses, mut neither) = (0, 0, 0);
    for f in kernels() {
        let src = std::fs::read_to_string(&f).unwrap();
        let Ok(scop) = scop::build_scop(&src) else {
            continue;
        };
        for ap in &scop.optimistic.array_params {
            let Some((cells, _)) = assumptions::cells::accessed_cells(&scop, &ap.name).unwrap()
            else {
                continue;
            };
            let what = format!("{}: {}", f.display(), ap.name);
            for max in [false, true] {
                let b = box_extreme(&cells, max).unwrap();
                let g = guessed_extreme(&cells, max).unwrap();
                for fast in b.iter().chain(&g) {
                    check(&cells, fast, max, &what, &mut rng);
                }
                match (b, g) {
                    (Some(_), _) => boxes += 1,
                    (None, Some(_)) => guesses += 1,
                    (None, None) => neither += 1,
                }
            }
        }
    }
    eprintln!("boxes {boxes}, guesses {guesses}, parametric {neither}");
    // triangles (cholesky, syrk, nussinov...) and tiled_mix's strides take
    // the guess; some extremes are piecewise
    assert!(guesses >= 10 && boxes >= 20 && neither >= 3);
}

/// A bound `k (+ ±param) (+ earlier coordinate)` as text.
fn bound(rng: &mut testkit::Lcg, params: &[&str], earlier: &[&str]) -> String {
    let mut s = rng.range(-2, 3).to_string();
    if rng.below(3) > 0 {
        let p = params[rng.below(params.len() as u64) as usize];
        s += if rng.below(4) == 0 { " - " } else { " + " };
        s += p;
    }
    if !earlier.is_empty() && rng.below(3) == 0 {
        s += if rng.below(2) == 0 { " - " } else { " + " };
        s += earlier[rng.below(earlier.len() as u64) as usize];
    }
    s
}

/// A random union of one to three small disjuncts over one or two
/// parameters and coordinates: per coordinate a lower and an upper bound,
/// sometimes a second one, sometimes a stride or an equality, sometimes a
/// parameter constraint.
fn random_set(rng: &mut testkit::Lcg) -> String {
    let params: Vec<&str> = ["n", "m"][..1 + rng.below(2) as usize].to_vec();
    let dims: Vec<&str> = ["i", "j"][..1 + rng.below(2) as usize].to_vec();
    let mut parts = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let mut cons = Vec::new();
        let mut exists = Vec::new();
        for (d, x) in dims.iter().enumerate() {
            if rng.below(6) == 0 {
                cons.push(format!("{x} = {}", bound(rng, &params, &dims[..d])));
                continue;
            }
            // bounded by constants and parameters, then perhaps by earlier
            // coordinates
            cons.push(format!("{x} >= {}", bound(rng, &params, &[])));
            cons.push(format!("{x} <= {}", bound(rng, &params, &[])));
            for _ in 0..rng.below(3) {
                let op = if rng.below(2) == 0 { ">=" } else { "<=" };
                cons.push(format!("{x} {op} {}", bound(rng, &params, &dims[..d])));
            }
            if rng.below(4) == 0 {
                let e = format!("e{}", exists.len());
                cons.push(format!("{x} = {}{e} + {}", 2 + rng.below(2), rng.below(2)));
                exists.push(e);
            }
        }
        if rng.below(3) == 0 {
            cons.push(format!("{} >= {}", params[0], rng.range(-1, 3)));
        }
        let body = cons.join(" and ");
        let body = if exists.is_empty() {
            body
        } else {
            format!("exists ({} : {body})", exists.join(", "))
        };
        parts.push(format!("[{}] : {body}", dims.join(", ")));
    }
    format!("[{}] -> {{ {} }}", params.join(", "), parts.join("; "))
}

#[test]
fn random_small_sets_extremes_are_the_parametric_ones() {
    let mut rng = testkit::Lcg::new(2026);
    let (mut taken, mut compared, mut refused) = ([0usize; 2], 0, 0);
    for _ in 0..600 {
        let s = random_set(&mut rng);
        let cells: Set = s.parse().unwrap();
        for max in [false, true] {
            let fast = [
                box_extreme(&cells, max).unwrap(),
                guessed_extreme(&cells, max).unwrap(),
            ];
            refused += usize::from(fast.iter().all(Option::is_none));
            for (k, f) in fast.iter().enumerate() {
                if let Some(f) = f {
                    taken[k] += 1;
                    compared += check(&cells, f, max, "random", &mut rng);
                }
            }
        }
    }
    eprintln!(
        "box {}, guess {}, neither {refused}, {compared} points",
        taken[0], taken[1]
    );
    assert!(
        taken[0] > 100 && taken[1] > 200 && refused > 100 && compared > 10000,
        "{taken:?} {refused} {compared}"
    );
}
