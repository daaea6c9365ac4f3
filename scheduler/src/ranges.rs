//! isl's range shorthand in tuples (`B[0:N-1]`, `S[i = 0:3, j]`), which the
//! engine's parser does not read (yet): rewritten to a named dimension and a
//! constraint, `B[r0] : 0 <= r0 <= N - 1`. A candidate for the engine parser.

/// Split `s` at the top-level (bracket depth 0) occurrences of `sep`.
fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0i32;
    for ch in s.chars() {
        match ch {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
        if ch == sep && depth == 0 {
            out.push(String::new());
        } else {
            out.last_mut().expect("nonempty").push(ch);
        }
    }
    out
}

/// Position of the first top-level `:` in `s`.
fn top_colon(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, ch) in s.char_indices() {
        match ch {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ':' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

fn rewrite_tuples(head: &str, fresh: &mut usize, cons: &mut Vec<String>) -> String {
    let mut out = String::new();
    let mut rest = head;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        // matching bracket
        let mut depth = 1i32;
        let mut close = after.len();
        for (i, ch) in after.char_indices() {
            match ch {
                '[' | '(' => depth += 1,
                ']' | ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let inner = &after[..close];
        let entries: Vec<String> = split_top(inner, ',')
            .into_iter()
            .map(|e| match top_colon(&e) {
                Some(c) => {
                    let (lhs, hi) = (&e[..c], &e[c + 1..]);
                    let eq = lhs.char_indices().find(|&(i, ch)| {
                        ch == '='
                            && !lhs[..i].ends_with(['<', '>', '!'])
                            && !lhs[i + 1..].starts_with('=')
                    });
                    let (name, lo) = match eq {
                        Some((i, _)) => (lhs[..i].trim().to_string(), lhs[i + 1..].trim()),
                        None => {
                            *fresh += 1;
                            (format!("r{}", *fresh - 1), lhs.trim())
                        }
                    };
                    cons.push(format!("{} <= {name} <= {}", lo, hi.trim()));
                    format!(" {name}")
                }
                None => e,
            })
            .collect();
        out.push_str(&entries.join(","));
        rest = &after[close..];
    }
    out.push_str(rest);
    out
}

/// Rewrite range shorthands; `None` when there are none (the text is used as is).
pub fn expand(text: &str) -> Option<String> {
    let open = text.find('{')?;
    let close = text.rfind('}').filter(|&c| c > open)?;
    let body = &text[open + 1..close];
    let mut fresh = 0;
    let mut changed = false;
    let pieces: Vec<String> = split_top(body, ';')
        .into_iter()
        .map(|p| {
            let (head, cond) = match top_colon(&p) {
                Some(c) => (p[..c].to_string(), Some(p[c + 1..].to_string())),
                None => (p.clone(), None),
            };
            let mut cons = Vec::new();
            let head2 = rewrite_tuples(&head, &mut fresh, &mut cons);
            if cons.is_empty() {
                return p;
            }
            changed = true;
            match cond {
                Some(c) if !c.trim().is_empty() => {
                    format!("{head2}: ({}) and {}", c, cons.join(" and "))
                }
                _ => format!("{head2} : {} ", cons.join(" and ")),
            }
        })
        .collect();
    if !changed {
        return None;
    }
    Some(format!(
        "{}{{{}}}{}",
        &text[..open],
        pieces.join(";"),
        &text[close + 1..]
    ))
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn ranges_become_constraints() {
        assert_eq!(expand("{ A[i] : i > 0 }"), None);
        let t = expand("[N] -> { A[]; B[0:N-1]; C[] }").unwrap();
        assert!(t.contains("B[ r0] : 0 <= r0 <= N-1"), "{t}");
        let t = expand("{ g[i0 = 0:3, i1] -> S[h = 0:2, k = i0] : i1 > h }").unwrap();
        assert!(t.contains("g[ i0, i1] -> S[ h, k = i0]"), "{t}");
        assert!(
            t.contains("( i1 > h ) and 0 <= i0 <= 3 and 0 <= h <= 2"),
            "{t}"
        );
    }
}
