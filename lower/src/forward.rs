//! Values carried across iterations of a scalar innermost loop in
//! registers instead of through memory (scalar replacement).
//!
//! In a loop whose only store to an array is one access `w` of a pointer
//! group with constant stride `s` elements (`A[i][j]` in a `j` loop), the
//! group's accesses sit at element offsets `k` from `w` (`A[i][j-1]` at
//! `-1`, `A[i][j+1]` at `+1`). Only `w` writes the array, and at iteration
//! `x` it writes offset 0, so the element read at offset `k` in iteration
//! `x` holds what offset `k + 1` held at the end of iteration `x - 1`: the
//! value written there when `k + 1 = 0`, else the value read there (that
//! element was not written in between). Such a read is served from a
//! register, loaded from memory once before the loop and rotated at the
//! end of every iteration. A read at offset 0 qualifies only when it comes
//! before the store (in an earlier statement or in the writing statement
//! itself). Seidel's `A[i][j] = (.. + A[i][j-1] + A[i][j] + A[i][j+1] ..)`
//! then loads one element of row `i` per iteration instead of three, and
//! the previous result reaches the next iteration without a store-to-load
//! round trip. A read of the stored element in a later statement of the
//! same iteration (`t[i+j] = B[i][j]; C[j][i] += t[i+j]`) takes the stored
//! value; this one also in vector loops (the stored lanes are the read
//! lanes). Stores still happen every iteration, so memory is always up to
//! date; the values are the interpreter's bit for bit.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use codegen_x86::Mem;

use crate::emit::Width;
use crate::error::{Error, Result};
use crate::nest::{Group, Ref};
use crate::state::State;

/// The forwarding plan of one pointer group.
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    /// The group.
    pub(crate) group: usize,
    /// Byte displacement of the store (offset 0).
    pub(crate) disp: i32,
    /// Bytes per element offset (8 times the stride).
    pub(crate) step: i32,
    /// Offsets served from registers, ascending.
    pub(crate) forwarded: Vec<i64>,
    /// Offsets whose loaded value is kept for the next iteration (not
    /// forwarded themselves).
    pub(crate) captured: Vec<i64>,
    /// The reads by offset: `(call, access)` → offset.
    pub(crate) reads: BTreeMap<(usize, usize), i64>,
    /// The store, `(call, access)`.
    pub(crate) write: (usize, usize),
    /// Reads of the stored element in later statements of the same
    /// iteration: served by the stored value.
    pub(crate) late: Vec<(usize, usize)>,
}

impl Chain {
    /// Where the value of offset `k` at the end of an iteration comes from.
    pub(crate) fn source(&self, k: i64) -> Source {
        if k == 0 {
            Source::Written
        } else if self.forwarded.contains(&k) {
            Source::Forwarded(k)
        } else {
            Source::Captured(k)
        }
    }
}

/// A register's value at the end of an iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The value stored by the write.
    Written,
    /// The forwarded register of that offset (its value this iteration).
    Forwarded(i64),
    /// The value loaded at that offset this iteration.
    Captured(i64),
}

/// The chains of a loop's accesses (`refs` in body order, calls numbered
/// by `user`).
/// With `across` false (a vector loop) only the `late` reads.
pub(crate) fn chains(refs: &[Ref], groups: &[Group], across: bool) -> Vec<Chain> {
    let mut out = Vec::new();
    let arrays: BTreeSet<&str> = refs
        .iter()
        .filter(|r| r.write)
        .map(|r| r.array.as_str())
        .collect();
    for a in arrays {
        let writes: Vec<&Ref> = refs.iter().filter(|r| r.array == a && r.write).collect();
        for w in &writes {
            if let Some(ch) = chain(refs, groups, across, &writes, w) {
                out.push(ch);
            }
        }
    }
    out
}

/// The chain of the group of the store `w` (one of `writes`, the stores
/// to its array), when it is the group's only store and every other store
/// to the array is apart from each access of the group ([`Ref::apart`]):
/// then only `w` changes the elements the group touches.
fn chain(refs: &[Ref], groups: &[Group], across: bool, writes: &[&Ref], w: &Ref) -> Option<Chain> {
    let a = w.array.as_str();
    let (gi, dw) = w.group?;
    {
        let mine: Vec<&Ref> = refs
            .iter()
            .filter(|r| r.array == a && r.group.is_some_and(|(g, _)| g == gi))
            .collect();
        for o in writes {
            let same = o.user == w.user && o.access == w.access;
            if same {
                continue;
            }
            if o.group.is_some_and(|(g, _)| g == gi) || !mine.iter().all(|r| r.apart(o)) {
                return None;
            }
        }
    }
    {
        let gr = &groups[gi];
        if gr.frame || gr.reg.is_none() {
            return None;
        }
        let s = gr.coef.as_const().filter(|s| *s != 0)?;
        let mut late = Vec::new();
        let step = s.checked_mul(8).and_then(|b| i32::try_from(b).ok())?;
        // reads of the group by offset; a read at offset 0 after the store
        // (a later statement) sees this iteration's value: left in memory
        let mut reads = BTreeMap::new();
        for r in refs.iter().filter(|r| !r.write && r.array == a) {
            let Some((g2, d)) = r.group else { continue };
            if g2 != gi || (d - dw) % step != 0 {
                continue;
            }
            let k = i64::from((d - dw) / step);
            if k == 0 && r.user > w.user {
                late.push((r.user, r.access));
            } else if across {
                reads.insert((r.user, r.access), k);
            }
        }
        let offsets: BTreeSet<i64> = reads.values().copied().collect();
        let forwarded: Vec<i64> = offsets
            .iter()
            .copied()
            .filter(|k| *k + 1 == 0 || offsets.contains(&(k + 1)))
            .collect();
        if forwarded.is_empty() && late.is_empty() {
            return None;
        }
        let captured: Vec<i64> = forwarded
            .iter()
            .map(|k| k + 1)
            .filter(|j| *j != 0 && !forwarded.contains(j))
            .collect();
        Some(Chain {
            group: gi,
            disp: dw,
            step,
            forwarded,
            captured,
            reads,
            write: (w.user, w.access),
            late,
        })
    }
}

