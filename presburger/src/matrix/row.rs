//! Row helpers: inner products, evaluation and gcd normalization of rows.

use crate::int::{gcd_slice, Int};

/// The inner product `Σ a[k]·b[k]` over the common length of `a` and `b`.
///
/// ```
/// use presburger::{matrix, Int};
/// let a: Vec<Int> = [1, 2, 3].map(Int::from).to_vec();
/// assert_eq!(matrix::dot(&a, &a), Int::from(14));
/// ```
#[inline]
pub fn dot(a: &[Int], b: &[Int]) -> Int {
    let mut s = Int::ZERO;
    for (x, y) in a.iter().zip(b) {
        if !x.is_zero() {
            s.add_mul(x, y);
        }
    }
    s
}

/// The value of an affine row at a point, with the **constant first**:
/// `row = [c, a_1, …, a_n]` stands for `c + a_1·x_1 + … + a_n·x_n`.
///
/// This is the column convention of every constraint row in the engine
/// (`[constant | params | in | out | locals]`). `point` gives `x_1, x_2, …`;
/// coefficients beyond the point's length are ignored (so a row with locals
/// can be evaluated on its leading variables only when those coefficients
/// are zero).
///
/// ```
/// use presburger::{matrix, Int};
/// let row: Vec<Int> = [5, 1, -2].map(Int::from).to_vec(); // 5 + x - 2y
/// let p: Vec<Int> = [3, 4].map(Int::from).to_vec();
/// assert_eq!(matrix::eval(&row, &p), Int::from(0));
/// ```
#[inline]
pub fn eval(row: &[Int], point: &[Int]) -> Int {
    let mut v = row[0].clone();
    for (a, x) in row[1..].iter().zip(point) {
        if !a.is_zero() {
            v.add_mul(a, x);
        }
    }
    v
}

/// Divide every entry of `row` by the gcd of all entries (the constant
/// included); returns that gcd (0 for a zero row, left unchanged).
///
/// This is the variant for rows whose entries all scale together, such as
/// tableau rows `[denominator, constant, coefficients…]`: the row keeps its
/// meaning exactly. For constraint rows use [`normalize_eq`] or
/// [`normalize_ineq`], which also decide integer infeasibility.
///
/// ```
/// use presburger::{matrix, Int};
/// let mut r: Vec<Int> = [4, 6, -8].map(Int::from).to_vec();
/// assert_eq!(matrix::normalize(&mut r), Int::from(2));
/// assert_eq!(r, [2, 3, -4].map(Int::from).to_vec());
/// ```
#[inline]
pub fn normalize(row: &mut [Int]) -> Int {
    let g = gcd_slice(row);
    divide_by(row, &g);
    g
}

/// The arithmetic cost of a row's big entries beyond its length: the sum
/// of the squares of their sizes in 64-bit words (a gcd or product of
/// `w`-word numbers takes about `w²` word operations; 0 when every entry is
/// a machine integer). Pivots charge it to the [budget](crate::budget), so
/// that inputs with huge constants run out of budget instead of time.
///
/// ```
/// use presburger::{matrix, Int};
/// let small: Vec<Int> = [4, -6].map(Int::from).to_vec();
/// assert_eq!(matrix::big_cost(&small), 0);
/// let big = vec![Int::from(3), "1000000000000000000000000000000000000000".parse::<Int>().unwrap()];
/// assert_eq!(matrix::big_cost(&big), 9); // 130 bits: 3 words, squared
/// ```
#[inline]
pub fn big_cost(row: &[Int]) -> u64 {
    row.iter()
        .map(|x| match x {
            Int::Small(_) => 0,
            Int::Big(v) => {
                let w = 1 + v.bits() / 64;
                w * w
            }
        })
        .sum()
}

/// [`normalize`] without the gcd, for hot loops that do not need it (the
/// simplex and pip pivots): the gcd stays a local, and the row is not
/// touched when it is 0 or 1 (the gcd computation stops at the first 1).
///
/// ```
/// use presburger::{matrix, Int};
/// let mut r: Vec<Int> = [4, 6, -8].map(Int::from).to_vec();
/// matrix::normalize_row(&mut r);
/// assert_eq!(r, [2, 3, -4].map(Int::from).to_vec());
/// ```
#[inline]
pub fn normalize_row(row: &mut [Int]) {
    let g = gcd_slice(row);
    if !g.is_zero() && !g.is_one() {
        row.iter_mut().for_each(|v| *v = v.div_exact(&g));
    }
}

