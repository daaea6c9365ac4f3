//! Value-based (last-writer) dataflow: [`compute_flow`].

use crate::access::AccessInfo;
use crate::error::{Error, Result};
use presburger::{BasicMap, Int, Map, Space, Tuple, UnionMap};

/// The four results of [`compute_flow`], with the meaning of isl's
/// `isl_union_access_info_compute_flow`.
///
/// Dependences relate statement instances (the domains of the access
/// relations, tags included): `source instance -> sink instance`. The
/// no-source relations are subsets of the sink access relation.
#[derive(Debug, Clone)]
pub struct Flow {
    /// Dependences from the definite last writer: the source is the unique
    /// last must-source before the sink, and no may-source (and no other
    /// must-source or kill) executes between it and the sink or at its time.
    pub must_dependence: UnionMap,
    /// All candidate sources: the last must-source(s) and every may-source
    /// executed at or after their time and before the sink; all earlier
    /// may-sources when there is no must-source (or kill) before the sink.
    /// Contains `must_dependence`.
    pub may_dependence: UnionMap,
    /// Sink accesses with no must-source, no kill and no may-source before them.
    pub must_no_source: UnionMap,
    /// Sink accesses with no must-source and no kill before them: they may
    /// read a value from before the analysed region.
    pub may_no_source: UnionMap,
}

/// The schedule, normalised: one part per access domain (tagged domains
/// included), all mapping to one anonymous time space `[t0, ..., t(n-1)]`.
#[derive(Debug, Clone)]
pub(crate) struct Timing {
    /// Instances to time.
    pub sched: UnionMap,
    /// Time to instances.
    pub sched_inv: UnionMap,
    /// `{ t -> t' : t >lex t' }`.
    pub gt: UnionMap,
    /// `{ t -> t' : t <=lex t' }`.
    pub le: UnionMap,
}

/// The map `{ R[s0..s(k-1)] -> [s0, ..., s(k-1), 0, ..., 0] }` (n output dimensions).
fn pad_map(from: Tuple, k: usize, n: usize) -> Map {
    let space = Space::map(Vec::new(), from, Tuple::anonymous(n));
    let mut b = BasicMap::universe(space);
    let len = b.row_len();
    for i in 0..n {
        let mut row = vec![Int::ZERO; len];
        row[1 + k + i] = Int::ONE;
        if i < k {
            row[1 + i] = Int::from(-1);
        }
        b.add_eq(row);
    }
    Map::from_basic(b)
}

fn accesses(info: &AccessInfo) -> [&UnionMap; 4] {
    [
        info.sink(),
        info.must_source(),
        info.may_source(),
        info.kill(),
    ]
}

impl Timing {
    pub(crate) fn new(info: &AccessInfo) -> Result<Timing> {
        Timing::from_schedule(info.schedule(), &accesses(info))
    }

    /// Normalise `schedule` so that it covers the domains of all `accs`.
    pub(crate) fn from_schedule(schedule: &UnionMap, accs: &[&UnionMap]) -> Result<Timing> {
        if schedule.maps().iter().any(Map::is_set) {
            return Err(Error::Invalid(
                "the schedule must be a relation, not a set".into(),
            ));
        }
        let n = schedule
            .maps()
            .iter()
            .map(|m| m.space().n_out())
            .max()
            .unwrap_or(0);
        let mut sched = UnionMap::empty(schedule.params().to_vec());
        for m in schedule.maps() {
            let k = m.space().n_out();
            if k == n && m.space().range.name.is_none() && !m.space().range.is_nested() {
                sched.add_map(m.clone())?;
            } else {
                sched.add_map(m.apply_range(&pad_map(m.space().range.clone(), k, n))?)?;
            }
        }
        for acc in accs {
            for m in acc.maps() {
                if m.is_set() {
                    return Err(Error::Invalid(format!(
                        "an access must be a relation, found the set {m}"
                    )));
                }
                let dom = m.space().domain.clone().expect("relation");
                if sched
                    .maps()
                    .iter()
                    .any(|s| s.space().domain.as_ref() == Some(&dom))
                {
                    continue;
                }
                let plain = m.space().domain_space().unwrap().and_then(|u| {
                    let inner = u.domain.clone()?;
                    sched
                        .maps()
                        .iter()
                        .find(|s| s.space().domain.as_ref() == Some(&inner))
                        .cloned()
                });
                match plain {
                    Some(s) => {
                        let tagged = m.domain()?.unwrap()?.domain_map()?.apply_range(&s)?;
                        sched.add_map(tagged)?;
                    }
                    None => {
                        return Err(Error::Invalid(format!(
                            "no schedule for the instances of {}",
                            m.domain()?
                        )))
                    }
                }
            }
        }
        let time = UnionMap::from_map(Map::universe(Space::set(Vec::new(), Tuple::anonymous(n))));
        let lt = time.lex_order(&time, true, true)?;
        let gt = lt.reverse()?;
        let le = time.lex_order(&time, false, true)?;
        let sched_inv = sched.reverse()?;
        Ok(Timing {
            sched,
            sched_inv,
            gt,
            le,
        })
    }
}

