//! The shared kernel models (`../shared/kernels/NAME.model.json`): the
//! reference polyhedral model of each kernel, as isl text per field (named
//! `KernelModel` to keep it apart from the front end's typed `scop` model).

use std::path::PathBuf;

use presburger::UnionMap;

use crate::json::Json;

/// A kernel model: its name and the fields of `NAME.model.json`.
#[derive(Clone, Debug)]
pub struct KernelModel {
    /// Kernel name (file stem).
    pub name: String,
    /// Iteration domains.
    pub domain: UnionMap,
    /// Schedule.
    pub schedule: UnionMap,
    /// Definite writes.
    pub must_write: UnionMap,
    /// Possible writes (empty when the model has none).
    pub may_write: UnionMap,
    /// Reads.
    pub read: UnionMap,
}

/// The directory of the shared kernel models, if present.
pub fn kernels_dir() -> Option<PathBuf> {
    crate::shared_path("kernels")
}

/// The model files of the kernels directory, sorted (empty if it is missing).
pub fn model_files() -> Vec<PathBuf> {
    let Some(dir) = kernels_dir() else {
        return vec![];
    };
    crate::shared::files_with_suffix(&dir, ".model.json")
}

fn field(j: &Json, k: &str) -> Option<UnionMap> {
    let s = j.get(k)?.as_str()?;
    match s.parse::<UnionMap>() {
        Ok(u) => Some(u),
        Err(e) => panic!("model field {k}: {e}"),
    }
}

impl KernelModel {
    /// The model written in `text` (the JSON of a model file) for kernel
    /// `name`; missing fields are empty (over the domain's parameters).
    ///
    /// # Panics
    /// When the text is not JSON or a field is not isl notation: the shared
    /// models are test data, and a broken one is a test failure.
    pub fn from_json_text(name: &str, text: &str) -> KernelModel {
        let j = Json::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let params = match field(&j, "domain") {
            Some(d) => d.params().to_vec(),
            None => vec![],
        };
        let get = |k: &str| field(&j, k).unwrap_or_else(|| UnionMap::empty(params.clone()));
        KernelModel {
            name: name.to_string(),
            domain: get("domain"),
            schedule: get("schedule"),
            must_write: get("must_write"),
            may_write: get("may_write"),
            read: get("read"),
        }
    }
}

/// All shared kernel models, sorted by name (empty if the directory is missing).
pub fn models() -> Vec<KernelModel> {
    model_files()
        .iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let name = p
                .file_name()
                .map(|n| {
                    n.to_string_lossy()
                        .trim_end_matches(".model.json")
                        .to_string()
                })
                .unwrap_or_default();
            KernelModel::from_json_text(&name, &text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::KernelModel;

    #[test]
    fn reads_a_model_and_fills_missing_fields() {
        let m = KernelModel::from_json_text(
            "k",
            r#"{"domain": "[n] -> { S[i] : 0 <= i < n }", "schedule": "[n] -> { S[i] -> [i] }",
                "read": "[n] -> { S[i] -> A[i] }", "must_write": "[n] -> { S[i] -> B[i] }"}"#,
        );
        assert_eq!(m.name, "k");
        assert!(m.may_write.is_empty().unwrap());
        assert_eq!(m.may_write.params(), ["n".to_string()]);
        assert_eq!(m.read.maps().len(), 1);
        assert!(!m.must_write.is_empty().unwrap());
    }
}
