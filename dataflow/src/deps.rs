//! Memory dependences on top of [`compute_flow`]: flow
//! (read after write), anti (write after read) and output (write after write)
//! dependences, and live-in / live-out accesses.

use crate::access::AccessInfo;
use crate::error::Result;
use crate::flow::{compute_flow, compute_may_dependence_sharing, Flow, Joins};
use presburger::relation::time_reversal;
use presburger::{Tuple, UnionMap};

/// The memory accesses of a program region and its schedule.
///
/// Access relations map statement instances (optionally tagged with a
/// reference id, `[S[i] -> R0[]] -> A[i]`) to array elements.
#[derive(Debug, Clone, Default)]
pub struct MemoryAccesses {
    /// Reads.
    pub reads: UnionMap,
    /// Writes that certainly happen.
    pub must_writes: UnionMap,
    /// Writes that may happen (conditional or over-approximated).
    pub may_writes: UnionMap,
    /// Kills: the element's value is dead from here on.
    pub kills: UnionMap,
    /// Statement instances to time vectors (lexicographic order).
    pub schedule: UnionMap,
}

impl MemoryAccesses {
    /// Accesses with the given schedule and no accesses yet.
    pub fn new(schedule: UnionMap) -> MemoryAccesses {
        MemoryAccesses {
            schedule,
            ..MemoryAccesses::default()
        }
    }

    /// Set the reads.
    pub fn with_reads(mut self, reads: UnionMap) -> MemoryAccesses {
        self.reads = reads;
        self
    }

    /// Set the must-writes.
    pub fn with_must_writes(mut self, w: UnionMap) -> MemoryAccesses {
        self.must_writes = w;
        self
    }

    /// Set the may-writes.
    pub fn with_may_writes(mut self, w: UnionMap) -> MemoryAccesses {
        self.may_writes = w;
        self
    }

    /// Set the kills.
    pub fn with_kills(mut self, k: UnionMap) -> MemoryAccesses {
        self.kills = k;
        self
    }

    /// The accesses of a program [`Model`](scop::Model) and its original
    /// schedule, untagged: reads, must-writes, the writes that only may
    /// happen (the model's must-writes are not repeated as may-writes), kills.
    ///
    /// ```
    /// use dataflow::MemoryAccesses;
    /// let m = scop::Model::from_source(
    ///     "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }").unwrap();
    /// let acc = MemoryAccesses::from_model(&m);
    /// assert!(acc.reads.is_equal(m.reads()).unwrap());
    /// assert!(acc.may_writes.is_empty().unwrap());
    /// ```
    pub fn from_model(model: &scop::Model) -> MemoryAccesses {
        MemoryAccesses {
            reads: model.reads().clone(),
            must_writes: model.must_writes().clone(),
            may_writes: model.conditional_writes().clone(),
            kills: model.kills().clone(),
            schedule: model.schedule().clone(),
        }
    }

    /// Like [`from_model`](Self::from_model) with every access tagged by its
    /// reference (`[S[i] -> R0[]] -> A[i]`), so that dependences tell the
    /// references apart; the schedule stays on the statement instances.
    pub fn from_model_tagged(model: &scop::Model) -> Result<MemoryAccesses> {
        let must = model.tagged_must_writes();
        let may = model.tagged_may_writes().subtract(must)?;
        Ok(MemoryAccesses {
            reads: model.tagged_reads().clone(),
            must_writes: must.clone(),
            may_writes: may,
            kills: model.tagged_kills().clone(),
            schedule: model.schedule().clone(),
        })
    }
}

/// Flow, anti and output dependences and live-in / live-out accesses of a
/// program [`Model`](scop::Model), on its untagged accesses and original
/// schedule ([`MemoryAccesses::from_model`] then [`compute_dependences`]).
///
/// ```
/// use presburger::UnionMap;
/// let m = scop::Model::from_source(
///     "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }").unwrap();
/// let d = dataflow::compute_dependences_of(&m).unwrap();
/// let want: UnionMap = "[N] -> { S0[i] -> S0[i + 1] : 1 <= i < N - 1 }".parse().unwrap();
/// assert!(d.flow.is_equal(&want).unwrap());
/// let live_in: UnionMap = "[N] -> { S0[1] -> A[0] : N >= 2 }".parse().unwrap();
/// assert!(d.live_in.is_equal(&live_in).unwrap());
/// ```
pub fn compute_dependences_of(model: &scop::Model) -> Result<Dependences> {
    compute_dependences(&MemoryAccesses::from_model(model))
}

