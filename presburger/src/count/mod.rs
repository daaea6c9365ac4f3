//! Exact parametric counting: the number of integer points of a parametric
//! set (unions, divisions, existentials) as a piecewise quasi-polynomial in
//! the parameters, the per-domain-point count of a relation, and the sum
//! of a piecewise quasi-polynomial over its domain.
//!
//! ## Method: nested symbolic summation
//! Counting is summation of the constant `1`, so the three entry points
//! share one algorithm (in the spirit of Pugh, "Counting solutions to
//! Presburger formulas", PLDI'94, and of Verdoolaege's summation work):
//!
//! 1. *Disjoint pieces with defined locals.* The union is made disjoint
//!    with the engine's `subtract` (`P_k \ (P_1 ∪ .. ∪ P_{k-1})`), and every
//!    existential is given an explicit definition (the engine's
//!    `make_divs_explicit`, by parametric integer programming). A local with
//!    a definition is a function of the dimensions, so the points of a piece
//!    are in bijection with the integer solutions of its constraints over
//!    dimensions *and* locals: the locals simply become extra summation
//!    variables.
//! 2. *One variable at a time* (module `eliminate`), from the last: the
//!    variable is summed out of a piece exactly, giving disjoint pieces over
//!    the remaining variables whose constraints may mention new integer
//!    divisions (`floor`/`ceil` of the active bounds) and whose summand is a
//!    polynomial in the variables and those divisions. A division that
//!    depends on the next variable to sum is removed first by splitting
//!    that variable into residue classes (`w = m·w' + r`) when its period
//!    `m` is at most 64; a larger period lifts the divisions to variables
//!    of their own (`q = floor(f/m)` with `0 <= f - m·q < m`, module
//!    `lattice`), so a modulus of 100 or 1024 costs no more than one of 2
//!    and stays in the answer as a floor term (`floor((99 + n)/100)`).
//!    A narrow pair of rows `0 <= f - m·e <= k` (`k <= 7`, an existential
//!    stride) with a large coefficient is first split into the equalities
//!    `f - m·e = 0, .., k`. Equalities are solved first: one with only
//!    small coefficients directly (`w = floor(-e/a)`, the equality staying
//!    as a divisibility condition); one with a coefficient above 16 on a
//!    summation variable (a unit beside it included) by a unimodular change
//!    of those variables: a Hermite column reduction of the row, whose
//!    kernel columns are then LLL-reduced (module `reduce`), so that the
//!    box `0 <= i, j < n` cut by `(i + 98j) mod 100 = 0` becomes a polytope
//!    in `i = 2a, j = a + 50b` rather than a thin slanted one; one new
//!    variable then has a single value and the condition is `gcd | e` on
//!    the rest. The next variable is the one giving the fewest chambers,
//!    avoiding those whose bounds would give later divisions a period above
//!    16. A chamber's condition is `s <= t + 1`, not `s <= t`: the sum is
//!    exactly zero at `t = s - 1`, and the relaxed condition is often
//!    implied by the others (the residue classes' chambers then share one
//!    domain). Division periods above 65536 are refused ("not supported";
//!    a set without parameters is then counted by enumeration), equality
//!    coefficients of any size are compressed.
//! 3. What remains is over the parameters (and, for a relation, its domain
//!    dimensions): each piece's domain is restricted to the convex hull of
//!    the set's parameter domain (outside it the count is zero, so the
//!    pieces' values there add up to zero) and its constraints that the
//!    hull implies are removed (gist); pieces with equal domains add up,
//!    then the common refinement (each refined domain's value is the sum
//!    of the values of the domains it lies in, every such sum made in one
//!    pass with the divisions shared by hashing, `QuasiPolynomial::sum_all`:
//!    added one by one, the thousands of floor terms of a large modulus
//!    were re-indexed at every addition), and pieces with equal quasi-polynomials
//!    are merged (union, then coalesce) into the result, a
//!    [`PwQPolynomial`].
//!
//! Every piece is checked for integer points and its redundant
//! inequalities removed as it is made, so the number of pieces depends on
//! the constraint structure, not on the size of the set: the time is
//! polynomial in the dimension for a fixed structure and independent of the
//! number of points (a box or simplex of any size takes the same steps).
//! Unbounded sets are an error. Work is charged to the operation budget,
//! the quasi-polynomial arithmetic too (products, substitutions and sums of
//! polynomials with many floor terms), so a count ends either with its
//! answer or promptly with [`Error::BudgetExceeded`]. A set without
//! parameters whose summation takes more than a small budget is counted by
//! enumeration instead. Before an equality is solved, a congruence's
//! coefficients are reduced modulo its quotient's (`(3i + 83j) mod 7` is
//! `(3i - j) mod 7`), and a unit coefficient on a box side beside a
//! parameter (`(i + 46j - 94m) mod 74`) is solved directly rather than
//! compressed: the box's other sides stay unskewed and the quotient is
//! summed without chambers. A chamber row that the others imply at integer
//! points (rational minimum above `-1`) is dropped.
//!
//! A two-dimensional congruence of modulus above 16 (`(5i - 3j) mod 101 =
//! 6` in a box, whose reduced lattice has no short vector with a unit
//! coordinate) is multiplied by a modular inverse so that a box side has a
//! unit coefficient (`(-32i + j) mod 101`) and solved directly; the
//! quotient's chamber condition between two bounds of equal large
//! coefficient is written without their divisions (`r_lo + r_up + 1 >=
//! 0`), and the other side, whose summand is then linear in divisions of
//! period above 64, is summed by Euclid's floor sums (module `floor_sum`:
//! `O(log m)` nested divisions instead of `m` residue classes or lifted
//! divisions). Compressing such a congruence instead can give the shorter
//! answer (`(i + 98j + n) mod 100`: `i = 2a, j = a + 50b`), so the count is
//! made that way too, with at most four times the work of the first, and
//! the shorter answer kept. A congruence of modulus above 16 over three
//! or more box sides is treated the same way (module `lattice`,
//! `box_congruence`): a side coprime to the modulus is given a unit
//! coefficient by a modular inverse and solved directly, the quotient is
//! summed without chambers, the next side by Euclid's floor sums (any
//! period above 16 whose divisions occur linearly in the summand), and the
//! last summation variable is split into up to 128 residue classes (its
//! pieces are over the kept variables, so nothing multiplies them): `O(c
//! log c)` terms for a modulus `c`, where the compression's slanted
//! parallelepiped gave `O(c^2)` and exhausted the batch budget from about
//! `c = 23` in three parametric dimensions. The answers stay long (about
//! 1.5 million characters for `c = 97`): a closed form of polylogarithmic
//! size needs Barvinok's decomposition, not done.
//!
//! *Where the length comes from, and the periodic normal form.* In such a
//! three-dimensional count the summation order is: the quotient (no
//! chambers), one side by Euclid's floor sums (`O(log c)` nested divisions
//! of the next variable), then the last variable split into `c` residue
//! classes, each class's floor sums becoming `O(log c)` nested divisions of
//! the parameters, each printed inline at every use: for `(3 + 85i - 68j +
//! 40k) mod 97` in an `n³` box, 6,848 terms over 1,843 distinct divisions,
//! 1.8 million characters. A sum over `i` of
//! a product of nested floors of `i` (what the floor sums leave) is not a
//! floor sum, so Euclid's reduction does not continue to the last
//! variable; Barvinok's decomposition would, not done. What is done
//! instead (module `periodic`): a long result quasi-polynomial whose
//! divisions' period lattice `Λ` has at most 32,768 cosets is rewritten as
//! `Σ_μ x^μ·(a_μ + Σ_h g_{μ,h}(ℓ_h·x mod N_h))`: on each coset every
//! division is affine, so the coefficient tables come from one evaluation
//! of the divisions per coset (module `coset_values`), and each table is
//! split into functions of cyclic quotients `ℓ·x mod N` (module
//! `characters`: Fourier components grouped by the cyclic subgroup of
//! characters they generate, found by means over fibres and Möbius
//! inversion), each written with `N` one-level divisions; kept where it is
//! printed shorter. One-parameter counts of modulus 95-120 go from 0.1-0.3
//! million characters to 5,000-7,500; two parameters in independent
//! divisions (quotient `Z/97 × Z/97`, not cyclic) give tables over the few
//! lines the count's characters lie on: seed 1's mod-97 family (box `m × n
//! × 2m`) goes from 1,044,003 characters to 22,998 (about 2 s of CPU for
//! its 9,409 cosets).
//!
//! The oracle is enumeration ([`reference`](mod@crate::reference):
//! `card_by_enumeration` and friends), used by the property tests.
//!
//! ```
//! use presburger::{card, card_map, Int, Map, Set};
//! let s: Set = "{ [i, j, k] : 0 <= i, j, k and i + j + k <= 100000 }".parse().unwrap();
//! let n = card(&s).unwrap().as_constant().unwrap().unwrap();
//! assert_eq!(n.to_string(), "166676666850001"); // C(100003, 3)
//! let m: Map = "[n] -> { [i] -> [j] : i <= j < n }".parse().unwrap();
//! assert_eq!(card_map(&m).unwrap().to_string(), "[n] -> { [i] -> (n - i) : i < n }");
//! ```

