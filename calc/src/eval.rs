//! Evaluation of statements and expressions, with iscc's typing rules.

use std::collections::HashMap;

use presburger::{Int, UnionMap};

use crate::ast::{BinOp, Expr, ExprKind, Flow, Stmt, UnOp};
use crate::error::{Error, Pos, Result};
use crate::value::Value;

/// The variables of a running script.
#[derive(Clone, Debug, Default)]
pub struct Env {
    vars: HashMap<String, Value>,
}

/// Turn an engine result into a calculator result.
pub(crate) fn engine<T>(r: presburger::Result<T>, op: &str, pos: Pos) -> Result<T> {
    r.map_err(|e| Error::Engine {
        pos,
        op: op.to_string(),
        error: e,
    })
}

pub(crate) fn type_error(pos: Pos, message: String) -> Error {
    Error::Type { pos, message }
}

/// Translate a parse error of a literal (positions relative to the literal's
/// text) into a script position.
fn literal_error(e: presburger::Error, at: Pos) -> Error {
    literal_error_in(e, at, "a set or map literal")
}

/// A parse error of a literal (a set, map or quasi-polynomial, `what`),
/// its position moved to the script's.
pub(crate) fn literal_error_in(e: presburger::Error, at: Pos, what: &str) -> Error {
    match e {
        presburger::Error::Parse {
            line,
            col,
            expected,
        } => {
            let pos = if line <= 1 {
                Pos::new(at.line, at.col + col.max(1) - 1)
            } else {
                Pos::new(at.line + line - 1, col)
            };
            Error::Parse {
                pos,
                expected: format!("{expected} (in {what})"),
            }
        }
        other => Error::Parse {
            pos: at,
            expected: format!("a valid {}: {other}", what.trim_start_matches("a ")),
        },
    }
}

/// Dataflow analysis: the four results of isl's `compute_flow`,
/// `[must_dependence, may_dependence, must_no_source, may_no_source]`, for the
/// given must and may sources, kills, sinks and schedule.
///
/// DATAFLOW HOOK: this is the one place where the calculator calls the
/// `dataflow` crate (`dataflow::compute_flow`).
pub fn eval_flow(
    must: &UnionMap,
    may: &UnionMap,
    kill: Option<&UnionMap>,
    sink: &UnionMap,
    schedule: &UnionMap,
) -> std::result::Result<Vec<UnionMap>, String> {
    let mut info = dataflow::AccessInfo::from_sink(sink.clone())
        .with_must_source(must.clone())
        .with_may_source(may.clone())
        .with_schedule(schedule.clone());
    if let Some(k) = kill {
        info = info.with_kill(k.clone());
    }
    let flow = dataflow::compute_flow(&info).map_err(|e| format!("dataflow: {e}"))?;
    Ok(vec![
        flow.must_dependence,
        flow.may_dependence,
        flow.must_no_source,
        flow.may_no_source,
    ])
}

impl Env {
    /// An empty environment.
    pub fn new() -> Env {
        Env::default()
    }

    /// The value of a variable, if set.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }

    /// Run one statement: `Ok(Some(v))` if it prints `v`, `Ok(None)` for an assignment.
    pub fn exec(&mut self, stmt: &Stmt) -> Result<Option<Value>> {
        match stmt {
            Stmt::Assign { name, expr, .. } => {
                let v = self.eval(expr)?;
                self.vars.insert(name.clone(), v);
                Ok(None)
            }
            Stmt::Print { expr, .. } | Stmt::Expr { expr, .. } => self.eval(expr).map(Some),
        }
    }