/// Dependences between statement instances (`source -> sink`), in the
/// (possibly tagged) instance spaces of the accesses.
#[derive(Debug, Clone)]
pub struct Dependences {
    /// Read-after-write dependences: every write that may provide the value
    /// read (the `may_dependence` of the last-writer analysis).
    pub flow: UnionMap,
    /// The read-after-write dependences from a definite last writer.
    pub must_flow: UnionMap,
    /// Write-after-read dependences: from the reads of an element after its
    /// last write before the sink write, to that sink write.
    pub anti: UnionMap,
    /// Write-after-write dependences: from the last write(s) before a write
    /// of the same element.
    pub output: UnionMap,
    /// Read accesses that may read a value from before the region.
    pub live_in: UnionMap,
    /// Write accesses whose value may still be there after the region (no
    /// later must-write or kill of the element).
    pub live_out: UnionMap,
}

impl Dependences {
    /// The same dependences with reference tags dropped: `[S[i] -> R[]]`
    /// becomes `S[i]` wherever a domain or range is tagged.
    pub fn untagged(&self) -> Result<Dependences> {
        Ok(Dependences {
            flow: untag(&self.flow)?,
            must_flow: untag(&self.must_flow)?,
            anti: untag(&self.anti)?,
            output: untag(&self.output)?,
            live_in: untag(&self.live_in)?,
            live_out: untag(&self.live_out)?,
        })
    }
}

/// Drop reference tags: wrapped domains `[S[i] -> R[]]` and ranges of relations
/// become `S[i]`; other tuples are unchanged.
///
/// ```
/// use presburger::UnionMap;
/// let tagged: UnionMap = "{ [S[i] -> R0[]] -> [T[j] -> R1[]] : j = i + 1 }".parse().unwrap();
/// let plain = dataflow::deps::untag(&tagged).unwrap();
/// assert!(plain.is_equal(&"{ S[i] -> T[i + 1] }".parse().unwrap()).unwrap());
/// ```
pub fn untag(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        let mut m = m.clone();
        if m.is_set() {
            out.add_map(m)?;
            continue;
        }
        if m.space().domain.as_deref().is_some_and(Tuple::is_nested) {
            let proj = m.domain()?.unwrap()?.domain_map()?;
            m = proj.reverse()?.apply_range(&m)?;
        }
        if m.space().range.is_nested() {
            let proj = m.range()?.unwrap()?.domain_map()?;
            m = m.apply_range(&proj)?;
        }
        out.add_map(m)?;
    }
    Ok(out)
}

/// The schedule run backwards.
fn reversed_schedule(s: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(s.params().to_vec());
    for m in s.maps() {
        out.add_map(m.apply_range(&time_reversal(m.space().range.clone()))?)?;
    }
    Ok(out)
}

/// Compute flow, anti and output dependences and live-in / live-out accesses.
///
/// * flow: `compute_flow` with the reads as sinks, must-writes as must-sources,
///   may-writes as may-sources (and the kills);
/// * output: the same with the writes as sinks;
/// * anti: the writes as sinks, must-writes as must-sources and reads as
///   may-sources, keeping the dependences from reads (of the written element);
/// * live-out: the writes with no later must-write or kill of their element
///   (the may-no-source of a last-writer analysis on the reversed schedule).
///
/// ```
/// use dataflow::deps::{compute_dependences, MemoryAccesses};
/// use presburger::UnionMap;
/// let u = |s: &str| s.parse::<UnionMap>().unwrap();
/// let acc = MemoryAccesses::new(u("[n] -> { S[i] -> [i] }"))
///     .with_reads(u("[n] -> { S[i] -> s[] : 0 <= i < n }"))
///     .with_must_writes(u("[n] -> { S[i] -> s[] : 0 <= i < n }"));
/// let d = compute_dependences(&acc).unwrap();
/// assert!(d.flow.is_equal(&u("[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }")).unwrap());
/// assert!(d.live_in.is_equal(&u("[n] -> { S[0] -> s[] : n > 0 }")).unwrap());
/// assert!(d.live_out.is_equal(&u("[n] -> { S[n - 1] -> s[] : n > 0 }")).unwrap());
/// ```
pub fn compute_dependences(acc: &MemoryAccesses) -> Result<Dependences> {
    let (raw, anti, waw, writes) = ordering(acc)?;
    let later = AccessInfo::from_sink(writes)
        .with_must_source(acc.must_writes.clone())
        .with_kill(acc.kills.clone())
        .with_schedule(reversed_schedule(&acc.schedule)?);
    let live_out = compute_flow(&later)?.may_no_source;

    Ok(Dependences {
        flow: raw.may_dependence,
        must_flow: raw.must_dependence,
        anti,
        output: waw.may_dependence,
        live_in: raw.may_no_source,
        live_out,
    })
}

