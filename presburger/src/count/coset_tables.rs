//! The coefficient tables on every coset at once, one subgroup of
//! characters at a time (for module `periodic`; [`CosetValues::at`] at
//! each representative is the simple way, kept as this module's oracle).
//!
//! A division `D_j` together with the divisions in its numerator has
//! slopes generating a subgroup `H_j` of the characters `S / Z^k`, and its
//! periodic part `π_j = d·D_j(x) - σ_j·x` is constant on the cosets of
//! the coarser lattice `Λ_j = { v : s·v ∈ Z, s ∈ H_j } ⊇ Λ` (the module
//! doc of `periodic`, by induction over those divisions only): a table of
//! `|H_j|` values, not `P`. A `π`-monomial is likewise a function on the
//! cosets of the subgroup its divisions' subgroups generate. A count's
//! divisions lie on a few lines (cyclic subgroups of order `d`), so most
//! of the work is done on `d` cosets instead of `P = d^2` (the mod-117
//! family: 2,457 divisions on 13,689 cosets), and only the sums of the
//! monomials of one subgroup are spread over the `P` cosets.
//!
//! A subgroup is named by the Hermite normal form of the lattice its
//! vectors `σ` span with `d·Z^k`; the coset of `x` under it is the vector
//! of `g·x mod d` over that form's rows `g`. Sums of monomials are made in
//! 128-bit integers with checked operations, in [`Int`] when one
//! overflows.

use super::characters::Characters;
use super::coset_values::{CosetValues, PiMonomial};
use crate::error::Result;
use crate::int::Int;
use std::collections::HashMap;

/// The Hermite normal form (upper triangular, positive pivots, entries
/// right of a pivot reduced modulo the pivot below them) of the lattice
/// spanned by `rows` and `d·Z^k`.
fn hermite(rows: &[Vec<i64>], d: i64, k: usize) -> Vec<Vec<i64>> {
    let mut rest: Vec<Vec<i64>> = rows
        .iter()
        .map(|r| r.iter().map(|v| v.rem_euclid(d)).collect())
        .collect();
    let mut out: Vec<Vec<i64>> = Vec::with_capacity(k);
    for c in 0..k {
        let mut piv = vec![0i64; k];
        piv[c] = d;
        for r in rest.iter_mut() {
            // Euclid on column c between the pivot row and r (both
            // entries stay in [0, d]; later columns reduced modulo d)
            while r[c] != 0 {
                let q = piv[c] / r[c];
                for t in c..k {
                    piv[t] -= q * r[t];
                }
                for t in c + 1..k {
                    piv[t] = piv[t].rem_euclid(d);
                }
                std::mem::swap(&mut piv, r);
            }
        }
        out.push(piv);
    }
    for c in 0..k {
        for t in c + 1..k {
            let q = out[c][t].div_euclid(out[t][t]);
            if q != 0 {
                let row = out[t].clone();
                for (a, b) in out[c][t..].iter_mut().zip(&row[t..]) {
                    *a -= q * b;
                }
            }
        }
    }
    out
}

/// A subgroup of the characters with a representative of every coset of
/// its lattice.
struct Group {
    /// The rows of its Hermite form modulo `d`, zero rows dropped.
    gens: Vec<Vec<i64>>,
    reps: Vec<Vec<i64>>,
    index: HashMap<Vec<i64>, usize>,
}

impl Group {
    fn key(&self, x: &[i64], d: i64) -> Vec<i64> {
        self.gens
            .iter()
            .map(|g| {
                g.iter()
                    .zip(x)
                    .map(|(a, b)| a * b)
                    .sum::<i64>()
                    .rem_euclid(d)
            })
            .collect()
    }
}

/// The subgroups met so far, by Hermite form.
struct Groups {
    d: i64,
    k: usize,
    forms: Vec<Vec<Vec<i64>>>,
    ids: HashMap<Vec<Vec<i64>>, usize>,
    groups: Vec<Group>,
    /// `(g, h)` with `h ≤ g`: the coset of `h` of every representative of `g`.
    projections: HashMap<(usize, usize), Vec<usize>>,
}

