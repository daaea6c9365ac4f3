//! The conjunction of two basic maps that shares their equal divisions
//! ([`conjoin_sharing`]), the layout [`BasicMap::intersect`] builds.
//!
//! [`BasicMap::conjoin`] keeps both operands' locals apart: `other`'s
//! locals come after `self`'s, so a division both sides define (a `mod`
//! or `floor` written on each side, which is most traced intersections of
//! sets with locals) appears twice, and simplification then has to find
//! the two equal definitions, add their equality, eliminate it from every
//! row and remove the local again. Here a local of `other` whose
//! definition is, in terms of the locals already placed, one of `self`'s
//! definitions is that local of `self` (the same column); and a row of
//! `other` that is then a row of `self` (an equality up to sign) is not
//! added again.
//!
//! Why this is exact: a defined local is the value of its definition
//! (`floor(num / den)` of the variables and earlier locals, which
//! simplification relies on too: two equal definitions get an equality),
//! so two locals with equal definitions, whose earlier locals are equal,
//! take the same value in every point of the conjunction; identifying
//! them keeps the set. A repeated row adds nothing. `conjoin(other, 0)`
//! is the test oracle (point for point, see the tests below).

use crate::basic::{BasicMap, Div};
use crate::int::Int;
use crate::rows::Rows;

/// Where the columns of `b` go in a conjunction with `a` (same space and
/// parameters): its variables where they are, each of its locals either in
/// the column of a local of `a` with the same definition (`b`'s earlier
/// locals renamed so; see the module documentation for why this is
/// exact) or in the next fresh column after `a`'s locals. The layout of
/// [`conjoin_sharing`], and of the base of a subtraction
/// (`ops::difference`).
pub(crate) struct Layout {
    /// The first local column of both operands (1 + their variables).
    off: usize,
    /// The number of `a`'s locals.
    na: usize,
    /// The column of each local of `b`.
    pub(crate) dest: Vec<usize>,
    /// How many of `b`'s locals have a fresh column.
    pub(crate) fresh: usize,
}

impl Layout {
    /// The layout of `a ∧ b`; with `share`, `b`'s locals with one of `a`'s
    /// definitions go to that local's column, else every local is fresh.
    pub(crate) fn new(a: &BasicMap, b: &BasicMap, share: bool) -> Layout {
        let off = b.off_div();
        let na = a.n_div();
        let share = share && a.off_div() == off;
        let mut dest: Vec<usize> = Vec::with_capacity(b.n_div());
        let mut fresh = 0;
        let mut scratch: Vec<Int> = Vec::new();
        for (j, d) in b.divs.iter().enumerate() {
            let shared = d
                .as_ref()
                .filter(|_| share)
                .and_then(|d| same_div_in(a, d, &dest, j, &mut scratch));
            dest.push(shared.unwrap_or_else(|| {
                fresh += 1;
                off + na + fresh - 1
            }));
        }
        Layout {
            off,
            na,
            dest,
            fresh,
        }
    }

    /// The length of a row of the conjunction.
    pub(crate) fn len(&self) -> usize {
        self.off + self.na + self.fresh
    }

    /// True if `b`'s locals keep their columns.
    fn in_place(&self) -> bool {
        self.dest
            .iter()
            .enumerate()
            .all(|(k, &d)| d == self.off + k)
    }

    /// `b`'s row `r` in the conjunction's layout, into `out`: variables as
    /// they are, locals to their columns (two of `b`'s locals meet in one
    /// column only when their definitions are equal: the coefficients add).
    pub(crate) fn lift_into(&self, r: &[Int], out: &mut Vec<Int>) {
        out.clear();
        out.resize(self.len(), Int::ZERO);
        self.lift_fill(r, out);
    }

    /// [`lift_into`](Self::lift_into) a row of zeros of the conjunction's
    /// length.
    fn lift_fill(&self, r: &[Int], out: &mut [Int]) {
        out[..self.off].clone_from_slice(&r[..self.off]);
        for (k, v) in r[self.off..].iter().enumerate() {
            if !v.is_zero() {
                let c = self.dest[k];
                out[c] = &out[c] + v;
            }
        }
    }

    /// [`lift_into`](Self::lift_into) a new row.
    pub(crate) fn lift(&self, r: &[Int]) -> Vec<Int> {
        let mut out = Vec::with_capacity(self.len());
        self.lift_into(r, &mut out);
        out
    }

    /// [`lift_into`](Self::lift_into) a new last row of `rows`.
    pub(crate) fn lift_onto(&self, r: &[Int], rows: &mut crate::RowsWriter<'_>) {
        rows.push_with(self.len(), |out| self.lift_fill(r, out))
    }

