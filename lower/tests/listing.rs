//! The listing printed by `poly compile --emit asm` comes from the
//! lowering's own instruction record; iced-x86 (a dev-dependency only)
//! decodes the bytes of every shared kernel and must print the same text
//! at the same offsets.

use iced_x86::{
    Decoder, DecoderOptions, Formatter, FormatterOptions, IntelFormatter, MemorySizeOptions,
};
use std::path::Path;

fn kernels() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for dir in [
        root.join("../shared/kernels"),
        root.join("scop/tests/kernels"),
    ] {
        // (issue 21) under CI a missing shared folder is a failure, not a skip
        assert!(
            dir.exists() || !matches!(std::env::var("CI").as_deref(), Ok("true" | "1")),
            "the shared test data {} is missing, and CI is set: tests that need it fail under CI instead of passing vacuously (put `shared` beside the repository)",
            dir.display()
        );
        if let Ok(rd) = std::fs::read_dir(&dir) {
            out.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "c")),
            );
        }
    }
    out.sort();
    out
}

fn iced_lines(code: &[u8]) -> Vec<(usize, String)> {
    let mut f = IntelFormatter::new();
    let o: &mut FormatterOptions = f.options_mut();
    o.set_hex_prefix("0x");
    o.set_hex_suffix("");
    o.set_uppercase_hex(false);
    o.set_small_hex_numbers_in_decimal(false);
    o.set_space_after_operand_separator(true);
    o.set_memory_size_options(MemorySizeOptions::Always);
    o.set_signed_immediate_operands(true);
    o.set_uppercase_keywords(true);
    o.set_leading_zeros(false);
    o.set_branch_leading_zeros(false);
    o.set_show_branch_size(false);
    let mut d = Decoder::with_ip(64, code, 0, DecoderOptions::NONE);
    let mut out = Vec::new();
    while d.can_decode() {
        let i = d.decode();
        let mut s = String::new();
        f.format(&i, &mut s);
        out.push((i.ip() as usize, s));
    }
    out
}

/// Spellings that differ only by convention between GNU as and iced.
fn normal(s: &str) -> String {
    // objdump writes a unit scale (`[rdi+rsi*1]`, `[rdi+rsi*1+0x40]`),
    // iced leaves it out
    s.replace("movabs ", "mov ")
        .replace("  ", " ")
        .replace("*1]", "]")
        .replace("*1+", "+")
        .replace("*1-", "-")
}

#[test]
fn listing_matches_the_decoder() {
    let mut checked = 0;
    for path in kernels() {
        let src = std::fs::read_to_string(&path).unwrap();
        let front = lower::front(&src).unwrap();
        // the code `poly run` uses (contractions tiled: prefetches,
        // broadcasts from memory)
        let (k, node, copies) = lower::prepare(&front).unwrap();
        let c = lower::compile_jammed(&k, &node, &copies).unwrap();
        let ours: Vec<(usize, String)> = c
            .listing
            .iter()
            .map(|(i, t)| (i.offset, lower::Listed(i, *t).to_string()))
            .collect();
        let theirs = iced_lines(&c.code);
        assert_eq!(
            ours.len(),
            theirs.len(),
            "{}: instruction count",
            path.display()
        );
        for ((o1, a), (o2, b)) in ours.iter().zip(&theirs) {
            assert_eq!(o1, o2, "{}: offsets", path.display());
            assert_eq!(normal(a), normal(b), "{} at 0x{o1:x}", path.display());
            checked += 1;
        }
    }
    eprintln!("{checked} instructions compared");
}