impl Groups {
    /// The subgroup spanned by `rows` (`None` if it has more than `max`
    /// elements).
    fn spanned(&mut self, rows: &[Vec<i64>], max: usize) -> Result<Option<usize>> {
        let form = hermite(rows, self.d, self.k);
        if let Some(&id) = self.ids.get(&form) {
            return Ok(Some(id));
        }
        let gens: Vec<Vec<i64>> = form
            .iter()
            .map(|r| r.iter().map(|v| v.rem_euclid(self.d)).collect::<Vec<_>>())
            .filter(|r| r.iter().any(|&v| v != 0))
            .collect();
        let Some(chars) = Characters::generated(self.d, self.k, &gens, max)? else {
            return Ok(None);
        };
        let reps = chars.coset_representatives()?;
        let mut group = Group {
            gens,
            reps: Vec::new(),
            index: HashMap::with_capacity(reps.len()),
        };
        for (i, x) in reps.iter().enumerate() {
            group.index.insert(group.key(x, self.d), i);
        }
        if group.index.len() != reps.len() {
            debug_assert!(false, "two representatives of one coset");
            return Ok(None);
        }
        group.reps = reps;
        let id = self.groups.len();
        self.groups.push(group);
        self.ids.insert(form.clone(), id);
        self.forms.push(form);
        Ok(Some(id))
    }

    /// The coset of `h` of every point.
    fn cosets_of(&self, points: &[Vec<i64>], h: usize) -> Result<Option<Vec<usize>>> {
        let g = &self.groups[h];
        crate::budget::tick(points.len() as u64)?;
        Ok(points
            .iter()
            .map(|x| g.index.get(&g.key(x, self.d)).copied())
            .collect())
    }

    fn projection(&mut self, g: usize, h: usize) -> Result<Option<&[usize]>> {
        if !self.projections.contains_key(&(g, h)) {
            let Some(p) = self.cosets_of(&self.groups[g].reps, h)? else {
                debug_assert!(false, "a coset without a representative");
                return Ok(None);
            };
            self.projections.insert((g, h), p);
        }
        Ok(Some(&self.projections[&(g, h)]))
    }
}

fn dot(a: &[Int], x: &[i64]) -> Int {
    let mut s = Int::ZERO;
    for (a, b) in a.iter().zip(x) {
        if *b != 0 {
            s.add_mul(a, &Int::from(*b));
        }
    }
    s
}

