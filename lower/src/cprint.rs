//! The generated loops as a complete C function with the kernel's original
//! signature (`poly compile --emit c`): the AST's loops and guards, each
//! statement call replaced by the statement's body with its iterators bound
//! to the call's arguments.

use ast::Node;
use scop::affine::{AVar, Affine};
use scop::ast::{ExprKind, Function, ParamKind, UnOp};
use scop::model::Expr;

use crate::error::{Error, Result};
use crate::kernel::{Kernel, StmtInfo, Storage};

const PRELUDE: &str = "\
#include <math.h>

static inline long floord(long n, long d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long max(long a, long b) { return a > b ? a : b; }
";

fn src_expr(e: &scop::ast::Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(_, s) => s.clone(),
        ExprKind::Var(n) => n.clone(),
        ExprKind::Index(a, ix) => {
            format!(
                "{a}{}",
                ix.iter()
                    .map(|i| format!("[{}]", src_expr(i)))
                    .collect::<String>()
            )
        }
        ExprKind::Unary(op, a) => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::Plus => "+",
                UnOp::Not => "!",
            };
            format!("({o}{})", src_expr(a))
        }
        ExprKind::Binary(op, a, b) => format!("({} {} {})", src_expr(a), op.as_str(), src_expr(b)),
        ExprKind::Call(f, args) => {
            format!(
                "{f}({})",
                args.iter().map(src_expr).collect::<Vec<_>>().join(", ")
            )
        }
        ExprKind::CastDouble(a) => format!("((double){})", src_expr(a)),
    }
}

fn affine_c(a: &Affine) -> String {
    let mut s = a.constant.to_string();
    for (v, c) in &a.terms {
        let t = match v {
            AVar::Name(n) => n.clone(),
            AVar::Div(b, d) => format!("floord({}, {d})", affine_c(b)),
        };
        s = format!("{s} + {c} * {t}");
    }
    format!("({s})")
}

fn body_c(s: &StmtInfo, e: &Expr) -> Result<String> {
    let acc = |k: usize| -> Result<String> {
        let a = s
            .accesses
            .get(k)
            .ok_or_else(|| Error::Internal(format!("access {k} of {}", s.name)))?;
        Ok(format!(
            "{}{}",
            a.array,
            a.index
                .iter()
                .map(|i| format!("[{}]", affine_c(i)))
                .collect::<String>()
        ))
    };
    Ok(match e {
        Expr::Assign { target, value, .. } => format!("{} = {};", acc(*target)?, body_c(s, value)?),
        Expr::Access(k) => acc(*k)?,
        Expr::Double(f) => format!("{f:?}"),
        Expr::Int(v) => format!("{v}L"),
        Expr::IntVar(n) | Expr::DoubleParam(n) => n.clone(),
        Expr::Unary { op, arg, .. } => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::Plus => "+",
                UnOp::Not => "!",
            };
            format!("({o}{})", body_c(s, arg)?)
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", body_c(s, lhs)?, op.as_str(), body_c(s, rhs)?)
        }
        Expr::Call { name, args, .. } => {
            let a: Result<Vec<String>> = args.iter().map(|x| body_c(s, x)).collect();
            let f = match name.as_str() {
                "MIN" => "min",
                "MAX" => "max",
                n => n,
            };
            format!("{f}({})", a?.join(", "))
        }
        Expr::ToDouble(a) => format!("((double){})", body_c(s, a)?),
    })
}

fn node_c(k: &Kernel, n: &Node, ind: usize, out: &mut String) -> Result<()> {
    let pad = "  ".repeat(ind);
    match n {
        Node::Block(v) => {
            for x in v {
                node_c(k, x, ind, out)?;
            }
        }
        Node::For {
            iterator,
            init,
            cond,
            inc,
            body,
        } => {
            out.push_str(&format!(
                "{pad}for (long {iterator} = {init}; {cond}; {iterator} += {inc}) {{\n"
            ));
            node_c(k, body, ind + 1, out)?;
            out.push_str(&format!("{pad}}}\n"));
        }
        Node::If { cond, then, els } => {
            out.push_str(&format!("{pad}if ({cond}) {{\n"));
            node_c(k, then, ind + 1, out)?;
            if let Some(e) = els {
                out.push_str(&format!("{pad}}} else {{\n"));
                node_c(k, e, ind + 1, out)?;
            }
            out.push_str(&format!("{pad}}}\n"));
        }
        Node::User { name, args } => {
            let s = k
                .statements
                .get(name)
                .ok_or_else(|| Error::Internal(format!("unknown statement {name}")))?;
            let tmp: Vec<String> = args
                .iter()
                .enumerate()
                .map(|(i, a)| format!("_a{i} = {a}"))
                .collect();
            let bind: Vec<String> = s
                .iterators
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{v} = _a{i}"))
                .collect();
            out.push_str(&format!("{pad}{{ /* {name} */\n"));
            if !tmp.is_empty() {
                out.push_str(&format!("{pad}  const long {};\n", tmp.join(", ")));
                out.push_str(&format!("{pad}  const long {};\n", bind.join(", ")));
            }
            out.push_str(&format!("{pad}  {}\n{pad}}}\n", body_c(s, &s.body)?));
        }
    }
    Ok(())
}

/// The C function: the original signature, local scalars and arrays, the
/// generated loops with the statement bodies.
pub fn c_function(k: &Kernel, f: &Function, node: &Node) -> Result<String> {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Int(t) => format!("{} {}", int_type_name(*t), p.name),
            ParamKind::Double => format!("double {}", p.name),
            ParamKind::Array(d) => {
                format!(
                    "double {}{}",
                    p.name,
                    d.iter()
                        .map(|e| format!("[{}]", src_expr(e)))
                        .collect::<String>()
                )
            }
            ParamKind::OpenArray(d) => {
                format!(
                    "double {}[]{}",
                    p.name,
                    d.iter()
                        .map(|e| format!("[{}]", src_expr(e)))
                        .collect::<String>()
                )
            }
            ParamKind::Pointer { restrict } => {
                format!(
                    "double *{}{}",
                    if *restrict { "restrict " } else { "" },
                    p.name
                )
            }
        })
        .collect();
    let mut out = format!("{PRELUDE}\nvoid {}({})\n{{\n", f.name, params.join(", "));
    let mut names: Vec<&String> = k.arrays.keys().collect();
    names.sort();
    for n in names {
        let a = &k.arrays[n];
        if let Storage::Scalar { init: None, .. } = a.storage {
            out.push_str(&format!("  double {n};\n"));
        }
    }
    for l in &k.locals {
        let dims: String = k.arrays[l]
            .sizes
            .iter()
            .map(|d| format!("[{}]", affine_c(d)))
            .collect();
        out.push_str(&format!("  double {l}{dims};\n"));
    }
    node_c(k, node, 1, &mut out)?;
    out.push_str("}\n");
    Ok(out)
}

/// The C name of an integer parameter type.
fn int_type_name(t: scop::ast::IntTy) -> &'static str {
    use scop::ast::IntTy;
    match t {
        IntTy::Int => "int",
        IntTy::UInt => "unsigned",
        IntTy::Long => "long",
        IntTy::ULong => "unsigned long",
    }
}
