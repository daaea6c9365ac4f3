//! Property tests of the linear algebra against independent checks:
//! products recomputed, determinants by Bareiss, kernels by brute force.

use super::Matrix;
use crate::int::Int;
use proptest::prelude::*;

fn arb_matrix(max: usize, range: i64) -> impl Strategy<Value = Matrix> {
    (0..=max, 0..=max).prop_flat_map(move |(m, n)| {
        proptest::collection::vec(-range..=range, m * n)
            .prop_map(move |v| Matrix::from_i64(m, n, &v))
    })
}

fn is_unimodular(u: &Matrix) -> bool {
    u.n_rows() == u.n_cols() && u.det().abs().is_one()
}

/// Rank over the rationals by plain fraction-free elimination (independent
/// of the Hermite form).
fn rank_bareiss(a: &Matrix) -> usize {
    let mut a = a.clone();
    let (m, n) = (a.n_rows(), a.n_cols());
    let mut r = 0;
    for c in 0..n {
        let Some(p) = (r..m).find(|&i| !a[(i, c)].is_zero()) else {
            continue;
        };
        a.swap_rows(r, p);
        for i in r + 1..m {
            let (x, y) = (a[(r, c)].clone(), -&a[(i, c)]);
            for j in 0..n {
                a[(i, j)] = Int::combine(&x, &a[(i, j)], &y, &a[(r, j)]);
            }
        }
        r += 1;
    }
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn hermite_is_a_normal_form(a in arb_matrix(4, 6)) {
        let h = a.hermite();
        prop_assert_eq!(&a.mul(&h.u), &h.h);
        prop_assert!(is_unimodular(&h.u));
        prop_assert_eq!(h.rank(), rank_bareiss(&a));
        let mut last = None;
        for (j, &p) in h.pivot_rows.iter().enumerate() {
            prop_assert!(last.is_none_or(|l| l < p));
            last = Some(p);
            prop_assert!(h.h[(p, j)].is_pos());
            for i in 0..p {
                prop_assert!(h.h[(i, j)].is_zero());
            }
            for k in 0..j {
                prop_assert!(!h.h[(p, k)].is_neg() && h.h[(p, k)] < h.h[(p, j)]);
            }
        }
        for j in h.rank()..a.n_cols() {
            prop_assert!(h.h.col(j).iter().all(Int::is_zero));
        }
        // the unnormalized form has the same pivots and kernel columns
        let c = a.column_echelon();
        prop_assert_eq!(&a.mul(&c.u), &c.h);
        prop_assert!(is_unimodular(&c.u));
        prop_assert_eq!(&c.pivot_rows, &h.pivot_rows);
        for j in c.rank()..a.n_cols() {
            prop_assert!(c.h.col(j).iter().all(Int::is_zero));
        }
        // unique: the form of A·W for another unimodular W is the same
        if a.n_cols() >= 2 {
            let mut w = Matrix::identity(a.n_cols());
            w.add_col_multiple(0, &Int::from(3), 1);
            w.swap_cols(0, a.n_cols() - 1);
            prop_assert_eq!(a.mul(&w).hermite().h, h.h);
        }
    }

    #[test]
    fn echelon_is_row_form(a in arb_matrix(4, 6)) {
        let e = a.echelon();
        prop_assert_eq!(&e.v.mul(&a), &e.e);
        prop_assert!(is_unimodular(&e.v));
        prop_assert_eq!(e.rank(), rank_bareiss(&a));
        prop_assert_eq!(a.rank(), e.rank());
        for (i, &c) in e.pivot_cols.iter().enumerate() {
            prop_assert!(e.e[(i, c)].is_pos());
            prop_assert!(e.e.row(i)[..c].iter().all(Int::is_zero));
            for k in i + 1..a.n_rows() {
                prop_assert!(e.e[(k, c)].is_zero());
            }
        }
        for i in e.rank()..a.n_rows() {
            prop_assert!(e.e.row(i).iter().all(Int::is_zero));
        }
    }

    #[test]
    fn kernel_is_a_lattice_basis(a in arb_matrix(3, 4)) {
        let n = a.n_cols();
        let k = a.kernel();
        prop_assert_eq!(k.n_cols(), n);
        prop_assert_eq!(k.n_rows() + a.rank(), n);
        for v in k.rows() {
            prop_assert!(a.mul_vec(v).iter().all(Int::is_zero));
        }
        // every integer solution in a small box is an integer combination of
        // the basis: the basis has full rank and the solution joins the
        // lattice, i.e. [K; x] has the same Hermite form as K
        if n <= 3 {
            let hk = k.transpose().hermite().h;
            let mut x = vec![Int::ZERO; n];
            let mut idx = vec![-2i64; n];
            loop {
                for (xi, &v) in x.iter_mut().zip(&idx) { *xi = Int::from(v); }
                if a.mul_vec(&x).iter().all(Int::is_zero) {
                    let mut kx = k.clone();
                    kx.push_row(&x);
                    let hx = kx.transpose().hermite().h;
                    for i in 0..n {
                        for j in 0..k.n_rows() {
                            prop_assert_eq!(&hx[(i, j)], &hk[(i, j)]);
                        }
                        prop_assert!(hx[(i, k.n_rows())].is_zero());
                    }
                }
                let mut p = 0;
                while p < n && idx[p] == 2 { idx[p] = -2; p += 1; }
                if p == n { break; }
                idx[p] += 1;
            }
        }
    }

    #[test]
    fn smith_is_a_normal_form(a in arb_matrix(4, 8)) {
        let s = a.smith();
        prop_assert_eq!(&s.u.mul(&a).mul(&s.v), &s.d);
        prop_assert!(is_unimodular(&s.u));
        prop_assert!(is_unimodular(&s.v));
        for i in 0..a.n_rows() {
            for j in 0..a.n_cols() {
                if i != j { prop_assert!(s.d[(i, j)].is_zero()); }
            }
        }
        let diag = s.diagonal();
        prop_assert_eq!(diag.iter().filter(|d| !d.is_zero()).count(), rank_bareiss(&a));
        for w in diag.windows(2) {
            prop_assert!(!w[0].is_neg());
            prop_assert!(w[1].is_divisible_by(&w[0]));
        }
        if a.n_rows() == a.n_cols() {
            let prod = diag.iter().fold(Int::ONE, |p, d| &p * d);
            prop_assert_eq!(prod, a.det().abs());
        }
        // the gcd of all entries is the first invariant factor
        let g = crate::int::gcd_slice(a.as_flat());
        prop_assert_eq!(diag.first().cloned().unwrap_or(Int::ZERO), if diag.is_empty() { Int::ZERO } else { g });
    }

    #[test]
    fn det_matches_cofactor_expansion(a in arb_matrix(4, 9)) {
        fn cofactor(a: &Matrix) -> Int {
            let n = a.n_rows();
            if n == 0 { return Int::ONE; }
            let mut s = Int::ZERO;
            for j in 0..n {
                let mut minor = Matrix::with_cols(n - 1);
                for i in 1..n {
                    let r: Vec<Int> = (0..n).filter(|&k| k != j).map(|k| a[(i, k)].clone()).collect();
                    minor.push_row(&r);
                }
                let t = &a[(0, j)] * &cofactor(&minor);
                s = if j % 2 == 0 { &s + &t } else { &s - &t };
            }
            s
        }
        let n = a.n_rows().min(a.n_cols());
        let sq = Matrix::from_rows(n, &(0..n).map(|i| a.row(i)[..n].to_vec()).collect::<Vec<_>>());
        prop_assert_eq!(sq.det(), cofactor(&sq));
    }
}

