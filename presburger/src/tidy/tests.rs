//! The forms of issue 21, each as a regression test of [`Map::tidy`] (the printed text,
//! and the set unchanged).

use crate::map::Map;

/// `text` tidied and printed; the tidied set equals the original.
fn tidy(text: &str) -> String {
    let m: Map = text.parse().unwrap();
    let t = m.tidy().unwrap();
    assert!(t.is_equal(&m).unwrap(), "{text}: {t}");
    t.to_string()
}

#[test]
fn implied_constraints_go() {
    assert_eq!(
        tidy("{ [i] : 0 <= i <= 5 and i <= 3 }"),
        "{ [i] : 0 <= i <= 3 }"
    );
    // a bound another disjunct's rows imply, and a repeated disjunct
    assert_eq!(
        tidy("{ [i] -> [o0 = -1] : 0 <= i <= 3 and 0 <= i <= 3 and i >= -2; [i] -> [o0 = -1] : 0 <= i <= 3 }"),
        "{ [i] -> [o0 = -1] : 0 <= i <= 3 }"
    );
}

#[test]
fn residues_print_as_mod_constraints() {
    assert_eq!(
        tidy("{ [x] : exists (e : x = 3e + 1) }"),
        "{ [x] : (x - 1) mod 3 = 0 }"
    );
    assert_eq!(tidy("{ [x] : x mod 3 = 1 }"), "{ [x] : (x - 1) mod 3 = 0 }");
}

#[test]
fn divisions_of_constants_are_constants() {
    assert_eq!(tidy("{ [x] : x = -3*floor((1)/3) + 1 }"), "{ [x = 1] }");
    // the constraints confine the numerator to one multiple of the denominator
    assert_eq!(
        tidy("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 5 and (j + floor((i + 10)/20)) mod 2 = 0 }"),
        "{ [i, j] : (j) mod 2 = 0 and 0 <= i <= 3 and 0 <= j <= 5 }"
    );
    assert_eq!(
        tidy(
            "[n] -> { [i] : 24 <= 2n <= 25 and (i + floor((5n + 3)/7)) mod 2 = 0 and 0 <= i <= 4 }"
        ),
        "[n] -> { [i] : (i + 1) mod 2 = 0 and n = 12 and 0 <= i <= 4 }"
    );
}

#[test]
fn coefficients_are_reduced_modulo_the_denominator() {
    // floor((a + m·k)/m) = k + floor(a/m) (the 2 then vanishes modulo 2); a common
    // factor of the coefficients and the denominator goes
    assert_eq!(
        tidy("[n] -> { [x] : 0 <= x <= 10 and (x + floor((n + 7)/3)) mod 2 = 0 }"),
        "[n] -> { [x] : (x + floor((n + 1)/3)) mod 2 = 0 and 0 <= x <= 10 }"
    );
    assert_eq!(
        tidy("[n] -> { [x] : 0 <= x <= 10 and (x + floor((4n + 5)/6)) mod 5 = 0 }"),
        "[n] -> { [x] : (x + floor((2n + 2)/3)) mod 5 = 0 and 0 <= x <= 10 }"
    );
}

#[test]
fn nested_divisions_are_merged() {
    assert_eq!(
        tidy("[n, m] -> { [x] : 0 <= x <= 10 and (x + floor((n + floor((2m)/3))/2)) mod 5 = 0 }"),
        "[n, m] -> { [x] : (x + floor((3n + 2m)/6)) mod 5 = 0 and 0 <= x <= 10 }"
    );
    // -floor(e/d) = floor((-e + d - 1)/d)
    assert_eq!(
        tidy("[n, m] -> { [x] : 0 <= x <= 10 and (x + floor((n - floor((m)/3))/2)) mod 5 = 0 }"),
        "[n, m] -> { [x] : (x + floor((3n - m + 2)/6)) mod 5 = 0 and 0 <= x <= 10 }"
    );
}

#[test]
fn complementary_disjuncts_merge() {
    // a lexmax answer split on a condition that does not matter (trace-lexmax_map-95)
    assert_eq!(
        tidy(
            "[N] -> { [i] : i >= 0 and 2i <= N - 2 and N > 2*floor((N)/2); \
             [i] : i >= 0 and 2i <= N - 2 and N <= 2*floor((N)/2) }"
        ),
        "[N] -> { [i] : i >= 0 and 2i <= N - 2 }"
    );
}

#[test]
fn empty_and_zero_dimensional() {
    assert_eq!(tidy("{ [] }"), "{ [] }");
    assert_eq!(tidy("[n] -> { [] : n > 0 }"), "[n] -> { [] : n >= 1 }");
    assert_eq!(tidy("{ [i] : 2i = 1 }"), "{ [i] : false }");
    assert_eq!(tidy("{ [i] : i > 0 and i < 0 }"), "{ [i] : false }");
}

#[test]
fn lexmin_answers_are_short() {
    // the shape: an optimum whose divisions nest before tidying
    let m: Map = "[n] -> { [x] : x mod 3 = 1 and x >= n }".parse().unwrap();
    let opt = m.lexmin().unwrap();
    let t = opt.tidy().unwrap();
    assert!(t.is_equal(&opt).unwrap());
    assert!(t.to_string().len() <= opt.to_string().len(), "{opt} -> {t}");
    let m: Map =
        "[n] -> { [i0] -> [o0, o1] : -1 <= i0 <= -n + 8 and -3 <= o0 <= 2 and -6 <= o1 <= i0 - 5 \
                  and -2i0 - 2o0 + 2o1 + 13 >= 0 and (2i0 + 2o0 + o1) mod 3 = 2 }"
            .parse()
            .unwrap();
    let opt = m.lexmax().unwrap();
    let t = opt.tidy().unwrap();
    assert!(t.is_equal(&opt).unwrap());
    // isl: [n] -> { [i0] -> [o0 = -1, o1 = -5 + i0] : -1 <= i0 <= 8 - n }
    assert_eq!(t.basic_maps().len(), 1, "{t}");
    assert!(!t.to_string().contains("floor"), "{t}");
}

