//! The front end's own isl printer of a [`Scop`]: the union relations as
//! text in the notation of the shared reference models (`S0[i] -> A[i+1]`,
//! `exists (e0 : i = 2e0)`), statement bodies as C-like text.
//!
//! `poly scop` prints this text (it matches the reference models textually
//! where no existential is involved); the engine-built [`crate::Model`] is
//! tested semantically equal to it on every kernel.

use crate::affine::{Affine, Formula};
use crate::ast::UnOp;
use crate::model::{Access, AccessKind, Array, Expr, SchedDim, Scop, Statement};
use std::collections::BTreeSet;

impl Scop {
    fn exists_prefix(&self) -> String {
        let mut names: BTreeSet<String> = self.params.iter().cloned().collect();
        for s in &self.statements {
            names.extend(s.iterators.iter().cloned());
        }
        let mut p = "e".to_string();
        while names.iter().any(|n| {
            n.strip_prefix(p.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        }) {
            p.push('e');
        }
        p
    }

    fn wrap(&self, body: &str) -> String {
        if self.params.is_empty() {
            format!("{{ {body} }}")
        } else {
            format!("[{}] -> {{ {body} }}", self.params.join(", "))
        }
    }

    fn formula_text(&self, f: &Formula) -> Option<String> {
        let prefix = self.exists_prefix();
        let mut k = 0;
        f.to_isl(&mut || {
            k += 1;
            format!("{prefix}{}", k - 1)
        })
    }

    fn with_domain(&self, s: &Statement, head: String) -> String {
        match self.formula_text(&s.domain) {
            Some(c) => format!("{head} : {c}"),
            None => head,
        }
    }

    /// The context, e.g. `[N] -> { : N >= 0 }`.
    pub fn context_text(&self) -> String {
        match self.formula_text(&self.context) {
            Some(c) => self.wrap(&format!(": {c}")),
            None => self.wrap(""),
        }
    }

    /// The union of the iteration domains, e.g.
    /// `[N] -> { S0[i] : 0 <= i < N; S1[] }`.
    ///
    /// ```
    /// let scop = scop::build_scop("void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }").unwrap();
    /// assert_eq!(scop.domain_text(), "[N] -> { S0[i] : 0 <= i < N }");
    /// ```
    pub fn domain_text(&self) -> String {
        let parts: Vec<String> = self
            .statements
            .iter()
            .map(|s| self.with_domain(s, s.tuple()))
            .collect();
        self.wrap(&parts.join("; "))
    }

    /// The original schedule as a union map to a common time space.
    ///
    /// ```
    /// let scop = scop::build_scop("void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = 1; }").unwrap();
    /// assert_eq!(scop.schedule_text(), "[N] -> { S0[i] -> [i] }");
    /// ```
    pub fn schedule_text(&self) -> String {
        let parts: Vec<String> = self
            .statements
            .iter()
            .map(|s| {
                let dims: Vec<String> = s
                    .schedule
                    .iter()
                    .map(|d| match d {
                        SchedDim::Const(c) => c.to_string(),
                        SchedDim::Iter(v, 1) => v.clone(),
                        SchedDim::Iter(v, k) => Affine::var(v).scale(*k).to_isl_compact(),
                    })
                    .collect();
                format!("{} -> [{}]", s.tuple(), dims.join(","))
            })
            .collect();
        self.wrap(&parts.join("; "))
    }

    fn access_text(&self, kind: AccessKind, tagged: bool) -> String {
        let mut parts = Vec::new();
        for s in &self.statements {
            for a in &s.accesses {
                let matches = a.kind == kind
                    || (kind == AccessKind::MayWrite && a.kind == AccessKind::MustWrite);
                if !matches {
                    continue;
                }
                let head = if tagged {
                    format!("[{} -> {}[]] -> {}", s.tuple(), a.ref_id, a.target())
                } else {
                    format!("{} -> {}", s.tuple(), a.target())
                };
                parts.push(self.with_domain(s, head));
            }
        }
        self.wrap(&parts.join("; "))
    }

    /// Read access relation `{ S[i] -> A[f(i)] }`.
    pub fn read_text(&self) -> String {
        self.access_text(AccessKind::Read, false)
    }
    /// Must-write access relation.
    pub fn must_write_text(&self) -> String {
        self.access_text(AccessKind::MustWrite, false)
    }
    /// May-write access relation (a superset of the must-writes).
    pub fn may_write_text(&self) -> String {
        self.access_text(AccessKind::MayWrite, false)
    }
    /// Reads tagged with reference ids: `{ [S[i] -> R0[]] -> A[i] }`.
    pub fn tagged_read_text(&self) -> String {
        self.access_text(AccessKind::Read, true)
    }
    /// Tagged must-writes.
    pub fn tagged_must_write_text(&self) -> String {
        self.access_text(AccessKind::MustWrite, true)
    }
    /// Tagged may-writes.
    pub fn tagged_may_write_text(&self) -> String {
        self.access_text(AccessKind::MayWrite, true)
    }

    /// The set of valid elements of an array, e.g.
    /// `[N] -> { A[i0, i1] : 0 <= i0 < N and 0 <= i1 < N }`.
    pub fn array_extent_text(&self, a: &Array) -> String {
        let mut base = "i".to_string();
        while self.params.iter().any(|n| {
            n.strip_prefix(base.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        }) {
            base.push('i');
        }
        let vars: Vec<String> = (0..a.dims.len()).map(|k| format!("{base}{k}")).collect();
        let cons: Vec<Formula> = a
            .dims
            .iter()
            .zip(&vars)
            .map(|(d, v)| Formula::Range {
                lo: Affine::constant(0),
                var: v.clone(),
                hi: d.clone(),
                strict: true,
            })
            .collect();
        let head = format!("{}[{}]", a.name, vars.join(", "));
        match self.formula_text(&Formula::and(cons)) {
            Some(c) => self.wrap(&format!("{head} : {c}")),
            None => self.wrap(&head),
        }
    }

    /// All model texts in one value (see [`ModelTexts`]).
    pub fn texts(&self) -> ModelTexts {
        ModelTexts {
            params: self.params.clone(),
            context: self.context_text(),
            domain: self.domain_text(),
            schedule: self.schedule_text(),
            read: self.read_text(),
            must_write: self.must_write_text(),
            may_write: self.may_write_text(),
            tagged_read: self.tagged_read_text(),
            tagged_must_write: self.tagged_must_write_text(),
            tagged_may_write: self.tagged_may_write_text(),
        }
    }
}

/// The model as isl texts, ready to be parsed by a set engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelTexts {
    /// Parameter names.
    pub params: Vec<String>,
    /// Context set.
    pub context: String,
    /// Union of iteration domains.
    pub domain: String,
    /// Original schedule.
    pub schedule: String,
    /// Reads.
    pub read: String,
    /// Must-writes.
    pub must_write: String,
    /// May-writes.
    pub may_write: String,
    /// Tagged reads.
    pub tagged_read: String,
    /// Tagged must-writes.
    pub tagged_must_write: String,
    /// Tagged may-writes.
    pub tagged_may_write: String,
}

impl Statement {
    /// The statement's tuple, e.g. `S1[i,j]`.
    pub fn tuple(&self) -> String {
        format!("{}[{}]", self.name, self.iterators.join(","))
    }

