//! Interleaved strides: a schedule dimension on which every statement runs
//! with one common stride `g` but different offsets (`A[i] -> [2i]`,
//! `B[i] -> [2i + 1]`) is split into the quotient and the offset,
//! `t -> (floor(t/g), t mod g)`. The order of the times is unchanged (the
//! pair is compared lexicographically), but the quotient is one loop
//! shared by all statements and the offset, a constant per statement,
//! orders them inside it: `for (c0 ...) { A(c0); B(c0); }` instead of one
//! loop of step 1 with a guard per statement.

use crate::error::Result;
use crate::options::{LoopKind, Options, Rule};
use presburger::{Int, UnionMap};

/// The schedule with every interleaved-stride dimension split (see the
/// module documentation), and the options moved to the new dimensions
/// (the offset dimension gets the default kind, the rules' regions are
/// mapped to the new dimensions). As in isl, a band's isolated part keeps
/// the schedule as it is.
pub fn split_interleaved(schedule: &UnionMap, options: &Options) -> Result<(UnionMap, Options)> {
    if !options.isolates.is_empty() {
        return Ok((schedule.clone(), options.clone()));
    }
    let mut sched = schedule.clone();
    let mut opts = options.clone();
    let mut l = 0;
    loop {
        let Some(d) = common_arity(&sched) else {
            return Ok((sched, opts));
        };
        if l >= d {
            return Ok((sched, opts));
        }
        if let Some(g) = interleaved_stride(&sched, l)? {
            let dims: Vec<String> = (0..d).map(|k| format!("t{k}")).collect();
            let mut out: Vec<String> = dims.clone();
            out[l] = format!("floor(t{l}/{g})");
            out.insert(l + 1, format!("t{l} - {g}*floor(t{l}/{g})"));
            let text = format!("{{ [{}] -> [{}] }}", dims.join(", "), out.join(", "));
            let split: UnionMap = text.parse()?;
            let mut rules = Vec::new();
            for r in &opts.rules {
                if r.region.space().n_out() != d {
                    // not expected (regions cover every schedule dimension)
                    return Ok((schedule.clone(), options.clone()));
                }
                let region = r.region.apply(&split.maps()[0])?;
                let dim = if r.dim > l { r.dim + 1 } else { r.dim };
                rules.push(Rule {
                    dim,
                    region,
                    ..r.clone()
                });
            }
            sched = sched.apply_range(&split)?;
            let mut kinds = opts.kinds.clone();
            if kinds.len() > l {
                kinds.insert(l + 1, LoopKind::Default);
            }
            opts = Options {
                kinds,
                rules,
                ..Options::default()
            };
            l += 2;
        } else {
            l += 1;
        }
    }
}

/// The number of schedule dimensions if every statement has the same.
fn common_arity(s: &UnionMap) -> Option<usize> {
    let d = s.maps().first()?.space().n_out();
    s.maps()
        .iter()
        .all(|m| !m.is_set() && m.space().n_out() == d)
        .then_some(d)
}

/// `g > 1` if every statement's times satisfy `t_l ≡ f (mod g)` for a
/// constant `f` (read from an equality `±t_l + Σ c·x + k = 0` whose other
/// coefficients are multiples of `g`) and at least two offsets differ.
fn interleaved_stride(s: &UnionMap, l: usize) -> Result<Option<i64>> {
    // per statement: (g, constant) with g = 0 for a constant time
    let mut found: Vec<(i64, i64)> = Vec::new();
    for m in s.maps() {
        let mut mine: Option<(i64, i64)> = None;
        for b in m.basic_maps() {
            let col = b.off_out() + l;
            let param_end = b.off_in();
            let mut this = None;
            for r in b.eqs() {
                if !r[col].abs().is_one() {
                    continue;
                }
                // a parameter term makes the offset vary: not a constant
                if r[1..param_end].iter().any(|v| !v.is_zero()) {
                    continue;
                }
                let others: Vec<&Int> = r[param_end..]
                    .iter()
                    .enumerate()
                    .filter(|(c, _)| param_end + c != col)
                    .map(|(_, v)| v)
                    .collect();
                let mut g = Int::ZERO;
                for v in others {
                    g = g.gcd(v);
                }
                let (Some(g), Some(k)) = (g.to_i64(), r[0].to_i64()) else {
                    continue;
                };
                // ±t = -(rest) - k
                let k = if r[col].is_pos() { -k } else { k };
                this = Some((g.abs(), k));
                break;
            }
            let Some(t) = this else { return Ok(None) };
            match mine {
                None => mine = Some(t),
                Some((g0, k0)) => {
                    let g = gcd(g0, t.0);
                    let g = gcd(g, (k0 - t.1).abs());
                    mine = Some((g, k0));
                }
            }
        }
        match mine {
            Some(t) => found.push(t),
            None => return Ok(None),
        }
    }
    let g = found.iter().fold(0, |acc, &(g, _)| gcd(acc, g));
    if g <= 1 || g > 1 << 20 {
        return Ok(None);
    }
    let mut offsets: Vec<i64> = found.iter().map(|&(_, k)| k.rem_euclid(g)).collect();
    offsets.sort();
    offsets.dedup();
    Ok((offsets.len() > 1).then_some(g))
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