#[test]
fn residue_classes_merge_only_when_all_are_there() {
    let three =
        "[n] -> { [i] : (n) mod 3 = 0 and 0 <= i <= n; [i] : (n - 1) mod 3 = 0 and 0 <= i <= n; \
                 [i] : (n - 2) mod 3 = 0 and 0 <= i <= n }";
    assert_eq!(tidy(three), "[n] -> { [i] : 0 <= i <= n }");
    let two =
        "[n] -> { [i] : (n) mod 3 = 0 and 0 <= i <= n; [i] : (n - 1) mod 3 = 0 and 0 <= i <= n }";
    // two classes stay a condition on `n`: since coalescing fuses over
    // common divisions, one disjunct `n <= 3*floor(n/3) + 1` (isl's
    // coalesce gives the same), before two `mod 3` disjuncts
    let t = tidy(two);
    assert!(
        t.contains("floor((n)/3)") || t.matches(" mod 3").count() == 2,
        "{t}"
    );
    assert_ne!(t, "[n] -> { [i] : 0 <= i <= n }");
}

/// The projection `what` (`params` or `domain`) of `text`, tidied and printed; the
/// tidied set equals the projection.
fn projected(text: &str, what: &str) -> String {
    let m: Map = text.parse().unwrap();
    let p = match what {
        "params" => m.params(),
        "domain" => m.domain().unwrap(),
        _ => unreachable!("{what}"),
    };
    let t = p.tidy().unwrap();
    assert!(t.is_equal(&p).unwrap(), "{text}: {t}");
    t.to_string()
}

#[test]
fn existentials_of_projections_go() {
    // the example (isl: `[n] -> { : n >= 2 }`): the equality defines the
    // projected `i` with coefficient 1, then Fourier–Motzkin with a unit lower bound
    assert_eq!(
        projected("[n] -> { [i] : 0 <= i < n and i mod 3 = 1 }", "params"),
        "[n] -> { : n >= 2 }"
    );
    // a congruence left (isl: `(m) mod 2 = 0 and ...`): the equality's two
    // existentials are reduced to one (2e0 - 4e2 -> 2e0'), the other is one-sided
    assert_eq!(
        projected(
            "[n, m] -> { [i] -> [j] : i >= 0 and j >= -2 and floor((-2n + j)/2) >= -3 \
             and n + 2m + i - 6 >= 0 and (m + 2j) mod 4 = 2 }",
            "domain"
        ),
        "[n, m] -> { [i] : (m) mod 2 = 0 and i >= 0 and i >= -n - 2m + 6 }"
    );
    // the dark shadow implied by the rational one: 0 <= 3q - i <= 5 always has a q
    assert_eq!(
        projected(
            "{ [i] -> [j] : 0 <= j <= 5 and (i + j) mod 3 = 0 }",
            "domain"
        ),
        "{ [i] }"
    );
}

#[test]
fn splinters_decide_inexact_shadows() {
    // eliminating j leaves n - 3k - 2 <= 2e <= n - 3k + 1 style pairs without a unit
    // coefficient whose dark shadow misses n = -7: the splinter `2e = L` holds it
    // (isl: `[n] -> { : n >= -7 }`)
    assert_eq!(
        projected(
            "[n] -> { [i, j, k] : i >= 4 and -3 <= j <= n + 4 and -5 <= k <= n + 5 and \
             (n - j - 3k) mod 2 = 1 and 2n + 3i - 2j + 3k - 3 >= 0 }",
            "params"
        ),
        "[n] -> { : n >= -7 }"
    );
    // an existential with no integer value in a gap stays: exists e: n <= 2e <= n
    // is the congruence `(n) mod 2 = 0`, not `true`
    assert_eq!(
        projected("[n] -> { [i] : n <= 2i <= n and 0 <= n <= 10 }", "params"),
        "[n] -> { : (n) mod 2 = 0 and 0 <= n <= 10 }"
    );
}

#[test]
fn equalities_of_the_integer_points_are_found() {
    // a congruence and bounds that leave one value (trace-lexmax_map-113, isl:
    // `[N] -> { [i = 0] : N > 0 }`)
    assert_eq!(
        tidy("[N] -> { [i] : (-i) mod 3 = 0 and 0 <= i < N and i <= 1 }"),
        "[N] -> { [i = 0] : N >= 1 }"
    );
    // implicit equalities of the rational relaxation (maps-1-131): i >= -n and
    // 5i >= n give 6i >= 0, so i = 0 and then n = 0
    assert_eq!(
        tidy("[n] -> { [i] -> [o = 2i + 3] : -n <= i <= 0 and 5i >= n }"),
        "[n] -> { [i = 0] -> [o = 3] : n = 0 }"
    );
    // one integer point of a large equality (bignum-1-258, isl:
    // `[n] -> { [i = 0, j = 1, k = 4] : n = 12 }`)
    assert_eq!(
        tidy(
            "[n] -> { [i, j, k] : -2 <= i <= 2 and j = 1 and 3 <= k <= 4 and \
             526121508626i - 812456235782k - 916707121130n + 14250310396688 = 0 }"
        ),
        "[n] -> { [i = 0, j = 1, k = 4] : n = 12 }"
    );
    // two values: no equality, the bounds are kept
    assert_eq!(
        tidy("{ [i] : (i) mod 3 = 0 and 0 <= i <= 3 }"),
        "{ [i] : (i) mod 3 = 0 and 0 <= i <= 3 }"
    );
}
