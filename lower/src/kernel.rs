//! What the lowering needs to know about a kernel, collected from the
//! front end: the signature (the argument vector's layout), the arrays with
//! their strides, and the statements with their bodies and accesses.

use std::collections::HashMap;

use scop::affine::Affine;
use scop::ast::{Function, ParamKind};
use scop::model::{AccessKind, ArrayOrigin, Expr};

use crate::error::{Error, Result};
use crate::linear::{strides, Poly};

/// Kinds of signature parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamClass {
    /// `int N` or `long N`: an `i64` slot (all integer arithmetic of the
    /// compiled code is 64-bit; see [`Kernel::new`] for `long`).
    Int,
    /// `double a`: an `f64` slot.
    Double,
    /// `double A[..]`: a pointer slot.
    Array,
}

/// Where an array lives at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Its pointer is in argument slot `k`.
    Slot(usize),
    /// A zero-dimensional array (a scalar): element `index` of the scalar
    /// area (its pointer is in [`Kernel::scalar_area`]); `init` is the
    /// argument slot of a written `double` parameter (its initial value).
    Scalar {
        /// Position in the scalar area.
        index: usize,
        /// Slot holding the initial value, if any.
        init: Option<usize>,
    },
}

/// An array of the kernel.
#[derive(Debug, Clone)]
pub struct ArrayInfo {
    /// Name.
    pub name: String,
    /// Extents (affine in the parameters).
    pub sizes: Vec<Affine>,
    /// Row-major strides in elements, when the extents are affine without
    /// divisions.
    pub strides: Option<Vec<Poly>>,
    /// Where it lives.
    pub storage: Storage,
}

/// One access of a statement.
#[derive(Debug, Clone)]
pub struct AccessInfo {
    /// The array.
    pub array: String,
    /// Subscripts over the statement's iterators and the parameters.
    pub index: Vec<Affine>,
    /// A write (else a read).
    pub write: bool,
}

/// A statement: iterators, body and accesses (body `Access(k)` is
/// `accesses[k]`).
#[derive(Debug, Clone)]
pub struct StmtInfo {
    /// `S0`, ...
    pub name: String,
    /// Iterators, outermost first.
    pub iterators: Vec<String>,
    /// The body.
    pub body: Expr,
    /// The accesses in the body's numbering.
    pub accesses: Vec<AccessInfo>,
    /// Pairs `(read, write)` of accesses to one array that never touch the
    /// same element in one instance (proved with the engine on the domain).
    pub disjoint: Vec<(usize, usize)>,
}

/// The kernel as the lowering sees it.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// Function name.
    pub name: String,
    /// Signature parameters: name and class, in order (argument slot = index).
    pub params: Vec<(String, ParamClass)>,
    /// Local arrays (declared in the body): their pointers follow the
    /// signature's slots, in this order.
    pub locals: Vec<String>,
    /// Scalars (local `double`s, written `double` parameters) in the order
    /// of the scalar area.
    pub scalars: Vec<String>,
    /// Arrays by name.
    pub arrays: HashMap<String, ArrayInfo>,
    /// Statements by name.
    pub statements: HashMap<String, StmtInfo>,
    /// Statement names in textual order.
    pub order: Vec<String>,
}

/// Whether a statement declares a `long` variable (a `for (long i ...)`
/// iterator is such a declaration around its loop).
fn declares_long(s: &scop::ast::Stmt) -> bool {
    use scop::ast::{BaseTy, IntTy, StmtKind};
    match &s.kind {
        StmtKind::Decl { ty, .. } => *ty == BaseTy::Int(IntTy::Long),
        StmtKind::Block(v) => v.iter().any(declares_long),
        StmtKind::For { body, .. } => declares_long(body),
        StmtKind::If { then_s, else_s, .. } => {
            declares_long(then_s) || else_s.as_deref().is_some_and(declares_long)
        }
        _ => false,
    }
}

/// Whether an integer expression is a constant (no iterator or parameter).
fn int_constant(e: &Expr) -> bool {
    match e {
        Expr::Int(_) => true,
        Expr::Unary { arg, .. } => int_constant(arg),
        Expr::Binary { lhs, rhs, .. } => int_constant(lhs) && int_constant(rhs),
        _ => false,
    }
}

/// The operator of the first integer product of two non-constant operands
/// (or division by a non-constant) in `e`.
fn non_affine_int(e: &Expr) -> Option<String> {
    use scop::ast::BinOp;
    use scop::model::Ty;
    match e {
        Expr::Assign { value, .. } => non_affine_int(value),
        Expr::Unary { arg, .. } => non_affine_int(arg),
        Expr::Binary { op, ty, lhs, rhs } => {
            let nonlinear = match op {
                BinOp::Mul => !int_constant(lhs) && !int_constant(rhs),
                BinOp::Div | BinOp::Mod => !int_constant(rhs),
                _ => false,
            };
            if *ty == Ty::Int && nonlinear {
                return Some(op.as_str().to_string());
            }
            non_affine_int(lhs).or_else(|| non_affine_int(rhs))
        }
        Expr::Call { args, .. } => args.iter().find_map(non_affine_int),
        Expr::ToDouble(a) => non_affine_int(a),
        _ => None,
    }
}

