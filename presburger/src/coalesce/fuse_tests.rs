//! Property tests of the fusion rows against enumeration: wrapped rows
//! (`wrap::wrap`) and relaxed rows hold on both disjuncts, common divisions
//! (`align::common_divs`) keep both sets.

use super::align::common_divs;
use super::as_ineqs;
use super::fuse::point_outside;
use super::part::Part;
use super::wrap::wrap;
use crate::basic::BasicMap;
use crate::int::Int;
use crate::map::Map;
use crate::matrix::eval;
use proptest::prelude::*;

/// The integer points of the 2-dimensional `b` in `-7..=7` (the sets below
/// lie inside `-6..=6`).
fn points(b: &BasicMap) -> Vec<Vec<Int>> {
    let mut out = Vec::new();
    for i in -7..=7 {
        for j in -7..=7 {
            let p = vec![Int::from(i), Int::from(j)];
            if b.contains_point(&p).unwrap() {
                out.push(p);
            }
        }
    }
    out
}

/// A 2-dimensional disjunct inside the box `-6..=6` from a few rows
/// `a·i + b·j + c >= 0` (or `= 0`).
fn disjunct(rows: &[(i64, i64, i64, bool)]) -> String {
    let mut cs = vec!["-6 <= i <= 6".to_string(), "-6 <= j <= 6".to_string()];
    for &(a, b, c, eq) in rows {
        cs.push(format!(
            "{a}i + {b}j + {c} {} 0",
            if eq { "=" } else { ">=" }
        ));
    }
    format!("[i, j] : {}", cs.join(" and "))
}

fn rows() -> impl Strategy<Value = Vec<(i64, i64, i64, bool)>> {
    prop::collection::vec(
        (-2..=2i64, -2..=2i64, -5..=5i64, prop::bool::weighted(0.2)),
        0..4,
    )
}

