//! Every binary operator of the calculator on every combination of operand
//! kinds (set, map, parameter set, union of spaces, union with a parameter
//! part, empty), against isl's answers stored in `data/binary_ops.jsonl`
//! (generated with islpy by `data/binary_ops.py`; islpy is not needed here).
//! Values are compared with the calculator's own `=` after checking the
//! result's type (a gist `A % B` by its definition, inside the context `B`),
//! booleans textually; the kind combinations iscc has no
//! operator for must give an error line.

use calc::run_script;

/// One stored case.
struct Case {
    name: String,
    op: String,
    lhs: String,
    rhs: String,
    kind: String,
    expect: Option<String>,
}

/// The string value of `"key": "..."` in one JSON line of the data file
/// (the generator writes flat objects of strings with `json.dumps`).
fn field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("\"{key}\": \""))? + key.len() + 5;
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/binary_ops.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Case {
            name: field(l, "case").expect("case"),
            op: field(l, "op").expect("op"),
            lhs: field(l, "lhs").expect("lhs"),
            rhs: field(l, "rhs").expect("rhs"),
            kind: field(l, "kind").expect("kind"),
            expect: field(l, "expect"),
        })
        .collect()
}

fn expression(op: &str) -> String {
    match op {
        "apply" => "A(B)".to_string(),
        op => format!("A {op} B"),
    }
}

/// The failure of one case, if any.
fn check(c: &Case) -> Option<String> {
    // a gist is any value that agrees with the operand inside the context:
    // compare with isl's inside the context
    let same = if c.op == "%" {
        "R * B = E * B"
    } else {
        "R = E"
    };
    let script = match c.kind.as_str() {
        "set" | "map" => format!(
            "A := {}; B := {}; E := {}; R := {}; typeof R; {same}; R;",
            c.lhs,
            c.rhs,
            c.expect.as_deref().expect("a value case has an answer"),
            expression(&c.op),
        ),
        _ => format!("A := {}; B := {}; {};", c.lhs, c.rhs, expression(&c.op)),
    };
    let mut out = Vec::new();
    run_script(&script, true, &mut out).expect("writing to a vector cannot fail");
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let ok = match c.kind.as_str() {
        "set" | "map" => lines.len() == 3 && lines[0] == c.kind && lines[1] == "True",
        "bool" => lines.len() == 1 && Some(lines[0]) == c.expect.as_deref(),
        _ => lines.len() == 1 && lines[0].starts_with("error:"),
    };
    (!ok).then(|| {
        format!(
            "{}: {} {} {}: expected {} {:?}, got {:?}",
            c.name, c.lhs, c.op, c.rhs, c.kind, c.expect, lines
        )
    })
}

#[test]
fn every_binary_operator_on_every_kind_of_operand_gives_isls_answer() {
    let cases = cases();
    assert!(cases.len() > 3000, "{} cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(check).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from isl:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(400)].join("\n")
    );
}

/// The example: intersecting with a parameter domain restricts the
/// parameters (it gave `[n] -> {  }`); isl's answer.
#[test]
fn intersection_with_a_parameter_domain() {
    let mut out = Vec::new();
    run_script(
        "S := [n] -> { [i] : 0 <= i <= n and n <= 3 } * [n] -> { : n >= 2 };\n\
         S = [n] -> { [i] : 2 <= n <= 3 and 0 <= i <= n };\n\
         ([n] -> { [i] -> [j] : 0 <= i <= n and n <= 3 } * [n] -> { : n >= 2 })\n\
           = [n] -> { [i] -> [j] : 2 <= n <= 3 and 0 <= i <= n };",
        true,
        &mut out,
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "True\nTrue\n");
}
