//! Small exact linear algebra on integer rows: rank and an integer basis of
//! the null space (the orthogonal complement of the rows).

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Fraction-free row echelon form; returns the reduced rows and pivot columns.
fn echelon(rows: &[Vec<i128>], d: usize) -> (Vec<Vec<i128>>, Vec<usize>) {
    let mut m: Vec<Vec<i128>> = rows.to_vec();
    let mut piv = Vec::new();
    let mut r = 0;
    for c in 0..d {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else {
            continue;
        };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && m[i][c] != 0 {
                let (a, b) = (m[r][c], m[i][c]);
                for k in 0..d {
                    m[i][k] = a * m[i][k] - b * m[r][k];
                }
                let g = m[i].iter().fold(0, |g, &x| gcd(g, x));
                if g > 1 {
                    for x in m[i].iter_mut() {
                        *x /= g;
                    }
                }
            }
        }
        piv.push(c);
        r += 1;
    }
    m.truncate(r);
    (m, piv)
}

/// The rank of the rows (each of the same length).
pub fn rank(rows: &[Vec<i128>]) -> usize {
    let d = rows.first().map_or(0, |r| r.len());
    echelon(rows, d).1.len()
}

/// An integer basis of `{ h : rows · h = 0 }` (vectors of length `d`).
pub fn null_space(rows: &[Vec<i128>], d: usize) -> Vec<Vec<i128>> {
    let (m, piv) = echelon(rows, d);
    let mut out = Vec::new();
    for f in (0..d).filter(|c| !piv.contains(c)) {
        // h_f = L (common multiple), pivots solved
        let l = m.iter().fold(1i128, |l, r| {
            let p = r[piv[m.iter().position(|x| x == r).unwrap_or(0)]].abs();
            l / gcd(l, p) * p
        });
        let mut h = vec![0i128; d];
        h[f] = l;
        for (i, r) in m.iter().enumerate() {
            let pc = piv[i];
            // r[pc] h[pc] + r[f] h[f] = 0 (other free columns are zero)
            h[pc] = -r[f] * l / r[pc];
        }
        let g = h.iter().fold(0, |g, &x| gcd(g, x));
        if g > 1 {
            for x in h.iter_mut() {
                *x /= g;
            }
        }
        out.push(h);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_space_is_orthogonal_and_complete() {
        let rows = vec![vec![1, 1, 0], vec![0, 2, 1]];
        let h = null_space(&rows, 3);
        assert_eq!(h.len(), 1);
        for r in &rows {
            assert_eq!(r.iter().zip(&h[0]).map(|(a, b)| a * b).sum::<i128>(), 0);
        }
        assert_eq!(null_space(&[], 2).len(), 2);
        assert_eq!(rank(&[vec![1, 2], vec![2, 4]]), 1);
    }
}
