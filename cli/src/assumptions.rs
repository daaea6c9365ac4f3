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
//! assert!(json.starts_with("{\"context\": \"[n] -> {"));
//! assert!(json.contains("\"Termination\""));
//! ```

use crate::error::{Error, Result};

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The JSON document of a kernel's assumptions and the remark lines.
pub fn assumptions_json(src: &str, remarks: bool) -> Result<(String, Vec<String>)> {
    let scop = scop::build_scop(src)?;
    let a = assumptions::analyze(&scop, &assumptions::Limits::default())
        .map_err(|e| Error::Command(e.to_string()))?;
    let kinds: Vec<String> = a
        .kinds
        .iter()
        .map(|(k, s)| format!("{}: {}", quote(k.as_str()), quote(&s.to_string())))
        .collect();
    let lines: Vec<String> = a.remarks.iter().map(|r| r.to_string()).collect();
    let mut json = format!(
        "{{\"context\": {}, \"assumed\": {}, \"invalid\": {}, \"kinds\": {{{}}}, \"feasible\": {}, \"check\": {}",
        quote(&a.context.to_string()),
        quote(&a.assumed.to_string()),
        quote(&a.invalid.to_string()),
        kinds.join(", "),
        a.feasible,
        quote(&a.check)
    );
    if remarks {
        let items: Vec<String> = lines.iter().map(|l| quote(l)).collect();
        json.push_str(&format!(", \"remarks\": [{}]", items.join(", ")));
    }
    json.push('}');
    Ok((json, lines))
}

/// The command: `poly assumptions KERNEL.c [--remarks]`.
pub fn assumptions_command(args: &[String]) -> Result<String> {
    let mut file = None;
    let mut remarks = false;
    for a in args {
        match a.as_str() {
            "--remarks" => remarks = true,
            s if s.starts_with('-') => {
                return Err(Error::Usage(format!("unknown option `{s}` for `poly assumptions`")))
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
