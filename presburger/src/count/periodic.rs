//! The periodic normal form of a quasi-polynomial: a few coefficient
//! tables over cyclic quotients instead of the summation's nested
//! divisions.
//!
//! Every division `D_j = floor(e_j / d_j)` of a quasi-polynomial `Q` over
//! the variables `x ∈ Z^k` has a rational *slope* `s_j ∈ Q^k` (its
//! numerator's coefficients, those of earlier divisions replaced by their
//! slopes, over `d_j`). On the *period lattice* `Λ = { v ∈ Z^k : s_j·v ∈ Z
//! for all j }` every division is affine: `D_j(x + v) = D_j(x) + s_j·v`
//! (by induction over the divisions: the numerator grows by `d_j·(s_j·v)`,
//! a multiple of `d_j`). So on the coset of `x` the division is `D_j(x) =
//! s_j·x + ψ_j`, with `ψ_j = D_j(x_φ) - s_j·x_φ` the same at every point of
//! the coset (`x_φ` its representative), and expanding every term of `Q`
//! in `x` and the `ψ_j` gives, exactly and for all integer `x`,
//! `Q(x) = Σ_μ c_μ(φ(x))·x^μ`: one coefficient table `c_μ` over the `P =
//! [Z^k : Λ]` cosets per monomial `x^μ`, each entry a polynomial in the
//! `ψ_j` of its coset (no interpolation: `P` evaluations of the divisions).
//!
//! A table is then written as a sum of functions of cyclic quotients `ℓ·x
//! mod N` (module `characters`: its Fourier components grouped by the
//! cyclic subgroup of characters they generate, found by means over fibres
//! and Möbius inversion, in rational arithmetic), each with `N` one-level
//! divisions: `g(φ) = g(0) + Σ_{r=1}^{N-1} (g(r) - g(r-1))·[φ >= r]`,
//! `[φ >= r] = floor((ℓ·x + N - r)/N) - floor(ℓ·x/N)`. When `Z^k / Λ` is
//! cyclic this is one table of `P` entries per monomial at most; when it is
//! not (two parameters in independent divisions: `Z/97 × Z/97`) the
//! tables are over the lines that the function's characters lie on. A
//! count of a box cut by one congruence of modulus `M` is `Σ_h ζ^{h·b·x}
//! Π_i Σ_{t < N_i(x)} ζ^{h·a_i·t}` (`ζ = e^{2πi/M}`, `a_i` the congruence's
//! coefficients, `N_i` the sides, `b` its parameter coefficients), whose
//! characters lie on the `2^dim` lines `b + Σ_{i ∈ I} a_i·N_i`: eight
//! tables of 97 entries where the full quotient has 9,409 cosets.
//!
//! This is `O(Σ N)` terms per monomial whatever the summation did: a
//! count whose last summation variable was split into residue classes,
//! each with `O(log P)` nested divisions of the parameters (Euclid's floor
//! sums, printed inline at every use), is about 40-100 times shorter in
//! this form for a modulus about 100. It is only a rewriting of a computed
//! answer (`count::assemble` keeps the shorter text); the periodic
//! structure itself is not a closed form of polylogarithmic size, which
//! would need Barvinok's decomposition. Tried for quotients of order at
//! most [`MAX_INDEX`] and within the operation budget; the tables'
//! decomposition is checked on every coset and the result against the input
//! at a few points outside the representatives.

use super::characters::{component, cover, Characters};
use super::coset_tables;
use super::coset_values::{degree, slopes, CosetValues};
use super::poly::Poly;
use super::qpoly::QuasiPolynomial;
use super::rat::Rat;
use crate::error::Result;
use crate::int::Int;
use std::collections::{BTreeMap, HashMap};

/// The largest index of the period lattice (number of cosets) tried.
pub(crate) const MAX_INDEX: usize = 1 << 15;

/// The largest common denominator of the slopes tried.
const MAX_DENOMINATOR: i64 = 1 << 16;

/// The largest total degree tried.
const MAX_DEGREE: u32 = 8;

