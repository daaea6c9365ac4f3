//! Small exact linear algebra on integer rows (`i128`, fraction-free):
//! echelon form, rank and an integer basis of the null space. Every
//! function returns `None` when an intermediate value overflows, so a
//! caller never works on a wrapped value.

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The row divided by the gcd of its entries.
fn normalized(mut row: Vec<i128>) -> Vec<i128> {
    let g = row.iter().fold(0, |g, &v| gcd(g, v));
    if g > 1 {
        row.iter_mut().for_each(|v| *v /= g);
    }
    row
}

/// Fraction-free reduced row echelon form (`None` on overflow): the rows
/// and their pivot columns.
pub fn echelon(rows: &[Vec<i128>], dim: usize) -> Option<(Vec<Vec<i128>>, Vec<usize>)> {
    let mut m: Vec<Vec<i128>> = rows.iter().map(|r| normalized(r.clone())).collect();
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..dim {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else {
            continue;
        };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && m[i][c] != 0 {
                let (f, g) = (m[r][c], m[i][c]);
                let row: Option<Vec<i128>> = m[i]
                    .iter()
                    .zip(&m[r])
                    .map(|(x, y)| f.checked_mul(*x)?.checked_sub(g.checked_mul(*y)?))
                    .collect();
                m[i] = normalized(row?);
            }
        }
        pivots.push(c);
        r += 1;
    }
    m.truncate(r);
    Some((m, pivots))
}

/// An integer basis of `{ x : rows·x = 0 }` (`None` on overflow).
pub fn null_space(rows: &[Vec<i128>], dim: usize) -> Option<Vec<Vec<i128>>> {
    let (m, pivots) = echelon(rows, dim)?;
    let mut out = Vec::new();
    for f in (0..dim).filter(|c| !pivots.contains(c)) {
        // x_f = l, x_pivot(r) = -m[r][f]·l / m[r][pivot(r)]
        let mut l: i128 = 1;
        for (r, &c) in pivots.iter().enumerate() {
            let p = m[r][c].abs();
            l = l.checked_mul(p / gcd(l, p))?;
        }
        let mut x = vec![0i128; dim];
        x[f] = l;
        for (r, &c) in pivots.iter().enumerate() {
            x[c] = (-m[r][f]).checked_mul(l / m[r][c])?;
        }
        out.push(normalized(x));
    }
    Some(out)
}

/// The rank of `rows` (`None` on overflow).
pub fn rank(rows: &[Vec<i128>], dim: usize) -> Option<usize> {
    echelon(rows, dim).map(|(m, _)| m.len())
}

#[cfg(test)]
mod tests {
    use super::{null_space, rank};

    #[test]
    fn null_spaces_are_orthogonal_and_complete() {
        let rows = vec![vec![1, 2, 3, 4], vec![2, 4, 6, 9], vec![0, 0, 0, 0]];
        let ns = null_space(&rows, 4).unwrap();
        assert_eq!(ns.len(), 2);
        for x in &ns {
            for r in &rows {
                assert_eq!(r.iter().zip(x).map(|(a, b)| a * b).sum::<i128>(), 0);
            }
        }
        assert_eq!(ns.len() + rank(&rows, 4).unwrap(), 4);
        assert_eq!(rank(&[vec![1, 2], vec![2, 4]], 2), Some(1));
        assert_eq!(null_space(&[], 3).unwrap().len(), 3);
        assert!(null_space(&[vec![i128::MAX, 1], vec![i128::MAX - 1, 3]], 2).is_none());
    }
}