    /// [`widen`](Self::widen) into a new last row of `rows`.
    pub(crate) fn widen_onto(&self, r: &[Int], rows: &mut crate::RowsWriter<'_>) {
        rows.push_with(self.len(), |out| out[..r.len()].clone_from_slice(r))
    }

    /// `a`'s row `r` in the conjunction's layout (zeros appended).
    pub(crate) fn widen(&self, r: &[Int]) -> Vec<Int> {
        let mut out = Vec::with_capacity(self.len());
        out.extend_from_slice(r);
        out.resize(self.len(), Int::ZERO);
        out
    }

    /// The conjunction's locals: `a`'s divisions, then those of `b`'s
    /// locals with a fresh column.
    pub(crate) fn divs(&self, a: &BasicMap, b: &BasicMap) -> Vec<Option<Div>> {
        let mut divs: Vec<Option<Div>> = Vec::with_capacity(self.na + self.fresh);
        divs.extend(a.divs.iter().map(|d| {
            d.as_ref().map(|d| Div {
                num: self.widen(&d.num),
                den: d.den.clone(),
            })
        }));
        for (j, d) in b.divs.iter().enumerate() {
            if self.dest[j] >= self.off + self.na {
                divs.push(d.as_ref().map(|d| Div {
                    num: self.lift(&d.num),
                    den: d.den.clone(),
                }));
            }
        }
        divs
    }
}

/// `a ∧ b` (same space and parameters), with each local of `b` whose
/// definition repeats one of `a`'s (after the renaming of `b`'s earlier
/// locals) merged into it and the rows of `b` that repeat one of `a`'s
/// left out. The locals are `a`'s, then `b`'s other ones in order.
pub(crate) fn conjoin_sharing(a: &BasicMap, b: &BasicMap) -> BasicMap {
    let layout = Layout::new(a, b, true);
    let (na, nb) = (a.n_div(), b.n_div());
    if layout.fresh == nb && na > 0 {
        // nothing shared, and `b`'s locals move: a row of `b` with a local
        // is none of `a`'s, so the plain conjunction (without the search
        // for repeated rows)
        return a.conjoin(b, 0);
    }
    // (`b`'s locals where they are, after the variables: its rows are
    // compared with `a`'s as they are, else lifted into `scratch` first)
    let in_place = layout.in_place();
    let mut scratch: Vec<Int> = Vec::new();
    let divs = layout.divs(a, b);
    // `b`'s rows that are not `a`'s (an equality: nor its negation),
    // compared before they are built
    let mut repeated = |rows: &Rows, r: &[Int], both: bool| -> bool {
        let r: &[Int] = if in_place {
            r
        } else {
            layout.lift_into(r, &mut scratch);
            &scratch
        };
        // (a row is compared whole only when its entry at the first
        // non-zero column of `r` matches, or is the negation)
        let p = r
            .iter()
            .skip(1)
            .position(|v| !v.is_zero())
            .map_or(0, |p| p + 1);
        rows.iter().any(|s| {
            let sp = s.get(p).unwrap_or(&Int::ZERO);
            *sp == r[p] && same_padded(s, r, false)
                || both && is_negation(sp, &r[p]) && same_padded(s, r, true)
        })
    };
    let mut eqs = Rows::with_capacity(a.eqs.len() + b.eqs.len(), layout.len());
    let mut w = eqs.writer();
    for r in a.eqs.iter() {
        layout.widen_onto(r, &mut w);
    }
    for r in b.eqs.iter() {
        if !repeated(&a.eqs, r, true) {
            layout.lift_onto(r, &mut w);
        }
    }
    let mut ineqs = Rows::with_capacity(a.ineqs.len() + b.ineqs.len(), layout.len());
    let mut w = ineqs.writer();
    for r in a.ineqs.iter() {
        layout.widen_onto(r, &mut w);
    }
    for r in b.ineqs.iter() {
        if !repeated(&a.ineqs, r, false) {
            layout.lift_onto(r, &mut w);
        }
    }
    BasicMap {
        space: a.space.clone(),
        divs: divs.into(),
        eqs,
        ineqs,
        hint: Default::default(),
    }
}

/// True if `a = -b` (no value built on the fast path).
#[inline]
fn is_negation(a: &Int, b: &Int) -> bool {
    match (a, b) {
        (Int::Small(a), Int::Small(b)) => b.checked_neg() == Some(*a),
        _ => *a == -b,
    }
}

