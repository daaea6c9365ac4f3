//! The program model: one typed value, built from engine values, that every
//! analysis consumes (see the [crate documentation](crate)).
//!
//! A [`Model`] owns the kernel's parameters and their context, its
//! statements (iterators, iteration domain, original schedule, body
//! expression tree, source position), every access as a relation (plain and
//! tagged with its reference id), and the arrays with their extents. The
//! union relations the analyses ask for ([`Model::domain`], [`Model::reads`],
//! [`Model::must_writes`], the tagged forms, ...) are computed once, when the
//! model is built, and returned by reference.
//!
//! The relations are built directly with the engine (rows, divisions and
//! existentials through the private `lower` module); no isl text is
//! involved. The model's isl text, printed by the engine, is its
//! [`Display`](std::fmt::Display); its JSON is [`Model::to_json`] (the
//! `poly scop` document), which prints the same engine values.
//!
//! Transformations return a new model: [`Model::with_schedule`] (the same
//! program under another schedule) and [`Model::with_param_values`] (some
//! parameters fixed).
//!
//! ```
//! use presburger::UnionMap;
//! let m = scop::Model::from_source(
//!     "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }").unwrap();
//! let want: UnionMap = "[N] -> { S0[i] -> A[i - 1] : 1 <= i < N }".parse().unwrap();
//! assert!(m.reads().is_equal(&want).unwrap());
//! assert_eq!(m.statements()[0].iterators, ["i"]);
//! assert!(m.to_string().contains("MustWrite := [N] -> { S0[i] -> A["));
//! ```

use std::fmt;
use std::sync::Arc;

use presburger::{Map, Set, Space, Tuple, UnionMap, UnionSet};

use crate::affine::{Affine, Formula};
use crate::error::{Error, Pos};
use crate::json::Json;
use crate::lower::{affine_graph, formula_to_map, Columns};
use crate::model::{AccessKind, ArrayOrigin, Expr, SchedDim, Scop};

/// A statement of the [`Model`].
#[derive(Debug, Clone)]
pub struct Statement {
    /// `S0`, `S1`, ... in textual order.
    pub name: String,
    /// Enclosing loop iterators, outermost first.
    pub iterators: Vec<String>,
    /// The iteration domain, `[params] -> { S[i, ...] : ... }`.
    pub domain: Set,
    /// The statement's schedule, `{ S[i, ...] -> [t, ...] }`: the original
    /// one (2d+1 form, padded to the model's schedule depth; not restricted to
    /// the domain).
    pub schedule: Map,
    /// The body as an expression tree; [`Expr::Access`]`(k)` is the access
    /// [`Model::accesses`]`()[self.accesses[k]]`.
    pub body: Expr,
    /// Indices into [`Model::accesses`] of the statement's references, in
    /// evaluation order (writes first).
    pub accesses: Vec<usize>,
    /// Source position.
    pub pos: Pos,
    /// The schedule dimensions that are iterators of loops marked
    /// `#pragma omp parallel for` (increasing): two instances of statements
    /// sharing such a loop whose schedules agree before that dimension and
    /// differ at it are unordered.
    pub parallel: Vec<usize>,
}

/// One array reference of the [`Model`].
#[derive(Debug, Clone)]
pub struct Access {
    /// The reference id (`R0`, `R1`, ...); the read and the write of a
    /// compound assignment (`+=`) share one id.
    pub tag: String,
    /// Index of the statement in [`Model::statements`].
    pub statement: usize,
    /// Read, must-write, may-write or kill.
    pub kind: AccessKind,
    /// The array (scalars are zero-dimensional arrays).
    pub array: String,
    /// The subscripts, affine in the iterators and parameters.
    pub index: Vec<Affine>,
    /// `{ S[i] -> A[f(i)] }` restricted to the statement's domain.
    pub relation: Map,
    /// The same relation tagged with the reference: `{ [S[i] -> R0[]] -> A[f(i)] }`.
    pub tagged: Map,
    /// Source position of the reference.
    pub pos: Pos,
}

