//! Lattice basis reduction (Lenstra, Lenstra and Lovász, "Factoring
//! polynomials with rational coefficients", 1982), exact over the
//! rationals, for the small lattices of a count's equalities.
//!
//! After an equality `a·x = b` over summation variables is solved by a
//! unimodular change `x = U·z` (see `lattice`), the columns of `U` but the
//! last are a basis of the kernel of `a`. Euclid's column reduction gives
//! a skewed basis (`(-98, 1, 0), (100, 0, 1)` for `a = (1, 98, -100)`): the
//! box `0 <= x < n` becomes a thin slanted polytope in `z`, and summing
//! one `z` out of it leaves divisions of period ~100 in the next, whose
//! residue classes or lifted divisions multiply the pieces. A reduced basis
//! of the same lattice (`(2, 1, 1), (0, 50, 49)`) has short, nearly
//! orthogonal vectors, so the bounds in `z` have small coefficients. The
//! change of basis is unimodular, so the count is unchanged.

use super::rat::Rat;
use crate::int::Int;

fn dot(a: &[Int], b: &[Int]) -> Int {
    let mut s = Int::ZERO;
    for (x, y) in a.iter().zip(b) {
        s.add_mul(x, y);
    }
    s
}

fn rdot(a: &[Rat], b: &[Rat]) -> Rat {
    a.iter()
        .zip(b)
        .fold(Rat::zero(), |s, (x, y)| s.add(&x.mul(y)))
}

/// The nearest integer (halves rounded up).
fn round(x: &Rat) -> Int {
    x.add(&Rat::new(Int::ONE, Int::from(2)).unwrap()).floor()
}

/// Gram-Schmidt of `b`: the orthogonal vectors' squared norms and the
/// coefficients `mu[i][j] = <b_i, b*_j> / <b*_j, b*_j>`.
fn gram_schmidt(b: &[Vec<Int>]) -> (Vec<Rat>, Vec<Vec<Rat>>) {
    let n = b.len();
    let mut star: Vec<Vec<Rat>> = Vec::with_capacity(n);
    let mut norms: Vec<Rat> = Vec::with_capacity(n);
    let mut mu = vec![vec![Rat::zero(); n]; n];
    for i in 0..n {
        let bi: Vec<Rat> = b[i].iter().map(|x| Rat::from(x.clone())).collect();
        let mut v = bi.clone();
        for j in 0..i {
            if norms[j].is_zero() {
                continue;
            }
            let m = rdot(&bi, &star[j]).div(&norms[j]).unwrap();
            for (x, y) in v.iter_mut().zip(&star[j]) {
                *x = x.sub(&m.mul(y));
            }
            mu[i][j] = m;
        }
        norms.push(rdot(&v, &v));
        star.push(v);
    }
    (norms, mu)
}

/// `b` (linearly independent integer vectors) replaced by an LLL-reduced
/// basis of the same lattice (`delta = 3/4`): every step adds an integer
/// multiple of one vector to another or swaps two, so the change of basis
/// is unimodular.
pub(crate) fn lll(b: &mut [Vec<Int>]) -> crate::error::Result<()> {
    let n = b.len();
    if n < 2 {
        return Ok(());
    }
    let delta = Rat::new(Int::from(3), Int::from(4)).unwrap();
    let mut k = 1;
    while k < n {
        crate::budget::tick(1)?;
        // size reduction of b_k against b_{k-1}, .., b_0
        for j in (0..k).rev() {
            let (_, mu) = gram_schmidt(b);
            let q = round(&mu[k][j]);
            if !q.is_zero() {
                let bj = b[j].clone();
                for (x, y) in b[k].iter_mut().zip(&bj) {
                    *x = &*x - &(&q * y);
                }
            }
        }
        let (norms, mu) = gram_schmidt(b);
        // Lovász: |b*_k|^2 >= (delta - mu^2) |b*_{k-1}|^2
        let m = &mu[k][k - 1];
        let rhs = delta.sub(&m.mul(m)).mul(&norms[k - 1]);
        if norms[k].sub(&rhs).is_neg() {
            b.swap(k, k - 1);
            k = k.max(2) - 1;
        } else {
            k += 1;
        }
    }
    Ok(())
}

/// `v` minus the integer combination of the reduced basis `b` nearest to
/// it (Babai's rounding, from the last vector to the first): a short
/// representative of `v` modulo the lattice.
pub(crate) fn size_reduce(v: &mut [Int], b: &[Vec<Int>]) {
    for bj in b.iter().rev() {
        let nn = dot(bj, bj);
        if nn.is_zero() {
            continue;
        }
        let q = round(&Rat::new(dot(v, bj), nn).unwrap());
        if !q.is_zero() {
            for (x, y) in v.iter_mut().zip(bj) {
                *x = &*x - &(&q * y);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    /// `x` is an integer combination of `b` (solved over the rationals,
    /// the coefficients checked to be integers).
    fn in_lattice(x: &[Int], b: &[Vec<Int>]) -> bool {
        // brute force over small coefficients (the tests' lattices are
        // small and their reduced vectors short)
        let n = b.len();
        let mut c = vec![-60i64; n];
        loop {
            let mut s = vec![Int::ZERO; x.len()];
            for (cj, bj) in c.iter().zip(b) {
                for (o, y) in s.iter_mut().zip(bj) {
                    o.add_mul(&Int::from(*cj), y);
                }
            }
            if s == x {
                return true;
            }
            let mut i = 0;
            while i < n {
                c[i] += 1;
                if c[i] <= 60 {
                    break;
                }
                c[i] = -60;
                i += 1;
            }
            if i == n {
                return false;
            }
        }
    }

    #[test]
    fn reduced_bases_span_the_same_lattice_with_short_vectors() {
        for (basis, longest) in [
            (vec![vec![-98i64, 1, 0], vec![100, 0, 1]], 71),
            (vec![vec![-3, 1, 0], vec![100, 0, 1]], 32),
            (vec![vec![49, 1, 0], vec![-97, 0, 1]], 45),
            (vec![vec![1, 0, 0], vec![0, 1, 0]], 1),
        ] {
            let orig: Vec<Vec<Int>> = basis.iter().map(|v| ints(v)).collect();
            let mut b = orig.clone();
            lll(&mut b).unwrap();
            for v in &b {
                let n2 = dot(v, v).to_i64().unwrap();
                assert!(n2 <= longest * longest, "{basis:?} -> {b:?}");
                assert!(in_lattice(v, &orig), "{v:?} not in {basis:?}");
            }
            for v in &orig {
                assert!(in_lattice(v, &b), "{v:?} not spanned by {b:?}");
            }
        }
    }

    #[test]
    fn size_reduction_keeps_the_class() {
        let b = vec![ints(&[2, 1, 1]), ints(&[0, 50, 49])];
        let mut v = ints(&[7, 300, 299]);
        size_reduce(&mut v, &b);
        let d: Vec<Int> = v
            .iter()
            .zip(&ints(&[7, 300, 299]))
            .map(|(x, y)| y - x)
            .collect();
        assert!(in_lattice(&d, &b), "{v:?}");
        assert!(dot(&v, &v).to_i64().unwrap() < 300, "{v:?}");
    }
}
