//! Helpers shared by the integration tests.

use std::collections::HashMap;

use scop::ast::{Function, ParamKind};

/// The final contents of every array parameter of `f` run at `params`.
pub fn checksums(f: &Function, params: &[(&str, i64)]) -> Vec<(String, Vec<f64>)> {
    let ints: HashMap<String, i64> = params.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let mut st = scop::interp::initial_state(f, &ints, &HashMap::new()).unwrap();
    scop::interp::run(f, &mut st).unwrap();
    f.params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Array(_)))
        .map(|p| (p.name.clone(), st.arrays[&p.name].data.clone()))
        .collect()
}