/// An array of the [`Model`].
#[derive(Debug, Clone)]
pub struct Array {
    /// Name.
    pub name: String,
    /// Element type (`double`).
    pub element: String,
    /// Extent per dimension (affine in the parameters); empty for scalars.
    pub sizes: Vec<Affine>,
    /// The valid elements, `[N] -> { A[i0, i1] : 0 <= i0 < N and 0 <= i1 < N }`.
    pub extent: Set,
    /// A parameter array, a written scalar parameter, or a local scalar.
    pub kind: ArrayOrigin,
}

/// The union relations derived from the accesses, computed once.
#[derive(Debug, Clone)]
struct Derived {
    domain: UnionSet,
    reads: UnionMap,
    must_writes: UnionMap,
    may_writes: UnionMap,
    conditional_writes: UnionMap,
    kills: UnionMap,
    tagged_reads: UnionMap,
    tagged_must_writes: UnionMap,
    tagged_may_writes: UnionMap,
    tagged_kills: UnionMap,
}

/// The polyhedral model of a kernel, built from engine values. See the
/// [module documentation](self).
#[derive(Debug, Clone)]
pub struct Model {
    function: String,
    params: Vec<String>,
    scalar_params: Vec<String>,
    context: Set,
    statements: Vec<Statement>,
    schedule: UnionMap,
    accesses: Vec<Access>,
    arrays: Vec<Array>,
    derived: Derived,
    source: Scop,
}

/// A name that is `base` followed by digits is taken by one of `names`:
/// lengthen `base` until none is.
fn fresh_base(base: &str, names: &[String]) -> String {
    let mut b = base.to_string();
    while names.iter().any(|n| {
        n.strip_prefix(b.as_str())
            .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
    }) {
        b.push(base.chars().next().unwrap_or('i'));
    }
    b
}

impl Model {
    /// Parses a C kernel and builds its model.
    pub fn from_source(src: &str) -> Result<Model, Error> {
        Model::from_scop(&crate::build_scop(src)?)
    }