    /// Evaluate an expression.
    pub fn eval(&self, e: &Expr) -> Result<Value> {
        let pos = e.pos;
        match &e.kind {
            ExprKind::Literal(text) if presburger::is_qpolynomial_text(text) => {
                crate::count::literal(text, pos)
            }
            ExprKind::Literal(text) => {
                let u = crate::parse_literal(text).map_err(|err| literal_error(err, pos))?;
                Ok(if u.is_set() {
                    Value::Set(u)
                } else {
                    Value::Map(u)
                })
            }
            ExprKind::Int(s) => s.parse::<Int>().map(Value::Int).map_err(|_| Error::Parse {
                pos,
                expected: format!("an integer, found `{s}`"),
            }),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Var(name) => self.vars.get(name).cloned().ok_or_else(|| Error::Eval {
                pos,
                message: format!("unknown identifier `{name}`"),
            }),
            ExprKind::List(items) => items
                .iter()
                .map(|x| self.eval(x))
                .collect::<Result<Vec<_>>>()
                .map(Value::List),
            ExprKind::Neg(x) => match self.eval(x)? {
                Value::Int(i) => Ok(Value::Int(-i)),
                v => Err(type_error(
                    pos,
                    format!("unary `-` expects an int, found {}", v.a_type()),
                )),
            },
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                unary(*op, v, pos)
            }
            ExprKind::Binary(op, l, r) => {
                let l = self.eval(l)?;
                let r = self.eval(r)?;
                binary(*op, l, r, pos)
            }
            ExprKind::Inverse(x) => {
                let v = self.eval(x)?;
                match v.as_map() {
                    Some(u) => Ok(Value::Map(engine(u.reverse(), "^-1", pos)?)),
                    None => Err(type_error(
                        pos,
                        format!("`^-1` expects a map, found {}", v.a_type()),
                    )),
                }
            }
            ExprKind::Closure(x) => {
                let v = self.eval(x)?;
                match v.as_map() {
                    Some(u) => {
                        let (c, exact) = engine(u.transitive_closure(), "^+", pos)?;
                        Ok(Value::List(vec![Value::Map(c), Value::Bool(exact)]))
                    }
                    None => Err(type_error(
                        pos,
                        format!("`^+` expects a map, found {}", v.a_type()),
                    )),
                }
            }
            ExprKind::Power(x, k) => {
                let v = self.eval(x)?;
                match v.as_map() {
                    Some(u) => Ok(Value::Map(engine(u.power(*k), &format!("^{k}"), pos)?)),
                    None => Err(type_error(
                        pos,
                        format!("`^{k}` expects a map, found {}", v.a_type()),
                    )),
                }
            }
            ExprKind::Apply(f, a) => {
                let f = self.eval(f)?;
                let a = self.eval(a)?;
                apply(f, a, pos)
            }
            ExprKind::Index(l, i) => {
                let l = self.eval(l)?;
                let i = self.eval(i)?;
                index(l, i, pos)
            }
            ExprKind::Flow(flow) => self.flow(flow, pos),
            ExprKind::Schedule(parts) => self.schedule(parts, pos),
            ExprKind::Codegen(schedule, options) => self.codegen(schedule, options.as_deref(), pos),
        }
    }

    /// `codegen S [using O]`: the C code scanning the schedule `S` (a map
    /// from statement instances to times) under the AST build options `O`
    /// (`{ [t] -> separate[x] }`, ...), as iscc prints it.
    fn codegen(&self, schedule: &Expr, options: Option<&Expr>, pos: Pos) -> Result<Value> {
        let map_of = |e: &Expr, role: &str| self.map_operand(e, &format!("{role} of `codegen`"));
        let s = map_of(schedule, "schedule")?;
        let loops = match options {
            None => ast::Options::default(),
            Some(o) => {
                let u = map_of(o, "`using` part (options)")?;
                ast::Options::from_union_map(&u, &s).map_err(|e| {
                    // point at the option named in the message, in a literal
                    let message = format!("codegen: {e}");
                    let name = message
                        .split('`')
                        .nth(1)
                        .and_then(|q| q.split(['[', ' ']).next());
                    let pos = match (&o.kind, name) {
                        (ExprKind::Literal(text), Some(n)) if !n.is_empty() => match text.find(n) {
                            Some(k) if !text[..k].contains('\n') => {
                                Pos::new(o.pos.line, o.pos.col + text[..k].chars().count())
                            }
                            _ => o.pos,
                        },
                        _ => o.pos,
                    };
                    Error::Eval { pos, message }
                })?
            }
        };
        let context =
            presburger::Set::universe(presburger::Space::params_only(s.params().to_vec()));
        // the session's budget applies
        let code = ast::generate_with_options(&s, &context, &loops).map_err(|e| match e {
            ast::Error::BudgetExceeded => Error::Engine {
                pos,
                op: "codegen".into(),
                error: presburger::Error::BudgetExceeded,
            },
            ast::Error::Engine(error) => Error::Engine {
                pos,
                op: "codegen".into(),
                error,
            },
            e => Error::Eval {
                pos,
                message: format!("codegen: {e}"),
            },
        })?;
        let text = code.to_c();
        Ok(Value::Str(text.trim_end_matches('\n').to_string()))
    }

    /// `schedule D respecting V minimizing P`: the scheduler's tree as a union map.
    fn schedule(&self, parts: &[Expr; 3], pos: Pos) -> Result<Value> {
        let d = self.eval(&parts[0])?;
        let domain = d.as_set().cloned().ok_or_else(|| {
            type_error(
                parts[0].pos,
                format!("`schedule` needs a domain set, found {}", d.a_type()),
            )
        })?;
        let validity = self.flow_operand(&parts[1], "`respecting` part (validity)")?;
        let proximity = self.flow_operand(&parts[2], "`minimizing` part (proximity)")?;
        let empty = UnionMap::empty(Vec::new());
        let sc = scheduler::ScheduleConstraints {
            domain,
            context: None,
            validity: validity.clone(),
            coincidence: validity,
            proximity,
            condition: empty.clone(),
            conditional_validity: empty,
        };
        // the session's budget applies (no budget of the scheduler's own)
        let opts = scheduler::Options {
            budget: None,
            ..scheduler::Options::default()
        };
        let res = sc
            .aligned()
            .and_then(|sc| scheduler::compute_schedule(&sc, &opts))
            .and_then(|s| s.to_union_map());
        res.map(Value::Map).map_err(|e| Error::Eval {
            pos,
            message: format!("schedule: {e}"),
        })
    }

    fn flow_operand(&self, e: &Expr, role: &str) -> Result<UnionMap> {
        self.map_operand(e, &format!("{role} of a dataflow expression"))
    }

    /// The map `e` evaluates to; `what` names it in the type error.
    fn map_operand(&self, e: &Expr, what: &str) -> Result<UnionMap> {
        let v = self.eval(e)?;
        v.as_map().cloned().ok_or_else(|| {
            type_error(
                e.pos,
                format!("the {what} must be a map, found {}", v.a_type()),
            )
        })
    }

    fn flow(&self, f: &Flow, pos: Pos) -> Result<Value> {
        let empty = UnionMap::empty(Vec::new());
        let must = match &f.must {
            Some(e) => self.flow_operand(e, "`last` part (must sources)")?,
            None => empty.clone(),
        };
        let may = match &f.may {
            Some(e) => self.flow_operand(e, "`any` part (may sources)")?,
            None => empty.clone(),
        };
        let kill = match &f.kill {
            Some(e) => Some(self.flow_operand(e, "`kill` part")?),
            None => None,
        };
        let sink = self.flow_operand(&f.sink, "`before` part (sinks)")?;
        let schedule = self.flow_operand(&f.schedule, "`under` part (schedule)")?;
        let res = eval_flow(&must, &may, kill.as_ref(), &sink, &schedule)
            .map_err(|message| Error::Eval { pos, message })?;
        if res.len() != 4 {
            return Err(Error::Internal {
                pos,
                message: format!("dataflow returned {} results instead of 4", res.len()),
            });
        }
        let picked: Vec<UnionMap> = match (f.must.is_some(), f.may.is_some()) {
            // `last W before R under S`: [dependences, sinks without a source]
            (true, false) => vec![res[0].clone(), res[2].clone()],
            // `any W before R under S`: [may dependences, sinks that may have no source]
            (false, true) => vec![res[1].clone(), res[3].clone()],
            _ => res,
        };
        Ok(Value::List(picked.into_iter().map(Value::Map).collect()))
    }
}

