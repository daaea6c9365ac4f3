//! Integer solutions of equalities: a unimodular change of coordinates
//! (column echelon form) and the lattice `x = x0 + B·z` it gives.

use crate::int::Int;

/// The integer solutions of `eqs` (= 0) over `n` variables, as
/// `x = x0 + B·z` for all integer `z` (B has `n` rows and one column per free
/// direction), or `None` if there is no integer solution. Column operations
/// with unimodular steps (Euclid on columns) bring the equalities to lower
/// triangular form.
pub fn solve_equalities(n: usize, eqs: &[Vec<Int>]) -> Option<(Vec<Int>, Vec<Vec<Int>>)> {
    // E·U = [H 0] with H lower triangular; then H·z = -c by forward substitution
    let (u, r) = unimodular_split(n, eqs);
    let mut z: Vec<Int> = Vec::with_capacity(r);
    for e in eqs {
        // row of E·U restricted to the pivot columns found so far, and the next one
        let eu = |j: usize| -> Int {
            let mut v = Int::ZERO;
            for (i, a) in e[1..].iter().enumerate() {
                if !a.is_zero() && !u[i][j].is_zero() {
                    v.add_mul(a, &u[i][j]);
                }
            }
            v
        };
        let mut v = e[0].clone();
        for (j, zj) in z.iter().enumerate() {
            v.add_mul(&eu(j), zj);
        }
        let col = z.len();
        let pivot = if col < r { eu(col) } else { Int::ZERO };
        if !pivot.is_zero() {
            if !v.is_divisible_by(&pivot) {
                return None;
            }
            z.push((-&v).div_exact(&pivot));
        } else if !v.is_zero() {
            return None;
        }
    }
    let x0: Vec<Int> = (0..n)
        .map(|row| {
            let mut v = Int::ZERO;
            for (j, zj) in z.iter().enumerate() {
                v.add_mul(&u[row][j], zj);
            }
            v
        })
        .collect();
    let basis: Vec<Vec<Int>> = (0..n).map(|row| u[row][r..].to_vec()).collect();
    Some((x0, basis))
}

/// Column operations (Euclid on columns) bringing the rows `e` (constants
/// ignored) to `[H 0]` with `H` lower triangular of full column rank `r`: row
/// by row, the first row with an entry beyond the pivots found so far gets the
/// next pivot. Returns the unimodular `U` and `r`.
pub(crate) fn unimodular_split(k: usize, e: &[Vec<Int>]) -> (Vec<Vec<Int>>, usize) {
    let mut e: Vec<Vec<Int>> = e.iter().map(|r| r[1..].to_vec()).collect();
    let mut u: Vec<Vec<Int>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| if i == j { Int::ONE } else { Int::ZERO })
                .collect()
        })
        .collect();
    let mut col = 0;
    for i in 0..e.len() {
        if col == k {
            break;
        }
        loop {
            let mut piv: Option<usize> = None;
            let mut count = 0;
            for j in col..k {
                if !e[i][j].is_zero() {
                    count += 1;
                    if piv.is_none_or(|p| e[i][j].abs() < e[i][p].abs()) {
                        piv = Some(j);
                    }
                }
            }
            let Some(p) = piv else { break };
            if count == 1 {
                for row in e.iter_mut().chain(u.iter_mut()) {
                    row.swap(p, col);
                }
                col += 1;
                break;
            }
            for j in col..k {
                if j != p && !e[i][j].is_zero() {
                    let q = -&e[i][j].div_floor(&e[i][p]);
                    for row in e.iter_mut().chain(u.iter_mut()) {
                        if !row[p].is_zero() {
                            row[j] = Int::combine(&Int::ONE, &row[j], &q, &row[p]);
                        }
                    }
                }
            }
        }
    }
    (u, col)
}