/// The row update of a tableau pivot: substitute the pivot row's unknown
/// into `row`. Both rows have a denominator first (`[d, entries…]` stands
/// for `entries / d`); `m` is the coefficient `row` had on the pivot
/// column, already taken out of `row` (its entry there is 0), and `piv` is
/// `[dn, …]`, the value of that column's unknown. Afterwards
/// `row = (dn·row + m·piv) / (d·dn)`, gcd-normalized.
///
/// The common factor `g = gcd(dn, m)` is divided out of the two multipliers
/// first (`row = ((dn/g)·row + (m/g)·piv) / (d·dn/g)` is the same value), so
/// the entries grow less and the final normalization more often stops at a
/// gcd of 1 without a division pass; when `dn/g = 1` the row is not scaled
/// and the pivot row's zero entries are skipped. The result is the unique
/// normalized row of the value, so it does not depend on these shortcuts.
///
/// ```
/// use presburger::{matrix, Int};
/// let v = |r: &[i64]| r.iter().map(|&x| Int::from(x)).collect::<Vec<_>>();
/// // row (x + 0·y) / 1 after taking out m = 2 (the coefficient of y); y = (1 + 3z) / 4
/// let mut row = v(&[1, 0, 1, 0, 0]);
/// matrix::substitute_pivot(&mut row, &v(&[4, 1, 0, 0, 3]), &Int::from(2));
/// assert_eq!(row, v(&[2, 1, 2, 0, 3])); // (4x + 2 + 6z) / 4 = (1 + 2x + 3z) / 2
/// ```
#[inline]
pub fn substitute_pivot(row: &mut [Int], piv: &[Int], m: &Int) {
    let dn = &piv[0];
    if dn.is_one() {
        add_multiple(&mut row[1..], m, &piv[1..]);
    } else {
        let g = dn.gcd(m);
        if g.is_one() {
            scale_add(row, dn, m, piv);
        } else {
            let a = dn.div_exact(&g);
            let b = m.div_exact(&g);
            if a.is_one() {
                add_multiple(&mut row[1..], &b, &piv[1..]);
            } else {
                scale_add(row, &a, &b, piv);
            }
        }
    }
    normalize_row(row);
}

/// `x += m·y` entry-wise, skipping the zeros of `y`.
#[inline(always)]
fn add_multiple(x: &mut [Int], m: &Int, y: &[Int]) {
    for (x, y) in x.iter_mut().zip(y) {
        if !y.is_zero() {
            x.combine_assign(&Int::ONE, m, y);
        }
    }
}

/// `row[0] *= a`, then `row[k] = a·row[k] + b·piv[k]` for `k >= 1`.
#[inline(always)]
fn scale_add(row: &mut [Int], a: &Int, b: &Int, piv: &[Int]) {
    row[0] = &row[0] * a;
    for (x, y) in row[1..].iter_mut().zip(&piv[1..]) {
        x.combine_assign(a, b, y);
    }
}

/// Divides every entry by `g` unless `g` is 0 or 1.
#[inline(always)]
fn divide_by(row: &mut [Int], g: &Int) {
    if !g.is_zero() && !g.is_one() {
        for v in row.iter_mut() {
            *v = v.div_exact(g);
        }
    }
}

/// Eliminate column `col` from `row` with the equality `pivot`
/// (`pivot[col] != 0`): `row := |p|·row − sign(p)·row[col]·pivot` with
/// `p = pivot[col]`, so that `row[col]` becomes 0.
///
/// `row` is replaced by a *positive* multiple of itself plus a multiple of
/// the pivot, so on the points where `pivot` vanishes the new row has the
/// sign of the old one times `|p|`: this is right for equalities and
/// inequalities alike. A row without the column is left as it is. The
/// entries are not divided by their gcd (follow with [`normalize`] when the
/// scale does not matter).
///
/// ```
/// use presburger::{matrix, Int};
/// let piv: Vec<Int> = [-1, 2, 1].map(Int::from).to_vec();  // 2x + y - 1 = 0
/// let mut r: Vec<Int> = [0, 3, 1].map(Int::from).to_vec(); // 3x + y >= 0
/// matrix::eliminate(&mut r, &piv, 1);
/// assert_eq!(r, [3, 0, -1].map(Int::from).to_vec());         // 2·(3x + y) - 3·(2x + y - 1) = 3 - y
/// ```
pub fn eliminate(row: &mut [Int], pivot: &[Int], col: usize) {
    if row[col].is_zero() {
        return;
    }
    // machine multipliers (the usual case): `a·v + nb·q` per entry on
    // `i64`/`i128`, and with `a = 1` (a unit pivot) the entries where the
    // pivot is zero are left as they are (`1·v + nb·0 = v`)
    if let (Int::Small(p), Int::Small(c)) = (&pivot[col], &row[col]) {
        let (a, nb) = if *p < 0 {
            (p.checked_neg(), Some(*c))
        } else {
            (Some(*p), c.checked_neg())
        };
        if let (Some(a), Some(nb)) = (a, nb) {
            eliminate_small(row, pivot, a, nb);
            return;
        }
    }
    eliminate_reference(row, pivot, col);
}