/// Whether the rows `s` and `r` are equal (`r = -s` when `negated`), the
/// shorter one taken as padded with zeros.
fn same_padded(s: &[Int], r: &[Int], negated: bool) -> bool {
    let m = s.len().min(r.len());
    let head = if negated {
        s[..m].iter().zip(&r[..m]).all(|(x, y)| match (x, y) {
            (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
            _ => *x == -y,
        })
    } else {
        s[..m] == r[..m]
    };
    head && s[m..].iter().all(Int::is_zero) && r[m..].iter().all(Int::is_zero)
}

/// The column of the local of `a` whose definition is `d` (the definition
/// of `b`'s local `j`) with `b`'s earlier locals sent to `dest`; `None` if
/// there is none, or if `d` refers to a later local of `b` or to one that
/// is not `a`'s. `lifted` is scratch space.
fn same_div_in(
    a: &BasicMap,
    d: &Div,
    dest: &[usize],
    j: usize,
    lifted: &mut Vec<Int>,
) -> Option<usize> {
    let base = a.off_div();
    let end = base + a.n_div();
    lifted.clear();
    lifted.extend_from_slice(&d.num[..base]);
    lifted.resize(end, Int::ZERO);
    for (k, v) in d.num[base..].iter().enumerate() {
        if v.is_zero() {
            continue;
        }
        if k >= j || dest[k] >= end {
            return None;
        }
        lifted[dest[k]] = &lifted[dest[k]] + v;
    }
    a.divs
        .iter()
        .position(|e| {
            e.as_ref()
                .is_some_and(|e| e.den == d.den && e.num[..] == lifted[..])
        })
        .map(|i| base + i)
}

#[cfg(test)]
mod tests {
    use super::conjoin_sharing;
    use crate::basic::BasicMap;
    use crate::int::Int;

    /// Constraints over `[n] -> { [i, j] }`, with divisions that repeat
    /// between them (nested ones too), so that two random choices share some.
    const POOL: &[&str] = &[
        "i >= 0",
        "j <= 4",
        "i <= n",
        "(i) mod 2 = 0",
        "(j + 1) mod 3 = 0",
        "i >= floor((j + 1)/3)",
        "j <= floor((i + j)/2) + 1",
        "floor((i + j)/2) >= -1",
        "2*floor((i + 1)/4) <= j",
        "floor((floor((i + 1)/4) + j)/2) <= 1",
        "i - 3*floor(i/3) <= 1",
        "(i + n) mod 2 = 1",
        "j = floor((i + n)/2)",
        "i + j >= -2",
    ];

    use crate::testing::XorShift as Rng;

    fn random_set(rng: &mut Rng) -> BasicMap {
        let k = 1 + rng.below(4);
        let parts: Vec<&str> = (0..k)
            .map(|_| POOL[rng.below(POOL.len() as u64) as usize])
            .collect();
        // now and then an existential without a definition
        let text = match rng.below(3) {
            0 => format!(
                "[n] -> {{ [i, j] : exists (e : {} and 0 <= i - 3e <= 1) }}",
                parts.join(" and ")
            ),
            _ => format!("[n] -> {{ [i, j] : {} }}", parts.join(" and ")),
        };
        let m: crate::Map = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(m.basic_maps().len(), 1, "{text}");
        m.basic_maps()[0].clone()
    }

    /// The shared conjunction has the points of `conjoin(b, 0)` (every
    /// point of a box, parameter included), and fewer locals and rows
    /// often enough that the sharing is exercised.
    #[test]
    fn conjoin_sharing_is_conjoin() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut shared, mut dropped, mut points) = (0, 0, 0);
        for _ in 0..1500 {
            let a = random_set(&mut rng);
            let b = if rng.below(4) == 0 {
                a.clone()
            } else {
                random_set(&mut rng)
            };
            let got = conjoin_sharing(&a, &b);
            let want = a.conjoin(&b, 0);
            assert!(got.check_lengths());
            shared += usize::from(got.n_div() < want.n_div());
            dropped += usize::from(
                got.ineqs().len() + got.eqs().len() < want.ineqs().len() + want.eqs().len(),
            );
            for n in -2..=3i64 {
                for i in -5..=5i64 {
                    for j in -5..=5i64 {
                        let pt = [Int::from(n), Int::from(i), Int::from(j)];
                        assert_eq!(
                            got.contains_point(&pt).unwrap(),
                            want.contains_point(&pt).unwrap(),
                            "{a:?} {b:?} {pt:?}"
                        );
                        points += 1;
                    }
                }
            }
        }
        assert!(
            shared > 400 && dropped > 400 && points > 100_000,
            "{shared} {dropped} {points}"
        );
    }
}
