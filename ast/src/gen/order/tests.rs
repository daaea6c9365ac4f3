//! Tests of the constant bounds read off single-variable rows.

use super::const_bound;
use presburger::{Int, Map};

/// Every integer point of `s` (one disjunct, one dimension `x`, no
/// parameters) in `-20..=20` lies within the bounds `const_bound` reads,
/// and the bounds are the ones expected.
#[test]
fn constant_bounds_hold_at_every_point() {
    let cases: [(&str, Option<i64>, Option<i64>); 7] = [
        ("{ [x] : 3 <= x <= 7 }", Some(3), Some(7)),
        ("{ [x] : 2x >= 3 and 3x <= 10 }", Some(2), Some(3)),
        ("{ [x] : -2x >= 5 }", None, Some(-3)),
        ("{ [x] : x >= -7 and x >= -4 }", Some(-4), None),
        ("{ [x] : x = 5 }", Some(5), Some(5)),
        (
            "{ [x] : exists (e : x = 4e and x >= 1 and x <= 9) }",
            None,
            None,
        ),
        ("{ [x] : 3x >= -7 and 5x <= -3 }", Some(-2), Some(-1)),
    ];
    for (s, lo, hi) in cases {
        let m: Map = s.parse().unwrap();
        let b = &m.basic_maps()[0];
        let (got_lo, got_hi) = (const_bound(b, 1, false), const_bound(b, 1, true));
        // (the parser may write the rows otherwise: the bounds read are
        // still to hold at every point)
        for x in -20i64..=20 {
            let p: Map = format!("{{ [{x}] }}").parse().unwrap();
            if m.intersect(&p).unwrap().is_empty().unwrap() {
                continue;
            }
            let v = Int::from(x);
            assert!(got_lo.as_ref().is_none_or(|l| *l <= v), "{s}: {x} below");
            assert!(got_hi.as_ref().is_none_or(|h| v <= *h), "{s}: {x} above");
        }
        if lo.is_some() || hi.is_some() {
            assert_eq!(got_lo, lo.map(Int::from), "{s}");
            assert_eq!(got_hi, hi.map(Int::from), "{s}");
        }
    }
}