impl Kernel {
    /// Collects the kernel of a parsed function and its model.
    ///
    /// `long` parameters: the front end takes signed `long` arithmetic as
    /// exact (it records no wrapping obligation for it), and the compiled
    /// code computes every integer in 64 bits. The two agree when no
    /// intermediate value leaves 64 bits: [`crate::version`] runs the
    /// original program unless every `long` parameter lies in the 32-bit
    /// range (then bounds and subscripts, affine with small coefficients,
    /// stay far inside 64 bits, as for `int`), and a statement body of a
    /// kernel with `long` parameters must compute integer values affinely
    /// (a product of two variables, or a division by one, is refused here:
    /// its 64-bit overflow, undefined in C and an error in the interpreter,
    /// would not be noticed). So must one of a kernel that declares a `long`
    /// variable (an iterator): its values are unchecked too.
    pub fn new(f: &Function, model: &scop::Model) -> Result<Kernel> {
        let params: Vec<(String, ParamClass)> = f
            .params
            .iter()
            .map(|p| {
                let c = match p.kind {
                    // 32-bit `int` sizes are exact in 64-bit registers, and so are
                    // `long` ones in the range `crate::version` admits; unsigned
                    // types (modular), pointers and open arrays are not compiled
                    ParamKind::Int(scop::ast::IntTy::Int | scop::ast::IntTy::Long) => {
                        ParamClass::Int
                    }
                    ParamKind::Double => ParamClass::Double,
                    ParamKind::Array(_) => ParamClass::Array,
                    ref other => {
                        return Err(Error::Unsupported(format!(
                            "parameter `{}` ({other:?})",
                            p.name
                        )))
                    }
                };
                Ok((p.name.clone(), c))
            })
            .collect::<Result<_>>()?;
        let has_long = f
            .params
            .iter()
            .any(|p| matches!(p.kind, ParamKind::Int(scop::ast::IntTy::Long)))
            || f.body.iter().any(declares_long);
        if has_long {
            for s in model.statements() {
                if let Some(what) = non_affine_int(&s.body) {
                    return Err(Error::Unsupported(format!(
                        "{}: integer `{what}` of non-constant operands in a kernel with `long` values (their 64-bit overflow is not checked)",
                        s.name
                    )));
                }
            }
        }
        let slot_of = |n: &str| params.iter().position(|(p, _)| p == n);
        let mut arrays = HashMap::new();
        let mut locals = Vec::new();
        let mut scalars = Vec::new();
        for a in model.arrays() {
            let storage = match a.kind {
                ArrayOrigin::Param(_) => Storage::Slot(
                    slot_of(&a.name)
                        .ok_or_else(|| Error::Internal(format!("no parameter {}", a.name)))?,
                ),
                ArrayOrigin::ScalarParam(_) => {
                    scalars.push(a.name.clone());
                    Storage::Scalar {
                        index: scalars.len() - 1,
                        init: slot_of(&a.name),
                    }
                }
                ArrayOrigin::Local => {
                    scalars.push(a.name.clone());
                    Storage::Scalar {
                        index: scalars.len() - 1,
                        init: None,
                    }
                }
                ArrayOrigin::LocalArray => {
                    locals.push(a.name.clone());
                    Storage::Slot(params.len() + locals.len() - 1)
                }
            };
            if matches!(storage, Storage::Scalar { .. }) && !a.sizes.is_empty() {
                return Err(Error::Internal(format!("scalar {} has extents", a.name)));
            }
            arrays.insert(
                a.name.clone(),
                ArrayInfo {
                    name: a.name.clone(),
                    sizes: a.sizes.clone(),
                    strides: strides(&a.sizes),
                    storage,
                },
            );
        }
        let mut statements = HashMap::new();
        let mut order = Vec::new();
        for s in model.statements() {
            let accesses = s
                .accesses
                .iter()
                .map(|&k| {
                    let a = &model.accesses()[k];
                    AccessInfo {
                        array: a.array.clone(),
                        index: a.index.clone(),
                        write: !matches!(a.kind, AccessKind::Read),
                    }
                })
                .collect();
            let mut disjoint = Vec::new();
            for (wi, &w) in s.accesses.iter().enumerate() {
                let w = &model.accesses()[w];
                if matches!(w.kind, AccessKind::Read) {
                    continue;
                }
                for (ri, &r) in s.accesses.iter().enumerate() {
                    let r = &model.accesses()[r];
                    if r.array == w.array
                        && matches!(r.kind, AccessKind::Read)
                        && r.index != w.index
                    {
                        let none = presburger::budget::with_budget(10_000_000, || {
                            r.relation.intersect(&w.relation).and_then(|m| m.is_empty())
                        });
                        if none == Ok(true) {
                            disjoint.push((ri, wi));
                        }
                    }
                }
            }
            order.push(s.name.clone());
            statements.insert(
                s.name.clone(),
                StmtInfo {
                    name: s.name.clone(),
                    iterators: s.iterators.clone(),
                    body: s.body.clone(),
                    accesses,
                    disjoint,
                },
            );
        }
        Ok(Kernel {
            name: f.name.clone(),
            params,
            locals,
            scalars,
            arrays,
            statements,
            order,
        })
    }

    /// Argument slot of an integer or double parameter.
    pub fn param_slot(&self, name: &str) -> Option<(usize, ParamClass)> {
        self.params
            .iter()
            .position(|(p, _)| p == name)
            .map(|k| (k, self.params[k].1))
    }

    /// Argument slot of the scalar area's pointer (after the signature and
    /// the local arrays); the next two slots are the worker's number and the
    /// number of workers (for a parallel outer loop).
    pub fn scalar_area(&self) -> usize {
        self.params.len() + self.locals.len()
    }

    /// Argument slot of the worker's workspace pointer (after the worker's
    /// number and count).
    pub fn workspace_slot(&self) -> usize {
        self.scalar_area() + 3
    }

    /// Number of argument slots.
    pub fn slots(&self) -> usize {
        self.scalar_area() + 4
    }
}
