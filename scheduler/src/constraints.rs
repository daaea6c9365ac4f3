//! Schedule constraints and their isl file format (`key: value` lines).

use crate::error::{Error, Result};
use presburger::{Map, UnionMap, UnionSet};
use std::fmt;
use std::str::FromStr;

/// The input of the scheduler, as isl's `isl_schedule_constraints`.
///
/// All relations share one parameter list (aligned when read). `condition` and
/// `conditional_validity` may be tagged (`[S[i] -> t[]] -> [T[j] -> t[]]`).
#[derive(Debug, Clone)]
pub struct ScheduleConstraints {
    /// The statement instances to schedule (one map per statement).
    pub domain: UnionSet,
    /// Constraints on the parameters (a parameter set), if any.
    pub context: Option<Map>,
    /// Dependences that must be respected.
    pub validity: UnionMap,
    /// Dependences that should have zero distance (parallelism).
    pub coincidence: UnionMap,
    /// Dependences whose distance should be small (locality).
    pub proximity: UnionMap,
    /// Live ranges: conditions of the conditional validity constraints.
    pub condition: UnionMap,
    /// Dependences to respect only where an adjacent condition is not local.
    pub conditional_validity: UnionMap,
}

const KEYS: [&str; 7] = [
    "domain",
    "context",
    "validity",
    "coincidence",
    "proximity",
    "condition",
    "conditional_validity",
];

struct Value {
    key: String,
    line: usize,
    col: usize,
    text: String,
}

/// Bracket depth of a value's text (a key line cannot start inside brackets).
fn depth(t: &str) -> i64 {
    t.chars()
        .map(|c| match c {
            '{' | '[' | '(' => 1,
            '}' | ']' | ')' => -1,
            _ => 0,
        })
        .sum()
}

/// Split the file into key/value entries (values may continue on following lines).
fn split(text: &str) -> Result<Vec<Value>> {
    let mut out: Vec<Value> = Vec::new();
    for (ln, raw) in text.lines().enumerate() {
        let line_no = ln + 1;
        // cut a `#` comment outside quotes
        let mut in_q = false;
        let mut cut = raw.len();
        for (i, ch) in raw.char_indices() {
            match ch {
                '"' => in_q = !in_q,
                '#' if !in_q => {
                    cut = i;
                    break;
                }
                _ => {}
            }
        }
        let line = &raw[..cut];
        let open = out.last().is_some_and(|v| depth(&v.text) > 0);
        let starts_key = !open
            && line
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if starts_key {
            let colon = line.find(':').ok_or_else(|| Error::Input {
                line: line_no,
                col: 1,
                msg: "expected `key: value`".into(),
            })?;
            let key = line[..colon].trim();
            if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(Error::Input {
                    line: line_no,
                    col: 1,
                    msg: format!("expected a key before `:`, found `{key}`"),
                });
            }
            if !KEYS.contains(&key) {
                return Err(Error::Input {
                    line: line_no,
                    col: 1,
                    msg: format!("unknown key `{key}` (expected one of {})", KEYS.join(", ")),
                });
            }
            if out.iter().any(|v| v.key == key) {
                return Err(Error::Input {
                    line: line_no,
                    col: 1,
                    msg: format!("duplicate key `{key}`"),
                });
            }
            let col = line[..colon + 1].chars().count() + 1;
            let mut t = " ".repeat(col - 1);
            t.push_str(&line[colon + 1..]);
            out.push(Value {
                key: key.to_string(),
                line: line_no,
                col,
                text: t,
            });
        } else if let Some(v) = out.last_mut() {
            v.text.push('\n');
            v.text.push_str(line);
        } else if !line.trim().is_empty() {
            let col = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            return Err(Error::Input {
                line: line_no,
                col,
                msg: "text before the first key".into(),
            });
        }
    }
    Ok(out)
}

/// Remove one pair of surrounding quotes (replaced by blanks so that columns stay).
fn unquote(v: &Value) -> Result<String> {
    let trimmed = v.text.trim();
    if trimmed.is_empty() {
        return Err(Error::Input {
            line: v.line,
            col: v.col,
            msg: format!("empty value for `{}`", v.key),
        });
    }
    if let Some(rest) = trimmed.strip_prefix('"') {
        if !rest.ends_with('"') || rest.is_empty() {
            return Err(Error::Input {
                line: v.line,
                col: v.col,
                msg: "unterminated quoted value".into(),
            });
        }
        let first = v.text.find('"').unwrap_or(0);
        let last = v.text.rfind('"').unwrap_or(0);
        let mut t = v.text.clone();
        t.replace_range(last..last + 1, " ");
        t.replace_range(first..first + 1, " ");
        if t.contains('"') {
            return Err(Error::Input {
                line: v.line,
                col: v.col,
                msg: "stray quote in value".into(),
            });
        }
        return Ok(t);
    }
    Ok(v.text.clone())
}

