//! The input of the analysis: accesses and a schedule.

use presburger::UnionMap;

/// Access information: sink accesses, must-, may- and kill accesses, and a schedule.
///
/// Every access relation maps statement instances (optionally tagged with a
/// reference id, `[S[i] -> R3[]]`) to array elements; a zero-dimensional array
/// (`c[]`) models a scalar. The schedule maps statement instances to time
/// vectors compared lexicographically; for tagged accesses it may be given
/// either on the tagged domains or on the plain statement instances (the tag
/// is then ignored for ordering). Schedule ranges of different dimensions are
/// padded with trailing zeros.
///
/// Build it with [`AccessInfo::from_sink`] and the setters:
///
/// ```
/// use dataflow::AccessInfo;
/// let info = AccessInfo::from_sink("{ R[i] -> A[i] : 0 <= i < 10 }".parse().unwrap())
///     .with_must_source("{ W[i] -> A[i] : 0 <= i < 10 }".parse().unwrap())
///     .with_schedule("{ W[i] -> [i, 0]; R[i] -> [i, 1] }".parse().unwrap());
/// assert_eq!(info.sink().maps().len(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct AccessInfo {
    sink: UnionMap,
    must_source: UnionMap,
    may_source: UnionMap,
    kill: UnionMap,
    schedule: UnionMap,
}

impl AccessInfo {
    /// Access information with the given sinks and no sources yet.
    pub fn from_sink(sink: UnionMap) -> AccessInfo {
        AccessInfo {
            sink,
            ..AccessInfo::default()
        }
    }

    /// The last-writer question of a program [`Model`](scop::Model): its
    /// reads as sinks, its must-writes as must-sources, its conditional
    /// writes as may-sources, its kills, and its schedule (all untagged).
    ///
    /// ```
    /// use dataflow::{compute_flow, AccessInfo};
    /// use presburger::UnionMap;
    /// let m = scop::Model::from_source(
    ///     "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }").unwrap();
    /// let flow = compute_flow(&AccessInfo::from_model(&m)).unwrap();
    /// let want: UnionMap = "[N] -> { S0[i] -> S0[i + 1] : 1 <= i < N - 1 }".parse().unwrap();
    /// assert!(flow.must_dependence.is_equal(&want).unwrap());
    /// ```
    pub fn from_model(model: &scop::Model) -> AccessInfo {
        AccessInfo::from_sink(model.reads().clone())
            .with_must_source(model.must_writes().clone())
            .with_may_source(model.conditional_writes().clone())
            .with_kill(model.kills().clone())
            .with_schedule(model.schedule().clone())
    }

    /// Set the must-source accesses (definite writes).
    pub fn with_must_source(mut self, must: UnionMap) -> AccessInfo {
        self.must_source = must;
        self
    }

    /// Set the may-source accesses (writes that may happen).
    pub fn with_may_source(mut self, may: UnionMap) -> AccessInfo {
        self.may_source = may;
        self
    }

    /// Set the kill accesses: they stop flow but never appear as sources.
    pub fn with_kill(mut self, kill: UnionMap) -> AccessInfo {
        self.kill = kill;
        self
    }

    /// Set the schedule (statement instances to time vectors).
    pub fn with_schedule(mut self, schedule: UnionMap) -> AccessInfo {
        self.schedule = schedule;
        self
    }

    /// The sink accesses.
    pub fn sink(&self) -> &UnionMap {
        &self.sink
    }

    /// The must-source accesses.
    pub fn must_source(&self) -> &UnionMap {
        &self.must_source
    }

    /// The may-source accesses.
    pub fn may_source(&self) -> &UnionMap {
        &self.may_source
    }

    /// The kill accesses.
    pub fn kill(&self) -> &UnionMap {
        &self.kill
    }

    /// The schedule.
    pub fn schedule(&self) -> &UnionMap {
        &self.schedule
    }
}
