//! AST build options: how the loops of each schedule dimension are
//! generated (isl's `separate`, `atomic` and `unroll` loop types, the
//! `isolate` option of schedule-tree bands and the `separation_class`
//! option of schedule maps).
//!
//! In a `.in` input the options are a union map from the schedule space to
//! an option, `{ [t0, t1] -> separate[x] }`: the option applies to
//! dimension `x` at the scheduled times in its domain. An option that
//! holds at every scheduled time is a [`LoopKind`] of the dimension; one
//! restricted to part of the schedule space (`{ [i] -> unroll[0] : i < 4 }`)
//! is a [`Rule`]: where the dimension is generated, the times it covers
//! (projected on the dimensions up to `x`) are scanned apart from the
//! others, with its loop type, when they are ordered along `x`.
//! `separation_class[[x] -> [c]]` makes a rule per class `c` that only
//! separates (the loop type stays the dimension's).
//!
//! In a schedule tree a band has `options:` such as `{ unroll[1] }`
//! (member 1 of the band) or `{ atomic[*] }` (every member); they hold for
//! the band's own times (a rule when other bands share the dimension).
//! `isolate[[O] -> [I]]` (`O` the outer bands' members, `I` the band's)
//! gives an [`Isolate`]: at each member of the band, the convex hull of
//! the isolated times (projected on the dimensions up to the member) is
//! scanned apart from the times before it, after it, and those beside it
//! (other outer values), with the loop types `[isolate[] -> unroll[x]]`;
//! the other parts use the band's other options.
//!
//! Options change the shape of the code, never the instances executed or
//! their order. An unknown option or an option of the wrong shape is an
//! error.

use crate::error::{Error, Result};
use crate::rows::{remap, set_space};
use presburger::{BasicMap, Int, Map, Set, TupleKind, UnionMap};

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

/// An option that holds on part of the schedule space.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The schedule dimension it applies to.
    pub dim: usize,
    /// The loop type of its part (`None`: a separation class, which
    /// only separates; the part keeps the dimension's loop type).
    pub kind: Option<LoopKind>,
    /// Where it holds: a set of schedule times (its dimensions are the
    /// first schedule dimensions; later ones are unconstrained).
    pub region: Set,
}

/// The `isolate` option of a band.
#[derive(Clone, Debug)]
pub struct Isolate {
    /// The band's members (schedule dimensions).
    pub dims: std::ops::Range<usize>,
    /// The isolated times (over the schedule dimensions up to the band's
    /// last member), inside the band's own times.
    pub set: Set,
    /// The loop type of each member in the isolated part.
    pub kinds: Vec<LoopKind>,
}

/// The loop kinds of the schedule dimensions, with the options that hold
/// on part of the schedule space.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `kinds[d]` for dimension `d` (missing: [`LoopKind::Default`]).
    pub kinds: Vec<LoopKind>,
    /// Options restricted to part of the schedule space, in input order.
    pub rules: Vec<Rule>,
    /// Isolated parts of bands.
    pub isolates: Vec<Isolate>,
}

impl Options {
    /// The kind of dimension `d` (where no rule or isolation applies).
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

    /// True if some rule or isolation concerns dimension `d`.
    pub fn is_split(&self, d: usize) -> bool {
        self.rules.iter().any(|r| r.dim == d) || self.isolates.iter().any(|i| i.dims.contains(&d))
    }

    /// The options of a `.in` input for `schedule`. An error names the
    /// offending option (the caller knows where it is in the text).
    pub fn from_union_map(options: &UnionMap, schedule: &UnionMap) -> Result<Options> {
        let mut out = Options::default();
        for m in options.maps() {
            let name = option_name(m)?;
            let space = m.space();
            if name == "isolate" {
                return Err(Error::Unsupported(
                    "option `isolate` in a schedule map (it is a band option of schedule trees)"
                        .into(),
                ));
            }
            if name == "separation_class" {
                out.add_classes(m, schedule)?;
                continue;
            }
            let kind = loop_kind(&name).expect("checked by option_name");
            if space.range.is_nested() || space.n_out() != 1 || m.is_set() {
                return Err(Error::Unsupported(format!(
                    "option `{name}` must be `[t..] -> {name}[x]`"
                )));
            }
            let d = space.n_in();
            for x in 0..d {
                let region = option_region(m, &[x], d, schedule.params())?;
                out.add_rule(x, Some(kind), region, schedule, d)?;
            }
        }
        Ok(out)
    }

