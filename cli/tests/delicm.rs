//! `poly delicm` and `poly interp --delicm` end to end.

use std::process::Command;

use poly::delicm::conflict_lines;
use testkit::json::Json;

fn poly(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn conflicts_protocol_answers_every_shared_case() {
    let Some(path) = testkit::shared_path("delicm/conflicts.jsonl") else {
        eprintln!("note: ../shared/delicm missing; skipped");
        return;
    };
    let (ok, out, err) = poly(&["delicm", "--conflicts", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let c = Json::parse(line).unwrap();
        let id = c.get("id").and_then(Json::as_str).unwrap();
        let want = c.get("expect").and_then(Json::as_str).unwrap();
        assert!(
            out.lines().any(|l| l == format!("{id} {want}")),
            "{id}: {out}"
        );
        n += 1;
    }
    assert_eq!(out.lines().count(), n);
}

#[test]
fn bad_cases_give_error_lines_and_the_others_still_answer() {
    let text = "{\"id\": \"a\", \"existing\": {\"occupied\": \"{ Dom[i] \", \"unused\": null, \"written\": \"{}\"}, \"proposed\": {\"occupied\": \"{}\", \"unused\": null, \"written\": \"{}\"}}\n\
                not json\n\
                {\"id\": \"b\", \"existing\": {\"occupied\": \"{}\", \"unused\": null, \"written\": \"{ Dom[0] }\"}, \"proposed\": {\"occupied\": \"{}\", \"unused\": null, \"written\": \"{ Dom[0] }\"}}\n";
    let out = conflict_lines(text);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("a error: "), "{out}");
    assert!(lines[0].contains("column"), "{out}");
    assert!(lines[1].starts_with("line-2 error: JSON"), "{out}");
    assert_eq!(lines[2], "b conflict");
}

#[test]
fn kernels_transformed_model_and_checksums() {
    let Some(dir) = testkit::shared_path("delicm") else {
        return;
    };
    for f in testkit::files_with_suffix(&dir, ".c") {
        let path = f.to_str().unwrap();
        let (ok, out, err) = poly(&["delicm", path]);
        assert!(ok, "{path}: {err}");
        let j = Json::parse(&out).unwrap();
        let (_, scop_out, _) = poly(&["scop", path]);
        let s = Json::parse(&scop_out).unwrap();
        if let Json::Obj(kv) = &s {
            for (k, _) in kv {
                assert!(j.get(k).is_some(), "{path}: key {k} missing");
            }
        }
        let mapped = j.get("mapped").and_then(Json::as_array).unwrap();
        assert!(!mapped.is_empty(), "{path}");
        for m in mapped {
            let map: presburger::UnionMap = m
                .get("map")
                .and_then(Json::as_str)
                .unwrap()
                .parse()
                .unwrap();
            assert!(!map.is_empty().unwrap());
        }
        assert!(j.get("forwarded").and_then(Json::as_array).is_some());
        assert!(j.get("statistics").is_some());
        let src = std::fs::read_to_string(&f).unwrap();
        let params: Vec<&str> = src
            .lines()
            .find_map(|l| l.trim().strip_prefix("// params:"))
            .unwrap()
            .split_whitespace()
            .collect();
        let mut a = vec!["interp", path];
        a.extend(&params);
        let mut b = vec!["interp", path, "--delicm"];
        b.extend(&params);
        let (ok1, o1, e1) = poly(&a);
        let (ok2, o2, e2) = poly(&b);
        assert!(ok1 && ok2, "{e1} {e2}");
        assert!(!o1.is_empty());
        assert_eq!(o1, o2, "{path}");
    }
}

#[test]
fn usage_errors() {
    let (ok, _, err) = poly(&["delicm"]);
    assert!(!ok && err.contains("delicm"), "{err}");
    let (ok, _, err) = poly(&["delicm", "/nonexistent/k.c"]);
    assert!(!ok && err.contains("nonexistent"), "{err}");
}

/// `--known`: a copy of an element lives in that element while it holds
/// the same value; the transformed program gives the original checksums.
#[test]
fn known_values_flag() {
    let dir = std::env::temp_dir().join(format!("poly-delicm-known-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k.c");
    std::fs::write(
        &path,
        "void k(int N, int M, double A[N], double B[N][M]) {
  double s;
  for (int i = 0; i < N; i++) {
    s = A[i];
    for (int j = 0; j < M; j++)
      B[i][j] = A[i] * j + s;
    A[i] = s * 0.5;
  }
}",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let (ok, plain, _) = poly(&["delicm", p]);
    assert!(ok && plain.contains("\"mapped\": []"), "{plain}");
    let (ok, known, _) = poly(&["delicm", p, "--known"]);
    assert!(ok && known.contains("\"scalar\": \"s\""), "{known}");
    // what the scheduler finds: the i loop becomes parallel
    let j = testkit::json::Json::parse(&known).unwrap();
    let sched = j.get("statistics").unwrap().get("scheduler").unwrap();
    let par = |k: &str| {
        sched
            .get(k)
            .and_then(|x| x.get("outer_parallel"))
            .map(|n| match n {
                testkit::json::Json::Num(v) => v.clone(),
                other => format!("{other:?}"),
            })
    };
    assert_eq!(
        (par("before"), par("after")),
        (Some("0".to_string()), Some("1".to_string())),
        "{known}"
    );
    let (_, a, _) = poly(&["interp", p, "N=4", "M=3"]);
    let (_, b, _) = poly(&["interp", p, "--delicm", "--known", "N=4", "M=3"]);
    assert!(!a.is_empty());
    assert_eq!(a, b);
    let (ok, _, err) = poly(&["delicm", p, "--unknown-flag"]);
    assert!(!ok && err.contains("--known"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