fn nonempty(text: &str) -> Option<BasicMap> {
    let m: Map = format!("{{ {text} }}").parse().unwrap();
    m.parts.first()?.simplified_nonempty().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn wrapped_rows_hold_on_both(rx in rows(), ry in rows()) {
        let (Some(x), Some(y)) = (nonempty(&disjunct(&rx)), nonempty(&disjunct(&ry))) else {
            return Ok(());
        };
        let (px, py) = (points(&x), points(&y));
        let mut part = Part::new(y.clone());
        let rs = as_ineqs(&x);
        for r in &rs {
            if py.iter().all(|p| !eval(r, p).is_neg()) {
                continue; // valid on y: nothing to wrap
            }
            for s in &rs {
                if let Some(c) = wrap(r, s, &mut part).unwrap() {
                    for p in px.iter().chain(&py) {
                        prop_assert!(!eval(&c, p).is_neg(), "{:?} around {:?}: {:?} fails at {:?} ({} / {})", r, s, c, p, disjunct(&rx), disjunct(&ry));
                    }
                }
            }
        }
    }

    #[test]
    fn common_divisions_keep_both_sets(
        da in prop::collection::vec(0..DIVS.len(), 0..3),
        db in prop::collection::vec(0..DIVS.len(), 0..3),
    ) {
        let text = |d: &[usize]| {
            let mut cs = vec!["-6 <= i <= 6", "-6 <= j <= 6"];
            cs.extend(d.iter().map(|&k| DIVS[k]));
            format!("[i, j] : {}", cs.join(" and "))
        };
        let (Some(a), Some(b)) = (nonempty(&text(&da)), nonempty(&text(&db))) else {
            return Ok(());
        };
        if let Some((a2, b2)) = common_divs(&a, &b) {
            prop_assert_eq!(&a2.divs, &b2.divs);
            prop_assert_eq!(points(&a2), points(&a), "{}", text(&da));
            prop_assert_eq!(points(&b2), points(&b), "{}", text(&db));
            // the divisions are consistent: each solution has them at their values
            for (x, orig) in [(&a2, &a), (&b2, &b)] {
                let mut p = Part::new(x.clone());
                if let Some(v) = p.full_point().unwrap() {
                    prop_assert!(x.eqs.iter().all(|e| eval(e, &v).is_zero()));
                    prop_assert!(x.ineqs.iter().all(|r| !eval(r, &v).is_neg()), "{:?} of {:?}", v, orig);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_point_outside_is_outside(
        rh in rows(), ra in rows(), rb in rows(),
        da in prop::collection::vec(0..DIVS.len(), 0..2),
        db in prop::collection::vec(0..DIVS.len(), 0..2),
    ) {
        let with = |r: &[(i64, i64, i64, bool)], d: &[usize]| {
            let mut t = disjunct(r);
            for &k in d {
                t = format!("{t} and {}", DIVS[k]);
            }
            t
        };
        let (Some(h), Some(a), Some(b)) =
            (nonempty(&disjunct(&rh)), nonempty(&with(&ra, &da)), nonempty(&with(&rb, &db)))
        else {
            return Ok(());
        };
        if a.divs.iter().chain(&b.divs).any(Option::is_none) {
            return Ok(());
        }
        let cuts: Vec<Vec<Int>> = as_ineqs(&a).into_iter().chain(as_ineqs(&b)).collect();
        let cuts: Vec<&[Int]> = cuts.iter().map(|r| &r[..]).collect();
        if point_outside(&h, &a, &b, &cuts).unwrap() {
            let (pa, pb) = (points(&a), points(&b));
            prop_assert!(
                points(&h).iter().any(|p| !pa.contains(p) && !pb.contains(p)),
                "{} / {} / {}", disjunct(&rh), with(&ra, &da), with(&rb, &db)
            );
        }
    }
}

#[test]
fn the_residue_classes_of_case_92_are_refused_by_a_point() {
    // { o = i, i odd } and { o = i + 1, i even } (i a multiple of 3): the
    // rows valid on both leave o - i free in 0..=1; the minimiser of the
    // second's `o - i - 1 >= 0` over them (o = i = 0) is in neither
    let a =
        nonempty("[i, o] : o = i and (i + 1) mod 2 = 0 and i mod 3 = 0 and 0 <= i <= 12").unwrap();
    let b =
        nonempty("[i, o] : o = i + 1 and i mod 2 = 0 and i mod 3 = 0 and 0 <= i <= 12").unwrap();
    let h = nonempty("[i, o] : i <= o <= i + 1 and 0 <= i <= 12").unwrap();
    let cuts: Vec<Vec<Int>> = as_ineqs(&a).into_iter().chain(as_ineqs(&b)).collect();
    let cuts: Vec<&[Int]> = cuts.iter().map(|r| &r[..]).collect();
    assert!(point_outside(&h, &a, &b, &cuts).unwrap());
}

/// Division constraints for [`common_divisions_keep_both_sets`]: residues
/// of the same and of different divisions.
const DIVS: &[&str] = &[
    "i mod 3 = 0",
    "i mod 3 = 1",
    "i mod 3 = 2",
    "(i + j) mod 2 = 0",
    "(i - j + 1) mod 2 = 0",
    "j mod 2 = 1",
    "exists (e : i = 3e + 2)",
    "exists (e : 2e <= i + j <= 2e + 1 and e >= j)",
    "i >= 1",
    "j <= i",
];

#[test]
fn wrap_turns_a_row_around_a_ridge() {
    // o2 <= j on { o1 = i, j - 1 <= o2 <= j } (here i = j = 0) wrapped
    // around -o1 >= 0 over { o1 = -1, -1 <= o2 <= 1 }: o2 <= -o1
    let y = nonempty("[o1, o2] : o1 = -1 and -1 <= o2 <= 1").unwrap();
    let r = vec![Int::from(0), Int::from(0), Int::from(-1)];
    let s = vec![Int::from(0), Int::from(-1), Int::from(0)];
    let c = wrap(&r, &s, &mut Part::new(y)).unwrap();
    assert_eq!(c, Some(vec![Int::from(0), Int::from(-1), Int::from(-1)]));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// A point that `Part::sampled_point_outside` finds proves `a ⊄ b` by
    /// enumeration; and when it answers, the exact inclusion test agrees.
    #[test]
    fn a_sampled_point_outside_is_outside(
        ra in rows(), rb in rows(),
        da in prop::collection::vec(0..DIVS.len(), 0..2),
        db in prop::collection::vec(0..DIVS.len(), 0..2),
    ) {
        let with = |r: &[(i64, i64, i64, bool)], d: &[usize]| {
            let mut t = disjunct(r);
            for &k in d {
                t = format!("{t} and {}", DIVS[k]);
            }
            t
        };
        let (Some(a), Some(b)) = (nonempty(&with(&ra, &da)), nonempty(&with(&rb, &db))) else {
            return Ok(());
        };
        if Part::new(a.clone()).sampled_point_outside(&b).unwrap() {
            let pb = points(&b);
            prop_assert!(
                points(&a).iter().any(|p| !pb.contains(p)),
                "{} / {}", with(&ra, &da), with(&rb, &db)
            );
            prop_assert!(!Map::from_basic(a).is_subset(&Map::from_basic(b)).unwrap());
        }
    }
}

#[test]
fn a_residue_class_outside_is_found_by_a_sample() {
    // the other disjunct's division is another residue: the sample beyond
    // `j - 2·floor(j/2) <= 0` has j odd
    let a = nonempty("[i, j] : i mod 2 = 0 and 0 <= i <= 3 and 0 <= j <= 3").unwrap();
    let b = nonempty("[i, j] : j mod 2 = 0 and 0 <= i <= 3 and 0 <= j <= 3").unwrap();
    assert_eq!(a.row_len(), b.row_len());
    assert!(Part::new(a.clone()).sampled_point_outside(&b).unwrap());
    // contained: no witness
    let c = nonempty("[i, j] : i mod 2 = 0 and 0 <= i <= 2 and 0 <= j <= 1").unwrap();
    assert!(!Part::new(c).sampled_point_outside(&a).unwrap());
}
