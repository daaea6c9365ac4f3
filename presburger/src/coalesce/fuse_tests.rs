//! Property tests of the fusion rows against enumeration: wrapped rows
//! (`wrap::wrap`) and relaxed rows hold on both disjuncts, common divisions
//! (`align::common_divs`) keep both sets; the exact tests on cut rows
//! (`cover::inside_union`, `Part::subset_by_rows`) answer as enumeration
//! and as the inclusion test.

use super::align::common_divs;
use super::as_ineqs;
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

#[test]
fn the_residue_classes_of_case_92_are_refused_by_a_point() {
    // { o = i, i odd } and { o = i + 1, i even } (i a multiple of 3): the
    // rows valid on both leave o - i free in 0..=1; the minimiser of the
    // second's `o - i - 1 >= 0` over them (o = i = 0) is in neither
    let a =
        nonempty("[i, o] : o = i and (i + 1) mod 2 = 0 and i mod 3 = 0 and 0 <= i <= 12").unwrap();
    let b =
        nonempty("[i, o] : o = i + 1 and i mod 2 = 0 and i mod 3 = 0 and 0 <= i <= 12").unwrap();
    let (a, b) = common_divs(&a, &b).unwrap();
    let mut h = nonempty("[i, o] : i <= o <= i + 1 and 0 <= i <= 12").unwrap();
    add_divs_of(&mut h, &a);
    let (ca, cb) = (as_ineqs(&a), as_ineqs(&b));
    let ca: Vec<&[Int]> = ca.iter().map(|r| &r[..]).collect();
    let cb: Vec<&[Int]> = cb.iter().map(|r| &r[..]).collect();
    let t = h.rational_tableau().unwrap();
    assert!(!super::cover::inside_union(&h, t, &ca, &cb).unwrap());
}

/// Append `a`'s divisions (numerators over earlier columns only) with their
/// defining rows to `h`, which has none.
fn add_divs_of(h: &mut BasicMap, a: &BasicMap) {
    for d in a.divs.iter().flatten() {
        let w = h.row_len();
        h.add_div(d.num[..w].to_vec(), d.den.clone());
    }
}