    /// `separation_class[[x] -> [c]]`: a rule per dimension and class.
    fn add_classes(&mut self, m: &Map, schedule: &UnionMap) -> Result<()> {
        let space = m.space();
        let shape_ok = !m.is_set()
            && match &space.range.kind {
                TupleKind::Nested(a, b) => a.dim() == 1 && b.dim() == 1,
                _ => false,
            };
        if !shape_ok {
            return Err(Error::Unsupported(
                "option `separation_class` must be `[t..] -> separation_class[[x] -> [c]]`".into(),
            ));
        }
        let d = space.n_in();
        for x in 0..d {
            // the classes of dimension x: the values of c, one at a time
            let mut fixed = Map::empty(space.clone());
            for b in m.basic_maps() {
                let mut b = b.clone();
                let mut r = vec![Int::ZERO; b.row_len()];
                r[b.off_out()] = Int::ONE;
                r[0] = Int::from(-(x as i64));
                b.add_eq(r);
                fixed.add_basic(b)?;
            }
            let mut rest = fixed.range()?;
            for _ in 0..MAX_CLASSES {
                let Some(point) = rest
                    .basic_maps()
                    .iter()
                    .find_map(|b| b.sample().transpose())
                else {
                    break;
                };
                let point = point?;
                let np = rest.space().n_param();
                let c = point[np + 1].clone();
                let mut class = Map::empty(space.clone());
                for b in fixed.basic_maps() {
                    let mut b = b.clone();
                    let mut r = vec![Int::ZERO; b.row_len()];
                    r[b.off_out() + 1] = Int::ONE;
                    r[0] = -&c;
                    b.add_eq(r);
                    class.add_basic(b)?;
                }
                let mut one = Map::empty(rest.space().clone());
                let mut b = BasicMap::universe(rest.space().clone());
                let mut r = vec![Int::ZERO; b.row_len()];
                r[b.off_out() + 1] = Int::ONE;
                r[0] = -&c;
                b.add_eq(r);
                one.add_basic(b)?;
                rest = rest.subtract(&one)?;
                let region = class.domain()?;
                let region = align(&region, schedule.params(), d, &|c| c)?;
                self.add_rule(x, None, region, schedule, d)?;
            }
        }
        Ok(())
    }

    /// A rule of dimension `x` on `region` (a set of `d`-dimensional
    /// times): a kind of the dimension if it holds at every time of the
    /// statements with `d` schedule dimensions, nothing if at none.
    fn add_rule(
        &mut self,
        x: usize,
        kind: Option<LoopKind>,
        region: Set,
        schedule: &UnionMap,
        d: usize,
    ) -> Result<()> {
        match coverage(&region, schedule, d)? {
            Coverage::None => {}
            // (a class holding everywhere separates nothing; of two
            // kinds holding everywhere, the first is kept)
            Coverage::All => {
                if let Some(k) = kind {
                    if self.kind(x) == LoopKind::Default {
                        self.set(x, k)
                    }
                }
            }
            Coverage::Part => self.rules.push(Rule {
                dim: x,
                kind,
                region,
            }),
        }
        Ok(())
    }