/// Evaluate a prefix operator.
pub fn unary(op: UnOp, v: Value, pos: Pos) -> Result<Value> {
    use UnOp::*;
    let name = op.name();
    let want_map = |v: &Value| -> Result<UnionMap> {
        v.as_map()
            .cloned()
            .ok_or_else(|| type_error(pos, format!("`{name}` expects a map, found {}", v.a_type())))
    };
    let want_set = |v: &Value| -> Result<UnionMap> {
        v.as_set()
            .cloned()
            .ok_or_else(|| type_error(pos, format!("`{name}` expects a set, found {}", v.a_type())))
    };
    // Operators that keep the kind: a set gives a set, a map a map.
    let same_kind =
        |v: Value, f: &dyn Fn(&UnionMap) -> presburger::Result<UnionMap>| -> Result<Value> {
            match v {
                Value::Set(u) => Ok(Value::Set(engine(f(&u), name, pos)?)),
                Value::Map(u) => Ok(Value::Map(engine(f(&u), name, pos)?)),
                v => Err(type_error(
                    pos,
                    format!("`{name}` expects a set or a map, found {}", v.a_type()),
                )),
            }
        };
    match op {
        Typeof => Ok(Value::Str(v.type_name().to_string())),
        Lexmin => same_kind(v, &UnionMap::lexmin),
        Lexmax => same_kind(v, &UnionMap::lexmax),
        Coalesce => same_kind(v, &UnionMap::coalesce),
        Sample => same_kind(v, &UnionMap::sample),
        Complement => same_kind(v, &UnionMap::complement),
        AffineHull => same_kind(v, &UnionMap::affine_hull),
        ConvexHull => same_kind(v, &UnionMap::convex_hull),
        Domain if matches!(v, Value::Set(_)) => Err(type_error(
            pos,
            "`domain` expects a map, found a set".into(),
        )),
        Range if matches!(v, Value::Set(_)) => {
            Err(type_error(pos, "`range` expects a map, found a set".into()))
        }
        Domain => Ok(Value::Set(engine(want_map(&v)?.domain(), name, pos)?)),
        Range => Ok(Value::Set(engine(want_map(&v)?.range(), name, pos)?)),
        Deltas => Ok(Value::Set(engine(want_map(&v)?.deltas(), name, pos)?)),
        DeltasMap => Ok(Value::Map(engine(want_map(&v)?.deltas_map(), name, pos)?)),
        DomainMap => Ok(Value::Map(engine(want_map(&v)?.domain_map(), name, pos)?)),
        RangeMap => Ok(Value::Map(engine(want_map(&v)?.range_map(), name, pos)?)),
        Wrap => Ok(Value::Set(engine(want_map(&v)?.wrap(), name, pos)?)),
        Identity => Ok(Value::Map(engine(want_set(&v)?.identity(), name, pos)?)),
        Unwrap => Ok(Value::Map(engine(want_set(&v)?.unwrap(), name, pos)?)),
        Card => crate::count::card(&v, pos),
        Sum => crate::count::sum(&v, pos),
        Ub => crate::count::bound(&v, true, pos),
        Lb => crate::count::bound(&v, false, pos),
        Params => match &v {
            Value::Set(u) | Value::Map(u) => Ok(Value::Set(engine(u.params_set(), name, pos)?)),
            v => Err(type_error(
                pos,
                format!("`params` expects a set or a map, found {}", v.a_type()),
            )),
        },
        IsEmpty => match &v {
            Value::Set(u) | Value::Map(u) => Ok(Value::Bool(engine(u.is_empty(), name, pos)?)),
            Value::List(l) => Ok(Value::Bool(l.is_empty())),
            v => Err(type_error(
                pos,
                format!("`is_empty` expects a set or a map, found {}", v.a_type()),
            )),
        },
        IsSingleValued => Ok(Value::Bool(engine(
            want_map(&v)?.is_single_valued(),
            name,
            pos,
        )?)),
        IsInjective => Ok(Value::Bool(engine(
            want_map(&v)?.is_injective(),
            name,
            pos,
        )?)),
    }
}