/// The set of domain points of `m` with at least two distinct images.
fn multiple_images(m: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(m.params().to_vec());
    let parts = m.maps();
    let doms: Vec<Map> = parts
        .iter()
        .map(Map::domain)
        .collect::<presburger::Result<_>>()?;
    for (i, x) in parts.iter().enumerate() {
        let extra = x.subtract(&x.lexmax()?)?;
        out.add_map(extra.domain()?)?;
        for (j, y) in parts.iter().enumerate().skip(i + 1) {
            if x.space().domain == y.space().domain {
                out.add_map(doms[i].intersect(&doms[j])?)?;
            }
        }
    }
    Ok(out)
}

/// Dependences `p -> x` from wrapped sink accesses to source instances,
/// turned into `x -> sink instance`.
fn to_instances(pairs: &UnionMap, sink: &UnionMap) -> Result<UnionMap> {
    Ok(pairs.reverse()?.apply_range(&sink.domain_map()?)?)
}

/// Array dataflow analysis: for every sink access, its last source(s).
///
/// Every sink access `S[i] -> A[a]` is considered separately (a sink instance
/// reading several elements gets one answer per element). The sources of an
/// element are the must-, may- and kill accesses to it executed strictly
/// before the sink; among the must-sources and kills, those at the latest time
/// `T` are the *last* ones. A dependence is a must dependence when exactly one
/// instance is last, it is a must-source (not a kill), and no may-source other
/// than itself executes at or after `T`. See [`Flow`] for the four results.
///
/// ```
/// use dataflow::{compute_flow, AccessInfo};
/// use presburger::UnionMap;
/// let info = AccessInfo::from_sink("[n] -> { R[i] -> A[i - 1] : 0 <= i < n }".parse().unwrap())
///     .with_must_source("[n] -> { W[i] -> A[i] : 0 <= i < n }".parse().unwrap())
///     .with_schedule("{ W[i] -> [i, 0]; R[i] -> [i, 1] }".parse().unwrap());
/// let flow = compute_flow(&info).unwrap();
/// let want: UnionMap = "[n] -> { W[i] -> R[i + 1] : 0 <= i < n - 1 }".parse().unwrap();
/// assert!(flow.must_dependence.is_equal(&want).unwrap());
/// let live_in: UnionMap = "[n] -> { R[0] -> A[-1] : n > 0 }".parse().unwrap();
/// assert!(flow.may_no_source.is_equal(&live_in).unwrap());
/// ```
pub fn compute_flow(info: &AccessInfo) -> Result<Flow> {
    let timing = Timing::new(info)?;
    compute_flow_with(info, &timing)
}