    /// The body as C-like text, e.g. `C[i,j] = (C[i,j] * beta)`.
    pub fn body_text(&self) -> String {
        self.expr_text(&self.body)
    }

    fn expr_text(&self, e: &Expr) -> String {
        match e {
            Expr::Assign { op, target, value } => format!(
                "{} {} {}",
                self.accesses[*target].target(),
                op.as_str(),
                self.expr_text(value)
            ),
            Expr::Access(k) => self.accesses[*k].target(),
            Expr::Double(v) => format!("{v:?}"),
            Expr::Int(v) => v.to_string(),
            Expr::IntVar(n) | Expr::DoubleParam(n) => n.clone(),
            Expr::Unary { op, arg, .. } => format!(
                "{}{}",
                match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                },
                self.expr_text(arg)
            ),
            Expr::Binary { op, lhs, rhs, .. } => format!(
                "({} {} {})",
                self.expr_text(lhs),
                op.as_str(),
                self.expr_text(rhs)
            ),
            Expr::Call { name, args, .. } => format!(
                "{name}({})",
                args.iter()
                    .map(|a| self.expr_text(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Expr::ToDouble(a) => format!("(double){}", self.expr_text(a)),
        }
    }
}

impl Access {
    /// The accessed element in isl notation, e.g. `A[i-1,j]` or `s[]`.
    pub fn target(&self) -> String {
        let idx: Vec<String> = self.index.iter().map(|a| a.to_isl_compact()).collect();
        format!("{}[{}]", self.array, idx.join(","))
    }
}
