//! Property tests of the formula layer: smart constructors and negation keep
//! the meaning of raw formulas (checked by evaluation on a box of points).

use scop::affine::{Affine, Formula};

use testkit::Lcg;

fn random_affine(rng: &mut Lcg) -> Affine {
    let mut a = Affine::constant(rng.range(-2, 2) * 2);
    for v in ["i", "j"] {
        a = a.add(&Affine::var(v).scale(rng.range(-2, 2)));
    }
    if rng.below(4) == 0 {
        a = a.add(&Affine::var("i").floor_div(rng.range(2, 3)));
    }
    a
}

/// Returns (raw formula built without simplification, simplified formula).
fn random_formula(rng: &mut Lcg, depth: u32) -> (Formula, Formula) {
    if depth == 0 || rng.below(3) == 0 {
        let f = match rng.below(3) {
            0 => Formula::Ge(random_affine(rng)),
            1 => Formula::Eq(random_affine(rng)),
            _ => {
                let m = rng.range(2, 4);
                Formula::Mod(random_affine(rng), m, rng.range(0, m - 1))
            }
        };
        return (f.clone(), f);
    }
    let n = 2 + rng.below(2) as usize;
    let kids: Vec<(Formula, Formula)> = (0..n).map(|_| random_formula(rng, depth - 1)).collect();
    let raws = kids.iter().map(|k| k.0.clone()).collect();
    let simps = kids.into_iter().map(|k| k.1).collect();
    match rng.below(3) {
        0 => (Formula::And(raws), Formula::and(simps)),
        1 => (Formula::Or(raws), Formula::or(simps)),
        _ => {
            let (r, s) = (Formula::And(raws), Formula::and(simps));
            (negate_raw(&r), s.negate())
        }
    }
}

/// Negation by De Morgan without any simplification (atoms use their own
/// negation, which the test checks separately by evaluation).
fn negate_raw(f: &Formula) -> Formula {
    match f {
        Formula::And(fs) => Formula::Or(fs.iter().map(negate_raw).collect()),
        Formula::Or(fs) => Formula::And(fs.iter().map(negate_raw).collect()),
        atom => atom.negate(),
    }
}

#[test]
fn simplification_and_negation_preserve_meaning() {
    let mut rng = Lcg(2024);
    for _ in 0..400 {
        let (raw, simp) = random_formula(&mut rng, 3);
        let neg = simp.negate();
        for i in -6..=6 {
            for j in -6..=6 {
                let val = |n: &str| match n {
                    "i" => Some(i),
                    "j" => Some(j),
                    _ => None,
                };
                let a = raw.eval(&val).unwrap();
                assert_eq!(
                    simp.eval(&val).unwrap(),
                    a,
                    "{raw:?}\nvs\n{simp:?} at {i},{j}"
                );
                assert_eq!(neg.eval(&val).unwrap(), !a, "negation of {simp:?}");
            }
        }
    }
}

#[test]
fn affine_floor_div_matches_floor_semantics() {
    let a = Affine::var("i").scale(3).add(&Affine::constant(-4));
    for d in 1..5 {
        let q = a.floor_div(d);
        for i in -10..10 {
            let val = |n: &str| if n == "i" { Some(i) } else { None };
            assert_eq!(q.eval(&val), Some((3 * i - 4i64).div_euclid(d)));
        }
    }
}
