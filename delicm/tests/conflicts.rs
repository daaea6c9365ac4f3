//! The conflict test: the shared cases (Polly's assertions) and random
//! knowledge against a pointwise oracle of the four rules.

use std::collections::BTreeSet;

use delicm::{conflict, Knowledge, Side};
use testkit::json::Json;
use testkit::Lcg;

#[test]
fn shared_cases() {
    let Some(path) = testkit::shared_path("delicm/conflicts.jsonl") else {
        eprintln!("note: ../shared/delicm missing; skipped");
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let c = Json::parse(line).unwrap();
        let side = |k: &str| {
            let s = c.get(k).unwrap();
            let f = |f: &str| s.get(f).and_then(Json::as_str);
            Side::parse(f("occupied"), f("unused"), f("written")).unwrap()
        };
        let (e, p) = (side("existing"), side("proposed"));
        let want = c.get("expect").and_then(Json::as_str) == Some("conflict");
        let id = c.get("id").and_then(Json::as_str).unwrap();
        assert_eq!(conflict(&e, &p).unwrap(), want, "{id}");
        // symmetric in meaning: each direction alone gives the same answer
        let (ke, kp) = Knowledge::complete(&e, &p).unwrap();
        assert_eq!(ke.broken_rule(&kp).unwrap().is_some(), want, "{id} one way");
        assert_eq!(
            kp.broken_rule(&ke).unwrap().is_some(),
            want,
            "{id} other way"
        );
        n += 1;
    }
    assert!(n >= 19);
}