/// [`eliminate`] given the non-zero columns of `pivot` (`support`, in any
/// order): with a unit pivot (`pivot[col] = ±1`) and a machine-integer
/// `row[col]`, only the entries of those columns change (`row[k] + nb·pivot[k]`),
/// so a sparse pivot costs its support, not the row's length (Gaussian
/// elimination of many equalities from long rows); otherwise it is
/// [`eliminate`].
pub(crate) fn eliminate_on_support(row: &mut [Int], pivot: &[Int], col: usize, support: &[u16]) {
    debug_assert!(
        (0..pivot.len()).all(|k| pivot[k].is_zero() != support.contains(&(k as u16))),
        "support {support:?} of {pivot:?}"
    );
    let nb = match (&pivot[col], &row[col]) {
        (_, Int::Small(0)) => return,
        (Int::Small(1), Int::Small(c)) => c.checked_neg(),
        (Int::Small(-1), Int::Small(c)) => Some(*c),
        _ => None,
    };
    let Some(nb) = nb else {
        return eliminate(row, pivot, col);
    };
    for &k in support {
        let k = usize::from(k);
        match (&mut row[k], &pivot[k]) {
            (Int::Small(x), Int::Small(y)) => {
                let s = (*x as i128) + (nb as i128) * (*y as i128);
                match i64::try_from(s) {
                    Ok(s) => *x = s,
                    Err(_) => row[k] = Int::from(s),
                }
            }
            (v, q) => v.combine_assign(&Int::ONE, &Int::Small(nb), q),
        }
    }
}

/// [`eliminate`] with the multipliers `a = |p| > 0` and `nb` as machine
/// integers: `row[k] = a·row[k] + nb·pivot[k]`, exactly (an entry whose
/// value does not fit takes the wide path).
#[inline]
fn eliminate_small(row: &mut [Int], pivot: &[Int], a: i64, nb: i64) {
    for (v, q) in row.iter_mut().zip(pivot) {
        match (&mut *v, q) {
            (_, Int::Small(0)) if a == 1 => {}
            (Int::Small(x), Int::Small(y)) => {
                let s = (a as i128) * (*x as i128) + (nb as i128) * (*y as i128);
                match i64::try_from(s) {
                    Ok(s) => *x = s,
                    Err(_) => *v = Int::from(s),
                }
            }
            _ => v.combine_assign(&Int::Small(a), &Int::Small(nb), q),
        }
    }
}

/// [`eliminate`] as first written, on [`Int`] multipliers throughout: its
/// path when a multiplier does not fit in 64 bits, and the oracle of the
/// fast path's test.
pub(crate) fn eliminate_reference(row: &mut [Int], pivot: &[Int], col: usize) {
    if row[col].is_zero() {
        return;
    }
    let p = &pivot[col];
    let (a, nb) = if p.is_neg() {
        (-p, row[col].clone())
    } else {
        (p.clone(), -&row[col])
    };
    for (v, q) in row.iter_mut().zip(pivot) {
        v.combine_assign(&a, &nb, q);
    }
}

/// What gcd normalization found out about one constraint row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowStatus {
    /// A proper constraint: some variable coefficient is non-zero.
    Constraint,
    /// All variable coefficients are zero and the constant satisfies the
    /// constraint (`0 = 0`, `c >= 0`): the row says nothing.
    Tautology,
    /// No integer point satisfies the row (`c = 0` with `c != 0`, `c >= 0`
    /// with `c < 0`, or an equality whose constant is not a multiple of the
    /// gcd of its coefficients).
    Infeasible,
}

