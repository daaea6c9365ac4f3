//! Operand-tree forwarding (Polly's ForwardOpTree): a read of a scalar whose
//! only reaching definition is `s = e` is replaced by `e` itself when `e`
//! computes the same value at the reader: its iterators are those of loops
//! shared with the reader (and the value flow relates equal iterations),
//! and no element it loads is written between the definition and the read.

use std::collections::BTreeSet;

use presburger::{Builder, Map, Space, Tuple, UnionMap};
use scop::ast::{AssignOp, Expr, ExprKind, Function, Stmt, StmtKind};
use scop::model::AccessKind;
use scop::Model;

use crate::error::{Error, Result};
use crate::zone::time_order;

/// One forwarded operand tree: the reads of `scalar` in statement `into`
/// now compute `expression`, the right-hand side of statement `from`.
#[derive(Debug, Clone)]
pub struct Forwarded {
    /// The scalar that no longer carries the value into `into`.
    pub scalar: String,
    /// The defining statement (`S0`).
    pub from: String,
    /// The statement that recomputes the value.
    pub into: String,
    /// The forwarded expression, in C notation.
    pub expression: String,
}

impl std::fmt::Display for Forwarded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} -> {} ({})",
            self.scalar, self.from, self.into, self.expression
        )
    }
}

/// C text of an expression (for reports).
pub fn expr_text(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(_, text) => text.clone(),
        ExprKind::Var(n) => n.clone(),
        ExprKind::Index(n, subs) => format!(
            "{n}{}",
            subs.iter()
                .map(|s| format!("[{}]", expr_text(s)))
                .collect::<String>()
        ),
        ExprKind::Unary(op, a) => {
            let o = match op {
                scop::ast::UnOp::Neg => "-",
                scop::ast::UnOp::Plus => "+",
                scop::ast::UnOp::Not => "!",
            };
            format!("{o}{}", expr_text(a))
        }
        ExprKind::Binary(op, a, b) => {
            format!("({} {} {})", expr_text(a), op.as_str(), expr_text(b))
        }
        ExprKind::Call(n, args) => format!(
            "{n}({})",
            args.iter().map(expr_text).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::CastDouble(a) => format!("(double){}", expr_text(a)),
    }
}

/// The statements of a body in the front end's numbering (assignments and
/// initialised declarations, textual order).
fn numbered<'a>(body: &'a [Stmt], out: &mut Vec<&'a Stmt>) {
    for s in body {
        match &s.kind {
            StmtKind::Assign { .. } | StmtKind::Decl { init: Some(_), .. } => out.push(s),
            StmtKind::For { body, .. } => numbered(std::slice::from_ref(body), out),
            StmtKind::If { then_s, else_s, .. } => {
                numbered(std::slice::from_ref(then_s), out);
                if let Some(e) = else_s {
                    numbered(std::slice::from_ref(e), out);
                }
            }
            StmtKind::Block(b) => numbered(b, out),
            _ => {}
        }
    }
}

fn numbered_mut<'a>(body: &'a mut [Stmt], out: &mut Vec<&'a mut Stmt>) {
    for s in body {
        match s.kind {
            StmtKind::Assign { .. } | StmtKind::Decl { init: Some(_), .. } => out.push(s),
            StmtKind::For { ref mut body, .. } => numbered_mut(std::slice::from_mut(body), out),
            StmtKind::If {
                ref mut then_s,
                ref mut else_s,
                ..
            } => {
                numbered_mut(std::slice::from_mut(then_s), out);
                if let Some(e) = else_s {
                    numbered_mut(std::slice::from_mut(e), out);
                }
            }
            StmtKind::Block(ref mut b) => numbered_mut(b, out),
            _ => {}
        }
    }
}

/// `(target scalar, op, rhs)` of a numbered statement.
fn parts(s: &Stmt) -> Option<(Option<&str>, AssignOp, &Expr)> {
    match &s.kind {
        StmtKind::Assign { lhs, op, rhs } => {
            let t = match &lhs.kind {
                ExprKind::Var(n) => Some(n.as_str()),
                _ => None,
            };
            Some((t, *op, rhs))
        }
        StmtKind::Decl {
            name,
            init: Some(e),
            ..
        } => Some((Some(name.as_str()), AssignOp::Set, e)),
        _ => None,
    }
}

fn mentions(e: &Expr, name: &str, out: &mut bool) {
    match &e.kind {
        ExprKind::Var(n) => *out |= n == name,
        ExprKind::Index(n, subs) => {
            *out |= n == name;
            subs.iter().for_each(|s| mentions(s, name, out));
        }
        ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => mentions(a, name, out),
        ExprKind::Binary(_, a, b) => {
            mentions(a, name, out);
            mentions(b, name, out)
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| mentions(a, name, out)),
        _ => {}
    }
}