    /// Builds the model of a front-end [`Scop`] with the engine.
    pub fn from_scop(scop: &Scop) -> Result<Model, Error> {
        let params: Arc<[String]> = scop.params.clone().into();
        let pspace = Space::params_only(params.clone());
        let context = formula_to_map(&scop.context, &pspace, &Columns::params(&pspace))?;

        let mut statements = Vec::new();
        let mut accesses = Vec::new();
        let mut schedule = UnionMap::empty(params.clone());
        for (k, s) in scop.statements.iter().enumerate() {
            let tuple = Arc::new(Tuple::flat(Some(s.name.clone()), s.iterators.clone()));
            let space = Space::set(params.clone(), tuple.clone());
            let domain = formula_to_map(&s.domain, &space, &Columns::for_set(&space))?;

            let time: Vec<Affine> = s
                .schedule
                .iter()
                .map(|d| match d {
                    SchedDim::Const(c) => Affine::constant(*c),
                    SchedDim::Iter(v, k) => Affine::var(v).scale(*k),
                })
                .collect();
            let sspace = Space::map(params.clone(), tuple.clone(), Tuple::anonymous(time.len()));
            let cols = Columns::for_domain(&sspace, &s.iterators);
            let sched = Map::from_basic(affine_graph(&time, &sspace, &cols)?);
            schedule.add_map(sched.clone())?;

            let mut refs = Vec::new();
            // (the read and the write of `A[i] += ...` have one relation)
            let mut plain: Vec<(&str, &[Affine], Map)> = Vec::new();
            for a in &s.accesses {
                let array = Tuple::flat(Some(a.array.clone()), vec![String::new(); a.index.len()]);
                let array = Arc::new(array);
                let relation = match plain
                    .iter()
                    .find(|(n, i, _)| *n == a.array && *i == a.index.as_slice())
                {
                    Some((_, _, r)) => r.clone(),
                    None => {
                        let r = access_relation(
                            Space::map(params.clone(), tuple.clone(), array.clone()),
                            &s.iterators,
                            &domain,
                            &a.index,
                        )?;
                        plain.push((&a.array, &a.index, r.clone()));
                        r
                    }
                };
                let tag = Space::set(params.clone(), Tuple::flat(Some(a.ref_id.clone()), vec![]));
                let tagged_domain = domain.product_sets(&Set::universe(tag))?.wrap()?;
                let tagged = access_relation(
                    Space::map(params.clone(), tagged_domain.space().range.clone(), array),
                    &s.iterators,
                    &tagged_domain,
                    &a.index,
                )?;
                refs.push(accesses.len());
                accesses.push(Access {
                    tag: a.ref_id.clone(),
                    statement: k,
                    kind: a.kind,
                    array: a.array.clone(),
                    index: a.index.clone(),
                    relation,
                    tagged,
                    pos: a.pos,
                });
            }
            statements.push(Statement {
                name: s.name.clone(),
                iterators: s.iterators.clone(),
                domain,
                schedule: sched,
                body: s.body.clone(),
                accesses: refs,
                pos: s.pos,
                parallel: s.parallel.clone(),
            });
        }

        let base = fresh_base("i", &scop.params);
        let mut arrays = Vec::new();
        for a in &scop.arrays {
            let names: Vec<String> = (0..a.dims.len()).map(|k| format!("{base}{k}")).collect();
            let space = Space::set(
                params.clone(),
                Tuple::flat(Some(a.name.clone()), names.clone()),
            );
            let bounds = Formula::and(
                a.dims
                    .iter()
                    .zip(&names)
                    .map(|(d, v)| Formula::Range {
                        lo: Affine::constant(0),
                        var: v.clone(),
                        hi: d.clone(),
                        strict: true,
                    })
                    .collect(),
            );
            let extent = formula_to_map(&bounds, &space, &Columns::for_set(&space))?;
            arrays.push(Array {
                name: a.name.clone(),
                element: a.element_type.clone(),
                sizes: a.dims.clone(),
                extent,
                kind: a.origin,
            });
        }

        let derived = derive(&params, &statements, &accesses)?;
        Ok(Model {
            function: scop.function.clone(),
            params: scop.params.clone(),
            scalar_params: scop.scalar_params.clone(),
            context,
            statements,
            schedule,
            accesses,
            arrays,
            derived,
            source: scop.clone(),
        })
    }

    /// The kernel function's name.
    pub fn function(&self) -> &str {
        &self.function
    }
    /// Integer parameters in signature order.
    pub fn params(&self) -> &[String] {
        &self.params
    }
    /// Read-only `double` scalar parameters (symbolic constants, no accesses).
    pub fn scalar_params(&self) -> &[String] {
        &self.scalar_params
    }
    /// What is known about the parameters, `[N] -> { : N >= 0 }`.
    pub fn context(&self) -> &Set {
        &self.context
    }
    /// Statements in textual order.
    pub fn statements(&self) -> &[Statement] {
        &self.statements
    }
    /// All accesses, statement by statement, in evaluation order.
    pub fn accesses(&self) -> &[Access] {
        &self.accesses
    }
    /// Arrays: array parameters in signature order, then written scalar
    /// parameters, then local scalars.
    pub fn arrays(&self) -> &[Array] {
        &self.arrays
    }
    /// The schedule, `{ S0[i] -> [i, 0]; ... }`: the original one (not
    /// restricted to the domains) unless [`with_schedule`](Self::with_schedule)
    /// gave another.
    pub fn schedule(&self) -> &UnionMap {
        &self.schedule
    }

