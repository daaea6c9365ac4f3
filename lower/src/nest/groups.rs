//! The accesses of an innermost loop grouped by pointer: accesses of one
//! array with one linear part (apart from a constant) share a
//! strength-reduced pointer register, at a byte displacement each; and the
//! written arrays whose accesses are one loop-invariant element, kept in a
//! register across the loop (scalar promotion).

use std::collections::HashSet;

use codegen_x86::Gpr;

use crate::body::Call;
use crate::kernel::Storage;
use crate::linear::{Lin, Poly};
use crate::state::State;

/// An access of the innermost loop.
#[derive(Debug, Clone)]
pub(crate) struct Ref {
    pub(crate) user: usize,
    pub(crate) access: usize,
    pub(crate) array: String,
    pub(crate) write: bool,
    /// Group index and byte displacement, or `None` (general addressing).
    pub(crate) group: Option<(usize, i32)>,
    /// The group by linear form, whether or not it got a pointer register.
    pub(crate) lin_group: Option<(usize, i32)>,
    /// Per subscript, its linear form when it does not move with the loop
    /// (`None` where it does or is not affine): two accesses whose fixed
    /// subscripts differ by a non-zero constant in some dimension never
    /// touch one element (every access lies inside its array's extent in
    /// each dimension, which `poly run` proves before running compiled
    /// code, [`crate::accesses_in_bounds`]).
    pub(crate) fixed: Vec<Option<Lin>>,
}

impl Ref {
    /// Whether `self` and `o` never touch one element in the loop (a
    /// fixed subscript apart by a non-zero constant; see [`Ref::fixed`]).
    pub(crate) fn apart(&self, o: &Ref) -> bool {
        self.array == o.array
            && self.fixed.iter().zip(&o.fixed).any(|(a, b)| {
                let (Some(a), Some(b)) = (a, b) else {
                    return false;
                };
                b.mul(&Poly::constant(-1))
                    .and_then(|nb| a.add(&nb))
                    .is_some_and(|d| {
                        d.iters.values().all(Poly::is_zero)
                            && d.rest.as_const().is_some_and(|k| k != 0)
                    })
            })
    }
}

/// Accesses sharing a pointer: same array, same linear part.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub(crate) array: String,
    pub(crate) lin: Lin,
    /// Coefficient of the loop iterator (elements per iteration).
    pub(crate) coef: Poly,
    /// Zero-dimensional arrays live in the frame (no pointer).
    pub(crate) frame: bool,
    pub(crate) reg: Option<Gpr>,
}

/// The arrays that an innermost loop's groups move through at a stride
/// other than 0 or ±1 element per iteration (a column walk: a new cache
/// line, often a new page, per access).
pub(super) fn strided_arrays(groups: &[Group]) -> usize {
    let mut arrays: Vec<&str> = groups
        .iter()
        .filter(|gr| !gr.frame && !matches!(gr.coef.as_const(), Some(-1..=1)))
        .map(|gr| gr.array.as_str())
        .collect();
    arrays.sort_unstable();
    arrays.dedup();
    arrays.len()
}

/// A promoted array: its name, its group and the byte displacement of the
/// element.
pub(super) type Promoted = (String, usize, i32);

/// Scalar promotion: a written array whose accesses are one loop-invariant
/// element, apart from reads of the same statement proved never to touch
/// the written element. The promoted arrays (sorted) and the accesses they
/// replace (call, access).
pub(super) fn promotion(
    cs: &[Call],
    refs: &[Ref],
    groups: &[Group],
    written: &HashSet<String>,
) -> (Vec<Promoted>, HashSet<(usize, usize)>) {
    let mut promote: Vec<Promoted> = Vec::new();
    let mut promoted_refs: HashSet<(usize, usize)> = HashSet::new();
    for a in written {
        let mine: Vec<&Ref> = refs.iter().filter(|r| &r.array == a).collect();
        let Some(w) = mine.iter().find(|r| r.write) else {
            continue;
        };
        let Some((gi, d)) = w.group else { continue };
        if !groups[gi].coef.is_zero() {
            continue;
        }
        let stmt = cs[w.user].stmt;
        let ok = mine.iter().all(|r| {
            r.group == w.group
                || (!r.write && r.user == w.user && stmt.disjoint.contains(&(r.access, w.access)))
        });
        if ok {
            promote.push((a.clone(), gi, d));
            promoted_refs.extend(
                mine.iter()
                    .filter(|r| r.group == w.group)
                    .map(|r| (r.user, r.access)),
            );
        }
    }
    promote.sort();
    (promote, promoted_refs)
}

impl State<'_> {
    /// The accesses of the calls `cs` of the innermost loop of iterator
    /// `it`, grouped by array and linear part, with pointer registers for
    /// the groups while enough registers are free (keeping a few for
    /// temporaries): moving groups first, as a loop-invariant read is
    /// loaded once before the loop anyway. An access whose group has
    /// neither a pointer nor a frame home gets general addressing.
    pub(super) fn group_accesses(&mut self, cs: &[Call], it: &str) -> (Vec<Group>, Vec<Ref>) {
        let k = self.k;
        let mut groups: Vec<Group> = Vec::new();
        let mut refs: Vec<Ref> = Vec::new();
        for (u, c) in cs.iter().enumerate() {
            for (ai, a) in c.stmt.accesses.iter().enumerate() {
                let info = &k.arrays[&a.array];
                let group = match info.storage {
                    Storage::Scalar { .. } => {
                        let gi = match groups.iter().position(|gr| gr.frame && gr.array == a.array)
                        {
                            Some(gi) => gi,
                            None => {
                                groups.push(Group {
                                    array: a.array.clone(),
                                    lin: Lin::default(),
                                    coef: Poly::default(),
                                    frame: true,
                                    reg: None,
                                });
                                groups.len() - 1
                            }
                        };
                        Some((gi, 0))
                    }
                    Storage::Slot(_) => self.access_lin(c, ai).and_then(|l| {
                        let (rest, c0) = l.rest.split_const();
                        let disp = i32::try_from(c0.checked_mul(8)?).ok()?;
                        let lin = Lin {
                            iters: l.iters.clone(),
                            rest,
                        };
                        let gi = match groups
                            .iter()
                            .position(|gr| !gr.frame && gr.array == a.array && gr.lin == lin)
                        {
                            Some(gi) => gi,
                            None => {
                                groups.push(Group {
                                    array: a.array.clone(),
                                    coef: lin.coeff(it),
                                    lin,
                                    frame: false,
                                    reg: None,
                                });
                                groups.len() - 1
                            }
                        };
                        Some((gi, disp))
                    }),
                };
                let fixed = self.subscript_lins(c, ai).map_or_else(
                    || vec![None; a.index.len()],
                    |v| {
                        v.into_iter()
                            .map(|l| l.filter(|l| l.coeff(it).is_zero()))
                            .collect()
                    },
                );
                refs.push(Ref {
                    user: u,
                    access: ai,
                    array: a.array.clone(),
                    write: a.write,
                    group,
                    lin_group: group,
                    fixed,
                });
            }
        }
        for moving in [true, false] {
            for gr in groups
                .iter_mut()
                .filter(|gr| !gr.frame && gr.coef.is_zero() != moving)
            {
                if self.free_gprs() > 3 {
                    gr.reg = self.long_reg();
                }
            }
        }
        let addressed = |r: &Ref| {
            r.group
                .is_some_and(|(gi, _)| groups[gi].frame || groups[gi].reg.is_some())
        };
        for r in refs.iter_mut() {
            if !addressed(r) {
                r.group = None;
            }
        }
        (groups, refs)
    }
}
