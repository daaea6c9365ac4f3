//! The one-lexmax formulation of [`compute_flow`](crate::compute_flow), kept
//! as a test oracle for the level-by-level algorithm: per sink access, one
//! parametric lexmax over the times of all candidate sources.

use super::{clean, multiple_images, to_instances, Flow, Timing, Trace};
use crate::access::AccessInfo;
use crate::error::Result;
use presburger::UnionMap;

/// `plain` when there are no kill candidates, else `with_kills()` cleaned.
fn unless_no_kill(
    kills: &UnionMap,
    plain: &UnionMap,
    with_kills: impl FnOnce() -> presburger::Result<UnionMap>,
) -> Result<UnionMap> {
    if kills.maps().is_empty() {
        Ok(plain.clone())
    } else {
        clean(&with_kills()?)
    }
}

pub(crate) fn flow(info: &AccessInfo, tm: &Timing) -> Result<Flow> {
    let sink = info.sink();
    let trace = Trace::new();
    // Wrapped sink accesses p = [S[i] -> A[a]].
    let p_all = sink.wrap()?;
    trace.step("p_all", &p_all);
    let p_elem = sink.range_map()?;
    trace.step("p_elem", &p_elem);
    let sched_inv = tm.sched.reverse()?;
    let p_time = sink.domain_map()?.apply_range(&tm.sched)?;
    trace.step("p_time", &p_time);
    // p -> x : time(x) < time(sink of p), for every scheduled x.
    let before = clean(&p_time.apply_range(&tm.gt()?)?.apply_range(&sched_inv)?)?;
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
    let c_src = unless_no_kill(&c_kill, &c_must, || c_must.union(&c_kill))?;
    trace.step("c_src", &c_src);

    // Latest time of a must-source or kill, per sink access.
    let t_last = c_src.apply_range(&tm.sched)?.lexmax()?;
    trace.step("t_last", &t_last);
    let has_last = t_last.domain()?;
    trace.step("has_last", &has_last);
    // All must-sources and kills at that time, and the must-sources among them.
    let m_all = clean(&c_src.intersect(&t_last.apply_range(&sched_inv)?)?)?;
    trace.step("m_all", &m_all);
    let m_must = unless_no_kill(&c_kill, &m_all, || m_all.intersect(&c_must))?;
    trace.step("m_must", &m_must);
    // May-sources at or after the last must-source / kill.
    let may_after = if c_may.maps().is_empty() {
        c_may.clone()
    } else {
        clean(&c_may.intersect(&t_last.apply_range(&tm.le()?)?.apply_range(&sched_inv)?)?)?
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