/// `c_μ·scale` for every monomial (outer index, the order of
/// [`CosetValues::monomials`]) at every representative of `reps` (the
/// cosets of the whole period lattice, of at most `max` elements); `None`
/// when a subgroup is too large or the work would exceed the budget left.
/// Charged to the budget.
pub(crate) fn tables(
    values: &CosetValues,
    reps: &[Vec<i64>],
    max: usize,
) -> Result<Option<Vec<Vec<Int>>>> {
    let d = values.d.to_i64().expect("a small common denominator");
    let k = reps.first().map_or(0, Vec::len);
    let sigma_rows: Vec<Vec<i64>> = values
        .sigma
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.mod_floor(&values.d).to_i64().expect("below d"))
                .collect()
        })
        .collect();
    let mut groups = Groups {
        d,
        k,
        forms: Vec::new(),
        ids: HashMap::new(),
        groups: Vec::new(),
        projections: HashMap::new(),
    };
    // every division's subgroup: its own slope and its inner divisions'
    let divs = &values.compiled.divs;
    let mut of_div: Vec<usize> = Vec::with_capacity(divs.len());
    for (j, (_, row, _)) in divs.iter().enumerate() {
        let mut rows = vec![sigma_rows[j].clone()];
        for (v, _) in row {
            if *v >= k {
                rows.extend(groups.forms[of_div[*v - k]].iter().cloned());
            }
        }
        let Some(g) = groups.spanned(&rows, max)? else {
            return Ok(None);
        };
        of_div.push(g);
    }
    // the monomials by the set of their divisions' subgroups; a set of
    // several is split at one of them, `h`: the monomial is `R·F`, `F` its
    // factor of the divisions of subgroup `h` and `R` the rest, and the
    // sums of the `F` with a common `R` are made on `h`'s cosets (the rest
    // are few: a count's products of divisions on two lines have one side
    // of a handful of divisions)
    let mut by_ids: HashMap<Vec<usize>, Vec<(usize, usize)>> = HashMap::new();
    for (p, part) in values.parts.iter().enumerate() {
        for (t, (m, _)) in part.terms.iter().enumerate() {
            let mut ids: Vec<usize> = m.iter().map(|(j, _)| of_div[*j]).collect();
            ids.sort_unstable();
            ids.dedup();
            by_ids.entry(ids).or_default().push((p, t));
        }
    }
    let split = |m: &PiMonomial, h: usize| -> (PiMonomial, PiMonomial) {
        m.iter().partition(|(j, _)| of_div[*j] != h)
    };
    let sizes: Vec<u64> = groups.groups.iter().map(|g| g.reps.len() as u64).collect();
    let size = |g: usize| sizes[g];
    let whole = reps.len() as u64;
    let mut plans: Vec<(usize, Vec<(PiMonomial, Vec<(usize, usize)>)>)> = Vec::new();
    let mut keys: Vec<&Vec<usize>> = by_ids.keys().collect();
    keys.sort_unstable();
    let mut monomial_work = 0u64;
    for ids in keys {
        let terms = &by_ids[ids];
        let mut best: Option<(u64, usize, Vec<(PiMonomial, Vec<(usize, usize)>)>)> = None;
        for &h in ids {
            let mut rests: HashMap<PiMonomial, Vec<(usize, usize)>> = HashMap::new();
            for &(p, t) in terms {
                let (r, _) = split(&values.parts[p].terms[t].0, h);
                rests.entry(r).or_default().push((p, t));
            }
            let spread: u64 = rests
                .iter()
                .map(|(r, ts)| {
                    let mut parts: Vec<usize> = ts.iter().map(|&(p, _)| p).collect();
                    parts.sort_unstable();
                    parts.dedup();
                    whole * (2 + r.len() as u64 + 2 * parts.len() as u64)
                })
                .sum();
            let cost = size(h) * 2 * terms.len() as u64 + spread;
            if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                let mut list: Vec<(PiMonomial, Vec<(usize, usize)>)> = rests.into_iter().collect();
                list.sort();
                best = Some((cost, h, list));
            }
        }
        let (cost, h, list) = best.expect("a monomial with a division");
        monomial_work += cost;
        plans.push((h, list));
    }
    // the work, checked against the budget before it is done
    let division_work: u64 = divs
        .iter()
        .zip(&of_div)
        .map(|((_, row, _), &g)| size(g) * (2 + row.len() as u64))
        .sum();
    let work = division_work + monomial_work;
    if crate::budget::remaining().is_some_and(|r| r < work) {
        return Ok(None);
    }
    // the divisions' periodic parts, each over its own subgroup's cosets
    let mut pi: Vec<Vec<Int>> = Vec::with_capacity(divs.len());
    for (j, (c, row, den)) in divs.iter().enumerate() {
        let g = of_div[j];
        crate::budget::tick(size(g) * (2 + row.len() as u64))?;
        let mut inner: Vec<(usize, &Int, Vec<usize>)> = Vec::new();
        for (v, a) in row {
            if *v >= k {
                let Some(p) = groups.projection(g, of_div[*v - k])? else {
                    return Ok(None);
                };
                inner.push((*v - k, a, p.to_vec()));
            }
        }
        let mut table = Vec::with_capacity(size(g) as usize);
        for (r, x) in groups.groups[g].reps.iter().enumerate() {
            let mut num = c.clone();
            for (v, a) in row {
                if *v < k {
                    num.add_mul(a, &Int::from(x[*v]));
                }
            }
            for (i, a, p) in &inner {
                // D_i(x) = (π_i + σ_i·x)/d, exactly
                let di = (&pi[*i][p[r]] + &dot(&values.sigma[*i], x)).div_floor(&values.d);
                num.add_mul(a, &di);
            }
            let dj = num.div_floor(den);
            table.push(&(&values.d * &dj) - &dot(&values.sigma[j], x));
        }
        pi.push(table);
    }
    // every plan: the sums of the factors on `h`'s cosets per rest and
    // part, spread over the whole lattice's cosets times the rest's value
    let mut out: Vec<Vec<Int>> = values
        .parts
        .iter()
        .map(|p| vec![p.fixed.clone(); reps.len()])
        .collect();
    let mut on_whole: HashMap<usize, Vec<usize>> = HashMap::new();
    for (h, list) in plans {
        for (rest, terms) in list {
            crate::budget::tick(size(h) * 2 * terms.len() as u64)?;
            let items: Vec<(usize, usize, PiMonomial)> = terms
                .iter()
                .map(|&(p, t)| (p, t, split(&values.parts[p].terms[t].0, h).1))
                .collect();
            let mut used: Vec<usize> = items
                .iter()
                .flat_map(|(_, _, m)| m.iter().map(|(j, _)| *j))
                .chain(rest.iter().map(|(j, _)| *j))
                .collect();
            used.sort_unstable();
            used.dedup();
            for &g in used.iter().map(|j| &of_div[*j]).chain([&h]) {
                if !on_whole.contains_key(&g) {
                    let Some(c) = groups.cosets_of(reps, g)? else {
                        debug_assert!(false, "a coset without a representative");
                        return Ok(None);
                    };
                    on_whole.insert(g, c);
                }
            }
            let mut at: HashMap<usize, Vec<usize>> = HashMap::new();
            for (_, _, m) in &items {
                for (j, _) in m {
                    if !at.contains_key(j) {
                        let Some(p) = groups.projection(h, of_div[*j])? else {
                            return Ok(None);
                        };
                        at.insert(*j, p.to_vec());
                    }
                }
            }
            let mut parts: Vec<usize> = terms.iter().map(|&(p, _)| p).collect();
            parts.sort_unstable();
            parts.dedup();
            let n = size(h) as usize;
            let sums = sums_small(values, &pi, &at, &items, &parts, n)
                .unwrap_or_else(|| sums_big(values, &pi, &at, &items, &parts, n));
            crate::budget::tick(whole * (2 + rest.len() as u64 + 2 * parts.len() as u64))?;
            let spread = &on_whole[&h];
            for (phi, &r) in spread.iter().enumerate() {
                let mut factor = Int::ONE;
                for (j, e) in &rest {
                    let x = &pi[*j][on_whole[&of_div[*j]][phi]];
                    for _ in 0..*e {
                        factor = &factor * x;
                    }
                }
                for (p, s) in parts.iter().zip(&sums) {
                    out[*p][phi].add_mul(&factor, &s[r]);
                }
            }
        }
    }
    Ok(Some(out))
}

