//! Benchmark inputs shared by the criterion benches (see `benches/README.md`):
//! deterministic sparse polytopes, dependence-style intersections, and the
//! questions asked of the shared kernel models (`../shared/kernels/*.model.json`,
//! read by [`testkit::kernels`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use presburger::{Result, UnionMap};

pub use testkit::kernels::{kernels_dir, models, KernelModel};
pub use testkit::Lcg;

/// A sparse bounded polytope of dimension `d` in isl text: the box
/// `0 <= x_k <= 20` plus `2d` random constraints with two or three non-zero
/// coefficients, each satisfied at the box centre (so the set is non-empty).
pub fn sparse_polytope(d: usize, seed: u64) -> String {
    let mut r = Lcg::new(seed);
    let vars: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
    let mut cs: Vec<String> = vars.iter().map(|v| format!("0 <= {v} <= 20")).collect();
    for _ in 0..2 * d {
        let mut coef = vec![0i64; d];
        for _ in 0..r.range(2, 3) {
            let k = r.range(0, d as i64 - 1) as usize;
            coef[k] = r.range(-5, 5);
        }
        let at_centre: i64 = coef.iter().map(|c| c * 10).sum();
        let k = -at_centre + r.range(0, 15);
        let terms: Vec<String> = coef
            .iter()
            .zip(&vars)
            .filter(|(c, _)| **c != 0)
            .map(|(c, v)| format!("{c}*{v}"))
            .collect();
        if !terms.is_empty() {
            cs.push(format!("{} + {k} >= 0", terms.join(" + ")));
        }
    }
    format!("{{ [{}] : {} }}", vars.join(", "), cs.join(" and "))
}

/// A dependence-style relation of loop depth `depth` (1 to 3): pairs of
/// iterations `S[i] -> S[j]` of an `n`-sized box with the source before the
/// sink (lexicographically) where the source writes `A[sum of i]` and the sink
/// reads `A[sum of j - 1]` (`2*sum(i) = 2*sum(j) - 2 + parity`). With
/// `parity` 1 the relation is empty (an odd number cannot equal an even one),
/// which the engine must prove.
///
/// `parity` 2 is the other common way a dependence is empty: the sink
/// reads what a *later* iteration writes (`i_k = j_k + 1` in every
/// dimension), which contradicts the source being before the sink.
pub fn dependence(depth: usize, parity: i64) -> String {
    let (tuples, common, before) = dependence_parts(depth, parity);
    let before: Vec<String> = before.iter().map(|b| format!("({b})")).collect();
    format!(
        "[n] -> {{ {tuples} : {common} and ({}) }}",
        before.join(" or ")
    )
}

/// The disjuncts of [`dependence`] (one per depth at which the source is
/// before the sink), each a basic map in isl notation.
pub fn dependence_disjuncts(depth: usize, parity: i64) -> Vec<String> {
    let (tuples, common, before) = dependence_parts(depth, parity);
    before
        .iter()
        .map(|b| format!("[n] -> {{ {tuples} : {common} and {b} }}"))
        .collect()
}

/// The tuples, the constraints shared by every disjunct, and the
/// lexicographic-order constraints of each disjunct of [`dependence`].
fn dependence_parts(depth: usize, parity: i64) -> (String, String, Vec<String>) {
    let src: Vec<String> = (0..depth).map(|k| format!("i{k}")).collect();
    let snk: Vec<String> = (0..depth).map(|k| format!("j{k}")).collect();
    let mut cs: Vec<String> = src
        .iter()
        .chain(&snk)
        .map(|v| format!("0 <= {v} < n"))
        .collect();
    if parity == 2 {
        cs.extend(src.iter().zip(&snk).map(|(i, j)| format!("{i} = {j} + 1")));
    } else {
        cs.push(format!(
            "2*({}) = 2*({}) - 2 + {parity}",
            src.join(" + "),
            snk.join(" + ")
        ));
    }
    // source before sink: a disjunction over the depth at which they differ
    let before: Vec<String> = (0..depth)
        .map(|l| {
            let mut c: Vec<String> = (0..l).map(|k| format!("i{k} = j{k}")).collect();
            c.push(format!("i{l} < j{l}"));
            c.join(" and ")
        })
        .collect();
    let tuples = format!("S[{}] -> S[{}]", src.join(", "), snk.join(", "));
    (tuples, cs.join(" and "), before)
}

/// The last-writer candidate relation of a model:
/// `{ sink instance -> source instance : same element, source before sink }`
/// (reads as sinks, all writes as sources).
pub fn writer_relation(m: &KernelModel) -> Result<UnionMap> {
    let writes = m.must_write.union(&m.may_write)?;
    let same = m.read.apply_range(&writes.reverse()?)?;
    let times = m.schedule.range()?;
    let later = times.lex_order(&times, true, false)?; // t_sink >> t_source
    let before = m
        .schedule
        .apply_range(&later)?
        .apply_range(&m.schedule.reverse()?)?;
    same.intersect(&before)
}

/// The dataflow question of a model as the `kernels` bench asks it: reads as
/// sinks, must/may writes as sources, the model's schedule.
pub fn flow_info(m: &KernelModel) -> dataflow::AccessInfo {
    dataflow::AccessInfo::from_sink(m.read.clone())
        .with_must_source(m.must_write.clone())
        .with_may_source(m.may_write.clone())
        .with_schedule(m.schedule.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polytopes_are_non_empty_and_bounded() {
        for d in [2, 5, 8] {
            let s: UnionMap = sparse_polytope(d, 1).parse().unwrap();
            assert!(!s.is_empty().unwrap(), "{}", sparse_polytope(d, 1));
            assert!(s.lexmin().is_ok());
        }
    }

    #[test]
    fn dependences_are_empty_exactly_for_odd_parity() {
        for depth in 1..=2 {
            let even: UnionMap = dependence(depth, 0).parse().unwrap();
            let odd: UnionMap = dependence(depth, 1).parse().unwrap();
            assert!(!even.is_empty().unwrap(), "{}", dependence(depth, 0));
            assert!(odd.is_empty().unwrap(), "{}", dependence(depth, 1));
        }
    }

    #[test]
    fn writer_relation_of_jacobi_is_non_empty() {
        let Some(m) = models().into_iter().find(|m| m.name == "jacobi_1d") else {
            return;
        };
        let r = writer_relation(&m).unwrap();
        assert!(!r.is_empty().unwrap());
        let lw = r.lexmax().unwrap();
        assert!(lw.is_subset(&r).unwrap());
        assert!(lw.is_single_valued().unwrap());
    }
}
