use presburger::*;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let m: Map = a[0].parse().unwrap();
    println!("{m}");
    for b in m.basic_maps() {
        let pieces = b.make_divs_explicit().unwrap();
        for p in &pieces {
            println!("piece {}", Map::from_basic(p.clone()));
            let pts: Vec<i64> = (-15..0).filter(|&v| presburger::testing::basic_contains(p, &[Int::from(v)])).collect();
            println!("  points {:?}", pts);
        }
    }
    let pts: Vec<i64> = (-15..0).filter(|&v| presburger::testing::contains(&m, &[Int::from(v)])).collect();
    println!("orig points {:?}", pts);
}