/// Number of nodes of an expression.
fn size(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Index(_, subs) => subs.iter().map(size).sum(),
        ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => size(a),
        ExprKind::Binary(_, a, b) => size(a) + size(b),
        ExprKind::Call(_, args) => args.iter().map(size).sum(),
        _ => 0,
    }
}

/// Forwarded expressions stay below this many nodes (chains of
/// forwardings could otherwise double the reader's size at every step).
const MAX_TREE: usize = 64;

fn vars(e: &Expr, out: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Var(n) => {
            out.insert(n.clone());
        }
        ExprKind::Index(_, subs) => subs.iter().for_each(|s| vars(s, out)),
        ExprKind::Unary(_, a) | ExprKind::CastDouble(a) => vars(a, out),
        ExprKind::Binary(_, a, b) => {
            vars(a, out);
            vars(b, out)
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| vars(a, out)),
        _ => {}
    }
}

fn replace(e: &Expr, name: &str, by: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Var(n) if n == name => return by.clone(),
        ExprKind::Index(n, subs) => ExprKind::Index(
            n.clone(),
            subs.iter().map(|s| replace(s, name, by)).collect(),
        ),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(replace(a, name, by))),
        ExprKind::CastDouble(a) => ExprKind::CastDouble(Box::new(replace(a, name, by))),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(
            *op,
            Box::new(replace(a, name, by)),
            Box::new(replace(b, name, by)),
        ),
        ExprKind::Call(n, args) => ExprKind::Call(
            n.clone(),
            args.iter().map(|a| replace(a, name, by)).collect(),
        ),
        k => k.clone(),
    };
    Expr { kind, pos: e.pos }
}

fn tag_of(t: &Tuple) -> Option<(String, String)> {
    match &t.kind {
        presburger::TupleKind::Nested(a, b) => Some((a.name.clone()?, b.name.clone()?)),
        _ => None,
    }
}

