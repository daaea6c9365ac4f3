//! The reference interpreter: runs an AST at given parameter values and
//! records the statement instances in execution order.

use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::node::Node;

/// One executed statement instance: its name and coordinates.
pub type Instance = (String, Vec<i64>);

/// Run `node` with the parameter values `params`; returns the executed
/// statement instances in order. At most `max_steps` loop iterations and
/// statement executions are performed (more is an [`Error::Eval`]).
pub fn run(node: &Node, params: &[(String, i64)], max_steps: u64) -> Result<Vec<Instance>> {
    let mut st = State {
        vars: params
            .iter()
            .map(|(n, v)| (n.clone(), *v as i128))
            .collect(),
        trace: Vec::new(),
        steps: 0,
        max_steps,
    };
    st.exec(node)?;
    Ok(st.trace)
}

struct State {
    vars: Vec<(String, i128)>,
    trace: Vec<Instance>,
    steps: u64,
    max_steps: u64,
}

impl State {
    fn eval(&self, e: &Expr) -> Result<i128> {
        let vars = &self.vars;
        e.eval(&|n: &str| vars.iter().rev().find(|(k, _)| k == n).map(|(_, v)| *v))
            .map_err(Error::Eval)
    }

    fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(Error::Eval(format!("more than {} steps", self.max_steps)));
        }
        Ok(())
    }

    fn exec(&mut self, node: &Node) -> Result<()> {
        match node {
            Node::Block(v) => {
                for n in v {
                    self.exec(n)?;
                }
            }
            Node::If { cond, then, els } => {
                if self.eval(cond)? != 0 {
                    self.exec(then)?;
                } else if let Some(e) = els {
                    self.exec(e)?;
                }
            }
            Node::For {
                iterator,
                init,
                cond,
                inc,
                body,
            } => {
                if *inc <= 0 {
                    return Err(Error::Eval(format!("non-positive step {inc}")));
                }
                let v = self.eval(init)?;
                self.vars.push((iterator.clone(), v));
                let slot = self.vars.len() - 1;
                loop {
                    if self.eval(cond)? == 0 {
                        break;
                    }
                    self.step()?;
                    self.exec(body)?;
                    let cur = self.vars[slot].1;
                    self.vars[slot].1 = cur
                        .checked_add(*inc as i128)
                        .ok_or_else(|| Error::Eval("iterator overflow".into()))?;
                }
                self.vars.truncate(slot);
            }
            Node::User { name, args } => {
                self.step()?;
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    let v = self.eval(a)?;
                    vals.push(
                        i64::try_from(v)
                            .map_err(|_| Error::Eval(format!("argument {v} out of range")))?,
                    );
                }
                self.trace.push((name.clone(), vals));
            }
        }
        Ok(())
    }
}
