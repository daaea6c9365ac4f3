use presburger::*;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let m: Map = a[0].parse().unwrap();
    println!("{m}");
    for b in m.basic_maps() {
        let mut b = b.clone();
        println!("{:?}", b);
        b.simplify();
        println!("{:?}", b);
        println!("{}", Map::from_basic(b));
    }
}