    /// The same program with some parameters fixed to values: the context,
    /// the domains, the access relations, the schedules and the extents are
    /// restricted to them (the parameters stay parameters). Every name must
    /// be a parameter of the kernel.
    ///
    /// ```
    /// let m = scop::Model::from_source(
    ///     "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }").unwrap();
    /// let m4 = m.with_param_values(&[("N".to_string(), 4)]).unwrap();
    /// let want: presburger::UnionMap = "[N] -> { S0[i] : 0 <= i < 4 and N = 4 }".parse().unwrap();
    /// assert!(m4.domain().is_equal(&want).unwrap());
    /// assert!(m.with_param_values(&[("M".to_string(), 4)]).is_err());
    /// ```
    pub fn with_param_values(&self, values: &[(String, i64)]) -> Result<Model, Error> {
        for (name, _) in values {
            if !self.params.contains(name) {
                return Err(Error::Usage {
                    message: format!(
                        "`{name}` is not a parameter of {} (parameters: {})",
                        self.function,
                        self.params.join(", ")
                    ),
                });
            }
        }
        let fix = |m: &Map| -> Map {
            let mut m = m.clone();
            for (name, value) in values {
                if let Some(k) = m.space().params.iter().position(|p| p == name) {
                    // the parameters are the first variables
                    m = m.fix_var(k, &presburger::Int::from(*value));
                }
            }
            m
        };
        let mut out = self.clone();
        out.context = fix(&self.context);
        let mut schedule = UnionMap::empty(self.schedule.params().to_vec());
        for s in &mut out.statements {
            s.domain = fix(&s.domain);
            s.schedule = fix(&s.schedule);
            schedule.add_map(s.schedule.clone())?;
        }
        out.schedule = schedule;
        for a in &mut out.accesses {
            a.relation = fix(&a.relation);
            a.tagged = fix(&a.tagged);
        }
        for a in &mut out.arrays {
            a.extent = fix(&a.extent);
        }
        let params: Arc<[String]> = self.params.clone().into();
        out.derived = derive(&params, &out.statements, &out.accesses)?;
        Ok(out)
    }