    /// The options of a band (`{ separate[x] }`, `{ atomic[*] }`,
    /// `{ isolate[[O] -> [I]] }`, `{ [isolate[] -> unroll[x]] }`), for its
    /// `members` dimensions starting at schedule dimension `first`, with
    /// the schedule dimensions of the outer bands' members (`outer`) and
    /// the band's own times (`region`, over the first `first + members`
    /// dimensions; `None`: everywhere, and the isolated part is only
    /// checked for its shape).
    pub fn add_band(
        &mut self,
        options: &UnionMap,
        first: usize,
        members: usize,
        outer: &[usize],
        region: Option<&Set>,
    ) -> Result<()> {
        let mut iso_kinds = vec![LoopKind::Default; members];
        let mut iso_sets: Vec<Set> = Vec::new();
        let mut kinds = vec![None; members];
        for m in options.maps() {
            let name = option_name(m)?;
            if name == "separation_class" {
                return Err(Error::Unsupported(
                    "band option `separation_class` (a schedule-map option)".into(),
                ));
            }
            if name == "isolate" {
                let shape = match &m.space().range.kind {
                    TupleKind::Nested(a, b) if m.is_set() => Some((a.clone(), b.clone())),
                    _ => None,
                };
                let Some((a, b)) = shape else {
                    return Err(Error::Unsupported(
                        "band option `isolate` must be `isolate[[outer] -> [band]]` or `[isolate[] -> kind[x]]`"
                            .into(),
                    ));
                };
                if a.name.as_deref() == Some("isolate") {
                    // `[isolate[] -> kind[x]]`: the isolated part's loop type
                    let kind = loop_kind(b.name.as_deref().unwrap_or("")).expect("checked");
                    for (j, slot) in iso_kinds.iter_mut().enumerate() {
                        if member_holds(m, j)? {
                            *slot = kind;
                        }
                    }
                    continue;
                }
                // (the outer bands are only known when flattening: a
                // check of the band alone, `region` = None, skips them)
                if b.dim() != members || (region.is_some() && a.dim() != outer.len()) {
                    return Err(Error::Unsupported(format!(
                        "option `isolate` with {} outer and {} band dimensions (the band has {} outer and {} own)",
                        a.dim(),
                        b.dim(),
                        outer.len(),
                        members
                    )));
                }
                let params = match region {
                    Some(r) => {
                        presburger::space::merge_params(&r.space().params, &m.space().params)
                    }
                    None => m.space().params.to_vec(),
                };
                let np = params.len();
                let k = outer.len();
                let set = align(m, &params, first + members, &|c| {
                    if c <= np {
                        c
                    } else if c <= np + k {
                        1 + np + outer[c - 1 - np]
                    } else {
                        1 + np + first + (c - 1 - np - k)
                    }
                })?;
                let set = match region {
                    Some(r) => {
                        let mut r = r.clone();
                        r.align_params(&params);
                        set.intersect(&r)?
                    }
                    None => set,
                };
                iso_sets.push(set);
                continue;
            }
            let kind = loop_kind(&name).expect("checked by option_name");
            if !m.is_set() || m.space().n_out() != 1 || m.space().range.is_nested() {
                return Err(Error::Unsupported(format!(
                    "band option `{name}` must be `{name}[x]`"
                )));
            }
            for (j, slot) in kinds.iter_mut().enumerate() {
                // a member's option holds for every parameter value
                if member_holds(m, j)? {
                    *slot = Some(kind);
                }
            }
        }
        for (j, k) in kinds.into_iter().enumerate() {
            let Some(k) = k else { continue };
            match region {
                None => self.set(first + j, k),
                Some(r) => self.rules.push(Rule {
                    dim: first + j,
                    kind: Some(k),
                    region: r.clone(),
                }),
            }
        }
        for set in iso_sets.into_iter().filter(|_| region.is_some()) {
            self.isolates.push(Isolate {
                dims: first..first + members,
                set,
                kinds: iso_kinds.clone(),
            });
        }
        Ok(())
    }