mod bound;
mod characters;
mod coset_tables;
mod coset_values;
mod eliminate;
mod floor_sum;
mod lattice;
mod parse;
mod periodic;
mod piece;
mod pieces;
mod poly;
mod qpoly;
mod rat;
mod reduce;
pub mod reference;

pub use bound::{lower_bound, upper_bound, PwQPolynomialFold};
pub use parse::{is_qpolynomial_text, parse_union_qpolynomial};
pub use qpoly::{PwQPolynomial, QuasiPolynomial};
pub use rat::Rat;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::space::Space;
use piece::Piece;
use poly::Poly;

/// The number of points of `set` as a piecewise quasi-polynomial in its
/// parameters. `Err` if the set is unbounded for some parameter values.
pub fn card(set: &Set) -> Result<PwQPolynomial> {
    let n_keep = set.space().n_param();
    let target = set.space().params_space();
    let parts = disjoint_defined(set)?;
    let work = parts.into_iter().map(|b| (b, None)).collect();
    let context = hull_or_universe(&set.params(), &target);
    let run = || summed(work, n_keep, target.clone(), &context).map_err(|e| named(e, set));
    let r = if n_keep == 0 {
        crate::budget::with_budget(CONSTANT_SUMMATION_BUDGET, run)
    } else {
        run()
    };
    match r {
        // numbers beyond the lifting limit (see eliminate), or a summation
        // with many pieces: a set without parameters is still counted, by
        // enumeration of its outer dimensions
        Err(Error::Invalid(e)) if e == eliminate::PERIOD_TOO_LARGE && n_keep == 0 => {
            constant_count(set, target)
        }
        Err(Error::BudgetExceeded) if n_keep == 0 => constant_count(set, target),
        r => r,
    }
}