/// `q` in its periodic normal form (see the module doc), if its period
/// lattice qualifies; `None` otherwise (or when the work would exceed the
/// budget left). Charged to the budget.
pub(crate) fn periodic_form(q: &QuasiPolynomial) -> Result<Option<QuasiPolynomial>> {
    let k = q.space.n_vars();
    if k == 0 || q.divs.is_empty() || q.poly.n_var != k + q.divs.len() || degree(q) > MAX_DEGREE {
        return Ok(None);
    }
    let Some((d, sigma)) = period(q) else {
        return Ok(None);
    };
    let rows: Vec<Vec<i64>> = sigma
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.mod_floor(&Int::from(d)).to_i64().expect("below d"))
                .collect()
        })
        .collect();
    let Some(chars) = Characters::generated(d, k, &rows, MAX_INDEX)? else {
        return Ok(None);
    };
    let p = chars.order();
    let values = CosetValues::new(q, sigma, d)?;
    let per_coset = values.cost();
    let reps = chars.coset_representatives()?;
    // the tables: c_μ(φ)·scale at every coset, made one subgroup of
    // characters at a time (module `coset_tables`), and compared with the
    // direct evaluation at a few cosets
    let Some(tables) = coset_tables::tables(&values, &reps, MAX_INDEX)? else {
        return Ok(None);
    };

    let mut spot: Vec<usize> = vec![0, p / 3, p / 2, (2 * p) / 3, p - 1];
    spot.dedup();
    for i in spot {
        crate::budget::tick(per_coset)?;
        if values
            .at(&reps[i])
            .iter()
            .zip(&tables)
            .any(|(v, t)| *v != t[i])
        {
            debug_assert!(false, "coset tables differ at {:?}", reps[i]);
            return Ok(None);
        }
    }
    // each non-constant table's components over cyclic quotients
    let subs = chars.cyclic_subgroups()?;
    let mut components: Vec<Vec<(usize, Vec<Int>)>> = Vec::with_capacity(tables.len());
    let mut support = std::collections::BTreeSet::new();
    for t in &tables {
        let mut c = Vec::new();
        if t.iter().any(|v| *v != t[0]) {
            for (i, s) in subs.iter().enumerate() {
                if let Some(part) = component(t, &reps, s)? {
                    support.insert(i);
                    c.push((i, part));
                }
            }
        }
        components.push(c);
    }
    let support: Vec<usize> = support.into_iter().collect();
    let (_, placed) = cover(&subs, &support, d)?;
    // per monomial: P·scale times the mean, and P·scale times a table per
    // chosen subgroup
    let pp = Int::from(p as i64);
    let mut out_terms: BTreeMap<Vec<u32>, (Rat, Vec<(usize, Vec<Rat>)>)> = BTreeMap::new();
    let whole = &pp * values.scale();
    for ((mu, t), comps) in values.monomials().iter().zip(&tables).zip(&components) {
        let total = t.iter().fold(Int::ZERO, |a, v| &a + v);
        let mut folded: BTreeMap<usize, Vec<Int>> = BTreeMap::new();
        for (c, part) in comps {
            let (h, u) = placed[c];
            let n_h = subs[h].order;
            let n_c = subs[*c].order;
            crate::budget::tick(n_h as u64)?;
            let g = folded
                .entry(h)
                .or_insert_with(|| vec![Int::ZERO; n_h as usize]);
            for (b, v) in g.iter_mut().enumerate() {
                *v = &*v + &part[(u * b as i64).rem_euclid(n_c) as usize];
            }
        }
        // the check on every coset
        crate::budget::tick((p * (1 + folded.len())) as u64)?;
        for (rep, v) in reps.iter().zip(t) {
            let mut s = total.clone();
            for (h, g) in &folded {
                s = &s + &g[subs[*h].residue(rep)];
            }
            if s != &pp * v {
                debug_assert!(false, "periodic components differ at {rep:?}");
                return Ok(None);
            }
        }
        let r = |v: &Int| Rat::new(v.clone(), whole.clone()).expect("a positive scale");
        let tabs = folded
            .into_iter()
            .map(|(h, g)| (h, g.iter().map(r).collect()))
            .collect();
        out_terms.insert(mu.clone(), (r(&total), tabs));
    }
    let out = assembled(q, &subs, out_terms)?;
    // a check off the representatives (negative coordinates and large ones)
    let pi = p as i64;
    let probes = [
        -7,
        11 * pi + 5,
        3 * pi - 1,
        -pi - 3,
        -13,
        5 * pi + 2,
        2 * pi + 1,
        17,
    ];
    let cost = 1 + 4 * per_coset;
    for i in 0..6 {
        crate::budget::tick(cost)?;
        let x: Vec<Int> = (0..k).map(|v| Int::from(probes[(i + 3 * v) % 8])).collect();
        if values.eval(&x) != out.eval(&x)? {
            debug_assert!(false, "periodic form differs at {x:?}");
            return Ok(None);
        }
    }
    Ok(Some(out))
}

