//! Disjuncts that differ only in the residue of one expression modulo one number, with every
//! residue present, are one disjunct without that congruence: `{ [i] : (N) mod 2 = 0 and C;
//! [i] : (N - 1) mod 2 = 0 and C }` is `{ [i] : C }` (coalescing cannot see it: the union
//! of the residue classes is not a convex combination of the parts).

use crate::basic::BasicMap;
use crate::int::Int;

/// A disjunct split into a congruence `num mod den = residue` on a division that
/// nothing else uses and the rest.
struct Split {
    /// The disjunct without the congruence and its division.
    rest: BasicMap,
    /// The numerator without its constant, and the denominator.
    key: (Vec<Int>, Int),
    /// `num mod den`, the constant included, in `0..den`.
    residue: Int,
}

/// The ways to split `b` (one a congruence on a division only that congruence uses).
fn splits(b: &BasicMap) -> Vec<Split> {
    let off = b.off_div();
    let mut out = Vec::new();
    for (k, d) in b.divs.iter().enumerate() {
        let Some(d) = d else { continue };
        let col = off + k;
        // a numerator over the parameters and dimensions only, a denominator above 1
        if d.den <= Int::ONE || d.num[off..].iter().any(|v| !v.is_zero()) {
            continue;
        }
        if b.divs.iter().flatten().any(|o| !o.num[col].is_zero()) {
            continue;
        }
        let bounds = d.bounds(col);
        if b.ineqs
            .iter()
            .any(|r| !r[col].is_zero() && !bounds.iter().any(|b| b[..] == *r))
        {
            continue;
        }
        let uses: Vec<usize> = (0..b.eqs.len())
            .filter(|&e| !b.eqs[e][col].is_zero())
            .collect();
        let [e] = uses[..] else { continue };
        let r = &b.eqs[e];
        if r[col].abs() != d.den {
            continue;
        }
        let s = if r[col].is_neg() {
            Int::ONE
        } else {
            -&Int::ONE
        };
        if !(1..r.len()).all(|c| c == col || r[c] == &s * &d.num[c]) {
            continue;
        }
        // r = s·(num - den·q) + δ = 0: num ≡ -s·δ (mod den)
        let delta = &r[0] - &(&s * &d.num[0]);
        let value = &d.num[0] - &(&s * &delta);
        let residue = &value - &(&d.den * &value.div_floor(&d.den));
        let mut rest = b.clone();
        rest.eqs.remove(e);
        rest.ineqs.retain(|r| r[col].is_zero());
        rest.remove_local(k);
        let mut key = d.num[..off].to_vec();
        key[0] = Int::ZERO;
        out.push(Split {
            rest,
            key: (key, d.den.clone()),
            residue,
        });
    }
    out
}

/// Merge groups of disjuncts that cover every residue class of one congruence (see the
/// [module documentation](self)). Returns true if anything merged.
pub(super) fn merge_residue_classes(parts: &mut Vec<BasicMap>) -> bool {
    let all: Vec<Vec<Split>> = parts.iter().map(splits).collect();
    for (a, sa) in all.iter().enumerate() {
        for s in sa {
            // one disjunct a residue, found among the others
            let den = match s.key.1.to_i64() {
                Some(d @ 2..=16) => d as usize,
                _ => continue,
            };
            let mut members: Vec<Option<usize>> = vec![None; den];
            for (b, sb) in all.iter().enumerate() {
                for t in sb {
                    if t.key == s.key && super::same_rows(&t.rest, &s.rest) {
                        if let Some(r) = t.residue.to_i64() {
                            members[r as usize].get_or_insert(b);
                        }
                    }
                }
            }
            if members.iter().all(Option::is_some) {
                let mut drop: Vec<usize> = members.into_iter().flatten().collect();
                drop.sort_unstable();
                drop.dedup();
                let rest = s.rest.clone();
                for &k in drop.iter().rev() {
                    parts.remove(k);
                }
                parts.insert(drop[0].min(a), rest);
                return true;
            }
        }
    }
    false
}