/// The work a count without parameters may spend on summation before it
/// enumerates instead (a box of a few thousand points cut by a congruence
/// of a large modulus is enumerated at once, its summation takes seconds;
/// a simplex of side 10^5 is summed at once).
const CONSTANT_SUMMATION_BUDGET: u64 = 2_000_000;

/// The count of a set without parameters by enumeration (`Map::card`).
fn constant_count(set: &Set, target: Space) -> Result<PwQPolynomial> {
    let n = set.card()?;
    let mut f = PwQPolynomial::zero(target.clone());
    if !n.is_zero() {
        f.pieces.push((
            Map::universe(target.clone()),
            QuasiPolynomial::constant(target, Rat::from(n)),
        ));
    }
    Ok(f)
}

/// For each point of the domain of `map`, the number of its images: a
/// piecewise quasi-polynomial over the domain space (zero outside the
/// domain).
pub fn card_map(map: &Map) -> Result<PwQPolynomial> {
    let n_keep = map.space().n_param() + map.space().n_in();
    let target = map.space().domain_space();
    let parts = disjoint_defined(map)?;
    let work = parts.into_iter().map(|b| (b, None)).collect();
    let context = hull_or_universe(&map.domain()?, &target);
    summed(work, n_keep, target, &context).map_err(|e| named(e, map))
}

/// The unbounded-set error naming a dimension without a bound, as the
/// user wrote it (found by the lexicographic optimum, which names it).
fn named(e: Error, m: &Map) -> Error {
    match &e {
        Error::Invalid(msg) if msg.starts_with(eliminate::UNBOUNDED) => {
            for r in [m.lexmax(), m.lexmin()] {
                if let Err(u @ Error::Unbounded { .. }) = r {
                    let text = u.to_string();
                    let what = text.trim_start_matches("unbounded optimum: ");
                    return Error::Invalid(format!("{}: {what}", eliminate::UNBOUNDED));
                }
            }
            e
        }
        _ => e,
    }
}