/// The common denominator `d` of the divisions' slopes and the slopes
/// times `d` (`σ_j`), if `d` is at most [`MAX_DENOMINATOR`].
pub(super) fn period(q: &QuasiPolynomial) -> Option<(i64, Vec<Vec<Int>>)> {
    let slopes = slopes(q);
    let mut den = Int::ONE;
    for s in &slopes {
        for a in s {
            den = den.lcm(a.denom());
        }
    }
    let d = den.to_i64().filter(|&d| d <= MAX_DENOMINATOR)?;
    let sigma: Vec<Vec<Int>> = slopes
        .iter()
        .map(|s| {
            s.iter()
                .map(|a| {
                    let v = a.mul(&Rat::from(d));
                    debug_assert!(v.is_integer());
                    v.numer().clone()
                })
                .collect()
        })
        .collect();
    Some((d, sigma))
}

/// The most frequent of a table's differences if it is more frequent than
/// zero, else zero.
fn slope_of_table(deltas: &[Rat]) -> Rat {
    let mut count: HashMap<&Rat, usize> = HashMap::new();
    for d in deltas {
        *count.entry(d).or_default() += 1;
    }
    let zeros = count.get(&Rat::zero()).copied().unwrap_or(0);
    count
        .into_iter()
        .filter(|(_, c)| *c > zeros)
        .max_by(|(a, x), (b, y)| x.cmp(y).then_with(|| b.cmp(a)))
        .map_or_else(Rat::zero, |(d, _)| d.clone())
}