/// The kind shared by two union operands, if any: `Some(true)` for two sets,
/// `Some(false)` for two maps.
fn same_union_kind(l: &Value, r: &Value) -> Option<bool> {
    if l.as_set().is_some() && r.as_set().is_some() {
        Some(true)
    } else if l.as_map().is_some() && r.as_map().is_some() {
        Some(false)
    } else {
        None
    }
}

fn union_of(v: &Value) -> UnionMap {
    match v {
        Value::Set(u) | Value::Map(u) => u.clone(),
        _ => UnionMap::default(),
    }
}

/// Evaluate a binary operator.
pub fn binary(op: BinOp, l: Value, r: Value, pos: Pos) -> Result<Value> {
    use BinOp::*;
    let sym = op.symbol();
    let mismatch = |l: &Value, r: &Value| {
        type_error(
            pos,
            format!("`{sym}` cannot combine {} and {}", l.a_type(), r.a_type()),
        )
    };
    // Integer arithmetic and comparisons.
    if let (Some(a), Some(b)) = (l.as_int(), r.as_int()) {
        return match op {
            Union => Ok(Value::Int(a + b)),
            Diff => Ok(Value::Int(a - b)),
            Inter => Ok(Value::Int(a * b)),
            Eq => Ok(Value::Bool(a == b)),
            Le => Ok(Value::Bool(a <= b)),
            Ge => Ok(Value::Bool(a >= b)),
            Lt => Ok(Value::Bool(a < b)),
            Gt => Ok(Value::Bool(a > b)),
            _ => Err(mismatch(&l, &r)),
        };
    }
    match (op, &l, &r) {
        (Eq, Value::Bool(a), Value::Bool(b)) => return Ok(Value::Bool(a == b)),
        (Eq, Value::Str(a), Value::Str(b)) => return Ok(Value::Bool(a == b)),
        (Union, Value::List(a), Value::List(b)) => {
            return Ok(Value::List(a.iter().chain(b).cloned().collect()))
        }
        (Union, Value::Str(a), Value::Str(b)) => return Ok(Value::Str(format!("{a}{b}"))),
        _ => {}
    }
    let kind = same_union_kind(&l, &r);
    let (a, b) = (union_of(&l), union_of(&r));
    let wrap = |is_set: bool, u: UnionMap| if is_set { Value::Set(u) } else { Value::Map(u) };
    match op {
        // a map and a set: iscc's subtract_domain and gist_domain
        Diff | Gist if matches!((&l, &r), (Value::Map(_), Value::Set(_))) => {
            let res = if op == Diff {
                engine(a.subtract_domain(&b), "subtract_domain", pos)?
            } else {
                engine(a.gist_domain(&b), "gist_domain", pos)?
            };
            Ok(Value::Map(res))
        }
        Union | Diff | Gist | Cross => {
            let is_set = kind.ok_or_else(|| mismatch(&l, &r))?;
            let (res, name) = match op {
                Union => (a.union(&b), "union"),
                Diff => (a.subtract(&b), "subtract"),
                Gist => (a.gist(&b), "gist"),
                _ => (a.cross(&b), "cross"),
            };
            Ok(wrap(is_set, engine(res, name, pos)?))
        }
        Inter => match kind {
            Some(is_set) => Ok(wrap(is_set, engine(a.intersect(&b), "intersect", pos)?)),
            None => match (&l, &r) {
                (Value::Set(s), Value::Map(m)) | (Value::Map(m), Value::Set(s)) => Ok(Value::Map(
                    engine(m.intersect_domain(s), "intersect_domain", pos)?,
                )),
                _ => Err(mismatch(&l, &r)),
            },
        },
        RangeInter | RangeDiff => match (l.as_map(), r.as_set()) {
            (Some(m), Some(s)) => Ok(Value::Map(if op == RangeInter {
                engine(m.intersect_range(s), "intersect_range", pos)?
            } else {
                engine(m.subtract_range(s), "subtract_range", pos)?
            })),
            _ => Err(type_error(
                pos,
                format!(
                    "`{sym}` expects a map and a set, found {} and {}",
                    l.a_type(),
                    r.a_type()
                ),
            )),
        },
        After => match (l.as_map(), r.as_map()) {
            (Some(x), Some(y)) => Ok(Value::Map(engine(y.apply_range(x), "after", pos)?)),
            _ => Err(type_error(
                pos,
                format!(
                    "`after` expects two maps, found {} and {}",
                    l.a_type(),
                    r.a_type()
                ),
            )),
        },
        Join => match (l.as_map(), r.as_map()) {
            (Some(x), Some(y)) => Ok(Value::Map(engine(x.apply_range(y), "join", pos)?)),
            _ => Err(type_error(
                pos,
                format!(
                    "`.` expects two maps, found {} and {}",
                    l.a_type(),
                    r.a_type()
                ),
            )),
        },
        Product => match (l.as_set(), r.as_set()) {
            (Some(x), Some(y)) => Ok(Value::Map(engine(x.product_sets(y), "product", pos)?)),
            _ => Err(type_error(
                pos,
                format!(
                    "`->` expects two sets, found {} and {}",
                    l.a_type(),
                    r.a_type()
                ),
            )),
        },
        Eq | Le | Ge | Lt | Gt => {
            kind.ok_or_else(|| mismatch(&l, &r))?;
            let sub = |x: &UnionMap, y: &UnionMap| engine(x.is_subset(y), "is_subset", pos);
            let b = match op {
                Eq => engine(a.is_equal(&b), "is_equal", pos)?,
                Le => sub(&a, &b)?,
                Ge => sub(&b, &a)?,
                Lt => sub(&a, &b)? && !sub(&b, &a)?,
                _ => sub(&b, &a)? && !sub(&a, &b)?,
            };
            Ok(Value::Bool(b))
        }
        LexLt | LexLe | LexGt | LexGe => {
            let strict = matches!(op, LexLt | LexGt);
            let less = matches!(op, LexLt | LexLe);
            match kind {
                Some(true) => Ok(Value::Map(engine(a.lex_order(&b, strict, less), sym, pos)?)),
                Some(false) => Ok(Value::Map(engine(
                    a.lex_order_maps(&b, strict, less),
                    sym,
                    pos,
                )?)),
                None => Err(type_error(
                    pos,
                    format!(
                        "`{sym}` expects two sets or two maps, found {} and {}",
                        l.a_type(),
                        r.a_type()
                    ),
                )),
            }
        }
    }
}