/// The sum of `f` over all points of its domain, as a piecewise
/// quasi-polynomial in the parameters.
pub fn sum(f: &PwQPolynomial) -> Result<PwQPolynomial> {
    let n_keep = f.space().n_param();
    let target = f.space().params_space();
    let mut work = Vec::new();
    for (d, q) in f.pieces() {
        for b in disjoint_defined(d)? {
            work.push((b, Some(q)));
        }
    }
    let context = hull_or_universe(&f.domain()?.params(), &target);
    summed(work, n_keep, target, &context).map_err(|e| {
        named(
            e,
            &f.domain().unwrap_or_else(|_| Map::empty(f.space().clone())),
        )
    })
}

/// The basic maps of `m` made disjoint, each with every local defined.
fn disjoint_defined(m: &Map) -> Result<Vec<BasicMap>> {
    // coalescing first drops disjuncts contained in others and merges
    // adjacent ones: fewer and simpler differences below
    let m = m.remove_empty_parts()?.coalesce_simplified()?;
    let mut out = Vec::new();
    let mut seen = Map::empty(m.space().clone());
    // simple parts first: each later part then loses the earlier ones, and
    // a part with existentials or equalities minus a plain polyhedron stays
    // small, while a polyhedron minus a stride or an equality splits into
    // pieces with new existentials
    let mut parts: Vec<&BasicMap> = m.basic_maps().iter().collect();
    parts.sort_by_key(|b| (b.n_div(), b.eqs().len(), b.ineqs().len()));
    for p in parts {
        let fresh = Map::from_basic(p.clone()).subtract(&seen)?;
        seen.add_basic(p.clone())?;
        for q in fresh.basic_maps() {
            defined(q, &mut out, 0)?;
        }
    }
    Ok(out)
}

fn defined(b: &BasicMap, out: &mut Vec<BasicMap>, depth: usize) -> Result<()> {
    if b.divs().iter().all(Option::is_some) {
        out.push(b.clone());
        return Ok(());
    }
    if depth > 4 {
        return Err(Error::Invalid(
            "card: could not define the existential variables".into(),
        ));
    }
    let explicit = b.make_divs_explicit()?;
    let mut seen = Map::empty(b.space().clone());
    for x in explicit {
        let fresh = Map::from_basic(x.clone()).subtract(&seen)?;
        seen.add_basic(x)?;
        for y in fresh.basic_maps() {
            defined(y, out, depth + 1)?;
        }
    }
    Ok(())
}

/// Sum the summand (one, or a quasi-polynomial over the space's variables)
/// over every variable after the first `n_keep` of each basic map; the
/// result over `target` (whose variables are those `n_keep`). Where the
/// summation meets a choice between two methods (`lattice::Choice`) it is
/// made again the other way, with at most four times the work of the
/// first (and at most [`SECOND_CHOICE_BUDGET`]), and the shorter answer is kept (the first on a tie or a failure).
fn summed(
    work: Vec<(BasicMap, Option<&QuasiPolynomial>)>,
    n_keep: usize,
    target: Space,
    context: &Set,
) -> Result<PwQPolynomial> {
    let first = lattice::Choice::default();
    let (a, spent) = {
        let scope = crate::budget::enter(u64::MAX);
        let a = summed_by(work.clone(), n_keep, target.clone(), context, &first)?;
        (a, scope.spent())
    };
    if !first.seen.get() {
        return Ok(a);
    }
    let second = lattice::Choice {
        compress: true,
        ..Default::default()
    };
    // (at most SECOND_CHOICE_BUDGET: a long first answer, a congruence of
    // large modulus over three box sides, is not beaten by a compression
    // that splits every side into residue classes)
    let limit = spent
        .saturating_mul(4)
        .saturating_add(100_000)
        .min(SECOND_CHOICE_BUDGET);
    let b = crate::budget::with_budget(limit, || summed_by(work, n_keep, target, context, &second));
    Ok(match b {
        Ok(b) if b.to_string().len() < a.to_string().len() => b,
        _ => a,
    })
}

/// The most work the second way of a choice may spend (see [`summed`]).
const SECOND_CHOICE_BUDGET: u64 = 20_000_000;

