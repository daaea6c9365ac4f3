//! `poly assumptions KERNEL.c [--remarks]`: the optimistic assumptions of a
//! kernel's model (the `assumptions` crate) as one JSON object
//! `{"context", "assumed", "invalid", "kinds", "feasible", "check"}` (sets in
//! isl notation, `check` a C expression); with `--remarks`, also a
//! `"remarks"` list with one human-readable line per assumption, which are
//! printed to standard error as well.
//!
//! ```
//! let src = "void k(int n, double *A) { for (int i = n; i != 0; i -= 2) A[i] = 0; }";
//! let (json, _) = poly::assumptions::assumptions_json(src, false).unwrap();
//! assert!(json.starts_with("{\n \"context\": \"[n] -> {"));
//! assert!(json.contains("\"Termination\""));
//! ```

use crate::error::{Error, Result};
use scop::json::Json;

/// The JSON document of a kernel's assumptions and the remark lines.
pub fn assumptions_json(src: &str, remarks: bool) -> Result<(String, Vec<String>)> {
    let scop = scop::build_scop(src)?;
    let a =
        assumptions::analyze(&scop, &assumptions::Limits::default()).map_err(Error::Assumptions)?;
    let kinds = a
        .kinds
        .iter()
        .map(|(k, s)| (k.as_str().to_string(), Json::str(s.to_string())))
        .collect();
    let mut lines: Vec<String> = a.remarks.iter().map(|r| r.to_string()).collect();
    lines.extend(a.ranges.iter().map(|r| r.to_string()));
    let mut doc = vec![
        ("context".to_string(), Json::str(a.context.to_string())),
        ("assumed".to_string(), Json::str(a.assumed.to_string())),
        ("invalid".to_string(), Json::str(a.invalid.to_string())),
        ("kinds".to_string(), Json::Obj(kinds)),
        ("feasible".to_string(), Json::Bool(a.feasible)),
        ("check".to_string(), Json::str(a.check.clone())),
    ];
    if remarks {
        doc.push((
            "remarks".to_string(),
            Json::Arr(lines.iter().map(Json::str).collect()),
        ));
    }
    Ok((Json::Obj(doc).pretty(), lines))
}

/// The command: `poly assumptions KERNEL.c [--remarks]`.
pub fn assumptions_command(args: &[String]) -> Result<String> {
    let mut file = None;
    let mut remarks = false;
    for a in args {
        match a.as_str() {
            "--remarks" => remarks = true,
            s if s.starts_with('-') => {
                return Err(Error::Usage(format!(
                    "unknown option `{s}` for `poly assumptions`"
                )))
            }
            s if file.is_none() => file = Some(s.to_string()),
            _ => return Err(Error::Usage("`poly assumptions` takes one KERNEL.c".into())),
        }
    }
    let Some(path) = file else {
        return Err(Error::Usage("`poly assumptions` needs a KERNEL.c".into()));
    };
    let src = std::fs::read_to_string(&path).map_err(|e| Error::Io(format!("{path}: {e}")))?;
    let (json, lines) = assumptions_json(&src, remarks)?;
    if remarks {
        for l in &lines {
            eprintln!("{l}");
        }
    }
    Ok(json)
}
