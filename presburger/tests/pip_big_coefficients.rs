//! The parametric search's machine-integer shortcuts (the big-M sums and
//! the column comparisons of `pip::tableau`, in `i128` while the entries fit
//! in an `i64`) against brute force and the simple path
//! (`reference::lexopt_by_search`), on small boxes whose constraints have
//! coefficients near and beyond the `i64` range, so that the shortcuts fall
//! back to big integers.

use presburger::reference::lexopt_by_search;
use presburger::Map;
use proptest::prelude::*;
use testkit::oracle::best_in_box;

/// Scales of the big part of the coefficients: none, products beyond 64
/// bits, sums beyond 64 bits (two such coefficients), beyond 64 bits.
const SCALES: [i128; 4] = [
    1,
    3_000_000_019,
    6_000_000_000_000_000_000,
    1_180_591_620_717_411_303_424,
];

/// A constraint `a·x + b·y + e·p >= c` with `a = ka·K + a2` (and so on):
/// no common factor, so the engine keeps the big coefficients.
#[derive(Clone, Debug)]
struct Row {
    coef: [i128; 3],
    c: i128,
}

impl Row {
    fn holds(&self, x: i128, y: i128, p: i128) -> bool {
        self.coef[0] * x + self.coef[1] * y + self.coef[2] * p >= self.c
    }
    fn text(&self) -> String {
        format!(
            "{}*x + {}*y + {}*p >= {}",
            self.coef[0], self.coef[1], self.coef[2], self.c
        )
    }
}

fn row() -> impl Strategy<Value = Row> {
    (
        0usize..4,
        prop::array::uniform3(-2i128..=2),
        prop::array::uniform3(-2i128..=2),
        -3i128..=3,
        -2i128..=2,
    )
        .prop_map(|(s, big, small, cb, cs)| {
            let k = SCALES[s];
            Row {
                coef: [0, 1, 2].map(|i| big[i] * k + small[i]),
                c: cb * k + cs,
            }
        })
}

const LO: i64 = -3;
const HI: i64 = 3;

fn body(rows: &[Row], with_p: bool) -> String {
    let mut parts = vec![format!("{LO} <= x <= {HI}"), format!("{LO} <= y <= {HI}")];
    if with_p {
        parts.push("-2 <= p <= 2".to_string());
    } else {
        parts.push("p = 0".to_string());
    }
    parts.extend(rows.iter().map(Row::text));
    parts.join(" and ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Without parameters: the optimum against enumeration of the box and
    /// against the simple path.
    #[test]
    fn big_coefficients_sets(rows in prop::collection::vec(row(), 1..4), max in any::<bool>()) {
        let s = format!("{{ [x, y, p] : {} }}", body(&rows, false));
        let m: Map = s.parse().unwrap();
        let fast = if max { m.lexmax() } else { m.lexmin() }.unwrap();
        let slow = lexopt_by_search(&m, max).unwrap();
        prop_assert!(fast.is_equal(&slow).unwrap(), "{s} (max {max}): {fast} vs {slow}");
        let best = best_in_box(2, LO, HI, max, |v| {
            rows.iter().all(|r| r.holds(v[0] as i128, v[1] as i128, 0))
        });
        let expect = match best {
            None => "{ [x, y, p] : 1 = 0 }".to_string(),
            Some(v) => format!("{{ [{}, {}, 0] }}", v[0], v[1]),
        };
        let want: Map = expect.parse().unwrap();
        prop_assert!(fast.is_equal(&want).unwrap(), "{s} (max {max}): {fast} vs {expect}");
    }

    /// With a parameter (the parametric search, context splits on the
    /// parameter): the optimum per parameter value against enumeration.
    #[test]
    fn big_coefficients_parametric(rows in prop::collection::vec(row(), 1..4), max in any::<bool>()) {
        let s = format!("{{ [p] -> [x, y] : {} }}", body(&rows, true));
        let m: Map = s.parse().unwrap();
        let fast = if max { m.lexmax() } else { m.lexmin() }.unwrap();
        let mut pieces = Vec::new();
        for p in -2i64..=2 {
            let best = best_in_box(2, LO, HI, max, |v| {
                rows.iter().all(|r| r.holds(v[0] as i128, v[1] as i128, p as i128))
            });
            if let Some(v) = best {
                pieces.push(format!("[{p}] -> [{}, {}]", v[0], v[1]));
            }
        }
        let expect = if pieces.is_empty() {
            "{ [p] -> [x, y] : 1 = 0 }".to_string()
        } else {
            format!("{{ {} }}", pieces.join("; "))
        };
        let want: Map = expect.parse().unwrap();
        prop_assert!(fast.is_equal(&want).unwrap(), "{s} (max {max}): {fast} vs {expect}");
    }
}