/// [`summed`] with the choice between methods fixed.
fn summed_by(
    work: Vec<(BasicMap, Option<&QuasiPolynomial>)>,
    n_keep: usize,
    target: Space,
    context: &Set,
    choice: &lattice::Choice,
) -> Result<PwQPolynomial> {
    let mut done: Vec<Piece> = Vec::new();
    for (b, q) in work {
        let Some(mut p) = initial_piece(&b, q) else {
            continue;
        };
        if !p.tidy()? {
            continue;
        }
        let mut cur = vec![p];
        while !cur.is_empty() {
            let mut next = Vec::new();
            for mut p in cur {
                if p.n_var == n_keep {
                    done.push(p);
                } else if lattice::reduce_congruence(&mut p, n_keep)
                    || lattice::unit_congruence(&mut p, n_keep, choice)
                {
                    next.push(p);
                } else if let Some(q) = lattice::split_narrow(&p, n_keep)? {
                    next.extend(q);
                } else if let Some(q) = lattice::compress_equality(&p, n_keep, choice)? {
                    next.extend(q);
                } else {
                    next.extend(eliminate::sum_last(
                        eliminate::cheapest_last(p, n_keep),
                        n_keep,
                    )?);
                }
            }
            cur = next;
        }
    }
    assemble(done, target, context)
}

/// A convex superset of `m` (where a count or sum can be non-zero), the
/// universe of `target` if the hull fails.
fn hull_or_universe(m: &Map, target: &Space) -> Set {
    m.remove_empty_parts()
        .and_then(|m| m.convex_hull())
        .and_then(|h| h.remove_empty_parts())
        .unwrap_or_else(|_| Map::universe(target.clone()))
}

/// The piece of a basic map (locals as variables after the space's) with
/// the summand's divisions re-indexed after them.
fn initial_piece(b: &BasicMap, q: Option<&QuasiPolynomial>) -> Option<Piece> {
    let nsv = b.space().n_vars();
    let nl = b.n_div();
    let n_var = nsv + nl;
    let (divs, poly) = match q {
        None => (Vec::new(), Poly::constant(n_var, Rat::one())),
        Some(q) => {
            if q.is_zero() {
                return None;
            }
            let nq = q.divs.len();
            let divs = q
                .divs
                .iter()
                .map(|(num, den)| {
                    let mut row = num[..1 + nsv].to_vec();
                    row.extend(std::iter::repeat(Int::ZERO).take(nl));
                    row.extend(num[1 + nsv..].iter().cloned());
                    row.resize(1 + n_var + nq, Int::ZERO);
                    (row, den.clone())
                })
                .collect();
            let total = n_var + nq;
            let images: Vec<Option<usize>> = (0..nsv).chain(n_var..total).map(Some).collect();
            (divs, q.poly.renamed(&images, total))
        }
    };
    let width = 1 + n_var + divs.len();
    let pad = |r: &[Int]| {
        let mut r = r.to_vec();
        r.resize(width, Int::ZERO);
        r
    };
    Some(Piece {
        n_var,
        eqs: b.eqs().iter().map(pad).collect(),
        ineqs: b.ineqs().iter().map(pad).collect(),
        divs,
        poly,
    })
}

