//! Prints the model of a C file as JSON: `cargo run -p scop --example show_model FILE.c`.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match scop::scop_command(&args) {
        Ok(s) => println!("{s}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