/// The disjunct of `rows` with the divisibility constraints `DIVS[k]` for
/// each `k` of `divs`.
fn disjunct_with(rows: &[(i64, i64, i64, bool)], divs: &[usize]) -> String {
    let mut t = disjunct(rows);
    for &k in divs {
        t = format!("{t} and {}", DIVS[k]);
    }
    t
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
        let (Some(a), Some(b)) = (nonempty(&disjunct_with(&ra, &da)), nonempty(&disjunct_with(&rb, &db))) else {
            return Ok(());
        };
        if Part::new(a.clone()).sampled_point_outside(&b).unwrap() {
            let pb = points(&b);
            prop_assert!(
                points(&a).iter().any(|p| !pb.contains(p)),
                "{} / {}", disjunct_with(&ra, &da), disjunct_with(&rb, &db)
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

/// `x` (the variables) with the values of `b`'s divisions appended.
fn with_divs(b: &BasicMap, x: &[Int]) -> Vec<Int> {
    let mut v = x.to_vec();
    for d in b.divs.iter().flatten() {
        let q = eval(&d.num, &v).div_floor(&d.den);
        v.push(q);
    }
    v
}

/// The box rows `-6 <= i, j <= 6` over `b`'s columns.
fn box_rows(b: &BasicMap) -> Vec<Vec<Int>> {
    let w = b.row_len();
    let mut out = Vec::new();
    for c in 1..=2 {
        for s in [1, -1] {
            let mut r = vec![Int::ZERO; w];
            r[0] = Int::from(6);
            r[c] = Int::from(s);
            out.push(r);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// `cover::inside_union` (on the candidate as built and through
    /// `union_if_exact`, simplified) answers as enumeration and as its
    /// oracle, the inclusion test: candidates from the rows of each
    /// disjunct valid on the other (each left out at random, then a cut
    /// row), the rows not valid relaxed by their minimum over the other,
    /// and random rows valid on both.
    #[test]
    fn inside_union_as_enumeration(
        ra in rows(), rb in rows(), extra in rows(),
        da in prop::collection::vec(0..DIVS.len(), 0..2),
        db in prop::collection::vec(0..DIVS.len(), 0..2),
        leave in prop::collection::vec(any::<bool>(), 16),
        relax in any::<bool>(),
    ) {
        let (Some(a), Some(b)) = (nonempty(&disjunct_with(&ra, &da)), nonempty(&disjunct_with(&rb, &db))) else {
            return Ok(());
        };
        let Some((a, b)) = common_divs(&a, &b) else {
            return Ok(());
        };
        let (pa, pb) = (points(&a), points(&b));
        let full_a: Vec<Vec<Int>> = pa.iter().map(|x| with_divs(&a, x)).collect();
        let full_b: Vec<Vec<Int>> = pb.iter().map(|x| with_divs(&b, x)).collect();
        let holds = |r: &[Int], pts: &[Vec<Int>]| pts.iter().all(|p| !eval(r, p).is_neg());
        let mut rows = box_rows(&a);
        let mut cut_a = Vec::new();
        let mut cut_b = Vec::new();
        let mut k = 0;
        for (x, other, cut) in [(&a, &full_b, &mut cut_a), (&b, &full_a, &mut cut_b)] {
            for r in as_ineqs(x) {
                k += 1;
                if holds(&r, other) && !leave[k % leave.len()] {
                    rows.push(r);
                    continue;
                }
                if relax && !other.is_empty() {
                    let min = other.iter().map(|p| eval(&r, p)).min().expect("points");
                    if min.is_neg() {
                        let mut c = r.clone();
                        c[0] = &c[0] - &min;
                        rows.push(c);
                    }
                }
                cut.push((r, None));
            }
        }
        for &(x, y, c, _) in &extra {
            let mut r = vec![Int::ZERO; a.row_len()];
            r[0] = Int::from(c);
            r[1] = Int::from(x);
            r[2] = Int::from(y);
            if holds(&r, &full_a) && holds(&r, &full_b) {
                rows.push(r);
            }
        }
        let h = super::fuse::candidate(&a, &rows);
        let truth = points(&h).iter().all(|p| pa.contains(p) || pb.contains(p));
        let text = format!("{} / {}", disjunct_with(&ra, &da), disjunct_with(&rb, &db));
        prop_assert_eq!(
            super::cover::reference::inside_union(&h, &a, &b).unwrap(), truth, "oracle: {}", text
        );
        let cuts = super::fuse::Cuts::new(&cut_a, &cut_b);
        let t = h.rational_tableau().unwrap();
        prop_assert_eq!(
            super::cover::inside_union(&h, t, &cuts.a, &cuts.b).unwrap(), truth, "{}", text
        );
        let fused =
            super::fuse::union_if_exact(&Part::new(a.clone()), &rows, &cuts, usize::MAX).unwrap();
        prop_assert_eq!(fused.is_some(), truth, "union_if_exact: {}", text);
        if let Some(f) = fused {
            let mut u = pa.clone();
            u.extend(pb.iter().filter(|p| !pa.contains(p)).cloned());
            u.sort();
            let mut pf = points(&f.b);
            pf.sort();
            prop_assert_eq!(pf, u, "{}", text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// `Part::subset_by_rows` (`cover::satisfies_all` over common
    /// divisions) answers as enumeration and as the inclusion test.
    #[test]
    fn subset_by_rows_as_enumeration(
        ra in rows(), rb in rows(),
        da in prop::collection::vec(0..DIVS.len(), 0..3),
        db in prop::collection::vec(0..DIVS.len(), 0..3),
    ) {
        let (Some(a), Some(b)) = (nonempty(&disjunct_with(&ra, &da)), nonempty(&disjunct_with(&rb, &db))) else {
            return Ok(());
        };
        let (mut pa, mut pb) = (Part::new(a.clone()), Part::new(b.clone()));
        pa.define_existentials().unwrap();
        pb.define_existentials().unwrap();
        let truth = {
            let qb = points(&b);
            points(&a).iter().all(|p| qb.contains(p))
        };
        let text = format!("{} / {}", disjunct_with(&ra, &da), disjunct_with(&rb, &db));
        prop_assert_eq!(
            Map::from_basic(a).is_subset(&Map::from_basic(b)).unwrap(), truth, "oracle: {}", text
        );
        if let Some(v) = pa.subset_by_rows(&pb).unwrap() {
            prop_assert_eq!(v, truth, "{}", text);
        }
        prop_assert_eq!(pa.is_subset_of(&mut pb).unwrap(), truth, "is_subset_of: {}", text);
    }
}

#[test]
fn subset_by_rows_decides_over_different_divisions() {
    let part = |t: &str| {
        let mut p = Part::new(nonempty(t).unwrap());
        p.define_existentials().unwrap();
        p
    };
    let mut a = part("[i, j] : i mod 6 = 0 and 0 <= i <= 12 and 0 <= j <= 3");
    let b = part("[i, j] : i mod 3 = 0 and 0 <= i <= 20 and 0 <= j <= 5");
    let c = part("[i, j] : i mod 4 = 0 and 0 <= i <= 20 and 0 <= j <= 5");
    assert_eq!(a.subset_by_rows(&b).unwrap(), Some(true));
    // 6 is not a multiple of 4
    assert_eq!(a.subset_by_rows(&c).unwrap(), Some(false));
}

#[test]
fn inside_union_fuses_two_residue_classes() {
    // { i even } ∪ { i odd } over 0..=9: the candidate 0 <= i <= 9 (with
    // the division's defining rows) is their union; 0 <= i <= 10 is not
    let a = nonempty("[i, j] : i mod 2 = 0 and 0 <= i <= 9 and j = 0").unwrap();
    let b = nonempty("[i, j] : i mod 2 = 1 and 0 <= i <= 9 and j = 0").unwrap();
    let (a, b) = common_divs(&a, &b).unwrap();
    let (cut_a, cut_b): (Vec<Vec<Int>>, Vec<Vec<Int>>) = (as_ineqs(&a), as_ineqs(&b));
    for (hi, expect) in [(9, true), (10, false)] {
        let mut h = nonempty(&format!("[i, j] : 0 <= i <= {hi} and j = 0")).unwrap();
        // over a's columns: the divisions with their defining rows
        add_divs_of(&mut h, &a);
        let t = h.rational_tableau().unwrap();
        let ca: Vec<&[Int]> = cut_a.iter().map(|r| &r[..]).collect();
        let cb: Vec<&[Int]> = cut_b.iter().map(|r| &r[..]).collect();
        assert_eq!(
            super::cover::inside_union(&h, t, &ca, &cb).unwrap(),
            expect,
            "{hi}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// A row that `implied_by_one_row` calls valid on a disjunct holds at
    /// every point of it (enumeration), and on rows of the disjunct itself
    /// (and their loosenings) it answers yes.
    #[test]
    fn rows_implied_by_one_row_hold(
        ry in rows(), dy in prop::collection::vec(0..DIVS.len(), 0..2),
        (x, yc, c) in (-2..=2i64, -2..=2i64, -8..=8i64), pick in 0..8usize, loosen in 0..3i64,
    ) {
        let mut t = disjunct(&ry);
        for &k in &dy {
            t = format!("{t} and {}", DIVS[k]);
        }
        let Some(y) = nonempty(&t) else {
            return Ok(());
        };
        if y.divs.iter().any(Option::is_none) {
            return Ok(()); // the points' locals are not functions of them
        }
        let full: Vec<Vec<Int>> = points(&y).iter().map(|p| with_divs(&y, p)).collect();
        let mut r = vec![Int::ZERO; y.row_len()];
        r[0] = Int::from(c);
        r[1] = Int::from(x);
        r[2] = Int::from(yc);
        if super::part::implied_by_one_row(&y, &r) {
            prop_assert!(full.iter().all(|p| !eval(&r, p).is_neg()), "{:?} on {}", r, t);
        }
        let own = as_ineqs(&y);
        let mut q = own[pick % own.len()].clone();
        q[0] = &q[0] + &Int::from(loosen);
        prop_assert!(super::part::implied_by_one_row(&y, &q), "{:?} of {}", q, t);
    }
}
