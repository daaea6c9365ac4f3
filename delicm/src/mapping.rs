//! The greedy mapping of local scalars into array elements.

use std::collections::{BTreeSet, HashMap};

use presburger::{Builder, Space, Tuple, UnionMap};
use scop::affine::{AVar, Affine};
use scop::ast::AssignOp;
use scop::ast::Function;
use scop::model::{AccessKind, ArrayOrigin, Expr, SchedDim, Scop};
use scop::Model;

use crate::error::{Error, Result};
use crate::forward::{forward_operand_trees, Forwarded};
use crate::knowledge::{Knowledge, Zone};
use crate::rewrite::rewrite_function;
use crate::zone::{lifetimes, universe_of};

/// Default operation budget of one analysis (engine operations).
pub const DEFAULT_BUDGET: u64 = 1_000_000;

/// One applied mapping: the references of `scalar` now access `array`.
#[derive(Debug, Clone)]
pub struct Mapped {
    /// The local scalar.
    pub scalar: String,
    /// The array that keeps its values.
    pub array: String,
    /// The new tagged access relation of the scalar's references,
    /// `{ [S[i] -> R0[]] -> A[i] }`.
    pub map: UnionMap,
}

/// The result of [`map_scalars`].
#[derive(Debug, Clone)]
pub struct Transformed {
    /// The original model.
    pub original: Model,
    /// The transformed kernel (runs in the interpreter).
    pub function: Function,
    /// Its model: same statements, domains and reference tags.
    pub model: Model,
    /// What was mapped, in order.
    pub mapped: Vec<Mapped>,
    /// Proposals rejected by the conflict test or the flow check:
    /// `(scalar, array, reason)`.
    pub rejected: Vec<(String, String, String)>,
    /// Operand trees forwarded before the mapping (only with
    /// [`Options::forward`]).
    pub forwarded: Vec<Forwarded>,
    /// The budget ran out: nothing was changed.
    pub budget_exhausted: bool,
}

/// What [`transform`] does.
#[derive(Debug, Clone)]
pub struct Options {
    /// Engine operations allowed for the whole analysis.
    pub budget: u64,
    /// Forward operand trees first (changes the reference tags of the
    /// readers: off for the `poly delicm` model, whose tags must stay).
    pub forward: bool,
    /// Known-value reuse (item 6 of the [crate documentation](crate)): a scalar holding a copy of an
    /// element may share it while it holds the same value (the stored
    /// copy changes which reference the later reads of the element take
    /// their value from: off by default).
    pub known_values: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            budget: DEFAULT_BUDGET,
            forward: false,
            known_values: false,
        }
    }
}

/// The loops shared by two statements: iterator names of the common
/// prefix of their schedules.
pub(crate) fn shared_loops(a: &[SchedDim], b: &[SchedDim]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (x, y) in a.iter().zip(b) {
        if x != y {
            break;
        }
        if let SchedDim::Iter(v, _) = x {
            out.insert(v.clone());
        }
    }
    out
}

fn names(a: &Affine, out: &mut BTreeSet<String>) {
    for v in a.terms.keys() {
        match v {
            AVar::Name(n) => {
                out.insert(n.clone());
            }
            AVar::Div(inner, _) => names(inner, out),
        }
    }
}

/// `{ [A[e] -> [t]] -> A[e, t] }` for one array of `n_elem` dimensions.
fn flatten_map(params: &[String], array: &str, n_elem: usize, n_time: usize) -> Result<UnionMap> {
    let name = Some(array.to_string());
    let elem = Tuple::flat(name.clone(), vec![String::new(); n_elem]);
    let both = Tuple::flat(name, vec![String::new(); n_elem + n_time]);
    let domain = Tuple::nested(None, elem, Tuple::anonymous(n_time));
    let b = Builder::new(&Space::map(params.to_vec(), domain, both));
    let cons = (0..n_elem + n_time)
        .map(|k| Ok(b.eq(&b.in_dim(k)?, &b.out_dim(k)?)?))
        .collect::<Result<Vec<_>>>()?;
    Ok(UnionMap::from_map(b.map(cons)?))
}

