//! AST build options: how the loops of each schedule dimension are
//! generated (isl's `separate`, `atomic` and `unroll` loop types).
//!
//! In a `.in` input the options are a union map from the schedule space to
//! an option, `{ [t0, t1] -> separate[x] }`: the option applies to
//! dimension `x`. In a schedule tree a band has `options:` such as
//! `{ unroll[1] }` (member 1 of the band) or `{ atomic[*] }` (every member).
//!
//! Options change the shape of the code, never the instances executed or
//! their order. An option is applied to a dimension when it holds for
//! every scheduled time; one restricted to part of the schedule space
//! (`{ [i] -> unroll[0] : i < 4 }`) is not applied, nor are `isolate` and
//! `separation_class`, which are read and accepted. An unknown option or
//! an option of the wrong shape is an error.

use crate::error::{Error, Result};
use crate::rows::{remap, set_space};
use presburger::{Int, Map, UnionMap};

/// How the loops of one schedule dimension are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LoopKind {
    /// The generator's own choice: disjoint parts ordered along the
    /// dimension become separate loops, overlapping ones share one.
    #[default]
    Default,
    /// One loop for the dimension (no split of its domain into parts).
    Atomic,
    /// The domain is split into disjoint pieces, one per set of
    /// statements that run together, scanned one after the other (when
    /// the pieces are ordered along the dimension).
    Separate,
    /// A loop whose trip count has a constant bound is replaced by that
    /// many copies of its body (guarded where an iteration may not run).
    Unroll,
}

/// The loop kind of each schedule dimension.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `kinds[d]` for dimension `d` (missing: [`LoopKind::Default`]).
    pub kinds: Vec<LoopKind>,
}

impl Options {
    /// The kind of dimension `d`.
    pub fn kind(&self, d: usize) -> LoopKind {
        self.kinds.get(d).copied().unwrap_or_default()
    }

    /// Set the kind of dimension `d`.
    pub fn set(&mut self, d: usize, kind: LoopKind) {
        if self.kinds.len() <= d {
            self.kinds.resize(d + 1, LoopKind::Default);
        }
        self.kinds[d] = kind;
    }

    /// The options of a `.in` input for `schedule`. An error names the
    /// offending option (the caller knows where it is in the text).
    pub fn from_union_map(options: &UnionMap, schedule: &UnionMap) -> Result<Options> {
        let mut out = Options::default();
        for m in options.maps() {
            let name = option_name(m)?;
            let Some(kind) = loop_kind(&name) else {
                continue; // isolate, separation_class: accepted, not applied
            };
            let space = m.space();
            if space.range.is_nested() || space.n_out() != 1 || m.is_set() {
                return Err(Error::Unsupported(format!(
                    "option `{name}` must be `[t..] -> {name}[x]`"
                )));
            }
            let d = space.n_in();
            for x in 0..d {
                if covers(m, x, schedule, d)? {
                    out.set(x, kind);
                }
            }
        }
        Ok(out)
    }

    /// The options of a band (`{ separate[x] }`, `{ atomic[*] }`), for its
    /// `members` dimensions starting at schedule dimension `first`.
    pub fn add_band(&mut self, options: &UnionMap, first: usize, members: usize) -> Result<()> {
        for m in options.maps() {
            let name = option_name(m)?;
            let Some(kind) = loop_kind(&name) else {
                continue;
            };
            if !m.is_set() || m.space().n_out() != 1 {
                return Err(Error::Unsupported(format!(
                    "band option `{name}` must be `{name}[x]`"
                )));
            }
            for j in 0..members {
                let mut point = Map::universe(m.space().clone());
                let mut b = presburger::BasicMap::universe(m.space().clone());
                let mut r = vec![Int::ZERO; b.row_len()];
                r[b.off_out()] = Int::ONE;
                r[0] = Int::from(-(j as i64));
                b.add_eq(r);
                point = point.intersect(&Map::from_basic(b))?;
                // a member's option holds for every parameter value
                if point.is_subset(m)? {
                    self.set(first + j, kind);
                }
            }
        }
        Ok(())
    }
}

fn loop_kind(name: &str) -> Option<LoopKind> {
    match name {
        "separate" => Some(LoopKind::Separate),
        "atomic" => Some(LoopKind::Atomic),
        "unroll" => Some(LoopKind::Unroll),
        _ => None,
    }
}

/// The option's name (the range tuple's, or the domain's inside a wrapped
/// `[isolate[] -> unroll[x]]`), checked against isl's options.
fn option_name(m: &Map) -> Result<String> {
    let space = m.space();
    let name = if m.is_set() && space.range.is_nested() && space.range.name.is_none() {
        // `[isolate[] -> kind[x]]`: a loop type of the isolated part
        match &space.range.kind {
            presburger::TupleKind::Nested(a, b) if a.name.as_deref() == Some("isolate") => {
                let inner = b.name.clone().unwrap_or_default();
                if loop_kind(&inner).is_none() {
                    return Err(Error::Unsupported(format!(
                        "option `isolate[] -> {inner}[..]` (expected separate, atomic or unroll)"
                    )));
                }
                return Ok("isolate".into());
            }
            _ => String::new(),
        }
    } else {
        space.range.name.clone().unwrap_or_default()
    };
    match name.as_str() {
        "separate" | "atomic" | "unroll" | "isolate" | "separation_class" => Ok(name),
        "" => Err(Error::Unsupported(
            "an option without a name (expected separate, atomic, unroll, isolate or separation_class)"
                .into(),
        )),
        _ => Err(Error::Unsupported(format!(
            "option `{name}` (expected separate, atomic, unroll, isolate or separation_class)"
        ))),
    }
}

/// True if `{ t : t -> kind[x] in m }` contains every scheduled time of
/// the statements whose schedule has `d` dimensions (and there is one).
fn covers(m: &Map, x: usize, schedule: &UnionMap, d: usize) -> Result<bool> {
    let params = presburger::space::merge_params(&m.space().params, schedule.params());
    let space = set_space(&params, d);
    let mut mm = m.clone();
    mm.align_params(&params);
    // fix x, then the domain (the range's dimension becomes an existential)
    let mut holds = Map::empty(space.clone());
    for b in mm.basic_maps() {
        let mut b = b.clone();
        let mut r = vec![Int::ZERO; b.row_len()];
        r[b.off_out()] = Int::ONE;
        r[0] = Int::from(-(x as i64));
        b.add_eq(r);
        let dom = Map::from_basic(b).domain()?;
        for db in dom.basic_maps() {
            holds.add_basic(remap(db, &space, &|c| c))?;
        }
    }
    let mut any = false;
    for s in schedule.maps() {
        if s.space().n_out() != d {
            continue;
        }
        let mut s = s.clone();
        s.align_params(&params);
        let range = s.range()?;
        let mut times = Map::empty(space.clone());
        for b in range.basic_maps() {
            times.add_basic(remap(b, &space, &|c| c))?;
        }
        if !times.is_subset(&holds)? {
            return Ok(false);
        }
        any = true;
    }
    Ok(any)
}