    /// The same program under another schedule (e.g. a scheduler's result):
    /// `schedule` must give every statement exactly one relation, from its
    /// instance tuple (name and arity) to a time tuple, and nothing else.
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m = scop::Model::from_source(
    ///     "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }").unwrap();
    /// let reversed: UnionMap = "[N] -> { S0[i] -> [-i] }".parse().unwrap();
    /// let r = m.with_schedule(reversed.clone()).unwrap();
    /// assert!(r.schedule().is_equal(&reversed).unwrap());
    /// assert!(m.with_schedule("{ S1[i] -> [i] }".parse().unwrap()).is_err());
    /// ```
    pub fn with_schedule(&self, schedule: UnionMap) -> Result<Model, Error> {
        let mismatch = |what: String| Error::Engine(presburger::Error::SpaceMismatch(what));
        let mut out = self.clone();
        let mut found = vec![false; self.statements.len()];
        for m in schedule.maps() {
            let dom = m.space().domain.as_deref().filter(|t| !t.is_nested());
            let k = dom.and_then(|t| {
                self.statements.iter().position(|s| {
                    t.name.as_deref() == Some(s.name.as_str()) && t.dim() == s.iterators.len()
                })
            });
            let Some(k) = k else {
                return Err(mismatch(format!(
                    "the schedule has a part `{m}` that is no statement's"
                )));
            };
            if found[k] {
                return Err(mismatch(format!(
                    "the schedule gives {} several time spaces",
                    self.statements[k].name
                )));
            }
            found[k] = true;
            out.statements[k].schedule = m.clone();
        }
        if let Some(k) = found.iter().position(|f| !f) {
            return Err(mismatch(format!(
                "the schedule does not schedule {}",
                self.statements[k].name
            )));
        }
        out.schedule = schedule;
        Ok(out)
    }
    /// The union of the iteration domains.
    pub fn domain(&self) -> &UnionSet {
        &self.derived.domain
    }
    /// All reads, `{ S[i] -> A[f(i)] }`.
    pub fn reads(&self) -> &UnionMap {
        &self.derived.reads
    }
    /// All writes that certainly happen.
    pub fn must_writes(&self) -> &UnionMap {
        &self.derived.must_writes
    }
    /// All writes that may happen: the must-writes and the
    /// [conditional writes](Self::conditional_writes) (isl's convention).
    pub fn may_writes(&self) -> &UnionMap {
        &self.derived.may_writes
    }
    /// Only the writes of kind [`AccessKind::MayWrite`] (the may-sources of a
    /// dataflow analysis, which takes the must-writes separately).
    pub fn conditional_writes(&self) -> &UnionMap {
        &self.derived.conditional_writes
    }
    /// All kills.
    pub fn kills(&self) -> &UnionMap {
        &self.derived.kills
    }
    /// Reads tagged with their reference: `{ [S[i] -> R0[]] -> A[f(i)] }`.
    pub fn tagged_reads(&self) -> &UnionMap {
        &self.derived.tagged_reads
    }
    /// Tagged must-writes.
    pub fn tagged_must_writes(&self) -> &UnionMap {
        &self.derived.tagged_must_writes
    }
    /// Tagged may-writes (a superset of the tagged must-writes).
    pub fn tagged_may_writes(&self) -> &UnionMap {
        &self.derived.tagged_may_writes
    }
    /// Tagged kills.
    pub fn tagged_kills(&self) -> &UnionMap {
        &self.derived.tagged_kills
    }

    /// The statement of an access.
    pub fn statement_of(&self, access: &Access) -> &Statement {
        &self.statements[access.statement]
    }

    /// The front end's syntactic form of the same program (domains as
    /// formulas, subscripts as affine expressions over names), from which
    /// the model was built.
    pub fn source(&self) -> &Scop {
        &self.source
    }

    /// The model as the JSON document of `poly scop` (keys `function`,
    /// `params`, `context`, `domain`, `schedule`, `must_write`, `may_write`,
    /// `read`, `tagged_must_write`, `tagged_may_write`, `tagged_read`,
    /// `scalar_params`, `arrays`, `statements`): a serialization of the
    /// model's values. Relations and extents are the engine values printed by
    /// the engine (isl notation); array sizes, access targets and statement
    /// bodies are the front end's expressions as C-like text.
    ///
    /// ```
    /// let m = scop::Model::from_source(
    ///     "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }").unwrap();
    /// let json = m.to_json().pretty();
    /// assert!(json.contains(r#""read": "[N] -> { S0[i] -> A[i - 1] : 1 <= i < N }""#));
    /// assert!(json.contains(r#""body": "A[i] = A[i-1]""#));
    /// ```
    pub fn to_json(&self) -> Json {
        let d = &self.derived;
        let rel = |u: &UnionMap| Json::str(u.to_string());
        let strs = |v: &[String]| Json::Arr(v.iter().map(Json::str).collect());
        let arrays = self
            .arrays
            .iter()
            .map(|a| {
                Json::Obj(vec![
                    ("name".into(), Json::str(&a.name)),
                    ("element_type".into(), Json::str(&a.element)),
                    (
                        "sizes".into(),
                        Json::Arr(a.sizes.iter().map(|d| Json::str(d.to_isl())).collect()),
                    ),
                    ("extent".into(), Json::str(a.extent.to_string())),
                ])
            })
            .collect();
        let statements = self
            .statements
            .iter()
            .zip(&self.source.statements)
            .map(|(s, src)| {
                let accesses = s
                    .accesses
                    .iter()
                    .zip(&src.accesses)
                    .map(|(&k, sa)| {
                        let a = &self.accesses[k];
                        Json::Obj(vec![
                            ("ref".into(), Json::str(&a.tag)),
                            ("kind".into(), Json::str(a.kind.as_str())),
                            ("array".into(), Json::str(&a.array)),
                            ("target".into(), Json::str(sa.target())),
                        ])
                    })
                    .collect();
                Json::Obj(vec![
                    ("name".into(), Json::str(&s.name)),
                    ("iterators".into(), strs(&s.iterators)),
                    ("line".into(), Json::Int(s.pos.line as i64)),
                    ("body".into(), Json::str(src.body_text())),
                    ("accesses".into(), Json::Arr(accesses)),
                ])
            })
            .collect();
        let mut doc = vec![
            ("function".into(), Json::str(&self.function)),
            ("params".into(), strs(&self.params)),
            ("context".into(), Json::str(self.context.to_string())),
            ("domain".into(), rel(&d.domain)),
            ("schedule".into(), rel(&self.schedule)),
            ("must_write".into(), rel(&d.must_writes)),
            ("may_write".into(), rel(&d.may_writes)),
            ("read".into(), rel(&d.reads)),
            ("tagged_must_write".into(), rel(&d.tagged_must_writes)),
            ("tagged_may_write".into(), rel(&d.tagged_may_writes)),
            ("tagged_read".into(), rel(&d.tagged_reads)),
            ("scalar_params".into(), strs(&self.scalar_params)),
            ("arrays".into(), Json::Arr(arrays)),
            ("statements".into(), Json::Arr(statements)),
        ];
        // the optimistic assumptions (left out if the engine gives up on them)
        if let Ok((assumed, invalid)) = assumption_texts(&self.source) {
            doc.push(("assumed".into(), Json::Str(assumed)));
            doc.push(("invalid".into(), Json::Str(invalid)));
        }
        Json::Obj(doc)
    }
}

/// The assumed and invalid contexts ([`crate::assume::combine`]) gisted
/// with the parameters' type ranges, as isl text.
fn assumption_texts(scop: &Scop) -> Result<(String, String), presburger::Error> {
    let c = crate::assume::combine(scop).map_err(|e| presburger::Error::Invalid(e.to_string()))?;
    let text = |s: &presburger::Set| -> Result<String, presburger::Error> {
        Ok(s.gist(&c.context)?.coalesce()?.to_string())
    };
    Ok((text(&c.assumed)?, text(&c.invalid)?))
}

/// `{ S[i] -> A[index(i)] : domain(i) }` in `space` (whose domain may be
/// tagged), from the points of the domain (in the domain of `space`): the
/// domain's rows are those its formula gives in `space` (with columns for
/// the array's dimensions, unconstrained), so the relation is the one
/// [`access_relation_lowered`] builds, written the same way (the tests
/// compare them on every kernel), without lowering the formula again.
fn access_relation(
    space: Space,
    iterators: &[String],
    points: &Set,
    index: &[Affine],
) -> Result<Map, Error> {
    let cols = Columns::for_domain(&space, iterators);
    let graph = Map::from_basic(affine_graph(index, &space, &cols)?);
    Ok(graph.intersect_domain(points)?)
}

/// [`access_relation`] with the domain's formula lowered in `space`: the
/// reference.
#[cfg(test)]
fn access_relation_lowered(
    space: Space,
    iterators: &[String],
    domain: &Formula,
    index: &[Affine],
) -> Result<Map, Error> {
    let cols = Columns::for_domain(&space, iterators);
    let graph = Map::from_basic(affine_graph(index, &space, &cols)?);
    Ok(graph.intersect(&formula_to_map(domain, &space, &cols)?)?)
}

fn derive(
    params: &Arc<[String]>,
    statements: &[Statement],
    accesses: &[Access],
) -> Result<Derived, Error> {
    let empty = || UnionMap::empty(params.clone());
    let mut domain = empty();
    for s in statements {
        domain.add_map(s.domain.clone())?;
    }
    let mut d = Derived {
        domain,
        reads: empty(),
        must_writes: empty(),
        may_writes: empty(),
        conditional_writes: empty(),
        kills: empty(),
        tagged_reads: empty(),
        tagged_must_writes: empty(),
        tagged_may_writes: empty(),
        tagged_kills: empty(),
    };
    for a in accesses {
        let (plain, tagged) = (a.relation.clone(), a.tagged.clone());
        match a.kind {
            AccessKind::Read => {
                d.reads.add_map(plain)?;
                d.tagged_reads.add_map(tagged)?;
            }
            AccessKind::MustWrite | AccessKind::MayWrite => {
                if a.kind == AccessKind::MustWrite {
                    d.must_writes.add_map(plain.clone())?;
                    d.tagged_must_writes.add_map(tagged.clone())?;
                } else {
                    d.conditional_writes.add_map(plain.clone())?;
                }
                d.may_writes.add_map(plain)?;
                d.tagged_may_writes.add_map(tagged)?;
            }
            AccessKind::Kill => {
                d.kills.add_map(plain)?;
                d.tagged_kills.add_map(tagged)?;
            }
        }
    }
    Ok(d)
}

impl fmt::Display for Model {
    /// The model as an iscc script that `poly calc` reads: a comment line,
    /// then one `Name := relation;` line per relation (`Context`, `Domain`,
    /// `Schedule`, `Read`, `MustWrite`, `MayWrite`, `Kill`, `TaggedRead`,
    /// `TaggedMustWrite`, `TaggedMayWrite`), then one `Extent_A := ...;` line
    /// per array, all printed by the engine.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.derived;
        writeln!(f, "# kernel {}", self.function)?;
        writeln!(f, "Context := {};", self.context)?;
        writeln!(f, "Domain := {};", d.domain)?;
        writeln!(f, "Schedule := {};", self.schedule)?;
        writeln!(f, "Read := {};", d.reads)?;
        writeln!(f, "MustWrite := {};", d.must_writes)?;
        writeln!(f, "MayWrite := {};", d.may_writes)?;
        writeln!(f, "Kill := {};", d.kills)?;
        writeln!(f, "TaggedRead := {};", d.tagged_reads)?;
        writeln!(f, "TaggedMustWrite := {};", d.tagged_must_writes)?;
        writeln!(f, "TaggedMayWrite := {};", d.tagged_may_writes)?;
        for a in &self.arrays {
            writeln!(f, "Extent_{} := {};", a.name, a.extent)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every access relation, plain and tagged, is the one the domain's
    /// formula lowered in its space gives, written the same way, on every
    /// kernel of the crate's tests and the shared ones.
    #[test]
    fn access_relations_are_the_lowered_ones() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in [
            root.join("tests/kernels"),
            root.join("../../shared/kernels"),
        ] {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "c") {
                    files.push(e.path());
                }
            }
        }
        assert!(files.len() >= 10, "kernels found: {}", files.len());
        let mut checked = 0;
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap();
            let Ok(scop) = crate::build_scop(&src) else {
                continue;
            };
            let model = Model::from_scop(&scop).unwrap();
            let params: Arc<[String]> = scop.params.clone().into();
            for a in &model.accesses {
                let s = &scop.statements[a.statement];
                let want = |dom: Tuple| {
                    let array =
                        Tuple::flat(Some(a.array.clone()), vec![String::new(); a.index.len()]);
                    let space = Space::map(params.clone(), dom, array);
                    access_relation_lowered(space, &s.iterators, &s.domain, &a.index).unwrap()
                };
                let tuple = Tuple::flat(Some(s.name.clone()), s.iterators.clone());
                let plain = want(tuple.clone());
                let tag = Tuple::nested(None, tuple, Tuple::flat(Some(a.tag.clone()), vec![]));
                let tagged = want(tag);
                assert!(
                    a.relation.plain_is_equal(&plain),
                    "{f:?}: {} against {plain}",
                    a.relation
                );
                assert!(
                    a.tagged.plain_is_equal(&tagged),
                    "{f:?}: {} against {tagged}",
                    a.tagged
                );
                checked += 1;
            }
        }
        assert!(checked > 50, "accesses checked: {checked}");
    }
}