/// `Σ w·π^ν` over `items` (part, term, the factor `π^ν` of the term kept)
/// at every coset (`n`) of their subgroup, per part in `parts`, in 128-bit
/// integers (`None` on an overflow or a large weight).
fn sums_small(
    values: &CosetValues,
    pi: &[Vec<Int>],
    at: &HashMap<usize, Vec<usize>>,
    items: &[(usize, usize, PiMonomial)],
    parts: &[usize],
    n: usize,
) -> Option<Vec<Vec<Int>>> {
    let mut acc = vec![vec![0i128; n]; parts.len()];
    let mut small_pi: HashMap<usize, Vec<i128>> = HashMap::with_capacity(at.len());
    for (&j, p) in at {
        let v: Option<Vec<i128>> = p
            .iter()
            .map(|&r| pi[j][r].to_i64().map(i128::from))
            .collect();
        small_pi.insert(j, v?);
    }
    for (p, t, m) in items {
        let w = values.parts[*p].small.as_ref()?[*t];
        let slot = parts.binary_search(p).ok()?;
        for (r, a) in acc[slot].iter_mut().enumerate() {
            let mut v = w;
            for (j, e) in m {
                let x = small_pi[j][r];
                for _ in 0..*e {
                    v = v.checked_mul(x)?;
                }
            }
            *a = a.checked_add(v)?;
        }
    }
    Some(
        acc.into_iter()
            .map(|s| s.into_iter().map(Int::from).collect())
            .collect(),
    )
}

