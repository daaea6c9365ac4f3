//! Reading `isl_codegen` inputs: a `.in` file is three isl objects in
//! sequence (schedule union map, context set, options union map).

use crate::error::{Error, Result};
use crate::options::Options;
use presburger::{Set, UnionMap};

/// A parsed `.in` input.
#[derive(Clone, Debug)]
pub struct MapInput {
    /// The schedule `{ S[i] -> [t] }`.
    pub schedule: UnionMap,
    /// The context (parameter constraints that may be assumed).
    pub context: Set,
    /// The AST build options (`{ [t] -> separate[x] }`, ...), if given.
    pub options: Option<UnionMap>,
    /// The loop kinds the options give each schedule dimension.
    pub loops: Options,
}

/// Split `text` into its top-level `{ ... }` objects (with any `[params] ->`
/// prefix); `#` starts a comment. Returns each object with its byte offset.
fn split_objects(text: &str) -> Result<Vec<(usize, String)>> {
    let mut clean = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line.find('#') {
            Some(k) => {
                clean.push_str(&line[..k]);
                clean.push_str(&" ".repeat(line.len() - k - usize::from(line.ends_with('\n'))));
                if line.ends_with('\n') {
                    clean.push('\n');
                }
            }
            None => clean.push_str(line),
        }
    }
    let mut objs = Vec::new();
    let (mut depth, mut start) = (0i64, 0usize);
    for (i, ch) in clean.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    let (line, col) = line_col(text, i);
                    return Err(Error::Parse {
                        line,
                        col,
                        message: "unbalanced `}`".into(),
                    });
                }
                if depth == 0 {
                    objs.push((start, clean[start..=i].to_string()));
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    if depth != 0 {
        let (line, col) = line_col(text, text.len());
        return Err(Error::Parse {
            line,
            col,
            message: "`}` before the end of the input".into(),
        });
    }
    Ok(objs)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn parse_at<T: std::str::FromStr<Err = presburger::Error>>(
    text: &str,
    (offset, obj): &(usize, String),
) -> Result<T> {
    // keep line numbers of the whole file: pad with the text before the object
    let lead = text[..*offset].chars().filter(|&c| c == '\n').count();
    obj.parse::<T>().map_err(|e| match e {
        presburger::Error::Parse {
            line,
            col,
            expected,
        } => {
            let (l0, c0) = line_col(text, *offset);
            let _ = lead;
            let (line, col) = if line == 1 {
                (l0, c0 + col - 1)
            } else {
                (l0 + line - 1, col)
            };
            Error::Parse {
                line,
                col,
                message: format!("expected {expected}"),
            }
        }
        e => Error::from(e),
    })
}

/// isl's old integer-division notation `[e/k]` (e.g. `[(i - 1)/32]`) as
/// `floor(e/k)`: a bracket whose content has no tuple syntax (`,`, `:`,
/// `->`, brackets) and ends in `/ k` for a literal `k`.
pub fn rewrite_floor_brackets(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('[') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let end = after.find([']', '[']);
        let replaced = match end {
            Some(e) if after.as_bytes()[e] == b']' => {
                let inner = &after[..e];
                let t = inner.trim_end();
                let digits = t.len() - t.trim_end_matches(|c: char| c.is_ascii_digit()).len();
                let head = t[..t.len() - digits].trim_end();
                let ok = digits > 0
                    && head.ends_with('/')
                    && head.len() > 1
                    && !inner.contains(',')
                    && !inner.contains(':')
                    && !inner.contains("->");
                if ok {
                    out.push_str("floor(");
                    out.push_str(inner);
                    out.push(')');
                    rest = &after[e + 1..];
                    true
                } else {
                    false
                }
            }
            _ => false,
        };
        if !replaced {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Parse the text of a `.in` file.
pub fn parse_map_input(text: &str) -> Result<MapInput> {
    let objs = split_objects(text)?;
    if objs.len() < 2 {
        let (line, col) = line_col(text, text.len());
        return Err(Error::Parse {
            line,
            col,
            message: "a schedule and a context (and optionally options)".into(),
        });
    }
    if objs.len() > 3 {
        let (k, o) = &objs[3];
        let lead = o.len() - o.trim_start().len();
        let (line, col) = line_col(text, k + lead);
        return Err(Error::Parse {
            line,
            col,
            message: "the end of the input after three objects".into(),
        });
    }
    let objs: Vec<(usize, String)> = objs
        .into_iter()
        .map(|(k, o)| (k, rewrite_floor_brackets(&o)))
        .collect();
    let schedule: UnionMap = parse_at(text, &objs[0])?;
    let context: Set = parse_at(text, &objs[1])?;
    let options = match objs.get(2) {
        Some(o) => Some(parse_at::<UnionMap>(text, o)?),
        None => None,
    };
    let loops = match &options {
        None => Options::default(),
        Some(u) => Options::from_union_map(u, &schedule).map_err(|e| match e {
            // point at the option the message names
            Error::Unsupported(message) => {
                let (k, obj) = &objs[2];
                let at = message
                    .split('`')
                    .nth(1)
                    .and_then(|q| q.split(['[', ' ']).next())
                    .filter(|n| !n.is_empty())
                    .and_then(|n| obj.find(n))
                    .unwrap_or(obj.len() - obj.trim_start().len());
                let (line, col) = line_col(text, k + at);
                Error::Parse {
                    line,
                    col,
                    message: format!("a supported option: {message}"),
                }
            }
            e => e,
        })?,
    };
    Ok(MapInput {
        schedule,
        context,
        options,
        loops,
    })
}