/// Normalize an **equality** row `[c, a…]` (`c + a·x = 0`): divide by the
/// gcd `g` of the variable coefficients `a`. Integer points exist only if
/// `g` divides `c`; otherwise the row is left unchanged and
/// [`RowStatus::Infeasible`] is returned.
///
/// ```
/// use presburger::{matrix::{self, RowStatus}, Int};
/// let mut r: Vec<Int> = [6, 2, -4].map(Int::from).to_vec(); // 6 + 2x - 4y = 0
/// assert_eq!(matrix::normalize_eq(&mut r), RowStatus::Constraint);
/// assert_eq!(r, [3, 1, -2].map(Int::from).to_vec());
/// let mut r: Vec<Int> = [1, 2, 4].map(Int::from).to_vec(); // 1 + 2x + 4y = 0: no integer root
/// assert_eq!(matrix::normalize_eq(&mut r), RowStatus::Infeasible);
/// ```
pub fn normalize_eq(row: &mut [Int]) -> RowStatus {
    let g = gcd_slice(&row[1..]);
    if g.is_zero() {
        return if row[0].is_zero() {
            RowStatus::Tautology
        } else {
            RowStatus::Infeasible
        };
    }
    if g.is_one() {
        return RowStatus::Constraint;
    }
    if !row[0].is_divisible_by(&g) {
        return RowStatus::Infeasible;
    }
    for v in row.iter_mut() {
        *v = v.div_exact(&g);
    }
    RowStatus::Constraint
}

/// Normalize an **inequality** row `[c, a…]` (`c + a·x >= 0`): divide the
/// variable coefficients by their gcd `g` and replace the constant by
/// `floor(c / g)`. Over the integers the new row has exactly the same
/// solutions (`a·x` is a multiple of `g`), and it is tighter over the
/// rationals.
///
/// ```
/// use presburger::{matrix::{self, RowStatus}, Int};
/// let mut r: Vec<Int> = [5, 2, -4].map(Int::from).to_vec(); // 2x - 4y + 5 >= 0
/// assert_eq!(matrix::normalize_ineq(&mut r), RowStatus::Constraint);
/// assert_eq!(r, [2, 1, -2].map(Int::from).to_vec()); // x - 2y + 2 >= 0
/// let mut r: Vec<Int> = [-1, 0].map(Int::from).to_vec();
/// assert_eq!(matrix::normalize_ineq(&mut r), RowStatus::Infeasible);
/// ```
pub fn normalize_ineq(row: &mut [Int]) -> RowStatus {
    let g = gcd_slice(&row[1..]);
    if g.is_zero() {
        return if row[0].is_neg() {
            RowStatus::Infeasible
        } else {
            RowStatus::Tautology
        };
    }
    if !g.is_one() {
        row[0] = row[0].div_floor(&g);
        for v in row[1..].iter_mut() {
            *v = v.div_exact(&g);
        }
    }
    RowStatus::Constraint
}

