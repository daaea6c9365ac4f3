//! The command line's own help: `poly --version`, and `poly SUB --help` for
//! every command `poly --help` lists (it prints the command's usage instead
//! of, say, opening a file named `--help`).

use std::process::Command;

fn poly(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .expect("poly runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version() {
    let (ok, out, _) = poly(&["--version"]);
    assert!(ok);
    assert_eq!(out.trim(), format!("poly {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn every_command_has_its_help() {
    let (ok, usage, _) = poly(&["--help"]);
    assert!(ok);
    let mut commands: Vec<&str> = usage
        .lines()
        .filter_map(|l| l.strip_prefix("  poly "))
        .filter(|rest| !rest.starts_with(' ') && !rest.starts_with('-'))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    commands.dedup();
    assert!(commands.len() >= 10, "{commands:?}");
    for sub in commands {
        for flag in ["--help", "-h"] {
            let (ok, out, err) = poly(&[sub, flag]);
            assert!(ok, "poly {sub} {flag} failed: {err}");
            assert!(out.starts_with("Usage:\n"), "poly {sub} {flag}: {out}");
            assert!(
                out.contains(&format!("  poly {sub}")),
                "poly {sub} {flag}: {out}"
            );
        }
    }
    // after other arguments too
    let (ok, out, _) = poly(&["scop", "kernel.c", "--help"]);
    assert!(ok && out.contains("poly scop FILE.c"), "{out}");
}

#[test]
fn calc_help_lists_the_operators() {
    let (ok, out, _) = poly(&["calc", "--help"]);
    assert!(ok);
    for op in [
        "lexmin",
        "deltas",
        "affine_hull",
        "cross",
        "<<=",
        "Not supported",
        "vertices",
    ] {
        assert!(
            out.contains(op),
            "{op} missing from poly calc --help:\n{out}"
        );
    }
}