/// One side over the points `Dom[0..6]` (and everything else, `X`).
#[derive(Debug, Clone)]
struct RSide {
    /// None, a set (no values) or a map (values per point; `""` = unknown).
    occupied: Option<Vec<(i64, Vec<&'static str>)>>,
    occupied_is_map: bool,
    unused: Option<Vec<i64>>,
    written: Option<Vec<(i64, Vec<&'static str>)>>,
    written_is_map: bool,
}

const NAMES: [&str; 3] = ["Val", "Phi", ""];

fn random_side(r: &mut Lcg) -> RSide {
    let pts = |r: &mut Lcg, k: usize| -> Vec<i64> {
        let mut v: Vec<i64> = (0..k).map(|_| r.range(0, 5)).collect();
        v.sort();
        v.dedup();
        v
    };
    let with_values = |r: &mut Lcg, p: Vec<i64>| -> Vec<(i64, Vec<&'static str>)> {
        p.into_iter()
            .map(|x| {
                let mut v: Vec<&str> = (0..r.range(1, 2))
                    .map(|_| NAMES[r.below(3) as usize])
                    .collect();
                v.sort();
                v.dedup();
                (x, v)
            })
            .collect()
    };
    let occupied_is_map = r.below(2) == 0;
    let occupied = match r.below(4) {
        0 => None,
        _ => {
            let k = r.range(0, 4) as usize;
            let p = pts(r, k);
            Some(if occupied_is_map {
                with_values(r, p)
            } else {
                p.into_iter().map(|x| (x, vec![])).collect()
            })
        }
    };
    let unused = if occupied.is_none() || r.below(4) == 0 {
        let k = r.range(0, 5) as usize;
        Some(pts(r, k))
    } else {
        None
    };
    let written_is_map = r.below(2) == 0;
    let written = match r.below(4) {
        0 => None,
        _ => {
            let k = r.range(0, 3) as usize;
            let p = pts(r, k);
            Some(if written_is_map {
                with_values(r, p)
            } else {
                p.into_iter().map(|x| (x, vec![""])).collect()
            })
        }
    };
    RSide {
        occupied,
        occupied_is_map,
        unused,
        written,
        written_is_map,
    }
}

fn text_of(v: &[(i64, Vec<&str>)], is_map: bool) -> String {
    let mut parts = Vec::new();
    for (x, names) in v {
        if is_map {
            for n in names {
                parts.push(format!("Dom[{x}] -> {n}[]"));
            }
        } else {
            parts.push(format!("Dom[{x}]"));
        }
    }
    format!("{{ {} }}", parts.join("; "))
}

impl RSide {
    fn side(&self) -> Side {
        let occ = self
            .occupied
            .as_ref()
            .map(|v| text_of(v, self.occupied_is_map));
        let un = self.unused.as_ref().map(|v| {
            format!(
                "{{ {} }}",
                v.iter()
                    .map(|x| format!("Dom[{x}]"))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        });
        let wr = self
            .written
            .as_ref()
            .map(|v| text_of(v, self.written_is_map));
        Side::parse(occ.as_deref(), un.as_deref(), wr.as_deref()).unwrap()
    }
    /// `None` stands for the point X outside every given set.
    fn occ(&self, p: Option<i64>) -> bool {
        match (&self.unused, p) {
            (Some(_), None) => true,
            (Some(u), Some(x)) => !u.contains(&x),
            (None, None) => false,
            (None, Some(x)) => self
                .occupied
                .as_ref()
                .is_some_and(|v| v.iter().any(|(y, _)| *y == x)),
        }
    }
    fn known(&self, p: Option<i64>) -> BTreeSet<&'static str> {
        match (p, &self.occupied) {
            (Some(x), Some(v)) if self.occupied_is_map => v
                .iter()
                .filter(|(y, _)| *y == x)
                .flat_map(|(_, n)| n.iter().copied().filter(|n| !n.is_empty()))
                .collect(),
            _ => BTreeSet::new(),
        }
    }
    fn written_at(&self, t: i64) -> Vec<&'static str> {
        self.written
            .as_ref()
            .map(|v| {
                v.iter()
                    .filter(|(y, _)| *y == t)
                    .flat_map(|(_, n)| n.clone())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// C(E, P) pointwise.
fn oracle_one_way(e: &RSide, p: &RSide) -> bool {
    let points: Vec<Option<i64>> = (-2..9).map(Some).chain([None]).collect();
    for &x in &points {
        if p.occ(x) && e.occ(x) && e.known(x).intersection(&p.known(x)).next().is_none() {
            return true;
        }
    }
    for t in -2..9 {
        for (w, o) in [(e, p), (p, e)] {
            let vals = w.written_at(t);
            if !vals.is_empty() && o.occ(Some(t + 1)) {
                let k = o.known(Some(t + 1));
                if vals.iter().any(|v| v.is_empty() || !k.contains(v)) {
                    return true;
                }
            }
        }
        let (a, b) = (e.written_at(t), p.written_at(t));
        if !a.is_empty() && !b.is_empty() && !a.iter().any(|v| !v.is_empty() && b.contains(v)) {
            return true;
        }
    }
    false
}

#[test]
fn random_knowledge_against_pointwise_oracle() {
    let mut r = Lcg::new(2018);
    let (mut conflicts, mut oks) = (0, 0);
    for _ in 0..300 {
        let (e, p) = (random_side(&mut r), random_side(&mut r));
        let want = oracle_one_way(&e, &p) || oracle_one_way(&p, &e);
        let (es, ps) = (e.side(), p.side());
        assert_eq!(conflict(&es, &ps).unwrap(), want, "E={e:?}\nP={p:?}");
        let (ke, kp) = Knowledge::complete(&es, &ps).unwrap();
        assert_eq!(
            ke.broken_rule(&kp).unwrap().is_some(),
            want,
            "one way E={e:?}\nP={p:?}"
        );
        assert_eq!(
            kp.broken_rule(&ke).unwrap().is_some(),
            want,
            "other way E={e:?}\nP={p:?}"
        );
        if want {
            conflicts += 1
        } else {
            oks += 1
        }
    }
    assert!(
        conflicts > 30 && oks > 30,
        "{conflicts} conflicts, {oks} ok"
    );
}

#[test]
fn parameters_and_bad_input() {
    let e = Side::parse(Some("[n] -> { Dom[i] : 0 <= i < n }"), None, Some("{}")).unwrap();
    let p = Side::parse(Some("{}"), None, Some("[n] -> { Dom[n] }")).unwrap();
    assert!(!conflict(&e, &p).unwrap()); // the write at n starts gap n + 1, free
    let p2 = Side::parse(Some("{}"), None, Some("[n] -> { Dom[n - 2] : n >= 2 }")).unwrap();
    assert!(conflict(&e, &p2).unwrap());
    assert!(Side::parse(Some("{ Dom[i] "), None, None).is_err());
}

#[test]
fn learning_a_proposal_makes_it_existing() {
    let e = Side::parse(Some("{ Dom[i] : i < 0 }"), None, Some("{}")).unwrap();
    let p = Side::parse(Some("{ Dom[i] : 1 <= i <= 3 }"), None, Some("{ Dom[0] }")).unwrap();
    let (mut ke, kp) = Knowledge::complete(&e, &p).unwrap();
    assert!(!ke.conflicts(&kp).unwrap());
    ke.learn(&kp).unwrap();
    // the same lifetime a second time now conflicts, a later one does not
    assert!(ke.conflicts(&kp).unwrap());
    let later = Side::parse(Some("{ Dom[i] : 5 <= i <= 6 }"), None, Some("{ Dom[4] }")).unwrap();
    let (_, kl) = Knowledge::complete(&e, &later).unwrap();
    assert!(!ke.conflicts(&kl).unwrap());
    assert!(ke.to_string().starts_with("occupied: "));
}

/// Learning into knowledge whose occupied zone is the universe outside its
/// unused zone (kept lazy, `Zone::Outside`).
#[test]
fn learning_into_a_lazy_occupied_zone() {
    let e = Side::parse(None, Some("{ Dom[i] : 0 <= i <= 10 }"), Some("{}")).unwrap();
    let p = Side::parse(Some("{ Dom[i] : 1 <= i <= 3 }"), None, Some("{ Dom[0] }")).unwrap();
    let (mut ke, kp) = Knowledge::complete(&e, &p).unwrap();
    assert!(matches!(ke.occupied, delicm::Zone::Outside { .. }));
    assert!(!ke.conflicts(&kp).unwrap());
    ke.learn(&kp).unwrap();
    assert!(ke.conflicts(&kp).unwrap());
    let later = Side::parse(Some("{ Dom[i] : 5 <= i <= 6 }"), None, Some("{ Dom[4] }")).unwrap();
    let (_, kl) = Knowledge::complete(&e, &later).unwrap();
    assert!(!ke.conflicts(&kl).unwrap());
    // outside the unused zone everything stays occupied
    let outside = Side::parse(Some("{ Dom[12] }"), None, Some("{ Dom[11] }")).unwrap();
    let (_, ko) = Knowledge::complete(&e, &outside).unwrap();
    assert!(ke.conflicts(&ko).unwrap());
    // the lazy zone and its points agree
    let pts = ke.occupied.points().unwrap();
    let probe: presburger::UnionMap = "{ Dom[i] : -2 <= i <= 13 }".parse().unwrap();
    assert!(ke
        .occupied
        .intersect_points(&probe)
        .unwrap()
        .is_equal(&pts.intersect(&probe).unwrap())
        .unwrap());
}