/// Evaluate an application `f(a)`: a map applied to a set (its image) or to
/// a map (applied to the map's range).
pub fn apply(f: Value, a: Value, pos: Pos) -> Result<Value> {
    if let (Value::QPoly(fs), Value::Set(at)) = (&f, &a) {
        return crate::count::eval_at(fs, at, pos);
    }
    if let Value::QPoly(_) = &f {
        return Err(type_error(
            pos,
            format!(
                "a quasi-polynomial is evaluated at a set of points (e.g. `f([n] -> {{ : n = 10 }})`), not at {}",
                a.a_type()
            ),
        ));
    }
    // `{ }` (no parts) is a map too
    match (f.as_map(), &a) {
        (Some(m), Value::Set(s)) => Ok(Value::Set(engine(s.apply(m), "apply", pos)?)),
        (Some(m), Value::Map(x)) => Ok(Value::Map(engine(x.apply_range(m), "apply", pos)?)),
        (Some(_), a) => Err(type_error(
            pos,
            format!(
                "a map can be applied to a set or a map, not to {}",
                a.a_type()
            ),
        )),
        (None, _) => Err(type_error(
            pos,
            format!("only a map can be applied, found {}", f.a_type()),
        )),
    }
}

/// Evaluate an indexing `l[i]`.
pub fn index(l: Value, i: Value, pos: Pos) -> Result<Value> {
    let items = match l {
        Value::List(items) => items,
        v => {
            return Err(type_error(
                pos,
                format!("only a list can be indexed, found {}", v.a_type()),
            ))
        }
    };
    let k = match i.as_int() {
        Some(k) => k.clone(),
        None => {
            return Err(type_error(
                pos,
                format!("a list index must be an int, found {}", i.a_type()),
            ))
        }
    };
    match k
        .to_i64()
        .and_then(|k| usize::try_from(k).ok())
        .filter(|&k| k < items.len())
    {
        Some(k) => Ok(items[k].clone()),
        None => Err(Error::Eval {
            pos,
            message: format!(
                "index {k} out of range for a list of {} element{}",
                items.len(),
                if items.len() == 1 { "" } else { "s" }
            ),
        }),
    }
}