/// The flow, anti and output dependences of [`compute_dependences`] in one
/// relation (`flow ∪ anti ∪ output`), without the live-out analysis: what
/// a schedule must respect, for the price of two flow analyses (three with
/// may-writes) instead of four.
///
/// The union needs less than its parts. Let `war` be the analysis of
/// [`compute_dependences`]'s anti dependences (the writes as sinks, the
/// must-writes as must-sources, the reads as may-sources) and `waw` the one
/// of its output dependences (the may-writes as may-sources). Both have the
/// same sinks, must-sources, kills and schedule, hence the same last
/// must-sources: `war`'s pairs from a must-source are pairs of `waw`. Its
/// other pairs come from reads of the element the sink writes, so they are
/// all kept by the read-write filter that makes `anti` of `war`. Hence
/// `anti ∪ output = war ∪ waw` (no filter needed), and without may-writes
/// `waw` holds the last must-sources alone, a part of `war`: then
/// `flow ∪ anti ∪ output = flow ∪ war`.
///
/// ```
/// use presburger::UnionMap;
/// let m = scop::Model::from_source(
///     "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }").unwrap();
/// let acc = dataflow::MemoryAccesses::from_model(&m);
/// let d = dataflow::compute_dependences(&acc).unwrap();
/// let all = d.flow.union(&d.anti).unwrap().union(&d.output).unwrap();
/// assert!(dataflow::ordering_dependences(&acc).unwrap().is_equal(&all).unwrap());
/// ```
pub fn ordering_dependences(acc: &MemoryAccesses) -> Result<UnionMap> {
    let writes = acc.must_writes.union(&acc.may_writes)?;
    let base = |sink: &UnionMap, may: &UnionMap| {
        AccessInfo::from_sink(sink.clone())
            .with_kill(acc.kills.clone())
            .with_schedule(acc.schedule.clone())
            .with_must_source(acc.must_writes.clone())
            .with_may_source(may.clone())
    };
    // (only the may dependences of each analysis are needed; their
    // same-element relations are computed once for all)
    let joins = &mut Joins::default();
    let raw = compute_may_dependence_sharing(&base(&acc.reads, &acc.may_writes), joins)?;
    let war = compute_may_dependence_sharing(&base(&writes, &acc.reads), joins)?;
    let all = raw.union(&war)?;
    if acc.may_writes.is_empty()? {
        return Ok(all);
    }
    let waw = compute_may_dependence_sharing(&base(&writes, &acc.may_writes), joins)?;
    Ok(all.union(&waw)?)
}

/// The flow analyses of [`compute_dependences`] behind its flow, anti and
/// output dependences: reads from writes, writes from writes, the anti
/// pairs, and all writes.
fn ordering(acc: &MemoryAccesses) -> Result<(Flow, UnionMap, Flow, UnionMap)> {
    let writes = acc.must_writes.union(&acc.may_writes)?;
    let base = |sink: &UnionMap| {
        AccessInfo::from_sink(sink.clone())
            .with_kill(acc.kills.clone())
            .with_schedule(acc.schedule.clone())
    };

    let raw: Flow = compute_flow(
        &base(&acc.reads)
            .with_must_source(acc.must_writes.clone())
            .with_may_source(acc.may_writes.clone()),
    )?;
    let waw = compute_flow(
        &base(&writes)
            .with_must_source(acc.must_writes.clone())
            .with_may_source(acc.may_writes.clone()),
    )?;
    let war = compute_flow(
        &base(&writes)
            .with_must_source(acc.must_writes.clone())
            .with_may_source(acc.reads.clone()),
    )?;
    // Keep the anti pairs whose source reads an element the sink writes.
    let read_write = acc.reads.apply_range(&writes.reverse()?)?;
    let anti = war.may_dependence.intersect(&read_write)?.coalesce()?;
    Ok((raw, anti, waw, writes))
}