    /// Rules of a tree's bands that hold at every scheduled time become
    /// kinds of their dimensions (`schedule`: the flattened schedule).
    pub fn resolve(mut self, schedule: &UnionMap) -> Result<Options> {
        let d = schedule
            .maps()
            .iter()
            .map(|m| m.space().n_out())
            .max()
            .unwrap_or(0);
        let rules = std::mem::take(&mut self.rules);
        for r in rules {
            let k = r.region.space().n_out();
            let region = align(&r.region, &r.region.space().params, d.max(k), &|c| c)?;
            self.add_rule(r.dim, r.kind, region, schedule, d)?;
        }
        Ok(self)
    }
}

/// Most separation classes read per dimension (more are not applied).
const MAX_CLASSES: usize = 16;

/// True if the band option `m` (`kind[x]`) holds for member `j` at every
/// parameter value.
fn member_holds(m: &Map, j: usize) -> Result<bool> {
    let mut b = BasicMap::universe(m.space().clone());
    let mut r = vec![Int::ZERO; b.row_len()];
    r[b.off_out()] = Int::ONE;
    r[0] = Int::from(-(j as i64));
    b.add_eq(r);
    Ok(Map::from_basic(b).is_subset(m)?)
}

/// `m` (a set over some dimensions and parameters) as a set of `d`
/// dimensions with the parameters `params`, its columns moved by `colmap`
/// (after the parameters are aligned).
fn align(m: &Map, params: &[String], d: usize, colmap: &dyn Fn(usize) -> usize) -> Result<Set> {
    let mut m = m.clone();
    m.align_params(params);
    let space = set_space(params, d);
    let mut out = Map::empty(space.clone());
    for b in m.basic_maps() {
        out.add_basic(remap(b, &space, colmap))?;
    }
    Ok(out)
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
            TupleKind::Nested(a, b) if a.name.as_deref() == Some("isolate") => {
                let inner = b.name.clone().unwrap_or_default();
                if loop_kind(&inner).is_none() || b.dim() != 1 || a.dim() != 0 {
                    return Err(Error::Unsupported(format!(
                        "option `isolate[] -> {inner}[..]` (expected separate, atomic or unroll of one member)"
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

/// `{ t : t -> kind[x..] in m }` for the range values `x`, as a set of
/// `d` schedule dimensions.
fn option_region(m: &Map, x: &[usize], d: usize, params: &[String]) -> Result<Set> {
    let params = presburger::space::merge_params(&m.space().params, params);
    let mut holds = Map::empty(m.space().clone());
    for b in m.basic_maps() {
        let mut b = b.clone();
        for (k, v) in x.iter().enumerate() {
            let mut r = vec![Int::ZERO; b.row_len()];
            r[b.off_out() + k] = Int::ONE;
            r[0] = Int::from(-(*v as i64));
            b.add_eq(r);
        }
        holds.add_basic(b)?;
    }
    align(&holds.domain()?, &params, d, &|c| c)
}

enum Coverage {
    None,
    Part,
    All,
}

/// Whether `region` (a set of `d'`-dimensional times, `d' >= d`, only the
/// first `d` constrained by the statements) contains all, some or none of
/// the scheduled times of the statements with `d` schedule dimensions.
fn coverage(region: &Set, schedule: &UnionMap, d: usize) -> Result<Coverage> {
    let params = presburger::space::merge_params(&region.space().params, schedule.params());
    let k = region.space().n_out();
    let region = align(region, &params, k, &|c| c)?;
    let (mut all, mut some, mut any) = (true, false, false);
    for s in schedule.maps() {
        if s.space().n_out() != d || d > k {
            continue;
        }
        let mut s = s.clone();
        s.align_params(&params);
        let times = align(&s.range()?, &params, k, &|c| c)?;
        if times.is_empty()? {
            continue;
        }
        any = true;
        let inside = times.intersect(&region)?;
        if inside.is_empty()? {
            all = false;
        } else {
            some = true;
            if !times.is_subset(&region)? {
                all = false;
            }
        }
    }
    Ok(if !any || !some {
        Coverage::None
    } else if all {
        Coverage::All
    } else {
        Coverage::Part
    })
}
