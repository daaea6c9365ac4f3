//! Property tests of testkit's own tooling against simple oracles: the JSON
//! reader against a writer, and the op table's judge against brute-force
//! enumeration of generated sets.

use presburger::{budget, Int};
use proptest::prelude::*;
use proptest::test_runner::Config;
use testkit::corpus::{read_cases, Case};
use testkit::json::Json;
use testkit::ops::{check, Verdict};
use testkit::oracle::{self, Universe};
use testkit::{strategies, Generated};

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A JSON writer (the oracle of the reader): strings escaped, some with
/// `\u` escapes and surrogate pairs, numbers as written.
fn write(j: &Json, out: &mut String) {
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(&b.to_string()),
        Json::Num(n) => out.push_str(n),
        Json::Str(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c if (c as u32) > 0xFFFF => {
                        let v = c as u32 - 0x10000;
                        out.push_str(&format!(
                            "\\u{:04x}\\u{:04x}",
                            0xD800 + (v >> 10),
                            0xDC00 + (v & 0x3FF)
                        ));
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Json::Arr(v) => {
            out.push_str("[ ");
            for (k, x) in v.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write(x, out);
            }
            out.push(']');
        }
        Json::Obj(v) => {
            out.push('{');
            for (k, (key, x)) in v.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write(&Json::Str(key.clone()), out);
                out.push_str(" :\n");
                write(x, out);
            }
            out.push_str(" }");
        }
    }
}

fn json() -> impl Strategy<Value = Json> {
    let text = "[a-z \"\\\\\n\t\u{e9}\u{1F600}]{0,8}";
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(|n| Json::Num(n.to_string())),
        Just(Json::Num("-12.5e3".into())),
        text.prop_map(Json::Str),
    ];
    leaf.prop_recursive(4, 32, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Json::Arr),
            prop::collection::vec((text, inner), 0..5).prop_map(Json::Obj),
        ]
    })
}

/// The set of the points of the box, in isl notation over dimensions
/// `d0, d1, ...` (parameter `n` when the shape has one).
fn enumerated(g: &Generated, points: &[Vec<i64>]) -> String {
    let np = g.shape.n_param();
    let dims: Vec<String> = (0..g.shape.n_dims()).map(|k| format!("d{k}")).collect();
    let mut names = vec!["n".to_string(); np];
    names.extend(dims.iter().cloned());
    let parts: Vec<String> = points
        .iter()
        .map(|p| {
            let c: Vec<String> = names
                .iter()
                .zip(p)
                .map(|(v, x)| format!("{v} = {x}"))
                .collect();
            format!("[{}] : {}", dims.join(", "), c.join(" and "))
        })
        .collect();
    let body = if parts.is_empty() {
        format!("[{}] : 1 = 0", dims.join(", "))
    } else {
        parts.join("; ")
    };
    let pre = if np == 1 { "[n] -> " } else { "" };
    format!("{pre}{{ {body} }}")
}

fn case(op: &str, args: &[&str], expect: &str) -> Case {
    Case {
        id: "prop".into(),
        op: op.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
        expect: expect.into(),
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Whatever the writer writes, the reader reads back; a case line
    /// written by it reads as the same case.
    #[test]
    fn json_reads_what_is_written(j in json(), id in "[a-z0-9-]{1,6}", args in prop::collection::vec("[ -~]{0,12}", 0..3)) {
        let mut text = String::new();
        write(&j, &mut text);
        prop_assert_eq!(Json::parse(&text), Ok(j.clone()), "{}", text);
        let line = Json::Obj(vec![
            ("id".into(), Json::Str(id.clone())),
            ("op".into(), Json::Str("union".into())),
            ("args".into(), Json::Arr(args.iter().cloned().map(Json::Str).collect())),
            ("expect".into(), Json::Bool(true)),
        ]);
        let mut text = String::new();
        write(&line, &mut text);
        let cases = read_cases(&text.replace('\n', " ")).unwrap();
        let want = Case { id, op: "union".into(), args, expect: "true".into() };
        prop_assert_eq!(cases, vec![want]);
    }

    /// The reader never panics, and truncating a valid text makes it invalid.
    #[test]
    fn json_rejects_truncations(j in json(), cut in any::<prop::sample::Index>()) {
        let mut text = String::new();
        write(&j, &mut text);
        let bytes: Vec<usize> = text.char_indices().map(|(k, _)| k).filter(|&k| k > 0).collect();
        if !bytes.is_empty() {
            let k = bytes[cut.index(bytes.len())];
            let prefix = &text[..k];
            // a prefix of a number or of white space after a value may still be JSON
            if !matches!(j, Json::Num(_)) && !prefix.trim_end().eq(text.trim_end()) {
                prop_assert!(Json::parse(prefix).is_err(), "{:?} accepted", prefix);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// The judge accepts the answer that brute force enumerates, and
    /// rejects it with one point left out.
    #[test]
    fn judge_agrees_with_enumeration((a, b) in strategies::set_pair()) {
        let u = Universe::of(a.shape);
        let (ma, mb) = (a.map(), b.map());
        let want: Vec<Vec<i64>> = u
            .points()
            .into_iter()
            .filter(|p| oracle::member(&ma, p) && !oracle::member(&mb, p))
            .collect();
        prop_assume!(want.len() <= 24);
        let judged = |expect: &str| {
            budget::with_budget(3_000_000, || check(&case("subtract", &[&a.text, &b.text], expect)))
        };
        let v = judged(&enumerated(&a, &want));
        prop_assume!(v != Verdict::OutOfBudget);
        prop_assert_eq!(v, Verdict::Right, "A = {}, B = {}", a.text, b.text);
        if let Some((_, fewer)) = want.split_last() {
            let v = judged(&enumerated(&a, fewer));
            prop_assume!(v != Verdict::OutOfBudget);
            prop_assert!(matches!(v, Verdict::Wrong(_)), "A = {}, B = {}: {:?}", a.text, b.text, v);
        }
        let v = budget::with_budget(3_000_000, || {
            check(&case("is_empty", &[&enumerated(&a, &want)], &want.is_empty().to_string()))
        });
        prop_assume!(v != Verdict::OutOfBudget);
        prop_assert_eq!(v, Verdict::Right);
        let card = budget::with_budget(3_000_000, || {
            check(&case("card", &[&a.text], "0"))
        });
        let n_a = u.points().iter().filter(|p| oracle::member(&ma, p)).count();
        if a.shape.param {
            // a count of a parametric set is not one number: never judged right against 0 unless empty
            prop_assert!(card != Verdict::Right || n_a == 0, "card of {} judged 0", a.text);
        } else if card != Verdict::OutOfBudget {
            prop_assert_eq!(card == Verdict::Right, n_a == 0, "card of {}", a.text);
            let v = budget::with_budget(3_000_000, || check(&case("card", &[&a.text], &Int::from(n_a as i64).to_string())));
            prop_assert!(v == Verdict::Right || v == Verdict::OutOfBudget, "card {} of {}: {:?}", n_a, a.text, v);
        }
    }
}