fn parse_at<T: FromStr<Err = presburger::Error>>(v: &Value) -> Result<T> {
    let t = unquote(v)?;
    t.parse::<T>().map_err(|e| match e {
        presburger::Error::Parse {
            line,
            col,
            expected,
        } => Error::Input {
            line: v.line + line - 1,
            col,
            msg: format!("bad isl text for `{}`: expected {expected}", v.key),
        },
        e => Error::Input {
            line: v.line,
            col: v.col,
            msg: format!("bad isl text for `{}`: {e}", v.key),
        },
    })
}

impl FromStr for ScheduleConstraints {
    type Err = Error;
    fn from_str(s: &str) -> Result<ScheduleConstraints> {
        let vals = split(s)?;
        let get = |k: &str| vals.iter().find(|v| v.key == k);
        let dv = get("domain").ok_or(Error::Input {
            line: 1,
            col: 1,
            msg: "missing key `domain`".into(),
        })?;
        let domain: UnionSet = parse_at(dv)?;
        if !domain.is_set() {
            return Err(Error::Input {
                line: dv.line,
                col: dv.col,
                msg: "`domain` must be a set".into(),
            });
        }
        let context: Option<Map> = match get("context") {
            Some(v) => Some(parse_at(v)?),
            None => None,
        };
        let rel = |k: &str| -> Result<UnionMap> {
            match get(k) {
                Some(v) => {
                    let m: UnionMap = parse_at(v)?;
                    if m.is_set() && !m.maps().is_empty() {
                        return Err(Error::Input {
                            line: v.line,
                            col: v.col,
                            msg: format!("`{k}` must be a relation, not a set"),
                        });
                    }
                    Ok(m)
                }
                None => Ok(UnionMap::empty(Vec::<String>::new())),
            }
        };
        let sc = ScheduleConstraints {
            domain,
            context,
            validity: rel("validity")?,
            coincidence: rel("coincidence")?,
            proximity: rel("proximity")?,
            condition: rel("condition")?,
            conditional_validity: rel("conditional_validity")?,
        };
        sc.aligned()
    }
}

impl ScheduleConstraints {
    /// Constraints with only a domain.
    pub fn on_domain(domain: UnionSet) -> Result<ScheduleConstraints> {
        let p = domain.params().to_vec();
        ScheduleConstraints {
            domain,
            context: None,
            validity: UnionMap::empty(p.clone()),
            coincidence: UnionMap::empty(p.clone()),
            proximity: UnionMap::empty(p.clone()),
            condition: UnionMap::empty(p.clone()),
            conditional_validity: UnionMap::empty(p),
        }
        .aligned()
    }

    /// The common parameter list of all parts.
    pub fn params(&self) -> &[String] {
        self.domain.params()
    }

    /// Align every part to one parameter list (first-seen order).
    pub fn aligned(mut self) -> Result<ScheduleConstraints> {
        let mut params: Vec<String> = Vec::new();
        let mut add = |ps: &[String]| {
            for p in ps {
                if !params.contains(p) {
                    params.push(p.clone());
                }
            }
        };
        add(self.domain.params());
        if let Some(c) = &self.context {
            add(&c.space().params);
        }
        for m in self.relations() {
            add(m.params());
        }
        self.domain.align_params(&params);
        if let Some(c) = &mut self.context {
            if !c.is_set() || c.space().n_in() + c.space().n_out() != 0 {
                return Err(Error::Invalid("`context` must be a parameter set".into()));
            }
            c.align_params(&params);
        }
        for m in [
            &mut self.validity,
            &mut self.coincidence,
            &mut self.proximity,
            &mut self.condition,
            &mut self.conditional_validity,
        ] {
            m.align_params(&params);
        }
        Ok(self)
    }

    fn relations(&self) -> [&UnionMap; 5] {
        [
            &self.validity,
            &self.coincidence,
            &self.proximity,
            &self.condition,
            &self.conditional_validity,
        ]
    }
}

impl fmt::Display for ScheduleConstraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "domain: \"{}\"", self.domain)?;
        if let Some(c) = &self.context {
            writeln!(f, "context: \"{c}\"")?;
        }
        for (k, m) in KEYS[2..].iter().zip(self.relations()) {
            if !m.maps().is_empty() {
                writeln!(f, "{k}: \"{m}\"")?;
            }
        }
        Ok(())
    }
}