/// `ch` forwarding only the stored values of the last `depth` iterations
/// (offsets `-depth..=-1`, no captured loads): the reads a store feeds,
/// where a load would wait for the store; `None` when nothing is left.
fn recent(ch: &Chain, depth: i64) -> Option<Chain> {
    let mut forwarded = Vec::new();
    let mut k = -1;
    while k >= -depth && ch.forwarded.contains(&k) {
        forwarded.push(k);
        k -= 1;
    }
    forwarded.reverse();
    if forwarded.is_empty() && ch.late.is_empty() {
        return None;
    }
    Some(Chain {
        forwarded,
        captured: Vec::new(),
        ..ch.clone()
    })
}

impl State<'_> {
    /// Sets up the chains of a scalar innermost loop (its `Inner` state
    /// must exist, its pointers be at the first iteration): the forwarded
    /// registers are loaded, the reads and stores marked. Returns the
    /// registers to free after the loop and the copies `(to, from)` to
    /// emit at the end of every iteration, in order. Nothing is carried
    /// unless `reserve` vector registers stay free.
    pub(crate) fn carry(
        &mut self,
        refs: &[Ref],
        groups: &[Group],
        across: bool,
        reserve: usize,
    ) -> Result<(Vec<u8>, Vec<(u8, u8)>)> {
        let full = chains(refs, groups, across);
        let stored = |c: &Chain| c.forwarded.contains(&-1) || !c.late.is_empty();
        let need = |all: &[Chain]| -> usize {
            all.iter()
                .map(|c| c.forwarded.len() + c.captured.len() + usize::from(stored(c)))
                .sum()
        };
        let (mut regs, mut rotate) = (Vec::new(), Vec::new());
        let free = self.free_vregs();
        // every chain in full, else the stored values of the last few
        // iterations only, as many as fit
        let deepest = full
            .iter()
            .map(|c| c.forwarded.len() as i64)
            .max()
            .unwrap_or(0);
        let all = std::iter::once(full.clone())
            .chain(
                (1..=deepest)
                    .rev()
                    .map(|d| full.iter().filter_map(|c| recent(c, d)).collect()),
            )
            .find(|all: &Vec<Chain>| need(all) + reserve <= free)
            .unwrap_or_default();
        if all.is_empty() {
            return Ok((regs, rotate));
        }
        for ch in &all {
            let p = groups[ch.group]
                .reg
                .ok_or_else(|| Error::Internal("a carried group without a pointer".into()))?;
            let disp = |k: i64| {
                i32::try_from(k)
                    .ok()
                    .and_then(|k| ch.step.checked_mul(k))
                    .and_then(|b| b.checked_add(ch.disp))
            };
            if ch.forwarded.iter().any(|k| disp(*k).is_none()) {
                continue;
            }
            let mut fwd: HashMap<i64, u8> = HashMap::new();
            for &k in &ch.forwarded {
                let v = self.vreg()?;
                let d = disp(k).unwrap_or_default();
                self.e.vload(Width::Scalar, v, Mem::base(p).disp(d));
                fwd.insert(k, v);
                regs.push(v);
            }
            let mut cap: HashMap<i64, u8> = HashMap::new();
            for &j in &ch.captured {
                let v = self.vreg()?;
                cap.insert(j, v);
                regs.push(v);
            }
            let written = if stored(ch) {
                let v = self.vreg()?;
                regs.push(v);
                self.inner_mut()?.wcap.insert(ch.write, v);
                Some(v)
            } else {
                None
            };
            let inner = self.inner_mut()?;
            for key in &ch.late {
                if let Some(v) = written {
                    inner.fwd.insert(*key, v);
                }
            }
            for (key, k) in &ch.reads {
                if let Some(v) = fwd.get(k) {
                    inner.fwd.insert(*key, *v);
                } else if let Some(v) = cap.get(k) {
                    inner.capture.insert(*key, *v);
                }
            }
            for &k in &ch.forwarded {
                let from = match ch.source(k + 1) {
                    Source::Written => written,
                    Source::Forwarded(j) => fwd.get(&j).copied(),
                    Source::Captured(j) => cap.get(&j).copied(),
                };
                let from =
                    from.ok_or_else(|| Error::Internal("a carried value without a source".into()))?;
                rotate.push((fwd[&k], from));
            }
        }
        Ok((regs, rotate))
    }
}