/// Element-time points `A[e, t]` of some accesses of a model to `array`.
fn points(
    model: &Model,
    array: &str,
    n_elem: usize,
    pick: &dyn Fn(usize, &scop::program::Access) -> bool,
) -> Result<(UnionMap, UnionMap)> {
    let params = model.params().to_vec();
    let n_time = model
        .statements()
        .first()
        .map_or(0, |s| s.schedule.space().n_out());
    let flat = flatten_map(&params, array, n_elem, n_time)?;
    let (mut r, mut w) = (
        UnionMap::empty(params.clone()),
        UnionMap::empty(params.clone()),
    );
    for (k, a) in model.accesses().iter().enumerate() {
        if a.array != array || !pick(k, a) {
            continue;
        }
        let st = model.statement_of(a);
        let at = UnionMap::from_map(a.relation.clone())
            .reverse()?
            .apply_range(&UnionMap::from_map(st.schedule.clone()))?
            .wrap()?
            .apply(&flat)?;
        match a.kind {
            AccessKind::Read => r = r.union(&at)?,
            AccessKind::MustWrite | AccessKind::MayWrite => w = w.union(&at)?,
            AccessKind::Kill => {}
        }
    }
    // one piece per statement and kind: references repeat the same points
    Ok((r.coalesce()?, w.coalesce()?))
}

struct Candidate {
    scalar: String,
    array: String,
    index: HashMap<usize, Vec<Affine>>,
}

/// Proposals for `scalar`: every store into an array element whose
/// subscript only uses loops shared with every statement that accesses the
/// scalar; the stores that read the scalar come first.
fn candidates(scop: &Scop, scalar: &str) -> Vec<Candidate> {
    let users: Vec<usize> = (0..scop.statements.len())
        .filter(|&k| {
            scop.statements[k]
                .accesses
                .iter()
                .any(|a| a.array == scalar)
        })
        .collect();
    let reads_scalar = |k: usize| {
        scop.statements[k]
            .accesses
            .iter()
            .any(|a| a.array == scalar && a.kind == AccessKind::Read)
    };
    // first the stores that read the scalar, then any other store (a
    // target for writes whose values are never read)
    let order: Vec<usize> = users
        .iter()
        .copied()
        .filter(|&k| reads_scalar(k))
        .chain((0..scop.statements.len()).filter(|&k| !reads_scalar(k)))
        .collect();
    let mut out = Vec::new();
    for t in order {
        let st = &scop.statements[t];
        for w in st
            .accesses
            .iter()
            .filter(|a| a.kind == AccessKind::MustWrite && !a.index.is_empty())
        {
            let mut used = BTreeSet::new();
            w.index.iter().for_each(|a| names(a, &mut used));
            used.retain(|n| !scop.params.contains(n));
            let ok = users.iter().all(|&u| {
                used.is_subset(&shared_loops(&scop.statements[u].schedule, &st.schedule))
            });
            if ok {
                let index = users.iter().map(|&u| (u, w.index.clone())).collect();
                out.push(Candidate {
                    scalar: scalar.to_string(),
                    array: w.array.clone(),
                    index,
                });
            }
        }
    }
    out
}

/// The local scalars of a kernel, in declaration order.
pub(crate) fn local_scalars(scop: &Scop) -> Vec<&str> {
    scop.arrays
        .iter()
        .filter(|a| a.dims.is_empty() && a.origin == ArrayOrigin::Local)
        .map(|a| a.name.as_str())
        .collect()
}

/// The local scalars, those that array stores read first (the scalars the
/// overwrites store, in the order of the stores), then the others (their
/// operand chains, and scalars only read by other scalars), each in
/// declaration order: the scalar a store keeps gets the store's element
/// before a temporary of its operand chain can take it.
fn scalars_in_order(scop: &Scop) -> Vec<String> {
    let locals = local_scalars(scop);
    let mut stored: Vec<&str> = Vec::new();
    for st in &scop.statements {
        let array_store = st
            .accesses
            .iter()
            .any(|a| a.kind == AccessKind::MustWrite && !a.index.is_empty());
        if !array_store {
            continue;
        }
        for a in st.accesses.iter().filter(|a| a.kind == AccessKind::Read) {
            if locals.contains(&a.array.as_str()) && !stored.contains(&a.array.as_str()) {
                stored.push(&a.array);
            }
        }
    }
    let rest = locals.iter().filter(|s| !stored.contains(s));
    stored.iter().chain(rest).map(|s| s.to_string()).collect()
}

/// Tests one proposal; `Ok(None)` when it is legal, else the reason.
/// The statements of `model` that copy an element of `array` into
/// `scalar` (`s = A[f(i)]`): `(statement, tag of the load)`.
fn copies(model: &Model, scalar: &str, array: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (k, st) in model.source().statements.iter().enumerate() {
        let Expr::Assign {
            op: AssignOp::Set,
            target,
            value,
        } = &st.body
        else {
            continue;
        };
        let Expr::Access(r) = value.as_ref() else {
            continue;
        };
        let (w, r) = (&st.accesses[*target], &st.accesses[*r]);
        if w.array == scalar && r.array == array && r.kind == AccessKind::Read {
            out.push((k, r.ref_id.clone()));
        }
    }
    out
}