/// The sum of the final pieces (their domains overlap when they come
/// from different chambers or parts).
fn assemble(done: Vec<Piece>, target: Space, context: &Set) -> Result<PwQPolynomial> {
    let mut acc = PwQPolynomial::zero(target.clone());
    if target.n_vars() == 0 {
        // every piece is a non-empty point: the values add up
        let mut total = Rat::zero();
        for p in &done {
            let q = QuasiPolynomial {
                space: target.clone(),
                divs: p.divs.clone(),
                poly: p.poly.clone(),
            };
            total = total.add(&q.eval(&[])?);
        }
        if !total.is_zero() {
            let q = QuasiPolynomial::constant(target.clone(), total);
            acc.pieces.push((Map::universe(target), q));
        }
        return Ok(acc);
    }
    // each domain restricted to the context (outside it the count is zero,
    // so the values there add up to zero) and its constraints that the
    // context implies removed; then equal domains first: their
    // quasi-polynomials add up
    // (the summands of a domain are added at the end, in one pass: adding
    // them one by one re-indexes the growing sum's divisions every time)
    let mut same: Vec<(Set, Vec<QuasiPolynomial>)> = Vec::new();
    let mut keys: std::collections::HashMap<String, usize> = Default::default();
    for p in done {
        if p.poly.is_zero() {
            continue;
        }
        crate::budget::tick(1)?;
        let e = Map::from_basic(p.to_basic(target.clone())).simplify_parts();
        let g = e.gist(context)?;
        if g.basic_maps().is_empty() {
            continue;
        }
        let d = g.intersect(context)?.simplify_parts();
        let key = d.to_string();
        let q = QuasiPolynomial {
            space: target.clone(),
            divs: p.divs,
            poly: p.poly,
        };
        match keys.get(&key) {
            Some(&k) => same[k].1.push(q),
            None => {
                keys.insert(key, same.len());
                same.push((d, vec![q]));
            }
        }
    }
    // then the common refinement, one domain at a time, the simplest
    // domains first (fewer divisions: cheaper differences while the
    // refinement grows)
    same.sort_by_key(|(d, _)| {
        let b = &d.basic_maps()[0];
        (
            d.basic_maps().len(),
            b.n_div(),
            b.eqs().len() + b.ineqs().len(),
        )
    });
    // (each refined domain keeps the list of the domains it lies in, and
    // its value is their sum, made once at the end: adding a domain's
    // value to every piece it overlaps as the refinement grows would add
    // the same long quasi-polynomials again and again)
    let mut values: Vec<QuasiPolynomial> = Vec::with_capacity(same.len());
    let mut refined: Vec<(Set, Vec<usize>)> = Vec::new();
    for (e, qs) in same {
        crate::budget::tick(1)?;
        let q = QuasiPolynomial::sum_all(target.clone(), &qs)?;
        if q.is_zero() {
            continue;
        }
        let k = values.len();
        values.push(q);
        refined = refine(
            refined,
            &e,
            |ks| Ok(ks.iter().copied().chain([k]).collect()),
            vec![k],
        )?;
    }
    for (d, ks) in refined {
        let qs: Vec<QuasiPolynomial> = ks.iter().map(|&k| values[k].clone()).collect();
        let q = if qs.len() == 1 {
            qs.into_iter().next().unwrap()
        } else {
            QuasiPolynomial::sum_all(target.clone(), &qs)?
        };
        if !q.is_zero() {
            acc.pieces.push((d, q));
        }
    }
    // the context's rows that the domains' own rows imply (`m >= 1` beside
    // `m >= n >= 1`)
    for (d, _) in acc.pieces.iter_mut() {
        let mut out = Map::empty(d.space().clone());
        for b in d.basic_maps() {
            let mut b = b.clone();
            b.remove_redundancies()?;
            out.add_basic(b)?;
        }
        *d = out;
    }
    // a long quasi-polynomial in its periodic normal form where that is
    // shorter (module `periodic`)
    for (_, q) in acc.pieces.iter_mut() {
        if let Some(f) = shorter_periodic(q)? {
            *q = f;
        }
    }
    acc.merged()
}

/// The shortest printed length of a quasi-polynomial that is tried in its
/// periodic normal form.
const PERIODIC_MIN_LENGTH: usize = 1000;

/// The most work the periodic normal form of one quasi-polynomial may take.
const PERIODIC_BUDGET: u64 = 120_000_000;

/// `q`'s periodic normal form if it is printed shorter than `q`.
fn shorter_periodic(q: &QuasiPolynomial) -> Result<Option<QuasiPolynomial>> {
    if q.divs.is_empty() {
        return Ok(None);
    }
    let len = q.to_string().len();
    if len < PERIODIC_MIN_LENGTH {
        return Ok(None);
    }
    // (at most half the budget left: a rewriting that runs out must leave
    // the count enough to finish with the long answer)
    let budget =
        crate::budget::remaining().map_or(PERIODIC_BUDGET, |r| (r / 2).min(PERIODIC_BUDGET));
    match crate::budget::with_budget(budget, || periodic::periodic_form(q)) {
        Ok(Some(f)) if f.to_string().len() < len => Ok(Some(f)),
        Ok(_) | Err(Error::BudgetExceeded) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The common refinement of the disjoint `pieces` with a new domain `e`:
/// the parts outside `e` keep their value, the overlaps get `both(value)`,
/// and what of `e` no piece covers gets `fresh`.
pub(crate) fn refine<T: Clone>(
    pieces: Vec<(Set, T)>,
    e: &Set,
    both: impl Fn(&T) -> Result<T>,
    fresh: T,
) -> Result<Vec<(Set, T)>> {
    let mut rest = e.clone();
    let mut next = Vec::with_capacity(pieces.len() + 2);
    for (d, v) in pieces {
        let common = d.intersect(e)?.remove_empty_parts()?;
        if common.basic_maps().is_empty() {
            next.push((d, v));
            continue;
        }
        let only = d.subtract(e)?.remove_empty_parts()?;
        if !only.basic_maps().is_empty() {
            next.push((only, v.clone()));
        }
        rest = rest.subtract(&d)?.remove_empty_parts()?;
        next.push((common, both(&v)?));
    }
    if !rest.basic_maps().is_empty() {
        next.push((rest, fresh));
    }
    Ok(next)
}

#[cfg(test)]
mod tests;
