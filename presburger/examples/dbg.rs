use presburger::*;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let m: Map = a[0].parse().unwrap();
    for b in m.basic_maps() {
        for p in &b.make_divs_explicit().unwrap() {
            println!("piece {:?}", p);
            let c = Map::universe(m.space().clone())
                .subtract(&Map::from_basic(p.clone()))
                .unwrap();
            for q in c.basic_maps() {
                println!(" part {}", Map::from_basic(q.clone()));
                println!("   {:?}", q);
                let pts: Vec<i64> = (-10..3)
                    .filter(|&v| testkit::oracle::basic_contains(q, &[Int::from(v)]))
                    .collect();
                println!("   points {:?}", pts);
            }
        }
    }
}