/// Tests one proposal; `Ok(None)` when it is legal, else the reason.
/// With `known`, a proposal rejected with unknown contents is tested
/// again with the known contents of copies (item 6 of the [crate documentation](crate)).
fn test(current: &Model, next: &Model, c: &Candidate, known: bool) -> Result<Option<String>> {
    let n_elem = c.index.values().next().map_or(0, |v| v.len());
    // tags of the scalar's references
    let tags: BTreeSet<String> = current
        .accesses()
        .iter()
        .filter(|a| a.array == c.scalar)
        .map(|a| format!("{}/{}", a.statement, a.tag))
        .collect();
    let (er, ew) = points(current, &c.array, n_elem, &|_, _| true)?;
    let (pr, pw) = points(next, &c.array, n_elem, &|_, a| {
        tags.contains(&format!("{}/{}", a.statement, a.tag))
    })?;
    let n_time = current
        .statements()
        .first()
        .map_or(0, |s| s.schedule.space().n_out());
    let (_, e_unused) = lifetimes(&er, &ew, n_time)?;
    let (p_occ, _) = lifetimes(&pr, &pw, n_time)?;
    let u = universe_of(&er.union(&ew)?.union(&pr)?.union(&pw)?)?;
    let existing = Knowledge::new(
        Zone::Outside {
            universe: u.clone(),
            except: e_unused.clone(),
        },
        Zone::Points(e_unused.clone()),
        UnionMap::empty(Vec::<String>::new()),
        ew.clone(),
    )?;
    let proposed = Knowledge::new(
        Zone::Points(p_occ.clone()),
        Zone::Outside {
            universe: u.clone(),
            except: p_occ.clone(),
        },
        UnionMap::empty(Vec::<String>::new()),
        pw.clone(),
    )?;
    if let Some(rule) = existing
        .broken_rule(&proposed)?
        .or(proposed.broken_rule(&existing)?)
    {
        let copies = copies(current, &c.scalar, &c.array);
        if !known || copies.is_empty() || rule == 4 {
            return Ok(Some(format!("conflict (rule {rule})")));
        }
        // the copies' loads (current program) and their stores (next)
        let (copy_loads, _) = points(current, &c.array, n_elem, &|_, a| {
            a.kind == AccessKind::Read
                && copies.iter().any(|(k, t)| a.statement == *k && a.tag == *t)
        })?;
        let (_, copy_writes) = points(next, &c.array, n_elem, &|_, a| {
            copies.iter().any(|(k, _)| a.statement == *k)
                && tags.contains(&format!("{}/{}", a.statement, a.tag))
        })?;
        let (e2, p2) = crate::known::knowledge(&crate::known::Proposal {
            params: current.params(),
            array: &c.array,
            n_elem,
            n_time,
            existing_writes: &ew,
            existing_unused: &e_unused,
            universe: &u,
            proposed_occupied: &p_occ,
            proposed_writes: &pw,
            copy_writes: &copy_writes,
            copy_loads: &copy_loads,
        })?;
        if let Some(rule) = e2.broken_rule(&p2)?.or(p2.broken_rule(&e2)?) {
            return Ok(Some(format!("conflict (rule {rule}, with known values)")));
        }
    }
    // the scalar's own value flow must survive: every read of the scalar
    // has a writer, and each writer lands in the element of its readers
    // (the conflict test keeps other writes out of the lifetimes between)
    let (flow, live_in) = scalar_flow(current, &c.scalar)?;
    if !live_in.is_empty()? {
        return Ok(Some("the scalar's value at entry is read".into()));
    }
    let target = new_access(current, next, c, false)?;
    if !flow.is_subset(&target.apply_range(&target.reverse()?)?)? {
        return Ok(Some(
            "a value would land in another element than its readers'".into(),
        ));
    }
    Ok(None)
}

/// The flow of one scalar between statement instances (every writer that
/// may provide a read value) and the reads that may see the entry value.
fn scalar_flow(model: &Model, scalar: &str) -> Result<(UnionMap, UnionMap)> {
    let keep = |u: &UnionMap| -> Result<UnionMap> {
        let mut out = UnionMap::empty(u.params().to_vec());
        for m in u.maps() {
            if m.space().range.name.as_deref() == Some(scalar) {
                out.add_map(m.clone())?;
            }
        }
        Ok(out)
    };
    let info = dataflow::AccessInfo::from_sink(keep(model.reads())?)
        .with_must_source(keep(model.must_writes())?)
        .with_may_source(keep(model.conditional_writes())?)
        .with_schedule(model.schedule().clone());
    let f = dataflow::compute_flow(&info)?;
    Ok((f.may_dependence, f.may_no_source))
}