/// True if [`normalize_eq`] and [`normalize_ineq`] leave the row `r` as it
/// is and report it a constraint: its coefficients have gcd 1.
pub fn is_normal_row(r: &[Int]) -> bool {
    // a coefficient ±1 settles it without a gcd
    r[1..]
        .iter()
        .any(|v| matches!(v, Int::Small(1) | Int::Small(-1)))
        || gcd_slice(&r[1..]).is_one()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    proptest! {
        /// `is_normal_row` (the read-only test before a write) is exactly
        /// "both normalisations leave the row as it is, a constraint".
        #[test]
        fn normal_rows_are_left_alone(
            row in proptest::collection::vec(-12i64..12, 1..5),
            scale in 1i64..4,
        ) {
            let mut row = ints(&row);
            for v in row[1..].iter_mut() { *v = &*v * &Int::from(scale); }
            let (mut e, mut i) = (row.clone(), row.clone());
            let same = normalize_eq(&mut e) == RowStatus::Constraint
                && normalize_ineq(&mut i) == RowStatus::Constraint
                && e == row
                && i == row;
            prop_assert_eq!(is_normal_row(&row), same, "{:?}", row);
        }

        /// Normalization keeps the integer solutions of a row (checked on a box).
        #[test]
        fn normalized_rows_keep_integer_points(
            row in proptest::collection::vec(-12i64..12, 3),
            scale in 1i64..5,
        ) {
            let mut row = ints(&row);
            for v in row[1..].iter_mut() { *v = &*v * &Int::from(scale); }
            let (mut e, mut i) = (row.clone(), row.clone());
            let se = normalize_eq(&mut e);
            let si = normalize_ineq(&mut i);
            let mut any_eq = false;
            for x in -6i64..=6 {
                for y in -6i64..=6 {
                    let p = ints(&[x, y]);
                    let v = eval(&row, &p);
                    any_eq |= v.is_zero();
                    if se != RowStatus::Infeasible {
                        prop_assert_eq!(v.is_zero(), eval(&e, &p).is_zero());
                    }
                    prop_assert_eq!(!v.is_neg(), !eval(&i, &p).is_neg());
                    if si == RowStatus::Infeasible { prop_assert!(v.is_neg()); }
                    if si == RowStatus::Tautology { prop_assert!(!v.is_neg()); }
                }
            }
            if se == RowStatus::Infeasible {
                // no integer root at all, so none on the box
                prop_assert!(!any_eq);
            }
            let mut n = row.clone();
            let g = normalize(&mut n);
            if !g.is_zero() {
                for (a, b) in n.iter().zip(&row) {
                    prop_assert_eq!(&(a * &g), b);
                }
            }
        }
    }

    proptest! {
        /// Elimination clears the column and keeps the row's sign (times
        /// |p|) on the points of the pivot's hyperplane.
        #[test]
        fn elimination_on_the_pivot_hyperplane(
            row in proptest::collection::vec(-9i64..9, 4),
            piv in proptest::collection::vec(-4i64..4, 4),
            col in 1usize..4,
        ) {
            prop_assume!(piv[col] != 0);
            let (row, piv) = (ints(&row), ints(&piv));
            let mut e = row.clone();
            eliminate(&mut e, &piv, col);
            prop_assert!(e[col].is_zero());
            // a row without the column is left as it is
            let p = if row[col].is_zero() { Int::ONE } else { piv[col].abs() };
            for x in -4i64..=4 {
                for y in -4i64..=4 {
                    for z in -4i64..=4 {
                        let pt = ints(&[x, y, z]);
                        if eval(&piv, &pt).is_zero() {
                            prop_assert_eq!(eval(&e, &pt), &eval(&row, &pt) * &p);
                        }
                    }
                }
            }
        }
    }

    proptest! {
        /// The fast paths of `eliminate` (machine multipliers, a unit
        /// pivot's zeros skipped) and `eliminate_on_support` (a unit
        /// pivot's non-zero columns only) leave exactly the row the
        /// reference leaves, with unit pivots of either sign and others,
        /// also with entries near and beyond 64 bits.
        #[test]
        fn eliminations_are_the_reference(
            row in proptest::collection::vec((-5i64..5, 0u8..12), 2..9),
            piv in proptest::collection::vec((-3i64..3, 0u8..12), 2..9),
            col in 1usize..8,
            unit in proptest::bool::ANY,
        ) {
            let n = row.len().min(piv.len());
            prop_assume!(col < n);
            // now and then an entry at the edge of i64 or beyond it
            let big = |(v, k): (i64, u8)| match k {
                0 => Int::from(i64::MAX - v.abs()),
                1 => Int::from(i64::MIN + v.abs()),
                2 => &Int::from(i64::MAX) * &Int::from(v),
                _ => Int::from(v),
            };
            let row: Vec<Int> = row[..n].iter().map(|&e| big(e)).collect();
            let mut piv: Vec<Int> = piv[..n].iter().map(|&e| big(e)).collect();
            if unit {
                piv[col] = if piv[col].is_neg() { Int::from(-1) } else { Int::ONE };
            }
            prop_assume!(!piv[col].is_zero());
            let mut slow = row.clone();
            eliminate_reference(&mut slow, &piv, col);
            let mut fast = row.clone();
            eliminate(&mut fast, &piv, col);
            prop_assert_eq!(&fast, &slow, "{:?} {:?} {}", row, piv, col);
            prop_assert!(fast[col].is_zero());
            let support: Vec<u16> = (0..n as u16).rev().filter(|&k| !piv[usize::from(k)].is_zero()).collect();
            let mut sparse = row.clone();
            eliminate_on_support(&mut sparse, &piv, col, &support);
            prop_assert_eq!(&sparse, &slow, "{:?} {:?} {}", row, piv, col);
        }
    }

    #[test]
    fn dot_and_eval() {
        assert_eq!(dot(&ints(&[1, 2]), &ints(&[3, 4, 5])), Int::from(11));
        assert_eq!(eval(&ints(&[7]), &[]), Int::from(7));
        assert_eq!(eval(&ints(&[1, 0, 2]), &ints(&[5])), Int::from(1));
    }
}