/// The quasi-polynomial `Σ_μ x^μ·(a_μ + Σ_h g_{μ,h}(ℓ_h·x mod N_h))`, each
/// table written with one-level divisions (see the module doc).
fn assembled(
    q: &QuasiPolynomial,
    subs: &[super::characters::Cyclic],
    terms: BTreeMap<Vec<u32>, (Rat, Vec<(usize, Vec<Rat>)>)>,
) -> Result<QuasiPolynomial> {
    let k = q.space.n_vars();
    // the divisions floor((ℓ_h·x + N_h - r)/N_h), r = 1 .. N_h
    let mut index: HashMap<(usize, i64), usize> = HashMap::new();
    let mut divs: Vec<(Vec<Int>, Int)> = Vec::new();
    let mut coeffs: Vec<(Vec<u32>, Option<usize>, Rat)> = Vec::new();
    let mut division = |h: usize, r: i64, divs: &mut Vec<(Vec<Int>, Int)>| -> usize {
        *index.entry((h, r)).or_insert_with(|| {
            let n = subs[h].order;
            let mut row = vec![Int::from(n - r)];
            row.extend(subs[h].form.iter().map(|&v| Int::from(v)));
            divs.push((row, Int::from(n)));
            divs.len() - 1
        })
    };
    for (mu, (a, tabs)) in terms {
        let mut constant = a;
        for (h, g) in tabs {
            let n = subs[h].order;
            constant = constant.add(&g[0]);
            let deltas: Vec<Rat> = (1..n as usize).map(|r| g[r].sub(&g[r - 1])).collect();
            // g(φ) = g(0) + λ·φ + Σ_r (Δ_r - λ)·[φ >= r] with φ = ℓ·x -
            // N·floor(ℓ·x/N): λ the most frequent difference (a sawtooth
            // table is then one division)
            let lambda = slope_of_table(&deltas);
            let mut last = Rat::zero();
            if !lambda.is_zero() {
                for (v, &l) in subs[h].form.iter().enumerate() {
                    let mut e = mu.clone();
                    e[v] += 1;
                    coeffs.push((e, None, lambda.mul(&Rat::from(l))));
                }
                last = lambda.mul(&Rat::from(n)).neg();
            }
            for (r, delta) in (1..n).zip(&deltas) {
                let delta = delta.sub(&lambda);
                if !delta.is_zero() {
                    last = last.sub(&delta);
                    coeffs.push((mu.clone(), Some(division(h, r, &mut divs)), delta));
                }
            }
            if !last.is_zero() {
                coeffs.push((mu.clone(), Some(division(h, n, &mut divs)), last));
            }
        }
        coeffs.push((mu, None, constant));
    }
    let width = k + divs.len();
    for (row, _) in divs.iter_mut() {
        row.resize(1 + width, Int::ZERO);
    }
    let mut poly = Poly::zero(width);
    crate::budget::tick(coeffs.len() as u64)?;
    for (mu, j, c) in coeffs {
        if c.is_zero() {
            continue;
        }
        let mut e = mu;
        e.resize(width, 0);
        if let Some(j) = j {
            e[k + j] += 1;
        }
        let v = poly.terms.entry(e).or_insert_with(Rat::zero);
        *v = v.add(&c);
    }
    poly.terms.retain(|_, c| !c.is_zero());
    Ok(QuasiPolynomial {
        space: q.space.clone(),
        divs,
        poly,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Space;

    fn qp(
        space: Space,
        divs: Vec<(Vec<i64>, i64)>,
        terms: Vec<(Vec<u32>, Rat)>,
    ) -> QuasiPolynomial {
        let n = space.n_vars() + divs.len();
        let divs = divs
            .into_iter()
            .map(|(mut r, d)| {
                r.resize(1 + n, 0);
                (r.into_iter().map(Int::from).collect(), Int::from(d))
            })
            .collect();
        let mut poly = Poly::zero(n);
        for (e, c) in terms {
            poly.terms.insert(e, c);
        }
        QuasiPolynomial { space, divs, poly }
    }

    #[test]
    fn periodic_forms_agree_with_nested_divisions() {
        let one = Space::params_only(vec!["n".to_string()]);
        let two = Space::params_only(vec!["n".to_string(), "m".to_string()]);
        let cases = vec![
            // 3 n^2 floor((16 + 58n)/97) - 5/6 floor((16 + 58n + 21 floor((16 + 58n)/97))/59)
            qp(
                one.clone(),
                vec![(vec![16, 58], 97), (vec![16, 58, 21], 59)],
                vec![
                    (vec![2, 1, 0], Rat::from(3)),
                    (
                        vec![0, 0, 1],
                        Rat::new(Int::from(-5), Int::from(6)).unwrap(),
                    ),
                ],
            ),
            qp(
                one.clone(),
                vec![(vec![0, 1], 2), (vec![1, 2], 3)],
                vec![(vec![1, 1, 1], Rat::one()), (vec![0, 0, 2], Rat::from(7))],
            ),
            // two parameters along one form: floor((n + 3m)/7), nested
            qp(
                two.clone(),
                vec![(vec![2, 1, 3], 7), (vec![-1, 2, 6, 1], 15)],
                vec![
                    (vec![1, 1, 1, 0], Rat::one()),
                    (vec![0, 0, 0, 2], Rat::from(-2)),
                    (vec![2, 0, 0, 1], Rat::from(5)),
                ],
            ),
            // two independent forms with a cyclic quotient: floor(n/2), floor(m/3)
            qp(
                two.clone(),
                vec![(vec![0, 1, 0], 2), (vec![1, 0, 1], 3)],
                vec![
                    (vec![0, 1, 1, 1], Rat::one()),
                    (vec![1, 0, 0, 1], Rat::from(3)),
                ],
            ),
        ];
        for q in cases {
            let f = periodic_form(&q).unwrap().expect("a periodic form");
            let nv = q.space.n_vars();
            for a in -30i64..30 {
                for b in -9i64..9 {
                    let x: Vec<Int> = [a, b * 7 + a % 5][..nv]
                        .iter()
                        .map(|&v| Int::from(v))
                        .collect();
                    assert_eq!(
                        q.eval(&x).unwrap(),
                        f.eval(&x).unwrap(),
                        "{q} vs {f} at {a}, {b}"
                    );
                }
            }
        }
        // quotients that are not cyclic (of orders 4, 120, 343 with two
        // parameters in independent nested divisions, and 45 over three
        // variables)
        let three = Space::params_only(vec!["n".to_string(), "m".to_string(), "p".to_string()]);
        let cases = vec![
            qp(
                two.clone(),
                vec![(vec![0, 1, 0], 2), (vec![0, 0, 1], 2)],
                vec![(vec![0, 0, 1, 1], Rat::one())],
            ),
            qp(
                two.clone(),
                vec![
                    (vec![1, 1, 0], 6),
                    (vec![0, 0, 3], 4),
                    (vec![2, 1, 1, 1, 1], 5),
                ],
                vec![
                    (vec![1, 0, 1, 0, 0], Rat::one()),
                    (vec![0, 0, 1, 1, 1], Rat::from(-3)),
                    (
                        vec![0, 1, 0, 0, 2],
                        Rat::new(Int::from(5), Int::from(2)).unwrap(),
                    ),
                ],
            ),
            // floor((3 + 2n + 5m)/7) and floor((m + floor(n/7))/7)
            qp(
                two.clone(),
                vec![
                    (vec![3, 2, 5], 7),
                    (vec![0, 1, 0], 7),
                    (vec![0, 0, 1, 0, 1], 7),
                ],
                vec![
                    (vec![1, 1, 1, 0, 0], Rat::one()),
                    (vec![0, 0, 0, 1, 1], Rat::from(2)),
                    (vec![0, 0, 1, 0, 1], Rat::from(-1)),
                ],
            ),
            qp(
                three,
                vec![
                    (vec![1, 1, 2, 0], 3),
                    (vec![0, 0, 1, 1], 3),
                    (vec![4, 2, 0, 3], 5),
                ],
                vec![
                    (vec![1, 0, 0, 1, 0, 1], Rat::one()),
                    (vec![0, 1, 1, 0, 1, 0], Rat::from(7)),
                    (vec![0, 0, 1, 1, 1, 1], Rat::from(-2)),
                ],
            ),
        ];
        for q in cases {
            let f = periodic_form(&q).unwrap().expect("a periodic form");
            let nv = q.space.n_vars();
            for a in -15i64..15 {
                for b in -6i64..6 {
                    for c in -2i64..2 {
                        let x: Vec<Int> = [a, b * 5 + a % 3, 3 * c + b][..nv]
                            .iter()
                            .map(|&v| Int::from(v))
                            .collect();
                        assert_eq!(
                            q.eval(&x).unwrap(),
                            f.eval(&x).unwrap(),
                            "{q} vs {f} at {x:?}"
                        );
                    }
                }
            }
        }
    }

    /// `n·floor((5 + n + 3m)/97) + m·floor(n/97) + 3·floor((7 - n + 2m)/97)`:
    /// the quotient is `Z/97 × Z/97` (9,409 cosets), but each coefficient
    /// is a function of one line: three tables of 97 entries.
    #[test]
    fn lines_instead_of_the_whole_quotient() {
        let two = Space::params_only(vec!["n".to_string(), "m".to_string()]);
        let q = qp(
            two.clone(),
            vec![
                (vec![0, 1, 0], 97),
                (vec![5, 1, 3], 97),
                (vec![7, -1, 2], 97),
            ],
            vec![
                (vec![1, 0, 0, 1, 0], Rat::one()),
                (vec![0, 1, 1, 0, 0], Rat::one()),
                (vec![0, 0, 0, 0, 1], Rat::from(3)),
            ],
        );
        let f = periodic_form(&q).unwrap().expect("a periodic form");
        assert!(f.divs.len() <= 3 * 97, "{} divisions: {f}", f.divs.len());
        assert!(
            f.poly.terms.len() <= 3 * 97 + 6,
            "{} terms: {f}",
            f.poly.terms.len()
        );
        for a in -300i64..300 {
            for b in [-200i64, -97, -1, 0, 1, 5, 96, 97, 300] {
                let x = [Int::from(a), Int::from(b + a % 7)];
                assert_eq!(q.eval(&x).unwrap(), f.eval(&x).unwrap(), "at {a}, {b}");
            }
        }
    }
}