pub(crate) fn compute_flow_with(info: &AccessInfo, tm: &Timing) -> Result<Flow> {
    let sink = info.sink();
    let trace = Trace::new();
    // Wrapped sink accesses p = [S[i] -> A[a]].
    let p_all = sink.wrap()?;
    trace.step("p_all", &p_all);
    let p_elem = sink.range_map()?;
    trace.step("p_elem", &p_elem);
    let p_time = sink.domain_map()?.apply_range(&tm.sched)?;
    trace.step("p_time", &p_time);
    // p -> x : time(x) < time(sink of p), for every scheduled x.
    let before = clean(&p_time.apply_range(&tm.gt)?.apply_range(&tm.sched_inv)?)?;
    trace.step("before", &before);
    let cand = |src: &UnionMap| -> Result<UnionMap> {
        if src.maps().is_empty() {
            return Ok(UnionMap::empty(Vec::new()));
        }
        clean(&p_elem.apply_range(&src.reverse()?)?.intersect(&before)?)
    };
    let c_must = cand(info.must_source())?;
    trace.step("c_must", &c_must);
    let c_kill = cand(info.kill())?;
    trace.step("c_kill", &c_kill);
    let c_may = cand(info.may_source())?;
    trace.step("c_may", &c_may);
    let c_src = if c_kill.maps().is_empty() {
        c_must.clone()
    } else {
        clean(&c_must.union(&c_kill)?)?
    };
    trace.step("c_src", &c_src);

    // Latest time of a must-source or kill, per sink access.
    let t_last = c_src.apply_range(&tm.sched)?.lexmax()?;
    trace.step("t_last", &t_last);
    let has_last = t_last.domain()?;
    trace.step("has_last", &has_last);
    // All must-sources and kills at that time, and the must-sources among them.
    let m_all = clean(&c_src.intersect(&t_last.apply_range(&tm.sched_inv)?)?)?;
    trace.step("m_all", &m_all);
    let m_must = if c_kill.maps().is_empty() {
        m_all.clone()
    } else {
        clean(&m_all.intersect(&c_must)?)?
    };
    trace.step("m_must", &m_must);
    // May-sources at or after the last must-source / kill.
    let may_after = if c_may.maps().is_empty() {
        c_may.clone()
    } else {
        clean(&c_may.intersect(&t_last.apply_range(&tm.le)?.apply_range(&tm.sched_inv)?)?)?
    };
    trace.step("may_after", &may_after);
    let no_last = clean(&p_all.subtract(&has_last)?)?;
    trace.step("no_last", &no_last);
    let may_nolast = clean(&c_may.intersect_domain(&no_last)?)?;
    trace.step("may_nolast", &may_nolast);

    // A must dependence is demoted to a may dependence when several instances
    // are last, or a may-source other than the last source runs at or after it.
    let demote = clean(&multiple_images(&m_all)?.union(&may_after.subtract(&m_all)?.domain()?)?)?;
    trace.step("demote", &demote);
    let must_pairs = if demote.is_empty()? {
        m_must.clone()
    } else {
        clean(&m_must.subtract(&m_must.intersect_domain(&demote)?)?)?
    };
    trace.step("must_pairs", &must_pairs);
    let may_pairs = clean(&m_must.union(&may_after)?.union(&may_nolast)?)?;
    trace.step("may_pairs", &may_pairs);

    let must_dependence = clean(&to_instances(&must_pairs, sink)?)?;
    trace.step("must_dependence", &must_dependence);
    let may_dependence = clean(&to_instances(&may_pairs, sink)?)?;
    trace.step("may_dependence", &may_dependence);
    let must_no_source = if c_may.maps().is_empty() {
        no_last.clone()
    } else {
        clean(&no_last.subtract(&c_may.domain()?)?)?
    };
    trace.step("must_no_source", &must_no_source);
    let must_no_source = must_no_source.unwrap()?;
    trace.step("must_no_source", &must_no_source);
    let may_no_source = no_last.unwrap()?;
    trace.step("may_no_source", &may_no_source);
    Ok(Flow {
        must_dependence,
        may_dependence,
        must_no_source,
        may_no_source,
    })
}

/// Step timing printed to stderr when `DATAFLOW_TRACE` is set.
struct Trace(Option<std::time::Instant>);

impl Trace {
    fn new() -> Trace {
        Trace(std::env::var_os("DATAFLOW_TRACE").map(|_| std::time::Instant::now()))
    }

    fn step(&self, name: &str, u: &UnionMap) {
        if let Some(t) = self.0 {
            let n: usize = u.maps().iter().map(|m| m.basic_maps().len()).sum();
            eprintln!(
                "dataflow: {name:14} {:>10.3} ms, {n} disjuncts",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}

/// Drop empty and redundant disjuncts (and empty parts).
fn clean(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        let c = m.coalesce()?;
        if !c.basic_maps().is_empty() {
            out.add_map(c)?;
        }
    }
    Ok(out)
}