/// Is forwarding the definition `d` into the reader `u` along the flow `f`
/// (`{ D[i] -> U[j] }`) legal?
fn legal(model: &Model, d: usize, u: usize, f: &UnionMap, rhs: &Expr) -> Result<bool> {
    let scop = model.source();
    let (sd, su) = (&scop.statements[d], &scop.statements[u]);
    // iterators: shared loops, equal along the flow
    let mut used = BTreeSet::new();
    vars(rhs, &mut used);
    let loops = crate::mapping::shared_loops(&sd.schedule, &su.schedule);
    for v in used.iter().filter(|v| sd.iterators.contains(v)) {
        if !loops.contains(v) {
            return Ok(false);
        }
        let pa = sd.iterators.iter().position(|x| x == v).unwrap_or(0);
        let pb = su.iterators.iter().position(|x| x == v).unwrap_or(0);
        // { D[a] -> U[b] : a_pa = b_pb }
        let tuple =
            |name: &str, n: usize| Tuple::flat(Some(name.to_string()), vec![String::new(); n]);
        let b = Builder::new(&Space::map(
            scop.params.clone(),
            tuple(&sd.name, sd.iterators.len()),
            tuple(&su.name, su.iterators.len()),
        ));
        let eq = b.map([b.eq(&b.in_dim(pa)?, &b.out_dim(pb)?)?])?;
        if !f.is_subset(&UnionMap::from_map(eq))? {
            return Ok(false);
        }
    }
    // loads: no write of the loaded element from the definition's time
    // (its own writes included) up to, not including, the reader's time
    let sched = model.schedule();
    let times = sched.range()?;
    let after_d = f
        .domain_map()?
        .apply_range(sched)?
        .apply_range(&time_order(&times, false, false)?)?;
    let before_u = f
        .range_map()?
        .apply_range(sched)?
        .apply_range(&time_order(&times, true, true)?)?;
    for a in model
        .accesses()
        .iter()
        .filter(|a| a.statement == d && a.kind == AccessKind::Read)
    {
        let elements = UnionMap::from_map(Map::universe(a.relation.space().range_space()));
        let writes = model.may_writes().intersect_range(&elements)?;
        if writes.is_empty()? {
            continue;
        }
        // only the writers' schedules: { time -> W }
        let at = sched.intersect_domain(&writes.domain()?)?.reverse()?;
        let window = after_d
            .apply_range(&at)?
            .intersect(&before_u.apply_range(&at)?)?;
        let clobber = f
            .domain_map()?
            .apply_range(&UnionMap::from_map(a.relation.clone()))?
            .apply_range(&writes.reverse()?)?
            .intersect(&window)?;
        if !clobber.is_empty()? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One forwarding step on `f`, if any applies.
fn step(f: &Function) -> Result<Option<(Function, Forwarded)>> {
    let scop = scop::build_from_ast(f)?;
    let model = Model::from_scop(&scop)?;
    let locals = crate::mapping::local_scalars(&scop);
    // the flow into the reads of local scalars (only their writes matter)
    let keep = |u: &UnionMap| -> Result<UnionMap> {
        let mut out = UnionMap::empty(u.params().to_vec());
        for m in u.maps() {
            if m.space()
                .range
                .name
                .as_deref()
                .is_some_and(|n| locals.contains(&n))
            {
                out.add_map(m.clone())?;
            }
        }
        Ok(out)
    };
    let mut acc = dataflow::MemoryAccesses::from_model_tagged(&model)?;
    acc.reads = keep(&acc.reads)?;
    acc.must_writes = keep(&acc.must_writes)?;
    acc.may_writes = keep(&acc.may_writes)?;
    acc.kills = keep(&acc.kills)?;
    let deps = dataflow::compute_dependences(&acc)?;
    let mut stmts = Vec::new();
    numbered(&f.body, &mut stmts);
    if stmts.len() != scop.statements.len() {
        return Err(Error::Invalid(
            "statement numbering differs from the front end's".into(),
        ));
    }
    for (u, su) in scop.statements.iter().enumerate() {
        let Some((_, _, rhs_u)) = parts(stmts[u]) else {
            continue;
        };
        for a in su.accesses.iter().filter(|a| a.kind == AccessKind::Read) {
            let s = a.array.as_str();
            let mut m = false;
            mentions(rhs_u, s, &mut m);
            if !locals.contains(&s) || !m {
                continue;
            }
            // the flow into this read, from one defining statement
            let mut flow = UnionMap::empty(model.params().to_vec());
            let mut from = BTreeSet::new();
            for x in deps.must_flow.maps() {
                let (Some(dt), Some(rt)) = (x.space().domain.as_deref(), Some(&*x.space().range))
                else {
                    continue;
                };
                if tag_of(rt) != Some((su.name.clone(), a.ref_id.clone())) {
                    continue;
                }
                if let Some((dn, _)) = tag_of(dt) {
                    from.insert(dn);
                }
                flow.add_map(x.clone())?;
            }
            if from.len() != 1 {
                continue;
            }
            let dname = from.into_iter().next().unwrap_or_default();
            let Some(d) = scop.statements.iter().position(|x| x.name == dname) else {
                continue;
            };
            let Some((Some(target), AssignOp::Set, rhs_d)) = parts(stmts[d]) else {
                continue;
            };
            let mut self_ref = false;
            mentions(rhs_d, s, &mut self_ref);
            if target != s
                || self_ref
                || size(rhs_d) > MAX_TREE
                || size(rhs_u) + size(rhs_d) > 4 * MAX_TREE
            {
                continue;
            }
            let flow = dataflow::deps::untag(&flow)?;
            // every instance of the read has this definition (no live-in value)
            let reads = UnionMap::from_map(
                model
                    .accesses()
                    .iter()
                    .find(|x| x.statement == u && x.tag == a.ref_id && x.kind == AccessKind::Read)
                    .map(|x| x.relation.clone())
                    .ok_or_else(|| Error::Invalid("read not in the model".into()))?,
            );
            if !reads.domain()?.is_subset(&flow.range()?)? {
                continue;
            }
            if !legal(&model, d, u, &flow, rhs_d)? {
                continue;
            }
            let rhs_d = rhs_d.clone();
            let mut g = f.clone();
            let mut ms = Vec::new();
            numbered_mut(&mut g.body, &mut ms);
            match &mut ms[u].kind {
                StmtKind::Assign { rhs, .. } => *rhs = replace(rhs, s, &rhs_d),
                StmtKind::Decl { init: Some(e), .. } => *e = replace(e, s, &rhs_d),
                _ => continue,
            }
            let fw = Forwarded {
                scalar: s.to_string(),
                from: scop.statements[d].name.clone(),
                into: su.name.clone(),
                expression: expr_text(&rhs_d),
            };
            return Ok(Some((g, fw)));
        }
    }
    Ok(None)
}

/// Forwards operand trees until none applies (at most `max_steps`).
pub fn forward_operand_trees(f: &Function, max_steps: usize) -> Result<(Function, Vec<Forwarded>)> {
    let mut f = f.clone();
    let mut done = Vec::new();
    for _ in 0..max_steps {
        match step(&f)? {
            Some((g, fw)) => {
                f = g;
                done.push(fw);
            }
            None => break,
        }
    }
    Ok((f, done))
}