/// An entry for [`substitute_pivot`](super::substitute_pivot): mostly small,
/// sometimes near the `i64` limit (the products then leave 64 bits).
fn arb_entry() -> impl Strategy<Value = Int> {
    prop_oneof![
        4 => (-9i64..=9).prop_map(Int::from),
        1 => (i64::MAX / 2..=i64::MAX).prop_map(Int::from),
    ]
}

/// `[d, entries…]` with a positive denominator `d`.
fn arb_fraction_row(len: usize) -> impl Strategy<Value = Vec<Int>> {
    (1i64..=12, proptest::collection::vec(arb_entry(), len)).prop_map(|(d, mut v)| {
        v.insert(0, Int::from(d));
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The pivot update with its shortcuts (common factor of the multipliers
    /// divided out first, unit multiplier, skipped zeros) is the plain
    /// formula `(dn·row + m·piv) / (d·dn)`, normalized.
    #[test]
    fn substitute_pivot_is_the_plain_update(
        (row, piv) in (1usize..6).prop_flat_map(|n| (arb_fraction_row(n), arb_fraction_row(n))),
        m in prop_oneof![(-12i64..=12).prop_map(Int::from), arb_entry()],
    ) {
        let dn = &piv[0];
        let mut plain: Vec<Int> = std::iter::once(&row[0] * dn)
            .chain(row[1..].iter().zip(&piv[1..]).map(|(x, y)| Int::combine(dn, x, &m, y)))
            .collect();
        super::normalize(&mut plain);
        let mut fast = row.clone();
        super::substitute_pivot(&mut fast, &piv, &m);
        prop_assert_eq!(fast, plain);
    }
}

#[test]
fn storage_operations() {
    let mut m = Matrix::from_i64(3, 2, &[1, 2, 3, 4, 5, 6]);
    m.remove_row(1);
    assert_eq!(m.to_string(), "[[1, 2], [5, 6]]");
    m.remove_col(0);
    assert_eq!(m.to_rows(), vec![vec![Int::from(2)], vec![Int::from(6)]]);
    m.swap_remove_row(0);
    assert_eq!(m.to_string(), "[[6]]");
    let z = m.push_zero_row();
    z[0] = Int::from(9);
    assert_eq!(m.col(0), vec![Int::from(6), Int::from(9)]);
    assert_eq!(format!("{m:?}"), "Matrix 2x1 [[6], [9]]");
    let e = Matrix::with_cols(3);
    assert_eq!(e.kernel(), Matrix::identity(3));
    assert_eq!(e.smith().diagonal(), vec![]);
    // big entries go through the same code
    let big = Int::from(i64::MAX);
    let b = Matrix::from_flat(2, 2, vec![big.clone(), big.clone(), Int::ONE, Int::from(2)]);
    let s = b.smith();
    assert_eq!(s.u.mul(&b).mul(&s.v), s.d);
    assert_eq!(s.diagonal()[1], big);
}