/// The access relation (tagged or not), in `next`, of the references that
/// accessed the scalar in `current`.
fn new_access(current: &Model, next: &Model, c: &Candidate, tagged: bool) -> Result<UnionMap> {
    let tags: BTreeSet<(usize, String)> = current
        .accesses()
        .iter()
        .filter(|a| a.array == c.scalar)
        .map(|a| (a.statement, a.tag.clone()))
        .collect();
    let mut map = UnionMap::empty(next.params().to_vec());
    for a in next.accesses() {
        if a.array == c.array && tags.contains(&(a.statement, a.tag.clone())) {
            let rel = if tagged { &a.tagged } else { &a.relation };
            map = map.union(&UnionMap::from_map(rel.clone()))?;
        }
    }
    Ok(map)
}

fn same_shape(a: &Model, b: &Model) -> Result<bool> {
    Ok(a.domain().is_equal(b.domain())?
        && a.tagged_reads()
            .domain()?
            .is_equal(&b.tagged_reads().domain()?)?
        && a.tagged_must_writes()
            .domain()?
            .is_equal(&b.tagged_must_writes().domain()?)?)
}

fn run(src: &str, forward: bool, known: bool) -> Result<Transformed> {
    let f0 = scop::parse_kernel(src)?;
    let scop0 = scop::build_from_ast(&f0)?;
    let original = Model::from_scop(&scop0)?;
    let (f0, forwarded) = if forward {
        forward_operand_trees(&f0, 64)?
    } else {
        (f0, Vec::new())
    };
    let scop0 = scop::build_from_ast(&f0)?;
    let model0 = Model::from_scop(&scop0)?;
    let (mut f, mut scop, mut model) = (f0, scop0, model0);
    let mut mapped = Vec::new();
    let mut rejected = Vec::new();
    for s in scalars_in_order(&scop) {
        for c in candidates(&scop, &s) {
            let f2 = match rewrite_function(&f, &c.scalar, &c.array, &c.index) {
                Ok(f2) => f2,
                Err(e) => {
                    rejected.push((c.scalar.clone(), c.array.clone(), e.to_string()));
                    continue;
                }
            };
            let scop2 = scop::build_from_ast(&f2)?;
            let model2 = Model::from_scop(&scop2)?;
            if !same_shape(&model, &model2)? {
                rejected.push((
                    c.scalar.clone(),
                    c.array.clone(),
                    "statements change".into(),
                ));
                continue;
            }
            if let Some(why) = test(&model, &model2, &c, known)? {
                rejected.push((c.scalar.clone(), c.array.clone(), why));
                continue;
            }
            let map = new_access(&model, &model2, &c, true)?;
            mapped.push(Mapped {
                scalar: c.scalar.clone(),
                array: c.array.clone(),
                map: map.coalesce()?,
            });
            (f, scop, model) = (f2, scop2, model2);
            break;
        }
    }
    Ok(Transformed {
        original,
        function: f,
        model,
        mapped,
        rejected,
        forwarded,
        budget_exhausted: false,
    })
}

/// Maps the local scalars of a C kernel into unused array elements (first
/// fit over the stores that read them), under an operation budget; when it
/// runs out, the original program is returned unchanged with
/// `budget_exhausted` set.
pub fn map_scalars(src: &str, budget: u64) -> Result<Transformed> {
    transform(
        src,
        &Options {
            budget,
            forward: false,
            known_values: false,
        },
    )
}

/// [`map_scalars`], with operand-tree forwarding first when
/// `options.forward` is set.
pub fn transform(src: &str, options: &Options) -> Result<Transformed> {
    match presburger::budget::with_budget(options.budget, || {
        run(src, options.forward, options.known_values)
    }) {
        Err(Error::BudgetExceeded) => {
            let f = scop::parse_kernel(src)?;
            let model = Model::from_scop(&scop::build_from_ast(&f)?)?;
            Ok(Transformed {
                original: model.clone(),
                function: f,
                model,
                mapped: Vec::new(),
                rejected: Vec::new(),
                forwarded: Vec::new(),
                budget_exhausted: true,
            })
        }
        r => r,
    }
}

impl std::fmt::Display for Mapped {
    /// `s -> A: { [S0[i] -> R0[]] -> A[i] ... }`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {}: {}", self.scalar, self.array, self.map)
    }
}

impl std::fmt::Display for Transformed {
    /// One line per mapping, forwarding and rejected proposal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.budget_exhausted {
            writeln!(f, "budget exhausted: nothing changed")?;
        }
        for x in &self.forwarded {
            writeln!(f, "forwarded {x}")?;
        }
        for m in &self.mapped {
            writeln!(f, "mapped {m}")?;
        }
        for (s, a, why) in &self.rejected {
            writeln!(f, "rejected {s} -> {a}: {why}")?;
        }
        Ok(())
    }
}