/// [`sums_small`] in [`Int`].
fn sums_big(
    values: &CosetValues,
    pi: &[Vec<Int>],
    at: &HashMap<usize, Vec<usize>>,
    items: &[(usize, usize, PiMonomial)],
    parts: &[usize],
    n: usize,
) -> Vec<Vec<Int>> {
    let mut acc = vec![vec![Int::ZERO; n]; parts.len()];
    for (p, t, m) in items {
        let w = &values.parts[*p].terms[*t].1;
        let slot = parts.binary_search(p).expect("a listed part");
        for (r, a) in acc[slot].iter_mut().enumerate() {
            let mut v = w.clone();
            for (j, e) in m {
                let x = &pi[*j][at[j][r]];
                for _ in 0..*e {
                    v = &v * x;
                }
            }
            *a = &*a + &v;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::super::periodic::period;
    use super::super::poly::Poly;
    use super::super::qpoly::QuasiPolynomial;
    use super::super::rat::Rat;
    use super::*;
    use crate::space::Space;
    use proptest::prelude::*;

    /// A quasi-polynomial over `k` parameters with the given division rows
    /// (constant, then coefficients of the values: parameters, earlier
    /// divisions) and terms.
    fn qp(k: usize, divs: &[(Vec<i64>, i64)], terms: &[(Vec<u32>, i64, i64)]) -> QuasiPolynomial {
        let names: Vec<String> = (0..k).map(|v| format!("p{v}")).collect();
        let n = k + divs.len();
        let divs = divs
            .iter()
            .map(|(r, d)| {
                let mut r = r.clone();
                r.resize(1 + n, 0);
                (r.into_iter().map(Int::from).collect(), Int::from(*d))
            })
            .collect();
        let mut poly = Poly::zero(n);
        for (e, a, b) in terms {
            let mut e = e.clone();
            e.resize(n, 0);
            let c = Rat::new(Int::from(*a), Int::from(*b)).expect("a positive denominator");
            let v = poly.terms.entry(e).or_insert_with(Rat::zero);
            *v = v.add(&c);
        }
        poly.terms.retain(|_, c| !c.is_zero());
        QuasiPolynomial {
            space: Space::params_only(names),
            divs,
            poly,
        }
    }

    /// The tables made subgroup by subgroup equal the direct evaluation
    /// at every coset (`None` if the quotient is too large to try).
    fn agree(q: &QuasiPolynomial) -> Option<usize> {
        let k = q.space.n_vars();
        let (d, sigma) = period(q)?;
        let rows: Vec<Vec<i64>> = sigma
            .iter()
            .map(|r| {
                r.iter()
                    .map(|v| v.mod_floor(&Int::from(d)).to_i64().unwrap())
                    .collect()
            })
            .collect();
        let chars = Characters::generated(d, k, &rows, 1 << 15).unwrap()?;
        let reps = chars.coset_representatives().unwrap();
        let values = CosetValues::new(q, sigma, d).unwrap();
        let t = tables(&values, &reps, 1 << 15).unwrap().expect("tables");
        for (i, x) in reps.iter().enumerate() {
            let direct = values.at(x);
            for (m, v) in direct.iter().enumerate() {
                assert_eq!(&t[m][i], v, "{q}: monomial {m} at {x:?}");
            }
        }
        Some(reps.len())
    }

    #[test]
    fn hermite_forms_name_subgroups() {
        // (2, 4) and (1, 2) span the same subgroup modulo 6 with (3, 0)
        let a = hermite(&[vec![1, 2]], 6, 2);
        let b = hermite(&[vec![2, 4], vec![3, 0], vec![5, 4]], 6, 2);
        assert_eq!(a, vec![vec![1, 2], vec![0, 6]]);
        assert_eq!(a, b);
        assert_eq!(hermite(&[], 6, 2), vec![vec![6, 0], vec![0, 6]]);
        assert_eq!(
            hermite(&[vec![4, 0], vec![0, 3]], 6, 2),
            vec![vec![2, 0], vec![0, 3]]
        );
    }

    /// Two lines and their product (`Z/13 × Z/13`), with nested divisions
    /// on each line, a product of divisions of both, and large weights.
    #[test]
    fn tables_over_lines_and_their_products() {
        let q = qp(
            2,
            &[
                (vec![3, 5, 7], 13),
                (vec![1, 2, 1, 4], 9),
                (vec![12, 1, 0], 13),
                (vec![0, 0, 0, 0, 0, 5], 7),
            ],
            &[
                (vec![1, 0, 1, 1], 3, 2),
                (vec![0, 2, 0, 0, 1], -7, 3),
                (vec![0, 0, 1, 0, 1, 1], 1, 1),
                (vec![1, 1, 0, 2], 1, 5),
                (vec![0, 0, 0, 0, 2], i64::MAX, 1),
                (vec![0, 0, 0, 0, 0, 3], i64::MAX - 1, 3),
            ],
        );
        let p = agree(&q).expect("a quotient of at most 32,768 cosets");
        assert!(p > 13 * 13, "{p} cosets");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Random nested divisions over one to three parameters.
        #[test]
        fn tables_match_the_direct_evaluation(
            k in 1usize..=3,
            divs in prop::collection::vec(
                (prop::collection::vec(prop_oneof![-3i64..=3, -100i64..=100], 8), 2i64..=12),
                1..=5,
            ),
            terms in prop::collection::vec(
                (prop::collection::vec(0u32..=2, 8), -50i64..=50, 1i64..=6),
                1..=6,
            ),
        ) {
            let divs: Vec<(Vec<i64>, i64)> = divs
                .iter()
                .enumerate()
                .map(|(j, (r, d))| (r[..1 + k + j].to_vec(), *d))
                .collect();
            let n = k + divs.len();
            let terms: Vec<(Vec<u32>, i64, i64)> = terms
                .into_iter()
                .map(|(e, a, b)| {
                    // total degree at most 3
                    let mut e = e[..n].to_vec();
                    let mut left = 3u32;
                    for v in e.iter_mut() {
                        *v = (*v).min(left);
                        left -= *v;
                    }
                    (e, a, b)
                })
                .collect();
            let q = qp(k, &divs, &terms);
            if q.divs.is_empty() || q.poly.is_zero() {
                return Ok(());
            }
            agree(&q);
        }
    }
}
